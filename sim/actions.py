"""Actions as every family codes them: one integer, ``code * ACTION_BASE + tile``.

A player's decision function returns an action and the engine carries it out. On one's own turn:
discard (optionally declaring ready), concealed kong, added kong, win, or 加倍 (decline a win and
double). On another seat's discard: win, 加倍, exposed kong, pong, chow (the tile is the chow's lowest
kind) or pass. When each is legal is a family's rule: ``sim.<family>.table``.
"""

from numba import njit

ACTION_BASE = 64
NO_TILE = ACTION_BASE - 1

DISCARD = 0
DISCARD_READY = 1  # discard and declare ready (报听)
CONCEALED_KONG = 2
ADDED_KONG = 3
WIN = 4
DOUBLE = 5  # 加倍: give up this win, double the multiplier
PASS = 6
CHOW = 7
PONG = 8
KONG = 9  # exposed kong on a discard

ACTION_NAMES = ("discard", "discard+ready", "concealed kong", "added kong", "win", "double", "pass", "chow", "pong", "kong")


@njit(cache=True, inline="always", _nrt=False)
def encode(code, tile):
    return code * ACTION_BASE + tile


@njit(cache=True, inline="always", _nrt=False)
def action_code(action):
    return action // ACTION_BASE


@njit(cache=True, inline="always", _nrt=False)
def action_tile(action):
    return action % ACTION_BASE

"""Actions of a 二人麻将 deal: their integer codes and the rules that say when each is legal (RULES.md 3).

An action is one integer, ``code * ACTION_BASE + tile``: a player's decision function returns it and the
engine carries it out. On one's own turn: discard (optionally declaring ready), concealed kong, added
kong, win, or 加倍 (decline a win and double). On the opponent's discard: win, 加倍, exposed kong, pong,
chow (the tile is the chow's lowest kind) or pass. The legality functions read the shared table state
(``sim.table_state``) and are what the validating mode checks every decision against.
"""

from numba import njit

from kernels.tiles import MELD_PONG
from sim.table_state import CLAIMED_MELDS, N_MELDS, READY, wall_left

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


@njit(cache=True, inline="always", _nrt=False)
def chow_possible(hand, low, tile):
    """The hand holds the two tiles other than `tile` of the 万 chow starting at `low`."""
    if low < 0 or low + 2 > 8 or tile < low or tile > low + 2:
        return False
    for kind in range(low, low + 3):
        if kind != tile and hand[kind] == 0:
            return False
    return True


@njit(cache=True, inline="always", _nrt=False)
def pong_index(seat, melds, table, kind):
    """The index of the seat's pong of `kind`, or -1."""
    for index in range(table[N_MELDS + seat]):
        if melds[seat, index, 0] == MELD_PONG and melds[seat, index, 1] == kind:
            return index
    return -1


@njit(cache=True, inline="always", _nrt=False)
def may_declare_ready(seat, table, ready_requires_concealed):
    return table[READY + seat] == 0 and not (ready_requires_concealed and table[CLAIMED_MELDS + seat] > 0)


@njit(cache=True, _nrt=False)
def is_legal_turn_action(action, seat, win_allowed, can_double, may_kong, hand_ready_after, state):
    """Whether an own-turn action is legal. `hand_ready_after` says whether discarding the tile would
    leave a ready hand the seat may declare (only consulted for DISCARD_READY)."""
    hands, melds, table = state[0], state[1], state[3]
    code = action_code(action)
    tile = action_tile(action)
    if code == WIN:
        return win_allowed
    if code == DOUBLE:
        return win_allowed and can_double
    if tile >= hands.shape[1]:
        return False
    if code == DISCARD:
        return hands[seat, tile] > 0
    if code == DISCARD_READY:
        return hands[seat, tile] > 0 and hand_ready_after
    kong_room = may_kong and wall_left(table) > 0 and table[N_MELDS + seat] < 4
    if code == CONCEALED_KONG:
        return kong_room and hands[seat, tile] == 4
    if code == ADDED_KONG:
        return kong_room and hands[seat, tile] > 0 and pong_index(seat, melds, table, tile) >= 0
    return False


@njit(cache=True, _nrt=False)
def is_legal_claim(action, seat, tile, win_allowed, can_double, may_claim, state):
    """Whether a response to the opponent's discard (or added kong, with may_claim False) is legal."""
    hands, table = state[0], state[3]
    code = action_code(action)
    if code == PASS:
        return True
    if code == WIN:
        return win_allowed
    if code == DOUBLE:
        return win_allowed and can_double
    if not may_claim or table[N_MELDS + seat] >= 4:
        return False
    if code == PONG:
        return hands[seat, tile] >= 2
    if code == KONG:
        return hands[seat, tile] >= 3 and wall_left(table) > 0
    if code == CHOW:
        return tile < 9 and chow_possible(hands[seat], action_tile(action), tile)
    return False

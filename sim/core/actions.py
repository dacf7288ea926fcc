"""Actions and decisions as every family codes them.

An action is one integer, ``code * ACTION_BASE + tile``: stable across versions, so a player or a log may
store it. A player's decision function returns an action and the engine carries it out. On one's own turn:
discard (optionally declaring ready), concealed kong, added kong, win, or 加倍 (decline a win and
double). On another seat's discard: win, 加倍, exposed kong, pong, chow (the tile is the chow's lowest
kind) or pass. Right after the deal, a seat whose hand is ready may declare it (no tile); where the family
plays them, a seat gives three tiles of one suit (换三张: one EXCHANGE action per tile) and declares a void
suit (定缺: VOID, the tile the suit's first kind). When each is legal is a family's rule: ``sim.<family>.table``.

A decision is what the engine asks a seat: one of the ``DECISION_*`` kinds below, with its legal actions.
"""

from numba import njit

from sim.core.notation import tile_name

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
DECLARE_READY = 10  # declare ready without discarding: 天听 right after the deal
EXCHANGE = 11  # 换三张: give this tile (asked once for each of the three)
VOID = 12  # 定缺: declare void the suit whose first kind is the tile

ACTION_NAMES = (
    "discard", "discard+ready", "concealed kong", "added kong", "win", "double", "pass", "chow", "pong", "kong",
    "declare ready", "exchange", "void suit",
)
# How a player writes each action (``action_text``): the word, then the tile where there is one.
ACTION_WORDS = (
    "discard", "ready", "concealed kong", "added kong", "win", "double", "pass", "chow", "pong", "kong", "ready",
    "give", "void",
)
N_ACTIONS = len(ACTION_NAMES) * ACTION_BASE  # every action is below this: the size of a legal-action mask

# The decisions: right after the deal (declare ready or pass); one's own turn; another seat's added kong,
# which may be robbed; another seat's discard; one tile of the three a seat gives (换三张); a seat's void
# suit (定缺).
DECISION_OPENING_READY, DECISION_TURN, DECISION_ROB, DECISION_CLAIM, DECISION_EXCHANGE, DECISION_VOID = range(6)
DECISION_NAMES = ("opening ready", "turn", "rob", "claim", "exchange", "void")
MAX_LEGAL = 160  # more legal actions than any decision of any family can have


@njit(cache=True, inline="always", _nrt=False)
def encode(code, tile):
    return code * ACTION_BASE + tile


@njit(cache=True, inline="always", _nrt=False)
def action_code(action):
    return action // ACTION_BASE


@njit(cache=True, inline="always", _nrt=False)
def action_tile(action):
    return action % ACTION_BASE


def action_text(action: int) -> str:
    """`discard 3m`, `ready 3m` (discard and declare ready), `chow 345m`, `pong 5z`, `win`, `pass`,
    `give 3p` (换三张), `void s` (定缺: the suit's letter), ..."""
    code, tile = divmod(int(action), ACTION_BASE)
    word = ACTION_WORDS[code]
    if tile == NO_TILE:
        return word
    if code == VOID:
        return f"{word} {tile_name(tile)[1]}"
    if code == CHOW:
        name = tile_name(tile)
        return f"{word} {int(name[0])}{int(name[0]) + 1}{int(name[0]) + 2}{name[1]}"
    return f"{word} {tile_name(tile)}"

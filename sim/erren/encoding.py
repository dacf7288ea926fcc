"""The numeric observation of a 二人 seat, for networks (docs/learning.md#the-observation): the blocks of its
int16 vector (``LAYOUT``, built on ``sim.players.encoding``) and ``encode``, which fills them from a deal's
state in numba, for the step environment, the batched one and decision datasets alike.

It holds only what the seat may see (sim.erren.table): its own concealed tiles, the opponent's once the seat
has declared ready (the rules show them), both seats' melds (another seat's concealed kongs counted, not
shown), discards as counts and in order, ready declarations, doubles, flowers, the wall's size, the turn,
the dealer, the seat, and the ruleset's switches. What the pending decision is about (its kind, the tile
drawn or on offer, the win it offers) is shown to the deciding seat only. The oracle vector (``ORACLE_LAYOUT``)
adds what the seat cannot see: the opponent's hand and the wall.
"""

import numpy as np
from numba import njit

from kernels.tiles import MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_KINDS
from sim.core.actions import DECISION_NAMES, DECISION_OPENING_READY, DECISION_TURN
from sim.erren.table import (
    CAN_DOUBLE,
    CLAIMED_MELDS,
    DEALER,
    DECISION,
    DOUBLES,
    DRAWN,
    FLOWERS,
    HEAVENLY_READY,
    N_DISCARDS,
    N_MELDS,
    OFFER,
    READY,
    READY_TURN,
    SETTINGS_FIELDS,
    TURN,
    WALL_BACK,
    WALL_FRONT,
    WIN_POINTS,
    WIN_TOTAL,
    opponent_hand_visible,
    wall_left,
)
from sim.players.encoding import LARGEST, Block, Layout, clear, put, put_history

SEATS = 2
HISTORY = 32  # discards in order per seat: more than a seat makes in any 二人 deal (it keeps the last 32)
NEXT_DRAWS = 16  # the oracle's look at the wall
FLOWER_CODE = N_KINDS + 1  # a flower in the oracle's next draws (kinds are kind + 1)

LAYOUT = Layout((
    Block("decision", len(DECISION_NAMES), 0, 1, "the pending decision's kind, one-hot over sim.core.actions.DECISION_NAMES; "
          "zeros when this seat is not deciding"),
    Block("drawn", N_KINDS, 0, 1, "on this seat's turn, the tile it just drew, one-hot (zeros after a claim)"),
    Block("offer", N_KINDS, 0, 1, "on a claim or a rob, the tile on offer to this seat, one-hot"),
    Block("win_on_offer", 1, -1, LARGEST, "the fan total of the win the decision offers (flowers aside, before doubling); -1: none"),
    Block("win_points", 1, 0, LARGEST, "its points where the ruleset scores points (erren-challenge); else 0"),
    Block("may_double", 1, 0, 1, "1 when the decision may declare 加倍 instead of winning"),
    Block("hand", N_KINDS, 0, 4, "this seat's concealed tiles, per kind"),
    Block("opponent_hand", N_KINDS, 0, 4, "the opponent's concealed tiles once this seat has declared ready (the rules "
          "show them then); zeros before"),
    Block("visible", N_KINDS, 0, 4, "copies on the table: discards and exposed melds"),
    Block("bonus", N_KINDS, 0, 4, "bonus tiles turned face up after the deal (erren-challenge's 花牌)"),
    Block("melds", N_KINDS, 0, 4, "tiles in the seat's melds; another seat's concealed kongs are not shown", SEATS),
    Block("concealed_kongs", 1, 0, 4, "the seat's concealed kongs", SEATS),
    Block("claimed_melds", 1, 0, 4, "the seat's melds made from a discard", SEATS),
    Block("discards", N_KINDS, 0, 4, "the seat's discards, per kind", SEATS),
    Block("discards_after_ready", N_KINDS, 0, 4, "the seat's discards after it declared ready, per kind", SEATS),
    Block("discard_order", HISTORY, 0, N_KINDS, f"the seat's last {HISTORY} discards, oldest first, as kind + 1 "
          "(0: none yet)", SEATS),
    Block("ready", 1, 0, 1, "1 once the seat declared ready (报听)", SEATS),
    Block("heavenly_ready", 1, 0, 1, "1 when that declaration was 天听", SEATS),
    Block("ready_turn", 1, -1, LARGEST, "the turn of the declaration; -1: none", SEATS),
    Block("doubles", 1, 0, LARGEST, "times the seat declared 加倍", SEATS),
    Block("flowers", 1, 0, 8, "flowers the seat set aside", SEATS),
    Block("dealer", SEATS, 0, 1, "the dealer's slot, one-hot"),
    Block("seat", SEATS, 0, 1, "this seat's number at the table, one-hot"),
    Block("wall_left", 1, 0, LARGEST, "tiles left to draw"),
    Block("turn", 1, 0, LARGEST, "turns begun so far"),
    Block("switches", SETTINGS_FIELDS, -LARGEST, LARGEST, "the ruleset's switches as the engine reads them "
          "(rules.settings, slots named in sim.erren.table); saturated at 32,767"),
))
ORACLE_LAYOUT = LAYOUT.extended((
    Block("hidden_hand", N_KINDS, 0, 4, "oracle: the opponent's concealed tiles"),
    Block("wall_counts", N_KINDS, 0, 4, "oracle: the tiles left to draw, per kind (flowers aside)"),
    Block("next_draws", NEXT_DRAWS, 0, FLOWER_CODE, f"oracle: the next {NEXT_DRAWS} tiles from the front of the wall, "
          f"as kind + 1 ({FLOWER_CODE}: a flower; 0: past the wall's end)"),
))
SIZE, ORACLE_SIZE = LAYOUT.size, ORACLE_LAYOUT.size

# Each block's first entry, as constants the kernel reads.
_DECISION, _DRAWN, _OFFER = LAYOUT.start("decision"), LAYOUT.start("drawn"), LAYOUT.start("offer")
_WIN, _POINTS, _MAY_DOUBLE = LAYOUT.start("win_on_offer"), LAYOUT.start("win_points"), LAYOUT.start("may_double")
_HAND, _OPPONENT_HAND = LAYOUT.start("hand"), LAYOUT.start("opponent_hand")
_VISIBLE, _BONUS = LAYOUT.start("visible"), LAYOUT.start("bonus")
_MELDS, _CONCEALED_KONGS = LAYOUT.start("melds"), LAYOUT.start("concealed_kongs")
_CLAIMED, _DISCARDS = LAYOUT.start("claimed_melds"), LAYOUT.start("discards")
_AFTER_READY, _ORDER = LAYOUT.start("discards_after_ready"), LAYOUT.start("discard_order")
_READY, _HEAVENLY, _READY_TURN = LAYOUT.start("ready"), LAYOUT.start("heavenly_ready"), LAYOUT.start("ready_turn")
_DOUBLES, _FLOWERS = LAYOUT.start("doubles"), LAYOUT.start("flowers")
_DEALER, _SEAT, _WALL_LEFT, _TURN = LAYOUT.start("dealer"), LAYOUT.start("seat"), LAYOUT.start("wall_left"), LAYOUT.start("turn")
_SWITCHES = LAYOUT.start("switches")
_HIDDEN_HAND, _WALL_COUNTS = ORACLE_LAYOUT.start("hidden_hand"), ORACLE_LAYOUT.start("wall_counts")
_NEXT_DRAWS = ORACLE_LAYOUT.start("next_draws")


def bounds(oracle: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The low and high int16 vectors of the encoding (with the oracle's blocks if `oracle`)."""
    return (ORACLE_LAYOUT if oracle else LAYOUT).bounds()


@njit(cache=True, _nrt=False)
def encode(seat, deciding, state, work, wall, record, rules, out):
    """Write what `seat` sees of `state` into `out` (int16, SIZE; ORACLE_SIZE adds the hidden tiles of the
    opponent and of `wall`). `deciding`: the seat has the pending decision, whose details it then sees.
    (`work` and `record`, the engine's work arrays and the deal's record, are read by the families whose
    observation needs them; a 二人 seat's is all in the state.)"""
    clear(out)
    table, hands = state.table, state.hands
    out[_WIN] = -1
    if deciding:
        decision = table[DECISION]
        out[_DECISION + decision] = 1
        if decision == DECISION_TURN:
            if 0 <= table[DRAWN] < N_KINDS:
                out[_DRAWN + table[DRAWN]] = 1
        elif decision != DECISION_OPENING_READY:
            out[_OFFER + table[OFFER]] = 1
        if decision != DECISION_OPENING_READY:
            put(out, _WIN, table[WIN_TOTAL])
            if table[WIN_TOTAL] >= 0:
                put(out, _POINTS, table[WIN_POINTS])
                out[_MAY_DOUBLE] = table[CAN_DOUBLE]
    opponent = 1 - seat
    shows_opponent = opponent_hand_visible(seat, table)
    for kind in range(N_KINDS):
        out[_HAND + kind] = hands[seat, kind]
        if shows_opponent:
            out[_OPPONENT_HAND + kind] = hands[opponent, kind]
        out[_VISIBLE + kind] = state.visible[kind]
        out[_BONUS + kind] = state.bonus[kind]
    for slot in range(SEATS):
        other = (seat + slot) % SEATS
        melds = _MELDS + slot * N_KINDS
        for index in range(table[N_MELDS + other]):
            code, low = state.melds[other, index, 0], state.melds[other, index, 1]
            if code == MELD_CHOW:
                for kind in range(low, low + 3):
                    out[melds + kind] += 1
            elif code == MELD_PONG:
                out[melds + low] += 3
            elif code == MELD_KONG:
                out[melds + low] += 4
            elif code == MELD_CONCEALED_KONG:
                out[_CONCEALED_KONGS + slot] += 1
                if slot == 0:
                    out[melds + low] += 4
        out[_CLAIMED + slot] = table[CLAIMED_MELDS + other]
        for kind in range(N_KINDS):
            out[_DISCARDS + slot * N_KINDS + kind] = state.discarded[other, kind]
            out[_AFTER_READY + slot * N_KINDS + kind] = state.after_ready[other, kind]
        put_history(out, _ORDER + slot * HISTORY, HISTORY, state.discard_order[other], table[N_DISCARDS + other])
        out[_READY + slot] = table[READY + other]
        out[_HEAVENLY + slot] = table[HEAVENLY_READY + other]
        put(out, _READY_TURN + slot, table[READY_TURN + other])
        put(out, _DOUBLES + slot, table[DOUBLES + other])
        out[_FLOWERS + slot] = table[FLOWERS + other]
    out[_DEALER + (table[DEALER] - seat) % SEATS] = 1
    out[_SEAT + seat] = 1
    put(out, _WALL_LEFT, max(0, wall_left(table)))
    put(out, _TURN, table[TURN])
    for field in range(SETTINGS_FIELDS):
        put(out, _SWITCHES + field, rules.settings[field])
    if out.shape[0] > SIZE:
        _encode_hidden(opponent, state, wall, out)


@njit(cache=True, inline="always", _nrt=False)
def _encode_hidden(opponent, state, wall, out):
    """The oracle's blocks: the opponent's hand and the tiles left to draw, counted and in order."""
    table = state.table
    for kind in range(N_KINDS):
        out[_HIDDEN_HAND + kind] = state.hands[opponent, kind]
    for position in range(table[WALL_FRONT], table[WALL_BACK] + 1):
        if wall[position] < N_KINDS:
            out[_WALL_COUNTS + wall[position]] += 1
    for index in range(NEXT_DRAWS):
        position = table[WALL_FRONT] + index
        if position <= table[WALL_BACK]:
            out[_NEXT_DRAWS + index] = wall[position] + 1 if wall[position] < N_KINDS else FLOWER_CODE


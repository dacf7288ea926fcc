"""The numeric observation of a 血战 seat, for networks (docs/learning.md#the-observation): the blocks of its
int16 vector (``LAYOUT``, built on ``sim.players.encoding``) and ``encode``, which fills them from a deal's
state in numba, for the step environment, the batched one and decision datasets alike.

It holds only what the seat may see (sim.xuezhan.observation shows a player the same): its own concealed
tiles and its own locks (过手碰, 过水胡, 漏胡, 过手杠), every seat's melds (another seat's concealed kongs counted,
not shown), discards as counts and in order, 报叫 declarations with their public waits, wins, money so far
and void suits, the wall's size, the turn, the dealer, the seat, the table's size and the ruleset's
switches. Four seat slots always, so one network serves tables of 2, 3 and 4 (a slot past the table's size
is zeros and marked absent). What the pending decision is about is shown to the deciding seat only. The
oracle vector (``ORACLE_LAYOUT``) adds what the seat cannot see: the other hands and the wall.
"""

import numpy as np
from numba import njit

from kernels.tiles import MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_KINDS
from sim.core.actions import DECISION_CLAIM, DECISION_EXCHANGE, DECISION_NAMES, DECISION_ROB, DECISION_TURN
from sim.players.encoding import LARGEST, Block, Layout, clear, put, put_history
from sim.xuezhan.table import (
    DEALER,
    DECISION,
    DECLARED,
    DECLARED_VOID,
    DRAWN,
    MAX_SEATS,
    MISSED_VALUE,
    N_DISCARDS,
    N_MELDS,
    N_SEATS,
    OFFER,
    OFFERED_BY,
    PASSED_KONG,
    PICKED,
    PONG_LOCK,
    SETTINGS_FIELDS,
    SUIT_SIZE,
    TURN,
    WALL_BACK,
    WALL_FRONT,
    WIN_ALLOWED,
    WIN_LOCK,
    WIN_VALUE,
    WON,
    wall_left,
)

SEATS = MAX_SEATS
HISTORY = 32  # discards in order per seat: more than a seat makes in any 血战 deal (it keeps the last 32)
NEXT_DRAWS = 16  # the oracle's look at the wall

LAYOUT = Layout((
    Block("decision", len(DECISION_NAMES), 0, 1, "the pending decision's kind, one-hot over sim.core.actions.DECISION_NAMES; "
          "zeros when this seat is not deciding"),
    Block("drawn", N_KINDS, 0, 1, "on this seat's turn, the tile it just received, one-hot (zeros after a pong)"),
    Block("offer", N_KINDS, 0, 1, "on a claim or a rob, the tile on offer to this seat, one-hot"),
    Block("offered_by", SEATS, 0, 1, "the slot of the seat that discarded it or adds it to its pong, one-hot"),
    Block("win_on_offer", 1, -1, LARGEST, "the raw value of the win the decision offers; -1: none (or barred)"),
    Block("exchange_picked", N_KINDS, 0, 3, "in 换三张, the tiles this seat has picked to give so far"),
    Block("hand", N_KINDS, 0, 4, "this seat's concealed tiles, per kind"),
    Block("pong_lock", N_KINDS, 0, 1, "过手碰: 1 for each kind this seat may not pong now"),
    Block("passed_kong", N_KINDS, 0, 1, "过手杠: 1 for each kind this seat ponged when it could have konged it"),
    Block("win_lock", 1, 0, 1, "过水胡: 1 while this seat may not win on a discard"),
    Block("missed_value", 1, -1, LARGEST, "漏胡: the value of the win this seat passed (a win must be worth more); -1: free"),
    Block("visible", N_KINDS, 0, 4, "copies on the table: discards and exposed melds"),
    Block("in_deal", 1, 0, 1, "1 when the slot has a seat at this table", SEATS),
    Block("melds", N_KINDS, 0, 4, "tiles in the seat's melds; another seat's concealed kongs are not shown", SEATS),
    Block("concealed_kongs", 1, 0, 4, "the seat's concealed kongs", SEATS),
    Block("discards", N_KINDS, 0, 4, "the seat's discards, per kind", SEATS),
    Block("discard_order", HISTORY, 0, N_KINDS, f"the seat's last {HISTORY} discards, oldest first, as kind + 1 "
          "(0: none yet)", SEATS),
    Block("declared", 1, 0, 1, "1 once the seat declared 报叫", SEATS),
    Block("waits", N_KINDS, 0, 1, "a 报叫 declarer's public waits", SEATS),
    Block("won", 1, 0, SEATS, "the seat's win order (0 while it is still in the deal)", SEATS),
    Block("money", 1, -LARGEST, LARGEST, "the seat's units so far in the deal (wins and kongs)", SEATS),
    Block("void_suit", 1, 0, 3, "定缺: the suit the seat declared void (1 万, 2 筒, 3 条); 0: none", SEATS),
    Block("dealer", SEATS, 0, 1, "the dealer's slot, one-hot"),
    Block("seat", SEATS, 0, 1, "this seat's number at the table, one-hot"),
    Block("seats", 1, 2, SEATS, "seats at the table"),
    Block("wall_left", 1, 0, LARGEST, "tiles left to draw"),
    Block("turn", 1, 0, LARGEST, "turns begun so far"),
    Block("switches", SETTINGS_FIELDS, -LARGEST, LARGEST, "the ruleset's switches as the engine reads them "
          "(rules.settings, slots named in sim.xuezhan.table); saturated at 32,767"),
))
ORACLE_LAYOUT = LAYOUT.extended((
    Block("hidden_hands", N_KINDS, 0, 4, "oracle: the concealed tiles of the seats in slots 1, 2 and 3", SEATS - 1),
    Block("wall_counts", N_KINDS, 0, 4, "oracle: the tiles left to draw, per kind"),
    Block("next_draws", NEXT_DRAWS, 0, N_KINDS, f"oracle: the next {NEXT_DRAWS} tiles from the front of the wall, "
          "as kind + 1 (0: past the wall's end)"),
))
SIZE, ORACLE_SIZE = LAYOUT.size, ORACLE_LAYOUT.size

# Each block's first entry, as constants the kernel reads.
_DECISION, _DRAWN, _OFFER = LAYOUT.start("decision"), LAYOUT.start("drawn"), LAYOUT.start("offer")
_OFFERED_BY, _WIN, _PICKED = LAYOUT.start("offered_by"), LAYOUT.start("win_on_offer"), LAYOUT.start("exchange_picked")
_HAND, _PONG_LOCK, _PASSED_KONG = LAYOUT.start("hand"), LAYOUT.start("pong_lock"), LAYOUT.start("passed_kong")
_WIN_LOCK, _MISSED, _VISIBLE = LAYOUT.start("win_lock"), LAYOUT.start("missed_value"), LAYOUT.start("visible")
_IN_DEAL, _MELDS, _CONCEALED_KONGS = LAYOUT.start("in_deal"), LAYOUT.start("melds"), LAYOUT.start("concealed_kongs")
_DISCARDS, _ORDER, _DECLARED = LAYOUT.start("discards"), LAYOUT.start("discard_order"), LAYOUT.start("declared")
_WAITS, _WON, _MONEY, _VOID = LAYOUT.start("waits"), LAYOUT.start("won"), LAYOUT.start("money"), LAYOUT.start("void_suit")
_DEALER, _SEAT, _SEATS = LAYOUT.start("dealer"), LAYOUT.start("seat"), LAYOUT.start("seats")
_WALL_LEFT, _TURN, _SWITCHES = LAYOUT.start("wall_left"), LAYOUT.start("turn"), LAYOUT.start("switches")
_HIDDEN_HANDS, _WALL_COUNTS = ORACLE_LAYOUT.start("hidden_hands"), ORACLE_LAYOUT.start("wall_counts")
_NEXT_DRAWS = ORACLE_LAYOUT.start("next_draws")


def bounds(oracle: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The low and high int16 vectors of the encoding (with the oracle's blocks if `oracle`)."""
    return (ORACLE_LAYOUT if oracle else LAYOUT).bounds()


@njit(cache=True, _nrt=False)
def encode(seat, deciding, state, work, wall, record, rules, out):
    """Write what `seat` sees of `state` into `out` (int16, SIZE; ORACLE_SIZE adds the other hands and
    `wall`). `deciding`: the seat has the pending decision, whose details it then sees; `work`: the engine's
    work arrays, whose `money` the caller has filled with each seat's money so far (``engine.seat_money``, from
    the deal's record: the engine imports this module, so it cannot be called from here) and which hold the
    tiles picked in 换三张. (`record` is read by the families whose observation needs it.)"""
    clear(out)
    table, hands = state.table, state.hands
    n = table[N_SEATS]
    out[_WIN] = -1
    if deciding:
        decision = table[DECISION]
        out[_DECISION + decision] = 1
        if decision == DECISION_TURN:
            if table[DRAWN] >= 0:
                out[_DRAWN + table[DRAWN]] = 1
        elif decision == DECISION_CLAIM or decision == DECISION_ROB:
            out[_OFFER + table[OFFER]] = 1
            out[_OFFERED_BY + (table[OFFERED_BY] - seat) % n] = 1
        if (decision == DECISION_TURN or decision == DECISION_CLAIM or decision == DECISION_ROB) and table[WIN_ALLOWED]:
            put(out, _WIN, table[WIN_VALUE])
        if decision == DECISION_EXCHANGE:
            for index in range(table[PICKED]):
                out[_PICKED + work.exchange_choices[seat, index]] += 1
    for kind in range(N_KINDS):
        out[_HAND + kind] = hands[seat, kind]
        out[_PONG_LOCK + kind] = (table[PONG_LOCK + seat] >> kind) & 1
        out[_PASSED_KONG + kind] = (table[PASSED_KONG + seat] >> kind) & 1
        out[_VISIBLE + kind] = state.visible[kind]
    out[_WIN_LOCK] = table[WIN_LOCK + seat]
    put(out, _MISSED, table[MISSED_VALUE + seat])
    for slot in range(n):
        other = (seat + slot) % n
        out[_IN_DEAL + slot] = 1
        melds = _MELDS + slot * N_KINDS
        for index in range(table[N_MELDS + other]):
            code, low = state.melds[other, index, 0], state.melds[other, index, 1]
            if code == MELD_PONG:
                out[melds + low] += 3
            elif code == MELD_KONG:
                out[melds + low] += 4
            elif code == MELD_CONCEALED_KONG:
                out[_CONCEALED_KONGS + slot] += 1
                if slot == 0:
                    out[melds + low] += 4
        for kind in range(N_KINDS):
            out[_DISCARDS + slot * N_KINDS + kind] = state.discarded[other, kind]
            out[_WAITS + slot * N_KINDS + kind] = state.waits[other, kind]
        put_history(out, _ORDER + slot * HISTORY, HISTORY, state.discard_order[other], table[N_DISCARDS + other])
        out[_DECLARED + slot] = table[DECLARED + other]
        out[_WON + slot] = table[WON + other]
        put(out, _MONEY + slot, work.money[other])
        if table[DECLARED_VOID + other] >= 0:
            out[_VOID + slot] = table[DECLARED_VOID + other] // SUIT_SIZE + 1
    out[_DEALER + (table[DEALER] - seat) % n] = 1
    out[_SEAT + seat] = 1
    out[_SEATS] = n
    put(out, _WALL_LEFT, max(0, wall_left(table)))
    put(out, _TURN, table[TURN])
    for field in range(SETTINGS_FIELDS):
        put(out, _SWITCHES + field, rules.settings[field])
    if out.shape[0] > SIZE:
        _encode_hidden(seat, n, state, wall, out)


@njit(cache=True, inline="always", _nrt=False)
def _encode_hidden(seat, n, state, wall, out):
    """The oracle's blocks: the other hands and the tiles left to draw, counted and in order."""
    table = state.table
    for slot in range(1, n):
        other = (seat + slot) % n
        for kind in range(N_KINDS):
            out[_HIDDEN_HANDS + (slot - 1) * N_KINDS + kind] = state.hands[other, kind]
    for position in range(table[WALL_FRONT], table[WALL_BACK] + 1):
        out[_WALL_COUNTS + wall[position]] += 1
    for index in range(NEXT_DRAWS):
        position = table[WALL_FRONT] + index
        if position <= table[WALL_BACK]:
            out[_NEXT_DRAWS + index] = wall[position] + 1

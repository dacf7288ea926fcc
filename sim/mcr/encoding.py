"""The numeric observation of an MCR (国标) seat, for networks (docs/learning.md#the-observation): the blocks of
its int16 vector (``LAYOUT``, built on ``sim.players.encoding``) and ``encode``, which fills them from a deal's
state in numba, for the step environment and the batched one alike.

It holds only what the seat may see (sim.mcr.observation shows a player the same): its own concealed tiles,
every seat's melds by kind (chows by their lowest tile, pongs, exposed kongs; another seat's concealed kongs
counted, their kind not shown), discards as counts and in order, flowers, money so far (none moves before the
win is paid), the wall's size, the turn, the dealer, the seat's own wind and the round wind, and the ruleset's
switches. Four seat slots, slot 0 the observing seat, then turn order. What the pending decision is about
(the tile drawn or on offer, who offers it, the fan total of the win it offers) is shown to the deciding seat
only; which claims other seats made of a tile on offer is not shown to anyone. The oracle vector
(``ORACLE_LAYOUT``) adds what the seat cannot see: the other hands, the kinds of their concealed kongs and the
wall.
"""

import numpy as np
from numba import njit

from kernels.tiles import MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_FLOWERS, N_KINDS
from sim.core.actions import DECISION_CLAIM, DECISION_NAMES, DECISION_ROB, DECISION_TURN
from sim.mcr.table import (
    DEALER,
    DECISION,
    DRAWN,
    FLOWERS,
    N_DISCARDS,
    N_MELDS,
    OFFER,
    OFFERED_BY,
    R_MONEY,
    ROUND_WIND,
    SEATS,
    SETTINGS_FIELDS,
    TURN,
    WALL_BACK,
    WALL_FRONT,
    WIN_ALLOWED,
    WIN_TOTAL,
    WINDS,
    wall_left,
)
from sim.players.encoding import LARGEST, Block, Layout, clear, put, put_history

# Discards in order per seat, as the other families keep them: at most 28 in a deal in 100,000 greedy deals and
# 100,000 random ones (the 144 tiles leave 91 to draw among four seats); past 32, the oldest would drop out.
HISTORY = 32
NEXT_DRAWS = 16  # the oracle's look at the wall
FLOWER_CODE = N_KINDS + 1  # a flower in the oracle's next draws (kinds are kind + 1)

LAYOUT = Layout((
    Block("decision", len(DECISION_NAMES), 0, 1, "the pending decision's kind, one-hot over sim.core.actions.DECISION_NAMES; "
          "zeros when this seat is not deciding"),
    Block("drawn", N_KINDS, 0, 1, "on this seat's turn, the tile it just received, one-hot (zeros after a chow or pong)"),
    Block("offer", N_KINDS, 0, 1, "on a claim or a rob, the tile on offer to this seat, one-hot"),
    Block("offered_by", SEATS, 0, 1, "the slot of the seat that discarded it or adds it to its pong, one-hot"),
    Block("win_on_offer", 1, -1, LARGEST, "the fan total (flowers aside) of the win the decision offers; -1: none "
          "(not complete, or below the minimum)"),
    Block("hand", N_KINDS, 0, 4, "this seat's concealed tiles, per kind"),
    Block("visible", N_KINDS, 0, 4, "copies on the table: discards and exposed melds"),
    Block("chows", N_KINDS, 0, 4, "the seat's chows, by their lowest tile", SEATS),
    Block("pongs", N_KINDS, 0, 1, "the seat's pongs, by kind", SEATS),
    Block("kongs", N_KINDS, 0, 1, "the seat's kongs, by kind: exposed ones, and this seat's own concealed ones", SEATS),
    Block("concealed_kongs", 1, 0, 4, "the seat's concealed kongs (another seat's kind is not shown)", SEATS),
    Block("discards", N_KINDS, 0, 4, "the seat's discards, per kind", SEATS),
    Block("discard_order", HISTORY, 0, N_KINDS, f"the seat's last {HISTORY} discards, oldest first, as kind + 1 "
          "(0: none yet)", SEATS),
    Block("flowers", 1, 0, N_FLOWERS, "flowers the seat set aside", SEATS),
    Block("money", 1, -LARGEST, LARGEST, "the seat's points so far in the deal (zero until a win is paid)", SEATS),
    Block("dealer", SEATS, 0, 1, "the dealer's slot, one-hot"),
    Block("seat", SEATS, 0, 1, "this seat's number at the table, one-hot"),
    Block("seat_wind", WINDS, 0, 1, "this seat's wind this deal (east, south, west, north), one-hot"),
    Block("round_wind", WINDS, 0, 1, "the round wind of the match (east, south, west, north), one-hot"),
    Block("wall_left", 1, 0, LARGEST, "tiles left to draw (flowers included)"),
    Block("turn", 1, 0, LARGEST, "turns begun so far"),
    Block("switches", SETTINGS_FIELDS, -LARGEST, LARGEST, "the ruleset's switches as the engine reads them "
          "(rules.settings: min_fan, flowers, base, match_deals, wall_tiles; slots named in sim.mcr.table)"),
))
ORACLE_LAYOUT = LAYOUT.extended((
    Block("hidden_hands", N_KINDS, 0, 4, "oracle: the concealed tiles of the seats in slots 1, 2 and 3", SEATS - 1),
    Block("hidden_kongs", N_KINDS, 0, 1, "oracle: the kinds of the concealed kongs of the seats in slots 1, 2 and 3",
          SEATS - 1),
    Block("wall_counts", N_KINDS, 0, 4, "oracle: the tiles left to draw, per kind (flowers aside)"),
    Block("wall_flowers", 1, 0, N_FLOWERS, "oracle: the flowers left in the wall"),
    Block("next_draws", NEXT_DRAWS, 0, FLOWER_CODE, f"oracle: the next {NEXT_DRAWS} tiles from the front of the wall, "
          f"as kind + 1 ({FLOWER_CODE}: a flower; 0: past the wall's end)"),
))
SIZE, ORACLE_SIZE = LAYOUT.size, ORACLE_LAYOUT.size

# Each block's first entry, as constants the kernel reads.
_DECISION, _DRAWN, _OFFER = LAYOUT.start("decision"), LAYOUT.start("drawn"), LAYOUT.start("offer")
_OFFERED_BY, _WIN, _HAND, _VISIBLE = (LAYOUT.start("offered_by"), LAYOUT.start("win_on_offer"), LAYOUT.start("hand"),
                                      LAYOUT.start("visible"))
_CHOWS, _PONGS, _KONGS = LAYOUT.start("chows"), LAYOUT.start("pongs"), LAYOUT.start("kongs")
_CONCEALED_KONGS, _DISCARDS, _ORDER = (LAYOUT.start("concealed_kongs"), LAYOUT.start("discards"),
                                       LAYOUT.start("discard_order"))
_FLOWERS, _MONEY, _DEALER, _SEAT = LAYOUT.start("flowers"), LAYOUT.start("money"), LAYOUT.start("dealer"), LAYOUT.start("seat")
_SEAT_WIND, _ROUND_WIND = LAYOUT.start("seat_wind"), LAYOUT.start("round_wind")
_WALL_LEFT, _TURN, _SWITCHES = LAYOUT.start("wall_left"), LAYOUT.start("turn"), LAYOUT.start("switches")
_HIDDEN_HANDS, _HIDDEN_KONGS = ORACLE_LAYOUT.start("hidden_hands"), ORACLE_LAYOUT.start("hidden_kongs")
_WALL_COUNTS, _WALL_FLOWERS = ORACLE_LAYOUT.start("wall_counts"), ORACLE_LAYOUT.start("wall_flowers")
_NEXT_DRAWS = ORACLE_LAYOUT.start("next_draws")


def bounds(oracle: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The low and high int16 vectors of the encoding (with the oracle's blocks if `oracle`)."""
    return (ORACLE_LAYOUT if oracle else LAYOUT).bounds()


@njit(cache=True, _nrt=False)
def encode(seat, deciding, state, work, wall, record, rules, out):
    """Write what `seat` sees of `state` into `out` (int16, SIZE; ORACLE_SIZE adds the other hands and
    `wall`). `deciding`: the seat has the pending decision, whose details it then sees; `record`: the deal's
    record, which holds each seat's money. (`work` is read by the families whose observation needs it.)"""
    clear(out)
    table, hands = state.table, state.hands
    out[_WIN] = -1
    if deciding:
        decision = table[DECISION]
        out[_DECISION + decision] = 1
        if decision == DECISION_TURN:
            if table[DRAWN] >= 0:
                out[_DRAWN + table[DRAWN]] = 1
        elif decision == DECISION_CLAIM or decision == DECISION_ROB:
            out[_OFFER + table[OFFER]] = 1
            out[_OFFERED_BY + (table[OFFERED_BY] - seat) % SEATS] = 1
        if table[WIN_ALLOWED] != 0:
            put(out, _WIN, table[WIN_TOTAL])
    for kind in range(N_KINDS):
        out[_HAND + kind] = hands[seat, kind]
        out[_VISIBLE + kind] = state.visible[kind]
    for slot in range(SEATS):
        other = (seat + slot) % SEATS
        first = slot * N_KINDS
        for index in range(table[N_MELDS + other]):
            code, low = state.melds[other, index, 0], state.melds[other, index, 1]
            if code == MELD_CHOW:
                out[_CHOWS + first + low] += 1
            elif code == MELD_PONG:
                out[_PONGS + first + low] = 1
            elif code == MELD_KONG:
                out[_KONGS + first + low] = 1
            elif code == MELD_CONCEALED_KONG:
                out[_CONCEALED_KONGS + slot] += 1
                if slot == 0:
                    out[_KONGS + first + low] = 1
        for kind in range(N_KINDS):
            out[_DISCARDS + first + kind] = state.discarded[other, kind]
        put_history(out, _ORDER + slot * HISTORY, HISTORY, state.discard_order[other], table[N_DISCARDS + other])
        out[_FLOWERS + slot] = table[FLOWERS + other]
        put(out, _MONEY + slot, record[R_MONEY + other])
    out[_DEALER + (table[DEALER] - seat) % SEATS] = 1
    out[_SEAT + seat] = 1
    out[_SEAT_WIND + (seat - table[DEALER]) % SEATS] = 1
    out[_ROUND_WIND + table[ROUND_WIND]] = 1
    put(out, _WALL_LEFT, max(0, wall_left(table)))
    put(out, _TURN, table[TURN])
    for field in range(SETTINGS_FIELDS):
        put(out, _SWITCHES + field, rules.settings[field])
    if out.shape[0] > SIZE:
        _encode_hidden(seat, state, wall, out)


@njit(cache=True, inline="always", _nrt=False)
def _encode_hidden(seat, state, wall, out):
    """The oracle's blocks: the other hands and their concealed kongs, and the tiles left to draw, counted
    and in order."""
    table = state.table
    for slot in range(1, SEATS):
        other = (seat + slot) % SEATS
        first = (slot - 1) * N_KINDS
        for kind in range(N_KINDS):
            out[_HIDDEN_HANDS + first + kind] = state.hands[other, kind]
        for index in range(table[N_MELDS + other]):
            if state.melds[other, index, 0] == MELD_CONCEALED_KONG:
                out[_HIDDEN_KONGS + first + state.melds[other, index, 1]] = 1
    for position in range(table[WALL_FRONT], table[WALL_BACK] + 1):
        if wall[position] < N_KINDS:
            out[_WALL_COUNTS + wall[position]] += 1
        else:
            out[_WALL_FLOWERS] += 1
    for index in range(NEXT_DRAWS):
        position = table[WALL_FRONT] + index
        if position <= table[WALL_BACK]:
            out[_NEXT_DRAWS + index] = wall[position] + 1 if wall[position] < N_KINDS else FLOWER_CODE

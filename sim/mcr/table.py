"""The fixed-shape state of one 国标 (MCR, four players) deal and the rules of what a seat may do
(docs/rules/mcr-table.md).

This module owns what the engine (``sim.mcr.engine``) and the players (``sim.mcr.players``) share:

- the state of one deal, the named tuple ``State``: ``hands`` int8 (4, 34) each seat's concealed tiles;
  ``melds`` int8 (4, 4, 2) rows (meld code, lowest kind), ``kernels.tiles.MELD_*``; ``visible`` int8 (34,)
  the copies every seat can see (discards lying on the table and the tiles of exposed melds; a concealed kong
  is not visible); ``discarded`` int8 (4, 34) what each seat discarded, claimed or not; ``discard_order``
  int8 (4, MAX_DISCARDS) each seat's discards in order, ``table[N_DISCARDS + seat]`` of them; ``table`` int64
  (TABLE_FIELDS,) the scalar fields below (a per-seat field takes four slots, FIELD + seat);
- the slots of ``rules.settings``, the ruleset's switches as integers (``sim.core.deal_rules.Rules``);
- the layout of a deal's record, which the engine writes and the encoding reads each seat's money from;
- the players' and the engine's work arrays (``Work``);
- the complete-hand check of every MCR shape (``is_winning_shape``) and the shanten the players steer by;
- the legality of every decision: the engine offers exactly ``legal_actions``, and the validating mode
  checks each built-in answer against the same list.

A seat's flowers are set aside as they come and only counted (``table[FLOWERS + seat]``); their kinds are
in the event log.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from kernels import discard_choice
from kernels.fan_ids import N_FANS
from kernels.integers import bit_count
from kernels.shanten import _hand_shanten
from kernels.tiles import (
    COPIES_PER_KIND,
    HONOR_START,
    MELD_CONCEALED_KONG,
    MELD_PONG,
    N_KINDS,
    SUIT_SIZE,
)
from kernels.win_check import is_complete_all_suits
from sim.core import draw_luck
from sim.core.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DECISION_ROB,
    DECISION_TURN,
    DISCARD,
    KONG,
    MAX_LEGAL,
    NO_TILE,
    PASS,
    PONG,
    WIN,
    encode,
)
from sim.mcr.win_value import new_fan_work

SEATS = 4
WINDS = 4

# Scalar fields of `table`; per-seat fields are FIELD + seat (four slots each).
WALL_FRONT = 0  # index of the next ordinary draw
WALL_BACK = 1  # index of the next replacement (flower or kong), drawn from the back
DEALER = 2
ROUND_WIND = 3  # 0 east .. 3 north: the wind of the match's round this deal is in
TURN = 4  # turns begun: draws, claims and the dealer's opening
N_MELDS = 5  # + seat
FLOWERS = 9  # + seat: flowers the seat has set aside
N_DISCARDS = 13  # + seat: discards the seat made, in order in state.discard_order
# Where the engine is (sim.mcr.engine): the step it takes next and the decision it waits for. A deal is a
# state machine over these fields, so it can stop at any decision and resume with the answer.
STEP = 17  # the engine's next step (sim.mcr.engine.STEP_*)
ACTOR = 18  # the seat the pending decision belongs to (on a turn: the seat whose turn it is)
DECISION = 19  # the pending decision's kind (sim.core.actions.DECISION_*)
DRAWN = 20  # on a turn: the tile the actor just received (-1 after a chow or pong)
SOURCE = 21  # where DRAWN came from (sim.mcr.engine.FROM_*)
OFFER = 22  # the tile on offer: the discard, or the tile added to a pong, which may be robbed
OFFERED_BY = 23  # the seat that discarded it or adds it to its pong
ROUND = 24  # a round of answers to the tile on offer: how many seats on from the offering seat it is
WIN_TOTAL = 25  # the fan total (flowers aside) of the win the pending decision offers, -1 when not complete
WIN_ALLOWED = 26  # 1 when the pending decision may win: complete and at least min_fan fans
WIN_FLAGS = 27  # the win context flags of that win (kernels.fan_ids, winds included)
CLAIMER = 28  # the seat whose claim of the discard on offer ranks highest so far, -1 for none
CLAIM = 29  # its claim: the action (PONG, KONG or CHOW with its lowest kind)
WINNER = 30  # the seat that won, -1 while none has
TABLE_FIELDS = 31
# Room for one seat's discards in order: a seat discards once per tile it draws or claims; the 144 tiles less
# the 53 dealt leave 91 draws for the four seats, and each claim takes a discard as it gives one.
MAX_DISCARDS = 96

# A deal's record (int32), the engine's output, here because the encoding and the environment read each seat's
# money from it: the deal's columns, then per-seat blocks (one column a seat).
# Deal: dealer, round_wind (0 east .. 3 north), winner (-1: exhausted), discarder (the seat that paid base + F
# for a win on its discard or its robbed kong; -1 otherwise), win_type (-1, or 1 self-drawn, 2 discard, 3
# robbed kong), fan_total (flowers aside), winner_flowers, turns, tiles_left, violation.
# Per seat s: money_s (net points: base and fans), flowers_s, initial_shanten_s, melds_s, and faulted_s (1 when
# the seat's user player faulted in the deal: an exec: program that failed to answer, answered for it by
# ``default_action``).
DEAL_COLUMNS = (
    "dealer", "round_wind", "winner", "discarder", "win_type", "fan_total", "winner_flowers", "turns", "tiles_left",
    "violation",
)
SEAT_COLUMNS = ("money", "flowers", "initial_shanten", "melds", "faulted")
(
    R_DEALER, R_ROUND_WIND, R_WINNER, R_DISCARDER, R_WIN_TYPE, R_FAN_TOTAL, R_WINNER_FLOWERS, R_TURNS, R_TILES_LEFT,
    R_VIOLATION,
) = range(len(DEAL_COLUMNS))
R_MONEY, R_FLOWERS, R_INITIAL_SHANTEN, R_MELDS, R_FAULTED = range(
    len(DEAL_COLUMNS), len(DEAL_COLUMNS) + SEATS * len(SEAT_COLUMNS), SEATS)
RECORD_COLUMNS = DEAL_COLUMNS + tuple(f"{name}_{seat}" for name in SEAT_COLUMNS for seat in range(SEATS))
RECORD_WIDTH = len(RECORD_COLUMNS)

# The slots of rules.settings: the ruleset's switches as integers.
MIN_FAN, HAS_FLOWERS, BASE, MATCH_DEALS, WALL_TILES = range(5)
SETTINGS_FIELDS = 5

# Knitted tiles (全不靠, 组合龙): one suit holds 1-4-7, another 2-5-8, the third 3-6-9; as masks of kinds (bit k
# for kind k), one per way to give the three suits the three residues.
KNITTED_ORDERS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
KNITTED_STRAIGHTS = tuple(
    sum(1 << (suit * SUIT_SIZE + rank) for suit in range(3) for rank in range(order[suit], SUIT_SIZE, 3))
    for order in KNITTED_ORDERS
)
NUMBERED_KINDS = (1 << HONOR_START) - 1
ORPHAN_KINDS = sum(1 << kind for kind in (0, 8, 9, 17, 18, 26, *range(HONOR_START, N_KINDS)))


# ------------------------------------------------------------------------------------ state


class State(NamedTuple):
    hands: np.ndarray
    melds: np.ndarray
    visible: np.ndarray
    table: np.ndarray
    discarded: np.ndarray
    discard_order: np.ndarray


class Work(NamedTuple):
    """Work arrays of the players and the engine, allocated once per batch (``new_work``)."""

    unseen: np.ndarray  # int8 (34,): the copies a seat cannot see
    shanten_after_discard: np.ndarray  # int64 (34,): a discard choice leaves each discard's distance here
    distances: np.ndarray  # int64 (34,): the ukeire kernel's scratch
    shanten_scratch: np.ndarray  # int16 (6, 10): the shanten kernels' scratch
    streams: np.ndarray  # uint64 (4,): each seat's random stream
    check_counts: np.ndarray  # int64 (2, 34): the validating mode's tile counts
    knitted: np.ndarray  # int8 (34,): the knitted-shape check's scratch
    fans: np.ndarray  # the fan evaluator's work array (sim.mcr.win_value.new_fan_work)
    fan_counts: np.ndarray  # int64 (N_FANS,): the fans of the last win scored
    legal: np.ndarray  # int64 (MAX_LEGAL,): the legal actions of the pending decision (``legal_actions``)
    discard_choice: np.ndarray  # int64: the players' discard measures (kernels.discard_choice)
    # The luck of the draws (sim.core.draw_luck), measured when `luck` has rows:
    luck: np.ndarray  # float64 (deals or 0, 4, features): each deal's sums, kept by the deal loops
    luck_sums: np.ndarray  # float64 (4, features): the deal's sums so far
    luck_tally: np.ndarray  # int64 (3, 34): the remaining tiles, distances and win values of one draw


def new_work(luck_deals: int = 0) -> Work:
    """Work arrays for a batch; with `luck_deals` rows of luck, the engine measures the luck of the draws."""
    return Work(
        np.zeros(N_KINDS, np.int8), np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.int64),
        np.zeros((6, 10), np.int16), np.zeros(SEATS, np.uint64), np.zeros((2, N_KINDS), np.int64),
        np.zeros(N_KINDS, np.int8), new_fan_work(), np.zeros(N_FANS, np.int64), np.zeros(MAX_LEGAL, np.int64),
        discard_choice.new_work(),
        draw_luck.new_luck(luck_deals, SEATS), np.zeros((SEATS, len(draw_luck.FEATURES))), draw_luck.new_tally(),
    )


@njit(cache=True)
def new_state():
    return State(
        np.zeros((SEATS, N_KINDS), np.int8),
        np.zeros((SEATS, 4, 2), np.int8),
        np.zeros(N_KINDS, np.int8),
        np.zeros(TABLE_FIELDS, np.int64),
        np.zeros((SEATS, N_KINDS), np.int8),
        np.zeros((SEATS, MAX_DISCARDS), np.int8),
    )


@njit(cache=True, _nrt=False)
def reset_state(state):
    hands, melds, visible, table, discarded, discard_order = state
    # Element loops, not slice assignments: this kernel runs without numba's reference counting.
    for seat in range(SEATS):
        for kind in range(N_KINDS):
            hands[seat, kind] = 0
            discarded[seat, kind] = 0
        for index in range(MAX_DISCARDS):
            discard_order[seat, index] = 0
        for index in range(4):
            melds[seat, index, 0] = 0
            melds[seat, index, 1] = 0
    for kind in range(N_KINDS):
        visible[kind] = 0
    for field in range(TABLE_FIELDS):
        table[field] = 0
    table[WINNER] = -1
    table[CLAIMER] = -1


@njit(cache=True, inline="always", _nrt=False)
def note_discard(seat, tile, state):
    """Count the seat's discard of `tile` and keep it in order (past MAX_DISCARDS, which no deal reaches,
    only counted)."""
    state.discarded[seat, tile] += 1
    count = state.table[N_DISCARDS + seat]
    if count < MAX_DISCARDS:
        state.discard_order[seat, count] = tile
    state.table[N_DISCARDS + seat] = count + 1


@njit(cache=True, inline="always", _nrt=False)
def wall_left(table):
    return table[WALL_BACK] - table[WALL_FRONT] + 1


@njit(cache=True, inline="always", _nrt=False)
def seat_wind(seat, table):
    """The seat's wind this deal, 0 east .. 3 north: the dealer is east, then turn order."""
    return (seat - table[DEALER]) % SEATS


@njit(cache=True, inline="always", _nrt=False)
def unseen_counts(seat, state, tile_set, out):
    """out[kind] = copies the seat cannot see (not in its hand, its concealed kongs or on the table)."""
    hands, melds, visible, table = state.hands, state.melds, state.visible, state.table
    for kind in range(N_KINDS):
        out[kind] = tile_set[kind] - hands[seat, kind] - visible[kind]
    for index in range(table[N_MELDS + seat]):
        if melds[seat, index, 0] == MELD_CONCEALED_KONG:
            out[melds[seat, index, 1]] -= COPIES_PER_KIND


@njit(cache=True, inline="always", _nrt=False)
def pong_index(seat, melds, table, kind):
    for index in range(table[N_MELDS + seat]):
        if melds[seat, index, 0] == MELD_PONG and melds[seat, index, 1] == kind:
            return index
    return -1


# ------------------------------------------------------------------------------------ hand measures


@njit(cache=True, _nrt=False)
def is_winning_shape(counts, n_melds, bits, scratch):
    """Whether 3k+2 concealed tiles beside n_melds melds are complete in any MCR shape: four sets and a pair,
    seven pairs, thirteen orphans, 全不靠 (14 single tiles, no meld: the numbered ones inside one knitted
    straight, 1-4-7, 2-5-8 and 3-6-9 in three different suits, and honours) or 组合龙 (the nine tiles of a
    knitted straight, and the rest with the melds four sets and a pair in all). `scratch`: int8 (34,).

    The engine asks this of every seat on every discard and draw (some 240 times a deal), so one pass over
    the counts gathers what every shape needs as masks of kinds, and the bit table of complete suits is read
    only for a hand whose honours and suit sizes allow the standard shape. tests/mcr/test_winning_shape.py
    compares it with each shape's definition."""
    held = np.int64(0)  # kinds held
    several = np.int64(0)  # kinds held more than once
    twice = np.int64(0)  # kinds held exactly twice
    misfits = np.int64(0)  # kinds held once or four times: as honours, no set or pair takes them
    odd = 0
    for kind in range(N_KINDS):  # without a branch: the counts are too varied to predict
        count = counts[kind]
        held |= np.int64(count > 0) << kind
        several |= np.int64(count > 1) << kind
        twice |= np.int64(count == 2) << kind
        misfits |= np.int64((count == 1) | (count == 4)) << kind
        odd += count & 1
    # the standard shape needs no suit of size 1 mod 3, no honour misfit, and the pair in exactly one group
    standard = misfits >> HONOR_START == 0
    pairs_at = bit_count(twice >> HONOR_START)
    for group in range(3):
        tiles = 0
        for rank in range(SUIT_SIZE):
            tiles += counts[group * SUIT_SIZE + rank]
        standard = standard and tiles % 3 != 1
        pairs_at += tiles % 3 == 2
    if standard and pairs_at == 1 and is_complete_all_suits(counts, n_melds, bits):
        return True
    if n_melds == 0:
        if odd == 0:
            return True  # seven pairs: 14 tiles, every count even
        if held == ORPHAN_KINDS and bit_count(twice) == 1:
            return True  # thirteen orphans
    if n_melds > 1 or (several != 0 and bit_count(held & NUMBERED_KINDS) < 9):
        return False  # 全不靠 holds single tiles only, 组合龙 nine different numbered kinds
    for straight in KNITTED_STRAIGHTS:
        if n_melds == 0 and several == 0 and held & NUMBERED_KINDS & ~straight == 0:
            return True  # 全不靠: 14 single tiles (the hand's size) inside one knitted straight and the honours
        if held & straight == straight:
            for kind in range(N_KINDS):
                scratch[kind] = counts[kind]
            for kind in range(HONOR_START):
                if (straight >> kind) & 1:
                    scratch[kind] -= 1
            # the rest is sets and one pair: the check reads it as a hand of more melds (so no seven pairs)
            if is_complete_all_suits(scratch, n_melds + 3, bits):
                return True
    return False


@njit(cache=True, inline="always", _nrt=False)
def shanten(hand, n_melds, rules, scratch):
    """The shanten the players steer by: four sets and a pair, or seven pairs (the other MCR shapes are
    complete all the same, but no built-in player aims at them)."""
    return _hand_shanten(hand, n_melds, rules.suit_table, rules.honour_table, 0, False, scratch)


# ------------------------------------------------------------------------------------ legality


@njit(cache=True, inline="always", _nrt=False)
def kong_room(seat, table):
    """A kong needs a tile left in the wall to replace it and a free meld slot."""
    return wall_left(table) > 0 and table[N_MELDS + seat] < 4


@njit(cache=True, inline="always", _nrt=False)
def chow_holds(hand, low, tile):
    """The hand holds the two tiles other than `tile` of the chow starting at `low` (a suit's 1-7)."""
    for kind in range(low, low + 3):
        if kind != tile and hand[kind] == 0:
            return False
    return True


@njit(cache=True, inline="always", _nrt=False)
def chow_legal(seat, low, tile, state):
    """Chow of the discard `tile` as the chow starting at `low`: only the seat after the discarder, a suit
    tile within the chow, the other two held, a free slot, and a tile left in the wall (the last discard is
    not claimed)."""
    table = state.table
    if (table[OFFERED_BY] + 1) % SEATS != seat or tile >= HONOR_START or wall_left(table) == 0:
        return False
    if table[N_MELDS + seat] >= 4 or low < 0 or low > tile or tile > low + 2:
        return False
    if low // SUIT_SIZE != tile // SUIT_SIZE or low % SUIT_SIZE > SUIT_SIZE - 3:
        return False
    return chow_holds(state.hands[seat], low, tile)


@njit(cache=True, inline="always", _nrt=False)
def pong_legal(seat, tile, state):
    """Pong of the discard: two copies held, a free slot, and a tile left in the wall."""
    table = state.table
    return state.hands[seat, tile] >= 2 and table[N_MELDS + seat] < 4 and wall_left(table) > 0


@njit(cache=True, inline="always", _nrt=False)
def exposed_kong_legal(seat, tile, state):
    return state.hands[seat, tile] == 3 and kong_room(seat, state.table)


@njit(cache=True, inline="always", _nrt=False)
def concealed_kong_legal(seat, kind, state):
    """A concealed kong of four held, on a turn that began with a tile received (after a pong or chow the
    seat discards: docs/rules/mcr-table.md#claims-on-a-discard)."""
    table = state.table
    return table[DRAWN] >= 0 and state.hands[seat, kind] == 4 and kong_room(seat, table)


@njit(cache=True, inline="always", _nrt=False)
def added_kong_legal(seat, kind, state):
    """The fourth tile added to the seat's pong, on a turn that began with a tile received, as a concealed kong."""
    table = state.table
    return (table[DRAWN] >= 0 and state.hands[seat, kind] > 0 and kong_room(seat, table)
            and pong_index(seat, state.melds, table, kind) >= 0)


@njit(cache=True, _nrt=False)
def legal_actions(state, rules, work, out):
    """The legal actions of the pending decision (table[DECISION] of seat table[ACTOR]) into `out`, in a
    fixed order (on a turn: win, then by kind discard, concealed kong, added kong; on a discard: pass, win,
    pong, kong, then the chows by their lowest kind; on a robbable kong: pass, win); returns how many."""
    hands, table = state.hands, state.table
    seat, decision = table[ACTOR], table[DECISION]
    win_allowed = table[WIN_ALLOWED] != 0
    n = 0
    if decision == DECISION_TURN:
        if win_allowed:
            out[n] = encode(WIN, NO_TILE)
            n += 1
        for kind in range(N_KINDS):
            if hands[seat, kind] == 0:
                continue
            out[n] = encode(DISCARD, kind)
            n += 1
            if concealed_kong_legal(seat, kind, state):
                out[n] = encode(CONCEALED_KONG, kind)
                n += 1
            if added_kong_legal(seat, kind, state):
                out[n] = encode(ADDED_KONG, kind)
                n += 1
        return n
    out[n] = encode(PASS, NO_TILE)
    n += 1
    if win_allowed:
        out[n] = encode(WIN, NO_TILE)
        n += 1
    if decision == DECISION_ROB:
        return n
    tile = table[OFFER]
    if pong_legal(seat, tile, state):
        out[n] = encode(PONG, tile)
        n += 1
    if exposed_kong_legal(seat, tile, state):
        out[n] = encode(KONG, tile)
        n += 1
    for low in range(tile - 2, tile + 1):
        if chow_legal(seat, low, tile, state):
            out[n] = encode(CHOW, low)
            n += 1
    return n


@njit(cache=True, _nrt=False)
def is_legal(action, state, rules, work):
    """Whether `action` answers the pending decision legally (one of ``legal_actions``)."""
    n = legal_actions(state, rules, work, work.legal)
    for index in range(n):
        if work.legal[index] == action:
            return True
    return False


"""The fixed-shape integer state of one 二人麻将 deal, the engine's and players' work arrays, and the
legality of every decision: what the engine (``sim.erren.engine``) and the players (``sim.erren.players``)
share.

A deal's state is a handful of small integer arrays, reused from deal to deal (pgx style), passed
together as the named tuple ``State``:

- ``hands``    int8 (2, 34): each seat's concealed tiles;
- ``melds``    int8 (2, 4, 2): each seat's melds as (meld code, lowest kind), ``kernels.tiles.MELD_*``;
- ``visible``  int8 (34,): copies every player can see: discards on the table and exposed melds
  (a concealed kong is not visible: it does not count toward 和绝张);
- ``discarded`` int8 (2, 34): what each seat has discarded, and ``after_ready`` int8 (2, 34): what it
  discarded after declaring ready (public: both are on the table);
- ``bonus``    int8 (34,): the bonus tiles turned face up after the deal (erren-challenge's 花牌; they are
  visible too);
- ``discard_order`` int8 (2, MAX_DISCARDS): each seat's discards in the order it made them (public: the
  table shows them in rows), ``table[N_DISCARDS + seat]`` of them;
- ``table``    int64 (TABLE_FIELDS,): the scalar state, indexed by the constants below.

Per-seat fields of ``table`` sit at ``FIELD + seat``. A player's decision may read its own hand, the
public arrays and the public fields; the opponent's hand only once it has declared ready (docs/rules/erren-table.md),
through ``opponent_hand_visible``.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from kernels.fans.challenge import RESULT_FIELDS
from kernels.fans.challenge import new_work as new_challenge_work
from kernels.fans.mcr import new_work as new_fan_work
from kernels.shanten import _hand_shanten
from kernels.tiles import COPIES_PER_KIND, HONOR_START, MELD_CONCEALED_KONG, MELD_PONG, N_KINDS, SUIT_SIZE
from sim.core import draw_luck
from sim.core.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DECISION_OPENING_READY,
    DECISION_TURN,
    DECLARE_READY,
    DISCARD,
    DISCARD_READY,
    DOUBLE,
    KONG,
    MAX_LEGAL,
    NO_TILE,
    PASS,
    PONG,
    WIN,
    action_code,
    action_tile,
    encode,
)

# Scalar fields of `table` (per-seat fields take two slots: FIELD + seat).
WALL_FRONT = 0  # index of the next ordinary draw
WALL_BACK = 1  # index of the next replacement draw (flower or kong)
DEALER = 2
N_MELDS = 3  # + seat
CLAIMED_MELDS = 5  # + seat: chows, pongs and exposed kongs (melds made from a discard)
READY = 7  # + seat: 1 once the seat declared ready (报听); its hand is then locked
READY_TURN = 9  # + seat: the turn of the declaration, -1 if none
DOUBLES = 11  # + seat: times the seat declared 加倍
FLOWERS = 13  # + seat: flowers set aside
HEAVENLY_READY = 15  # + seat: the declaration was 天听
TURN = 17  # turns begun so far (a draw, a claim, or the dealer's opening)
DEALER_DISCARDS = 18
NON_DEALER_DRAWS = 19  # ordinary (front) draws made by the non-dealer
ANY_MELD = 20  # 1 once any chow, pong or kong (concealed included) was made: voids 地胡
DEALER_KONG_FIRST = 21  # 1 if the dealer declared a concealed kong before its first discard: voids 天胡, 人胡, 天听
# Where the engine is (sim.erren.engine): the step it takes next and the decision it waits for. A deal is a
# state machine over these fields, so it can stop at any decision and resume with the answer.
STEP = 22  # the engine's next step (sim.erren.engine.STEP_*)
ACTOR = 23  # the seat the step or pending decision belongs to
DECISION = 24  # the pending decision's kind (sim.core.actions.DECISION_*)
DRAWN = 25  # on a turn: the tile the actor just received, -1 after a claim
SOURCE = 26  # where DRAWN came from (sim.erren.engine.FROM_*)
WIN_DECLINED = 27  # on a turn: the actor declared 加倍 instead of winning on DRAWN
OFFER = 28  # the tile on offer: the discard, or the tile of an added kong that may be robbed
WIN_TOTAL = 29  # the fan total of the win the pending decision offers, -1 for none
CAN_DOUBLE = 30  # the pending decision may 加倍 instead of winning
MAY_MELD = 31  # a turn may make a kong (it drew a tile); a discard may be claimed (the wall is not empty)
WIN_FLAGS = 32  # the win context flags of the win on offer (kernels.fan_ids)
OUT_OF_PLAY = 33  # index in the wall of the next out-of-play tile (after the tiles in play): the extra draws'
WIN_POINTS = 34  # the points of the win on offer (scoring = "challenge"; 0 elsewhere)
N_DISCARDS = 35  # + seat: discards the seat made, in order in state.discard_order
TABLE_FIELDS = 37
# Room for one seat's discards in order: a seat discards once per tile it draws or claims, and the longest
# wall (72 tiles: 万, honours and flowers) less the 26 dealt leaves at most 46 draws for both seats.
MAX_DISCARDS = 64


class State(NamedTuple):
    hands: np.ndarray
    melds: np.ndarray
    visible: np.ndarray
    table: np.ndarray
    discarded: np.ndarray
    after_ready: np.ndarray
    bonus: np.ndarray
    discard_order: np.ndarray


N_STREAMS, ASSIST_STREAM = 3, 2  # the random streams of a deal's decisions: one per seat, one for the assists


class Work(NamedTuple):
    """Work arrays of the players and the engine, allocated once per batch (``new_work``)."""

    shanten_scratch: np.ndarray  # int16 (6, 10): the shanten kernel's scratch
    distances: np.ndarray  # int64 (34,): distances after each draw (ukeire)
    unseen: np.ndarray  # int8 (34,): the copies a seat cannot see
    held: np.ndarray  # int64 (34,): tiles held, melds included
    shanten_after_discard: np.ndarray  # int64 (34,): a discard choice leaves each discard's shanten here
    fans: np.ndarray  # the fan evaluator's work array (``kernels.fans.mcr.new_work``)
    streams: np.ndarray  # uint64 (N_STREAMS,): each seat's random stream, then the assists' (ASSIST_STREAM)
    hand_sizes: np.ndarray  # int64 (2,): the validating mode's expected hand sizes
    check_counts: np.ndarray  # int64 (2, 34): the validating mode's tile counts
    legal: np.ndarray  # int64 (MAX_LEGAL,): the legal actions of the pending decision (``legal_actions``)
    no_tiles: np.ndarray  # int8 (34,) zeros: what a numba player sees of a hand it may not see
    challenge_fans: np.ndarray  # the challenge evaluator's work array (``kernels.fans.challenge.new_work``)
    score: np.ndarray  # int64 (4,): the challenge evaluator's result (points, total, 役满, total before the cap)
    # The luck of the draws (sim.core.draw_luck), measured when `luck` has rows:
    luck: np.ndarray  # float64 (deals or 0, 2, features): each deal's sums, kept by the deal loops
    luck_sums: np.ndarray  # float64 (2, features): the deal's sums so far
    luck_tally: np.ndarray  # int64 (3, 34): the remaining tiles, distances and win values of one draw


def new_work(luck_deals: int = 0) -> Work:
    """Work arrays for a batch; with `luck_deals` rows of luck, the engine measures the luck of the draws."""
    return Work(
        np.zeros((6, 10), np.int16), np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.int8),
        np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.int64), new_fan_work(), np.zeros(N_STREAMS, np.uint64),
        np.zeros(2, np.int64), np.zeros((2, N_KINDS), np.int64), np.zeros(MAX_LEGAL, np.int64),
        np.zeros(N_KINDS, np.int8), new_challenge_work(), np.zeros(RESULT_FIELDS, np.int64),
        draw_luck.new_luck(luck_deals, 2), np.zeros((2, len(draw_luck.FEATURES))), draw_luck.new_tally(),
    )


@njit(cache=True, inline="always", _nrt=False)
def log_event(events, code, seat, tile):
    """Append (code, seat, tile) to a deal's event log (row 0 holds the count); a full log keeps its rows."""
    log_payment(events, code, seat, tile, 0)


@njit(cache=True, inline="always", _nrt=False)
def log_payment(events, code, seat, tile, amount):
    """Append (code, seat, tile, amount): for a payment, `seat` pays `amount` to the seat in the tile column."""
    count = events[0, 0] + 1
    if count < events.shape[0]:
        events[count, 0], events[count, 1], events[count, 2], events[count, 3] = code, seat, tile, amount
        events[0, 0] = count


@njit(cache=True, inline="always", _nrt=False)
def wall_left(table):
    return table[WALL_BACK] - table[WALL_FRONT] + 1


@njit(cache=True)
def new_state():
    """Fresh (zeroed) state arrays for one deal; `reset_state` clears them between deals."""
    return State(
        np.zeros((2, N_KINDS), np.int8),
        np.zeros((2, 4, 2), np.int8),
        np.zeros(N_KINDS, np.int8),
        np.zeros(TABLE_FIELDS, np.int64),
        np.zeros((2, N_KINDS), np.int8),
        np.zeros((2, N_KINDS), np.int8),
        np.zeros(N_KINDS, np.int8),
        np.zeros((2, MAX_DISCARDS), np.int8),
    )


@njit(cache=True, _nrt=False)
def reset_state(state):
    hands, melds, visible, table, discarded, after_ready, bonus, discard_order = state
    # Element loops, not slice assignments: this kernel runs without numba's reference counting.
    for seat in range(2):
        for kind in range(N_KINDS):
            hands[seat, kind] = 0
            discarded[seat, kind] = 0
            after_ready[seat, kind] = 0
        for index in range(MAX_DISCARDS):
            discard_order[seat, index] = 0
        for index in range(4):
            melds[seat, index, 0] = 0
            melds[seat, index, 1] = 0
    for kind in range(N_KINDS):
        visible[kind] = 0
        bonus[kind] = 0
    for field in range(TABLE_FIELDS):
        table[field] = 0
    table[READY_TURN] = -1
    table[READY_TURN + 1] = -1


@njit(cache=True, inline="always", _nrt=False)
def note_discard(seat, tile, state):
    """Count the seat's discard of `tile` and keep it in order (``discard_order``; past MAX_DISCARDS, which
    no deal reaches, only counted)."""
    state.discarded[seat, tile] += 1
    count = state.table[N_DISCARDS + seat]
    if count < MAX_DISCARDS:
        state.discard_order[seat, count] = tile
    state.table[N_DISCARDS + seat] = count + 1


@njit(cache=True, inline="always", _nrt=False)
def unseen_counts(seat, state, tile_set, out):
    """out[kind] = copies the seat cannot see: not in its hand, its concealed kongs or on the table.

    This is the seat's honest count of live tiles (the opponent's hand and the wall are one unknown)."""
    hands, melds, visible, table = state.hands, state.melds, state.visible, state.table
    for kind in range(N_KINDS):
        out[kind] = tile_set[kind] - hands[seat, kind] - visible[kind]
    for index in range(table[N_MELDS + seat]):
        if melds[seat, index, 0] == MELD_CONCEALED_KONG:
            out[melds[seat, index, 1]] -= COPIES_PER_KIND


@njit(cache=True, inline="always", _nrt=False)
def opponent_hand_visible(seat, table):
    """A ready seat may see the opponent's hand."""
    return table[READY + seat] == 1


# The slots of ``rules.settings`` (``sim.core.deal_rules.Rules``): the ruleset's switches as integers.
MIN_FAN = 0  # settings[MIN_FAN]: 起和
MAX_DOUBLES = 1  # 加倍 limit (a large number for "unlimited")
READY_REQUIRES_CONCEALED = 2
WALL_TILES = 3  # tiles in the wall, flowers included
HAS_FLOWERS = 4
SCORING = 5  # the evaluator: SCORING_MCR (kernels/fans/mcr.py) or SCORING_CHALLENGE (kernels/fans/challenge.py)
ALL_SUITS = 6  # 1 when the tile set has 筒 and 条 (erren-challenge): shanten and win checks read every suit
TILES_IN_PLAY = 7  # the first this many tiles of the shuffled wall are played; the rest are out of play
BONUS_TILES = 8  # tiles turned face up after the deal (004's 花牌)
EXTRA_DRAWS = 9  # draws from the out-of-play tiles for a declared-ready hand after an exhausted wall
READY_ON_FIRST_DRAW = 10  # 1: the non-dealer's 天听 is declared on its first draw (004), not after the deal
FAN_CAP, PER_FAN_STEP, PER_LIMIT = 11, 12, 13  # the challenge evaluator's points ([points])
# 004's assists for seat 0 (sim.erren.challenge.assists): 起始换牌 on or off, then the chances of 搓牌 and 换刻子 at each
# of its draws, in parts of CHANCE_SCALE.
START_EXCHANGE, PICK_CHANCE, PUNG_OFFER_CHANCE = 14, 15, 16
SETTINGS_FIELDS = 17
CHANCE_SCALE = 1_000_000
SCORING_MCR, SCORING_CHALLENGE = 0, 1


@njit(cache=True, _nrt=False)
def _all_suits_shanten(hand, n_melds, suit_table, honour_table, scratch):
    return _hand_shanten(hand, n_melds, suit_table, honour_table, 0, False, scratch)


@njit(cache=True, _nrt=False)
def _wan_honours_shanten(hand, n_melds, suit_table, honour_table, scratch):
    return _hand_shanten(hand, n_melds, suit_table, honour_table, 0, True, scratch)


@njit(cache=True, inline="always", _nrt=False)
def hand_shanten(hand, n_melds, rules, scratch):
    """The shanten of a concealed hand (standard and seven pairs): a call to the kernel of the ruleset's tile
    set, compiled once. Inlined, the kernel was compiled into each of the dozen places the engine and the
    built-in players ask for a shanten, a quarter of the deal loop's code, and the deal rate is the same
    either way (the kernel's own work dwarfs the call)."""
    if rules.settings[ALL_SUITS] == 0:
        return _wan_honours_shanten(hand, n_melds, rules.suit_table, rules.honour_table, scratch)
    return _all_suits_shanten(hand, n_melds, rules.suit_table, rules.honour_table, scratch)


# The legality of every decision: what the players choose from and the validating mode checks.


@njit(cache=True, inline="always", _nrt=False)
def chow_possible(hand, low, tile):
    """The hand holds the two tiles other than `tile` of the chow starting at `low` (a suit's 1-7)."""
    if low < 0 or low >= HONOR_START or low % SUIT_SIZE > SUIT_SIZE - 3 or tile < low or tile > low + 2:
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
    hands, melds, table = state.hands, state.melds, state.table
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
    hands, table = state.hands, state.table
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
        return chow_possible(hands[seat], action_tile(action), tile)
    return False


@njit(cache=True, _nrt=False)
def ready_after_discard(seat, tile, state, rules, scratch):
    """Whether discarding `tile` leaves a ready hand the seat may declare (报听)."""
    hands, table = state.hands, state.table
    if hands[seat, tile] == 0 or not may_declare_ready(seat, table, rules.settings[READY_REQUIRES_CONCEALED] != 0):
        return False
    hand = hands[seat]
    hand[tile] -= 1
    ready = hand_shanten(hand, table[N_MELDS + seat], rules, scratch) == 0
    hand[tile] += 1
    return ready


@njit(cache=True, _nrt=False)
def legal_actions(state, rules, scratch, out):
    """The legal actions of the pending decision (table[DECISION] of seat table[ACTOR]) into `out`, in a
    fixed order; returns how many. A seat whose hand is locked (ready) only wins or doubles.

    This is the hot path of every user seat and of the step environment, so it tests each held kind's few
    conditions directly instead of asking ``is_legal_turn_action`` / ``is_legal_claim`` for every code (a
    call with the whole state each, about 40% of a batched step). The tests check, at every decision of
    real deals, that it lists exactly what those rules accept (tests/players/python_players.py, Auditor)."""
    hands, table = state.hands, state.table
    seat, decision = table[ACTOR], table[DECISION]
    win_allowed, can_double = table[WIN_TOTAL] >= 0, table[CAN_DOUBLE] != 0
    n = 0
    if decision == DECISION_OPENING_READY:
        out[0], out[1] = encode(PASS, NO_TILE), encode(DECLARE_READY, NO_TILE)
        return 2
    if decision != DECISION_TURN:
        if table[READY + seat] == 0:
            out[n] = encode(PASS, NO_TILE)
            n += 1
    if win_allowed:
        out[n] = encode(WIN, NO_TILE)
        n += 1
        if can_double:
            out[n] = encode(DOUBLE, NO_TILE)
            n += 1
    if table[READY + seat] == 1:
        return n
    may_meld = table[MAY_MELD] != 0
    hand = hands[seat]
    if decision == DECISION_TURN:
        # A hand of 3k+2 tiles is as far from ready as its best discard leaves it: at most one shanten test
        # for the whole hand, not one per discard, when no discard can leave it ready.
        may_ready = may_declare_ready(seat, table, rules.settings[READY_REQUIRES_CONCEALED] != 0) and hand_shanten(
            hand, table[N_MELDS + seat], rules, scratch
        ) <= 0
        kong_room = may_meld and wall_left(table) > 0 and table[N_MELDS + seat] < 4
        for kind in range(N_KINDS):
            held = hand[kind]
            if held == 0:
                continue
            out[n] = encode(DISCARD, kind)
            n += 1
            if may_ready and ready_after_discard(seat, kind, state, rules, scratch):
                out[n] = encode(DISCARD_READY, kind)
                n += 1
            if kong_room and held == 4:
                out[n] = encode(CONCEALED_KONG, kind)
                n += 1
            if kong_room and pong_index(seat, state.melds, table, kind) >= 0:
                out[n] = encode(ADDED_KONG, kind)
                n += 1
        return n
    tile = table[OFFER]
    if not may_meld or table[N_MELDS + seat] >= 4:
        return n
    if hand[tile] >= 2:
        out[n] = encode(PONG, tile)
        n += 1
    if hand[tile] >= 3 and wall_left(table) > 0:
        out[n] = encode(KONG, tile)
        n += 1
    for low in range(max(0, tile - 2), tile + 1):
        if chow_possible(hand, low, tile):
            out[n] = encode(CHOW, low)
            n += 1
    return n

"""The fixed-shape state of one 血战 deal and the rules of what a seat may do (docs/rules/xuezhan-table.md).

This module owns what the engine (``sim.xuezhan.engine``) and the players (``sim.xuezhan.players``) share:

- the state layout of one 血战 deal, the named tuple ``State`` (hands, melds, visible, table, discarded, waits,
  discard_order), with
  ``hands`` int8 (4, 34), ``melds`` int8 (4, 4, 2) rows (meld code, lowest kind), ``visible`` int8 (34,)
  (discards lying on the table and exposed melds; concealed kongs are not visible), ``table`` int64
  (TABLE_FIELDS,) scalar fields (per-seat fields take four slots, FIELD + seat), ``discarded`` int8 (4, 34)
  and ``waits`` int8 (4, 34): the public waits of each 报叫 declarer, ``discard_order`` int8 (4, MAX_DISCARDS):
  each seat's discards in the order it made them, ``table[N_DISCARDS + seat]`` of them; the slots of ``rules.settings``, the
  ruleset's switches as integers (``sim.core.deal_rules.Rules``); the players' and the engine's work arrays
  (``Work``);
- the two-suit hand measures the hot loops need (complete, shanten, ukeire, waits) on the 筒/条 tile set;
- the legality of every decision (the validating mode checks each decision against the same functions), and
  the list of a pending decision's legal actions (``legal_actions``) that user players choose from.

The optional opening of the table (switches ``exchange_three`` and ``void_suit``): for 换三张 each seat
chooses three tiles of one suit it holds at least three of; for 定缺 it declares a void suit, whose tiles it
must then discard before any other, may not pong or kong, and may not win holding.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from kernels.fan_ids import N_FANS
from kernels.shanten import _seven_pairs_from_tally, _split_cost
from kernels.tables import MAX_SETS
from kernels.tiles import MELD_CONCEALED_KONG, MELD_PONG, N_KINDS, PIN_START, SOU_START
from sim.core import draw_luck
from sim.core.actions import (
    ADDED_KONG,
    CONCEALED_KONG,
    DECISION_CLAIM,
    DECISION_EXCHANGE,
    DECISION_OPENING_READY,
    DECISION_TURN,
    DECISION_VOID,
    DECLARE_READY,
    DISCARD,
    DISCARD_READY,
    EXCHANGE,
    KONG,
    MAX_LEGAL,
    NO_TILE,
    PASS,
    PONG,
    VOID,
    WIN,
    action_code,
    action_tile,
    encode,
)

MAX_SEATS = 4
FIRST_KIND, LAST_KIND = PIN_START, SOU_START + 8  # the 筒 and 条 kinds, 9..26

# Scalar fields of `table`; per-seat fields are FIELD + seat (four slots each).
WALL_FRONT = 0  # index of the next ordinary draw
WALL_BACK = 1  # index of the next kong replacement
DEALER = 2
N_SEATS = 3
TURN = 4  # turns begun: draws, claims and the dealer's opening
DEALER_DISCARDS = 5
ANY_MELD = 6  # 1 once anyone made a pong or kong: voids 地胡
N_MELDS = 8
DECLARED = 12  # 1 once the seat declared 报叫: its hand is locked, its waits public
WON = 16  # 0 while the seat is in the deal, else its win order (simultaneous winners share it)
FRONT_DRAWS = 20  # ordinary draws the seat made (地胡 by self-draw needs its first)
PONG_LOCK = 24  # 过手碰: bit k set while the seat may not pong kind k
WIN_LOCK = 28  # 过水胡: 1 while the seat may not win on a discard (or a robbed kong)
MISSED_VALUE = 32  # 漏胡: the value of the win it passed (a win must be worth more), -1 when free
PASSED_KONG = 36  # 过手杠: bit k set when the seat ponged k while it could have konged it
KONG_UNITS = 40  # the seat's net kong money so far (003 adds it to a win's value)
DECLARED_VOID = 44  # 定缺: the first kind of the suit the seat declared void, -1 when none
# Where the engine is (sim.xuezhan.engine): the step it takes next and the decision it waits for. A deal is a
# state machine over these fields, so it can stop at any decision and resume with the answer.
STEP = 48  # the engine's next step (sim.xuezhan.engine.STEP_*)
ACTOR = 49  # the seat the pending decision belongs to (on a turn: the seat whose turn it is)
DECISION = 50  # the pending decision's kind (sim.core.actions.DECISION_*)
DRAWN = 51  # on a turn: the tile the actor just received (-1 after a pong); before it, the dealer's last tile dealt
SOURCE = 52  # where DRAWN came from (sim.xuezhan.engine.FROM_*)
OFFER = 53  # the tile on offer: the discard, or the tile of an added kong that may be robbed
OFFERED_BY = 54  # the seat that discarded it or adds it to its pong
ROUND = 55  # a round of answers (claims, robs, the opening's choices): how many seats on from its first it is
WIN_VALUE = 56  # the raw value of the actor's complete hand with the tile on offer or drawn, -1 when not complete
WIN_ALLOWED = 57  # 1 when the pending decision may win (complete, and no 过水胡 or 漏胡 binds)
WIN_FLAGS = 58  # the win context flags of that win (kernels.fan_ids)
CLAIM_FLAGS = 59  # the win flags every seat answering the discard on offer shares (last tile, after a kong, 地胡)
ROUND_WINNERS = 60  # the seats that won the tile on offer so far in its round (work.winners, work.winner_flags)
CLAIMER = 61  # the seat that pongs or kongs the discard on offer, -1 for none
CLAIM = 62  # its claim: PONG or KONG
WIN_ORDER = 63  # win orders given so far in the deal (simultaneous winners share one)
NEXT_DEALER = 64  # the next deal's dealer once a win decided it, -1 before (docs/rules/xuezhan-table.md#dealer)
PICKED = 65  # 换三张: tiles the actor has given so far (work.exchange_choices[actor])
N_DISCARDS = 66  # + seat: discards the seat made, in order in state.discard_order
TABLE_FIELDS = 70
# Room for one seat's discards in order: a seat discards once per tile it draws or claims; two seats on the
# 72 tiles of 筒 and 条 draw 46 tiles between them after the deal.
MAX_DISCARDS = 64
SUIT_SIZE = 9

# The slots of rules.settings: the ruleset's switches as integers.
(
    COMBINE_MULTIPLY, CAP, SELF_DRAWN_UNIT, KONG_UNITS_IN_WIN, DECLARED_READY, PASS_PONG_LOCK, PASS_WIN_LOCK,
    MISSED_WIN_LOCK, PASSED_KONG_PAYS, LAST_TILE_KONG, CHAJIAO_VOIDS_KONG_MONEY, EXPOSED_DISCARDER,
    EXPOSED_OTHERS, ADDED_OTHERS, CONCEALED_OTHERS, EARTHLY_SELF_DRAWN, WALL_TILES, EXCHANGE_THREE, VOID_SUIT,
) = range(19)
SETTINGS_FIELDS = 19
EXCHANGED = 3  # 换三张: tiles each seat gives


# ------------------------------------------------------------------------------------ state


class State(NamedTuple):
    hands: np.ndarray
    melds: np.ndarray
    visible: np.ndarray
    table: np.ndarray
    discarded: np.ndarray
    waits: np.ndarray
    discard_order: np.ndarray


class Work(NamedTuple):
    """Work arrays of the players and the engine, allocated once per batch (``new_work``)."""

    unseen: np.ndarray  # int8 (34,): the copies a seat cannot see
    shanten_after_discard: np.ndarray  # int64 (34,): a discard choice leaves each discard's shanten here
    held: np.ndarray  # int64 (34,): tiles held, melds included
    waits_scratch: np.ndarray  # int8 (34,): the waits a kong would leave
    exchange_choices: np.ndarray  # int64 (4, 3): the tiles each seat gives in 换三张
    streams: np.ndarray  # uint64 (4,): each seat's random stream
    check_counts: np.ndarray  # int64 (2, 34): the validating mode's tile counts
    kong_paid: np.ndarray  # int64 (4, 4): kong money paid [payer, payee] this deal
    won_sizes: np.ndarray  # int64 (4,): the hand size each winner won with
    fan_counts: np.ndarray  # int64 (N_FANS,): the fan evaluator's counts
    shanten_scratch: np.ndarray  # int16 (6, 10): the validating mode's shanten scratch
    winners: np.ndarray  # int64 (4,): the winners of one discard or robbed kong
    winner_flags: np.ndarray  # int64 (4,): their win flags; at the end of the deal, each seat's best value
    chajiao_paid: np.ndarray  # int64 (4,): 1 for each seat that paid 查叫
    deal_stream: np.ndarray  # uint64 (1,): the deal's stream after the shuffle, which draws the 换三张 direction
    legal: np.ndarray  # int64 (MAX_LEGAL,): the legal actions of the pending decision (``legal_actions``)
    # What a numba player is shown (sim.xuezhan.observation.numba_observation), rebuilt at each of its decisions:
    seen_table: np.ndarray  # int64 (TABLE_FIELDS,): `table` with what the seat may not know blanked
    seen_melds: np.ndarray  # int8 (4, 4, 2): the melds, other seats' concealed kongs without their kind
    money: np.ndarray  # int64 (4,): each seat's units so far in the deal (wins and kongs)
    distances: np.ndarray  # int64 (34,): the ukeire helper's scratch (sim.players.numba_players.ukeire)
    # The luck of the draws (sim.core.draw_luck), measured when `luck` has rows:
    luck: np.ndarray  # float64 (deals or 0, 4, features): each deal's sums, kept by the deal loops
    luck_sums: np.ndarray  # float64 (4, features): the deal's sums so far
    luck_tally: np.ndarray  # int64 (3, 34): the remaining tiles, distances and win values of one draw


def new_work(luck_deals: int = 0) -> Work:
    """Work arrays for a batch; with `luck_deals` rows of luck, the engine measures the luck of the draws."""
    return Work(
        np.zeros(N_KINDS, np.int8), np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.int64),
        np.zeros(N_KINDS, np.int8), np.zeros((MAX_SEATS, EXCHANGED), np.int64), np.zeros(MAX_SEATS, np.uint64),
        np.zeros((2, N_KINDS), np.int64), np.zeros((MAX_SEATS, MAX_SEATS), np.int64), np.zeros(MAX_SEATS, np.int64),
        np.zeros(N_FANS, np.int64), np.zeros((6, 10), np.int16), np.zeros(MAX_SEATS, np.int64),
        np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS, np.int64), np.zeros(1, np.uint64),
        np.zeros(MAX_LEGAL, np.int64), np.zeros(TABLE_FIELDS, np.int64), np.zeros((MAX_SEATS, 4, 2), np.int8),
        np.zeros(MAX_SEATS, np.int64), np.zeros(N_KINDS, np.int64),
        draw_luck.new_luck(luck_deals, MAX_SEATS), np.zeros((MAX_SEATS, len(draw_luck.FEATURES))), draw_luck.new_tally(),
    )


@njit(cache=True)
def new_state():
    return State(
        np.zeros((MAX_SEATS, N_KINDS), np.int8),
        np.zeros((MAX_SEATS, 4, 2), np.int8),
        np.zeros(N_KINDS, np.int8),
        np.zeros(TABLE_FIELDS, np.int64),
        np.zeros((MAX_SEATS, N_KINDS), np.int8),
        np.zeros((MAX_SEATS, N_KINDS), np.int8),
        np.zeros((MAX_SEATS, MAX_DISCARDS), np.int8),
    )


@njit(cache=True, _nrt=False)
def reset_state(state):
    hands, melds, visible, table, discarded, waits, discard_order = state
    for seat in range(MAX_SEATS):
        for kind in range(N_KINDS):
            hands[seat, kind] = 0
            discarded[seat, kind] = 0
            waits[seat, kind] = 0
        for index in range(MAX_DISCARDS):
            discard_order[seat, index] = 0
        for index in range(4):
            melds[seat, index, 0] = 0
            melds[seat, index, 1] = 0
    for kind in range(N_KINDS):
        visible[kind] = 0
    for field in range(TABLE_FIELDS):
        table[field] = 0
    for seat in range(MAX_SEATS):
        table[MISSED_VALUE + seat] = -1
        table[DECLARED_VOID + seat] = -1


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
def wall_left(table):
    return table[WALL_BACK] - table[WALL_FRONT] + 1


@njit(cache=True, inline="always", _nrt=False)
def in_deal(seat, table):
    return table[WON + seat] == 0


@njit(cache=True, inline="always", _nrt=False)
def next_in_deal(seat, table):
    """The next seat after `seat` in turn order that has not won (`seat` itself if no other)."""
    n = table[N_SEATS]
    for step in range(1, n + 1):
        other = (seat + step) % n
        if table[WON + other] == 0:
            return other
    return seat


@njit(cache=True, inline="always", _nrt=False)
def unseen_counts(seat, state, tile_set, out):
    """out[kind] = copies the seat cannot see (not in its hand, its concealed kongs or on the table)."""
    hands, melds, visible, table = state.hands, state.melds, state.visible, state.table
    for kind in range(N_KINDS):
        out[kind] = tile_set[kind] - hands[seat, kind] - visible[kind]
    for index in range(table[N_MELDS + seat]):
        if melds[seat, index, 0] == MELD_CONCEALED_KONG:
            out[melds[seat, index, 1]] -= 4


@njit(cache=True, inline="always", _nrt=False)
def pong_index(seat, melds, table, kind):
    for index in range(table[N_MELDS + seat]):
        if melds[seat, index, 0] == MELD_PONG and melds[seat, index, 1] == kind:
            return index
    return -1


@njit(cache=True, inline="always", _nrt=False)
def is_void_kind(seat, kind, table):
    """Whether `kind` belongs to the suit the seat declared void (定缺); never without 定缺."""
    start = table[DECLARED_VOID + seat]
    return start >= 0 and start <= kind < start + SUIT_SIZE


@njit(cache=True, inline="always", _nrt=False)
def void_tiles_held(seat, state):
    """How many tiles of its void suit the seat holds concealed (0 without 定缺)."""
    hands, table = state.hands, state.table
    start = table[DECLARED_VOID + seat]
    total = 0
    if start >= 0:
        for kind in range(start, start + SUIT_SIZE):
            total += hands[seat, kind]
    return total


@njit(cache=True, inline="always", _nrt=False)
def discard_respects_void(seat, tile, state):
    """定缺: while the seat holds tiles of its void suit, it discards one of them."""
    return is_void_kind(seat, tile, state.table) or void_tiles_held(seat, state) == 0


# ------------------------------------------------------------------------------------ two-suit measures


@njit(cache=True, inline="always", _nrt=False)
def _suit_index(counts, start):
    index = 0
    scale = 1
    for rank in range(9):
        index += counts[start + rank] * scale
        scale *= 5
    return index


@njit(cache=True, _nrt=False)
def is_complete(counts, n_melds, bits):
    """Whether a 筒/条 hand of 3k+2 concealed tiles beside n_melds melds is complete (four sets and a pair,
    or seven pairs without melds, a four-of-a-kind being two pairs). Each suit must be exactly sets, or sets
    and the one pair, which the 万 bit table of ``kernels.win_check`` answers per suit vector."""
    pin_index, sou_index = 0, 0
    pin, sou, odd = 0, 0, 0
    scale = 1
    for rank in range(9):
        p = counts[PIN_START + rank]
        s = counts[SOU_START + rank]
        pin_index += p * scale
        sou_index += s * scale
        scale *= 5
        pin += p
        sou += s
        odd += (p & 1) + (s & 1)
    if n_melds == 0 and odd == 0 and pin + sou == 14:
        return True
    pin_rest, sou_rest = pin % 3, sou % 3
    if not ((pin_rest == 2 and sou_rest == 0) or (pin_rest == 0 and sou_rest == 2)):
        return False
    return (bits[pin_index >> 3] >> (pin_index & 7)) & 1 == 1 and (bits[sou_index >> 3] >> (sou_index & 7)) & 1 == 1


@njit(cache=True, _nrt=False)
def shanten(counts, n_melds, suit):
    """Shanten of a 筒/条 hand (standard form or seven pairs): the two suits share the sets and the pair."""
    pin, sou = _suit_index(counts, PIN_START), _suit_index(counts, SOU_START)
    best = np.int64(_split_cost(suit, pin, suit, sou, MAX_SETS - n_melds))  # an int: min() with uint8 gives float
    if n_melds == 0:
        pairs, singles = 0, 0
        for kind in range(FIRST_KIND, LAST_KIND + 1):
            pairs += counts[kind] >> 1
            singles += counts[kind] & 1
        best = min(best, np.int64(_seven_pairs_from_tally(pairs, singles)))
    return best - 1


@njit(cache=True, _nrt=False)
def ukeire(counts, n_melds, live, suit):
    """(shanten, live tiles that lower it) of a 筒/條 hand of 3k+1 tiles."""
    n_sets = MAX_SETS - n_melds
    pin, sou = _suit_index(counts, PIN_START), _suit_index(counts, SOU_START)
    pairs, singles = 0, 0
    for kind in range(FIRST_KIND, LAST_KIND + 1):
        pairs += counts[kind] >> 1
        singles += counts[kind] & 1
    base = np.int64(_split_cost(suit, pin, suit, sou, n_sets))
    if n_melds == 0:
        base = min(base, np.int64(_seven_pairs_from_tally(pairs, singles)))
    total = 0
    scale = 1
    for rank in range(9):
        for start in (PIN_START, SOU_START):
            kind = start + rank
            if live[kind] <= 0 or counts[kind] >= 4:
                continue
            if start == PIN_START:
                distance = np.int64(_split_cost(suit, pin + scale, suit, sou, n_sets))
            else:
                distance = np.int64(_split_cost(suit, pin, suit, sou + scale, n_sets))
            if n_melds == 0:
                if counts[kind] & 1:
                    distance = min(distance, np.int64(_seven_pairs_from_tally(pairs + 1, singles - 1)))
                else:
                    distance = min(distance, np.int64(_seven_pairs_from_tally(pairs, singles + 1)))
            if distance < base:
                total += live[kind]
        scale *= 5
    return base - 1, total


@njit(cache=True, _nrt=False)
def find_waits(counts, n_melds, bits, out):
    """out[kind] = 1 for each kind that completes the 3k+1 hand (kinds held four times excluded);
    returns how many."""
    found = 0
    for kind in range(N_KINDS):
        out[kind] = 0
    for kind in range(FIRST_KIND, LAST_KIND + 1):
        if counts[kind] >= 4:
            continue
        counts[kind] += 1
        if is_complete(counts, n_melds, bits):
            out[kind] = 1
            found += 1
        counts[kind] -= 1
    return found


@njit(cache=True, _nrt=False)
def kong_keeps_waits(seat, kind, removed, state, rules, work):
    """Whether taking `removed` copies of `kind` out of the seat's concealed tiles into a kong leaves the
    declared waits unchanged (a declarer may make only such kongs). `removed`: 4 concealed (from a hand
    of 3k+2), 1 added (3k+2), 3 from a discard (3k+1)."""
    hands, table, waits = state.hands, state.table, state.waits
    hand = hands[seat]
    n_melds = table[N_MELDS + seat]
    waits_after = work.waits_scratch
    hand[kind] -= removed
    melds_after = n_melds + (0 if removed == 1 else 1)
    find_waits(hand, melds_after, rules.complete_bits, waits_after)
    same = True
    for other in range(N_KINDS):
        if waits_after[other] != waits[seat, other]:
            same = False
            break
    hand[kind] += removed
    return same


# ------------------------------------------------------------------------------------ legality


@njit(cache=True, inline="always", _nrt=False)
def may_declare_now(seat, state, settings):
    """报叫 with a discard: only the dealer, with its first discard (the others declare right after the deal)."""
    table = state.table
    return (
        settings[DECLARED_READY] != 0
        and table[DECLARED + seat] == 0
        and seat == table[DEALER]
        and table[DEALER_DISCARDS] == 0
    )


@njit(cache=True, _nrt=False)
def ready_after_discard(seat, tile, state, rules):
    """Whether the seat's hand, less one `tile`, is ready and could win (no tile of its void suit): the
    hand a 报叫 declarer must have."""
    hands, table = state.hands, state.table
    hand = hands[seat]
    if hand[tile] == 0:
        return False
    hand[tile] -= 1
    ready = shanten(hand, table[N_MELDS + seat], rules.suit_table) == 0 and void_tiles_held(seat, state) == 0
    hand[tile] += 1
    return ready


@njit(cache=True, inline="always", _nrt=False)
def kong_room(seat, table):
    """A kong needs a replacement tile in the wall (so none once the wall is empty) and a free meld slot."""
    return wall_left(table) > 0 and table[N_MELDS + seat] < 4


@njit(cache=True, _nrt=False)
def concealed_kong_legal(seat, kind, state, rules, work):
    hands, table = state.hands, state.table
    if not kong_room(seat, table) or hands[seat, kind] != 4 or is_void_kind(seat, kind, table):
        return False
    return table[DECLARED + seat] == 0 or kong_keeps_waits(seat, kind, 4, state, rules, work)


@njit(cache=True, _nrt=False)
def added_kong_legal(seat, kind, state, rules, work):
    hands, melds, table = state.hands, state.melds, state.table
    if (
        not kong_room(seat, table) or hands[seat, kind] == 0 or pong_index(seat, melds, table, kind) < 0
        or is_void_kind(seat, kind, table)
    ):
        return False
    return table[DECLARED + seat] == 0 or kong_keeps_waits(seat, kind, 1, state, rules, work)


@njit(cache=True, _nrt=False)
def pong_legal(seat, kind, state, settings):
    """Pong of a discard: two copies, a free slot, not a declarer (its hand is locked), not 过手碰-locked,
    not of the void suit (定缺). The last discard may be ponged (both rulesets; 003: 可碰不可杠)."""
    hands, table = state.hands, state.table
    return (
        hands[seat, kind] >= 2
        and table[N_MELDS + seat] < 4
        and table[DECLARED + seat] == 0
        and (table[PONG_LOCK + seat] >> kind) & 1 == 0
        and not is_void_kind(seat, kind, table)
    )


@njit(cache=True, _nrt=False)
def exposed_kong_legal(seat, kind, state, rules, work):
    hands, table = state.hands, state.table
    if not kong_room(seat, table) or hands[seat, kind] != 3 or is_void_kind(seat, kind, table):
        return False
    return table[DECLARED + seat] == 0 or kong_keeps_waits(seat, kind, 3, state, rules, work)


@njit(cache=True, _nrt=False)
def is_legal_turn_action(action, seat, win_allowed, drawn, ready_after, state, rules, work):
    """Whether an own-turn action is legal. A declarer must win when it can and otherwise discards the
    tile it drew (or makes a kong that keeps its waits). Under 定缺 a seat holding tiles of its void suit
    discards one of them. `ready_after`: discarding the tile leaves a hand that may declare 报叫
    (``ready_after_discard``; consulted for DISCARD_READY only)."""
    hands, table = state.hands, state.table
    code = action_code(action)
    tile = action_tile(action)
    declared = table[DECLARED + seat] == 1
    if table[WON + seat] != 0:
        return False
    if code == WIN:
        return win_allowed
    if declared and win_allowed:
        return False
    if tile < FIRST_KIND or tile > LAST_KIND:
        return False
    if code == DISCARD:
        return hands[seat, tile] > 0 and (not declared or tile == drawn) and discard_respects_void(seat, tile, state)
    if code == DISCARD_READY:
        return (
            hands[seat, tile] > 0 and may_declare_now(seat, state, rules.settings) and ready_after
            and discard_respects_void(seat, tile, state)
        )
    if code == CONCEALED_KONG:
        return concealed_kong_legal(seat, tile, state, rules, work)
    if code == ADDED_KONG:
        return added_kong_legal(seat, tile, state, rules, work)
    return False


@njit(cache=True, _nrt=False)
def is_legal_claim(action, seat, tile, win_allowed, may_claim, state, rules, work):
    """Whether a response to a discard (or, with may_claim False, to an added kong) is legal."""
    table = state.table
    code = action_code(action)
    if table[WON + seat] != 0:
        return False
    if code == WIN:
        return win_allowed
    if table[DECLARED + seat] == 1 and win_allowed:
        return False  # a declarer must win at the first chance
    if code == PASS:
        return True
    if not may_claim:
        return False
    if code == PONG:
        return pong_legal(seat, tile, state, rules.settings)
    if code == KONG:
        return exposed_kong_legal(seat, tile, state, rules, work)
    return False


@njit(cache=True, _nrt=False)
def is_legal_exchange(seat, tiles, state):
    """Whether the seat may give `tiles` (three kinds, ascending) in 换三张: held, and all of one suit."""
    hand = state.hands[seat]
    start = PIN_START if tiles[0] < SOU_START else SOU_START
    for index in range(EXCHANGED):
        tile = tiles[index]
        if tile < start or tile >= start + SUIT_SIZE or (index > 0 and tile < tiles[index - 1]):
            return False
        copies = 0
        for other in range(EXCHANGED):
            copies += tiles[other] == tile
        if hand[tile] < copies:
            return False
    return True


@njit(cache=True, _nrt=False)
def _exchange_legal(seat, state, work, out):
    """The tiles the seat may give as its next 换三张 tile: at first any it holds of a suit it holds three of;
    then the copies left of the suit of its first tile."""
    hand, table = state.hands[seat], state.table
    picked = table[PICKED]
    chosen = work.exchange_choices[seat]
    n = 0
    for start in (PIN_START, SOU_START):
        if picked > 0 and not start <= chosen[0] < start + SUIT_SIZE:
            continue
        held = 0
        for kind in range(start, start + SUIT_SIZE):
            held += hand[kind]
        if held < EXCHANGED:
            continue
        for kind in range(start, start + SUIT_SIZE):
            copies = hand[kind]
            for index in range(picked):
                copies -= chosen[index] == kind
            if copies > 0:
                out[n] = encode(EXCHANGE, kind)
                n += 1
    return n


@njit(cache=True, _nrt=False)
def legal_actions(state, rules, work, out):
    """The legal actions of the pending decision (table[DECISION] of seat table[ACTOR]) into `out`, in a
    fixed order (pass first, then win, then by tile and action code); returns how many. They are exactly
    the actions the legality functions above accept."""
    hands, table = state.hands, state.table
    seat, decision = table[ACTOR], table[DECISION]
    if decision == DECISION_EXCHANGE:
        return _exchange_legal(seat, state, work, out)
    if decision == DECISION_VOID:
        out[0], out[1] = encode(VOID, PIN_START), encode(VOID, SOU_START)
        return 2
    if decision == DECISION_OPENING_READY:
        out[0], out[1] = encode(PASS, NO_TILE), encode(DECLARE_READY, NO_TILE)
        return 2
    win_allowed = table[WIN_ALLOWED] != 0
    n = 0
    if decision == DECISION_TURN:
        if win_allowed:
            out[n] = encode(WIN, NO_TILE)
            n += 1
        drawn = table[DRAWN]
        may_declare = may_declare_now(seat, state, rules.settings)
        for kind in range(FIRST_KIND, LAST_KIND + 1):
            if hands[seat, kind] == 0:
                continue
            for code in (DISCARD, DISCARD_READY, CONCEALED_KONG, ADDED_KONG):
                ready = code == DISCARD_READY and may_declare and ready_after_discard(seat, kind, state, rules)
                if is_legal_turn_action(encode(code, kind), seat, win_allowed, drawn, ready, state, rules, work):
                    out[n] = encode(code, kind)
                    n += 1
        return n
    tile = table[OFFER]
    may_claim = decision == DECISION_CLAIM  # a robbed kong is won or let pass, never claimed
    for action in (encode(PASS, NO_TILE), encode(WIN, NO_TILE), encode(PONG, tile), encode(KONG, tile)):
        if is_legal_claim(action, seat, tile, win_allowed, may_claim, state, rules, work):
            out[n] = action
            n += 1
    return n

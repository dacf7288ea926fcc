"""The 二人麻将 game engine: whole deals of `erren`, `erren-classic` and `erren-challenge` played inside
numba (docs/rules/erren-table.md, docs/rules/erren-challenge.md).

One jitted call plays a batch of deals between two players and writes one record row per deal. A deal is
a resumable state machine (section "the state machine"): it stops at each decision of a seat that has a
choice, which a built-in heuristic (``sim.erren.players``) answers inside the loop, and a user's player
(``sim.players.user_players``: a Python class or an ``exec:`` program, seen through ``sim.erren.observation``; or a
numba function, ``sim.players.numba_players``) through the loop of section "user players".

A deal is a pure function of (seed, deal index, dealer): its dealer draw and wall come from the stream
(seed, 0, deal), each seat's decisions from (seed, 1 + seat, deal) (``sim.core.random_streams``), so a deal
replays identically however a run is split. With ``session_length`` > 0 the deals are played as sessions
of that many consecutive deals where the dealer rotates (docs/rules/erren-table.md#dealer): the first
dealer of a session is drawn at random, then the dealer keeps the seat after a dealer win or a draw and
otherwise passes it to the winner. Without sessions every deal draws its dealer.

The procedure, in order: shuffle; 14 tiles to the dealer, 13 to the other seat; flowers set aside and
replaced from the back, dealer first; the non-dealer may declare 天听 at once; then turns. On its turn a
player (holding 3k+2 tiles) may win, 加倍, declare a concealed or added kong (which draws a replacement
from the back, and an added kong may be robbed), or discard, optionally declaring ready; the opponent may
then win on the discard, 加倍, claim it (kong, pong, chow; none on the last discard) or pass and draw from
the front. A ready player's hand is locked: it wins, doubles, or discards what it drew. The deal ends on a
win or when the wall is empty. Every win is legal only at ``min_fan`` fans (flowers aside, before
doubling) and is scored with the context the table gives it (天胡, 地胡, 人胡, 天听, 妙手回春, 海底捞月,
杠上开花, 抢杠胡, 和绝张).

The ruleset's switches (``rules.settings``, slots in ``sim.erren.table``) give 004's arcade game
(`erren-challenge`) from the same steps: all 136 tiles shuffled with only the first TILES_IN_PLAY played,
bonus tiles turned face up from the back after the deal, the non-dealer's 天听 on its first draw, extra
draws from the out-of-play tiles for the first declared-ready seat after an exhausted wall, and its own
evaluator and points (``sim.erren.win_value``). The switches of its 闯关 levels give seat 0, the player,
004's assists (``sim.erren.challenge.assists``: 起始换牌 after the deal, 换刻子 and 搓牌 at its draws), whose random
choices come from a third stream, (seed, 3, deal); ``sim.erren.challenge.campaign`` plays the levels.

Each deal also leaves an event log (``events``: one row per event, row 0 holds the count) that ``mjsim
replay`` prints and the tests replay independently. The validating mode re-checks the table after every
action (tile conservation, counts, hand sizes, legality of every decision, every win complete and at
the minimum fan) and records the first violation per deal.
"""

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from kernels.fan_ids import (
    EARTHLY_HAND_FLAG,
    EXTRA_DRAW_FLAG,
    FOURTH_TILE_FLAG,
    HEAVENLY_HAND_FLAG,
    HEAVENLY_READY_FLAG,
    HUMAN_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    N_FANS,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
    Fan,
)
from kernels.fans.challenge import LIMITS, POINTS
from kernels.tiles import (
    FIRST_FLOWER,
    MELD_CHOW,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PONG,
    N_FLOWERS,
    N_KINDS,
)
from sim.core import decision_logs, draw_luck, event_logs, win_chances
from sim.core.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DECISION_CLAIM,
    DECISION_OPENING_READY,
    DECISION_ROB,
    DECISION_TURN,
    DECLARE_READY,
    DISCARD,
    DISCARD_READY,
    DOUBLE,
    KONG,
    NO_TILE,
    PASS,
    PONG,
    WIN,
    action_code,
    action_tile,
    encode,
)
from sim.core.deal_rules import Rules, deal_rules
from sim.core.event_logs import NO_SEAT, DealLog
from sim.core.random_streams import random_below, shuffle_in_place, stream_state
from sim.core.ruleset import Ruleset
from sim.core.worker_processes import engine_status
from sim.erren import encoding as observation_encoding
from sim.erren import players as heuristics
from sim.erren.challenge import assists
from sim.erren.observation import Observation, numba_observation
from sim.erren.players import shanten_of
from sim.erren.table import (
    ACTOR,
    ALL_SUITS,
    ANY_MELD,
    ASSIST_STREAM,
    BONUS_TILES,
    CAN_DOUBLE,
    CHANCE_SCALE,
    CLAIMED_MELDS,
    DEALER,
    DEALER_DISCARDS,
    DEALER_KONG_FIRST,
    DECISION,
    DOUBLES,
    DRAWN,
    EXTRA_DRAWS,
    FAN_CAP,
    FLOWERS,
    HAS_FLOWERS,
    HEAVENLY_READY,
    MAX_DOUBLES,
    MAY_MELD,
    MIN_FAN,
    N_MELDS,
    NON_DEALER_DRAWS,
    OFFER,
    OUT_OF_PLAY,
    PER_FAN_STEP,
    PER_LIMIT,
    PICK_CHANCE,
    PUNG_OFFER_CHANCE,
    READY,
    READY_ON_FIRST_DRAW,
    READY_REQUIRES_CONCEALED,
    READY_TURN,
    SCORING,
    SCORING_CHALLENGE,
    SCORING_MCR,
    SETTINGS_FIELDS,
    SOURCE,
    START_EXCHANGE,
    STEP,
    TILES_IN_PLAY,
    TURN,
    WALL_BACK,
    WALL_FRONT,
    WALL_TILES,
    WIN_DECLINED,
    WIN_FLAGS,
    WIN_POINTS,
    WIN_TOTAL,
    legal_actions,
    log_event,
    log_payment,
    may_declare_ready,
    new_state,
    new_work,
    note_discard,
    pong_index,
    reset_state,
    wall_left,
)
from sim.erren.win_value import NOT_A_WIN, copy_fans, is_winning_shape, score_win
from sim.players.numba_players import MAX_NUMBA_PARAMETERS
from sim.players.player_text import PlayerError, split_players
from sim.players.player_view import new_player_view
from sim.players.seating import (
    ASKING,
    ILLEGAL_ANSWER,
    ILLEGAL_CHANCE,
    STATUS_ANSWER,
    STATUS_DEAL,
    STATUS_DECISION,
    STATUS_ILLEGAL,
    STATUS_SEAT,
    SeatedPlayers,
    UserTable,
    ask_python,
    check_answers,
    is_numba,
    no_numba_player,
    numba_failure,
    numba_functions,
    offered,
    seat_texts,
    tell_deal_begins,
)
from sim.players.user_players import PlayerFailure

DEALT_TO_DEALER, DEALT_TO_OTHER = 14, 13
UNLIMITED_DOUBLES = 1 << 20

# Where the tile a player holds as its 14th came from: it decides 天胡, 地胡 and 杠上开花.
FROM_DEAL, FROM_WALL, FROM_KONG, FROM_FLOWER, FROM_CLAIM = 0, 1, 2, 3, 4

# The engine's steps (table[STEP]): what it does next when it carries a deal on (see "the state machine").
STEP_OVER, STEP_DECIDE, STEP_TURN, STEP_CLAIM, STEP_COMPLETE_KONG = range(5)

# How a deal ended.
DRAW_GAME, SELF_DRAWN, DISCARD_WIN, ROBBED_KONG = 0, 1, 2, 3
WIN_TYPES = ("draw", "self_drawn", "discard", "robbed_kong")

# Record columns (int32), one row per deal; fan counts go to a separate uint8 (deals, N_FANS) array.
RECORD_COLUMNS = (
    "dealer", "winner", "win_type", "fan_total", "flowers_0", "flowers_1", "doubles_0", "doubles_1",
    "turns", "tiles_left", "initial_shanten_0", "initial_shanten_1", "ready_turn_0", "ready_turn_1",
    "melds_0", "melds_1", "violation", "limits", "points", "faulted_0", "faulted_1",
)
(
    R_DEALER, R_WINNER, R_WIN_TYPE, R_FAN_TOTAL, R_FLOWERS, _R_FLOWERS_1, R_DOUBLES, _R_DOUBLES_1,
    R_TURNS, R_TILES_LEFT, R_INITIAL_SHANTEN, _R_INITIAL_SHANTEN_1, R_READY_TURN, _R_READY_TURN_1,
    R_MELDS, _R_MELDS_1, R_VIOLATION, R_LIMITS, R_POINTS, R_FAULTED, _R_FAULTED_1,
) = range(len(RECORD_COLUMNS))
# `limits` (役满) and `points` are the win's price in a ruleset that scores points (scoring = "challenge"); 0
# elsewhere, where the fans are the money. `faulted_s` is 1 when seat s's user player faulted in the deal
# (an ``exec:`` program's refused, malformed or late answer, or its death): the seat then played the
# engine's safe default for the rest of the deal (sim.players.user_players).

# Event log codes: (code, seat, tile) per row. Draws show the tile drawn, flowers included (kind >= 34).
(
    EV_DEAL, EV_DRAW, EV_REPLACEMENT, EV_DISCARD, EV_READY, EV_HEAVENLY_READY, EV_CHOW, EV_PONG, EV_KONG,
    EV_CONCEALED_KONG, EV_ADDED_KONG, EV_DOUBLE, EV_WIN_SELF_DRAWN, EV_WIN_DISCARD, EV_WIN_ROBBED_KONG,
    EV_EXHAUSTED, EV_BONUS, EV_EXTRA_DRAW,
) = range(18)
EVENT_NAMES = (
    "deal", "draw", "replacement", "discard", "ready", "heavenly ready", "chow", "pong", "kong",
    "concealed kong", "added kong", "double", "self-drawn win", "win on discard", "robs the kong", "wall empty",
    "bonus tile", "extra draw", *assists.ASSIST_EVENT_NAMES,  # the assists' codes follow (sim.erren.challenge.assists)
)
assert assists.EV_EXCHANGE_GIVES == EV_EXTRA_DRAW + 1 and len(EVENT_NAMES) == assists.EV_PUNG_GIVES + 1
# What makes a log a witness of its deal (docs/event-logs.md#what-a-log-witnesses): the wall as shuffled, the
# boundaries of the tiles in play, the choices a seat turned down, a declared hand's waits, the tiles a chow
# takes from the hand, and the payment as the engine prices it.
(
    EV_WALL, EV_OUT_OF_PLAY, EV_LAST_TILE, EV_EXTRA_DRAWS, EV_PASS, EV_DECLINE_WIN, EV_WAIT, EV_CHOW_LOWEST, EV_PAY_WIN,
) = range(assists.EV_PUNG_GIVES + 1, assists.EV_PUNG_GIVES + 10)
EVENT_NAMES += (
    "wall", "out of play", "last tile", "extra draws", "pass", "declines the win", "waits on", "chow's lowest tile",
    "pays the win",
)
assert len(EVENT_NAMES) == EV_PAY_WIN + 1
# The most rows a deal logs: its wall (136 tiles at most), then events. The longest deal in 2,000 logged deals
# of each 二人 ruleset with random, greedy, value, defensive and ev seats logged 283 rows (erren-challenge).
# A longer deal keeps its first rows and the validating mode reports it (LOG_OVERFLOW).
MAX_EVENTS = 800
MAX_DOUBLES_PRICED = 52  # (fan total + flowers) x 2^doubles is an exact int64 up to here
UNPRICED = -1  # a win's price past MAX_DOUBLES_PRICED: logging refuses such a deal (sim.erren.event_log)
EVENT_COLUMNS = 4  # code, seat, tile (a payment's payee), amount (a payment's; 0 otherwise)

# Violations the validating mode records (the first per deal).
(
    NO_VIOLATION, TILES_NOT_CONSERVED, COUNT_OUT_OF_RANGE, WRONG_HAND_SIZE, ILLEGAL_ACTION,
    WIN_NOT_COMPLETE, WIN_BELOW_MINIMUM, FLOWERS_NOT_CONSERVED, LOG_OVERFLOW, PLAYER_FAULT,
) = range(10)
VIOLATIONS = (
    "none", "tiles not conserved", "tile count out of range", "wrong hand size", "illegal action",
    "win on an incomplete hand", "win below the minimum fan", "flowers not conserved", "event log overflow",
    "a user player's answer was refused: its seat played the safe default",
)


# ------------------------------------------------------------------------------------- table moves


@njit(cache=True, inline="always", _nrt=False)
def _draw(seat, from_back, measured, wall, rules, state, work, events):
    """Draw for `seat` (from the back for a replacement), setting flowers aside and replacing them; each
    tile drawn adds its luck to the seat's (sim.core.draw_luck) when `measured` and luck is measured.

    Returns (kind, where it came from), or (-1, ...) when the wall runs out before a tile is in hand."""
    hands, table = state.hands, state.table
    source = FROM_KONG if from_back else FROM_WALL
    while True:
        if wall_left(table) == 0:
            return -1, source
        if measured and draw_luck.measuring(work.luck):
            position = table[WALL_BACK] if from_back else table[WALL_FRONT]
            _measure_draw(seat, wall[position], from_back, table[WALL_FRONT], table[WALL_BACK], wall, state, rules,
                          work)
        if from_back:
            tile = wall[table[WALL_BACK]]
            table[WALL_BACK] -= 1
            log_event(events, EV_REPLACEMENT, seat, tile)
        else:
            tile = wall[table[WALL_FRONT]]
            table[WALL_FRONT] += 1
            log_event(events, EV_DRAW, seat, tile)
        if tile >= FIRST_FLOWER:
            table[FLOWERS + seat] += 1
            from_back = True
            source = FROM_FLOWER
            if wall_left(table) == 0:
                log_event(events, EV_LAST_TILE, NO_SEAT, tile)
            continue
        hands[seat, tile] += 1
        if wall_left(table) == 0:
            log_event(events, EV_LAST_TILE, NO_SEAT, tile)
        return tile, source


@njit(cache=True, _nrt=False)
def _measure_draw(seat, tile, from_back, first, last, wall, state, rules, work):
    """Add the luck of the seat's draw of `tile` from wall[first .. last] (sim.core.draw_luck): the drawer's,
    and the other seat's if its hand is ready. A ready hand's completing kinds are priced as the engine prices
    the win: (fan total + flowers) x 2^doubles, or the points where the ruleset scores points."""
    hands, table, tally = state.hands, state.table, work.luck_tally
    total = draw_luck.tally_wall(wall, first, last, tally)
    before = draw_luck.distances_after_draw(hands[seat], table[N_MELDS + seat], rules.suit_table,
                                            rules.honour_table, work.shanten_scratch, tally)
    if before == draw_luck.COMPLETE + 1:
        flags = SELF_DRAWN_FLAG | _ready_flags(seat, table) | (KONG_REPLACEMENT_FLAG if from_back else 0)
        _price_wins(seat, flags, state, rules, work)
    draw_luck.add_draw(work.luck_sums, seat, tile, total, before, tally)
    other = 1 - seat
    if draw_luck.distances_after_draw(hands[other], table[N_MELDS + other], rules.suit_table, rules.honour_table,
                                      work.shanten_scratch, tally) == draw_luck.COMPLETE + 1:
        draw_luck.clear_values(tally)
        _price_wins(other, _ready_flags(other, table), state, rules, work)
        draw_luck.add_value(work.luck_sums, other, draw_luck.DISCARD_WIN_VALUE, tile, total, tally)


@njit(cache=True, _nrt=False)
def _price_wins(seat, flags, state, rules, work):
    """tally[VALUE] = the price of the seat's win with `flags` on each kind left that completes its hand."""
    table, tally = state.table, work.luck_tally
    points = work.score[POINTS]  # the pending win's points: pricing these wins must leave them as they were
    for kind in range(N_KINDS):
        if tally[draw_luck.REMAINING, kind] > 0 and tally[draw_luck.DISTANCE, kind] == draw_luck.COMPLETE:
            fans = _win_total(seat, kind, flags, False, state, rules, work)
            if fans < 0:
                continue
            if rules.settings[SCORING] == SCORING_CHALLENGE:
                tally[draw_luck.VALUE, kind] = work.score[POINTS]
            else:
                doubles = min(table[DOUBLES + seat], MAX_DOUBLES_PRICED)
                tally[draw_luck.VALUE, kind] = (np.int64(fans) + table[FLOWERS + seat]) << doubles
    work.score[POINTS] = points


@njit(cache=True, inline="always", _nrt=False)
def _add_meld(seat, code, low, state):
    melds, table = state.melds, state.table
    index = table[N_MELDS + seat]
    melds[seat, index, 0], melds[seat, index, 1] = code, low
    table[N_MELDS + seat] += 1
    table[ANY_MELD] = 1
    if code != MELD_CONCEALED_KONG:
        table[CLAIMED_MELDS + seat] += 1


@njit(cache=True, _nrt=False)
def _declare_ready(seat, heavenly, after_deal, state, rules, events):
    """`after_deal`: the non-dealer's 天听 right after the deal, before any turn (its ready turn is 0). The
    declaration is logged with the hand's waits: every kind of the tile set that would complete it, whether
    or not a copy is left to draw (the hand holds fewer than all of that kind's copies)."""
    table, hand = state.table, state.hands[seat]
    table[READY + seat] = 1
    table[READY_TURN + seat] = 0 if after_deal else table[TURN]
    table[HEAVENLY_READY + seat] = 1 if heavenly else 0
    log_event(events, EV_HEAVENLY_READY if heavenly else EV_READY, seat, NO_TILE)
    for kind in range(N_KINDS):
        if hand[kind] < rules.tile_set[kind]:
            hand[kind] += 1
            if is_winning_shape(hand, table[N_MELDS + seat], rules):
                log_event(events, EV_WAIT, seat, kind)
            hand[kind] -= 1


@njit(cache=True, inline="always", _nrt=False)
def _ready_flags(seat, table):
    flags = 0
    if table[READY + seat] == 1:
        flags |= READY_FLAG
    if table[HEAVENLY_READY + seat] == 1:
        flags |= HEAVENLY_READY_FLAG
    return flags


@njit(cache=True, inline="always", _nrt=False)
def _self_draw_flags(seat, tile, source, state):
    visible, table = state.visible, state.table
    flags = SELF_DRAWN_FLAG | _ready_flags(seat, table)
    if source != FROM_DEAL and wall_left(table) == 0:
        flags |= LAST_WALL_TILE_FLAG
    if source == FROM_KONG:
        flags |= KONG_REPLACEMENT_FLAG
    if visible[tile] == 3:
        flags |= FOURTH_TILE_FLAG
    if source == FROM_DEAL:
        flags |= HEAVENLY_HAND_FLAG
    elif (
        seat != table[DEALER]
        and table[NON_DEALER_DRAWS] == 1
        and table[ANY_MELD] == 0
        and (source == FROM_WALL or source == FROM_FLOWER)
    ):
        flags |= EARTHLY_HAND_FLAG
    return flags


@njit(cache=True, inline="always", _nrt=False)
def _discard_flags(winner, tile, discarder, state):
    visible, table = state.visible, state.table
    flags = _ready_flags(winner, table)
    if wall_left(table) == 0:
        flags |= LAST_WALL_TILE_FLAG
    if visible[tile] == 4:  # the three others and the discard itself
        flags |= FOURTH_TILE_FLAG
    if discarder == table[DEALER] and table[DEALER_DISCARDS] == 1 and table[DEALER_KONG_FIRST] == 0:
        flags |= HUMAN_HAND_FLAG
    return flags


@njit(cache=True, inline="always", _nrt=False)
def _win_total(seat, tile, flags, in_hand, state, rules, work):
    """The fan total (flowers aside, before doubling) of the seat's win on `tile`, or -1 when the hand is
    not complete or the win is below the minimum fan; its points (scoring = "challenge") are left in
    work.score[POINTS], 0 when there is no win. `in_hand`: the tile is already in the hand."""
    hands, melds, table = state.hands, state.melds, state.table
    hand = hands[seat]
    n_melds = table[N_MELDS + seat]
    if not in_hand:
        hand[tile] += 1
    complete = is_winning_shape(hand, n_melds, rules)
    hand[tile] -= 1  # the evaluator takes the concealed tiles without the winning tile
    total = NOT_A_WIN
    work.score[POINTS] = 0
    if complete:
        total = score_win(hand, melds[seat], n_melds, tile, flags, table[FLOWERS + seat], state.bonus, rules, work)
    if in_hand:
        hand[tile] += 1
    if total < rules.settings[MIN_FAN]:
        work.score[POINTS] = 0
        return -1
    return total


@njit(cache=True, inline="always", _nrt=False)
def _may_double(seat, win_total, table, settings):
    return win_total >= 0 and table[DOUBLES + seat] < settings[MAX_DOUBLES]


@njit(cache=True, inline="always", _nrt=False)
def _locked_answer(seat, win_total, can_double, kinds, parameters, state, rules, work, streams):
    """A ready player offered a legal win takes it, or declares 加倍 when it may and its policy says so
    (its only choices). Returns WIN or DOUBLE."""
    if can_double:
        double, streams[seat] = heuristics.doubles_instead(
            kinds[seat], parameters[seat], seat, win_total, state, rules, work, streams[seat]
        )
        if double:
            return DOUBLE
    return WIN


# ------------------------------------------------------------------------------------- validation


@njit(cache=True, _nrt=False)
def _check_table(state, wall, rules, expected_sizes, counts):
    """The first violation of the table's invariants, or NO_VIOLATION. expected_sizes[seat]: hand size
    (concealed tiles plus 3 per meld) each seat must have now; `counts` is an int64 (2, 34) work array."""
    hands, melds, visible, table = state.hands, state.melds, state.visible, state.table
    tile_set, settings = rules.tile_set, rules.settings
    accounted, exposed = counts[0], counts[1]
    for kind in range(N_KINDS):
        accounted[kind] = 0
        exposed[kind] = 0
    for kind in range(N_KINDS):
        for seat in range(2):
            if hands[seat, kind] < 0 or hands[seat, kind] > 4:
                return COUNT_OUT_OF_RANGE
            accounted[kind] += hands[seat, kind]
        if visible[kind] < 0 or visible[kind] > 4:
            return COUNT_OUT_OF_RANGE
        accounted[kind] += visible[kind]
    flowers_left = 0
    for position in range(table[WALL_FRONT], table[WALL_BACK] + 1):
        if wall[position] >= FIRST_FLOWER:
            flowers_left += 1
        else:
            accounted[wall[position]] += 1
    for position in range(table[OUT_OF_PLAY], settings[WALL_TILES]):  # the tiles out of play (erren-challenge)
        accounted[wall[position]] += 1
    for seat in range(2):
        size = 0
        for kind in range(N_KINDS):
            size += hands[seat, kind]
        for index in range(table[N_MELDS + seat]):
            code, low = melds[seat, index, 0], melds[seat, index, 1]
            size += 3
            if code == MELD_CONCEALED_KONG:
                accounted[low] += 4
            elif code == MELD_CHOW:
                for kind in range(low, low + 3):
                    exposed[kind] += 1
            else:
                exposed[low] += 3 if code == MELD_PONG else 4
        if size != expected_sizes[seat]:
            return WRONG_HAND_SIZE
    for kind in range(N_KINDS):
        if accounted[kind] != tile_set[kind] or exposed[kind] > visible[kind]:
            return TILES_NOT_CONSERVED
    if settings[HAS_FLOWERS] != 0 and flowers_left + table[FLOWERS] + table[FLOWERS + 1] != N_FLOWERS:
        return FLOWERS_NOT_CONSERVED
    return NO_VIOLATION


@njit(cache=True, inline="always", _nrt=False)
def _note(record, violation):
    if record[R_VIOLATION] == NO_VIOLATION:
        record[R_VIOLATION] = violation


# ------------------------------------------------------------------------------------- one deal


@njit(cache=True, _nrt=False)
def _finish(record, fans, winner, win_type, tile, flags, state, rules, work, events, validate):
    """Write the deal's record; for a win, score the winning hand once more and keep its fans."""
    hands, melds, table = state.hands, state.melds, state.table
    table[STEP] = STEP_OVER
    record[R_WINNER] = winner
    record[R_WIN_TYPE] = win_type
    record[R_TURNS] = table[TURN]
    record[R_TILES_LEFT] = wall_left(table)
    for seat in range(2):
        record[R_FLOWERS + seat] = table[FLOWERS + seat]
        record[R_DOUBLES + seat] = table[DOUBLES + seat]
        record[R_READY_TURN + seat] = table[READY_TURN + seat]
        record[R_MELDS + seat] = table[N_MELDS + seat]
    for fan in range(fans.shape[0]):
        fans[fan] = 0
    if winner < 0:
        record[R_FAN_TOTAL], record[R_LIMITS], record[R_POINTS] = 0, 0, 0
        log_event(events, EV_EXHAUSTED, -1, NO_TILE)
        return
    hand = hands[winner]
    n_melds = table[N_MELDS + winner]
    if win_type == SELF_DRAWN:
        hand[tile] -= 1
    total = score_win(hand, melds[winner], n_melds, tile, flags, table[FLOWERS + winner], state.bonus, rules, work)
    record[R_FAN_TOTAL] = total
    record[R_LIMITS], record[R_POINTS] = work.score[LIMITS], work.score[POINTS]
    if total != NOT_A_WIN:
        copy_fans(rules, work, fans)
    if validate:
        hand[tile] += 1
        # the shanten kernel knows standard hands and seven pairs; thirteen orphans is the evaluator's word
        if shanten_of(hand, n_melds, rules, work.shanten_scratch) != -1 and fans[Fan.THIRTEEN_ORPHANS] == 0:
            _note(record, WIN_NOT_COMPLETE)
        hand[tile] -= 1
        if total < rules.settings[MIN_FAN]:
            _note(record, WIN_BELOW_MINIMUM)
    if win_type == SELF_DRAWN:
        hand[tile] += 1
    code = EV_WIN_SELF_DRAWN if win_type == SELF_DRAWN else EV_WIN_DISCARD if win_type == DISCARD_WIN else EV_WIN_ROBBED_KONG
    log_event(events, code, winner, tile)
    log_payment(events, EV_PAY_WIN, 1 - winner, winner, _win_price(winner, total, record, table, rules.settings))


@njit(cache=True, inline="always", _nrt=False)
def _win_price(winner, total, record, table, settings):
    """What the loser pays the winner (docs/rules/erren-table.md): the points where the ruleset prices wins in
    points, else F = (fan total + the winner's flowers) x 2^(its doubles); UNPRICED past MAX_DOUBLES_PRICED
    doubles, where F no longer fits an int64 exactly."""
    if settings[SCORING] == SCORING_CHALLENGE:
        return np.int64(record[R_POINTS])
    doubles = table[DOUBLES + winner]
    if doubles > MAX_DOUBLES_PRICED:
        return UNPRICED
    return (np.int64(total) + table[FLOWERS + winner]) << doubles


@njit(cache=True, _nrt=False)
def _open_deal(deal, dealer, seed, template, wall, rules, state, work, events, record, validate):
    """The deal and flowers: shuffle, 14 tiles to the dealer and 13 to the other seat, flowers set aside
    and replaced from the back (the dealer first), then the bonus tiles turned from the back. Only the first
    settings[TILES_IN_PLAY] tiles of the shuffled wall are played; the rest stay out of play, in order, for
    the extra draws. Returns the dealer's last tile received, the tile its first turn may win on (天胡)."""
    hands, visible, table, settings = state.hands, state.visible, state.table, rules.settings
    streams = work.streams
    reset_state(state)
    events[0, 0] = 0
    for column in range(record.shape[0]):
        record[column] = 0
    if draw_luck.measuring(work.luck):
        draw_luck.begin_deal(work.luck_sums)
    for position in range(template.shape[0]):
        wall[position] = template[position]
    stream = stream_state(seed, 0, deal)
    stream, _ = random_below(stream, 2)  # the deal's own dealer draw: used when deals are independent
    shuffle_in_place(stream, wall)
    for position in range(wall.shape[0]):  # the wall as shuffled, front first: the log's witness of every draw
        log_event(events, EV_WALL if position < settings[TILES_IN_PLAY] else EV_OUT_OF_PLAY, NO_SEAT, wall[position])
    streams[0] = stream_state(seed, 1, deal)
    streams[1] = stream_state(seed, 2, deal)
    streams[ASSIST_STREAM] = stream_state(seed, assists.ASSIST_STREAM_CHANNEL, deal)

    other = 1 - dealer
    table[DEALER] = dealer
    record[R_DEALER] = dealer
    last_received = -1
    for position in range(DEALT_TO_DEALER + DEALT_TO_OTHER):
        seat = dealer if position < DEALT_TO_DEALER else other
        tile = wall[position]
        log_event(events, EV_DEAL, seat, tile)
        if tile >= FIRST_FLOWER:
            table[FLOWERS + seat] += 1
        else:
            hands[seat, tile] += 1
            if seat == dealer:
                last_received = tile
    table[WALL_FRONT] = DEALT_TO_DEALER + DEALT_TO_OTHER
    table[WALL_BACK] = settings[TILES_IN_PLAY] - 1
    table[OUT_OF_PLAY] = settings[TILES_IN_PLAY]
    for seat in (dealer, other):  # the dealer replaces its flowers first
        for _ in range(table[FLOWERS + seat]):
            tile, _ = _draw(seat, True, False, wall, rules, state, work, events)  # the deal: the same in every seating
            if seat == dealer:
                last_received = tile
    for _ in range(settings[BONUS_TILES]):  # face up for both seats: it leaves the wall (no flowers here)
        tile = wall[table[WALL_BACK]]
        table[WALL_BACK] -= 1
        state.bonus[tile] += 1
        visible[tile] += 1
        log_event(events, EV_BONUS, -1, tile)
    if settings[START_EXCHANGE] != 0:
        received = assists.start_exchange(assists.ASSISTED_SEAT, wall, state, rules, work, events)
        if dealer == assists.ASSISTED_SEAT and hands[dealer, last_received] == 0:
            last_received = received  # the tile its 天胡 would be won on must be one it holds
    for seat in range(2):
        record[R_INITIAL_SHANTEN + seat] = shanten_of(hands[seat], 0, rules, work.shanten_scratch)
    table[TURN] = 1
    if validate:
        work.hand_sizes[dealer], work.hand_sizes[other] = 14, 13
        _note(record, _check_table(state, wall, rules, work.hand_sizes, work.check_counts))
    return last_received


# ------------------------------------------------------------------------------------- the state machine
#
# A deal is a state machine over the control fields of `table` (sim.erren.table: STEP, ACTOR, DECISION, ...).
# `_begin_deal` deals and `_answer` carries out the pending decision's answer; `_carry_on` then takes every
# step that needs no choice, and stops at the next decision (STEP_DECIDE: a seat with a choice, its legal
# actions given by sim.erren.table.legal_actions) or at the end (STEP_OVER). `play_to_user` is the one
# compiled copy of them all, with the built-in players: the batch loop, the loop that asks user players and
# the step environment all play through it, so the state machine is compiled once, not once per entry
# point. A locked (ready) seat is asked only when it may 加倍 instead of winning.

@njit(cache=True, inline="always", _nrt=False)
def _ask(seat, decision, win_total, can_double, may_meld, flags, points, table):
    table[STEP], table[ACTOR], table[DECISION] = STEP_DECIDE, seat, decision
    table[WIN_TOTAL], table[CAN_DOUBLE], table[MAY_MELD], table[WIN_FLAGS] = win_total, can_double, may_meld, flags
    table[WIN_POINTS] = points


@njit(cache=True, inline="always", _nrt=False)
def _start_turn(seat, drawn, source, table):
    table[STEP], table[ACTOR], table[DRAWN], table[SOURCE], table[WIN_DECLINED] = STEP_TURN, seat, drawn, source, 0


@njit(cache=True, inline="always", _nrt=False)
def _first_declared(table):
    """The seat that declared ready first (its ready turn is the earlier), or -1 when neither did."""
    if table[READY] == 0 and table[READY + 1] == 0:
        return -1
    if table[READY] == 0 or table[READY + 1] == 0:
        return 0 if table[READY] == 1 else 1
    dealer = table[DEALER]
    other = 1 - dealer
    return other if table[READY_TURN + other] < table[READY_TURN + dealer] else dealer


@njit(cache=True, _nrt=False)
def _extra_draws(record, fans, wall, state, rules, work, events, validate):
    """The wall is empty and nobody won: the seat that declared ready first (if any) draws up to
    settings[EXTRA_DRAWS] out-of-play tiles in order, throwing each that does not win; a win there is
    self-drawn (海底捞月, EXTRA_DRAW_FLAG). Nobody may claim those throws, and the locked hand does not 加倍
    there: there is no later chance to win. Returns whether the deal ended in a win."""
    hands, visible, table, settings = state.hands, state.visible, state.table, rules.settings
    seat = _first_declared(table)
    if seat < 0 or table[OUT_OF_PLAY] >= settings[WALL_TILES]:
        return False
    log_event(events, EV_EXTRA_DRAWS, seat, NO_TILE)
    for _ in range(settings[EXTRA_DRAWS]):
        if table[OUT_OF_PLAY] >= settings[WALL_TILES]:
            return False
        tile = np.int64(wall[table[OUT_OF_PLAY]])  # as every other win's tile: one compiled copy of the scoring
        if draw_luck.measuring(work.luck):  # drawn from the out-of-play tiles left
            _measure_draw(seat, tile, False, table[OUT_OF_PLAY], settings[WALL_TILES] - 1, wall, state, rules, work)
        table[OUT_OF_PLAY] += 1
        table[TURN] += 1
        hands[seat, tile] += 1
        log_event(events, EV_EXTRA_DRAW, seat, tile)
        if validate:
            work.hand_sizes[seat], work.hand_sizes[1 - seat] = 14, 13
            _note(record, _check_table(state, wall, rules, work.hand_sizes, work.check_counts))
        flags = SELF_DRAWN_FLAG | EXTRA_DRAW_FLAG | _ready_flags(seat, table)
        if _win_total(seat, tile, flags, True, state, rules, work) >= 0:
            _finish(record, fans, seat, SELF_DRAWN, tile, flags, state, rules, work, events, validate)
            return True
        hands[seat, tile] -= 1
        visible[tile] += 1
        note_discard(seat, tile, state)
        state.after_ready[seat, tile] += 1
        log_event(events, EV_DISCARD, seat, tile)
    return False


@njit(cache=True, inline="always", _nrt=False)
def _over(record, fans, wall, state, rules, work, events, validate):
    """The wall ran out: the extra draws where the ruleset has them, else (or if they do not win) a draw."""
    if rules.settings[EXTRA_DRAWS] > 0 and _extra_draws(record, fans, wall, state, rules, work, events, validate):
        return
    _finish(record, fans, -1, DRAW_GAME, 0, 0, state, rules, work, events, validate)


@njit(cache=True, inline="always", _nrt=False)
def _check_turn_start(seat, state, wall, rules, work, events, record, validate):
    """The validating mode's check when a seat begins a turn with 3k+2 tiles."""
    if validate:
        work.hand_sizes[seat], work.hand_sizes[1 - seat] = 14, 13
        _note(record, _check_table(state, wall, rules, work.hand_sizes, work.check_counts))
        if events[0, 0] >= events.shape[0] - 1:
            _note(record, LOG_OVERFLOW)


@njit(cache=True, inline="always", _nrt=False)
def _replacement(seat, wall, rules, state, work, events, record, fans, validate):
    """After a kong: the replacement draw from the back, then the seat's turn goes on."""
    drawn, source = _draw(seat, True, True, wall, rules, state, work, events)
    if drawn < 0:
        _over(record, fans, wall, state, rules, work, events, validate)
        return
    if validate:
        work.hand_sizes[seat], work.hand_sizes[1 - seat] = 14, 13
        _note(record, _check_table(state, wall, rules, work.hand_sizes, work.check_counts))
    _start_turn(seat, drawn, source, state.table)


@njit(cache=True, inline="always", _nrt=False)
def _offer_turn(wall, rules, state, work, events, record, fans, validate):
    """The actor's turn with 3k+2 tiles: it may win on the tile it drew (unless it declared 加倍 on it), 加倍,
    make kongs or discard. A locked (ready) hand wins, doubles, or throws what it drew."""
    table = state.table
    seat, drawn, source = table[ACTOR], table[DRAWN], table[SOURCE]
    flags = 0
    win_total = -1
    if drawn >= 0 and table[WIN_DECLINED] == 0:
        flags = _self_draw_flags(seat, drawn, source, state)
        win_total = _win_total(seat, drawn, flags, True, state, rules, work)
    can_double = _may_double(seat, win_total, table, rules.settings)
    points = work.score[POINTS] if win_total >= 0 else 0
    if table[READY + seat] == 1:
        if win_total >= 0:
            if can_double:
                _ask(seat, DECISION_TURN, win_total, 1, 0, flags, points, table)
            else:
                _finish(record, fans, seat, SELF_DRAWN, drawn, flags, state, rules, work, events, validate)
            return
        _discard(seat, drawn, False, wall, rules, state, work, events, record, validate)
        return
    _ask(seat, DECISION_TURN, win_total, int(can_double), int(drawn >= 0), flags, points, table)


@njit(cache=True, inline="always", _nrt=False)
def _discard(seat, tile, declare, wall, rules, state, work, events, record, validate):
    """The seat discards `tile`, declaring ready (报听, or 天听 on the dealer's first discard) if it chose to;
    the opponent answers next."""
    hands, visible, table = state.hands, state.visible, state.table
    hands[seat, tile] -= 1
    visible[tile] += 1
    note_discard(seat, tile, state)
    if table[READY + seat] == 1:
        state.after_ready[seat, tile] += 1
    log_event(events, EV_DISCARD, seat, tile)
    if seat == table[DEALER]:
        table[DEALER_DISCARDS] += 1
    if declare:
        if seat == table[DEALER]:  # 天听 with the dealer's first discard, unless it made a concealed kong first
            heavenly = table[DEALER_DISCARDS] == 1 and table[DEALER_KONG_FIRST] == 0
        else:  # 004: the non-dealer's 天听 is declared on its first draw (turn 2), throwing the tile drawn
            heavenly = (rules.settings[READY_ON_FIRST_DRAW] != 0 and table[TURN] == 2 and tile == table[DRAWN]
                        and (table[SOURCE] == FROM_WALL or table[SOURCE] == FROM_FLOWER))
        _declare_ready(seat, heavenly, False, state, rules, events)
    if validate:
        work.hand_sizes[0], work.hand_sizes[1] = 13, 13
        _note(record, _check_table(state, wall, rules, work.hand_sizes, work.check_counts))
    table[STEP], table[ACTOR], table[OFFER] = STEP_CLAIM, 1 - seat, tile


@njit(cache=True, inline="always", _nrt=False)
def _pass_and_draw(seat, may_claim, wall, rules, state, work, events, record, fans, validate):
    """The seat let the discard pass: it draws from the front (on the last discard the deal is a draw)."""
    table = state.table
    if not may_claim:
        _over(record, fans, wall, state, rules, work, events, validate)
        return
    table[TURN] += 1
    if seat != table[DEALER]:
        table[NON_DEALER_DRAWS] += 1
    settings = rules.settings
    if seat == assists.ASSISTED_SEAT and (settings[PICK_CHANCE] != 0 or settings[PUNG_OFFER_CHANCE] != 0):
        assists.at_draw(seat, wall, state, rules, work, events)
    drawn, source = _draw(seat, False, True, wall, rules, state, work, events)
    if drawn < 0:
        _over(record, fans, wall, state, rules, work, events, validate)
        return
    _start_turn(seat, drawn, source, table)
    _check_turn_start(seat, state, wall, rules, work, events, record, validate)


@njit(cache=True, inline="always", _nrt=False)
def _offer_claim(wall, rules, state, work, events, record, fans, validate):
    """The actor's answer to the opponent's discard: win, 加倍, kong, pong, chow (none on the last discard)
    or pass and draw. A locked hand wins, doubles or passes."""
    table = state.table
    seat, discard = table[ACTOR], table[OFFER]
    may_claim = wall_left(table) > 0
    flags = _discard_flags(seat, discard, 1 - seat, state)
    win_total = _win_total(seat, discard, flags, False, state, rules, work)
    can_double = _may_double(seat, win_total, table, rules.settings)
    points = work.score[POINTS]
    if table[READY + seat] == 1:
        if win_total < 0:
            _pass_and_draw(seat, may_claim, wall, rules, state, work, events, record, fans, validate)
        elif can_double:
            _ask(seat, DECISION_CLAIM, win_total, 1, int(may_claim), flags, points, table)
        else:
            _finish(record, fans, seat, DISCARD_WIN, discard, flags, state, rules, work, events, validate)
        return
    _ask(seat, DECISION_CLAIM, win_total, int(can_double), int(may_claim), flags, points, table)


@njit(cache=True, inline="always", _nrt=False)
def _complete_kong(wall, rules, state, work, events, record, fans, validate):
    """The added kong stands (nobody robbed it): the pong becomes a kong, then the replacement draw."""
    melds, visible, table = state.melds, state.visible, state.table
    seat, tile = table[ACTOR], table[OFFER]
    melds[seat, pong_index(seat, melds, table, tile), 0] = MELD_KONG
    visible[tile] += 1
    table[ANY_MELD] = 1
    _replacement(seat, wall, rules, state, work, events, record, fans, validate)


@njit(cache=True, inline="always", _nrt=False)
def _carry_on(wall, rules, state, work, events, record, fans, validate):
    """Take every step that needs no choice, up to the next decision or the end of the deal."""
    table = state.table
    while True:
        step = table[STEP]
        if step == STEP_TURN:
            _offer_turn(wall, rules, state, work, events, record, fans, validate)
        elif step == STEP_CLAIM:
            _offer_claim(wall, rules, state, work, events, record, fans, validate)
        elif step == STEP_COMPLETE_KONG:
            _complete_kong(wall, rules, state, work, events, record, fans, validate)
        else:
            return


@njit(cache=True, inline="always", _nrt=False)
def _begin_deal(deal, dealer, seed, template, wall, rules, state, work, events, record, validate):
    """Deal, and set the first step: the non-dealer's 天听 when its hand is ready, else the dealer's first
    turn (which `_carry_on` takes)."""
    table = state.table
    last_received = _open_deal(deal, dealer, seed, template, wall, rules, state, work, events, record, validate)
    other = 1 - dealer
    _start_turn(dealer, last_received, FROM_DEAL, table)
    ready_allowed = (rules.settings[READY_ON_FIRST_DRAW] == 0
                     and may_declare_ready(other, table, rules.settings[READY_REQUIRES_CONCEALED] != 0))
    if ready_allowed and shanten_of(state.hands[other], 0, rules, work.shanten_scratch) == 0:
        _ask(other, DECISION_OPENING_READY, -1, 0, 0, 0, 0, table)


@njit(cache=True, inline="always", _nrt=False)
def _answer(action, wall, rules, state, work, events, record, fans, validate):
    """Carry out the pending decision's answer `action` (legal: the caller checks)."""
    hands, table = state.hands, state.table
    seat, decision = table[ACTOR], table[DECISION]
    code, tile = action_code(action), action_tile(action)
    if decision == DECISION_OPENING_READY:
        if code == DECLARE_READY:
            _declare_ready(seat, True, True, state, rules, events)
        _start_turn(1 - seat, table[DRAWN], FROM_DEAL, table)
    elif decision == DECISION_TURN:
        if table[WIN_TOTAL] >= 0 and code != WIN and code != DOUBLE:
            log_event(events, EV_DECLINE_WIN, seat, table[DRAWN])
        if code == WIN:
            _finish(record, fans, seat, SELF_DRAWN, table[DRAWN], table[WIN_FLAGS], state, rules, work, events, validate)
        elif code == DOUBLE:
            table[DOUBLES + seat] += 1
            log_event(events, EV_DOUBLE, seat, table[DRAWN])
            table[STEP], table[WIN_DECLINED] = STEP_TURN, 1
        elif code == CONCEALED_KONG:
            hands[seat, tile] -= 4
            _add_meld(seat, MELD_CONCEALED_KONG, tile, state)
            if seat == table[DEALER] and table[DEALER_DISCARDS] == 0:
                table[DEALER_KONG_FIRST] = 1
            log_event(events, EV_CONCEALED_KONG, seat, tile)
            _replacement(seat, wall, rules, state, work, events, record, fans, validate)
        elif code == ADDED_KONG:
            hands[seat, tile] -= 1
            log_event(events, EV_ADDED_KONG, seat, tile)
            table[STEP], table[OFFER] = STEP_COMPLETE_KONG, tile
            opponent = 1 - seat
            rob_flags = ROBBING_KONG_FLAG | _ready_flags(opponent, table)
            rob_total = _win_total(opponent, tile, rob_flags, False, state, rules, work)
            if rob_total >= 0:
                can_double = _may_double(opponent, rob_total, table, rules.settings)
                if table[READY + opponent] == 1 and not can_double:
                    _finish(record, fans, opponent, ROBBED_KONG, tile, rob_flags, state, rules, work, events, validate)
                else:
                    _ask(opponent, DECISION_ROB, rob_total, int(can_double), 0, rob_flags, work.score[POINTS], table)
        else:
            _discard(seat, tile, code == DISCARD_READY, wall, rules, state, work, events, record, validate)
    elif decision == DECISION_ROB:
        if code == WIN:
            _finish(record, fans, seat, ROBBED_KONG, table[OFFER], table[WIN_FLAGS], state, rules, work, events, validate)
        else:
            if code == DOUBLE:
                table[DOUBLES + seat] += 1
                log_event(events, EV_DOUBLE, seat, table[OFFER])
            else:  # a rob is offered only with a win to take: passing it is always a choice
                log_event(events, EV_PASS, seat, table[OFFER])
            table[STEP], table[ACTOR] = STEP_COMPLETE_KONG, 1 - seat
    else:
        _answer_claim(seat, code, tile, wall, rules, state, work, events, record, fans, validate)


@njit(cache=True, inline="always", _nrt=False)
def _answer_claim(seat, code, low, wall, rules, state, work, events, record, fans, validate):
    """The seat's answer to the discard on offer: win, 加倍 (and pass), pass, or claim it for a meld."""
    hands, visible, table = state.hands, state.visible, state.table
    discard = table[OFFER]
    if code == WIN:
        _finish(record, fans, seat, DISCARD_WIN, discard, table[WIN_FLAGS], state, rules, work, events, validate)
        return
    if code == DOUBLE:
        table[DOUBLES + seat] += 1
        log_event(events, EV_DOUBLE, seat, discard)
        code = PASS
    elif code == PASS and legal_actions(state, rules, work.shanten_scratch, work.legal) > 1:
        log_event(events, EV_PASS, seat, discard)  # a claim or a win turned down; a pass with no choice is not asked
    if code == PASS:
        _pass_and_draw(seat, table[MAY_MELD] != 0, wall, rules, state, work, events, record, fans, validate)
        return
    # A claim: the discard joins the claimer's meld, the claimer's own tiles become visible.
    visible[discard] -= 1
    if code == CHOW:
        for kind in range(low, low + 3):
            if kind != discard:
                hands[seat, kind] -= 1
            visible[kind] += 1
        _add_meld(seat, MELD_CHOW, low, state)
        log_event(events, EV_CHOW, seat, discard)
        log_event(events, EV_CHOW_LOWEST, seat, low)
    else:
        taken = 2 if code == PONG else 3
        hands[seat, discard] -= taken
        visible[discard] += taken + 1
        _add_meld(seat, MELD_PONG if code == PONG else MELD_KONG, discard, state)
        log_event(events, EV_PONG if code == PONG else EV_KONG, seat, discard)
    table[TURN] += 1
    if code == KONG:
        drawn, source = _draw(seat, True, True, wall, rules, state, work, events)
        if drawn < 0:
            _over(record, fans, wall, state, rules, work, events, validate)
            return
        _start_turn(seat, drawn, source, table)
    else:
        _start_turn(seat, -1, FROM_CLAIM, table)
    _check_turn_start(seat, state, wall, rules, work, events, record, validate)


# ------------------------------------------------------------------------------------- the built-in players


@njit(cache=True, inline="always", _nrt=False)
def _builtin_action(kinds, parameters, state, rules, work):
    """The pending decision's answer by the actor's heuristic (sim.erren.players), from its own stream."""
    table, streams = state.table, work.streams
    seat, decision = table[ACTOR], table[DECISION]
    kind, seat_parameters = kinds[seat], parameters[seat]
    win_total, can_double = table[WIN_TOTAL], table[CAN_DOUBLE] != 0
    if decision == DECISION_OPENING_READY:
        declare, streams[seat] = heuristics.initial_ready(kind, seat_parameters, seat, state, rules, work, streams[seat])
        return encode(DECLARE_READY if declare else PASS, NO_TILE)
    if table[READY + seat] == 1:
        return encode(_locked_answer(seat, win_total, can_double, kinds, parameters, state, rules, work, streams), NO_TILE)
    if decision == DECISION_TURN:
        action, streams[seat] = heuristics.turn_action(
            kind, seat_parameters, seat, win_total, can_double, table[MAY_MELD] != 0, state, rules, work, streams[seat]
        )
        return action
    action, streams[seat] = heuristics.claim_action(
        kind, seat_parameters, seat, table[OFFER], win_total, can_double, table[MAY_MELD] != 0,
        state, rules, work, streams[seat],
    )
    return action


@njit(cache=True, _nrt=False)
def default_action(state):
    """The safe answer the engine gives for a seat whose player failed: win when a locked hand must, pass
    on another's tile, throw the tile just drawn (else the first tile held)."""
    hands, table = state.hands, state.table
    seat = table[ACTOR]
    if table[DECISION] == DECISION_OPENING_READY:
        return encode(PASS, NO_TILE)
    if table[READY + seat] == 1:
        return encode(WIN, NO_TILE)
    if table[DECISION] != DECISION_TURN:
        return encode(PASS, NO_TILE)
    drawn = table[DRAWN]
    if drawn >= 0 and hands[seat, drawn] > 0:
        return encode(DISCARD, drawn)
    for kind in range(N_KINDS):
        if hands[seat, kind] > 0:
            return encode(DISCARD, kind)
    return encode(DISCARD, NO_TILE)  # unreachable: a turn holds tiles


@njit(cache=True, _nrt=False)
def is_legal(action, state, rules, work):
    """Whether `action` answers the pending decision legally (one of ``legal_actions``)."""
    n = legal_actions(state, rules, work.shanten_scratch, work.legal)
    for index in range(n):
        if work.legal[index] == action:
            return True
    return False


NO_ANSWER = -1  # play_to_user's action when there is no decision to answer: it only carries the deal on


@njit(cache=True, _nrt=False)
def play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans, validate, decisions=None):
    """Answer the pending decision with `action` (NO_ANSWER: none), then play on: carry the deal on, and
    answer every decision of a built-in seat (kinds[seat] >= 0) with its heuristic, all inlined, so built-in
    seats play as fast here as anywhere. True when a user seat's decision is pending (its legal actions by
    ``legal_actions``), False once the deal is over. The engine's loops pass a `decisions` log
    (sim.core.decision_logs), which keeps the built-in seats' decisions when it has room; callers that keep
    none (the step environment) leave it out and get a copy compiled without it."""
    table = state.table
    while True:
        if action >= 0:
            _answer(action, wall, rules, state, work, events, record, fans, validate)
        _carry_on(wall, rules, state, work, events, record, fans, validate)
        if table[STEP] != STEP_DECIDE:
            return False
        if kinds[table[ACTOR]] < 0:
            return True
        action = _builtin_action(kinds, parameters, state, rules, work)
        if validate and not is_legal(action, state, rules, work):
            _note(record, ILLEGAL_ACTION)
            action = default_action(state)
        if decisions is not None and decision_logs.keeping(decisions):
            n = legal_actions(state, rules, work.shanten_scratch, work.legal)
            _keep_decision(action, win_chances.NO_REPORT, n, wall, rules, state, work, record, decisions)


@njit(cache=True, inline="always", _nrt=False)
def _keep_decision(action, chance, n, wall, rules, state, work, record, decisions):
    """Keep the pending decision in `decisions` if its seat's are kept and it offers a choice (`n` legal
    actions, in work.legal): the seat's encoding, the mask, `action` and the `chance` reported with it."""
    if n < 2:
        return
    seat = state.table[ACTOR]
    index = decision_logs.take_row(decisions, seat)
    if index >= 0:
        observation_encoding.encode(seat, True, state, work, wall, record, rules, decisions.observations[index])
        decision_logs.fill_row(decisions, index, seat, state.table[DECISION], work.legal, n, action,
                               decision_logs.reported(chance, action))


@njit(cache=True, _nrt=False)
def _play_deal(deal, dealer, seed, template, wall, rules, kinds, parameters, state, work, events, record, fans, validate,
               decisions=None):
    """Play one deal between built-in players into `record`, `fans` and `events` (and its decisions into
    `decisions`, when given and keeping); every array is reused."""
    _begin_deal(deal, dealer, seed, template, wall, rules, state, work, events, record, validate)
    if decisions is None:
        play_to_user(NO_ANSWER, wall, rules, kinds, parameters, state, work, events, record, fans, validate)
    else:
        play_to_user(NO_ANSWER, wall, rules, kinds, parameters, state, work, events, record, fans, validate, decisions)


@njit(cache=True, inline="always", _nrt=False)
def _next_dealer(dealer, deal, row, seed, session_length):
    """The dealer of deal `deal` (row `row` of the batch): drawn at a session's start, else the last winner."""
    if session_length == 0 or deal % session_length == 0 or row == 0:
        _, dealer = random_below(stream_state(seed, 0, deal), 2)
    return dealer


@njit(cache=True)
def _play_deals(seed, first_deal, session_length, template, rules, kinds, parameters, work, validate, records, fans, events, wall, log,
                decisions):
    """Play records.shape[0] deals from first_deal; the last deal's events and wall stay in `events`, `wall`,
    every deal's events go to `log` if it keeps them (sim.core.event_logs), and the chosen seats' decisions to
    `decisions` if it keeps them (sim.core.decision_logs)."""
    state = new_state()
    dealer = 0
    for row in range(records.shape[0]):
        deal = first_deal + row
        dealer = _next_dealer(dealer, deal, row, seed, session_length)
        decision_logs.begin_deal(decisions, row)
        _play_deal(deal, dealer, seed, template, wall, rules, kinds, parameters, state, work, events, records[row], fans[row], validate,
                   decisions)
        event_logs.keep_events(events, log, row)
        draw_luck.keep(work.luck, work.luck_sums, row)
        winner = records[row, R_WINNER]
        if winner >= 0 and winner != dealer:
            dealer = winner


# ------------------------------------------------------------------------------------- user players
#
# A seat whose kind is USER or NUMBA holds a user's player (sim.players.user_players, sim.players.numba_players), asked at
# each of its decisions with a choice, its legal actions in work.legal. A NUMBA seat's function is called
# inside the loop below. A USER seat is asked through Python (numba's object mode, about 1.5 us a call):
# `_UserTable` reads the same state arrays, builds the seat's observation and answers with an action code,
# or -1 for the engine's safe default (a fault of an external program). `status` tells Python where the
# loop is (deal, seat, decision), so that a failure can be named, and how a numba player failed.

USER, NUMBA = -1, -2  # the kinds of a user's seat (status slots: sim.players.seating)


@njit(cache=True, _nrt=False)
def begin_deal(deal, dealer, seed, template, wall, rules, state, work, events, record, validate):
    """Deal; ``play_to_user(NO_ANSWER, ...)`` then carries the deal on."""
    _begin_deal(deal, dealer, seed, template, wall, rules, state, work, events, record, validate)


@njit(cache=True, _nrt=False)
def builtin_action(kinds, parameters, state, rules, work):
    """The pending decision's answer by the actor's built-in heuristic."""
    return _builtin_action(kinds, parameters, state, rules, work)


@njit(inline="always")
def _asking_loop(act0, act1, functions, user_parameters, asks_python, seed, first_deal, session_length, template,
                 rules, kinds, parameters, state, work, view, validate, records, fans, events, wall, status, chances,
                 log, decisions=None):
    """`_play_deals` with user players: a NUMBA seat s is answered here by function functions[s] of act0,
    act1, through its copies in `view` (sim.players.player_view), a USER seat through Python. Every answer is checked
    against the engine's own legal actions. The chances of winning they report with their discards go to
    `chances` (sim.core.win_chances), and the chosen seats' decisions to `decisions` when given
    (sim.core.decision_logs; ev's cached loop passes none)."""
    dealer = 0
    streams = work.streams
    for row in range(records.shape[0]):
        deal = first_deal + row
        dealer = _next_dealer(dealer, deal, row, seed, session_length)
        status[STATUS_DEAL], status[STATUS_SEAT], status[STATUS_DECISION] = deal, -1, -1
        if asks_python:
            tell_deal_begins(deal, row)
        record = records[row]
        begin_deal(deal, dealer, seed, template, wall, rules, state, work, events, record, validate)
        if decisions is None:
            pending = play_to_user(NO_ANSWER, wall, rules, kinds, parameters, state, work, events, record, fans[row], validate)
        else:
            decision_logs.begin_deal(decisions, row)
            pending = play_to_user(NO_ANSWER, wall, rules, kinds, parameters, state, work, events, record, fans[row], validate,
                                   decisions)
        while pending:
            seat = state.table[ACTOR]
            status[STATUS_SEAT], status[STATUS_DECISION] = seat, state.table[DECISION]
            n = legal_actions(state, rules, work.shanten_scratch, work.legal)
            win_chances.ask(chances)
            if n == 1:  # no choice: the seat is not asked
                action = work.legal[0]
            elif kinds[seat] == NUMBA:
                observation = numba_observation(seat, n, state, rules, work, view, chances.chance)
                for index in range(view.parameters.shape[0]):
                    view.parameters[index] = user_parameters[seat, index]
                if functions[seat] == 0:
                    action, streams[seat] = act0(observation, view.parameters, streams[seat])
                else:
                    action, streams[seat] = act1(observation, view.parameters, streams[seat])
                if not offered(action, work.legal, n):
                    status[STATUS_ILLEGAL], status[STATUS_ANSWER] = ILLEGAL_ANSWER, action
                    return
            else:
                action = ask_python(n)
                if action < 0:
                    _note(record, PLAYER_FAULT)
                    record[R_FAULTED + seat] = 1
                    action = default_action(state)
                elif not offered(action, work.legal, n):
                    status[STATUS_ILLEGAL], status[STATUS_ANSWER] = ILLEGAL_ANSWER, action
                    return
            if win_chances.keep(chances, row, seat, action) != win_chances.KEPT:
                status[STATUS_ILLEGAL] = ILLEGAL_CHANCE
                return
            if decisions is None:
                pending = play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans[row], validate)
            else:
                if decision_logs.keeping(decisions):
                    _keep_decision(action, chances.chance[0], n, wall, rules, state, work, record, decisions)
                pending = play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans[row], validate,
                                       decisions)
        event_logs.keep_events(events, log, row)
        draw_luck.keep(work.luck, work.luck_sums, row)
        winner = records[row, R_WINNER]
        if winner >= 0 and winner != dealer:
            dealer = winner


@njit(cache=True, _nrt=False)
def _play_deals_asking_python(functions, user_parameters, asks_python, seed, first_deal, session_length, template, rules, kinds,
                              parameters, state, work, view, validate, records, fans, events, wall, status, chances, log,
                              decisions):
    """The loop for tables without a numba player: cached, as no function is an argument."""
    _asking_loop(no_numba_player, no_numba_player, functions, user_parameters, asks_python, seed, first_deal, session_length,
                 template, rules, kinds, parameters, state, work, view, validate, records, fans, events, wall, status,
                 chances, log, decisions)


@njit(_nrt=False)  # no reference counting: the loop allocates nothing, and it compiles in half the time
def _play_deals_asking(act0, act1, functions, user_parameters, asks_python, seed, first_deal, session_length,
                       template, rules, kinds, parameters, state, work, view, validate, records, fans, events, wall,
                       status, chances, log, decisions):
    """The loop for tables with numba players. Compiled in each process, once per set of distinct numba
    functions whatever seats they take (so a duel's rotations share it): numba makes a function part of the
    type, so this loop cannot be cached; what it calls is cached."""
    _asking_loop(act0, act1, functions, user_parameters, asks_python, seed, first_deal, session_length, template,
                 rules, kinds, parameters, state, work, view, validate, records, fans, events, wall, status, chances,
                 log, decisions)


# Loops compiled and cached ahead for tables whose numba players are built in (``sim.erren.ev`` registers
# its own), by their two functions as `_play_deals_asking` would take them: a process then loads the loop
# from the cache instead of compiling it (some ten seconds).
CACHED_ASKING_LOOPS = {}


class _UserTable(UserTable):
    """The batch being played with users' players (sim.players.seating), observed as a 二人 seat observes."""

    def observe(self, legal: list):
        return Observation(self.state, legal, self.deal, self.ruleset)


def _play_with_users(ruleset, players, seed, first, session_length, template, rules, work, validate, records, fans,
                     events, wall, log, decisions) -> win_chances.WinChanceLog:
    """Play the batch with user players among the seats; returns the chances of winning they reported."""
    state = new_state()
    status = engine_status()  # shared with the parent when this is a worker process (sim.core.worker_processes)
    chances = win_chances.new_log(records.shape[0], win_chances.discards_bound(
        max(0, template.shape[0] - DEALT_TO_DEALER - DEALT_TO_OTHER), len(players.users)))
    acts, functions, user_parameters = numba_functions(players.users)
    ASKING.table = _UserTable(ruleset, players.users, seed, state, work, chances)
    view = new_player_view(new_state(), new_work(), rules, MAX_NUMBA_PARAMETERS, copy_rules=bool(acts))
    arguments = (
        functions, user_parameters, any(user is not None and not is_numba(user) for user in players.users),
        np.uint64(seed), first, session_length, template, rules, players.kinds, players.parameters, state, work, view,
        validate, records, fans, events, wall, status, chances, log,
    )
    try:
        if acts:
            functions_played = (*acts, *[no_numba_player] * (2 - len(acts)))
            cached = CACHED_ASKING_LOOPS.get(functions_played)
            if cached is not None and decisions.rows.shape[0] == 0:  # the cached loops keep no decisions
                cached(*arguments)
            else:
                _play_deals_asking(*functions_played, *arguments, decisions)
        else:
            _play_deals_asking_python(*arguments, decisions)
    except PlayerFailure:
        raise
    except Exception as error:
        failure = numba_failure(players.users, status, error)
        if failure is None:
            raise
        raise failure from None
    finally:
        ASKING.table = None
    check_answers(players.users, status, chances)
    return chances


# ------------------------------------------------------------------------------------- public API


@dataclass(frozen=True)
class Players(SeatedPlayers):
    """Each seat's player at a 二人 table (sim.players.seating.SeatedPlayers)."""

    @classmethod
    def parse(cls, texts, seats: int = 2) -> "Players":
        """From a list of player texts, or one string `A,B` (see ``split_players``); one per seat."""
        if isinstance(texts, str):
            texts = split_players(texts)
        if len(texts) != seats:
            raise PlayerError(f"{seats} players are needed, one per seat, not {len(texts)}")
        return cls(*seat_texts(texts, heuristics, heuristics.parse_player, __name__, (USER, NUMBA)))


def kernel_rules(ruleset: Ruleset) -> tuple[Rules, np.ndarray]:
    """The rules the kernels take (``sim.core.deal_rules.Rules``, settings slots in ``sim.erren.table``) and the
    wall template (tile ids, ordered; the flowers last)."""
    settings = np.zeros(SETTINGS_FIELDS, np.int64)
    rules, template = deal_rules(ruleset, settings)
    if ruleset.flowers:
        template = np.concatenate([template, np.arange(FIRST_FLOWER, FIRST_FLOWER + N_FLOWERS, dtype=np.int8)])
    settings[MIN_FAN] = ruleset.min_fan
    settings[MAX_DOUBLES] = UNLIMITED_DOUBLES if ruleset.max_doubles is None else ruleset.max_doubles
    settings[READY_REQUIRES_CONCEALED] = int(ruleset.ready_requires_concealed)
    settings[WALL_TILES] = template.shape[0]
    settings[HAS_FLOWERS] = int(ruleset.flowers)
    settings[SCORING] = SCORING_CHALLENGE if ruleset.scoring == "challenge" else SCORING_MCR
    settings[ALL_SUITS] = int(ruleset.tile_set != "wan-honours")
    settings[TILES_IN_PLAY] = ruleset.tiles_in_play or template.shape[0]
    settings[BONUS_TILES] = ruleset.bonus_tiles
    settings[EXTRA_DRAWS] = ruleset.extra_draws
    settings[READY_ON_FIRST_DRAW] = int(ruleset.non_dealer_heavenly_ready == "first_draw")
    settings[START_EXCHANGE] = int(ruleset.start_exchange)
    settings[PICK_CHANCE] = round(ruleset.pick_chance * CHANCE_SCALE)
    settings[PUNG_OFFER_CHANCE] = round(ruleset.pung_offer_chance * CHANCE_SCALE)
    if ruleset.points is not None:
        settings[FAN_CAP], settings[PER_FAN_STEP] = ruleset.points.fan_cap, ruleset.points.per_fan_step
        settings[PER_LIMIT] = ruleset.points.per_limit
    return rules, template


@dataclass
class DealRecords:
    """One batch of deals: `columns` (name -> int32 array, RECORD_COLUMNS plus `deal`), `fans` (deals x
    N_FANS uint8 counts of each fan in the winning hand, zero for draws) and `win_chances` (for each seat
    holding a user player, ``win_chances_<seat>``: the chances of winning it reported with its discards, a
    list per deal; sim.core.win_chances)."""

    columns: dict
    fans: np.ndarray
    win_chances: dict = field(default_factory=dict)
    log: event_logs.BatchLog | None = None  # every deal's events, when asked for (sim.core.event_logs)
    luck: np.ndarray | None = None  # (deals, 2, features): each seat's luck of the draws, when asked for (sim.core.draw_luck)
    decisions: decision_logs.KeptDecisions | None = None  # the chosen seats' decisions, when asked for (sim.core.decision_logs)

    def __len__(self):
        return self.fans.shape[0]


def _play_batch(ruleset, players, seed, first, session_length, template, rules, work, validate, records, fans, events,
                wall, log, decisions):
    """Play the batch; returns the chances of winning its user players reported (None without user players)."""
    if players.has_users:
        return _play_with_users(ruleset, players, seed, first, session_length, template, rules, work, validate,
                                records, fans, events, wall, log, decisions)
    _play_deals(np.uint64(seed), first, session_length, template, rules, players.kinds, players.parameters,
                work, validate, records, fans, events, wall, log, decisions)
    return None


def new_decision_log(ruleset: Ruleset, seats, n_deals: int) -> decision_logs.DecisionLog:
    """A log with room for the decisions of `seats` in `n_deals` deals (no seats: a log that keeps none)."""
    if not seats:
        return decision_logs.no_log(observation_encoding.SIZE)
    if any(not 0 <= seat < 2 for seat in seats):
        raise ValueError(f"a 二人 table has seats 0 and 1, not {sorted(seats)}")
    tiles = kernel_rules(ruleset)[1].shape[0]
    discards = win_chances.discards_bound(max(0, tiles - DEALT_TO_DEALER - DEALT_TO_OTHER), 2)
    return decision_logs.new_log(seats, n_deals, decision_logs.decisions_bound(discards, win_chances.MELDS_PER_SEAT * 2), observation_encoding.SIZE)


def play(ruleset: Ruleset, players: Players, seed: int, n_deals: int, first_deal: int = 0,
         session_length: int = 0, validate: bool = False, keep_log: bool = False, luck: bool = False,
         decision_seats=()) -> DealRecords:
    """Play deals first_deal .. first_deal + n_deals - 1. With sessions, first_deal must start one. With
    `keep_log`, the records carry every deal's events (room for MAX_EVENTS a deal: keep batches small); with
    `luck`, each seat's luck of the draws (sim.core.draw_luck), which the ruleset's assists would bias; with
    `decision_seats`, those seats' decisions with a choice (sim.core.decision_logs: keep batches small)."""
    if session_length and first_deal % session_length:
        raise ValueError("with sessions, a batch starts at a session's first deal")
    if luck and (ruleset.start_exchange or ruleset.pick_chance or ruleset.pung_offer_chance):
        raise ValueError(f"{ruleset.id}'s assists choose the player's tiles: its draws' luck is not measurable")
    if players.host is not None:
        return players.host.call("play", ruleset, seed, n_deals, first_deal, session_length, validate, keep_log, luck,
                                 tuple(decision_seats))
    rules, template = kernel_rules(ruleset)
    work = new_work(n_deals if luck else 0)
    records = np.zeros((n_deals, len(RECORD_COLUMNS)), np.int32)
    fans = np.zeros((n_deals, N_FANS), np.uint8)
    events = np.zeros((MAX_EVENTS, EVENT_COLUMNS), np.int64)
    log = event_logs.new_batch_log(n_deals, MAX_EVENTS, EVENT_COLUMNS, np.int64) if keep_log else event_logs.no_batch_log(EVENT_COLUMNS, np.int64)
    decisions = new_decision_log(ruleset, decision_seats, n_deals)
    chances = _play_batch(ruleset, players, seed, first_deal, session_length, template, rules, work, validate, records,
                          fans, events, template.copy(), log, decisions)
    columns = {"deal": np.arange(first_deal, first_deal + n_deals, dtype=np.int64)}
    columns.update({name: records[:, index] for index, name in enumerate(RECORD_COLUMNS)})
    reporting = [seat for seat, user in enumerate(players.users) if user is not None]
    return DealRecords(columns, fans, win_chances.columns(chances, n_deals, reporting) if chances is not None else {},
                       event_logs.trimmed(log) if keep_log else None, work.luck if luck else None,
                       decision_logs.trimmed(decisions) if decision_seats else None)


def replay(ruleset: Ruleset, players: Players, seed: int, deal: int, session_length: int = 0) -> DealLog:
    """Play one deal again (with sessions, its session from the start, for the dealer) and keep its log."""
    if players.host is not None:
        return players.host.call("replay", ruleset, seed, deal, session_length)
    first = deal - deal % session_length if session_length else deal
    rules, template = kernel_rules(ruleset)
    n_deals = deal - first + 1
    records = np.zeros((n_deals, len(RECORD_COLUMNS)), np.int32)
    fans = np.zeros((n_deals, N_FANS), np.uint8)
    events = np.zeros((MAX_EVENTS, EVENT_COLUMNS), np.int64)
    wall = template.copy()
    _play_batch(ruleset, players, seed, first, session_length, template, rules, new_work(), False, records, fans, events,
                wall, event_logs.no_batch_log(EVENT_COLUMNS, np.int64), decision_logs.no_log(observation_encoding.SIZE))
    record = {"deal": deal, **{name: int(records[-1, index]) for index, name in enumerate(RECORD_COLUMNS)}}
    return DealLog(record, fans[-1], wall, events[1 : events[0, 0] + 1].copy())

"""The 二人麻将 game engine: whole deals of `erren` and `erren-classic` played inside numba
(docs/rules/erren-table.md).

One jitted call plays a batch of deals between two heuristic players (``sim.erren.players``) and writes one
record row per deal. A deal is a pure function of (seed, deal index, dealer): its dealer draw and wall come
from the stream (seed, 0, deal), each seat's decisions from (seed, 1 + seat, deal) (``sim.random_streams``),
so a deal replays identically however a run is split. With ``session_length`` > 0 the deals are played as
sessions of that many consecutive deals where the dealer rotates (docs/rules/erren-table.md#dealer): the first dealer of a
session is drawn at random, then the dealer keeps the seat after a dealer win or a draw and otherwise
passes it to the winner. Without sessions every deal draws its dealer.

The procedure, in order: shuffle; 14 tiles to the dealer, 13 to the other seat; flowers set aside and
replaced from the back, dealer first; the non-dealer may declare 天听 at once; then turns. On its turn a
player (holding 3k+2 tiles) may win, 加倍, declare a concealed or added kong (which draws a replacement
from the back, and an added kong may be robbed), or discard, optionally declaring ready; the opponent may
then win on the discard, 加倍, claim it (kong, pong, chow; none on the last discard) or pass and draw from
the front. A ready player's hand is locked: it wins, doubles, or discards what it drew. The deal ends on a
win or when the wall is empty. Every win is legal only at ``min_fan`` fans (flowers aside, before
doubling) and is scored with the context the table gives it (天胡, 地胡, 人胡, 天听, 妙手回春, 海底捞月,
杠上开花, 抢杠胡, 和绝张).

Each deal also leaves an event log (``events``: one row per event, row 0 holds the count) that ``mjsim
replay`` prints and the tests replay independently. The validating mode re-checks the table after every
action (tile conservation, counts, hand sizes, legality of every decision, every win complete and at
the minimum fan) and records the first violation per deal.
"""

from dataclasses import dataclass

import numpy as np
from numba import njit

from kernels.fan_ids import (
    EARTHLY_HAND_FLAG,
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
)
from kernels.fans.mcr import BEST_LIST_ROW, BEST_ROW, NOT_A_WIN, _score_hand
from kernels.tiles import (
    FIRST_FLOWER,
    MELD_CHOW,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PONG,
    N_FLOWERS,
    N_KINDS,
)
from kernels.win_check import is_complete
from sim.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
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
from sim.deal_rules import Rules, deal_rules
from sim.erren import players as heuristics
from sim.erren.players import shanten_of
from sim.erren.table import (
    ANY_MELD,
    CLAIMED_MELDS,
    DEALER,
    DEALER_DISCARDS,
    DEALER_KONG_FIRST,
    DOUBLES,
    FLOWERS,
    HAS_FLOWERS,
    HEAVENLY_READY,
    MAX_DOUBLES,
    MIN_FAN,
    N_MELDS,
    NON_DEALER_DRAWS,
    READY,
    READY_REQUIRES_CONCEALED,
    READY_TURN,
    SETTINGS_FIELDS,
    TURN,
    WALL_BACK,
    WALL_FRONT,
    WALL_TILES,
    is_legal_claim,
    is_legal_turn_action,
    may_declare_ready,
    new_state,
    new_work,
    pong_index,
    reset_state,
    wall_left,
)
from sim.player_text import PlayerError, split_players
from sim.random_streams import random_below, shuffle_in_place, stream_state
from sim.ruleset import Ruleset

DEALT_TO_DEALER, DEALT_TO_OTHER = 14, 13
UNLIMITED_DOUBLES = 1 << 20

# Where the tile a player holds as its 14th came from: it decides 天胡, 地胡 and 杠上开花.
FROM_DEAL, FROM_WALL, FROM_KONG, FROM_FLOWER, FROM_CLAIM = 0, 1, 2, 3, 4

# How a deal ended.
DRAW_GAME, SELF_DRAWN, DISCARD_WIN, ROBBED_KONG = 0, 1, 2, 3
WIN_TYPES = ("draw", "self_drawn", "discard", "robbed_kong")

# Record columns (int32), one row per deal; fan counts go to a separate uint8 (deals, N_FANS) array.
RECORD_COLUMNS = (
    "dealer", "winner", "win_type", "fan_total", "flowers_0", "flowers_1", "doubles_0", "doubles_1",
    "turns", "tiles_left", "initial_shanten_0", "initial_shanten_1", "ready_turn_0", "ready_turn_1",
    "melds_0", "melds_1", "violation",
)
(
    R_DEALER, R_WINNER, R_WIN_TYPE, R_FAN_TOTAL, R_FLOWERS, _R_FLOWERS_1, R_DOUBLES, _R_DOUBLES_1,
    R_TURNS, R_TILES_LEFT, R_INITIAL_SHANTEN, _R_INITIAL_SHANTEN_1, R_READY_TURN, _R_READY_TURN_1,
    R_MELDS, _R_MELDS_1, R_VIOLATION,
) = range(len(RECORD_COLUMNS))

# Event log codes: (code, seat, tile) per row. Draws show the tile drawn, flowers included (kind >= 34).
(
    EV_DEAL, EV_DRAW, EV_REPLACEMENT, EV_DISCARD, EV_READY, EV_HEAVENLY_READY, EV_CHOW, EV_PONG, EV_KONG,
    EV_CONCEALED_KONG, EV_ADDED_KONG, EV_DOUBLE, EV_WIN_SELF_DRAWN, EV_WIN_DISCARD, EV_WIN_ROBBED_KONG,
    EV_EXHAUSTED,
) = range(16)
EVENT_NAMES = (
    "deal", "draw", "replacement", "discard", "ready", "heavenly ready", "chow", "pong", "kong",
    "concealed kong", "added kong", "double", "self-drawn win", "win on discard", "robs the kong", "wall empty",
)
MAX_EVENTS = 400

# Violations the validating mode records (the first per deal).
(
    NO_VIOLATION, TILES_NOT_CONSERVED, COUNT_OUT_OF_RANGE, WRONG_HAND_SIZE, ILLEGAL_ACTION,
    WIN_NOT_COMPLETE, WIN_BELOW_MINIMUM, FLOWERS_NOT_CONSERVED, LOG_OVERFLOW,
) = range(9)
VIOLATIONS = (
    "none", "tiles not conserved", "tile count out of range", "wrong hand size", "illegal action",
    "win on an incomplete hand", "win below the minimum fan", "flowers not conserved", "event log overflow",
)


# ------------------------------------------------------------------------------------- table moves


@njit(cache=True, inline="always", _nrt=False)
def _log(events, code, seat, tile):
    count = events[0, 0] + 1
    if count < events.shape[0]:
        events[count, 0], events[count, 1], events[count, 2] = code, seat, tile
        events[0, 0] = count


@njit(cache=True, inline="always", _nrt=False)
def _draw(seat, from_back, wall, state, events):
    """Draw for `seat` (from the back for a replacement), setting flowers aside and replacing them.

    Returns (kind, where it came from), or (-1, ...) when the wall runs out before a tile is in hand."""
    hands, table = state.hands, state.table
    source = FROM_KONG if from_back else FROM_WALL
    while True:
        if wall_left(table) == 0:
            return -1, source
        if from_back:
            tile = wall[table[WALL_BACK]]
            table[WALL_BACK] -= 1
            _log(events, EV_REPLACEMENT, seat, tile)
        else:
            tile = wall[table[WALL_FRONT]]
            table[WALL_FRONT] += 1
            _log(events, EV_DRAW, seat, tile)
        if tile >= FIRST_FLOWER:
            table[FLOWERS + seat] += 1
            from_back = True
            source = FROM_FLOWER
            continue
        hands[seat, tile] += 1
        return tile, source


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
def _declare_ready(seat, heavenly, state, events):
    table = state.table
    table[READY + seat] = 1
    table[READY_TURN + seat] = table[TURN] if not heavenly or seat == table[DEALER] else 0
    table[HEAVENLY_READY + seat] = 1 if heavenly else 0
    _log(events, EV_HEAVENLY_READY if heavenly else EV_READY, seat, NO_TILE)


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
    not complete or the win is below the minimum fan. `in_hand`: the tile is already in the hand."""
    hands, melds, table = state.hands, state.melds, state.table
    hand = hands[seat]
    n_melds = table[N_MELDS + seat]
    if not in_hand:
        hand[tile] += 1
    complete = is_complete(hand, n_melds, rules.complete_bits)
    hand[tile] -= 1  # the evaluator takes the concealed tiles without the winning tile
    total = NOT_A_WIN
    if complete:
        total = _score_hand(
            hand, melds[seat], n_melds, tile, flags, table[FLOWERS + seat],
            rules.fan_values, rules.fan_priority, rules.exclusion_start, rules.exclusion_target, rules.suit_table, work.fans,
        )
    if in_hand:
        hand[tile] += 1
    if total < rules.settings[MIN_FAN]:
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


@njit(cache=True, _nrt=False)
def _ready_after_discard(seat, tile, state, rules, work):
    """Whether discarding `tile` leaves a ready hand the seat may declare."""
    hands, table = state.hands, state.table
    if hands[seat, tile] == 0 or not may_declare_ready(seat, table, rules.settings[READY_REQUIRES_CONCEALED] != 0):
        return False
    hands[seat, tile] -= 1
    ready = shanten_of(hands[seat], table[N_MELDS + seat], rules, work.shanten_scratch) == 0
    hands[seat, tile] += 1
    return ready


# ------------------------------------------------------------------------------------- one deal


@njit(cache=True, _nrt=False)
def _finish(record, fans, winner, win_type, tile, flags, state, rules, work, events, validate):
    """Write the deal's record; for a win, score the winning hand once more and keep its fans."""
    hands, melds, table = state.hands, state.melds, state.table
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
        record[R_FAN_TOTAL] = 0
        _log(events, EV_EXHAUSTED, -1, NO_TILE)
        return
    hand = hands[winner]
    n_melds = table[N_MELDS + winner]
    if win_type == SELF_DRAWN:
        hand[tile] -= 1
    fan_work = work.fans
    total = _score_hand(
        hand, melds[winner], n_melds, tile, flags, table[FLOWERS + winner],
        rules.fan_values, rules.fan_priority, rules.exclusion_start, rules.exclusion_target, rules.suit_table, fan_work,
    )
    record[R_FAN_TOTAL] = total
    if total != NOT_A_WIN:
        for index in range(1, fan_work[BEST_LIST_ROW, 0] + 1):
            fan = fan_work[BEST_LIST_ROW, index]
            fans[fan] = fan_work[BEST_ROW, fan]
    if validate:
        hand[tile] += 1
        if shanten_of(hand, n_melds, rules, work.shanten_scratch) != -1:
            _note(record, WIN_NOT_COMPLETE)
        hand[tile] -= 1
        if total < rules.settings[MIN_FAN]:
            _note(record, WIN_BELOW_MINIMUM)
    if win_type == SELF_DRAWN:
        hand[tile] += 1
    code = EV_WIN_SELF_DRAWN if win_type == SELF_DRAWN else EV_WIN_DISCARD if win_type == DISCARD_WIN else EV_WIN_ROBBED_KONG
    _log(events, code, winner, tile)


@njit(cache=True, _nrt=False)
def _open_deal(deal, dealer, seed, template, wall, rules, kinds, parameters, state, work, events, record, validate):
    """The deal and flowers: shuffle, 14 tiles to the dealer and 13 to the other seat, flowers set aside
    and replaced from the back (the dealer first), then the non-dealer's 天听. Returns the dealer's last
    tile received, the tile its first turn may win on (天胡)."""
    hands, table = state.hands, state.table
    streams = work.streams
    reset_state(state)
    events[0, 0] = 0
    for column in range(record.shape[0]):
        record[column] = 0
    for position in range(template.shape[0]):
        wall[position] = template[position]
    stream = stream_state(seed, 0, deal)
    stream, _ = random_below(stream, 2)  # the deal's own dealer draw: used when deals are independent
    shuffle_in_place(stream, wall)
    streams[0] = stream_state(seed, 1, deal)
    streams[1] = stream_state(seed, 2, deal)

    other = 1 - dealer
    table[DEALER] = dealer
    record[R_DEALER] = dealer
    last_received = -1
    for position in range(DEALT_TO_DEALER + DEALT_TO_OTHER):
        seat = dealer if position < DEALT_TO_DEALER else other
        tile = wall[position]
        _log(events, EV_DEAL, seat, tile)
        if tile >= FIRST_FLOWER:
            table[FLOWERS + seat] += 1
        else:
            hands[seat, tile] += 1
            if seat == dealer:
                last_received = tile
    table[WALL_FRONT] = DEALT_TO_DEALER + DEALT_TO_OTHER
    table[WALL_BACK] = template.shape[0] - 1
    for seat in (dealer, other):  # the dealer replaces its flowers first
        for _ in range(table[FLOWERS + seat]):
            tile, _ = _draw(seat, True, wall, state, events)
            if seat == dealer:
                last_received = tile
    for seat in range(2):
        record[R_INITIAL_SHANTEN + seat] = shanten_of(hands[seat], 0, rules, work.shanten_scratch)
    table[TURN] = 1
    if validate:
        work.hand_sizes[dealer], work.hand_sizes[other] = 14, 13
        _note(record, _check_table(state, wall, rules, work.hand_sizes, work.check_counts))

    # 天听 of the non-dealer: ready right after the deal.
    ready_allowed = may_declare_ready(other, table, rules.settings[READY_REQUIRES_CONCEALED] != 0)
    if ready_allowed and shanten_of(hands[other], 0, rules, work.shanten_scratch) == 0:
        declare, streams[other] = heuristics.initial_ready(
            kinds[other], parameters[other], other, state, rules, work, streams[other]
        )
        if declare:
            _declare_ready(other, True, state, events)
    return last_received


@njit(cache=True, _nrt=False)
def _kong(seat, code, tile, wall, rules, kinds, parameters, state, work, events, record, fans, validate):
    """A concealed or added kong by `seat`, which the opponent may rob (an added kong only), then the
    replacement draw. Returns (tile drawn, where from), the tile -1 when the deal ended."""
    hands, melds, visible, table = state.hands, state.melds, state.visible, state.table
    streams = work.streams
    if code == CONCEALED_KONG:
        hands[seat, tile] -= 4
        _add_meld(seat, MELD_CONCEALED_KONG, tile, state)
        if seat == table[DEALER] and table[DEALER_DISCARDS] == 0:
            table[DEALER_KONG_FIRST] = 1
        _log(events, EV_CONCEALED_KONG, seat, tile)
    else:
        hands[seat, tile] -= 1
        _log(events, EV_ADDED_KONG, seat, tile)
        opponent = 1 - seat
        rob_flags = ROBBING_KONG_FLAG | _ready_flags(opponent, table)
        rob_total = _win_total(opponent, tile, rob_flags, False, state, rules, work)
        if rob_total >= 0:
            can_double = _may_double(opponent, rob_total, table, rules.settings)
            if table[READY + opponent] == 1:
                response = encode(
                    _locked_answer(opponent, rob_total, can_double, kinds, parameters, state, rules, work, streams),
                    NO_TILE,
                )
            else:
                response, streams[opponent] = heuristics.claim_action(
                    kinds[opponent], parameters[opponent], opponent, tile, rob_total, can_double, False,
                    state, rules, work, streams[opponent],
                )
            if validate and not is_legal_claim(response, opponent, tile, True, can_double, False, state):
                _note(record, ILLEGAL_ACTION)
                response = encode(PASS, NO_TILE)
            if action_code(response) == WIN:
                _finish(record, fans, opponent, ROBBED_KONG, tile, rob_flags, state, rules, work, events, validate)
                return -1, FROM_KONG
            if action_code(response) == DOUBLE:
                table[DOUBLES + opponent] += 1
                _log(events, EV_DOUBLE, opponent, tile)
        melds[seat, pong_index(seat, melds, table, tile), 0] = MELD_KONG
        visible[tile] += 1
        table[ANY_MELD] = 1
    drawn, source = _draw(seat, True, wall, state, events)
    if drawn < 0:
        _finish(record, fans, -1, DRAW_GAME, 0, 0, state, rules, work, events, validate)
        return -1, source
    if validate:
        work.hand_sizes[seat], work.hand_sizes[1 - seat] = 14, 13
        _note(record, _check_table(state, wall, rules, work.hand_sizes, work.check_counts))
    return drawn, source


@njit(cache=True, inline="always", _nrt=False)
def _turn(seat, drawn, source, wall, rules, kinds, parameters, state, work, events, record, fans, validate):
    """The seat's turn: it holds 3k+2 tiles, `drawn` the tile just drawn (-1 after a claim). It may win,
    加倍, make kongs (each followed by a replacement draw), and ends by choosing its discard. A ready seat's
    hand is locked: it wins, doubles, or discards what it drew. Returns (discard, declares ready), the
    discard -1 when the deal ended during the turn."""
    hands, table = state.hands, state.table
    streams = work.streams
    win_declined = False
    while True:
        flags = 0
        win_total = -1
        if drawn >= 0 and not win_declined:
            flags = _self_draw_flags(seat, drawn, source, state)
            win_total = _win_total(seat, drawn, flags, True, state, rules, work)
        can_double = _may_double(seat, win_total, table, rules.settings)
        if table[READY + seat] == 1:
            if win_total >= 0:
                if _locked_answer(seat, win_total, can_double, kinds, parameters, state, rules, work, streams) == WIN:
                    _finish(record, fans, seat, SELF_DRAWN, drawn, flags, state, rules, work, events, validate)
                    return -1, False
                table[DOUBLES + seat] += 1
                _log(events, EV_DOUBLE, seat, drawn)
            return drawn, False
        may_kong = drawn >= 0
        action, streams[seat] = heuristics.turn_action(
            kinds[seat], parameters[seat], seat, win_total, can_double, may_kong, state, rules, work, streams[seat]
        )
        code = action_code(action)
        tile = action_tile(action)
        if validate:
            ready_after = code == DISCARD_READY and _ready_after_discard(seat, tile, state, rules, work)
            if not is_legal_turn_action(action, seat, win_total >= 0, can_double, may_kong, ready_after, state):
                _note(record, ILLEGAL_ACTION)
                code, tile = DISCARD, NO_TILE
                for kind in range(N_KINDS):
                    if hands[seat, kind] > 0:
                        tile = kind
                        break
        if code == WIN:
            _finish(record, fans, seat, SELF_DRAWN, drawn, flags, state, rules, work, events, validate)
            return -1, False
        if code == DOUBLE:
            table[DOUBLES + seat] += 1
            _log(events, EV_DOUBLE, seat, drawn)
            win_declined = True
            continue
        if code == CONCEALED_KONG or code == ADDED_KONG:
            drawn, source = _kong(seat, code, tile, wall, rules, kinds, parameters, state, work, events, record, fans, validate)
            if drawn < 0:
                return -1, False
            win_declined = False
            continue
        return tile, code == DISCARD_READY


@njit(cache=True, inline="always", _nrt=False)
def _discard(seat, tile, declare, wall, rules, state, work, events, record, validate):
    """The seat discards `tile`, declaring ready (报听, or 天听 on the dealer's first discard) if it chose to."""
    hands, visible, table = state.hands, state.visible, state.table
    hands[seat, tile] -= 1
    visible[tile] += 1
    state.discarded[seat, tile] += 1
    if table[READY + seat] == 1:
        state.after_ready[seat, tile] += 1
    _log(events, EV_DISCARD, seat, tile)
    if seat == table[DEALER]:
        table[DEALER_DISCARDS] += 1
    if declare:
        heavenly = seat == table[DEALER] and table[DEALER_DISCARDS] == 1 and table[DEALER_KONG_FIRST] == 0
        _declare_ready(seat, heavenly, state, events)
    if validate:
        work.hand_sizes[0], work.hand_sizes[1] = 13, 13
        _note(record, _check_table(state, wall, rules, work.hand_sizes, work.check_counts))


@njit(cache=True, inline="always", _nrt=False)
def _answer_discard(seat, discard, wall, rules, kinds, parameters, state, work, events, record, fans, validate):
    """The opponent's answer to the discard: win, 加倍, kong, pong, chow (none on the last discard) or pass
    and draw. Returns (the seat whose turn follows, the tile it drew or -1 after a pong or chow, where the
    tile came from); the seat is -1 when the deal ended."""
    hands, visible, table = state.hands, state.visible, state.table
    streams = work.streams
    opponent = 1 - seat
    may_claim = wall_left(table) > 0
    flags = _discard_flags(opponent, discard, seat, state)
    win_total = _win_total(opponent, discard, flags, False, state, rules, work)
    can_double = _may_double(opponent, win_total, table, rules.settings)
    if table[READY + opponent] == 1:
        response = encode(PASS, NO_TILE)
        if win_total >= 0:
            response = encode(
                _locked_answer(opponent, win_total, can_double, kinds, parameters, state, rules, work, streams), NO_TILE
            )
    else:
        response, streams[opponent] = heuristics.claim_action(
            kinds[opponent], parameters[opponent], opponent, discard, win_total, can_double, may_claim,
            state, rules, work, streams[opponent],
        )
    if validate and not is_legal_claim(response, opponent, discard, win_total >= 0, can_double, may_claim, state):
        _note(record, ILLEGAL_ACTION)
        response = encode(PASS, NO_TILE)
    code = action_code(response)
    if code == WIN:
        _finish(record, fans, opponent, DISCARD_WIN, discard, flags, state, rules, work, events, validate)
        return -1, -1, FROM_CLAIM
    if code == DOUBLE:
        table[DOUBLES + opponent] += 1
        _log(events, EV_DOUBLE, opponent, discard)
        code = PASS
    if code == PASS:
        if not may_claim:
            _finish(record, fans, -1, DRAW_GAME, 0, 0, state, rules, work, events, validate)
            return -1, -1, FROM_WALL
        table[TURN] += 1
        if opponent != table[DEALER]:
            table[NON_DEALER_DRAWS] += 1
        drawn, source = _draw(opponent, False, wall, state, events)
        if drawn < 0:
            _finish(record, fans, -1, DRAW_GAME, 0, 0, state, rules, work, events, validate)
            return -1, -1, source
        return opponent, drawn, source
    # A claim: the discard joins the claimer's meld, the claimer's own tiles become visible.
    low = action_tile(response)
    visible[discard] -= 1
    if code == CHOW:
        for kind in range(low, low + 3):
            if kind != discard:
                hands[opponent, kind] -= 1
            visible[kind] += 1
        _add_meld(opponent, MELD_CHOW, low, state)
        _log(events, EV_CHOW, opponent, low)
    else:
        taken = 2 if code == PONG else 3
        hands[opponent, discard] -= taken
        visible[discard] += taken + 1
        _add_meld(opponent, MELD_PONG if code == PONG else MELD_KONG, discard, state)
        _log(events, EV_PONG if code == PONG else EV_KONG, opponent, discard)
    table[TURN] += 1
    if code == KONG:
        drawn, source = _draw(opponent, True, wall, state, events)
        if drawn < 0:
            _finish(record, fans, -1, DRAW_GAME, 0, 0, state, rules, work, events, validate)
            return -1, -1, source
        return opponent, drawn, source
    return opponent, -1, FROM_CLAIM


@njit(cache=True, _nrt=False)
def _play_deal(deal, dealer, seed, template, wall, rules, kinds, parameters, state, work, events, record, fans, validate):
    """Play one deal into `record`, `fans` and `events`; `wall` (and every other array) is reused."""
    seat = dealer
    drawn = _open_deal(deal, dealer, seed, template, wall, rules, kinds, parameters, state, work, events, record, validate)
    source = FROM_DEAL
    while True:
        discard, declare = _turn(seat, drawn, source, wall, rules, kinds, parameters, state, work, events, record, fans, validate)
        if discard < 0:
            return
        _discard(seat, discard, declare, wall, rules, state, work, events, record, validate)
        seat, drawn, source = _answer_discard(seat, discard, wall, rules, kinds, parameters, state, work, events, record, fans, validate)
        if seat < 0:
            return
        if validate:
            work.hand_sizes[seat], work.hand_sizes[1 - seat] = 14, 13
            _note(record, _check_table(state, wall, rules, work.hand_sizes, work.check_counts))
            if events[0, 0] >= events.shape[0] - 1:
                _note(record, LOG_OVERFLOW)


@njit(cache=True)
def _play_deals(seed, first_deal, session_length, template, rules, kinds, parameters, work, validate, records, fans, events, wall):
    """Play records.shape[0] deals from first_deal; the last deal's events and wall stay in `events`, `wall`."""
    state = new_state()
    dealer = 0
    for row in range(records.shape[0]):
        deal = first_deal + row
        if session_length == 0 or deal % session_length == 0 or row == 0:
            _, dealer = random_below(stream_state(seed, 0, deal), 2)
        _play_deal(deal, dealer, seed, template, wall, rules, kinds, parameters, state, work, events, records[row], fans[row], validate)
        winner = records[row, R_WINNER]
        if winner >= 0 and winner != dealer:
            dealer = winner


# ------------------------------------------------------------------------------------- public API


@dataclass(frozen=True)
class Players:
    """Each seat's heuristic: ids, parameter vectors, and their canonical text (``greedy:claim=1,...``)."""

    kinds: np.ndarray
    parameters: np.ndarray
    names: tuple[str, ...]

    @classmethod
    def parse(cls, texts, seats: int = 2) -> "Players":
        """From a list of player texts, or one string `A,B` (see ``split_players``); one per seat."""
        if isinstance(texts, str):
            texts = split_players(texts)
        parsed = [heuristics.parse_player(text) for text in texts]
        if len(parsed) != seats:
            raise PlayerError(f"{seats} players are needed, one per seat, not {len(parsed)}")
        kinds = np.array([kind for kind, _, _ in parsed], np.int64)
        parameters = np.stack([vector for _, vector, _ in parsed])
        return cls(kinds, parameters, tuple(name for _, _, name in parsed))


def kernel_rules(ruleset: Ruleset) -> tuple[Rules, np.ndarray]:
    """The rules the kernels take (``sim.deal_rules.Rules``, settings slots in ``sim.erren.table``) and the
    wall template (tile ids, ordered; the flowers last)."""
    if ruleset.tile_set != "wan-honours":
        raise ValueError(f"the 二人 engine plays the wan-honours tile set, not {ruleset.tile_set}")
    settings = np.zeros(SETTINGS_FIELDS, np.int64)
    rules, template = deal_rules(ruleset, settings)
    if ruleset.flowers:
        template = np.concatenate([template, np.arange(FIRST_FLOWER, FIRST_FLOWER + N_FLOWERS, dtype=np.int8)])
    settings[MIN_FAN] = ruleset.min_fan
    settings[MAX_DOUBLES] = UNLIMITED_DOUBLES if ruleset.max_doubles is None else ruleset.max_doubles
    settings[READY_REQUIRES_CONCEALED] = int(ruleset.ready_requires_concealed)
    settings[WALL_TILES] = template.shape[0]
    settings[HAS_FLOWERS] = int(ruleset.flowers)
    return rules, template


@dataclass
class DealRecords:
    """One batch of deals: `columns` (name -> int32 array, RECORD_COLUMNS plus `deal`) and `fans`
    (deals x N_FANS uint8 counts of each fan in the winning hand, zero for draws)."""

    columns: dict
    fans: np.ndarray

    def __len__(self):
        return self.fans.shape[0]


def play(ruleset: Ruleset, players: Players, seed: int, n_deals: int, first_deal: int = 0,
         session_length: int = 0, validate: bool = False) -> DealRecords:
    """Play deals first_deal .. first_deal + n_deals - 1. With sessions, first_deal must start one."""
    if session_length and first_deal % session_length:
        raise ValueError("with sessions, a batch starts at a session's first deal")
    rules, template = kernel_rules(ruleset)
    records = np.zeros((n_deals, len(RECORD_COLUMNS)), np.int32)
    fans = np.zeros((n_deals, N_FANS), np.uint8)
    events = np.zeros((MAX_EVENTS, 3), np.int16)
    _play_deals(
        np.uint64(seed), first_deal, session_length, template, rules, players.kinds, players.parameters,
        new_work(), validate, records, fans, events, template.copy(),
    )
    columns = {"deal": np.arange(first_deal, first_deal + n_deals, dtype=np.int64)}
    columns.update({name: records[:, index] for index, name in enumerate(RECORD_COLUMNS)})
    return DealRecords(columns, fans)


@dataclass
class DealLog:
    """Everything about one deal: its record, fans, the shuffled wall and the event log."""

    record: dict
    fans: np.ndarray
    wall: np.ndarray
    events: np.ndarray  # (n, 3): code, seat, tile


def replay(ruleset: Ruleset, players: Players, seed: int, deal: int, session_length: int = 0) -> DealLog:
    """Play one deal again (with sessions, its session from the start, for the dealer) and keep its log."""
    first = deal - deal % session_length if session_length else deal
    rules, template = kernel_rules(ruleset)
    n_deals = deal - first + 1
    records = np.zeros((n_deals, len(RECORD_COLUMNS)), np.int32)
    fans = np.zeros((n_deals, N_FANS), np.uint8)
    events = np.zeros((MAX_EVENTS, 3), np.int16)
    wall = template.copy()
    _play_deals(
        np.uint64(seed), first, session_length, template, rules, players.kinds, players.parameters,
        new_work(), False, records, fans, events, wall,
    )
    record = {"deal": deal, **{name: int(records[-1, index]) for index, name in enumerate(RECORD_COLUMNS)}}
    return DealLog(record, fans[-1], wall, events[1 : events[0, 0] + 1].copy())

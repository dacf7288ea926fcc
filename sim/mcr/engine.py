"""The 国标 (MCR) game engine: whole four-player deals of the `mcr` ruleset played inside numba
(docs/rules/mcr-table.md).

One jitted call plays a batch of deals between four heuristic players (``sim.mcr.players``) and writes one
record row and one row of fan counts per deal. A deal is a pure function of (seed, deal index): its wall comes
from the stream (seed, 0, deal), seat s's decisions from (seed, 1 + s, deal) (``sim.core.random_streams``),
so a deal replays identically however a run is split. The deal index also places the deal in its match
(``match_deals`` deals, 16 in `mcr`): in deal d of a match the dealer is seat d % 4, the round wind is
d // (match_deals / 4) % 4 and seat s's wind is (s - dealer) % 4. The dealer passes every deal (no 连庄)
and the players keep their seats.

The procedure: shuffle the 144 tiles (136 without flowers); 14 to the dealer, 13 to each other seat, from
the front; flowers set aside and replaced from the back, seat by seat from the dealer, until none is held.
On its turn a seat (holding 3k+2 tiles) may win, make a concealed kong or add a kong to its pong (both
replaced from the back; an added kong may be robbed), or discard. On a discard the others answer in turn
order from the discarder: the first that wins takes it (截和); otherwise a pong or exposed kong beats the
chow of the next seat; otherwise the next seat draws. A flower drawn at any time is set aside and replaced
from the back. Every tile is drawn: the deal is exhausted (荒庄) when the wall is empty and the last discard
is not won; the last discard is not claimed, and no kong is made once no tile is left to replace it. A win
needs ``min_fan`` fans (flowers aside). F = fan total + flowers: a discarder (or a robbed konger) pays
base + F and each other seat base; a self-draw is paid base + F by each other seat.

A deal is a resumable state machine (section "the state machine", as in the other engines): it stops at each
decision of a seat that has a choice, which the built-in players answer inside the loop, and user players
(``sim.players.user_players``: a Python class, an ``exec:`` program or a numba function, seen through
``sim.mcr.observation``) answer through the loop of section "user players".

Each deal leaves an event log (code, seat, tile, amount; row 0 holds the count): first the shuffled wall
(one row per tile, position 0 first: the deal and the draws take it from 0 up, replacements from the last
position down), then the dealt tiles, draws and replacements (a flower kind, 34 and up, is set aside as it
comes; a flower drawn and the replacements of the deal's flowers have rows of their own, which do not move
the turn counter), discards, claims, kongs, every choice a seat let go (a pass where it had another legal action, a
declined win), the win and its payments (seat = payer, tile slot = payee). The validating mode re-checks
the table after every action (every tile in exactly one place, flowers included; counts 0..4; hand sizes;
every built-in decision one of ``legal_actions``; the win complete and at the minimum; money balanced) and
records the first violation per deal.
"""

from dataclasses import dataclass, field

import numpy as np
from numba import njit
from numba.core.errors import TypingError

from kernels.fan_ids import (
    FOURTH_TILE_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    N_FANS,
    ROBBING_KONG_FLAG,
    ROUND_WIND_SHIFT,
    SEAT_WIND_SHIFT,
    SELF_DRAWN_FLAG,
)
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
    DECISION_ROB,
    DECISION_TURN,
    DISCARD,
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
from sim.core.event_logs import DealLog
from sim.core.random_streams import shuffle_in_place, stream_state
from sim.core.worker_processes import engine_status
from sim.mcr import encoding as observation_encoding
from sim.mcr import players as players_module
from sim.mcr.botzone import protocol as botzone_protocol
from sim.mcr.observation import Observation, new_seen_work, numba_observation
from sim.mcr.table import (
    ACTOR,
    BASE,
    CLAIM,
    CLAIMER,
    DEALER,
    DECISION,
    DRAWN,
    FLOWERS,
    HAS_FLOWERS,
    MATCH_DEALS,
    MIN_FAN,
    N_MELDS,
    OFFER,
    OFFERED_BY,
    R_DEALER,
    R_DISCARDER,
    R_FAN_TOTAL,
    R_FAULTED,
    R_FLOWERS,
    R_INITIAL_SHANTEN,
    R_MELDS,
    R_MONEY,
    R_ROUND_WIND,
    R_TILES_LEFT,
    R_TURNS,
    R_VIOLATION,
    R_WIN_TYPE,
    R_WINNER,
    R_WINNER_FLOWERS,
    RECORD_COLUMNS,
    RECORD_WIDTH,
    ROUND,
    ROUND_WIND,
    SEATS,
    SETTINGS_FIELDS,
    SOURCE,
    STEP,
    TURN,
    WALL_BACK,
    WALL_FRONT,
    WALL_TILES,
    WIN_ALLOWED,
    WIN_FLAGS,
    WIN_TOTAL,
    WINDS,
    WINNER,
    chow_legal,
    is_legal,
    is_winning_shape,
    legal_actions,
    new_state,
    new_work,
    note_discard,
    pong_index,
    pong_legal,
    reset_state,
    seat_wind,
    shanten,
    wall_left,
)
from sim.mcr.win_value import NOT_A_WIN, copy_fans, score_win
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

DEALT, DEALT_TO_DEALER = 13, 14

# Where the tile a seat holds as its 3k+2nd came from: the deal (the dealer's first turn), an ordinary draw,
# a kong's replacement (杠上开花, however many flowers it went through), a flower's replacement, or a claim.
FROM_DEAL, FROM_WALL, FROM_KONG, FROM_FLOWER, FROM_CLAIM = 0, 1, 2, 3, 4

# The engine's steps (table[STEP]): what it does next when it carries a deal on.
STEP_OVER, STEP_DECIDE, STEP_TURN, STEP_ROB, STEP_CLAIM = range(5)

NOT_WON, SELF_DRAWN, DISCARD_WIN, ROBBED_KONG = -1, 1, 2, 3
WIN_TYPES = {SELF_DRAWN: "self_drawn", DISCARD_WIN: "discard", ROBBED_KONG: "robbed_kong"}

# Event log codes: (code, seat, tile, amount). A chow's row holds its lowest kind, the amount the discard
# it took; a payment's seat pays the seat in the tile slot. A tile drawn from the wall is a `draw` (from the
# front) or a `replacement` (from the back) when it stays in hand during play; a flower drawn during play is
# a `flower draw` or a `flower replacement`, and every tile drawn from the back while the deal's flowers are
# replaced (补花, before the first turn) a `deal replacement`: only the first two move the turn counter.
(
    EV_WALL, EV_DEAL, EV_DRAW, EV_REPLACEMENT, EV_DISCARD, EV_CHOW, EV_PONG, EV_KONG, EV_CONCEALED_KONG,
    EV_ADDED_KONG, EV_WIN_SELF_DRAWN, EV_WIN_DISCARD, EV_WIN_ROBBED_KONG, EV_EXHAUSTED, EV_PAY_WIN, EV_LAST_TILE,
    EV_PASS, EV_DECLINE_WIN, EV_FLOWER_DRAW, EV_FLOWER_REPLACEMENT, EV_DEAL_REPLACEMENT,
) = range(21)
EVENT_NAMES = (
    "wall tile", "deal", "draw", "replacement", "discard", "chow", "pong", "kong", "concealed kong", "added kong",
    "self-drawn win", "win on discard", "robs the kong", "wall empty", "pays for a win", "last tile of the wall",
    "passes", "declines a win", "draws a flower", "replacement is a flower", "replacement at the deal",
)
# Room for a deal's events: 144 wall rows, at most 144 dealt, drawn or replacement rows, fewer discards than
# draws and claims (about 100), at most three passes a discard, a few claims and the payments.
MAX_EVENTS = 1_024

(
    NO_VIOLATION, TILES_NOT_CONSERVED, COUNT_OUT_OF_RANGE, WRONG_HAND_SIZE, ILLEGAL_ACTION, WIN_NOT_COMPLETE,
    WIN_BELOW_MINIMUM, FLOWERS_NOT_CONSERVED, MONEY_NOT_BALANCED, LOG_OVERFLOW, PLAYER_FAULT,
) = range(11)
VIOLATIONS = (
    "none", "tiles not conserved", "tile count out of range", "wrong hand size", "illegal action",
    "win on an incomplete hand", "win below the minimum fan", "flowers not conserved", "money not balanced",
    "event log overflow", "player fault",
)


# ------------------------------------------------------------------------------------- table moves


@njit(cache=True, inline="always", _nrt=False)
def _log(events, code, seat, tile, amount):
    count = events[0, 0] + 1
    if count < events.shape[0]:
        events[count, 0], events[count, 1], events[count, 2], events[count, 3] = code, seat, tile, amount
        events[0, 0] = count


@njit(cache=True, _nrt=False)
def _draw(seat, from_back, dealing, wall, state, events):
    """Draw for `seat` (from the back for a replacement), setting flowers aside and replacing them from the
    back. Returns (kind, where it came from), or (-1, ...) when the wall runs out before a tile is in hand.
    The log names each tile so that the rows which move the turn counter (a suit or honour tile received in
    play: `draw`, `replacement`) stand apart from those which do not (a flower; a replacement while
    `dealing`, before the counter starts): a reader recounts the turns from the names alone."""
    hands, table = state.hands, state.table
    source = FROM_KONG if from_back else FROM_WALL
    while True:
        if wall_left(table) == 0:
            return -1, source
        if from_back:
            tile = wall[table[WALL_BACK]]
            table[WALL_BACK] -= 1
            code = EV_DEAL_REPLACEMENT if dealing else EV_FLOWER_REPLACEMENT if tile >= FIRST_FLOWER else EV_REPLACEMENT
        else:
            tile = wall[table[WALL_FRONT]]
            table[WALL_FRONT] += 1
            code = EV_FLOWER_DRAW if tile >= FIRST_FLOWER else EV_DRAW
        _log(events, code, seat, tile, 0)
        if wall_left(table) == 0:  # 海底: the log says which draw took the last tile
            _log(events, EV_LAST_TILE, -1, tile, 0)
        if tile >= FIRST_FLOWER:
            table[FLOWERS + seat] += 1
            from_back = True
            if source == FROM_WALL:
                source = FROM_FLOWER
            continue
        hands[seat, tile] += 1
        table[TURN] += 1
        return tile, source


@njit(cache=True, inline="always", _nrt=False)
def _add_meld(seat, code, low, state):
    melds, table = state.melds, state.table
    index = table[N_MELDS + seat]
    melds[seat, index, 0], melds[seat, index, 1] = code, low
    table[N_MELDS + seat] += 1


@njit(cache=True, inline="always", _nrt=False)
def _wind_flags(seat, table):
    return (seat_wind(seat, table) << SEAT_WIND_SHIFT) | (table[ROUND_WIND] << ROUND_WIND_SHIFT)


@njit(cache=True, inline="always", _nrt=False)
def _win_total(seat, tile, flags, in_hand, state, rules, work):
    """The fan total (flowers aside) of the seat's win on `tile` in context `flags`, or NOT_A_WIN when the
    hand is not complete; `in_hand`: the tile is already in the seat's hand (a self-draw)."""
    hands, melds, table = state.hands, state.melds, state.table
    hand = hands[seat]
    n_melds = table[N_MELDS + seat]
    if not in_hand:
        hand[tile] += 1
    complete = is_winning_shape(hand, n_melds, rules.complete_bits, work.knitted)
    hand[tile] -= 1  # the evaluator takes the concealed tiles without the winning tile
    total = NOT_A_WIN
    if complete:
        total = score_win(hand, melds[seat], n_melds, tile, flags, table[FLOWERS + seat], rules, work.fans)
    if in_hand:
        hand[tile] += 1
    return total


@njit(cache=True, inline="always", _nrt=False)
def _may_win(total, rules):
    return total >= 0 and total >= rules.settings[MIN_FAN]


# ------------------------------------------------------------------------------------- the luck of the draws
#
# Which draw's luck counts when a flower comes: the tile the draw ends with in the hand, measured against the
# tiles left that are no flower. Given everything before the draw, and even given how many flowers it meets on
# the way, that tile is uniform over those tiles (the shuffle is uniform: where the flowers lie says nothing of
# the order of the others), so each term keeps its mean of zero. Measuring the flower as a draw of its own (g
# of a flower is 0, as 二人 does) would add a term for a tile that changes nothing of the hand, noise the
# deal's result does not follow; the flowers a seat sets aside count instead in the price of its wins, as they
# do in the money (F = fans + flowers).


@njit(cache=True, inline="always", _nrt=False)
def _draw_in_play(seat, from_back, wall, rules, state, work, events):
    """``_draw`` during play (the opening's flower replacements are not measured): the luck of the tile kept is
    added to the seat's when luck is measured (sim.core.draw_luck). Inlined: a call would copy the tuples of
    arrays on every draw, for the luck that most runs do not measure."""
    table = state.table
    first, last = table[WALL_FRONT], table[WALL_BACK]
    tile, source = _draw(seat, from_back, False, wall, state, events)
    if tile >= 0 and draw_luck.measuring(work.luck):
        state.hands[seat, tile] -= 1  # measured on the hand as it was before the tile came
        _measure_draw(seat, tile, source == FROM_KONG, first, last, wall, state, rules, work)
        state.hands[seat, tile] += 1
    return tile, source


@njit(cache=True, _nrt=False)
def _measure_draw(seat, tile, kong_replacement, first, last, wall, state, rules, work):
    """Add the luck of the seat's draw of `tile` from the tiles in wall[first .. last] that are no flower: the
    drawer's, and that of every other seat whose hand is ready (sim.core.draw_luck). The shanten is that of
    four sets and a pair or seven pairs (``sim.mcr.table.shanten``), so a hand ready only for 十三幺, 全不靠 or
    组合龙 counts as not ready: any function of the hand gives terms of mean zero."""
    hands, table, tally = state.hands, state.table, work.luck_tally
    draw_luck.tally_wall(wall, first, last, tally)
    total = 0
    for kind in range(N_KINDS):
        total += tally[draw_luck.REMAINING, kind]
    before = draw_luck.distances_after_draw(hands[seat], table[N_MELDS + seat], rules.suit_table,
                                            rules.honour_table, work.shanten_scratch, tally)
    if before == draw_luck.COMPLETE + 1:
        flags = SELF_DRAWN_FLAG | _wind_flags(seat, table) | (KONG_REPLACEMENT_FLAG if kong_replacement else 0)
        _price_wins(seat, flags, True, state, rules, work)
    draw_luck.add_draw(work.luck_sums, seat, tile, total, before, tally)
    for other in range(SEATS):
        if other == seat:
            continue
        if draw_luck.distances_after_draw(hands[other], table[N_MELDS + other], rules.suit_table, rules.honour_table,
                                          work.shanten_scratch, tally) == draw_luck.COMPLETE + 1:
            draw_luck.clear_values(tally)
            _price_wins(other, _wind_flags(other, table), False, state, rules, work)
            draw_luck.add_value(work.luck_sums, other, draw_luck.DISCARD_WIN_VALUE, tile, total, tally)


@njit(cache=True, _nrt=False)
def _price_wins(seat, flags, self_drawn, state, rules, work):
    """tally[VALUE] = what the seat's win with `flags` on each kind left that completes its hand would bring it,
    as ``_win`` pays: with F = fans + its flowers, base + F from each other seat when self-drawn, base + F
    from the discarder and base from the two others on a discard; nothing below the minimum fan. 和绝张 is
    in the context when the other three copies lie on the table; 妙手回春 and 海底捞月 are not (whether a
    draw takes the wall's last tile depends on where the flowers lie)."""
    table, tally, base = state.table, work.luck_tally, rules.settings[BASE]
    for kind in range(N_KINDS):
        if tally[draw_luck.REMAINING, kind] > 0 and tally[draw_luck.DISTANCE, kind] == draw_luck.COMPLETE:
            context = flags | (FOURTH_TILE_FLAG if state.visible[kind] == 3 else 0)
            total = _win_total(seat, kind, context, False, state, rules, work)
            if _may_win(total, rules):
                price = total + table[FLOWERS + seat]
                tally[draw_luck.VALUE, kind] = (SEATS - 1) * (base + price) if self_drawn else price + (SEATS - 1) * base


# ------------------------------------------------------------------------------------- validation


@njit(cache=True, inline="always", _nrt=False)
def _note(record, violation):
    if record[R_VIOLATION] == NO_VIOLATION:
        record[R_VIOLATION] = violation


@njit(cache=True, _nrt=False)
def _check_table(state, wall, rules, actor, counts):
    """The first violation of the table's invariants, or NO_VIOLATION. `actor` holds 3k+2 tiles (-1: none),
    the winner too once it has won, every other seat 3k+1; `counts` is int64 (2, 34)."""
    hands, melds, visible, table = state.hands, state.melds, state.visible, state.table
    accounted, exposed = counts[0], counts[1]
    for kind in range(N_KINDS):
        accounted[kind] = 0
        exposed[kind] = 0
    for kind in range(N_KINDS):
        for seat in range(SEATS):
            if hands[seat, kind] < 0 or hands[seat, kind] > 4:
                return COUNT_OUT_OF_RANGE
            accounted[kind] += hands[seat, kind]
        if visible[kind] < 0 or visible[kind] > 4:
            return COUNT_OUT_OF_RANGE
        accounted[kind] += visible[kind]
    flowers = 0
    for position in range(table[WALL_FRONT], table[WALL_BACK] + 1):
        if wall[position] >= FIRST_FLOWER:
            flowers += 1
        else:
            accounted[wall[position]] += 1
    for seat in range(SEATS):
        flowers += table[FLOWERS + seat]
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
        expected = 14 if seat == actor or seat == table[WINNER] else 13
        if size != expected:
            return WRONG_HAND_SIZE
    for kind in range(N_KINDS):
        if accounted[kind] != rules.tile_set[kind] or exposed[kind] > visible[kind]:
            return TILES_NOT_CONSERVED
    if flowers != (N_FLOWERS if rules.settings[HAS_FLOWERS] != 0 else 0):
        return FLOWERS_NOT_CONSERVED
    return NO_VIOLATION


@njit(cache=True, inline="always", _nrt=False)
def _check(state, wall, rules, actor, work, record, events, validate):
    """The validating mode's checks after an action (inlined: out of that mode, a call would only copy the
    tuples of arrays)."""
    if validate:
        _note(record, _check_table(state, wall, rules, actor, work.check_counts))
        if events[0, 0] >= events.shape[0] - 1:
            _note(record, LOG_OVERFLOW)


# ------------------------------------------------------------------------------------- the end of a deal


@njit(cache=True, _nrt=False)
def _over(exhausted, wall, state, rules, work, record, events, validate):
    """The deal ends: a win was paid, or the wall ran out (荒庄: nobody pays)."""
    table = state.table
    if exhausted:
        _log(events, EV_EXHAUSTED, -1, NO_TILE, 0)
    total = 0
    for seat in range(SEATS):
        record[R_FLOWERS + seat] = table[FLOWERS + seat]
        record[R_MELDS + seat] = table[N_MELDS + seat]
        total += record[R_MONEY + seat]
    if validate and total != 0:
        _note(record, MONEY_NOT_BALANCED)
    _check(state, wall, rules, -1, work, record, events, validate)
    record[R_TURNS] = table[TURN]
    record[R_TILES_LEFT] = wall_left(table)
    table[STEP] = STEP_OVER


@njit(cache=True, _nrt=False)
def _win(winner, tile, flags, win_type, payer, wall, state, rules, work, record, fans, events, validate):
    """Score and pay the win: the winning tile joins the winner's hand (a discard leaves the table), F = fan
    total + flowers; payer -1 (self-drawn): every other seat pays base + F; otherwise the payer pays base + F
    and each other seat base. The deal is then over."""
    hands, melds, visible, table, settings = state.hands, state.melds, state.visible, state.table, rules.settings
    hand = hands[winner]
    n_melds = table[N_MELDS + winner]
    if win_type == DISCARD_WIN:
        visible[tile] -= 1
    if win_type != SELF_DRAWN:
        hand[tile] += 1
    hand[tile] -= 1
    total = score_win(hand, melds[winner], n_melds, tile, flags, table[FLOWERS + winner], rules, work.fans)
    hand[tile] += 1
    if validate:
        if not is_winning_shape(hand, n_melds, rules.complete_bits, work.knitted) or total < 0:
            _note(record, WIN_NOT_COMPLETE)
        elif total < settings[MIN_FAN]:
            _note(record, WIN_BELOW_MINIMUM)
    copy_fans(work.fans, work.fan_counts)
    for fan in range(N_FANS):
        fans[fan] = work.fan_counts[fan]
    table[WINNER] = winner
    record[R_WINNER] = winner
    record[R_DISCARDER] = payer
    record[R_WIN_TYPE] = win_type
    record[R_FAN_TOTAL] = total
    record[R_WINNER_FLOWERS] = table[FLOWERS + winner]
    code = EV_WIN_SELF_DRAWN if win_type == SELF_DRAWN else EV_WIN_DISCARD if win_type == DISCARD_WIN else EV_WIN_ROBBED_KONG
    _log(events, code, winner, tile, total)
    price = total + table[FLOWERS + winner]
    for other in range(SEATS):
        if other == winner:
            continue
        amount = settings[BASE]
        if payer < 0 or other == payer:
            amount += price
        record[R_MONEY + other] -= amount
        record[R_MONEY + winner] += amount
        _log(events, EV_PAY_WIN, other, winner, amount)
    _over(False, wall, state, rules, work, record, events, validate)


# ------------------------------------------------------------------------------------- the state machine
#
# A deal is a state machine over the control fields of `table` (sim.mcr.table: STEP, ACTOR, DECISION, ...).
# `_open_deal` deals and `_answer` carries out the pending decision's answer; `_carry_on` then takes every
# step that needs no choice and stops at the next decision (STEP_DECIDE: a seat with a choice, its legal
# actions given by sim.mcr.table.legal_actions) or at the end (STEP_OVER). A round of answers to one tile
# (a discard, a tile added to a pong) asks the other seats one by one in turn order from the offering seat
# (table[ROUND]); the first that wins ends it (截和), and otherwise the highest claim so far is kept
# (CLAIMER, CLAIM) and made once all have answered. Seats with nothing to do but pass are not asked.


@njit(cache=True, inline="always", _nrt=False)
def _ask(seat, decision, total, flags, rules, table):
    table[STEP], table[ACTOR], table[DECISION] = STEP_DECIDE, seat, decision
    table[WIN_TOTAL], table[WIN_ALLOWED], table[WIN_FLAGS] = total, int(_may_win(total, rules)), flags


@njit(cache=True, inline="always", _nrt=False)
def _start_turn(seat, drawn, source, table):
    table[STEP], table[ACTOR], table[DRAWN], table[SOURCE] = STEP_TURN, seat, drawn, source


@njit(cache=True, inline="always", _nrt=False)
def _start_round(step, seat, tile, table):
    """A round of answers to `tile`, offered by `seat`: the other seats answer in turn order."""
    table[STEP], table[OFFER], table[OFFERED_BY], table[ROUND] = step, tile, seat, 1
    table[CLAIMER], table[CLAIM] = -1, encode(PASS, NO_TILE)


@njit(cache=True, inline="always", _nrt=False)
def _replacement(seat, wall, rules, state, work, events, record, validate):
    """After a kong: the replacement from the back and the seat's turn goes on; the deal is exhausted if
    flowers take the last tiles before one stays in hand."""
    drawn, source = _draw_in_play(seat, True, wall, rules, state, work, events)
    if drawn < 0:
        _over(True, wall, state, rules, work, record, events, validate)
        return
    _check(state, wall, rules, seat, work, record, events, validate)
    _start_turn(seat, drawn, source, state.table)


@njit(cache=True, inline="always", _nrt=False)
def _self_draw_flags(seat, tile, source, state):
    table = state.table
    flags = SELF_DRAWN_FLAG | _wind_flags(seat, table)
    if source != FROM_DEAL and wall_left(table) == 0:
        flags |= LAST_WALL_TILE_FLAG  # 妙手回春
    if source == FROM_KONG:
        flags |= KONG_REPLACEMENT_FLAG  # 杠上开花
    if state.visible[tile] == 3:
        flags |= FOURTH_TILE_FLAG  # 和绝张: the other three copies lie on the table
    return flags


@njit(cache=True, inline="always", _nrt=False)
def _offer_turn(rules, state, work):
    """The actor's turn with 3k+2 tiles, DRAWN the tile just received (-1 after a claim)."""
    table = state.table
    seat, drawn = table[ACTOR], table[DRAWN]
    total, flags = NOT_A_WIN, 0
    if drawn >= 0:
        flags = _self_draw_flags(seat, drawn, table[SOURCE], state)
        total = _win_total(seat, drawn, flags, True, state, rules, work)
    _ask(seat, DECISION_TURN, total, flags, rules, table)


@njit(cache=True, inline="always", _nrt=False)
def _has_claim(seat, tile, state):
    """Whether the seat may claim the discard on offer at all (pong, kong or chow), before any win."""
    return pong_legal(seat, tile, state) or (
        chow_legal(seat, tile - 2, tile, state) or chow_legal(seat, tile - 1, tile, state)
        or chow_legal(seat, tile, tile, state)
    )


@njit(cache=True, inline="always", _nrt=False)
def _offer_rob(wall, rules, state, work, events, record, fans, validate):
    """抢杠和: the next seat that may win on the tile added to a pong is asked; the first that robs wins and
    the kong fails; if none does, the kong stands and its replacement is drawn."""
    melds, visible, table = state.melds, state.visible, state.table
    seat, tile = table[OFFERED_BY], table[OFFER]
    while table[ROUND] < SEATS:
        other = (seat + table[ROUND]) % SEATS
        table[ROUND] += 1
        flags = ROBBING_KONG_FLAG | _wind_flags(other, table)
        if visible[tile] == 3:
            flags |= FOURTH_TILE_FLAG
        total = _win_total(other, tile, flags, False, state, rules, work)
        if _may_win(total, rules):
            _ask(other, DECISION_ROB, total, flags, rules, table)
            return
    melds[seat, pong_index(seat, melds, table, tile), 0] = MELD_KONG
    visible[tile] += 1
    _replacement(seat, wall, rules, state, work, events, record, validate)


@njit(cache=True, inline="always", _nrt=False)
def _discard(seat, tile, wall, rules, state, work, events, record, validate):
    """The seat discards `tile`; the others answer it next."""
    state.hands[seat, tile] -= 1
    state.visible[tile] += 1
    note_discard(seat, tile, state)
    _log(events, EV_DISCARD, seat, tile, 0)
    _check(state, wall, rules, -1, work, record, events, validate)
    _start_round(STEP_CLAIM, seat, tile, state.table)


@njit(cache=True, inline="always", _nrt=False)
def _make_claim(claimer, claim, discard, wall, rules, state, work, events, record, validate):
    """The claimer takes the discard into a pong, an exposed kong (then its replacement) or a chow."""
    hands, visible, table = state.hands, state.visible, state.table
    code, low = action_code(claim), action_tile(claim)
    table[TURN] += 1
    if code == CHOW:
        for kind in range(low, low + 3):
            if kind != discard:
                hands[claimer, kind] -= 1
                visible[kind] += 1
        _add_meld(claimer, MELD_CHOW, low, state)
        _log(events, EV_CHOW, claimer, low, discard)
    elif code == PONG:
        hands[claimer, discard] -= 2
        visible[discard] += 2
        _add_meld(claimer, MELD_PONG, discard, state)
        _log(events, EV_PONG, claimer, discard, 0)
    else:
        hands[claimer, discard] -= 3
        visible[discard] += 3
        _add_meld(claimer, MELD_KONG, discard, state)
        _log(events, EV_KONG, claimer, discard, 0)
        _replacement(claimer, wall, rules, state, work, events, record, validate)
        return
    _check(state, wall, rules, claimer, work, record, events, validate)
    _start_turn(claimer, -1, FROM_CLAIM, table)


@njit(cache=True, inline="always", _nrt=False)
def _offer_claim(wall, rules, state, work, events, record, fans, validate):
    """The next seat that may do more than pass answers the discard on offer; once all have, the highest
    claim is made, else the next seat draws (from an empty wall: the deal is exhausted)."""
    visible, table = state.visible, state.table
    seat, discard = table[OFFERED_BY], table[OFFER]
    while table[ROUND] < SEATS:
        other = (seat + table[ROUND]) % SEATS
        table[ROUND] += 1
        flags = _wind_flags(other, table)
        if wall_left(table) == 0:
            flags |= LAST_WALL_TILE_FLAG  # 海底捞月
        if visible[discard] == 4:  # the three others and the discard itself
            flags |= FOURTH_TILE_FLAG
        total = _win_total(other, discard, flags, False, state, rules, work)
        if _may_win(total, rules) or _has_claim(other, discard, state):
            _ask(other, DECISION_CLAIM, total, flags, rules, table)
            return
    claimer = table[CLAIMER]
    if claimer >= 0:
        _make_claim(claimer, table[CLAIM], discard, wall, rules, state, work, events, record, validate)
        return
    following = (seat + 1) % SEATS
    drawn, source = _draw_in_play(following, False, wall, rules, state, work, events)
    if drawn < 0:
        _over(True, wall, state, rules, work, record, events, validate)
        return
    _check(state, wall, rules, following, work, record, events, validate)
    _start_turn(following, drawn, source, table)


@njit(cache=True, inline="always", _nrt=False)
def _carry_on(wall, rules, state, work, events, record, fans, validate):
    """Take every step that needs no choice, up to the next decision or the end of the deal."""
    table = state.table
    while True:
        step = table[STEP]
        if step == STEP_CLAIM:
            _offer_claim(wall, rules, state, work, events, record, fans, validate)
        elif step == STEP_TURN:
            _offer_turn(rules, state, work)
        elif step == STEP_ROB:
            _offer_rob(wall, rules, state, work, events, record, fans, validate)
        else:
            return


@njit(cache=True, inline="always", _nrt=False)
def _claim_rank(action):
    """Win > pong and kong > chow > pass."""
    code = action_code(action)
    if code == WIN:
        return 3
    if code == PONG or code == KONG:
        return 2
    if code == CHOW:
        return 1
    return 0


@njit(cache=True, inline="always", _nrt=False)
def _answer(action, wall, rules, state, work, events, record, fans, validate):
    """Carry out the pending decision's answer `action` (legal: the caller checks); the next step follows
    (``_carry_on``)."""
    hands, table = state.hands, state.table
    seat, decision = table[ACTOR], table[DECISION]
    code, tile = action_code(action), action_tile(action)
    if decision == DECISION_TURN:
        if code != WIN and table[WIN_ALLOWED] != 0:
            _log(events, EV_DECLINE_WIN, seat, table[DRAWN], 0)
        if code == WIN:
            _win(seat, table[DRAWN], table[WIN_FLAGS], SELF_DRAWN, -1, wall, state, rules, work, record, fans, events,
                 validate)
        elif code == CONCEALED_KONG:
            hands[seat, tile] -= 4
            _add_meld(seat, MELD_CONCEALED_KONG, tile, state)
            _log(events, EV_CONCEALED_KONG, seat, tile, 0)
            _replacement(seat, wall, rules, state, work, events, record, validate)
        elif code == ADDED_KONG:
            hands[seat, tile] -= 1
            _log(events, EV_ADDED_KONG, seat, tile, 0)
            _start_round(STEP_ROB, seat, tile, table)
        else:
            _discard(seat, tile, wall, rules, state, work, events, record, validate)
        return
    offer = table[OFFER]
    if code == WIN:  # the first in turn order that wins takes the tile (截和)
        if decision == DECISION_ROB:
            _win(seat, offer, table[WIN_FLAGS], ROBBED_KONG, table[OFFERED_BY], wall, state, rules, work, record, fans,
                 events, validate)
        else:
            _win(seat, offer, table[WIN_FLAGS], DISCARD_WIN, table[OFFERED_BY], wall, state, rules, work, record, fans,
                 events, validate)
        return
    table[STEP] = STEP_ROB if decision == DECISION_ROB else STEP_CLAIM
    if code == PASS:
        _log(events, EV_PASS, seat, offer, 0)  # asked only with a choice: passing was one
    elif _claim_rank(action) > _claim_rank(table[CLAIM]):
        table[CLAIMER], table[CLAIM] = seat, action


# ------------------------------------------------------------------------------------- the built-in players


@njit(cache=True, inline="always", _nrt=False)
def _builtin_action(kinds, parameters, state, rules, work):
    """The pending decision's answer by the actor's heuristic (sim.mcr.players), from its own stream."""
    table, streams = state.table, work.streams
    seat, decision = table[ACTOR], table[DECISION]
    if decision == DECISION_TURN:
        action, streams[seat] = players_module.turn_action(
            kinds[seat], parameters[seat], seat, table[WIN_ALLOWED] != 0, state, rules, work, streams[seat]
        )
    else:
        action, streams[seat] = players_module.claim_action(
            kinds[seat], parameters[seat], seat, table[OFFER], table[WIN_ALLOWED] != 0, decision, state, rules, work,
            streams[seat]
        )
    return action


@njit(cache=True, _nrt=False)
def default_action(state, rules, work):
    """The safe answer the engine gives for a seat whose user player failed, and the validating mode's stand-in
    for an illegal built-in decision: pass on another seat's tile, and on a turn throw the tile just drawn
    (else the first tile held)."""
    table = state.table
    seat = table[ACTOR]
    if table[DECISION] != DECISION_TURN:
        return encode(PASS, NO_TILE)
    drawn = table[DRAWN]
    if drawn >= 0 and state.hands[seat, drawn] > 0:
        return encode(DISCARD, drawn)
    for kind in range(N_KINDS):
        if state.hands[seat, kind] > 0:
            return encode(DISCARD, kind)
    return encode(PASS, NO_TILE)


NO_ANSWER = -1  # play_to_user's action when there is no decision to answer: it only carries the deal on


@njit(cache=True, _nrt=False)
def play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans, validate, decisions=None):
    """Answer the pending decision with `action` (NO_ANSWER: none), then play on, answering every decision of
    a built-in seat (kinds[seat] >= 0) with its heuristic. The state machine is compiled twice: with a
    `decisions` log (sim.core.decision_logs), which the engine's loops pass and which keeps the built-in seats'
    decisions when it has room, and without one, for the step environment and the tools that step every
    decision. True when a user seat's decision is pending, False once the deal is over."""
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
            action = default_action(state, rules, work)
        if decisions is not None and decision_logs.keeping(decisions):
            n = legal_actions(state, rules, work, work.legal)
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


# ------------------------------------------------------------------------------------- the deal


@njit(cache=True, inline="always", _nrt=False)
def match_position(deal, match_deals):
    """(dealer, round wind) of deal `deal`: the match's deals go round the dealers, a round per wind."""
    position = deal % match_deals
    return position % SEATS, (position // (match_deals // WINDS)) % WINDS


@njit(cache=True, _nrt=False)
def _lay_out(deal, seed, template, wall):
    """The deal's shuffled wall (template: every tile once, in order)."""
    for position in range(template.shape[0]):
        wall[position] = template[position]
    shuffle_in_place(stream_state(seed, 0, deal), wall)


MATCH_DEALER = -1  # _open_deal's dealer: the seat the match's position gives deal `deal` (match_position)


@njit(cache=True, _nrt=False)
def _open_deal(deal, dealer, seed, wall, rules, state, work, events, record, fans, validate):
    """Deal the shuffled `wall`: 14 tiles to the dealer and 13 to each other seat, flowers set aside and
    replaced from the back seat by seat from the dealer, then the dealer's first turn on its last tile
    received. `dealer`: MATCH_DEALER, or a seat that deals instead (the step environment's reset may name
    one); the round wind is the match's either way."""
    hands, table = state.hands, state.table
    reset_state(state)
    events[0, 0] = 0
    for column in range(record.shape[0]):
        record[column] = 0
    for fan in range(fans.shape[0]):
        fans[fan] = 0
    if draw_luck.measuring(work.luck):
        draw_luck.begin_deal(work.luck_sums)
    record[R_WINNER], record[R_DISCARDER], record[R_WIN_TYPE] = -1, -1, NOT_WON
    for seat in range(SEATS):
        work.streams[seat] = stream_state(seed, 1 + seat, deal)
    match_dealer, round_wind = match_position(deal, rules.settings[MATCH_DEALS])
    if dealer == MATCH_DEALER:
        dealer = match_dealer
    table[DEALER], table[ROUND_WIND] = dealer, round_wind
    record[R_DEALER], record[R_ROUND_WIND] = dealer, round_wind
    for position in range(wall.shape[0]):
        _log(events, EV_WALL, -1, wall[position], 0)
    position = 0
    last_received = -1
    for step in range(SEATS):
        seat = (dealer + step) % SEATS
        for _ in range(DEALT_TO_DEALER if step == 0 else DEALT):
            tile = wall[position]
            position += 1
            _log(events, EV_DEAL, seat, tile, 0)
            if tile >= FIRST_FLOWER:
                table[FLOWERS + seat] += 1
            else:
                hands[seat, tile] += 1
                if step == 0:
                    last_received = tile
    table[WALL_FRONT] = position
    table[WALL_BACK] = wall.shape[0] - 1
    for step in range(SEATS):
        seat = (dealer + step) % SEATS
        for _ in range(table[FLOWERS + seat]):  # the replacements' own flowers are replaced inside _draw
            tile, _ = _draw(seat, True, True, wall, state, events)
            if step == 0:
                last_received = tile
    for seat in range(SEATS):
        record[R_INITIAL_SHANTEN + seat] = shanten(hands[seat], 0, rules, work.shanten_scratch)
    table[TURN] = 1
    _check(state, wall, rules, dealer, work, record, events, validate)
    _start_turn(dealer, last_received, FROM_DEAL, table)


@njit(cache=True, _nrt=False)
def _play_deal(deal, seed, wall, rules, kinds, parameters, state, work, events, record, fans, validate, decisions=None):
    """Play one deal on the laid-out `wall` between built-in players into `record`, `fans` and `events`, and
    its decisions into `decisions` when it keeps them."""
    _open_deal(deal, MATCH_DEALER, seed, wall, rules, state, work, events, record, fans, validate)
    play_to_user(NO_ANSWER, wall, rules, kinds, parameters, state, work, events, record, fans, validate, decisions)


@njit(cache=True)
def _play_deals(seed, first_deal, template, rules, kinds, parameters, work, validate, records, fans, events, wall, log,
                decisions):
    """Play records.shape[0] deals from first_deal; the last deal's events and wall stay in `events`, `wall`,
    every deal's events go to `log` if it keeps them (sim.core.event_logs), the chosen seats' decisions to
    `decisions` (sim.core.decision_logs) and each seat's luck of the draws to work.luck (sim.core.draw_luck)
    when those have room."""
    state = new_state()
    for row in range(records.shape[0]):
        deal = first_deal + row
        _lay_out(deal, seed, template, wall)
        decision_logs.begin_deal(decisions, row)
        _play_deal(deal, seed, wall, rules, kinds, parameters, state, work, events, records[row], fans[row], validate,
                   decisions)
        event_logs.keep_events(events, log, row)
        draw_luck.keep(work.luck, work.luck_sums, row)


@njit(cache=True)
def play_wall(deal, seed, wall, rules, kinds, parameters, work, validate, record, fans, events):
    """Play one deal on a wall given as it is (no shuffle): the golden deals of the tests, built tile by tile.
    Its dealer and winds are deal `deal`'s, its players' streams (seed, 1 + seat, deal)."""
    state = new_state()
    _play_deal(deal, seed, wall, rules, kinds, parameters, state, work, events, record, fans, validate)
    return state


@njit(cache=True, _nrt=False)
def begin_deal(deal, dealer, seed, template, wall, rules, state, work, events, record, fans, validate):
    """Shuffle deal `deal`'s wall into `wall` and deal it, `dealer` dealing (MATCH_DEALER: the match's seat);
    ``play_to_user(NO_ANSWER, ...)`` then carries the deal on (the step environment, sim.mcr.environment)."""
    _lay_out(deal, seed, template, wall)
    _open_deal(deal, dealer, seed, wall, rules, state, work, events, record, fans, validate)


# ------------------------------------------------------------------------------------- every decision stepped

USER, NUMBA = -1, -2  # the kinds of a user's seat (sim.players.seating)


@njit(cache=True)
def _every_seat_asked():
    return np.full(SEATS, USER, np.int64), np.zeros((SEATS, players_module.N_PARAMETERS))


@njit(cache=True)
def start_wall(deal, seed, wall, rules, state, work, events, record, fans, validate):
    """Deal the given `wall` as deal `deal` (its dealer and winds) and carry on to the first decision, whichever
    seat's: for tests and tools that step every decision. True while a decision is pending."""
    _open_deal(deal, MATCH_DEALER, seed, wall, rules, state, work, events, record, fans, validate)
    kinds, parameters = _every_seat_asked()
    return play_to_user(NO_ANSWER, wall, rules, kinds, parameters, state, work, events, record, fans, validate)


@njit(cache=True)
def apply(action, wall, rules, state, work, events, record, fans, validate):
    """Carry out the pending decision's answer and carry on to the next decision, whichever seat's, or the
    end. True while a decision is pending."""
    kinds, parameters = _every_seat_asked()
    return play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans, validate)


@njit(cache=True, _nrt=False)
def builtin_action(kinds, parameters, state, rules, work):
    """The pending decision's answer by the actor's built-in heuristic."""
    return _builtin_action(kinds, parameters, state, rules, work)


# ------------------------------------------------------------------------------------- user players
#
# A seat whose kind is USER or NUMBA holds a user's player (sim.players.user_players, sim.players.numba_players),
# asked at each of its decisions with a choice, its legal actions in work.legal. A NUMBA seat's function is
# called inside the loop below. A USER seat is asked through Python (numba's object mode): `_UserTable` reads
# the same state arrays, builds the seat's observation (sim.mcr.observation) and answers with an action code,
# or -1 for the engine's safe default (a fault of an external program). `status` tells Python where the loop is
# (deal, seat, decision), so that a failure can be named, and how a numba player failed.
#
# The loop exists twice around one inlined body, as in the other families: `_play_deals_asking`, cached, for
# tables without numba players (every function is the stand-in `no_numba_player`), and `_play_deals_with_numba`,
# which takes the distinct numba functions at the table (up to four) as arguments; numba makes a function part
# of the type, so that one cannot be cached and is compiled in each process, only when a numba player sits at
# the table.


@njit(cache=True, inline="always")
def _deals_asking(act0, act1, act2, act3, functions, user_parameters, asks_python, seed, first_deal, template, rules,
                  kinds, parameters, state, work, view, validate, records, fans, events, wall, status, chances, log,
                  decisions):
    """The loop with user players: records.shape[0] deals from first_deal. A NUMBA seat s is answered by
    function functions[s] of act0 .. act3 with parameters user_parameters[s], through its copies in `view`
    (sim.players.player_view); a USER seat through Python. Every answer is checked against the engine's own
    legal actions: the loop returns early, status[STATUS_ILLEGAL] set, at an illegal one. The chances of
    winning the players report with their discards go to `chances` (sim.core.win_chances), the chosen seats'
    decisions to `decisions` (sim.core.decision_logs) and the luck of the draws to work.luck, when those have
    room."""
    streams = work.streams
    for row in range(records.shape[0]):
        deal = first_deal + row
        status[STATUS_DEAL], status[STATUS_SEAT], status[STATUS_DECISION] = deal, -1, -1
        if asks_python:
            tell_deal_begins(deal, row)
        record = records[row]
        _lay_out(deal, seed, template, wall)
        _open_deal(deal, MATCH_DEALER, seed, wall, rules, state, work, events, record, fans[row], validate)
        decision_logs.begin_deal(decisions, row)
        pending = play_to_user(NO_ANSWER, wall, rules, kinds, parameters, state, work, events, record, fans[row], validate,
                               decisions)
        while pending:
            seat = state.table[ACTOR]
            status[STATUS_SEAT], status[STATUS_DECISION] = seat, state.table[DECISION]
            count = legal_actions(state, rules, work, work.legal)
            win_chances.ask(chances)
            if count == 1:  # no choice: the seat is not asked
                action = work.legal[0]
            elif kinds[seat] == NUMBA:
                observation = numba_observation(seat, count, state, rules, work, view, chances.chance)
                shown_parameters = view.parameters
                for index in range(shown_parameters.shape[0]):
                    shown_parameters[index] = user_parameters[seat, index]
                function = functions[seat]
                if function == 0:
                    action, streams[seat] = act0(observation, shown_parameters, streams[seat])
                elif function == 1:
                    action, streams[seat] = act1(observation, shown_parameters, streams[seat])
                elif function == 2:
                    action, streams[seat] = act2(observation, shown_parameters, streams[seat])
                else:
                    action, streams[seat] = act3(observation, shown_parameters, streams[seat])
                if not offered(action, work.legal, count):
                    status[STATUS_ILLEGAL], status[STATUS_ANSWER] = ILLEGAL_ANSWER, action
                    return
            else:
                action = ask_python(count)
                if action < 0:
                    _note(record, PLAYER_FAULT)
                    record[R_FAULTED + seat] = 1
                    action = default_action(state, rules, work)
                elif not offered(action, work.legal, count):
                    status[STATUS_ILLEGAL], status[STATUS_ANSWER] = ILLEGAL_ANSWER, action
                    return
            if win_chances.keep(chances, row, seat, action) != win_chances.KEPT:
                status[STATUS_ILLEGAL] = ILLEGAL_CHANCE
                return
            if decision_logs.keeping(decisions):
                _keep_decision(action, chances.chance[0], count, wall, rules, state, work, record, decisions)
            pending = play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans[row], validate,
                                   decisions)
        event_logs.keep_events(events, log, row)
        draw_luck.keep(work.luck, work.luck_sums, row)


# Both loops run without reference counting, as the state machine does.
@njit(cache=True, _nrt=False)
def _play_deals_asking(functions, user_parameters, seed, first_deal, template, rules, kinds, parameters, state, work,
                       view, validate, records, fans, events, wall, status, chances, log, decisions):
    """The batch with Python and exec: players (no numba player): cached, compiled once."""
    _deals_asking(no_numba_player, no_numba_player, no_numba_player, no_numba_player, functions, user_parameters, True,
                  seed, first_deal, template, rules, kinds, parameters, state, work, view, validate, records, fans,
                  events, wall, status, chances, log, decisions)


@njit(_nrt=False)
def _play_deals_with_numba(act0, act1, act2, act3, functions, user_parameters, asks_python, seed, first_deal, template,
                           rules, kinds, parameters, state, work, view, validate, records, fans, events, wall, status,
                           chances, log, decisions):
    """The batch with numba players among the seats (and maybe Python ones): compiled in each process, once per
    set of distinct functions whatever seats they take (so a duel's rotations share it)."""
    _deals_asking(act0, act1, act2, act3, functions, user_parameters, asks_python, seed, first_deal, template, rules,
                  kinds, parameters, state, work, view, validate, records, fans, events, wall, status, chances, log,
                  decisions)


class _UserTable(UserTable):
    """The batch being played with users' players (sim.players.seating), observed as an MCR seat observes. Seats
    that follow the deal as it happens (a ``follow`` method: sim.mcr.botzone.seat) are told its events before
    each decision of a user's seat, read off the deal's event log (`events`, the memory the loop writes)."""

    def __init__(self, ruleset, seats, seed, state, work, chances, records, events):
        super().__init__(ruleset, seats, seed, state, work, chances, records)
        self.events = events
        self.followers = [user for user in seats if user is not None and hasattr(user, "follow")]
        self.reader = None

    def begin_deal(self, deal, row):
        self.reader = _DealEvents()
        super().begin_deal(deal, row)

    def observe(self, legal: list):
        return Observation(self.state, legal, self.deal, self.ruleset)

    def ask(self, n_legal):
        if self.followers:
            table = self.state.table
            new, untold = self.reader.read(self.events, int(table[DEALER]), int(table[ROUND_WIND]))
            for user in self.followers:
                user.follow(new, untold)
        return super().ask(n_legal)


class _DealEvents:
    """One deal's event log read as the neutral events of sim.mcr.botzone.protocol, a few rows at a time: the
    deal (every seat's 13 tiles and the flowers set aside while dealing; the dealer's 14th tile is its first
    draw), draws, flowers, discards, claims (a pong or chow with the discard that follows it), kongs and the
    win. The wall, passes, declined wins and payments are not events of the protocol."""

    _DEALING = (EV_WALL, EV_DEAL, EV_DEAL_REPLACEMENT, EV_LAST_TILE)

    def __init__(self):
        self.read_rows = 0  # rows of the log already read
        self.dealt = False
        self.claim = None  # a pong or chow row waiting for the discard that follows it
        self.untold = None  # why the deal went where the protocol cannot follow it, once it has

    def read(self, events, dealer: int, round_wind: int) -> tuple[list, str | None]:
        """The events of the rows logged since the last call, and why the deal cannot be told further in the
        protocol (None while it can): a seat that does anything but discard after its pong or chow, which
        neither table allows (a guard: the protocol's claim answer carries its discard)."""
        count = int(events[0, 0])
        rows = events[1 + self.read_rows : 1 + count].tolist()
        self.read_rows = count
        found = []
        if self.untold is not None:
            return found, self.untold
        if not self.dealt:
            ending = next((index for index, row in enumerate(rows) if row[0] not in self._DEALING), len(rows))
            found.extend(self._dealt(rows[:ending], dealer, round_wind))
            rows = rows[ending:]
            self.dealt = True
        for code, seat, tile, _ in rows:
            if self.claim is not None:
                claim_code, claimer, low = self.claim
                if code != EV_DISCARD or seat != claimer:
                    self.untold = (f"seat {claimer} made a {EVENT_NAMES[code]} after its "
                                   f"{EVENT_NAMES[claim_code]}, before discarding")
                    return found, self.untold
                self.claim = None
                if claim_code == EV_PONG:
                    found.append(botzone_protocol.Ponged(seat, tile))
                else:
                    found.append(botzone_protocol.Chowed(seat, low + 1, tile))
                continue
            if code in (EV_DRAW, EV_REPLACEMENT, EV_FLOWER_DRAW, EV_FLOWER_REPLACEMENT):
                if tile >= FIRST_FLOWER:
                    found.append(botzone_protocol.ReplacedFlower(seat, tile))
                else:
                    found.append(botzone_protocol.Drew(seat, tile))
            elif code == EV_DISCARD:
                found.append(botzone_protocol.Discarded(seat, tile))
            elif code in (EV_PONG, EV_CHOW):
                self.claim = (code, seat, tile)
            elif code == EV_KONG:
                found.append(botzone_protocol.Konged(seat))
            elif code == EV_CONCEALED_KONG:
                found.append(botzone_protocol.ConcealedKonged(seat, tile))
            elif code == EV_ADDED_KONG:
                found.append(botzone_protocol.AddedKonged(seat, tile))
            elif code in (EV_WIN_SELF_DRAWN, EV_WIN_DISCARD, EV_WIN_ROBBED_KONG):
                found.append(botzone_protocol.Won(seat))
        return found, None

    @staticmethod
    def _dealt(rows, dealer: int, round_wind: int):
        """The deal from its rows: each seat's tiles and flowers in the order received; the dealer's last
        tile of play is its 14th, which the protocol sends as its first draw."""
        tiles, flowers = [[] for _ in range(SEATS)], [[] for _ in range(SEATS)]
        for code, seat, tile, _ in rows:
            if code in (EV_DEAL, EV_DEAL_REPLACEMENT):
                (flowers if tile >= FIRST_FLOWER else tiles)[seat].append(tile)
        fourteenth = tiles[dealer].pop()
        return [botzone_protocol.Dealt(dealer, round_wind, tuple(map(tuple, tiles)), tuple(map(tuple, flowers))),
                botzone_protocol.Drew(dealer, fourteenth)]


def _play_with_users(ruleset, players, seed, first, template, rules, work, validate, records, fans, events, wall,
                     log, decisions) -> win_chances.WinChanceLog:
    """Play the batch with user players among the seats; returns the chances of winning they reported."""
    state = new_state()
    status = engine_status()  # shared with the parent when this is a worker process (sim.core.worker_processes)
    users = tuple(players.users)
    acts, functions, user_parameters = numba_functions(users)
    drawable = max(0, template.shape[0] - DEALT * SEATS - 1)
    chances = win_chances.new_log(records.shape[0], win_chances.discards_bound(drawable, SEATS))
    ASKING.table = _UserTable(ruleset, players.users, seed, state, work, chances, records, events)
    view = new_player_view(new_state(), new_seen_work(), rules, MAX_NUMBA_PARAMETERS, copy_rules=bool(acts))
    arguments = (np.uint64(seed), first, template, rules, players.kinds, players.parameters, state, work, view, validate,
                 records, fans, events, wall, status, chances, log)
    try:
        if acts:
            asks_python = any(user is not None and not is_numba(user) for user in users)
            padded = (*acts, *[no_numba_player] * (SEATS - len(acts)))
            _play_deals_with_numba(*padded, functions, user_parameters, asks_python, *arguments, decisions)
        else:
            _play_deals_asking(functions, user_parameters, *arguments, decisions)
    except PlayerFailure:
        raise
    except TypingError as error:  # raised while compiling, before any deal: a function written for another table
        texts = ", ".join(user.text for user in users if is_numba(user))
        lines = [line.strip() for line in str(error).splitlines() if line.strip() and not line.startswith("Failed in")]
        first_line = lines[0] if lines else type(error).__name__
        raise PlayerError(f"{texts}: does not compile against the MCR observation "
                          f"(sim.mcr.observation.NumbaObservation): {first_line}") from None
    except Exception as error:
        failure = numba_failure(users, status, error)
        if failure is None:
            raise
        raise failure from None
    finally:
        ASKING.table = None
    check_answers(users, status, chances)
    return chances


# ------------------------------------------------------------------------------------- public API


@dataclass(frozen=True)
class Players(SeatedPlayers):
    """Each seat's player at an MCR table (sim.players.seating.SeatedPlayers)."""

    @classmethod
    def parse(cls, texts, seats: int | None = None, lenient: bool = False, users=None) -> "Players":
        """From a list of player texts, or one string `A,B,C,D` (see ``split_players``); one per seat: built-in
        heuristics and user players (``sim.players.user_players``). `users`: user players already loaded, by
        seat (None where there is none), reused for their texts; `lenient`: keys only other families'
        heuristics take are dropped, not refused."""
        if isinstance(texts, str):
            texts = split_players(texts)
        if seats is not None and len(texts) != seats:
            raise PlayerError(f"this game takes {seats} players, not {len(texts)}")
        if len(texts) != SEATS:
            raise PlayerError(f"国标 (MCR) takes four players, not {len(texts)}")
        return cls(*seat_texts(texts, players_module, lambda text: players_module.parse_player(text, lenient), __name__,
                               (USER, NUMBA), users))


def as_players(players) -> Players:
    """Players from a string, a list of texts, a ``Players`` or another family's ``Players`` (whose canonical
    texts are read again by this family's parser, other families' keys dropped, its user players kept)."""
    if isinstance(players, Players):
        return players
    if isinstance(players, (str, list, tuple)):
        return Players.parse(players)
    return Players.parse(list(players.names), lenient=True, users=getattr(players, "users", None))


def kernel_rules(ruleset) -> tuple[Rules, np.ndarray]:
    """The rules the kernels take (``sim.core.deal_rules.Rules``, settings slots in ``sim.mcr.table``) and the
    wall template (tile ids, ordered; the flowers last)."""
    if getattr(ruleset, "family", None) != "mcr":
        raise ValueError(f"the MCR engine plays family-mcr rulesets, not {ruleset.id}")
    settings = np.zeros(SETTINGS_FIELDS, np.int64)
    rules, template = deal_rules(ruleset, settings)
    if ruleset.flowers:
        template = np.concatenate([template, np.arange(FIRST_FLOWER, FIRST_FLOWER + N_FLOWERS, dtype=np.int8)])
    switches = ruleset.family_switches
    settings[MIN_FAN] = ruleset.min_fan
    settings[HAS_FLOWERS] = int(ruleset.flowers)
    settings[BASE] = switches.base
    settings[MATCH_DEALS] = switches.match_deals
    settings[WALL_TILES] = template.shape[0]
    return rules, template


@dataclass
class McrRecords:
    """One batch of deals: `columns` (name -> int32 array, RECORD_COLUMNS plus int64 `deal`), `fans`
    (deals x N_FANS uint8: the fans of the deal's win, zero when exhausted) and `win_chances` (for each seat
    holding a user player, ``win_chances_<seat>``: the chances of winning it reported with its discards, a
    list per deal; sim.core.win_chances)."""

    columns: dict
    fans: np.ndarray
    win_chances: dict = field(default_factory=dict)
    log: event_logs.BatchLog | None = None  # every deal's events, when asked for (sim.core.event_logs)
    luck: np.ndarray | None = None  # (deals, 4, features): each seat's luck of the draws, when asked for (sim.core.draw_luck)
    decisions: decision_logs.KeptDecisions | None = None  # the chosen seats' decisions, when asked for (sim.core.decision_logs)

    def __len__(self):
        return self.fans.shape[0]


def new_decision_log(ruleset, seats, n_deals: int) -> decision_logs.DecisionLog:
    """A log with room for the decisions of `seats` in `n_deals` deals (no seats: one that keeps none).

    Its room per deal and seat is ``decision_logs.decisions_bound(discards, kongs)``, which holds at this table
    too. A seat decides with a choice on its turns, on other seats' discards and on their added kongs, nothing
    else. Each of its turns begins with a tile from the wall (a draw, or a replacement after a kong or a
    flower), a claimed discard, or the dealer's opening; `discards` (``win_chances.discards_bound``: every
    tile past the deal drawable, flowers included, four claims a seat and the opening) bounds the turns of all
    four seats together, and so this seat's turns and the discards of the three others it may answer; and it
    answers each added kong of another seat at most once, four kongs a seat at most. So a seat meets at most
    2 x discards + kongs decisions, within the bound's 2 x (discards + kongs + 1) + 5 (tests/runs/
    test_decision_logs.py counts these terms deal by deal)."""
    if not seats:
        return decision_logs.no_log(observation_encoding.SIZE)
    if any(not 0 <= seat < SEATS for seat in seats):
        raise ValueError(f"this table has seats 0 to {SEATS - 1}, not {sorted(seats)}")
    discards = win_chances.discards_bound(max(0, kernel_rules(ruleset)[1].shape[0] - DEALT * SEATS - 1), SEATS)
    per_deal = decision_logs.decisions_bound(discards, win_chances.MELDS_PER_SEAT * SEATS)
    return decision_logs.new_log(seats, n_deals, per_deal, observation_encoding.SIZE)


def _run(ruleset, seats, seed, first, n_deals, validate, keep_log=False, luck=False, decision_seats=()):
    rules, template = kernel_rules(ruleset)
    work = new_work(n_deals if luck else 0)
    records = np.zeros((n_deals, RECORD_WIDTH), np.int32)
    fans = np.zeros((n_deals, N_FANS), np.uint8)
    events = np.zeros((MAX_EVENTS, 4), np.int32)
    wall = template.copy()
    log = event_logs.new_batch_log(n_deals, MAX_EVENTS, 4, np.int32) if keep_log else event_logs.no_batch_log(4, np.int32)
    decisions = new_decision_log(ruleset, decision_seats, n_deals)
    reports = {}
    if seats.has_users:
        chances = _play_with_users(ruleset, seats, seed, first, template, rules, work, validate, records, fans, events,
                                   wall, log, decisions)
        reporting = [seat for seat, user in enumerate(seats.users) if user is not None]
        reports = win_chances.columns(chances, n_deals, reporting)
    else:
        _play_deals(np.uint64(seed), first, template, rules, seats.kinds, seats.parameters, work, validate, records,
                    fans, events, wall, log, decisions)
    measured = work.luck.copy() if luck else None
    kept = decision_logs.trimmed(decisions) if decision_seats else None
    return records, fans, events, wall, reports, (event_logs.trimmed(log) if keep_log else None), measured, kept


def _columns_of(records):
    return {name: records[..., index] for index, name in enumerate(RECORD_COLUMNS)}


# The deal's number places it in its match (dealer and winds): a run in sessions, whose dealer follows the
# winner, is not this game (sim.runs.runner.check_sessions reads this).
PLAYS_SESSIONS = False

# The engine measures the luck of the draws (sim.core.draw_luck), so duels and leagues take it out of their
# verdicts here too (sim.commands.duels reads this).
MEASURES_LUCK = True


def play(ruleset, players, seed: int, n_deals: int, first_deal: int = 0, session_length: int = 0,
         validate: bool = False, keep_log: bool = False, luck: bool = False, decision_seats=()) -> McrRecords:
    """Play deals first_deal .. first_deal + n_deals - 1. MCR's dealer and winds follow the match (the deal
    index), so `session_length` must be 0. With `keep_log`, the records carry every deal's events; with
    `luck`, each seat's luck of the draws (sim.core.draw_luck); with `decision_seats`, those seats' decisions
    (sim.core.decision_logs)."""
    if session_length:
        raise ValueError("MCR deals follow the match's dealers and winds: session_length must be 0")
    players = as_players(players)
    if players.host is not None:
        return players.host.call("play", ruleset, seed, n_deals, first_deal, session_length, validate, keep_log, luck,
                                 tuple(decision_seats))
    records, fans, _, _, reports, log, measured, kept = _run(ruleset, players, seed, first_deal, n_deals, validate,
                                                             keep_log, luck, decision_seats)
    columns = {"deal": np.arange(first_deal, first_deal + n_deals, dtype=np.int64)}
    columns.update(_columns_of(records))
    return McrRecords(columns, fans, reports, log, measured, kept)


def replay(ruleset, players, seed: int, deal: int, session_length: int = 0, validate: bool = False) -> DealLog:
    """Play one deal again and keep its log."""
    if session_length:
        raise ValueError("MCR deals follow the match's dealers and winds: session_length must be 0")
    players = as_players(players)
    if players.host is not None:
        return players.host.call("replay", ruleset, seed, deal, session_length, validate)
    records, fans, events, wall, _, _, _, _ = _run(ruleset, players, seed, deal, 1, validate)
    record = {"deal": deal, **{name: int(value) for name, value in _columns_of(records[-1]).items()}}
    rows = events[1 : events[0, 0] + 1]
    return DealLog(record, fans[-1].copy(), wall, rows[:, :3].copy(), rows[:, 3].copy())

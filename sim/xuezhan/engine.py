"""The 血战 game engine: whole deals of `liangmen-xuezhan` and `sanren-liangfang` played inside numba
(docs/rules/xuezhan-table.md).

One jitted call plays a batch of deals between 2, 3 or 4 heuristic players (``sim.xuezhan.players``) and
writes one record row per deal. As in ``sim.erren.engine``, a deal is a pure function of (seed, deal index,
dealer): the dealer draw and the wall come from the stream (seed, 0, deal), seat s's decisions from
(seed, 1 + s, deal), so a deal replays identically however a run is split. With ``session_length`` > 0
the deals are played as sessions: the first dealer of a session is drawn, then the next dealer is the
first winner; after 一炮多响 (or several robbers) as the first win, the discarder; after a deal without a
winner, the same dealer.

The procedure: shuffle the 72 筒/条 tiles; 14 to the dealer, 13 to each other seat; draws from the front,
kong replacements from the back. Where the ruleset switches them on, 换三张 and then 定缺 open the deal
(below). Non-dealers whose hands are then ready may declare 报叫 at once (where the ruleset allows it),
the dealer with its first discard. On its turn a player may win, make a concealed
or added kong (robbable by every player still in), or discard. On a discard every other player still in
may win (all who do, win: 一炮多响); otherwise one may pong or kong it (no chow); otherwise the next player
still in draws. A winner leaves with its hand closed (血战); the deal ends when at most one player has not
won, or when a player still in must draw from an empty wall: then 查叫 and 关死 settle the ready hands.
Kong money is paid at once, only among players still in. Every payment is a transfer, so each deal's money
sums to zero.

Decisions where the seeds are silent (the rules book records them too):
- after a win on a discard (or a robbed kong) play goes on with the next player still in after the last
  winner, counting from the discarder: the winner took the tile as a claimer would have;
- a kong always needs a replacement tile, so no kong of any kind once the wall is empty, whatever
  ``last_tile_kong`` says; the last discard may be ponged (the ponger then discards, and that discard may
  still be won; nothing is drawn after it);
- ``kong_units_in_win`` (003) adds the winner's net kong units so far, counted from zero up (a winner that
  paid more kong money than it received adds nothing, rather than making its win cost it);
- a player is "ready" for 查叫 and 关死 when some tile it could still receive completes its hand
  (``_best_discard_value`` > 0); a ready hand whose every wait it holds itself counts as not ready;
- 查叫 and 关死 values use the payee's kong units before any 003 refund;
- 过水胡 and 漏胡 treat robbing a kong like winning on a discard;
- the payer's 报叫 multiplier (002: 报叫后点炮) applies when a declarer deals in or is robbed, not to a
  declarer paying for another's self-draw, 查叫 or 关死;
- 换三张 (``exchange_three``): every seat chooses three tiles of one suit it holds at least three of (all
  choose from their dealt hands before any tile moves), then the direction is drawn from the deal's stream
  (seed, 0, deal) after the dealer draw and the shuffle, so the wall is the same with the switch on or off.
  Turn order runs counter-clockwise round the table, so "counter-clockwise" gives to the next seat in turn
  order, "clockwise" to the previous one and "across" two seats on: four seats draw among the three, three
  seats between clockwise and counter-clockwise, two seats just swap. If the dealer gave away its 14th
  dealt tile, the tile its 天胡 is read as won on is the last tile it received;
- 定缺 (``void_suit``), after the exchange: every seat declares a void suit, in turn order from the dealer.
  While it holds tiles of that suit it must discard one of them (any), it may never pong or kong that suit
  (non-void tiles it may claim meanwhile: 003 "定缺牌未打完，手中非定缺牌可碰杠"), and it may not win
  holding any (self-drawn, on a discard or robbing a kong; the winning tile counts): with two suits every
  win is 清一色. A hand holding void tiles is not ready for 查叫 and 关死 (it cannot win) and may not
  declare 报叫;
- both are options of 003's text ("换3张定缺"), off in both shipped rulesets; the record's
  ``initial_shanten`` is that of the hand after them.

A deal is a resumable state machine (section "the state machine", as in ``sim.erren.engine``): it stops at
each decision of a seat that has a choice, so user players (``sim.players.user_players``: a Python class, an
``exec:`` program or a numba function, seen through ``sim.xuezhan.observation``) may sit at the table among
the heuristics, and the step environment (``sim.xuezhan.environment``) can stop there.
The decisions are a seat's turn, a rob of an added kong and a claim of a discard (each seat still in that
may answer is asked in turn order, and the answers are resolved once all are in), the non-dealers' 报叫
right after the deal, and, where switched on, the three tiles of 换三张 (one decision per tile) and 定缺.

Each deal leaves an event log (code, seat, tile, amount; row 0 holds the count): first the shuffled wall (one
row per tile, position 0 first: the deal and the draws take it from 0 up, replacements from the last position
down), then draws, the draw that takes the last tile, discards, claims, kongs, 报叫 and its waits, every
choice a seat let go (a pass on a discard or a rob where it had more than one legal action, a declined
self-drawn win), wins, every payment (seat = payer, tile slot = payee, amount), each seat's 换三张 (seat =
giver, tile slot = receiver, amount = its three tiles packed, ``exchanged_tiles``) and 定缺 (tile slot = the
first kind of the void suit); docs/event-logs.md says what the log witnesses. The validating mode re-checks
the table after every action (every tile accounted for, counts 0..4, hand sizes, legality of every decision
against ``sim.xuezhan.table``, winners never act, every win complete by the shanten kernel and free of its
void suit, money balanced) and records the first violation per deal.
"""

from dataclasses import dataclass, field

import numpy as np
from numba import njit
from numba.core.errors import TypingError

from kernels.fan_ids import (
    DISCARD_AFTER_KONG_FLAG,
    EARTHLY_HAND_FLAG,
    HEAVENLY_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    N_FANS,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
    Fan,
)
from kernels.fans.xuezhan import _best_discard_value, _score_xuezhan
from kernels.shanten import _hand_shanten
from kernels.tiles import (
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PONG,
    N_KINDS,
    PIN_START,
)
from sim.core import decision_logs, draw_luck, event_logs, win_chances
from sim.core.actions import (
    ADDED_KONG,
    CONCEALED_KONG,
    DECISION_CLAIM,
    DECISION_EXCHANGE,
    DECISION_OPENING_READY,
    DECISION_ROB,
    DECISION_TURN,
    DECISION_VOID,
    DECLARE_READY,
    DISCARD,
    DISCARD_READY,
    EXCHANGE,
    KONG,
    NO_TILE,
    PASS,
    PONG,
    VOID,
    WIN,
    action_code,
    action_tile,
    encode,
)
from sim.core.deal_rules import Rules, deal_rules
from sim.core.event_logs import DealLog
from sim.core.random_streams import random_below, shuffle_in_place, stream_state
from sim.core.worker_processes import engine_status
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
from sim.xuezhan import encoding as observation_encoding
from sim.xuezhan import players as players_module
from sim.xuezhan.observation import Observation, numba_observation
from sim.xuezhan.table import (
    ACTOR,
    ADDED_OTHERS,
    ANY_MELD,
    CAP,
    CHAJIAO_VOIDS_KONG_MONEY,
    CLAIM,
    CLAIM_FLAGS,
    CLAIMER,
    COMBINE_MULTIPLY,
    CONCEALED_OTHERS,
    DEALER,
    DEALER_DISCARDS,
    DECISION,
    DECLARED,
    DECLARED_READY,
    DECLARED_VOID,
    DRAWN,
    EARTHLY_SELF_DRAWN,
    EXCHANGE_THREE,
    EXCHANGED,
    EXPOSED_DISCARDER,
    EXPOSED_OTHERS,
    FRONT_DRAWS,
    KONG_UNITS,
    KONG_UNITS_IN_WIN,
    LAST_TILE_KONG,
    MAX_SEATS,
    MISSED_VALUE,
    MISSED_WIN_LOCK,
    N_MELDS,
    N_SEATS,
    NEXT_DEALER,
    OFFER,
    OFFERED_BY,
    PASS_PONG_LOCK,
    PASS_WIN_LOCK,
    PASSED_KONG,
    PASSED_KONG_PAYS,
    PICKED,
    PONG_LOCK,
    ROUND,
    ROUND_WINNERS,
    SELF_DRAWN_UNIT,
    SETTINGS_FIELDS,
    SOURCE,
    STEP,
    SUIT_SIZE,
    TURN,
    VOID_SUIT,
    WALL_BACK,
    WALL_FRONT,
    WALL_TILES,
    WIN_ALLOWED,
    WIN_FLAGS,
    WIN_LOCK,
    WIN_ORDER,
    WIN_VALUE,
    WON,
    exposed_kong_legal,
    find_waits,
    is_complete,
    legal_actions,
    new_state,
    new_work,
    next_in_deal,
    note_discard,
    pong_index,
    pong_legal,
    reset_state,
    shanten,
    void_tiles_held,
    wall_left,
)
from sim.xuezhan.win_value import score_win

DEALT, DEALT_TO_DEALER = 13, 14

# Where the tile a player holds as its 3k+2nd came from: it decides 天胡, 地胡 and 杠上开花.
FROM_DEAL, FROM_WALL, FROM_KONG, FROM_CLAIM = 0, 1, 2, 3

# The engine's steps (table[STEP]): what it does next when it carries a deal on (see "the state machine").
(
    STEP_OVER, STEP_DECIDE, STEP_EXCHANGE, STEP_VOID, STEP_OPENING_READY, STEP_TURN, STEP_ROB, STEP_CLAIM,
) = range(8)

NOT_WON, SELF_DRAWN, DISCARD_WIN, ROBBED_KONG = -1, 1, 2, 3
WIN_TYPES = {SELF_DRAWN: "self_drawn", DISCARD_WIN: "discard", ROBBED_KONG: "robbed_kong"}

# Record layout (int32 per deal): the deal's columns, then per-seat blocks of MAX_SEATS columns.
# Deal: winners (wins in the deal), first_winner (-1: none), multi_win (some discard or robbed kong was won by
# several), draw (the wall ran out with two or more players not won: 查叫), next_dealer (docs/rules/xuezhan-table.md#dealer).
# Per seat s: win_order_s (0: not won; simultaneous winners share a number), win_type_s (-1, or 1 self-drawn,
# 2 discard, 3 robbed kong), payers_s, fan_value_s (the raw value of its win), money_s = win_money_s +
# kong_money_s + chajiao_money_s + guansi_money_s (net units this deal; win_money_s also holds what it paid for
# others' wins), declared_s (报叫), ready_s (ready at the end, not won), initial_shanten_s, melds_s,
# win_income_s (what its payers paid for its own win), and faulted_s (1 when the seat's user player faulted in
# the deal, an ``exec:`` program's refused, malformed or late answer or its death: the seat then played the
# engine's safe default for the rest of the deal; sim.players.user_players).
DEAL_COLUMNS = (
    "dealer", "n_seats", "winners", "first_winner", "multi_win", "draw", "next_dealer", "turns", "tiles_left",
    "violation",
)
SEAT_COLUMNS = (
    "win_order", "win_type", "payers", "fan_value", "money", "win_money", "kong_money", "chajiao_money",
    "guansi_money", "declared", "ready", "initial_shanten", "melds", "win_income", "faulted",
)
(
    R_DEALER, R_N_SEATS, R_WINNERS, R_FIRST_WINNER, R_MULTI_WIN, R_DRAW, R_NEXT_DEALER, R_TURNS, R_TILES_LEFT,
    R_VIOLATION,
) = range(len(DEAL_COLUMNS))
(
    R_WIN_ORDER, R_WIN_TYPE, R_PAYERS, R_FAN_VALUE, R_MONEY, R_WIN_MONEY, R_KONG_MONEY, R_CHAJIAO_MONEY,
    R_GUANSI_MONEY, R_DECLARED, R_READY, R_INITIAL_SHANTEN, R_MELDS, R_WIN_INCOME, R_FAULTED,
) = range(len(DEAL_COLUMNS), len(DEAL_COLUMNS) + MAX_SEATS * len(SEAT_COLUMNS), MAX_SEATS)
RECORD_WIDTH = len(DEAL_COLUMNS) + MAX_SEATS * len(SEAT_COLUMNS)


def record_columns(n_seats: int) -> tuple[str, ...]:
    """The public record columns of an n-seat game: the deal's, then ``name_s`` for each seat."""
    return DEAL_COLUMNS + tuple(f"{name}_{seat}" for name in SEAT_COLUMNS for seat in range(n_seats))


RECORD_COLUMNS = record_columns(MAX_SEATS)

# Event log codes: (code, seat, tile, amount). Payments: seat = payer, tile = payee.
(
    EV_DEAL, EV_DRAW, EV_REPLACEMENT, EV_DISCARD, EV_DECLARE, EV_PONG, EV_KONG, EV_CONCEALED_KONG, EV_ADDED_KONG,
    EV_WIN_SELF_DRAWN, EV_WIN_DISCARD, EV_WIN_ROBBED_KONG, EV_EXHAUSTED, EV_END, EV_PAY_WIN, EV_PAY_KONG,
    EV_PAY_CHAJIAO, EV_PAY_GUANSI, EV_REFUND_KONG, EV_EXCHANGE, EV_VOID_SUIT, EV_WALL, EV_LAST_TILE, EV_PASS,
    EV_DECLINE_WIN, EV_WAIT,
) = range(26)
EVENT_NAMES = (
    "deal", "draw", "replacement", "discard", "declares 报叫", "pong", "kong", "concealed kong", "added kong",
    "self-drawn win", "win on discard", "robs the kong", "wall empty", "deal over", "pays for a win",
    "pays kong money", "pays 查叫", "pays 关死", "returns kong money", "gives three tiles (换三张)",
    "declares a void suit (定缺)", "wall tile", "last tile of the wall", "passes", "declines a self-drawn win",
    "waits on",
)
EXCHANGE_PACKING = 100  # an EV_EXCHANGE amount is a * 100**2 + b * 100 + c for its tiles a <= b <= c
# Room for a deal's events. The most in 100,000 deals of every table with greedy or random seats is 214
# (72 of them the wall); no deal can come near 600: 72 wall rows, at most 72 dealt or drawn tiles, fewer
# discards than draws and claims, at most three passes a discard, and a few dozen claims, waits and
# payments. The validating mode reports a deal that fills it (LOG_OVERFLOW).
MAX_EVENTS = 600

(
    NO_VIOLATION, TILES_NOT_CONSERVED, COUNT_OUT_OF_RANGE, WRONG_HAND_SIZE, ILLEGAL_ACTION, WIN_NOT_COMPLETE,
    MONEY_NOT_BALANCED, LOG_OVERFLOW, WIN_HOLDS_VOID_SUIT, PLAYER_FAULT,
) = range(10)
VIOLATIONS = (
    "none", "tiles not conserved", "tile count out of range", "wrong hand size", "illegal action",
    "win on an incomplete hand", "money not balanced", "event log overflow", "win holding the void suit",
    "a user player's answer was refused: its seat played the safe default",
)

def exchanged_tiles(amount: int) -> tuple[int, int, int]:
    """The three tile kinds of an EV_EXCHANGE event's amount, ascending."""
    return (amount // EXCHANGE_PACKING**2, amount // EXCHANGE_PACKING % EXCHANGE_PACKING, amount % EXCHANGE_PACKING)


# ------------------------------------------------------------------------------------- table moves


@njit(cache=True, inline="always", _nrt=False)
def _log(events, code, seat, tile, amount):
    count = events[0, 0] + 1
    if count < events.shape[0]:
        events[count, 0], events[count, 1], events[count, 2], events[count, 3] = code, seat, tile, amount
        events[0, 0] = count


@njit(cache=True, _nrt=False)
def _draw(seat, from_back, wall, rules, state, work, events):
    """Draw for `seat` (from the back for a kong replacement); -1 when the wall is empty. When luck is
    measured, the draw adds its luck to the seat's (sim.core.draw_luck)."""
    hands, table = state.hands, state.table
    if wall_left(table) == 0:
        return -1
    if draw_luck.measuring(work.luck):
        position = table[WALL_BACK] if from_back else table[WALL_FRONT]
        _measure_draw(seat, wall[position], from_back, wall, state, rules, work)
    if from_back:
        tile = wall[table[WALL_BACK]]
        table[WALL_BACK] -= 1
        _log(events, EV_REPLACEMENT, seat, tile, 0)
    else:
        tile = wall[table[WALL_FRONT]]
        table[WALL_FRONT] += 1
        table[FRONT_DRAWS + seat] += 1
        _log(events, EV_DRAW, seat, tile, 0)
    hands[seat, tile] += 1
    table[TURN] += 1
    if wall_left(table) == 0:  # 海底: the log says which draw took the last tile
        _log(events, EV_LAST_TILE, -1, tile, 0)
    return tile


@njit(cache=True, _nrt=False)
def _measure_draw(seat, tile, from_back, wall, state, rules, work):
    """Add the luck of the seat's draw of `tile` from what is left of the wall (sim.core.draw_luck): the
    drawer's, and that of every other seat still in whose hand is ready. A ready hand's completing kinds are
    priced by their raw value: times the seats still in that pay a self-drawn win, once for a win on a discard."""
    hands, table, tally = state.hands, state.table, work.luck_tally
    n = table[N_SEATS]
    total = draw_luck.tally_wall(wall, table[WALL_FRONT], table[WALL_BACK], tally)
    before = draw_luck.distances_after_draw(hands[seat], table[N_MELDS + seat], rules.suit_table,
                                            rules.honour_table, work.shanten_scratch, tally)
    if before == draw_luck.COMPLETE + 1:
        flags = SELF_DRAWN_FLAG | (READY_FLAG if table[DECLARED + seat] == 1 else 0)
        flags |= KONG_REPLACEMENT_FLAG if from_back else 0
        _price_wins(seat, flags, n - win_order_count(table, n) - 1, state, rules, work)
    draw_luck.add_draw(work.luck_sums, seat, tile, total, before, tally)
    for other in range(n):
        if other == seat or table[WON + other] != 0:
            continue
        if draw_luck.distances_after_draw(hands[other], table[N_MELDS + other], rules.suit_table, rules.honour_table,
                                          work.shanten_scratch, tally) == draw_luck.COMPLETE + 1:
            draw_luck.clear_values(tally)
            _price_wins(other, READY_FLAG if table[DECLARED + other] == 1 else 0, 1, state, rules, work)
            draw_luck.add_value(work.luck_sums, other, draw_luck.DISCARD_WIN_VALUE, tile, total, tally)


@njit(cache=True, _nrt=False)
def _price_wins(seat, flags, payers, state, rules, work):
    """tally[VALUE] = the raw value of the seat's win with `flags` on each kind left that completes its hand,
    times `payers`."""
    tally = work.luck_tally
    for kind in range(N_KINDS):
        if tally[draw_luck.REMAINING, kind] > 0 and tally[draw_luck.DISTANCE, kind] == draw_luck.COMPLETE:
            raw = _win_value(seat, kind, flags, False, state, rules, work)
            if raw > 0:
                tally[draw_luck.VALUE, kind] = raw * payers


@njit(cache=True, inline="always", _nrt=False)
def _add_meld(seat, code, low, state):
    melds, table = state.melds, state.table
    index = table[N_MELDS + seat]
    melds[seat, index, 0], melds[seat, index, 1] = code, low
    table[N_MELDS + seat] += 1
    table[ANY_MELD] = 1


@njit(cache=True, inline="always", _nrt=False)
def _hand_changed(seat, table):
    """The seat acted (discard or claim): its 过手碰 and 过水胡 locks end, and 漏胡 ends with the changed hand."""
    table[PONG_LOCK + seat] = 0
    table[WIN_LOCK + seat] = 0
    table[MISSED_VALUE + seat] = -1


@njit(cache=True, _nrt=False)
def _declare(seat, state, rules, work, events):
    """报叫: the seat's hand (3k+1 tiles, ready) is locked and its waits become public."""
    hands, table, waits = state.hands, state.table, state.waits
    table[DECLARED + seat] = 1
    find_waits(hands[seat], table[N_MELDS + seat], rules.complete_bits, waits[seat])
    _log(events, EV_DECLARE, seat, NO_TILE, 0)
    for kind in range(N_KINDS):  # the waits made public, one row each, ascending
        if waits[seat, kind] != 0:
            _log(events, EV_WAIT, seat, kind, 0)


# ------------------------------------------------------------------------------------- wins and money


# The fan evaluator allocates its work arrays, so the functions that reach it (`score_win`, `_win`, `_end`) run with
# reference counting on, and say so (`_nrt=True`: numba would otherwise compile a callee with its caller's
# setting). Everything else, the state machine included, runs without it: a function with reference counting
# on counts every array it is passed, three named tuples of them at each call, which the hot loop cannot afford.


@njit(cache=True, inline="always", _nrt=False)
def _win_value(seat, tile, flags, in_hand, state, rules, work):
    """The raw value of the seat's win on `tile`, or -1 when the hand is not complete or (定缺) holds a tile
    of the seat's void suit."""
    hands, melds, table = state.hands, state.melds, state.table
    hand = hands[seat]
    n_melds = table[N_MELDS + seat]
    if not in_hand:
        hand[tile] += 1
    complete = is_complete(hand, n_melds, rules.complete_bits) and void_tiles_held(seat, state) == 0
    hand[tile] -= 1  # the evaluator takes the concealed tiles without the winning tile
    raw = -1
    if complete:
        raw = score_win(hand, melds[seat], n_melds, tile, flags, rules, work.fan_counts)
    if in_hand:
        hand[tile] += 1
    return raw


@njit(cache=True, inline="always", _nrt=False)
def _may_win(seat, raw, on_discard, table):
    """A complete hand may win unless 过水胡 (on a discard) or 漏胡 (not worth more than the passed win) binds."""
    if raw < 0:
        return False
    if on_discard and table[WIN_LOCK + seat] != 0:
        return False
    return not (table[MISSED_VALUE + seat] >= 0 and raw <= table[MISSED_VALUE + seat])


@njit(cache=True, inline="always", _nrt=False)
def _passed_win(seat, raw, table, settings):
    if settings[PASS_WIN_LOCK] != 0:
        table[WIN_LOCK + seat] = 1
    if settings[MISSED_WIN_LOCK] != 0 and raw > table[MISSED_VALUE + seat]:
        table[MISSED_VALUE + seat] = raw


@njit(cache=True, _nrt=False)
def _payment(raw, payee, payer, self_drawn, dealt_in, state, rules):
    """What `payer` pays for `payee`'s win (or 查叫/关死 value) of raw value `raw`, in units."""
    table, settings, values = state.table, rules.settings, rules.fan_values
    amount = raw
    if settings[COMBINE_MULTIPLY] != 0:
        if dealt_in and table[DECLARED + payer] == 1 and values[Fan.READY_HAND] > 0:
            amount *= values[Fan.READY_HAND]
    else:
        if settings[KONG_UNITS_IN_WIN] != 0:
            amount += max(0, table[KONG_UNITS + payee])
        if settings[SELF_DRAWN_UNIT] != 0 and self_drawn:
            amount += 1
    if settings[CAP] > 0:
        amount = min(amount, settings[CAP])
    return amount


@njit(cache=True, inline="always", _nrt=False)
def _transfer(payer, payee, amount, column, code, record, events):
    record[column + payer] -= amount
    record[column + payee] += amount
    _log(events, code, payer, payee, amount)


@njit(cache=True, _nrt=False)
def _kong_money(seat, code, discarder, state, rules, work, record, events):
    """Kong money at once, from the players still in (the discarder of an exposed kong pays more)."""
    table, settings = state.table, rules.settings
    kong_paid = work.kong_paid
    for payer in range(table[N_SEATS]):
        if payer == seat or table[WON + payer] != 0:
            continue
        if code == KONG:
            amount = settings[EXPOSED_DISCARDER] if payer == discarder else settings[EXPOSED_OTHERS]
        elif code == ADDED_KONG:
            amount = settings[ADDED_OTHERS]
        else:
            amount = settings[CONCEALED_OTHERS]
        if amount > 0:
            _transfer(payer, seat, amount, R_KONG_MONEY, EV_PAY_KONG, record, events)
            table[KONG_UNITS + payer] -= amount
            table[KONG_UNITS + seat] += amount
            kong_paid[payer, seat] += amount


@njit(cache=True, _nrt=True)  # the fan evaluator allocates its work arrays
def _win(winner, tile, flags, win_type, payer, order, state, rules, work, record, fans, events, validate):
    """Score and pay one win. payer -1: every other player still in pays (self-drawn); otherwise that
    player (discarder or robbed). The hand is closed with its winning tile; the caller marks it won."""
    hands, melds, table = state.hands, state.melds, state.table
    hand = hands[winner]
    n_melds = table[N_MELDS + winner]
    counts = work.fan_counts
    if win_type == SELF_DRAWN:
        hand[tile] -= 1
    raw = _score_xuezhan(
        hand, melds[winner], n_melds, tile, flags, rules.fan_values, rules.fan_priority, rules.exclusion_start, rules.exclusion_target,
        rules.settings[COMBINE_MULTIPLY], counts,
    )
    hand[tile] += 1
    if validate and _hand_shanten(hand, n_melds, rules.suit_table, rules.honour_table, 0, False, work.shanten_scratch) != -1:
        _note(record, WIN_NOT_COMPLETE)
    if validate and _holds_void_suit(winner, state):
        _note(record, WIN_HOLDS_VOID_SUIT)
    if win_type != SELF_DRAWN:
        hand[tile] -= 1  # the discard (or robbed tile) stays on the table
    for fan in range(N_FANS):
        fans[winner, fan] = counts[fan]
    record[R_WIN_ORDER + winner] = order
    record[R_WIN_TYPE + winner] = win_type
    record[R_FAN_VALUE + winner] = raw
    code = EV_WIN_SELF_DRAWN if win_type == SELF_DRAWN else EV_WIN_DISCARD if win_type == DISCARD_WIN else EV_WIN_ROBBED_KONG
    _log(events, code, winner, tile, raw)
    work.won_sizes[winner] = 14 if win_type == SELF_DRAWN else 13
    n_payers = 0
    for other in range(table[N_SEATS]):
        if other == winner or table[WON + other] != 0 or (payer >= 0 and other != payer):
            continue
        amount = _payment(raw, winner, other, win_type == SELF_DRAWN, payer >= 0, state, rules)
        _transfer(other, winner, amount, R_WIN_MONEY, EV_PAY_WIN, record, events)
        record[R_WIN_INCOME + winner] += amount
        n_payers += 1
    record[R_PAYERS + winner] = n_payers
    if record[R_WINNERS] == 0:
        record[R_FIRST_WINNER] = winner
    record[R_WINNERS] += 1


@njit(cache=True, _nrt=True)  # the fan evaluator allocates its work arrays
def _end(exhausted, state, rules, work, record, events, validate):
    """Settle the end of the deal: 查叫 (exhaustive draw with two or more still in) and 关死, then the record."""
    hands, melds, table = state.hands, state.melds, state.table
    settings = rules.settings
    n = table[N_SEATS]
    counts = work.fan_counts
    best = work.winner_flags
    still_in = 0
    for seat in range(n):
        best[seat] = 0
        if table[WON + seat] == 0:
            still_in += 1
            flags = READY_FLAG if table[DECLARED + seat] == 1 else 0
            if void_tiles_held(seat, state) == 0:  # (定缺) a hand holding its void suit cannot win: not ready
                best[seat] = _best_discard_value(
                    hands[seat], melds[seat], table[N_MELDS + seat], flags, rules.fan_values, rules.fan_priority, rules.exclusion_start, rules.exclusion_target,
                    settings[COMBINE_MULTIPLY], counts,
                )
            record[R_READY + seat] = 1 if best[seat] > 0 else 0
    if exhausted and still_in >= 2:
        record[R_DRAW] = 1
        _log(events, EV_EXHAUSTED, -1, NO_TILE, 0)
        # 查叫 first, each payment computed before any 003 refund changes the kong units.
        kong_paid = work.kong_paid
        for payer in range(n):
            if table[WON + payer] != 0 or best[payer] > 0:
                continue
            paid = False
            for payee in range(n):
                if table[WON + payee] == 0 and best[payee] > 0:
                    amount = _payment(best[payee], payee, payer, False, False, state, rules)
                    _transfer(payer, payee, amount, R_CHAJIAO_MONEY, EV_PAY_CHAJIAO, record, events)
                    paid = True
            work.chajiao_paid[payer] = 1 if paid else 0
        for payer in range(n):
            if table[WON + payer] != 0 or best[payer] > 0:
                continue
            if settings[CHAJIAO_VOIDS_KONG_MONEY] != 0 and work.chajiao_paid[payer] == 1:
                for other in range(n):
                    amount = kong_paid[other, payer]
                    if amount > 0:
                        _transfer(payer, other, amount, R_KONG_MONEY, EV_REFUND_KONG, record, events)
                        kong_paid[other, payer] = 0
    else:
        _log(events, EV_END, -1, NO_TILE, 0)
    # 关死: a declarer still in pays every other ready player still in that player's highest value.
    for payer in range(n):
        if table[WON + payer] != 0 or table[DECLARED + payer] == 0:
            continue
        for payee in range(n):
            if payee != payer and table[WON + payee] == 0 and best[payee] > 0:
                amount = _payment(best[payee], payee, payer, False, False, state, rules)
                _transfer(payer, payee, amount, R_GUANSI_MONEY, EV_PAY_GUANSI, record, events)
    total = 0
    for seat in range(n):
        record[R_DECLARED + seat] = table[DECLARED + seat]
        record[R_MELDS + seat] = table[N_MELDS + seat]
        record[R_MONEY + seat] = (
            record[R_WIN_MONEY + seat] + record[R_KONG_MONEY + seat] + record[R_CHAJIAO_MONEY + seat]
            + record[R_GUANSI_MONEY + seat]
        )
        total += record[R_MONEY + seat]
    if validate and total != 0:
        _note(record, MONEY_NOT_BALANCED)
    record[R_TURNS] = table[TURN]
    record[R_TILES_LEFT] = wall_left(table)


# ------------------------------------------------------------------------------------- validation


@njit(cache=True, _nrt=False)
def _check_table(state, wall, rules, actor, won_size, counts):
    """The first violation of the table's invariants, or NO_VIOLATION. `actor` holds 3k+2 tiles (-1: none),
    other players still in 3k+1, winners the size they won with (won_size); `counts` is int64 (2, 34)."""
    hands, melds, visible, table = state.hands, state.melds, state.visible, state.table
    tile_set = rules.tile_set
    accounted, exposed = counts[0], counts[1]
    n = table[N_SEATS]
    for kind in range(N_KINDS):
        accounted[kind] = 0
        exposed[kind] = 0
    for kind in range(N_KINDS):
        for seat in range(MAX_SEATS):
            if hands[seat, kind] < 0 or hands[seat, kind] > 4 or (seat >= n and hands[seat, kind] != 0):
                return COUNT_OUT_OF_RANGE
            accounted[kind] += hands[seat, kind]
        if visible[kind] < 0 or visible[kind] > 4:
            return COUNT_OUT_OF_RANGE
        accounted[kind] += visible[kind]
    for position in range(table[WALL_FRONT], table[WALL_BACK] + 1):
        accounted[wall[position]] += 1
    for seat in range(n):
        size = 0
        for kind in range(N_KINDS):
            size += hands[seat, kind]
        for index in range(table[N_MELDS + seat]):
            code, low = melds[seat, index, 0], melds[seat, index, 1]
            size += 3
            if code == MELD_CONCEALED_KONG:
                accounted[low] += 4
            else:
                exposed[low] += 3 if code == MELD_PONG else 4
        expected = won_size[seat] if table[WON + seat] != 0 else 14 if seat == actor else 13
        if size != expected:
            return WRONG_HAND_SIZE
    for kind in range(N_KINDS):
        if accounted[kind] != tile_set[kind] or exposed[kind] > visible[kind]:
            return TILES_NOT_CONSERVED
    return NO_VIOLATION


@njit(cache=True, inline="always", _nrt=False)
def _note(record, violation):
    if record[R_VIOLATION] == NO_VIOLATION:
        record[R_VIOLATION] = violation


@njit(cache=True, _nrt=False)
def _check(state, wall, rules, actor, work, record, events, validate):
    if validate:
        _note(record, _check_table(state, wall, rules, actor, work.won_sizes, work.check_counts))
        if events[0, 0] >= events.shape[0] - 1:
            _note(record, LOG_OVERFLOW)


@njit(cache=True, _nrt=False)
def _holds_void_suit(seat, state):
    """Whether the seat holds a tile of its void suit (定缺), concealed or in a meld: an independent check."""
    hands, melds, table = state.hands, state.melds, state.table
    start = table[DECLARED_VOID + seat]
    if start < 0:
        return False
    for kind in range(start, start + SUIT_SIZE):
        if hands[seat, kind] > 0:
            return True
    for index in range(table[N_MELDS + seat]):
        if start <= melds[seat, index, 1] < start + SUIT_SIZE:
            return True
    return False


@njit(cache=True, _nrt=False)
def _first_held(seat, state, drawn):
    """A legal stand-in discard after an illegal decision: the drawn tile, else the first tile held (under
    定缺, while the seat holds its void suit, of that suit)."""
    hands, table = state.hands, state.table
    first = 0
    if void_tiles_held(seat, state) > 0:
        first = table[DECLARED_VOID + seat]
    if drawn >= first and hands[seat, drawn] > 0 and (first == 0 or drawn < first + SUIT_SIZE):
        return drawn
    for kind in range(first, N_KINDS):
        if hands[seat, kind] > 0:
            return kind
    return -1

# ------------------------------------------------------------------------------------- the state machine
#
# A deal is a state machine over the control fields of `table` (sim.xuezhan.table: STEP, ACTOR, DECISION, ...).
# `_open_deal` deals and `_answer` carries out the pending decision's answer; `_carry_on` then takes every
# step that needs no choice and stops at the next decision (STEP_DECIDE: a seat with a choice, its legal
# actions given by sim.xuezhan.table.legal_actions) or at the end (STEP_OVER). The engine stops exactly
# where a heuristic is asked, so the built-in players consume their streams as before; a 报叫 declarer
# offered a win takes it without being asked. A round of answers to one tile (a discard, an added kong)
# asks the seats still in one by one in turn order (table[ROUND]), keeps their answers in the table and
# `work.winners`, and is resolved once all have answered: every winner wins (一炮多响), else the one pong
# or kong is made, else the next seat draws. The whole machine, with the built-in players, is inlined into
# one compiled function, `play_to_user`, as in sim.erren.engine (calls between its parts would cost about a
# quarter of the rate): the batch loop, the loop that asks user players and the step environment all play
# through it, so it is compiled once, and it runs without reference counting.


@njit(cache=True, inline="always", _nrt=False)
def _ask(seat, decision, raw, win_allowed, flags, table):
    table[STEP], table[ACTOR], table[DECISION] = STEP_DECIDE, seat, decision
    table[WIN_VALUE], table[WIN_ALLOWED], table[WIN_FLAGS] = raw, int(win_allowed), flags


@njit(cache=True, inline="always", _nrt=False)
def _start_turn(seat, drawn, source, table):
    table[STEP], table[ACTOR], table[DRAWN], table[SOURCE] = STEP_TURN, seat, drawn, source


@njit(cache=True, inline="always", _nrt=False)
def _start_round(step, seat, tile, table):
    """A round of answers to `tile`, offered by `seat`: the others still in answer in turn order."""
    table[STEP], table[OFFER], table[OFFERED_BY], table[ROUND], table[ROUND_WINNERS] = step, tile, seat, 1, 0
    table[CLAIMER], table[CLAIM] = -1, PASS


@njit(cache=True, inline="always", _nrt=False)
def _round_win(seat, flags, table, work):
    """The seat wins the tile on offer; the round goes on (一炮多响)."""
    index = table[ROUND_WINNERS]
    work.winners[index], work.winner_flags[index] = seat, flags
    table[ROUND_WINNERS] = index + 1


@njit(cache=True, inline="always", _nrt=False)
def _over(exhausted, state, rules, work, record, events, validate):
    """The deal ends: 查叫 and 关死 (``_end``) and the next deal's dealer."""
    table = state.table
    _end(exhausted, state, rules, work, record, events, validate)
    record[R_NEXT_DEALER] = table[NEXT_DEALER] if table[NEXT_DEALER] >= 0 else table[DEALER]
    table[STEP] = STEP_OVER


@njit(cache=True, inline="always", _nrt=False)
def _draw_next(seat, wall, rules, state, work, events, record, validate):
    """The seat draws from the front and its turn begins; from an empty wall the deal ends (查叫)."""
    drawn = _draw(seat, False, wall, rules, state, work, events)
    if drawn < 0:
        _over(True, state, rules, work, record, events, validate)
        return
    _check(state, wall, rules, seat, work, record, events, validate)
    _start_turn(seat, drawn, FROM_WALL, state.table)


@njit(cache=True, inline="always", _nrt=False)
def _after_wins(last_winner, wall, rules, state, work, events, record, validate):
    """After a win (or several at once): the deal ends when at most one seat is still in, else the next
    seat still in after the last winner draws."""
    table = state.table
    _check(state, wall, rules, -1, work, record, events, validate)
    n = table[N_SEATS]
    if n - win_order_count(table, n) <= 1:
        _over(False, state, rules, work, record, events, validate)
        return
    _draw_next(next_in_deal(last_winner, table), wall, rules, state, work, events, record, validate)


@njit(cache=True, inline="always", _nrt=False)
def _settle_winners(n_winners, tile, win_type, payer, state, rules, work, record, fans, events, validate):
    """Score and pay every winner of one discard or robbed kong (``work.winners``, their flags in
    ``work.winner_flags``), who share one win order (一炮多响), then mark them won. The first win of the deal
    decides the next dealer: its winner, or the payer when it had several winners
    (docs/rules/xuezhan-table.md#dealer)."""
    winners, flags, table = work.winners, work.winner_flags, state.table
    order = table[WIN_ORDER] + 1
    table[WIN_ORDER] = order
    for index in range(n_winners):
        winner = winners[index]
        _win(winner, tile, flags[index], win_type, payer, order, state, rules, work, record, fans, events, validate)
    for index in range(n_winners):
        table[WON + winners[index]] = order
    if n_winners > 1:
        record[R_MULTI_WIN] = 1
    if table[NEXT_DEALER] < 0:
        table[NEXT_DEALER] = winners[0] if n_winners == 1 else payer


@njit(cache=True, inline="always", _nrt=False)
def _kong_replacement(seat, wall, rules, state, work, events, record, validate):
    """After a kong (which always has a tile left to replace it): 漏胡 ends with the changed hand, the
    replacement comes from the back and the seat's turn goes on."""
    state.table[MISSED_VALUE + seat] = -1
    drawn = _draw(seat, True, wall, rules, state, work, events)
    _check(state, wall, rules, seat, work, record, events, validate)
    _start_turn(seat, drawn, FROM_KONG, state.table)


# ------------------------------------------------------------------------------------- the opening


@njit(cache=True, _nrt=False)
def _exchange(state, work, events):
    """换三张, once every seat has chosen (``work.exchange_choices``): the direction is drawn from the deal's
    stream and the tiles move. If the dealer gave away its 14th dealt tile, its 天胡 is read as won on the
    last tile it received."""
    hands, table = state.hands, state.table
    n, dealer = table[N_SEATS], table[DEALER]
    chosen = work.exchange_choices
    # Clockwise: to the previous seat in turn order; counter-clockwise: to the next; across: two on.
    _, pick = random_below(work.deal_stream[0], n - 1)
    offset = n - 1 if pick == 0 else pick
    for seat in range(n):
        for index in range(EXCHANGED):
            hands[seat, chosen[seat, index]] -= 1
    for step in range(n):
        seat = (dealer + step) % n
        receiver = (seat + offset) % n
        packed = 0
        for index in range(EXCHANGED):
            hands[receiver, chosen[seat, index]] += 1
            packed = packed * EXCHANGE_PACKING + chosen[seat, index]
        _log(events, EV_EXCHANGE, seat, receiver, packed)
    if hands[dealer, table[DRAWN]] == 0:
        table[DRAWN] = chosen[(dealer - offset + n) % n, EXCHANGED - 1]


@njit(cache=True, _nrt=False)
def _give(seat, tile, table, work):
    """One tile of the seat's 换三张; after the third, its tiles are sorted (the log writes them ascending)
    and the next seat chooses."""
    chosen = work.exchange_choices[seat]
    chosen[table[PICKED]] = tile
    table[PICKED] += 1
    if table[PICKED] == EXCHANGED:
        for index in range(1, EXCHANGED):
            position = index
            while position > 0 and chosen[position - 1] > chosen[position]:
                chosen[position - 1], chosen[position] = chosen[position], chosen[position - 1]
                position -= 1
        table[PICKED] = 0
        table[ROUND] += 1
    table[STEP] = STEP_EXCHANGE


@njit(cache=True, _nrt=False)
def _opened(wall, rules, state, work, events, record, validate):
    """The hands are final (after 换三张 and 定缺): their shanten goes to the record, then the non-dealers'
    报叫 where the ruleset allows it, else the dealer's first turn."""
    hands, table = state.hands, state.table
    for seat in range(table[N_SEATS]):
        record[R_INITIAL_SHANTEN + seat] = shanten(hands[seat], 0, rules.suit_table)
    table[TURN] = 1
    _check(state, wall, rules, table[DEALER], work, record, events, validate)
    if rules.settings[DECLARED_READY] != 0:
        table[STEP], table[ROUND] = STEP_OPENING_READY, 1
    else:
        _start_turn(table[DEALER], table[DRAWN], FROM_DEAL, table)


@njit(cache=True, _nrt=False)
def _offer_opening(wall, rules, state, work, events, record, validate):
    """The opening's next choice: each seat's 换三张 tiles (three picks), then each seat's 定缺, in turn
    order from the dealer; once all have chosen, the exchange is made and the hands are final."""
    table = state.table
    n, dealer, step = table[N_SEATS], table[DEALER], table[STEP]
    if step == STEP_EXCHANGE:
        if table[ROUND] < n:
            _ask((dealer + table[ROUND]) % n, DECISION_EXCHANGE, -1, False, 0, table)
            return
        _exchange(state, work, events)
        if rules.settings[VOID_SUIT] == 0:
            _opened(wall, rules, state, work, events, record, validate)
            return
        table[STEP], table[ROUND] = STEP_VOID, 0
    if table[ROUND] < n:
        _ask((dealer + table[ROUND]) % n, DECISION_VOID, -1, False, 0, table)
        return
    _opened(wall, rules, state, work, events, record, validate)


@njit(cache=True, _nrt=False)
def _offer_opening_ready(state, record):
    """报叫 right after the deal: the next non-dealer, in turn order, whose hand is ready (under 定缺 only a
    hand free of its void suit); after the last, the dealer's first turn."""
    table = state.table
    n, dealer = table[N_SEATS], table[DEALER]
    while table[ROUND] < n:
        seat = (dealer + table[ROUND]) % n
        table[ROUND] += 1
        if record[R_INITIAL_SHANTEN + seat] == 0 and void_tiles_held(seat, state) == 0:
            _ask(seat, DECISION_OPENING_READY, -1, False, 0, table)
            return
    _start_turn(dealer, table[DRAWN], FROM_DEAL, table)


@njit(cache=True, inline="always", _nrt=False)
def _open_deal(deal, dealer, n, seed, template, wall, rules, state, work, events, record, fans, validate):
    """The deal: shuffle, 14 tiles to the dealer and 13 to each other seat; then the switched-on openings
    (换三张, 定缺) and the non-dealers' 报叫 are the first steps. The dealer's last tile dealt, the tile its
    first turn may win on (天胡), waits in table[DRAWN]."""
    hands, table = state.hands, state.table
    settings = rules.settings
    streams = work.streams
    reset_state(state)
    events[0, 0] = 0
    for column in range(record.shape[0]):
        record[column] = 0
    if draw_luck.measuring(work.luck):
        draw_luck.begin_deal(work.luck_sums)
    for seat in range(MAX_SEATS):
        record[R_WIN_TYPE + seat] = NOT_WON
        record[R_INITIAL_SHANTEN + seat] = 0
        for fan in range(N_FANS):
            fans[seat, fan] = 0
        for other in range(MAX_SEATS):
            work.kong_paid[seat, other] = 0
        work.won_sizes[seat] = 0
    record[R_FIRST_WINNER] = -1

    for position in range(template.shape[0]):
        wall[position] = template[position]
    stream = stream_state(seed, 0, deal)
    stream, _ = random_below(stream, n)  # the deal's own dealer draw: used when deals are independent
    work.deal_stream[0] = shuffle_in_place(stream, wall)  # what is left of the stream draws the 换三张 direction
    for seat in range(n):
        streams[seat] = stream_state(seed, 1 + seat, deal)

    table[N_SEATS] = n
    table[DEALER] = dealer
    table[NEXT_DEALER] = -1
    record[R_DEALER] = dealer
    record[R_N_SEATS] = n
    for position in range(template.shape[0]):  # the wall as the deal will use it: dealt and drawn from 0 up
        _log(events, EV_WALL, -1, wall[position], 0)
    position = 0
    for step in range(n):
        seat = (dealer + step) % n
        for _ in range(DEALT_TO_DEALER if step == 0 else DEALT):
            tile = wall[position]
            hands[seat, tile] += 1
            _log(events, EV_DEAL, seat, tile, 0)
            position += 1
    table[WALL_FRONT] = position
    table[WALL_BACK] = template.shape[0] - 1
    table[DRAWN] = wall[DEALT_TO_DEALER - 1]
    if settings[EXCHANGE_THREE] != 0:
        table[STEP], table[ROUND], table[PICKED] = STEP_EXCHANGE, 0, 0
    elif settings[VOID_SUIT] != 0:
        table[STEP], table[ROUND] = STEP_VOID, 0
    else:
        _opened(wall, rules, state, work, events, record, validate)


# ------------------------------------------------------------------------------------- turns, robs and claims


@njit(cache=True, inline="always", _nrt=False)
def _self_draw_flags(seat, source, state, settings):
    table = state.table
    flags = SELF_DRAWN_FLAG
    if table[DECLARED + seat] == 1:
        flags |= READY_FLAG
    if source != FROM_DEAL and wall_left(table) == 0:
        flags |= LAST_WALL_TILE_FLAG
    if source == FROM_KONG:
        flags |= KONG_REPLACEMENT_FLAG
    if source == FROM_DEAL:
        flags |= HEAVENLY_HAND_FLAG
    elif (
        settings[EARTHLY_SELF_DRAWN] != 0 and seat != table[DEALER] and source == FROM_WALL
        and table[FRONT_DRAWS + seat] == 1 and table[ANY_MELD] == 0
    ):
        flags |= EARTHLY_HAND_FLAG
    return flags


@njit(cache=True, inline="always", _nrt=False)
def _self_drawn_win(seat, tile, flags, wall, rules, state, work, events, record, fans, validate):
    """The seat wins on the tile it drew: every other seat still in pays, and play goes on after it."""
    table = state.table
    order = table[WIN_ORDER] + 1
    table[WIN_ORDER] = order
    _win(seat, tile, flags, SELF_DRAWN, -1, order, state, rules, work, record, fans, events, validate)
    table[WON + seat] = order
    if table[NEXT_DEALER] < 0:
        table[NEXT_DEALER] = seat
    _after_wins(seat, wall, rules, state, work, events, record, validate)


@njit(cache=True, inline="always", _nrt=False)
def _offer_turn(wall, rules, state, work, events, record, fans, validate):
    """The actor's turn with 3k+2 tiles, DRAWN the tile just drawn (-1 after a pong): it may win, make kongs
    (each paid at once and followed by a replacement draw; an added kong may be robbed) or discard. A
    declarer must win at the first chance: it wins without being asked."""
    table = state.table
    seat, drawn = table[ACTOR], table[DRAWN]
    raw = -1
    flags = 0
    if drawn >= 0:
        flags = _self_draw_flags(seat, table[SOURCE], state, rules.settings)
        raw = _win_value(seat, drawn, flags, True, state, rules, work)
    win_allowed = _may_win(seat, raw, False, table)
    if table[DECLARED + seat] == 1 and win_allowed:
        _self_drawn_win(seat, drawn, flags, wall, rules, state, work, events, record, fans, validate)
        return
    _ask(seat, DECISION_TURN, raw, win_allowed, flags, table)


@njit(cache=True, inline="always", _nrt=False)
def _offer_rob(wall, rules, state, work, events, record, fans, validate):
    """抢杠: the next seat still in that may win on the tile added to a pong is asked (a declarer robs without
    being asked); once all have answered, all who rob win and the kong fails, else the kong stands."""
    melds, visible, table = state.melds, state.visible, state.table
    seat, tile, n = table[OFFERED_BY], table[OFFER], table[N_SEATS]
    while table[ROUND] < n:
        other = (seat + table[ROUND]) % n
        table[ROUND] += 1
        if table[WON + other] != 0:
            continue
        rob_flags = ROBBING_KONG_FLAG | (READY_FLAG if table[DECLARED + other] == 1 else 0)
        rob_raw = _win_value(other, tile, rob_flags, False, state, rules, work)
        if not _may_win(other, rob_raw, True, table):
            continue
        if table[DECLARED + other] == 1:
            _round_win(other, rob_flags, table, work)
            continue
        _ask(other, DECISION_ROB, rob_raw, True, rob_flags, table)
        return
    n_robbers = table[ROUND_WINNERS]
    if n_robbers > 0:  # all who rob win, and the kong fails
        visible[tile] += 1  # the robbed tile lies on the table
        _settle_winners(n_robbers, tile, ROBBED_KONG, seat, state, rules, work, record, fans, events, validate)
        _hand_changed(seat, table)
        _after_wins(work.winners[n_robbers - 1], wall, rules, state, work, events, record, validate)
        return
    melds[seat, pong_index(seat, melds, table, tile), 0] = MELD_KONG
    visible[tile] += 1
    table[ANY_MELD] = 1
    if rules.settings[PASSED_KONG_PAYS] != 0 or (table[PASSED_KONG + seat] >> tile) & 1 == 0:
        _kong_money(seat, ADDED_KONG, -1, state, rules, work, record, events)
    _kong_replacement(seat, wall, rules, state, work, events, record, validate)


@njit(cache=True, inline="always", _nrt=False)
def _discard(seat, tile, declare, wall, rules, state, work, events, record, validate):
    """The seat discards `tile`, declaring 报叫 if it chose to (the dealer, with its first discard); the
    others answer it next."""
    table = state.table
    state.hands[seat, tile] -= 1
    state.visible[tile] += 1
    note_discard(seat, tile, state)
    _log(events, EV_DISCARD, seat, tile, 0)
    if seat == table[DEALER]:
        table[DEALER_DISCARDS] += 1
    _hand_changed(seat, table)
    if declare:
        _declare(seat, state, rules, work, events)
    _check(state, wall, rules, -1, work, record, events, validate)
    flags = LAST_WALL_TILE_FLAG if wall_left(table) == 0 else 0
    if table[SOURCE] == FROM_KONG:  # the turn made a kong (or began with a kong of a discard)
        flags |= DISCARD_AFTER_KONG_FLAG
    if seat == table[DEALER] and table[DEALER_DISCARDS] == 1 and table[ANY_MELD] == 0:
        flags |= EARTHLY_HAND_FLAG
    _start_round(STEP_CLAIM, seat, tile, table)
    table[CLAIM_FLAGS] = flags


@njit(cache=True, inline="always", _nrt=False)
def _offer_claim(wall, rules, state, work, events, record, fans, validate):
    """The next seat still in answers the discard on offer (a declarer that may win on it wins unasked);
    once all have: every one who won on it wins (一炮多响), else the pong or kong is made, else the next seat
    draws."""
    hands, visible, table = state.hands, state.visible, state.table
    seat, discard, n = table[OFFERED_BY], table[OFFER], table[N_SEATS]
    while table[ROUND] < n:
        other = (seat + table[ROUND]) % n
        table[ROUND] += 1
        if table[WON + other] != 0:
            continue
        flags = table[CLAIM_FLAGS] | (READY_FLAG if table[DECLARED + other] == 1 else 0)
        raw = _win_value(other, discard, flags, False, state, rules, work)
        win_allowed = _may_win(other, raw, True, table)
        if table[DECLARED + other] == 1 and win_allowed:
            _round_win(other, flags, table, work)
            continue
        _ask(other, DECISION_CLAIM, raw, win_allowed, flags, table)
        return
    n_winners = table[ROUND_WINNERS]
    claimer = table[CLAIMER]
    if n_winners > 0:
        _settle_winners(n_winners, discard, DISCARD_WIN, seat, state, rules, work, record, fans, events, validate)
        _after_wins(work.winners[n_winners - 1], wall, rules, state, work, events, record, validate)
    elif claimer >= 0:
        claim = table[CLAIM]
        taken = 2 if claim == PONG else 3
        hands[claimer, discard] -= taken
        visible[discard] += taken
        _hand_changed(claimer, table)
        table[TURN] += 1
        if claim == PONG:
            if hands[claimer, discard] == 1 and wall_left(table) > 0:
                table[PASSED_KONG + claimer] |= 1 << discard  # 过手杠: it could have konged
            _add_meld(claimer, MELD_PONG, discard, state)
            _log(events, EV_PONG, claimer, discard, 0)
            _check(state, wall, rules, claimer, work, record, events, validate)
            _start_turn(claimer, -1, FROM_CLAIM, table)
            return
        _add_meld(claimer, MELD_KONG, discard, state)
        _log(events, EV_KONG, claimer, discard, 0)
        _kong_money(claimer, KONG, seat, state, rules, work, record, events)
        drawn = _draw(claimer, True, wall, rules, state, work, events)
        _check(state, wall, rules, claimer, work, record, events, validate)
        _start_turn(claimer, drawn, FROM_KONG, table)
    else:
        _draw_next(next_in_deal(seat, table), wall, rules, state, work, events, record, validate)


@njit(cache=True, inline="always", _nrt=False)
def _carry_on(wall, rules, state, work, events, record, fans, validate):
    """Take every step that needs no choice, up to the next decision or the end of the deal."""
    table = state.table
    while True:
        step = table[STEP]
        if step == STEP_CLAIM:
            _offer_claim(wall, rules, state, work, events, record, fans, validate)
        elif step == STEP_TURN:
            _offer_turn(wall, rules, state, work, events, record, fans, validate)
        elif step == STEP_ROB:
            _offer_rob(wall, rules, state, work, events, record, fans, validate)
        elif step == STEP_OPENING_READY:
            _offer_opening_ready(state, record)
        elif step == STEP_EXCHANGE or step == STEP_VOID:
            _offer_opening(wall, rules, state, work, events, record, validate)
        else:
            return


@njit(cache=True, inline="always", _nrt=False)
def _answer(action, wall, rules, state, work, events, record, fans, validate):
    """Carry out the pending decision's answer `action` (legal: the caller checks); the next step follows
    (``_carry_on``)."""
    hands, table = state.hands, state.table
    settings = rules.settings
    seat, decision = table[ACTOR], table[DECISION]
    code, tile = action_code(action), action_tile(action)
    if decision == DECISION_CLAIM:
        table[STEP] = STEP_CLAIM
        if code == WIN:
            _round_win(seat, table[WIN_FLAGS], table, work)
            return
        if table[WIN_ALLOWED] != 0:
            _passed_win(seat, table[WIN_VALUE], table, settings)
        if code == PONG or code == KONG:
            table[CLAIMER], table[CLAIM] = seat, code
        else:
            offer = table[OFFER]
            pong = pong_legal(seat, offer, state, settings)
            # A pass is logged where the seat had a choice (more than one legal action: ``legal_actions``).
            if table[WIN_ALLOWED] != 0 or pong or exposed_kong_legal(seat, offer, state, rules, work):
                _log(events, EV_PASS, seat, offer, 0)
            if settings[PASS_PONG_LOCK] != 0 and pong:
                table[PONG_LOCK + seat] |= 1 << offer  # 过手碰: it passed a pong it could make
    elif decision == DECISION_TURN:
        if code != WIN and table[WIN_ALLOWED] != 0:
            _passed_win(seat, table[WIN_VALUE], table, settings)
            _log(events, EV_DECLINE_WIN, seat, table[DRAWN], 0)
        if code == WIN:
            _self_drawn_win(
                seat, table[DRAWN], table[WIN_FLAGS], wall, rules, state, work, events, record, fans, validate,
            )
        elif code == CONCEALED_KONG:
            hands[seat, tile] -= 4
            _add_meld(seat, MELD_CONCEALED_KONG, tile, state)
            _log(events, EV_CONCEALED_KONG, seat, tile, 0)
            _kong_money(seat, CONCEALED_KONG, -1, state, rules, work, record, events)
            _kong_replacement(seat, wall, rules, state, work, events, record, validate)
        elif code == ADDED_KONG:
            hands[seat, tile] -= 1
            _log(events, EV_ADDED_KONG, seat, tile, 0)
            _start_round(STEP_ROB, seat, tile, table)
        else:
            _discard(seat, tile, code == DISCARD_READY, wall, rules, state, work, events, record, validate)
    elif decision == DECISION_ROB:
        table[STEP] = STEP_ROB
        if code == WIN:
            _round_win(seat, table[WIN_FLAGS], table, work)
        else:  # a rob is offered only where the seat may win: passing it was a choice
            _passed_win(seat, table[WIN_VALUE], table, settings)
            _log(events, EV_PASS, seat, table[OFFER], 0)
    elif decision == DECISION_OPENING_READY:
        if code == DECLARE_READY:
            _declare(seat, state, rules, work, events)
        table[STEP] = STEP_OPENING_READY
    elif decision == DECISION_EXCHANGE:
        _give(seat, tile, table, work)
    else:  # DECISION_VOID
        table[DECLARED_VOID + seat] = tile
        _log(events, EV_VOID_SUIT, seat, tile, 0)
        table[ROUND] += 1
        table[STEP] = STEP_VOID


# ------------------------------------------------------------------------------------- the built-in players


@njit(cache=True, inline="always", _nrt=False)
def _builtin_action(kinds, parameters, state, rules, work):
    """The pending decision's answer by the actor's heuristic (sim.xuezhan.players), from its own stream.
    Its 换三张 chooses the three tiles at once, at the first pick; the later picks give the others."""
    table, streams = state.table, work.streams
    seat, decision = table[ACTOR], table[DECISION]
    kind, seat_parameters = kinds[seat], parameters[seat]
    if decision == DECISION_CLAIM:
        action, streams[seat] = players_module.claim_action(
            kind, seat_parameters, seat, table[OFFER], table[WIN_ALLOWED] != 0, True, state, rules, work, streams[seat]
        )
        return action
    if decision == DECISION_TURN:
        action, streams[seat] = players_module.turn_action(
            kind, seat_parameters, seat, table[WIN_ALLOWED] != 0, table[DRAWN], state, rules, work, streams[seat]
        )
        return action
    if decision == DECISION_ROB:
        action, streams[seat] = players_module.claim_action(
            kind, seat_parameters, seat, table[OFFER], True, False, state, rules, work, streams[seat]
        )
        return action
    if decision == DECISION_OPENING_READY:
        declare, streams[seat] = players_module.declare_at_deal(
            kind, seat_parameters, seat, state, rules, work, streams[seat]
        )
        return encode(DECLARE_READY if declare else PASS, NO_TILE)
    if decision == DECISION_EXCHANGE:
        chosen = work.exchange_choices[seat]
        if table[PICKED] == 0:
            streams[seat] = players_module.choose_exchange(
                kind, seat_parameters, seat, state, rules, work, streams[seat], chosen
            )
        return encode(EXCHANGE, chosen[table[PICKED]])
    start, streams[seat] = players_module.choose_void_suit(kind, seat, state, streams[seat])
    return encode(VOID, start)


@njit(cache=True, _nrt=False)
def default_action(state, rules, work):
    """The safe answer the engine gives for a seat whose player failed, and the validating mode's stand-in
    for an illegal built-in decision: pass on a discard, rob a kong (a rob is offered only when it may win),
    throw the tile just drawn (else the first tile held; under 定缺 one of its void suit), give the first
    tile it may, declare 筒 void, no 报叫."""
    table = state.table
    seat, decision = table[ACTOR], table[DECISION]
    if decision == DECISION_TURN:
        return encode(DISCARD, _first_held(seat, state, table[DRAWN]))
    if decision == DECISION_ROB:
        return encode(WIN, NO_TILE)
    if decision == DECISION_EXCHANGE:
        legal_actions(state, rules, work, work.legal)
        return work.legal[0]
    if decision == DECISION_VOID:
        return encode(VOID, PIN_START)
    return encode(PASS, NO_TILE)


@njit(cache=True, _nrt=False)
def is_legal(action, state, rules, work):
    """Whether `action` answers the pending decision legally (one of ``legal_actions``)."""
    n = legal_actions(state, rules, work, work.legal)
    for index in range(n):
        if work.legal[index] == action:
            return True
    return False


NO_ANSWER = -1  # play_to_user's action when there is no decision to answer: it only carries the deal on


@njit(cache=True, _nrt=False)
def play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans, validate, decisions=None):
    """Answer the pending decision with `action` (NO_ANSWER: none), then play on: carry the deal on, and
    answer every decision of a built-in seat (kinds[seat] >= 0) with its heuristic, all inlined. The state
    machine is compiled twice: with a `decisions` log (sim.core.decision_logs), which the engine's loops pass
    and which keeps the built-in seats' decisions when it has room, and without one, for the step environment
    and the tools that step every decision. True when a user seat's decision is pending (its legal actions by
    ``legal_actions``), False once the deal is over."""
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
        seat_money(record, state.table[N_SEATS], work.money)  # what the encoding reads of the money so far
        observation_encoding.encode(seat, True, state, work, wall, record, rules, decisions.observations[index])
        decision_logs.fill_row(decisions, index, seat, state.table[DECISION], work.legal, n, action,
                               decision_logs.reported(chance, action))


@njit(cache=True, _nrt=False)
def begin_deal(deal, dealer, n, seed, template, wall, rules, state, work, events, record, fans, validate):
    """Deal; ``play_to_user(NO_ANSWER, ...)`` then carries the deal on."""
    _open_deal(deal, dealer, n, seed, template, wall, rules, state, work, events, record, fans, validate)


@njit(cache=True, _nrt=False)
def _play_deal(deal, dealer, n, seed, template, wall, rules, kinds, parameters, state, work, events, record, fans, validate,
               decisions):
    """Play one deal between built-in players into `record`, `fans` and `events`, and its decisions into
    `decisions` when it keeps them; every array is reused."""
    begin_deal(deal, dealer, n, seed, template, wall, rules, state, work, events, record, fans, validate)
    play_to_user(NO_ANSWER, wall, rules, kinds, parameters, state, work, events, record, fans, validate, decisions)


@njit(cache=True, inline="always", _nrt=False)
def win_order_count(table, n):
    """How many seats have won."""
    count = 0
    for seat in range(n):
        if table[WON + seat] != 0:
            count += 1
    return count


@njit(cache=True, inline="always", _nrt=False)
def _session_dealer(dealer, deal, row, n, seed, session_length):
    """The dealer of deal `deal` (row `row` of the batch): drawn at a session's start, else the one the
    last deal named."""
    if session_length == 0 or deal % session_length == 0 or row == 0:
        _, dealer = random_below(stream_state(seed, 0, deal), n)
    return dealer


@njit(cache=True)
def _play_deals(seed, first_deal, n, session_length, template, rules, kinds, parameters, work, validate, records, fans, events, wall,
                log, decisions):
    """Play records.shape[0] deals from first_deal; the last deal's events and wall stay in `events`, `wall`,
    and every deal's events go to `log` if it keeps them (sim.core.event_logs)."""
    state = new_state()
    dealer = 0
    for row in range(records.shape[0]):
        deal = first_deal + row
        dealer = _session_dealer(dealer, deal, row, n, seed, session_length)
        decision_logs.begin_deal(decisions, row)
        _play_deal(deal, dealer, n, seed, template, wall, rules, kinds, parameters, state, work, events, records[row], fans[row], validate,
                   decisions)
        event_logs.keep_events(events, log, row)
        draw_luck.keep(work.luck, work.luck_sums, row)
        dealer = records[row, R_NEXT_DEALER]


# ------------------------------------------------------------------------------------- user players
#
# A seat whose kind is USER or NUMBA holds a user's player (sim.players.user_players, sim.players.numba_players), asked at each
# of its decisions with a choice, its legal actions in work.legal. A NUMBA seat's function is called inside the
# loop below. A USER seat is asked through Python (numba's object mode): `_UserTable` reads the same state
# arrays, builds the seat's observation (sim.xuezhan.observation) and answers with an action code, or -1 for
# the engine's safe default (a fault of an external program). `status` tells Python where the loop is (deal,
# seat, decision), so that a failure can be named, and how a numba player failed.
#
# The loop exists twice around one inlined body: `_play_deals_asking`, cached, for tables without numba
# players (every function is the stand-in `no_numba_player`), and `_play_deals_with_numba`, which takes the
# distinct numba functions at the table (up to four) as arguments; numba makes a function part of the type, so
# that one cannot be cached and is compiled in each process, only when a numba player sits at the table.

USER, NUMBA = -1, -2  # the kinds of a user's seat (status slots: sim.players.seating)


@njit(cache=True)
def _every_seat_asked():
    return np.full(MAX_SEATS, USER, np.int64), np.zeros((MAX_SEATS, players_module.N_PARAMETERS))


@njit(cache=True)
def start_deal(deal, dealer, n, seed, template, wall, rules, state, work, events, record, fans, validate):
    """Deal and carry on to the first decision, whichever seat's (for tests and tools that step every
    decision; the loops play through ``begin_deal`` and ``play_to_user``)."""
    begin_deal(deal, dealer, n, seed, template, wall, rules, state, work, events, record, fans, validate)
    kinds, parameters = _every_seat_asked()
    play_to_user(NO_ANSWER, wall, rules, kinds, parameters, state, work, events, record, fans, validate)


@njit(cache=True)
def apply(action, wall, rules, state, work, events, record, fans, validate):
    """Carry out the pending decision's answer and carry on to the next decision, whichever seat's, or the
    end (for tests and tools that step every decision)."""
    kinds, parameters = _every_seat_asked()
    play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans, validate)


@njit(cache=True, _nrt=False)
def builtin_action(kinds, parameters, state, rules, work):
    """The pending decision's answer by the actor's built-in heuristic."""
    return _builtin_action(kinds, parameters, state, rules, work)


@njit(cache=True, inline="always", _nrt=False)
def seat_money(record, n, out):
    """out[s] = seat s's units so far in the deal (wins and kongs), from its record row."""
    for seat in range(n):
        out[seat] = record[R_WIN_MONEY + seat] + record[R_KONG_MONEY + seat]


@njit(cache=True, inline="always")
def _deals_asking(act0, act1, act2, act3, functions, user_parameters, asks_python, seed, first_deal, n, session_length,
                  template, rules, kinds, parameters, state, work, view, validate, records, fans, events, wall, status,
                  chances, log, decisions=None):
    """The loop with user players: records.shape[0] deals from first_deal. A NUMBA seat s is answered by
    function functions[s] of act0 .. act3 with parameters user_parameters[s], through its copies in `view`
    (sim.players.player_view); a USER seat through Python. Every answer is checked against the engine's own legal
    actions: the loop returns early, status[STATUS_ILLEGAL] set, at an illegal one. The chances of winning the
    players report with their discards go to `chances` (sim.core.win_chances), and the chosen seats' decisions
    to `decisions` when given (sim.core.decision_logs; ev's cached loop passes none)."""
    dealer = 0
    streams = work.streams
    for row in range(records.shape[0]):
        deal = first_deal + row
        dealer = _session_dealer(dealer, deal, row, n, seed, session_length)
        status[STATUS_DEAL], status[STATUS_SEAT], status[STATUS_DECISION] = deal, -1, -1
        if asks_python:
            tell_deal_begins(deal, row)
        record = records[row]
        begin_deal(deal, dealer, n, seed, template, wall, rules, state, work, events, record, fans[row], validate)
        if decisions is None:
            pending = play_to_user(NO_ANSWER, wall, rules, kinds, parameters, state, work, events, record, fans[row], validate)
        else:
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
                seat_money(record, n, work.money)
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
            if decisions is None:
                pending = play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans[row], validate)
            else:
                if decision_logs.keeping(decisions):
                    _keep_decision(action, chances.chance[0], count, wall, rules, state, work, record, decisions)
                pending = play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans[row], validate,
                                       decisions)
        event_logs.keep_events(events, log, row)
        draw_luck.keep(work.luck, work.luck_sums, row)
        dealer = records[row, R_NEXT_DEALER]


# Both loops run without reference counting, as the state machine does: with it, every call would count
# references on each array of the three named tuples it passes, and compiling the uncached loop takes longer.
@njit(cache=True, _nrt=False)
def _play_deals_asking(functions, user_parameters, seed, first_deal, n, session_length, template, rules, kinds,
                       parameters, state, work, view, validate, records, fans, events, wall, status, chances, log,
                       decisions):
    """`_play_deals` with Python and exec: players (no numba player): cached, compiled once."""
    _deals_asking(no_numba_player, no_numba_player, no_numba_player, no_numba_player, functions, user_parameters, True,
                  seed, first_deal, n, session_length, template, rules, kinds, parameters, state, work, view, validate,
                  records, fans, events, wall, status, chances, log, decisions)


@njit(_nrt=False)
def _play_deals_with_numba(act0, act1, act2, act3, functions, user_parameters, asks_python, seed, first_deal, n,
                           session_length, template, rules, kinds, parameters, state, work, view, validate, records,
                           fans, events, wall, status, chances, log, decisions):
    """`_play_deals` with numba players among the seats (and maybe Python ones): compiled in each process, once
    per set of distinct functions whatever seats they take (so a duel's rotations share it), in about ten
    seconds (its callees are cached)."""
    _deals_asking(act0, act1, act2, act3, functions, user_parameters, asks_python, seed, first_deal, n,
                  session_length, template, rules, kinds, parameters, state, work, view, validate, records, fans,
                  events, wall, status, chances, log, decisions)


# Loops compiled and cached ahead for tables whose numba players are built in (``sim.xuezhan.ev`` registers
# its own), by their four functions as `_play_deals_with_numba` would take them: a process then loads the
# loop from the cache instead of compiling it (some ten seconds).
CACHED_NUMBA_LOOPS = {}


class _UserTable(UserTable):
    """The batch being played with users' players (sim.players.seating), observed as a 血战 seat observes: its
    money so far in the deal read from the deal's record."""

    def observe(self, legal: list):
        record = self.records[self.row]
        seats = range(self.state.table[N_SEATS])
        money = tuple(int(record[R_WIN_MONEY + seat]) + int(record[R_KONG_MONEY + seat]) for seat in seats)
        return Observation(self.state, self.work, money, legal, self.deal, self.ruleset)


def _play_with_users(ruleset, players, seed, first, n, session_length, template, rules, work, validate, records, fans,
                     events, wall, log, decisions) -> win_chances.WinChanceLog:
    """Play the batch with user players among the seats; returns the chances of winning they reported."""
    state = new_state()
    status = engine_status()  # shared with the parent when this is a worker process (sim.core.worker_processes)
    users = tuple(players.users) + (None,) * (MAX_SEATS - len(players.users))
    acts, functions, user_parameters = numba_functions(users)
    chances = win_chances.new_log(records.shape[0], win_chances.discards_bound(max(0, template.shape[0] - 13 * n - 1), n))
    ASKING.table = _UserTable(ruleset, players.users, seed, state, work, chances, records)
    view = new_player_view(new_state(), new_work(), rules, MAX_NUMBA_PARAMETERS, copy_rules=bool(acts))
    arguments = (
        np.uint64(seed), first, n, session_length, template, rules, players.kinds, players.parameters, state, work,
        view, validate, records, fans, events, wall, status, chances, log,
    )
    try:
        if acts:
            asks_python = any(user is not None and not is_numba(user) for user in users)
            padded = (*acts, *[no_numba_player] * (MAX_SEATS - len(acts)))
            loop = CACHED_NUMBA_LOOPS.get(padded)
            if loop is not None and decisions.rows.shape[0] == 0:  # the cached loops keep no decisions
                loop(functions, user_parameters, asks_python, *arguments)
            else:
                _play_deals_with_numba(*padded, functions, user_parameters, asks_python, *arguments, decisions)
        else:
            _play_deals_asking(functions, user_parameters, *arguments, decisions)
    except PlayerFailure:
        raise
    except TypingError as error:  # raised while compiling, before any deal: a function written for another table
        texts = ", ".join(user.text for user in users if is_numba(user))
        lines = [line.strip() for line in str(error).splitlines() if line.strip() and not line.startswith("Failed in")]
        first = lines[0] if lines else type(error).__name__
        raise PlayerError(f"{texts}: does not compile against the 血战 observation "
                          f"(sim.xuezhan.observation.NumbaObservation): {first}") from None
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
    """Each seat's player at a 血战 table (sim.players.seating.SeatedPlayers)."""

    @classmethod
    def parse(cls, texts, seats: int | None = None, lenient: bool = False, users=None) -> "Players":
        """From a list of player texts, or one string `A,B,...` (see ``split_players``); one per seat.
        `users`: user players already loaded, by seat (None where there is none), reused for their texts;
        `lenient`: keys only the 二人 heuristics take are dropped, not refused."""
        if isinstance(texts, str):
            texts = split_players(texts)
        if seats is not None and len(texts) != seats:
            raise PlayerError(f"this game takes {seats} players, not {len(texts)}")
        if not 2 <= len(texts) <= MAX_SEATS:
            raise PlayerError(f"血战 takes two to four players, not {len(texts)}")
        return cls(*seat_texts(texts, players_module, lambda text: players_module.parse_player(text, lenient), __name__,
                               (USER, NUMBA), users))


def as_players(players, n_seats: int) -> Players:
    """Players from a string, a list of texts, an ``Players`` or an ``engine.Players`` (whose
    canonical texts are read again by this family's parser, 二人-only keys dropped, its user players kept)."""
    if isinstance(players, Players):
        result = players
    elif isinstance(players, (str, list, tuple)):
        result = Players.parse(players)
    else:
        result = Players.parse(list(players.names), lenient=True, users=getattr(players, "users", None))
    if len(result.names) != n_seats:
        raise PlayerError(f"this game takes {n_seats} players, not {len(result.names)}")
    return result


def kernel_rules(ruleset) -> tuple[Rules, np.ndarray]:
    """The rules the kernels take (``sim.core.deal_rules.Rules``, settings slots in ``sim.xuezhan.table``) and
    the wall template (tile ids, ordered)."""
    if getattr(ruleset, "family", None) != "xuezhan":
        raise ValueError(f"the 血战 engine plays family-xuezhan rulesets, not {ruleset.id}")
    switches = ruleset.xuezhan
    settings = np.zeros(SETTINGS_FIELDS, np.int64)
    rules, template = deal_rules(ruleset, settings)
    settings[COMBINE_MULTIPLY] = int(ruleset.combine == "multiply")
    settings[CAP] = ruleset.cap
    settings[SELF_DRAWN_UNIT] = int(switches.self_drawn_bonus == "unit")
    settings[KONG_UNITS_IN_WIN] = int(switches.kong_units_in_win)
    settings[DECLARED_READY] = int(switches.declared_ready)
    settings[PASS_PONG_LOCK] = int(switches.pass_pong_lock)
    settings[PASS_WIN_LOCK] = int(switches.pass_win_lock)
    settings[MISSED_WIN_LOCK] = int(switches.missed_win_lock)
    settings[PASSED_KONG_PAYS] = int(switches.passed_kong_pays)
    settings[LAST_TILE_KONG] = int(switches.last_tile_kong)
    settings[CHAJIAO_VOIDS_KONG_MONEY] = int(switches.chajiao_voids_kong_money)
    settings[EXPOSED_DISCARDER] = switches.exposed_discarder
    settings[EXPOSED_OTHERS] = switches.exposed_others
    settings[ADDED_OTHERS] = switches.added_others
    settings[CONCEALED_OTHERS] = switches.concealed_others
    settings[EARTHLY_SELF_DRAWN] = int(switches.earthly_hand_self_drawn)
    settings[EXCHANGE_THREE] = int(switches.exchange_three)
    settings[VOID_SUIT] = int(switches.void_suit)
    settings[WALL_TILES] = template.shape[0]
    return rules, template


def _seats(ruleset, players) -> int:
    if isinstance(players, Players):
        n = len(players.names)
    elif isinstance(players, str):
        n = len(split_players(players))
    elif isinstance(players, (list, tuple)):
        n = len(players)
    else:
        n = len(players.names)
    if n not in ruleset.players:
        raise ValueError(f"{ruleset.id} is played by {' or '.join(map(str, ruleset.players))} players, not {n}")
    return n


@dataclass
class XuezhanRecords:
    """One batch of deals: `columns` (name -> int32 array, ``record_columns(n_seats)`` plus int64 `deal`),
    `fans` (deals x n_seats x N_FANS uint8: the fans of each seat's win, zero if it did not win) and
    `win_chances` (for each seat holding a user player, ``win_chances_<seat>``: the chances of winning it
    reported with its discards, a list per deal; sim.core.win_chances)."""

    columns: dict
    fans: np.ndarray
    win_chances: dict = field(default_factory=dict)
    log: event_logs.BatchLog | None = None  # every deal's events, when asked for (sim.core.event_logs)
    luck: np.ndarray | None = None  # (deals, seats, features): each seat's luck of the draws, when asked for (sim.core.draw_luck)
    decisions: decision_logs.KeptDecisions | None = None  # the chosen seats' decisions, when asked for (sim.core.decision_logs)

    def __len__(self):
        return self.fans.shape[0]


def new_decision_log(ruleset, seats, n_deals: int, n: int) -> decision_logs.DecisionLog:
    """A log with room for the decisions of `seats` in `n_deals` deals at `n` seats (no seats: one that keeps none)."""
    if not seats:
        return decision_logs.no_log(observation_encoding.SIZE)
    if any(not 0 <= seat < n for seat in seats):
        raise ValueError(f"this table has seats 0 to {n - 1}, not {sorted(seats)}")
    discards = win_chances.discards_bound(max(0, kernel_rules(ruleset)[1].shape[0] - 13 * n - 1), n)
    return decision_logs.new_log(seats, n_deals, decision_logs.decisions_bound(discards, win_chances.MELDS_PER_SEAT * n), observation_encoding.SIZE)


def _run(ruleset, players, seed, first, n_deals, session_length, validate, keep_log=False, luck=False, decision_seats=()):
    n = _seats(ruleset, players)
    seats = as_players(players, n)
    rules, template = kernel_rules(ruleset)
    work = new_work(n_deals if luck else 0)
    records = np.zeros((n_deals, RECORD_WIDTH), np.int32)
    fans = np.zeros((n_deals, MAX_SEATS, N_FANS), np.uint8)
    events = np.zeros((MAX_EVENTS, 4), np.int32)
    wall = template.copy()
    log = event_logs.new_batch_log(n_deals, MAX_EVENTS, 4, np.int32) if keep_log else event_logs.no_batch_log(4, np.int32)
    decisions = new_decision_log(ruleset, decision_seats, n_deals, n)
    chances = None
    if seats.has_users:
        chances = _play_with_users(
            ruleset, seats, seed, first, n, session_length, template, rules, work, validate, records, fans, events, wall,
            log, decisions,
        )
    else:
        _play_deals(
            np.uint64(seed), first, n, session_length, template, rules, seats.kinds, seats.parameters,
            work, validate, records, fans, events, wall, log, decisions,
        )
    reporting = [seat for seat, user in enumerate(seats.users) if user is not None]
    reports = win_chances.columns(chances, n_deals, reporting) if chances is not None else {}
    measured = work.luck[:, :n].copy() if luck else None
    kept = decision_logs.trimmed(decisions) if decision_seats else None
    return n, records, fans, events, wall, reports, (event_logs.trimmed(log) if keep_log else None), measured, kept


def _columns_of(records, n):
    full = dict(zip(RECORD_COLUMNS, range(len(DEAL_COLUMNS))))
    for block, name in enumerate(SEAT_COLUMNS):
        for seat in range(n):
            full[f"{name}_{seat}"] = len(DEAL_COLUMNS) + block * MAX_SEATS + seat
    return {name: records[..., full[name]] for name in record_columns(n)}


def play(ruleset, players, seed: int, n_deals: int, first_deal: int = 0, session_length: int = 0,
         validate: bool = False, keep_log: bool = False, luck: bool = False, decision_seats=()) -> XuezhanRecords:
    """Play deals first_deal .. first_deal + n_deals - 1. With sessions, first_deal must start one. With
    `keep_log`, the records carry every deal's events (room for MAX_EVENTS a deal: keep batches small); with
    `luck`, each seat's luck of the draws (sim.core.draw_luck)."""
    if session_length and first_deal % session_length:
        raise ValueError("with sessions, a batch starts at a session's first deal")
    players = as_players(players, _seats(ruleset, players))
    if players.host is not None:
        return players.host.call("play", ruleset, seed, n_deals, first_deal, session_length, validate, keep_log, luck,
                                 tuple(decision_seats))
    n, records, fans, _, _, reports, log, measured, kept = _run(ruleset, players, seed, first_deal, n_deals,
                                                                session_length, validate, keep_log, luck, decision_seats)
    columns = {"deal": np.arange(first_deal, first_deal + n_deals, dtype=np.int64)}
    columns.update(_columns_of(records, n))
    return XuezhanRecords(columns, fans[:, :n].copy(), reports, log, measured, kept)


def replay(ruleset, players, seed: int, deal: int, session_length: int = 0, validate: bool = False) -> DealLog:
    """Play one deal again (with sessions, its session from the start, for the dealer) and keep its log."""
    players = as_players(players, _seats(ruleset, players))
    if players.host is not None:
        return players.host.call("replay", ruleset, seed, deal, session_length, validate)
    first = deal - deal % session_length if session_length else deal
    n, records, fans, events, wall, _, _, _, _ = _run(ruleset, players, seed, first, deal - first + 1, session_length, validate)
    record = {"deal": deal, **{name: int(value) for name, value in _columns_of(records[-1], n).items()}}
    rows = events[1 : events[0, 0] + 1]
    return DealLog(record, fans[-1, :n].copy(), wall, rows[:, :3].copy(), rows[:, 3].copy())

"""``ev`` at 血战 tables: the expected-value player of the 血战 family, a numba player (sim.players.numba_players)
seated by name like the heuristics (`liangmen-xuezhan`, `sanren-liangfang`, two to four seats).

It plays on the public numba player interface only (``sim.xuezhan.observation.NumbaObservation``) and
scores each choice by its expected money in units of the base stake, as the ruleset pays it (the raw value
from the ruleset's own evaluator, its cap, the kong units 003 adds to a win, 报叫's ×16):

- **Its wins.** The rest of the deal is a run of rounds. In each, the others still in take their turns (ev
  may win on each of their discards), then ev draws. A win on a discard is paid by the discarder, a
  self-drawn one by every other player still in, whose number falls as they win and leave. Unlike a
  二人 deal, another seat's win does not end ev's race: it only takes a payer away.
- **What it pays while it plays on.** Each round, every other player still in may win by self-draw,
  which costs ev that win's value: a player that wins early stops paying.
- **查叫 at the end.** If the wall runs out with ev still in, a ready hand collects its best value (as a
  win on a discard) from each other player who is not ready, and a hand that is not ready pays each ready
  one; a 报叫 declarer who has not won also pays the ready ones (关死).
- **Dealing in.** A discard risks the win of each other player still in: a 报叫 declarer's public waits
  certainly, another's by the tile's unseen copies and the sequences it could finish, as the deal goes on.

A ready hand's race is walked round by round; a hand one tile from ready is looked at one draw ahead,
exactly (each live tile that makes it ready, ev's best discard then, and that ready hand's race in the
rounds left); a hand further away is played as greedy plays it (the lowest shanten, the most live improving
tiles), its chance of winning from sim.players.win_race.far_chance, unless a value plan (a flush in one suit, seven
pairs) is worth more: its walk's chance times what the pattern multiplies a win by under the ruleset (a
pong that far from ready is weighed the same way, 门清 given up). Decisions: discards; pong and kong (kong
money at once, and 003's kong units in later wins) when the hand after them is worth more; 报叫 when the declared
hand (its wins ×16, locked, its discards dealing in at ×16) is worth more; a win on a discard or a robbed
kong, or passing it to wait for a self-draw paid by every player still in (过水胡 and 漏胡 then bind);
换三张 and 定缺 as greedy chooses them. With each discard it reports its chance of winning the deal
(sim.core.win_chances), calibrated by sim.players.ev_calibration. Parameters (``ev:key=value,...``): ``claim`` and
``declare`` (0 never pongs or kongs a discard / never declares 报叫), ``pass_wins`` (0 always wins when it
may), ``ron_share`` (the chance another player throws a tile ev waits on when it draws it), ``threat``
(scales the others' readiness before they declare), ``opponent_waits`` (a ready player's live winning
copies), ``opponent_value`` (what another's win costs per payer; 0: 4 units, the family's typical win),
``opponent_ready`` (the chance another player still in at the end is ready), ``depth`` (0: only ready hands
are searched; 1) and ``report`` (1: the calibrated chance; 0: the search's own; 2: coded for
``mjsim calibrate-ev``). See docs/xuezhan.md#ev-the-expected-value-player.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from kernels.fan_ids import READY_FLAG, SELF_DRAWN_FLAG, Fan
from kernels.shanten import _seven_pairs_from_tally
from kernels.tiles import MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_KINDS
from sim.core.actions import (
    ACTION_BASE,
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
    KONG,
    PASS,
    PONG,
    WIN,
)
from sim.players.ev_calibration import WALK_FROM_FAR, report, table_named
from sim.players.numba_players import legal_action, legal_action_of, numba_player
from sim.players.wait_ways import chow_wait_ways
from sim.players.win_race import MAX_LEVELS, far_chance
from sim.xuezhan import engine
from sim.xuezhan.win_value import score_win
from sim.xuezhan.table import (
    ADDED_OTHERS,
    CAP,
    COMBINE_MULTIPLY,
    CONCEALED_OTHERS,
    EXPOSED_DISCARDER,
    EXPOSED_OTHERS,
    FIRST_KIND,
    KONG_UNITS,
    KONG_UNITS_IN_WIN,
    LAST_KIND,
    MISSED_WIN_LOCK,
    OFFERED_BY,
    PASSED_KONG,
    PASSED_KONG_PAYS,
    SELF_DRAWN_UNIT,
    SUIT_SIZE,
    WALL_TILES,
    is_complete,
    shanten,
    ukeire,
    wall_left,
)

DEFAULTS = {"claim": 1.0, "declare": 1.0, "pass_wins": 1.0, "ron_share": 0.5, "threat": 2.0, "opponent_waits": 5.0,
            "opponent_value": 0.0, "opponent_ready": 0.5, "depth": 1.0, "report": 1.0}
RANGES = {"opponent_ready": (0.0, 1.0), "depth": (0.0, 1.0), "report": (0.0, 2.0)}
CLAIM, DECLARE, PASS_WINS, RON_SHARE, THREAT, OPPONENT_WAITS, OPPONENT_VALUE, OPPONENT_READY, DEPTH, REPORT = range(10)
TYPICAL_WIN = 4.0  # opponent_value = 0: units per payer of a typical win at these tables (greedy's, on a discard)
NONE = -1.0e18  # no evaluation (a hand further than one tile from ready)
NO_ACTION = -1
MAX_ROUNDS = 40
READY_HAND = int(Fan.READY_HAND)  # 报叫
FULL_FLUSH, SEVEN_PAIRS = int(Fan.FULL_FLUSH), int(Fan.SEVEN_PAIRS)  # the patterns of the value plans
CONCEALED_HAND = int(Fan.CONCEALED_HAND)  # 门清, which a pong gives up

# the fitted tables of sim.players.ev_calibration that calibrate this family's ev
LIANGMEN, SANREN_THREE, SANREN_TWO = (table_named(name) for name in ("liangmen-xuezhan", "sanren-liangfang-3", "sanren-liangfang-2"))


class Race(NamedTuple):
    """The terms of the rest of the deal, the same for every hand ev weighs at one decision."""

    unseen: float  # copies ev cannot see
    others: float  # other players still in
    leave: float  # the chance another player still in wins (and leaves) in a round
    self_loss: float  # what ev expects to pay per other player still in and round, for their self-drawn wins
    loss: float  # what another player's win costs ev (per payer)
    ron_share: float
    ready_others: float  # the chance another player still in at the end is ready (for 查叫)
    declared_loss: float  # what ev pays when, declared, its forced discard deals in (×16, capped)
    forced_deal_in: float  # the chance a declarer's forced discard deals in, per round


# ------------------------------------------------------------------------------------- money


@njit(cache=True, inline="always")
def _payment(raw, self_drawn, kong_units, settings):
    """What each payer pays for ev's win of raw value `raw` (sim.xuezhan.engine's payment rule, the payer
    not a declarer): 003 adds the winner's kong units and, with 加底, a unit for a self-draw; the cap binds."""
    amount = float(raw)
    if settings[COMBINE_MULTIPLY] == 0:
        if settings[KONG_UNITS_IN_WIN] != 0:
            amount += max(0.0, kong_units)
        if settings[SELF_DRAWN_UNIT] != 0 and self_drawn:
            amount += 1.0
    if settings[CAP] > 0:
        amount = min(amount, float(settings[CAP]))
    return amount


@njit(cache=True)
def _waits(hand, n_melds, melds, unseen, rules, fan_counts, flags, kong_units, rates):
    """Of the ready hand of 3k+1 tiles: rates = (live copies winning self-drawn, their summed payment, live
    copies winning on a discard, their summed payment, the best payment of any tile it could still receive
    scored as a win on a discard: its 查叫 value, 0 when the hand is not ready)."""
    settings = rules.settings
    self_copies, self_value, ron_copies, ron_value, best = 0.0, 0.0, 0.0, 0.0, 0.0
    for kind in range(FIRST_KIND, LAST_KIND + 1):
        held = hand[kind]
        for index in range(n_melds):
            if melds[index, 1] == kind:
                held += 3 if melds[index, 0] == MELD_PONG else 4
        if held >= 4:
            continue
        hand[kind] += 1
        complete = is_complete(hand, n_melds, rules.complete_bits)
        hand[kind] -= 1
        if not complete:
            continue
        on_discard = _payment(score_win(hand, melds, n_melds, kind, flags, rules, fan_counts), False,
                              kong_units, settings)
        best = max(best, on_discard)
        live = max(unseen[kind], 0)
        if live == 0:
            continue
        ron_copies += live
        ron_value += live * on_discard
        self_copies += live
        self_value += live * _payment(score_win(hand, melds, n_melds, kind, flags | SELF_DRAWN_FLAG, rules,
                                                     fan_counts), True, kong_units, settings)
    rates[0], rates[1], rates[2], rates[3], rates[4] = self_copies, self_value, ron_copies, ron_value, best


@njit(cache=True, inline="always")
def _ready_race(rates, race, rounds, ron_from, declared):
    """(EV, P(win)) of a ready hand with `rates` (``_waits``) over `rounds` rounds, walked round by round:
    the others' turns (ev wins on a discard from round `ron_from` on: 0, or 1 after passing a win), what
    their self-draws cost ev while it is in, ev's draw; then 查叫 (and 关死 when `declared`)."""
    unseen = race.unseen
    self_rate = rates[0] / unseen
    ron_rate = race.ron_share * rates[2] / unseen
    self_value = rates[1] / rates[0] if rates[0] > 0 else 0.0
    ron_value = rates[3] / rates[2] if rates[2] > 0 else 0.0
    still, others, ev, won = 1.0, race.others, 0.0, 0.0
    for round_index in range(rounds):
        still *= 1.0 - _ending(race, others)
        if round_index >= ron_from:
            on_discard = 1.0 - (1.0 - ron_rate) ** others
            ev += still * on_discard * ron_value
            won += still * on_discard
            still *= 1.0 - on_discard
        ev -= still * others * race.self_loss
        if declared:
            ev -= still * race.forced_deal_in * race.declared_loss
        ev += still * self_rate * self_value * others
        won += still * self_rate
        still *= 1.0 - self_rate
        others *= 1.0 - race.leave
    if others > 0.5:  # two or more players still in when the wall runs out: 查叫
        ev += still * others * (1.0 - race.ready_others) * rates[4]
        if declared:
            ev -= still * others * race.ready_others * race.loss
    return ev, won


@njit(cache=True, inline="always")
def _ending(race, others):
    """The chance the deal ends in a round before ev's turn: with one other player left, its win ends it (a
    deal ends when at most one player has not won); with more, their all winning first is neglected."""
    return race.leave if others < 1.5 else 0.0


@njit(cache=True, inline="always")
def _not_ready_end(race, still, others):
    """What a hand that never became ready pays at 查叫: each ready player still in, its value."""
    if others > 0.5:
        return -still * others * race.ready_others * race.loss
    return 0.0


@njit(cache=True)
def _ready_ev(hand, n_melds, melds, unseen, rules, fan_counts, flags, kong_units, race, rounds, rates):
    """(EV, P(win)) of the ready hand of 3k+1 tiles."""
    _waits(hand, n_melds, melds, unseen, rules, fan_counts, flags, kong_units, rates)
    return _ready_race(rates, race, rounds, 0, flags & READY_FLAG != 0)


@njit(cache=True)
def _one_away_ev(hand, n_melds, melds, unseen, rules, work, kong_units, race, rounds, rates, steps):
    """(EV, P(win)) of a hand of 3k+1 tiles one tile from ready: each live tile that makes it ready, with
    the best discard after it, then that ready hand's race in the rounds left; the hand that never becomes
    ready pays at 查叫. steps: float64 (34, 3) work rows (chance of the tile, and the ready hand's rates)."""
    suit = rules.suit_table
    n_steps = 0
    reach = 0.0
    best_rates = np.zeros(5)
    for kind in range(FIRST_KIND, LAST_KIND + 1):
        live = unseen[kind]
        if live <= 0 or hand[kind] >= 4:
            continue
        hand[kind] += 1
        best_worth = NONE
        for discard in range(FIRST_KIND, LAST_KIND + 1):
            if hand[discard] == 0 or discard == kind:
                continue
            hand[discard] -= 1
            if shanten(hand, n_melds, suit) == 0:
                _waits(hand, n_melds, melds, unseen, rules, work.fan_counts, 0, kong_units, rates)
                worth, _ = _ready_race(rates, race, max(1, rounds // 2), 0, False)
                if worth > best_worth:
                    best_worth = worth
                    for index in range(5):
                        best_rates[index] = rates[index]
            hand[discard] += 1
        hand[kind] -= 1
        if best_worth == NONE:
            continue
        share = live / race.unseen
        reach += share
        steps[n_steps, 0] = share
        for index in range(5):
            steps[n_steps, 1 + index] = best_rates[index]
        n_steps += 1
    # round k: the others' turns, then ev's draw, which makes the hand ready with chance `reach`
    total_ev, total_win, still, others = 0.0, 0.0, 1.0, race.others
    for round_index in range(rounds):
        still *= 1.0 - _ending(race, others)
        total_ev -= still * others * race.self_loss
        left = rounds - round_index - 1
        for step in range(n_steps):
            weight = still * steps[step, 0]
            ready_ev, ready_win = _ready_race(steps[step, 1:], Race(race.unseen, others * (1.0 - race.leave),
                                                                     race.leave, race.self_loss, race.loss,
                                                                     race.ron_share, race.ready_others,
                                                                     race.declared_loss, race.forced_deal_in),
                                              left, 0, False)
            total_ev += weight * ready_ev
            total_win += weight * ready_win
        still *= 1.0 - reach
        others *= 1.0 - race.leave
    return total_ev + _not_ready_end(race, still, others), total_win


@njit(cache=True, inline="always")
def _holds_suit(hand, start):
    """Whether the hand holds a tile of the suit starting at `start` (-1: no suit)."""
    if start < 0:
        return False
    for kind in range(start, start + SUIT_SIZE):
        if hand[kind] > 0:
            return True
    return False


@njit(cache=True)
def _hand_ev(hand, n_melds, melds, unseen, rules, work, flags, kong_units, void, race, rounds, rates, steps, depth):
    """(EV, P(win)) of the hand of 3k+1 tiles: walked when ready, one draw ahead when one tile from it (at
    depth 1), NONE beyond (or while it holds its void suit, 定缺, which it must discard first)."""
    if _holds_suit(hand, void):
        return NONE, 0.0
    distance = shanten(hand, n_melds, rules.suit_table)
    if distance == 0:
        return _ready_ev(hand, n_melds, melds, unseen, rules, work.fan_counts, flags, kong_units, race, rounds, rates)
    if distance == 1 and depth >= 1:
        return _one_away_ev(hand, n_melds, melds, unseen, rules, work, kong_units, race, rounds, rates, steps)
    return NONE, 0.0


@njit(cache=True)
def _far_chance(hand, n_melds, unseen, rules, parameters, race, rounds, levels):
    """P(win) of a hand of 3k+1 tiles too far from ready for the search: each draw among its live improving
    copies moves it a step closer; once ready it waits on a typical `opponent_waits` live copies. The deal
    ends early (with one other player left) at its hazard, the same in every round. `levels`: float64
    (2, MAX_ROUNDS + 1): the walk's levels, then the hazards."""
    distance, useful = ukeire(hand, n_melds, unseen, rules.suit_table)
    waits = parameters[OPPONENT_WAITS] / race.unseen
    ron = 1.0 - (1.0 - race.ron_share * waits) ** max(race.others, 0.0)
    hazards = levels[1]
    for left in range(rounds + 1):
        hazards[left] = _ending(race, race.others)
    return far_chance(distance, useful / race.unseen, waits, ron, hazards, rounds, levels[0])


# ------------------------------------------------------------------------------------- the others


@njit(cache=True, inline="always")
def _danger(observation, other, kind):
    """How likely `other`'s win is on `kind`, against a typical tile: a declarer's public waits are its only
    ones; otherwise the kind's unseen copies (a pair or single wait) and the sequences it would finish."""
    if observation.declared[other] == 1:
        return 1.0e6 if observation.waits[other, kind] == 1 else 0.0
    unseen = observation.unseen
    return float(max(unseen[kind], 0)) + 0.5 + chow_wait_ways(unseen, kind, kind - (kind - FIRST_KIND) % SUIT_SIZE)


@njit(cache=True, inline="always")
def _threat(observation, parameters, other):
    """The chance that `other`, still in, is ready now: 1 for a 报叫 declarer, else the share of the deal gone
    times `threat`, at most 1."""
    if observation.declared[other] == 1:
        return 1.0
    gone = 1.0 - wall_left(observation.table) / max(observation.rules.settings[WALL_TILES] - 13.0 * observation.n_seats - 1.0, 1.0)
    return min(1.0, max(0.0, gone) * parameters[THREAT])


@njit(cache=True)
def _deal_in_costs(observation, parameters, loss, declared_loss, out):
    """out[kind] = the expected cost of discarding `kind` now: for each other player still in, the chance it
    wins on it (ready, times the kind's share of its ways of waiting) times what that win costs."""
    for kind in range(N_KINDS):
        out[kind] = 0.0
    for other in range(observation.n_seats):
        if other == observation.seat or observation.won[other] != 0:
            continue
        threat = _threat(observation, parameters, other)
        total = 0.0
        for kind in range(FIRST_KIND, LAST_KIND + 1):
            total += _danger(observation, other, kind)
        total = max(total, 1.0)
        cost = declared_loss if observation.declared[other] == 1 else loss  # a declarer's win is ×16 (capped)
        for kind in range(FIRST_KIND, LAST_KIND + 1):
            share = _danger(observation, other, kind) / total
            if observation.declared[other] == 0:
                share = min(1.0, 2.0 * share)  # about two kinds a wait
            out[kind] += threat * share * cost


@njit(cache=True, inline="always")
def _declared_multiplier(rules):
    """报叫's ×16 on a declarer's win and on its discard that deals in, where the ruleset plays 报叫."""
    value = rules.fan_values[READY_HAND]
    return float(value) if value > 1 else 1.0


@njit(cache=True)
def _race_terms(observation, parameters):
    """The Race of this decision, from the table and the parameters."""
    rules, seat = observation.rules, observation.seat
    settings = rules.settings
    unseen = 0.0
    for kind in range(N_KINDS):
        unseen += max(observation.unseen[kind], 0)
    unseen = max(unseen, 1.0)
    others, hazard = 0.0, 0.0
    declared_others = 0.0
    for other in range(observation.n_seats):
        if other == seat or observation.won[other] != 0:
            continue
        others += 1.0
        threat = _threat(observation, parameters, other)
        hazard += threat
        declared_others += observation.declared[other]
    loss = parameters[OPPONENT_VALUE] if parameters[OPPONENT_VALUE] > 0 else TYPICAL_WIN
    cap = float(settings[CAP]) if settings[CAP] > 0 else 1.0e9
    declared_loss = min(cap, loss * _declared_multiplier(rules))
    waits = parameters[OPPONENT_WAITS] / unseen
    # per other player and round: its self-draw (which ev pays, at about twice a discard win) and its win
    # on one of the others' discards, each when it is ready
    mean_threat = hazard / others if others > 0 else 0.0
    self_draw = mean_threat * waits
    ron = mean_threat * (1.0 - (1.0 - parameters[RON_SHARE] * waits) ** max(others, 1.0))
    leave = min(0.9, self_draw + ron)
    self_loss = self_draw * min(cap, 2.0 * loss)
    forced = 0.0
    if others > 0:
        forced = min(1.0, others * mean_threat * waits * 2.0)  # a locked hand throws whatever it draws
    return Race(unseen, others, leave, self_loss, loss, parameters[RON_SHARE], parameters[OPPONENT_READY],
                declared_loss, forced)


# ------------------------------------------------------------------------------------- decisions


@njit(cache=True, inline="always")
def table_key(rules, n_seats):
    """The table of sim.players.ev_calibration whose curve calibrates ev's chances under these rules: fans
    multiplied (liangmen-xuezhan), else added at three seats or at two (sanren-liangfang)."""
    if rules.settings[COMBINE_MULTIPLY] != 0:
        return LIANGMEN
    return SANREN_THREE if n_seats >= 3 else SANREN_TWO


def calibration_table(ruleset, seats: int) -> int:
    """``table_key`` read from a ``Ruleset`` rather than its kernel arrays (a test keeps the two in step)."""
    if ruleset.combine == "multiply":
        return LIANGMEN
    return SANREN_THREE if seats >= 3 else SANREN_TWO


@njit(cache=True, inline="always")
def _my_rounds(observation, race):
    """The draws left to ev: the wall shared among the players still in."""
    return min(MAX_ROUNDS, int(wall_left(observation.table) // (race.others + 1.0)))


@njit(cache=True)
def _greedy_discard(hand, n_melds, unseen, rules, legal):
    """Greedy's discard among the legal DISCARD actions: the lowest shanten, then the most live improving
    tiles, terminals first."""
    suit = rules.suit_table
    best, best_shanten, best_live, best_order = NO_ACTION, 99, -1, 99
    for action in legal:
        if action // ACTION_BASE != DISCARD:
            continue
        kind = action % ACTION_BASE
        hand[kind] -= 1
        after = shanten(hand, n_melds, suit)
        live = -1
        if after <= best_shanten:
            live = ukeire(hand, n_melds, unseen, suit)[1]
        hand[kind] += 1
        rank = (kind - FIRST_KIND) % SUIT_SIZE
        order = min(rank, SUIT_SIZE - 1 - rank)
        if after < best_shanten or (after == best_shanten and (live > best_live or (live == best_live and order < best_order))):
            best, best_shanten, best_live, best_order = action, after, live, order
    return best


@njit(cache=True, inline="always")
def _fan_multiplier(rules, fan):
    """What the fan multiplies a win by under these rules: its value where fans multiply, 2^value where they
    add; 1 where the ruleset lacks it."""
    value = rules.fan_values[fan]
    if value <= 0:
        return 1.0
    return float(value) if rules.settings[COMBINE_MULTIPLY] != 0 else 2.0 ** value


@njit(cache=True)
def _plans(hand, n_melds, melds, unseen, rules, parameters, race, rounds, levels, restricted, live):
    """(the best of the value plans of a hand of 3k+1 tiles too far from ready for the search, its chance of
    winning): each plan's walk (sim.players.win_race.far_chance) times what its pattern multiplies a win by. A
    flush (清一色) in a suit that all its melds are in: the hand less the other suit's tiles, improved only by
    that suit's live copies; seven pairs (七对, no melds): a pair for each single's live copies."""
    best, best_chance = 0.0, 0.0
    flush = _fan_multiplier(rules, FULL_FLUSH)
    for start in (FIRST_KIND, FIRST_KIND + SUIT_SIZE):
        allowed = True
        for index in range(n_melds):
            if not start <= melds[index, 1] < start + SUIT_SIZE:
                allowed = False
        if not allowed or flush <= 1.0:
            continue
        for kind in range(N_KINDS):
            inside = start <= kind < start + SUIT_SIZE
            restricted[kind] = hand[kind] if inside else 0
            live[kind] = unseen[kind] if inside else 0
        chance = _far_chance(restricted, n_melds, live, rules, parameters, race, rounds, levels)
        if chance * flush > best:
            best, best_chance = chance * flush, chance
    pairs_value = _fan_multiplier(rules, SEVEN_PAIRS)
    if n_melds == 0 and pairs_value > 1.0:
        pairs, singles, useful = 0, 0, 0.0
        for kind in range(FIRST_KIND, LAST_KIND + 1):
            pairs += hand[kind] >> 1
            singles += hand[kind] & 1
            if hand[kind] & 1:
                useful += max(unseen[kind], 0)
        distance = _seven_pairs_from_tally(pairs, singles) - 1
        waits = parameters[OPPONENT_WAITS] / race.unseen
        ron = 1.0 - (1.0 - race.ron_share * waits) ** max(race.others, 0.0)
        hazards = levels[1]
        for left in range(rounds + 1):
            hazards[left] = _ending(race, race.others)
        chance = far_chance(distance, useful / race.unseen, waits / 3.0, ron / 3.0, hazards, rounds, levels[0])
        if chance * pairs_value > best:
            best, best_chance = chance * pairs_value, chance
    return best, best_chance


@njit(cache=True)
def _far_discard(hand, n_melds, melds, unseen, rules, parameters, race, rounds, legal, levels, restricted, live):
    """(the discard, its chance of winning, its worth) of a hand too far from ready for the search: greedy's,
    unless a value plan (``_plans``) of another discard is worth more than greedy's hand, its chance times
    1. The worth is a chance times what the plan's pattern multiplies a win by (so only worths compare)."""
    greedy = _greedy_discard(hand, n_melds, unseen, rules, legal)
    if greedy == NO_ACTION:
        return NO_ACTION, 0.0, 0.0
    kind = greedy % ACTION_BASE
    hand[kind] -= 1
    best_chance = _far_chance(hand, n_melds, unseen, rules, parameters, race, rounds, levels)
    hand[kind] += 1
    best, best_worth = greedy, best_chance
    for action in legal:
        if action // ACTION_BASE != DISCARD:
            continue
        kind = action % ACTION_BASE
        hand[kind] -= 1
        worth, chance = _plans(hand, n_melds, melds, unseen, rules, parameters, race, rounds, levels, restricted, live)
        hand[kind] += 1
        if worth > best_worth + 1e-12:
            best, best_worth, best_chance = action, worth, chance
    return best, best_chance, best_worth


@njit(cache=True, inline="always")
def _concealed_multiplier(n_melds, melds, rules):
    """What 门清 multiplies the hand's win by while it has no pong or exposed kong (1 once it has one)."""
    for index in range(n_melds):
        if melds[index, 0] != MELD_CONCEALED_KONG:
            return 1.0
    return _fan_multiplier(rules, CONCEALED_HAND)


@njit(cache=True)
def _far_worth(hand, n_melds, melds, unseen, rules, parameters, race, rounds, levels, restricted, live):
    """The worth (``_far_discard``) of a hand of 3k+1 tiles too far from ready: its walk or its best value
    plan, times 门清 while it is concealed."""
    worth = _far_chance(hand, n_melds, unseen, rules, parameters, race, rounds, levels)
    planned, _ = _plans(hand, n_melds, melds, unseen, rules, parameters, race, rounds, levels, restricted, live)
    return max(worth, planned) * _concealed_multiplier(n_melds, melds, rules)


@njit(cache=True)
def _best_discard(hand, n_melds, melds, unseen, rules, work, parameters, flags, kong_units, void, race, rounds,
                  legal, deal_in, rates, steps, levels, scratch):
    """(action, EV, P(win), estimate) of the best discard among the legal DISCARD actions: by EV among those
    the search reaches (ready, or one tile from it at depth 1: a ready hand worth little competes with one a
    tile from a better one); greedy's where every discard leaves the hand too far for the search, its
    chance then from the walk, unless a value plan is worth more (``_far_discard``). `estimate`: which of
    sim.players.ev_calibration.ESTIMATES made the chance. `scratch`: int64 (2, 34) work rows."""
    suit = rules.suit_table
    depth = int(parameters[DEPTH])
    lowest = 99
    for action in legal:
        if action // ACTION_BASE == DISCARD:
            kind = action % ACTION_BASE
            hand[kind] -= 1
            lowest = min(lowest, shanten(hand, n_melds, suit))
            hand[kind] += 1
    best, best_ev, best_win, estimate = NO_ACTION, NONE, 0.0, WALK_FROM_FAR
    if lowest <= depth:
        for action in legal:
            if action // ACTION_BASE != DISCARD:
                continue
            kind = action % ACTION_BASE
            hand[kind] -= 1
            ev, win = NONE, 0.0
            distance = shanten(hand, n_melds, suit)
            if distance <= depth:
                ev, win = _hand_ev(hand, n_melds, melds, unseen, rules, work, flags, kong_units, void, race, rounds,
                                   rates, steps, depth)
            hand[kind] += 1
            if ev == NONE:
                continue
            ev -= deal_in[kind]
            if ev > best_ev + 1e-9:
                best, best_ev, best_win, estimate = action, ev, win, distance
    if best == NO_ACTION:
        if _holds_suit(hand, void):  # 定缺: the void suit's tiles go first, as greedy throws them; no win yet
            return _greedy_discard(hand, n_melds, unseen, rules, legal), NONE, 0.0, WALK_FROM_FAR
        best, best_win, _ = _far_discard(hand, n_melds, melds, unseen, rules, parameters, race, rounds, legal, levels,
                                         scratch[0], scratch[1])
    return best, best_ev, best_win, estimate


@njit(cache=True, inline="always")
def _kong_money(observation, code, kind, others):
    """What a kong brings at once: each other player still in pays (the discarder of an exposed kong more);
    an added kong on a pong taken when the kong was possible (003's 过手杠) brings nothing."""
    settings = observation.rules.settings
    if code == CONCEALED_KONG:
        return settings[CONCEALED_OTHERS] * others
    if code == ADDED_KONG:
        if settings[PASSED_KONG_PAYS] == 0 and (observation.table[PASSED_KONG + observation.seat] >> kind) & 1:
            return 0.0
        return settings[ADDED_OTHERS] * others
    return settings[EXPOSED_DISCARDER] + settings[EXPOSED_OTHERS] * max(others - 1.0, 0.0)


@njit(cache=True, inline="always")
def _kong_ev(observation, work, melds, code, kind, kong_units, void, race, rounds, rates, steps, depth):
    """(EV of the hand after the kong, before its replacement draw, with the kong's money; the shanten after
    it) of a kong of `kind`: concealed or added from a hand of 3k+2, exposed (a discard's) from 3k+1."""
    hand, rules = observation.hand, observation.rules
    n_melds = observation.n_melds
    removed = 4 if code == CONCEALED_KONG else (1 if code == ADDED_KONG else 3)
    after_melds = n_melds if code == ADDED_KONG else n_melds + 1
    money = _kong_money(observation, code, kind, race.others)
    saved_code, saved_kind = melds[n_melds, 0], melds[n_melds, 1]
    index = n_melds
    if code == ADDED_KONG:
        for meld in range(n_melds):
            if melds[meld, 1] == kind and melds[meld, 0] == MELD_PONG:
                index = meld
        saved_code, saved_kind = melds[index, 0], melds[index, 1]
    melds[index, 0] = MELD_CONCEALED_KONG if code == CONCEALED_KONG else MELD_KONG
    melds[index, 1] = kind
    hand[kind] -= removed
    distance = shanten(hand, after_melds, rules.suit_table)
    ev, _ = _hand_ev(hand, after_melds, melds, observation.unseen, rules, work, 0, kong_units + money, void, race,
                     rounds, rates, steps, depth)
    hand[kind] += removed
    melds[index, 0], melds[index, 1] = saved_code, saved_kind
    return (ev + money if ev != NONE else NONE), distance, money


@njit(cache=True, inline="always")
def _turn(observation, parameters, race, melds, deal_in, rates, steps, levels, scratch):
    """The turn's action (the win was decided before); with a discard, ev's chance of winning goes to
    observation.win_chance."""
    hand, rules, work, table, seat = observation.hand, observation.rules, observation.work, observation.table, observation.seat
    n_melds = observation.n_melds
    void = observation.voids[seat]
    kong_units = float(table[KONG_UNITS + seat])
    rounds = _my_rounds(observation, race)
    depth, mode, table_index = int(parameters[DEPTH]), int(parameters[REPORT]), table_key(rules, observation.n_seats)
    declared = observation.declared[seat] == 1
    if declared:  # the hand is locked: a kong that keeps the waits, else the tile it drew goes
        for action in observation.legal:
            code = action // ACTION_BASE
            if code == CONCEALED_KONG or code == ADDED_KONG:
                return action
        discard = legal_action_of(observation.legal, DISCARD)
        kind = discard % ACTION_BASE
        hand[kind] -= 1
        _, chance = _ready_ev(hand, n_melds, melds, observation.unseen, rules, work.fan_counts, READY_FLAG,
                              kong_units, race, rounds, rates)
        hand[kind] += 1
        observation.win_chance[0] = report(chance, 0, table_index, mode)
        return discard
    discard, best_ev, chance, estimate = _best_discard(hand, n_melds, melds, observation.unseen, rules, work,
                                                       parameters, 0, kong_units, void, race, rounds, observation.legal,
                                                       deal_in, rates, steps, levels, scratch)
    now = shanten(hand, n_melds, rules.suit_table)
    for action in observation.legal:
        code, kind = action // ACTION_BASE, action % ACTION_BASE
        if code != CONCEALED_KONG and code != ADDED_KONG:
            continue
        kong_ev, distance, money = _kong_ev(observation, work, melds, code, kind, kong_units, void, race, rounds,
                                            rates, steps, depth)
        if kong_ev != NONE and best_ev != NONE:
            if kong_ev >= best_ev:
                return action
        elif distance <= now and money > 0:  # too far for the search: greedy's rule, a kong that keeps the shanten
            return action
    if parameters[DECLARE] != 0 and best_ev != NONE and discard != NO_ACTION:
        kind = discard % ACTION_BASE
        declare = legal_action(observation.legal, DISCARD_READY, kind)
        if declare != NO_ACTION:  # the dealer's 报叫, with its first discard
            hand[kind] -= 1
            declared_ev, declared_chance = _ready_ev(hand, n_melds, melds, observation.unseen, rules, work.fan_counts,
                                                     READY_FLAG, kong_units, race, rounds, rates)
            hand[kind] += 1
            if declared_ev - deal_in[kind] >= best_ev:
                observation.win_chance[0] = report(declared_chance, 0, table_index, mode)
                return declare
    if discard == NO_ACTION:
        return observation.legal[0]
    observation.win_chance[0] = report(chance, estimate, table_index, mode)
    return discard


@njit(cache=True, inline="always")
def _claim(observation, parameters, race, melds, deal_in, rates, steps, levels, scratch):
    """Pass, or the pong or kong of the discard whose hand is worth more than the hand kept."""
    hand, rules, work, table, seat = observation.hand, observation.rules, observation.work, observation.table, observation.seat
    n_melds = observation.n_melds
    offer = observation.tile
    void = observation.voids[seat]
    kong_units = float(table[KONG_UNITS + seat])
    passing = legal_action_of(observation.legal, PASS)
    if parameters[CLAIM] == 0:
        return passing
    rounds = _my_rounds(observation, race)
    depth = int(parameters[DEPTH])
    keep_ev, _ = _hand_ev(hand, n_melds, melds, observation.unseen, rules, work, 0, kong_units, void, race, rounds,
                          rates, steps, depth)
    now = shanten(hand, n_melds, rules.suit_table)
    chosen, best_ev, best_shanten = passing, keep_ev, now
    keep_worth = -1.0  # the kept hand's worth, when it is too far for the search (``_far_worth``)
    for action in observation.legal:
        code = action // ACTION_BASE
        worth = -1.0
        if code == KONG:
            ev, distance, money = _kong_ev(observation, work, melds, KONG, offer, kong_units, void, race, rounds,
                                           rates, steps, depth)
        elif code == PONG:
            melds[n_melds, 0], melds[n_melds, 1] = MELD_PONG, offer
            hand[offer] -= 2
            pong_action, ev, _, _ = _best_discard(hand, n_melds + 1, melds, observation.unseen, rules, work,
                                                  parameters, 0, kong_units, void, race, rounds, _discards(hand, work),
                                                  deal_in, rates, steps, levels, scratch)
            distance = 99
            if pong_action != NO_ACTION:
                kind = pong_action % ACTION_BASE
                hand[kind] -= 1
                distance = shanten(hand, n_melds + 1, rules.suit_table)
                hand[kind] += 1
            if ev == NONE and keep_ev == NONE and not _holds_suit(hand, void):
                _, _, worth = _far_discard(hand, n_melds + 1, melds, observation.unseen, rules, parameters, race,
                                           rounds, _discards(hand, work), levels, scratch[0], scratch[1])
            hand[offer] += 2
        else:
            continue
        if ev != NONE and best_ev != NONE:
            if ev > best_ev + 1e-9:
                chosen, best_ev, best_shanten = action, ev, distance
        elif worth >= 0.0:  # both too far for the search: the pong's worth against the hand kept, 门清 and all
            if keep_worth < 0.0:
                keep_worth = _far_worth(hand, n_melds, melds, observation.unseen, rules, parameters, race, rounds,
                                        levels, scratch[0], scratch[1])
            if worth > keep_worth and chosen == passing:
                chosen, best_shanten = action, distance
        elif distance < best_shanten or (code == KONG and distance <= best_shanten):
            chosen, best_shanten = action, distance  # too far for the search: greedy's rule
            if ev != NONE:
                best_ev = ev
    return chosen


@njit(cache=True, inline="always")
def _discards(hand, work):
    """The DISCARD actions of every kind the hand holds, in work.distances (a claim's hand, which the table
    has not listed yet)."""
    count = 0
    for kind in range(FIRST_KIND, LAST_KIND + 1):
        if hand[kind] > 0:
            work.distances[count] = DISCARD * ACTION_BASE + kind
            count += 1
    return work.distances[:count]


@njit(cache=True, inline="always")
def _take_win(observation, parameters, race, melds, rates):
    """Whether to win on the tile on offer (a discard or a robbed kong) rather than pass it to wait for a
    self-draw that every player still in pays: the win now against the race after passing, where 过水胡
    bars wins on discards until ev's next draw and 漏胡 bars them on the same waits for good."""
    if parameters[PASS_WINS] == 0 or observation.decision == DECISION_TURN:
        return True
    rules, seat, table = observation.rules, observation.seat, observation.table
    settings = rules.settings
    hand = observation.hand
    kong_units = float(table[KONG_UNITS + seat])
    now = _payment(observation.win_value, False, kong_units, settings)
    payer = table[OFFERED_BY]
    if settings[COMBINE_MULTIPLY] != 0 and 0 <= payer < observation.n_seats and observation.declared[payer] == 1:
        multiplier = _declared_multiplier(rules)  # a declarer that deals in pays ×16
        now = min(float(settings[CAP]) if settings[CAP] > 0 else 1.0e9, now * multiplier)
    flags = READY_FLAG if observation.declared[seat] == 1 else 0
    _waits(hand, observation.n_melds, melds, observation.unseen, rules, observation.work.fan_counts, flags,
           kong_units, rates)
    ron_from = MAX_ROUNDS if settings[MISSED_WIN_LOCK] != 0 else 1
    later, _ = _ready_race(rates, race, _my_rounds(observation, race), ron_from, flags != 0)
    return now >= later


@njit(cache=True, inline="always")
def _shorter_suit(observation):
    """The legal action (a void suit, a tile to give) of the suit the hand holds fewest of."""
    chosen, fewest = observation.legal[0], 99
    for action in observation.legal:
        kind = action % ACTION_BASE
        start = kind - (kind - FIRST_KIND) % SUIT_SIZE
        held = 0
        for other in range(start, start + SUIT_SIZE):
            held += observation.hand[other]
        if held < fewest:
            chosen, fewest = action, held
    return chosen


# The engine's loop runs without reference counting, which its callees inherit; this function allocates its
# work arrays (and the fan evaluator allocates its own), so it runs with reference counting on.
@numba_player(ranges=RANGES, **DEFAULTS)
@njit(cache=True, _nrt=True)
def act(observation, parameters, rng):
    seat = observation.seat
    decision = observation.decision
    if decision == DECISION_VOID or decision == DECISION_EXCHANGE:
        return _shorter_suit(observation), rng
    rates, steps = np.zeros(5), np.zeros((N_KINDS, 6))
    deal_in, levels = np.zeros(N_KINDS), np.zeros((2, max(MAX_LEVELS, MAX_ROUNDS + 1)))
    scratch = np.zeros((2, N_KINDS), np.int64)  # a hand's tiles of one suit, and its live copies
    melds = np.empty((4, 2), np.int8)  # the seat's melds, copied: a claim or kong is tried by changing them
    for index in range(4):
        melds[index, 0], melds[index, 1] = observation.melds[seat, index, 0], observation.melds[seat, index, 1]
    race = _race_terms(observation, parameters)
    win = legal_action_of(observation.legal, WIN)
    if win != NO_ACTION and _take_win(observation, parameters, race, melds, rates):
        return win, rng
    if decision == DECISION_OPENING_READY:
        declare = legal_action_of(observation.legal, DECLARE_READY)
        if declare != NO_ACTION and parameters[DECLARE] != 0:
            hand, rules, work = observation.hand, observation.rules, observation.work
            kong_units = float(observation.table[KONG_UNITS + seat])
            rounds = _my_rounds(observation, race)
            plain, _ = _ready_ev(hand, observation.n_melds, melds, observation.unseen, rules, work.fan_counts, 0,
                                 kong_units, race, rounds, rates)
            declared, _ = _ready_ev(hand, observation.n_melds, melds, observation.unseen, rules, work.fan_counts,
                                    READY_FLAG, kong_units, race, rounds, rates)
            if declared >= plain:
                return declare, rng
        return legal_action_of(observation.legal, PASS), rng
    cap = float(observation.rules.settings[CAP]) if observation.rules.settings[CAP] > 0 else 1.0e9
    _deal_in_costs(observation, parameters, race.loss, min(cap, race.loss * _declared_multiplier(observation.rules)),
                   deal_in)
    if decision == DECISION_TURN:
        return _turn(observation, parameters, race, melds, deal_in, rates, steps, levels, scratch), rng
    if decision == DECISION_CLAIM:
        return _claim(observation, parameters, race, melds, deal_in, rates, steps, levels, scratch), rng
    if win != NO_ACTION and decision == DECISION_ROB:
        return legal_action_of(observation.legal, PASS), rng  # a robbed kong's win let pass
    passing = legal_action_of(observation.legal, PASS)
    return (passing if passing != NO_ACTION else observation.legal[0]), rng


# The engine's loop for tables whose only numba player is ev (ev against built-in heuristics or itself),
# compiled once and cached: the loop that takes any numba function is compiled in every process.
_ACT = act.act


@njit(cache=True, _nrt=False)
def _play_deals_with_ev(functions, user_parameters, asks_python, seed, first_deal, n, session_length, template, rules,
                        kinds, parameters, state, work, view, validate, records, fans, events, wall, status, chances,
                        log):
    no_player = engine.no_numba_player
    engine._deals_asking(_ACT, no_player, no_player, no_player, functions, user_parameters, asks_python, seed,
                         first_deal, n, session_length, template, rules, kinds, parameters, state, work, view, validate,
                         records, fans, events, wall, status, chances, log)


engine.CACHED_NUMBA_LOOPS[(_ACT, engine.no_numba_player, engine.no_numba_player, engine.no_numba_player)] = _play_deals_with_ev

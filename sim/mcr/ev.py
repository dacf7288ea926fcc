"""``ev`` at the MCR table: the 国标 family's expected-value player, a numba player (sim.players.numba_players)
seated by name like the heuristics.

It plays on the public numba player interface only (``sim.mcr.observation.NumbaObservation``) and scores each
choice by its expected points, as the ruleset pays them (sim.mcr.money): with F its win's fan total and
flowers, a win on a discard brings base + F from the discarder and base from each of the two others, a
self-draw base + F from each of the three; another seat's win costs ev base, base + F when ev dealt it in
or when it is self-drawn. A deal has one winner (截和), so the rest of the deal is a race, as in the 二人
family (sim.players.win_race), against three opponents at once:

- **Its wins.** A round is the three others' turns (ev may win on each of their discards, at `ron_share`
  of a wait tile they draw) and then ev's draw. A ready hand's race is walked backwards from the end of the
  deal; a hand one tile from ready is looked at one draw ahead, exactly (each live tile that makes it ready,
  ev's best discard then, and that ready hand's race in the rounds left). Every wait is valued by the
  ruleset's own evaluator (``sim.mcr.numba_helpers.mcr_win_fans``: the fan values of the ruleset's arrays,
  the seat and round winds), and a wait whose win stays below the ruleset's minimum (起和, ``min_fan``) is
  worth nothing: it cannot win. So ev breaks a ready hand that may not win for one a tile away that may.
- **The others.** Each opponent's hand is a walk (sim.players.win_race.opponent_hazards): it starts the
  deal ``opponent_start`` useful draws from ready (the minimum fan makes a ready hand not yet a winning
  one), moves a step closer with each draw at ``opponent_ukeire`` live copies among those unseen, less a
  step for each meld it has shown, and once ready wins in a round with ``opponent_waits`` copies each on its
  own draw and the others' discards, times ``threat``. The race ends in a round when any of the three wins.
- **Dealing in.** A discard risks each opponent's win at once: its chance to be ready now times the tile's
  share of the ways of waiting (its unseen copies and the chows it would finish), which costs base + F.

Hands further from ready than the search looks are played as greedy plays them (the lowest shanten, then the
most live improving tiles). Decisions: a win whenever the table allows one (the engine offers it only at the
minimum); a discard by EV among those of the lowest shanten and, when that is ready, those one step slower;
a chow, pong or kong of a discard when the hand after it (and its best discard) is worth more than the hand
kept, or, when both are too far for the search, when it brings the hand closer to ready; a concealed or added
kong that keeps the shanten. With each discard it reports its chance of winning the deal
(sim.core.win_chances), calibrated by sim.players.ev_calibration. Parameters (``ev:key=value,...``): ``claim``
(0 never claims a discard), ``ron_share``, ``threat``, ``opponent_waits``, ``opponent_value`` (the fans and
flowers of another's win; 0: one and a half times the ruleset's minimum), ``opponent_start``,
``opponent_ukeire``, ``depth`` (0: only ready hands are searched; 1) and ``report`` (1: the calibrated chance;
0: the search's own; 2: coded for ``mjsim calibrate-ev``). See docs/engine-and-players.md#at-the-mcr-table.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from kernels.fan_ids import ROUND_WIND_SHIFT, SEAT_WIND_SHIFT, SELF_DRAWN_FLAG
from kernels.shanten import _distances_after_discard, _ukeire_one
from kernels.tiles import HONOR_START, MELD_CHOW, MELD_KONG, MELD_PONG, N_KINDS, SUIT_SIZE
from sim.core.actions import (
    ACTION_BASE,
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DECISION_CLAIM,
    DECISION_TURN,
    DISCARD,
    KONG,
    PASS,
    PONG,
    WIN,
)
from sim.mcr.numba_helpers import mcr_win_fans
from sim.mcr.table import BASE, FLOWERS, MIN_FAN, N_MELDS, SEATS, wall_left
from sim.mcr.win_value import NOT_A_WIN
from sim.players.ev_calibration import WALK_FROM_FAR, report, table_named
from sim.players.numba_players import legal_action, legal_action_of, numba_player
from sim.players.wait_ways import chow_wait_ways
from sim.players.win_race import MAX_LEVELS, far_chance, opponent_hazards, ready_race_table

DEFAULTS = {"claim": 1.0, "ron_share": 0.5, "threat": 1.0, "opponent_waits": 5.0, "opponent_value": 0.0,
            "opponent_start": 3.0, "opponent_ukeire": 18.0, "depth": 1.0, "report": 1.0}
RANGES = {"ron_share": (0.0, 1.0), "depth": (0.0, 1.0), "opponent_start": (0.0, 8.0), "report": (0.0, 2.0)}
CLAIM, RON_SHARE, THREAT, OPPONENT_WAITS, OPPONENT_VALUE, OPPONENT_START, OPPONENT_UKEIRE, DEPTH, REPORT = range(9)
TYPICAL_OVER_MINIMUM = 1.5  # opponent_value = 0: another's win is worth this many times the ruleset's minimum
NONE = -1.0e18  # no evaluation (a hand further from ready than the search looks)
NO_ACTION = -1
OTHERS = SEATS - 1
MAX_ROUNDS = 40  # rounds left to a seat, at most: 144 tiles less the 53 dealt, four draws a round, and replacements

# the fitted table of sim.players.ev_calibration that calibrates this family's ev
MCR = table_named("mcr")


class Search(NamedTuple):
    """The work arrays of one decision's search, allocated by ``act``."""

    rates: np.ndarray  # float64 (4,): a ready hand's waits (_waits)
    best_rates: np.ndarray  # float64 (4,): the best of them after a draw (_one_away_table)
    hazards: np.ndarray  # float64 (MAX_ROUNDS + 1,): the chance another seat wins in the round with h rounds left
    opponent: np.ndarray  # float64 (MAX_ROUNDS + 1,): one opponent's hazards, while they are combined
    ready: np.ndarray  # float64 (2, MAX_ROUNDS + 1): a ready hand: (EV, P(win)) by rounds left
    gathered: np.ndarray  # float64 (2, MAX_ROUNDS + 1): the ready hands a draw may make, summed by rounds left
    horizon: np.ndarray  # float64 (2, MAX_ROUNDS + 1): a hand one tile from ready: (EV, P(win)) by rounds left
    distances: np.ndarray  # int64 (34,): the shanten after each discard (plus one) at the top of the search
    inner: np.ndarray  # int64 (34,): the same, after a draw one step ahead (_one_away_table)
    levels: np.ndarray  # float64 (MAX_LEVELS,): the walks' levels
    ready_now: np.ndarray  # float64 (3,): the chance each opponent (in turn order after ev) is ready now


class Race(NamedTuple):
    """The terms of the rest of the deal, the same for every hand ev weighs at one decision."""

    unseen: float  # copies ev cannot see
    loss: float  # what another seat's win not dealt in by ev costs ev, on average
    deal_in_loss: float  # what ev pays when its discard deals another seat in
    ron_rate: float  # the chance one of ev's live wait copies comes as a discard in a round, per copy
    base: float  # the ruleset's base: every payer pays it
    flowers: float  # ev's flowers, added to its fans when it wins


# ------------------------------------------------------------------------------------- values
# The search's kernels take plain arrays and are compiled once each (not inlined into the player): the fan
# evaluator they hold is large.


@njit(cache=True, _nrt=False)
def _score(hand, melds, n_melds, tile, flags, rules, work):
    """The fan total (flowers aside) of the win on `tile`, NOT_A_WIN if the hand is not complete."""
    return mcr_win_fans(hand, melds, n_melds, tile, flags, rules, work)


@njit(cache=True, inline="always", _nrt=False)
def _may_join(hand, kind):
    """A drawn `kind` can complete a hand the search reaches only beside a tile of its own kind or, in a
    suit, within two ranks (the search steers by sets and pairs, not by knitted tiles)."""
    if hand[kind] > 0:
        return True
    if kind >= HONOR_START:
        return False
    rank = kind % SUIT_SIZE
    start = kind - rank
    for near in range(max(0, rank - 2), min(SUIT_SIZE, rank + 3)):
        if hand[start + near] > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def _waits(hand, n_melds, melds, unseen, rules, work, winds, race, rates):
    """Of the ready hand of 3k+1 tiles: rates = (live copies winning self-drawn, their summed points, live
    copies winning on a discard, their summed points), counting only wins that reach the ruleset's minimum.
    A self-draw brings base + F from each of the three others; a discard base + F from the discarder and
    base from the two others (F: the fans and ev's flowers)."""
    minimum = rules.settings[MIN_FAN]
    self_copies, self_value, ron_copies, ron_value = 0.0, 0.0, 0.0, 0.0
    for kind in range(N_KINDS):
        live = unseen[kind]
        if live <= 0 or hand[kind] >= 4 or not _may_join(hand, kind):
            continue
        total = _score(hand, melds, n_melds, kind, winds | SELF_DRAWN_FLAG, rules, work)
        if total == NOT_A_WIN:
            continue
        if total >= minimum:
            self_copies += live
            self_value += live * OTHERS * (race.base + total + race.flowers)
        total = _score(hand, melds, n_melds, kind, winds, rules, work)
        if total != NOT_A_WIN and total >= minimum:
            ron_copies += live
            ron_value += live * (OTHERS * race.base + total + race.flowers)
    rates[0], rates[1], rates[2], rates[3] = self_copies, self_value, ron_copies, ron_value


@njit(cache=True, _nrt=False)
def _ready_table(rates, race, rounds, search, out):
    """out[0, h], out[1, h] for h = 0 .. rounds: (EV, P(win)) of the ready hand with `rates` (_waits) and h
    rounds left, against the others' hazards (search.hazards): in a round, one of the three others' discards
    may be a wait (each copy at race.ron_rate), then ev draws."""
    self_rate = rates[0] / race.unseen
    self_value = rates[1] / rates[0] if rates[0] > 0 else 0.0
    ron_rate = min(1.0, rates[2] * race.ron_rate)
    ron_value = rates[3] / rates[2] if rates[2] > 0 else 0.0
    ready_race_table(self_rate, self_value, ron_rate, ron_value, search.hazards, race.loss, rounds, out)


@njit(cache=True, _nrt=False)
def _ready_ev(hand, n_melds, melds, unseen, rules, work, winds, race, rounds, search):
    """(EV, P(win)) of the ready hand; search.rates keeps its waits."""
    _waits(hand, n_melds, melds, unseen, rules, work, winds, race, search.rates)
    _ready_table(search.rates, race, rounds, search, search.ready)
    return search.ready[0, rounds], search.ready[1, rounds]


@njit(cache=True, _nrt=False)
def _one_away_table(hand, n_melds, melds, unseen, rules, work, winds, race, rounds, search, out):
    """out[0, h], out[1, h] for h = 0 .. rounds: (EV, P(win)) of a hand of 3k+1 tiles one tile from ready
    with h rounds left: each live tile that makes it ready, with the best discard after it, then that ready
    hand's race in the rounds left. Walked backwards: with h rounds left, the round ends with the others'
    hazard, else ev's draw makes the hand ready with chance `reach`."""
    after, rates, ready, gathered, hazards = search.inner, search.rates, search.ready, search.gathered, search.hazards
    best_rates = search.best_rates
    reach = 0.0
    for left in range(rounds + 1):
        gathered[0, left], gathered[1, left] = 0.0, 0.0
    for kind in range(N_KINDS):
        live = unseen[kind]
        if live <= 0 or hand[kind] >= 4 or not _may_join(hand, kind):
            continue
        hand[kind] += 1
        _distances_after_discard(hand, n_melds, rules.suit_table, rules.honour_table, work.shanten_scratch, after)
        best_worth = NONE
        for discard in range(N_KINDS):
            if after[discard] != 1:  # distance 1: ready after this discard
                continue
            hand[discard] -= 1
            _waits(hand, n_melds, melds, unseen, rules, work, winds, race, rates)
            hand[discard] += 1
            if rates[0] + rates[2] == 0:  # a ready hand that may not win
                continue
            _ready_table(rates, race, max(rounds - 1, 0), search, ready)
            if ready[0, max(rounds - 1, 0)] > best_worth:
                best_worth = ready[0, max(rounds - 1, 0)]
                for index in range(4):
                    best_rates[index] = rates[index]
        hand[kind] -= 1
        if best_worth == NONE:
            continue
        share = live / race.unseen
        reach += share
        _ready_table(best_rates, race, max(rounds - 1, 0), search, ready)
        for left in range(rounds):
            gathered[0, left] += share * ready[0, left]
            gathered[1, left] += share * ready[1, left]
    out[0, 0], out[1, 0] = 0.0, 0.0
    for left in range(1, rounds + 1):
        hazard = hazards[left]
        out[0, left] = -hazard * race.loss + (1.0 - hazard) * (gathered[0, left - 1] + (1.0 - reach) * out[0, left - 1])
        out[1, left] = (1.0 - hazard) * (gathered[1, left - 1] + (1.0 - reach) * out[1, left - 1])


@njit(cache=True, _nrt=False)
def _hand_ev(hand, n_melds, melds, unseen, rules, work, winds, race, rounds, search, depth):
    """(EV, P(win)) of the hand of 3k+1 tiles: exact when ready, one draw ahead when a tile from it (at
    depth 1), NONE beyond."""
    distance, _ = _ukeire_one(hand, n_melds, unseen, rules.suit_table, rules.honour_table, work.shanten_scratch,
                              work.distances)
    if distance == 1:
        return _ready_ev(hand, n_melds, melds, unseen, rules, work, winds, race, rounds, search)
    if distance == 2 and depth >= 1:
        _one_away_table(hand, n_melds, melds, unseen, rules, work, winds, race, rounds, search, search.horizon)
        return search.horizon[0, rounds], search.horizon[1, rounds]
    return NONE, 0.0


# ------------------------------------------------------------------------------------- the others


@njit(cache=True, inline="always")
def _danger(unseen, kind):
    """An opponent's ways of waiting on `kind`: its unseen copies (a pair or a single wait) and, for a suit
    tile, the chows it would finish whose other tiles are unseen."""
    danger = float(max(unseen[kind], 0)) + 0.5
    if kind < HONOR_START:
        danger += chow_wait_ways(unseen, kind, kind - kind % SUIT_SIZE)
    return danger


@njit(cache=True, inline="always")
def _deal_in_chances(observation, search, out):
    """out[kind] = the chance that discarding `kind` now hands one of the others its win: for each, the
    chance it is ready (search.ready_now) times the kind's share of the ways of waiting (about two kinds a
    wait)."""
    total = 0.0
    for kind in range(N_KINDS):
        out[kind] = _danger(observation.unseen, kind) if observation.unseen[kind] + observation.hand[kind] > 0 else 0.0
        total += out[kind]
    total = max(total, 1.0)
    for kind in range(N_KINDS):
        share = min(1.0, 2.0 * out[kind] / total)
        safe = 1.0
        for other in range(OTHERS):
            safe *= 1.0 - search.ready_now[other] * share
        out[kind] = 1.0 - safe


@njit(cache=True, inline="always")
def _race_terms(observation, parameters, search):
    """The Race of this decision, and search.hazards: the chance that one of the three others wins in each
    round left, each a walk (sim.players.win_race.opponent_hazards) from `opponent_start` useful draws from
    ready at the deal, less one for each meld it has shown, a step closer with a chance of
    `opponent_ukeire` live copies among those unseen at each draw, and once ready a win in a round, on its
    own draw or one of the three others' discards, each with `opponent_waits` of the copies unseen, times
    `threat`; it has played a round for each of its discards. search.ready_now: each one's chance to be
    ready now."""
    table, seat, rules = observation.table, observation.seat, observation.rules
    unseen_total = 0.0
    for kind in range(N_KINDS):
        unseen_total += max(observation.unseen[kind], 0)
    unseen_total = max(unseen_total, 1.0)
    waits = parameters[OPPONENT_WAITS] / unseen_total
    win_rate = min(0.9, (1.0 + OTHERS * parameters[RON_SHARE]) * waits * parameters[THREAT])
    advance = min(0.9, parameters[OPPONENT_UKEIRE] / unseen_total)
    rounds = _my_rounds(observation, False)
    hazards, opponent = search.hazards, search.opponent
    for left in range(MAX_ROUNDS + 1):
        hazards[left] = 0.0
    for index in range(OTHERS):
        other = (seat + 1 + index) % SEATS
        played = 0
        for kind in range(N_KINDS):
            played += observation.discards[other, kind]
        start = max(0.0, parameters[OPPONENT_START] - table[N_MELDS + other])
        search.ready_now[index] = opponent_hazards(start, advance, win_rate, played, rounds, search.levels, opponent)
        for left in range(1, rounds + 1):  # the round ends if any of them wins: 1 - the product of their misses
            hazards[left] = 1.0 - (1.0 - hazards[left]) * (1.0 - opponent[left])
    base = float(rules.settings[BASE])
    typical = parameters[OPPONENT_VALUE]
    if typical <= 0:
        typical = TYPICAL_OVER_MINIMUM * rules.settings[MIN_FAN]
    # another's win not on ev's discard: on its own draw (ev pays base + F) or on one of the two others'
    self_share = 1.0 / (1.0 + (OTHERS - 1) * parameters[RON_SHARE])
    loss = base + self_share * typical
    ron_rate = 1.0 - (1.0 - parameters[RON_SHARE] / unseen_total) ** OTHERS
    return Race(unseen_total, loss, base + typical, ron_rate, base, float(table[FLOWERS + seat]))


@njit(cache=True, inline="always")
def _winds(observation):
    """The win context's wind fields of this seat and deal (kernels.fan_ids)."""
    return (observation.seat_wind << SEAT_WIND_SHIFT) | (observation.round_wind << ROUND_WIND_SHIFT)


# ------------------------------------------------------------------------------------- decisions


@njit(cache=True, inline="always")
def table_key(rules, n_seats):
    """The table of sim.players.ev_calibration whose curve calibrates ev's chances: the one MCR table (four
    seats, whatever the ruleset's switches; the arguments are the other families')."""
    return MCR


def calibration_table(ruleset, seats: int) -> int:
    """``table_key`` read from a ``Ruleset`` rather than its kernel arrays."""
    return MCR


@njit(cache=True, inline="always")
def _my_rounds(observation, on_turn):
    """The draws left to the seat: after its own discard the three others draw first; on another's discard
    the seats between them, then it."""
    left = wall_left(observation.table)
    return min(MAX_ROUNDS, left // SEATS if on_turn else (left + OTHERS) // SEATS)


@njit(cache=True, _nrt=False)
def _greedy_discard(hand, n_melds, unseen, rules, work, distances):
    """The greedy discard of a hand of 3k+2 tiles (distances[] after each discard): the lowest shanten, then
    the most live improving tiles, then honours and terminals first."""
    best_distance = 255
    for kind in range(N_KINDS):
        best_distance = min(best_distance, distances[kind])
    best, best_ukeire, best_order = -1, -1, 99
    for kind in range(N_KINDS):
        if distances[kind] != best_distance:
            continue
        hand[kind] -= 1
        live = _ukeire_one(hand, n_melds, unseen, rules.suit_table, rules.honour_table, work.shanten_scratch,
                           work.distances)[1]
        hand[kind] += 1
        order = 0 if kind >= HONOR_START else 1 + min(kind % SUIT_SIZE, SUIT_SIZE - 1 - kind % SUIT_SIZE)
        if live > best_ukeire or (live == best_ukeire and order < best_order):
            best, best_ukeire, best_order = kind, live, order
    return best


@njit(cache=True, _nrt=False)
def _best_discard(hand, n_melds, melds, unseen, rules, work, winds, race, rounds, deal_in, search, depth):
    """(kind, EV, P(win)) of the best discard from the hand of 3k+2 tiles. EV is NONE when every discard
    leaves the hand further from ready than the search looks; the discard is then greedy's.
    search.distances holds the shanten after each discard (plus one)."""
    distances = search.distances
    _distances_after_discard(hand, n_melds, rules.suit_table, rules.honour_table, work.shanten_scratch, distances)
    best_distance = 255
    for kind in range(N_KINDS):
        best_distance = min(best_distance, distances[kind])
    if best_distance - 1 > depth:
        return _greedy_discard(hand, n_melds, unseen, rules, work, distances), NONE, 0.0
    # when a discard leaves the hand ready, those leaving it one tile away compete too: a ready hand below
    # the minimum is worth breaking for one that may win
    deepest = 2 if best_distance == 1 and depth >= 1 else best_distance
    best_kind, best_ev, best_win = -1, NONE, 0.0
    for kind in range(N_KINDS):
        if distances[kind] > deepest:
            continue
        hand[kind] -= 1
        ev, win = _hand_ev(hand, n_melds, melds, unseen, rules, work, winds, race, rounds, search, depth)
        hand[kind] += 1
        ev = (1.0 - deal_in[kind]) * ev - deal_in[kind] * race.deal_in_loss
        win *= 1.0 - deal_in[kind]
        if ev > best_ev + 1e-9:
            best_kind, best_ev, best_win = kind, ev, win
    return best_kind, best_ev, best_win


@njit(cache=True, _nrt=False)
def _far_chance(hand, n_melds, kind, unseen, rules, work, parameters, race, rounds, search):
    """P(win) of the hand after discarding `kind` when it is too far from ready for the search: each draw
    among its live improving copies moves it one step closer, and once ready it waits on a typical
    `opponent_waits` live copies (sim.players.win_race.far_chance)."""
    hand[kind] -= 1
    useful = _ukeire_one(hand, n_melds, unseen, rules.suit_table, rules.honour_table, work.shanten_scratch,
                         work.distances)[1]
    hand[kind] += 1
    waits = parameters[OPPONENT_WAITS]
    return far_chance(search.distances[kind] - 1, useful / race.unseen, waits / race.unseen,
                      min(1.0, waits * race.ron_rate), search.hazards, rounds, search.levels)


@njit(cache=True, inline="always")
def _turn(observation, parameters, race, deal_in, melds, search, depth):
    """The turn's action (a win was taken before); with a discard, ev's chance of winning the deal goes to
    observation.win_chance."""
    hand, rules, work = observation.hand, observation.rules, observation.work
    n_melds = observation.n_melds
    rounds = _my_rounds(observation, True)
    winds = _winds(observation)
    kind, best_ev, chance = _best_discard(hand, n_melds, melds, observation.unseen, rules, work, winds, race, rounds,
                                          deal_in, search, depth)
    estimate = min(search.distances[kind] - 1, 1)  # the ready race, or one draw ahead
    if best_ev == NONE:
        estimate = WALK_FROM_FAR
        chance = (1.0 - deal_in[kind]) * _far_chance(hand, n_melds, kind, observation.unseen, rules, work, parameters,
                                                     race, rounds, search)
    # read by the engine only if ev discards
    observation.win_chance[0] = report(chance, estimate, table_key(rules, SEATS), int(parameters[REPORT]))
    # a kong that does not raise the shanten only adds a draw (and fans)
    now = search.distances[kind]
    for action in observation.legal:
        code, tile = action // ACTION_BASE, action % ACTION_BASE
        if code == CONCEALED_KONG or code == ADDED_KONG:
            removed, after_melds = (4, n_melds + 1) if code == CONCEALED_KONG else (1, n_melds)
            hand[tile] -= removed
            after, _ = _ukeire_one(hand, after_melds, observation.unseen, rules.suit_table, rules.honour_table,
                                   work.shanten_scratch, work.distances)
            hand[tile] += removed
            if after <= now:
                return action
    action = legal_action(observation.legal, DISCARD, kind)
    return action if action != NO_ACTION else observation.legal[0]


@njit(cache=True, inline="always")
def _claim(observation, parameters, race, deal_in, melds, search, depth):
    """Pass, or the chow, pong or kong whose hand (after its best discard) is worth more than the hand kept;
    when both are too far for the search, the claim that brings the hand closer to ready (greedy's rule)."""
    hand, rules, work, unseen = observation.hand, observation.rules, observation.work, observation.unseen
    offer = observation.tile
    n_melds = observation.n_melds
    passing = legal_action_of(observation.legal, PASS)
    if parameters[CLAIM] == 0 or n_melds >= 4:
        return passing
    winds = _winds(observation)
    keep_ev, _ = _hand_ev(hand, n_melds, melds, unseen, rules, work, winds, race, _my_rounds(observation, False),
                          search, depth)
    now, _ = _ukeire_one(hand, n_melds, unseen, rules.suit_table, rules.honour_table, work.shanten_scratch,
                         work.distances)
    rounds_after = _my_rounds(observation, True)  # the claimer discards next, then the others draw
    chosen, best_ev, best_distance = passing, keep_ev, now
    for action in observation.legal:
        code, low = action // ACTION_BASE, action % ACTION_BASE
        if code != PONG and code != CHOW and code != KONG:
            continue
        if code == CHOW:
            for other in range(low, low + 3):
                if other != offer:
                    hand[other] -= 1
            melds[n_melds, 0], melds[n_melds, 1] = MELD_CHOW, low
        else:
            hand[offer] -= 2 if code == PONG else 3
            melds[n_melds, 0], melds[n_melds, 1] = (MELD_PONG if code == PONG else MELD_KONG), offer
        if code == KONG:
            after, _ = _ukeire_one(hand, n_melds + 1, unseen, rules.suit_table, rules.honour_table,
                                   work.shanten_scratch, work.distances)
            ev = NONE
            if after <= now:
                ev, _ = _hand_ev(hand, n_melds + 1, melds, unseen, rules, work, winds, race, rounds_after, search,
                                 depth)
        else:
            _, ev, _ = _best_discard(hand, n_melds + 1, melds, unseen, rules, work, winds, race, rounds_after, deal_in,
                                     search, depth)
            after = 255
            for kind in range(N_KINDS):
                after = min(after, search.distances[kind])
        if code == CHOW:
            for other in range(low, low + 3):
                if other != offer:
                    hand[other] += 1
        else:
            hand[offer] += 2 if code == PONG else 3
        if ev != NONE and best_ev != NONE:
            if ev > best_ev + 1e-9:
                chosen, best_ev, best_distance = action, ev, after
        elif ev != NONE and best_ev == NONE:
            if ev > 0:  # kept, the hand is too far for the search; claimed, a hand worth racing with
                chosen, best_ev, best_distance = action, ev, after
        elif best_ev == NONE and after < best_distance:
            chosen, best_distance = action, after  # both too far for the search: greedy's rule
    return chosen


# The engine's loop runs without reference counting, which its callees inherit; this function allocates its
# work arrays, so it runs with reference counting on.
@numba_player(ranges=RANGES, **DEFAULTS)
@njit(cache=True, _nrt=True)
def act(observation, parameters, rng):
    seat = observation.seat
    depth = int(parameters[DEPTH])
    win = legal_action_of(observation.legal, WIN)
    if win != NO_ACTION:  # the engine offers a win only at the ruleset's minimum; the deal ends at the first
        return win, rng
    passing = legal_action_of(observation.legal, PASS)
    if observation.decision != DECISION_TURN and observation.decision != DECISION_CLAIM:
        return (passing if passing != NO_ACTION else observation.legal[0]), rng  # a robbable kong ev may not win
    search = Search(np.zeros(4), np.zeros(4), np.zeros(MAX_ROUNDS + 1), np.zeros(MAX_ROUNDS + 1),
                    np.zeros((2, MAX_ROUNDS + 1)), np.zeros((2, MAX_ROUNDS + 1)), np.zeros((2, MAX_ROUNDS + 1)),
                    np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.int64), np.zeros(MAX_LEVELS), np.zeros(OTHERS))
    deal_in = np.zeros(N_KINDS)
    melds = np.zeros((4, 2), np.int8)  # the seat's melds, copied: a claim is tried by adding one
    for index in range(observation.n_melds):
        melds[index, 0], melds[index, 1] = observation.melds[seat, index, 0], observation.melds[seat, index, 1]
    race = _race_terms(observation, parameters, search)
    _deal_in_chances(observation, search, deal_in)
    if observation.decision == DECISION_TURN:
        return _turn(observation, parameters, race, deal_in, melds, search, depth), rng
    return _claim(observation, parameters, race, deal_in, melds, search, depth), rng

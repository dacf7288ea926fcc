"""``ev``, the 二人 family's expected-value player: a numba player (sim.players.numba_players) seated by name.

It plays on the public numba player interface only (``sim.erren.observation.NumbaObservation``), so it sees
what any player's function sees. Each choice is scored by its expected money, in the units the ruleset
pays (fans plus flowers times 2^doubles; points in erren-challenge):

    EV = P(ev wins) x E[value of its win] - P(the opponent wins first) x E[value of the opponent's win]

The deal is a race of rounds (sim.players.win_race): the opponent's turn (it wins with the hazard of that round,
else it discards and ev may win on that tile), then ev's draw. A ready hand's race is walked backwards
from the end of the deal; a hand one tile from ready is looked at one draw ahead, exactly: for each live
tile that makes it ready, ev's best discard after it, and that ready hand's race with the rounds then left;
at depth 2 a hand two tiles from ready is looked at two draws ahead the same way. So the values are the
ruleset's own evaluator's on every wait (the minimum fan included: a wait that may not win is worth
nothing), and the win chances come from the live copies ev cannot see. Hands further from ready than the
search looks are played as greedy plays them (the lowest shanten, then the most live improving tiles).

The opponent's hand is a walk (sim.players.win_race.opponent_hazards): it starts the deal ``opponent_start`` useful
draws from ready, moves a step closer at each of its draws with the chance of ``opponent_ukeire`` live copies
among those unseen, and once ready wins in a round (on its draw or on ev's discard) with the chance of
``opponent_waits`` copies each, times ``threat``; it has played a round for each of its discards without
winning. Once it has declared ready it is ready; once ev has declared ready, ev sees its hand and starts the
walk at its real distance. Its win is worth ``opponent_value`` (fans or points, times its 2^doubles).
Discarding a tile it may wait on risks that win at once (its copies unseen and the chows they could finish,
among all tiles' such counts), by its chance to be ready now.

Decisions: a discard (among those of the lowest shanten, and when that is ready, also those one step
slower, so a ready hand that may not win can be broken for one that may), 报听 (when the declared hand's EV
is at least the undeclared one's), a claim (when the hand after it and its best discard is worth more than
the hand kept), 加倍 (when the race with the doubled multiplier is worth more than the win now), a kong
that keeps the shanten, 天听 as a ready declaration. With each discard ev reports its chance of winning
(sim.core.win_chances), calibrated by sim.players.ev_calibration. Parameters (``ev:key=value,...``): ``claim`` and
``ready`` (0 turns claims or declarations off), ``double`` (the most 加倍 in a deal; 0 never), ``ron_share``
(the chance the opponent throws a wait tile it draws), ``threat``, ``opponent_waits``, ``opponent_value``
(0: the ruleset's typical win: 18 fans, greedy's mean with flowers, or 1,000 points), ``opponent_start``,
``opponent_ukeire``, ``depth`` (0: only ready hands are searched; 1; 2) and ``report`` (1: the calibrated
chance; 0: the search's own; 2: coded for ``mjsim calibrate-ev``). See
docs/engine-and-players.md#ev-the-expected-value-player.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from kernels.fan_ids import READY_FLAG, SELF_DRAWN_FLAG
from kernels.fans.challenge import POINTS
from kernels.shanten import _distances_after_discard, _ukeire_one
from kernels.tiles import HONOR_START, MELD_CHOW, MELD_KONG, MELD_PONG, N_KINDS, SUIT_SIZE
from sim.core.actions import (
    ACTION_BASE,
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
    PASS,
    PONG,
    WIN,
)
from sim.erren import engine
from sim.erren.players import shanten_of
from sim.erren.table import (
    DOUBLES,
    FLOWERS,
    HAS_FLOWERS,
    MIN_FAN,
    N_MELDS,
    READY,
    SCORING,
    SCORING_CHALLENGE,
    WALL_TILES,
    WIN_TOTAL,
    wall_left,
)
from sim.erren.win_value import NOT_A_WIN, is_winning_shape, score_win
from sim.players.ev_calibration import WALK_FROM_FAR, report, table_named
from sim.players.numba_players import legal_action, legal_action_of, numba_player
from sim.players.wait_ways import chow_wait_ways
from sim.players.win_race import MAX_LEVELS, far_chance, opponent_hazards, ready_race_table

DEFAULTS = {"claim": 1.0, "ready": 1.0, "double": 3.0, "ron_share": 0.5, "threat": 0.5, "opponent_waits": 5.0,
            "opponent_value": 0.0, "opponent_start": 2.5, "opponent_ukeire": 18.0, "depth": 1.0, "report": 1.0}
RANGES = {"depth": (0.0, 2.0), "opponent_start": (0.0, 8.0), "report": (0.0, 2.0)}
(CLAIM, READY_POLICY, DOUBLE_POLICY, RON_SHARE, THREAT, OPPONENT_WAITS, OPPONENT_VALUE, OPPONENT_START, OPPONENT_UKEIRE,
 DEPTH, REPORT) = range(11)
TYPICAL_FANS, TYPICAL_POINTS = 18.0, 1000.0  # opponent_value = 0: a typical win (greedy's, flowers included)
NONE = -1.0e18  # no evaluation (a hand further from ready than the search looks)
NO_ACTION = -1
MAX_ROUNDS = 72  # draws left to a seat, at most (erren-challenge: 109 tiles after the deal, and extra draws)

# the fitted tables of sim.players.ev_calibration that calibrate this family's ev
ERREN, ERREN_CLASSIC, ERREN_CHALLENGE = (table_named(name) for name in ("erren", "erren-classic", "erren-challenge"))


class Search(NamedTuple):
    """The work arrays of one decision's search, allocated by ``act``."""

    rates: np.ndarray  # float64 (4,): a ready hand's waits (_waits)
    best_rates: np.ndarray  # float64 (4,): the best of them after a draw (_one_away_table)
    hazards: np.ndarray  # float64 (MAX_ROUNDS + 1,): the opponent's chance to win in the round with h rounds left
    ready: np.ndarray  # float64 (2, MAX_ROUNDS + 1): a ready hand: (EV, P(win)) by rounds left
    gathered: np.ndarray  # float64 (2, MAX_ROUNDS + 1): the ready hands a draw may make, summed by rounds left
    distances: np.ndarray  # int64 (34,): the shanten after each discard (plus one) at the top of the search
    inner: np.ndarray  # int64 (34,): the same, two draws ahead (_two_away_ev)
    levels: np.ndarray  # float64 (MAX_LEVELS,): far_chance's walk
    horizon: np.ndarray  # float64 (2, MAX_ROUNDS + 1): a hand one tile from ready: (EV, P(win)) by rounds left
    shares: np.ndarray  # float64 (34,): a hand two tiles from ready: the chance of each draw that brings it closer
    draws: np.ndarray  # float64 (34 or 0, 2, MAX_ROUNDS + 1): and the best horizon table after each


# ------------------------------------------------------------------------------------- values
# The search's kernels take plain arrays and are compiled once each (not inlined into the player): each holds
# the ruleset's fan evaluator, which is large.


@njit(cache=True, _nrt=False)
def _score(hand, melds, n_melds, tile, flags, bonus, rules, work):
    """The fan total of the win on `tile` (NOT_A_WIN if none); where the ruleset scores points, they are in
    work.score[POINTS]."""
    return score_win(hand, melds, n_melds, tile, flags, 0, bonus, rules, work)


@njit(cache=True, inline="always", _nrt=False)
def _may_join(hand, kind):
    """A drawn `kind` can complete a hand only beside a tile of its own kind or, in a suit, within two ranks."""
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


@njit(cache=True, inline="always", _nrt=False)
def _money(total, money, work):
    """What a win of `total` fans is worth: its points where the ruleset scores points (money[2] = 1), else
    (fans + flowers money[0]) x the multiplier money[1]."""
    if money[2] != 0:
        return float(work.score[POINTS])
    return (total + money[0]) * money[1]


@njit(cache=True, _nrt=False)
def _waits(hand, n_melds, melds, unseen, bonus, rules, work, extra_flags, money, rates):
    """Of the ready hand of 3k+1 tiles: rates = (live copies winning self-drawn, their summed value, copies
    winning on a discard, their summed value), counting only wins that reach the minimum fan."""
    minimum = rules.settings[MIN_FAN]
    self_copies, self_value, ron_copies, ron_value = 0.0, 0.0, 0.0, 0.0
    for kind in range(N_KINDS):
        live = unseen[kind]
        if live <= 0 or hand[kind] >= 4 or not _may_join(hand, kind):
            continue
        hand[kind] += 1
        complete = is_winning_shape(hand, n_melds, rules)
        hand[kind] -= 1
        if not complete:
            continue
        total = _score(hand, melds, n_melds, kind, SELF_DRAWN_FLAG | extra_flags, bonus, rules, work)
        if total != NOT_A_WIN and total >= minimum:
            self_copies += live
            self_value += live * _money(total, money, work)
        total = _score(hand, melds, n_melds, kind, extra_flags, bonus, rules, work)
        if total != NOT_A_WIN and total >= minimum:
            ron_copies += live
            ron_value += live * _money(total, money, work)
    rates[0], rates[1], rates[2], rates[3] = self_copies, self_value, ron_copies, ron_value


@njit(cache=True, inline="always", _nrt=False)
def _race_rates(rates, race):
    """(self rate, its mean value, ron rate, its mean value) per round from _waits' counts."""
    unseen_total, ron_share = race[0], race[3]
    self_rate = rates[0] / unseen_total
    ron_rate = ron_share * rates[2] / unseen_total
    self_value = rates[1] / rates[0] if rates[0] > 0 else 0.0
    ron_value = rates[3] / rates[2] if rates[2] > 0 else 0.0
    return self_rate, self_value, ron_rate, ron_value


@njit(cache=True, _nrt=False)
def _ready_table(rates, race, rounds, search, out):
    """out[0, h], out[1, h] for h = 0 .. rounds: (EV, P(win)) of the ready hand with `rates` (_waits) and h
    rounds left, against the opponent's hazards (search.hazards)."""
    self_rate, self_value, ron_rate, ron_value = _race_rates(rates, race)
    ready_race_table(self_rate, self_value, ron_rate, ron_value, search.hazards, race[2], rounds, out)


@njit(cache=True, _nrt=False)
def _ready_ev(hand, n_melds, melds, unseen, bonus, rules, work, extra_flags, money, race, rounds, search):
    """(EV, P(win)) of the ready hand; race = (unseen copies, -, loss, ron share). search.rates keeps its
    waits."""
    _waits(hand, n_melds, melds, unseen, bonus, rules, work, extra_flags, money, search.rates)
    _ready_table(search.rates, race, rounds, search, search.ready)
    return search.ready[0, rounds], search.ready[1, rounds]


@njit(cache=True, _nrt=False)
def _one_away_table(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, search, out):
    """out[0, h], out[1, h] for h = 0 .. rounds: (EV, P(win)) of a hand of 3k+1 tiles one tile from ready
    with h rounds left: each live tile that makes it ready, with the best discard after it, then that ready
    hand's race in the rounds left (see the module text). Walked backwards: with h rounds left, the round
    ends with the opponent's hazard, else the draw makes the hand ready with chance `reach`."""
    unseen_total, loss = race[0], race[2]
    after, rates, ready, gathered, hazards = work.shanten_after_discard, search.rates, search.ready, search.gathered, search.hazards
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
            _waits(hand, n_melds, melds, unseen, bonus, rules, work, 0, money, rates)
            hand[discard] += 1
            _ready_table(rates, race, max(rounds - 1, 0), search, ready)
            if ready[0, max(rounds - 1, 0)] > best_worth:
                best_worth = ready[0, max(rounds - 1, 0)]
                for index in range(4):
                    best_rates[index] = rates[index]
        hand[kind] -= 1
        if best_worth == NONE:
            continue
        share = live / unseen_total
        reach += share
        _ready_table(best_rates, race, max(rounds - 1, 0), search, ready)
        for left in range(rounds):
            gathered[0, left] += share * ready[0, left]
            gathered[1, left] += share * ready[1, left]
    out[0, 0], out[1, 0] = 0.0, 0.0
    for left in range(1, rounds + 1):
        hazard = hazards[left]
        out[0, left] = -hazard * loss + (1.0 - hazard) * (gathered[0, left - 1] + (1.0 - reach) * out[0, left - 1])
        out[1, left] = (1.0 - hazard) * (gathered[1, left - 1] + (1.0 - reach) * out[1, left - 1])


@njit(cache=True, _nrt=False)
def _two_away_ev(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, search):
    """(EV, P(win)) of a hand of 3k+1 tiles two tiles from ready (depth 2): each live tile that brings it one
    tile from ready, with the best discard after it for each number of rounds then left (its table from
    ``_one_away_table``), walked backwards as that table is."""
    unseen_total, loss = race[0], race[2]
    inner, draws, shares, horizon, hazards = search.inner, search.draws, search.shares, search.horizon, search.hazards
    n_draws = 0
    reach = 0.0
    for kind in range(N_KINDS):
        live = unseen[kind]
        if live <= 0 or hand[kind] >= 4 or not _may_join(hand, kind):
            continue
        hand[kind] += 1
        _distances_after_discard(hand, n_melds, rules.suit_table, rules.honour_table, work.shanten_scratch, inner)
        found = False
        for discard in range(N_KINDS):
            if inner[discard] != 2:  # distance 2: one tile from ready after this discard
                continue
            hand[discard] -= 1
            _one_away_table(hand, n_melds, melds, unseen, bonus, rules, work, money, race, max(rounds - 1, 0), search,
                            horizon)
            hand[discard] += 1
            for left in range(rounds):
                if not found or horizon[0, left] > draws[n_draws, 0, left]:
                    draws[n_draws, 0, left], draws[n_draws, 1, left] = horizon[0, left], horizon[1, left]
            found = True
        hand[kind] -= 1
        if found:
            shares[n_draws] = live / unseen_total
            reach += shares[n_draws]
            n_draws += 1
    value, chance = 0.0, 0.0
    for left in range(1, rounds + 1):
        gained, won = 0.0, 0.0
        for step in range(n_draws):
            gained += shares[step] * draws[step, 0, left - 1]
            won += shares[step] * draws[step, 1, left - 1]
        hazard = hazards[left]
        value = -hazard * loss + (1.0 - hazard) * (gained + (1.0 - reach) * value)
        chance = (1.0 - hazard) * (won + (1.0 - reach) * chance)
    return value, chance


@njit(cache=True, _nrt=False)
def _hand_ev(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, search, depth):
    """(EV, P(win)) of the hand of 3k+1 tiles: exact when ready, `depth` draws ahead when that many tiles
    from it (at most 2), NONE beyond."""
    shanten = shanten_of(hand, n_melds, rules, work.shanten_scratch)
    if shanten == 0:
        return _ready_ev(hand, n_melds, melds, unseen, bonus, rules, work, 0, money, race, rounds, search)
    if shanten == 1 and depth >= 1:
        _one_away_table(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, search, search.horizon)
        return search.horizon[0, rounds], search.horizon[1, rounds]
    if shanten == 2 and depth >= 2:
        return _two_away_ev(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, search)
    return NONE, 0.0


# ------------------------------------------------------------------------------------- the opponent


@njit(cache=True, inline="always")
def _danger(observation, kind):
    """The opponent's ways of waiting on `kind`: its unseen copies (a pair or a single wait) and, for a suit
    tile, the chows it would finish whose other tiles are unseen."""
    unseen = observation.unseen
    opponent = 1 - observation.seat
    if observation.table[READY + opponent] == 1 and observation.discards_after_ready[opponent, kind] > 0:
        return 0.0  # it let this tile go while locked: it did not win on it then
    danger = float(max(unseen[kind], 0)) + 0.5
    if kind < HONOR_START:
        danger += chow_wait_ways(unseen, kind, kind - kind % SUIT_SIZE)
    return danger


@njit(cache=True, inline="always")
def _deal_in_chances(observation, threat, out):
    """out[kind] = the chance that discarding `kind` now hands the opponent its win: the chance it is ready
    (`threat`) times the kind's share of the ways of waiting (about two kinds a wait)."""
    total = 0.0
    for kind in range(N_KINDS):
        out[kind] = _danger(observation, kind) if observation.unseen[kind] + observation.hand[kind] > 0 else 0.0
        total += out[kind]
    total = max(total, 1.0)
    for kind in range(N_KINDS):
        out[kind] = min(1.0, threat * 2.0 * out[kind] / total)


@njit(cache=True, inline="always")
def _race_terms(observation, parameters, race, search):
    """race = (copies unseen, -, the value of the opponent's win, the ron share) and search.hazards, the
    opponent's chance to win in each round left (sim.players.win_race.opponent_hazards): its hand a walk from
    `opponent_start` useful draws from ready at the deal, a step closer with a chance of `opponent_ukeire`
    live copies among those unseen at each draw, and once ready a win in a round on its own draw or ev's
    discard, each with `opponent_waits` of the copies unseen, times `threat`. It has played a round for
    each of its discards. Once it declared ready it is ready; once ev declared ready, ev sees its hand and
    starts the walk there. Returns the chance the opponent is ready now."""
    table, seat, rules = observation.table, observation.seat, observation.rules
    opponent = 1 - seat
    unseen_total = 0.0
    for kind in range(N_KINDS):
        unseen_total += max(observation.unseen[kind], 0)
    unseen_total = max(unseen_total, 1.0)
    waits = parameters[OPPONENT_WAITS] / unseen_total
    win_rate = min(0.9, 2.0 * waits * parameters[THREAT])  # its own draw, or ev's discard
    advance = min(0.9, parameters[OPPONENT_UKEIRE] / unseen_total)
    start, played = parameters[OPPONENT_START], 0
    for kind in range(N_KINDS):
        played += observation.discards[opponent, kind]
    if table[READY + opponent] == 1:
        start, played = 0.0, 0
    elif table[READY + seat] == 1:  # ev sees the opponent's hand: its real distance from ready
        distance, useful = _ukeire_one(observation.opponent_hand, table[N_MELDS + opponent], observation.unseen,
                                       rules.suit_table, rules.honour_table, observation.work.shanten_scratch,
                                       observation.work.distances)
        start, played, advance = float(max(distance - 1, 0)), 0, min(0.9, useful / unseen_total)
    threat = opponent_hazards(start, advance, win_rate, played, _my_rounds(observation, False), search.levels,
                              search.hazards)
    typical = TYPICAL_POINTS if rules.settings[SCORING] == SCORING_CHALLENGE else TYPICAL_FANS
    loss = parameters[OPPONENT_VALUE] if parameters[OPPONENT_VALUE] > 0 else typical
    if rules.settings[SCORING] != SCORING_CHALLENGE:
        loss *= 2.0 ** table[DOUBLES + opponent]
    race[0], race[1], race[2], race[3] = unseen_total, 0.0, loss, parameters[RON_SHARE]
    return threat


# ------------------------------------------------------------------------------------- decisions


@njit(cache=True, inline="always")
def table_key(rules):
    """The table of sim.players.ev_calibration whose curve calibrates ev's chances under these rules: points
    (erren-challenge), else flowers (erren) or none (erren-classic)."""
    if rules.settings[SCORING] == SCORING_CHALLENGE:
        return ERREN_CHALLENGE
    return ERREN if rules.settings[HAS_FLOWERS] != 0 else ERREN_CLASSIC


def calibration_table(ruleset, seats: int) -> int:
    """``table_key`` read from a ``Ruleset`` rather than its kernel arrays (a test keeps the two in step)."""
    if ruleset.scoring == "challenge":
        return ERREN_CHALLENGE
    return ERREN if ruleset.flowers else ERREN_CLASSIC


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
        order = 0 if kind >= HONOR_START else 1 + min(kind % 9, 8 - kind % 9)
        if live > best_ukeire or (live == best_ukeire and order < best_order):
            best, best_ukeire, best_order = kind, live, order
    return best


@njit(cache=True, _nrt=False)
def _best_discard(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, may_declare, deal_in,
                  search, depth):
    """(kind, declare, EV, P(win)) of the best discard from the hand of 3k+2 tiles. EV is NONE when every
    discard leaves the hand further from ready than the search looks; the discard is then greedy's.
    search.distances holds the shanten after each discard (plus one)."""
    distances = search.distances
    _distances_after_discard(hand, n_melds, rules.suit_table, rules.honour_table, work.shanten_scratch, distances)
    best_distance = 255
    for kind in range(N_KINDS):
        best_distance = min(best_distance, distances[kind])
    if best_distance - 1 > depth:
        return _greedy_discard(hand, n_melds, unseen, rules, work, distances), False, NONE, 0.0
    # when a discard leaves the hand ready, those leaving it one tile away compete too: a ready hand that
    # may not win is worth breaking for one that may
    deepest = 2 if best_distance == 1 and depth >= 1 else best_distance
    loss = race[2]
    rates = search.rates
    best_kind, best_declare, best_ev, best_win = -1, False, NONE, 0.0
    for kind in range(N_KINDS):
        if distances[kind] > deepest:
            continue
        hand[kind] -= 1
        ev, win = _hand_ev(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, search, depth)
        declare = False
        if may_declare and distances[kind] == 1:
            declared_ev, declared_win = _ready_ev(hand, n_melds, melds, unseen, bonus, rules, work, READY_FLAG,
                                                  money, race, rounds, search)
            if declared_ev >= ev and rates[0] + rates[2] > 0:
                ev, win, declare = declared_ev, declared_win, True
        hand[kind] += 1
        ev = (1.0 - deal_in[kind]) * ev - deal_in[kind] * loss
        win *= 1.0 - deal_in[kind]
        if ev > best_ev + 1e-9:
            best_kind, best_declare, best_ev, best_win = kind, declare, ev, win
    return best_kind, best_declare, best_ev, best_win


@njit(cache=True, inline="always")
def _my_rounds(observation, on_turn):
    """The draws left to the seat: after its own discard the opponent draws first; on the opponent's
    discard the seat does."""
    left = wall_left(observation.table)
    return min(MAX_ROUNDS, left // 2 if on_turn else (left + 1) // 2)


@njit(cache=True, inline="always")
def _far_chance(hand, n_melds, kind, unseen, rules, work, parameters, race, rounds, search):
    """P(win) of the hand after discarding `kind` when it is too far from ready for the search: each draw
    among its live improving copies moves it one step closer, and once ready it waits on a typical
    `opponent_waits` live copies (sim.players.win_race.far_chance)."""
    unseen_total, ron_share = race[0], race[3]
    hand[kind] -= 1
    useful = _ukeire_one(hand, n_melds, unseen, rules.suit_table, rules.honour_table, work.shanten_scratch,
                         work.distances)[1]
    hand[kind] += 1
    waits = parameters[OPPONENT_WAITS] / unseen_total
    return far_chance(search.distances[kind] - 1, useful / unseen_total, waits, ron_share * waits, search.hazards,
                      rounds, search.levels)


@njit(cache=True, inline="always")
def _turn(observation, parameters, money, race, deal_in, melds, search, depth):
    """The turn's action; with a discard, ev's chance of winning the deal goes to observation.win_chance."""
    hand, rules, work = observation.hand, observation.rules, observation.work
    n_melds = observation.n_melds
    may_declare = parameters[READY_POLICY] != 0 and legal_action_of(observation.legal, DISCARD_READY) != NO_ACTION
    rounds = _my_rounds(observation, True)
    kind, declare, best_ev, chance = _best_discard(hand, n_melds, melds, observation.unseen, observation.bonus, rules,
                                                   work, money, race, rounds, may_declare, deal_in, search, depth)
    estimate = min(search.distances[kind] - 1, 2)  # the ready race, one or two draws ahead
    if best_ev == NONE:
        estimate = WALK_FROM_FAR
        chance = (1.0 - deal_in[kind]) * _far_chance(hand, n_melds, kind, observation.unseen, rules, work, parameters,
                                                     race, rounds, search)
    # read by the engine only if ev discards
    observation.win_chance[0] = report(chance, estimate, table_key(rules), int(parameters[REPORT]))
    # a kong that does not raise the shanten only adds a draw (and fans)
    now = shanten_of(hand, n_melds, rules, work.shanten_scratch)
    for action in observation.legal:
        code, tile = action // ACTION_BASE, action % ACTION_BASE
        if code == CONCEALED_KONG or code == ADDED_KONG:
            removed, after_melds = (4, n_melds + 1) if code == CONCEALED_KONG else (1, n_melds)
            hand[tile] -= removed
            keeps = shanten_of(hand, after_melds, rules, work.shanten_scratch) <= now
            hand[tile] += removed
            if keeps:
                return action
    if declare:
        action = legal_action(observation.legal, DISCARD_READY, kind)
        if action != NO_ACTION:
            return action
    action = legal_action(observation.legal, DISCARD, kind)
    return action if action != NO_ACTION else observation.legal[0]


@njit(cache=True, inline="always")
def _claim(observation, parameters, money, race, deal_in, melds, search, depth):
    """Pass, or the pong, chow or kong whose hand (after its best discard) is worth more than the hand kept."""
    hand, rules, work, unseen, bonus = observation.hand, observation.rules, observation.work, observation.unseen, observation.bonus
    offer = observation.tile
    n_melds = observation.n_melds
    passing = legal_action_of(observation.legal, PASS)
    if parameters[CLAIM] == 0 or n_melds >= 4:
        return passing
    keep_ev, _ = _hand_ev(hand, n_melds, melds, unseen, bonus, rules, work, money, race,
                          _my_rounds(observation, False), search, depth)
    now = shanten_of(hand, n_melds, rules, work.shanten_scratch)
    rounds_after = _my_rounds(observation, True)  # the claimer discards next, then the opponent draws
    chosen, best_ev, best_shanten = passing, keep_ev, now
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
            after = shanten_of(hand, n_melds + 1, rules, work.shanten_scratch)
            ev = NONE
            if after <= now:
                ev, _ = _hand_ev(hand, n_melds + 1, melds, unseen, bonus, rules, work, money, race, rounds_after,
                                 search, depth)
        else:
            _, _, ev, _ = _best_discard(hand, n_melds + 1, melds, unseen, bonus, rules, work, money, race,
                                        rounds_after, False, deal_in, search, depth)
            after = 255
            for kind in range(N_KINDS):
                after = min(after, search.distances[kind] - 1)
        if code == CHOW:
            for other in range(low, low + 3):
                if other != offer:
                    hand[other] += 1
        else:
            hand[offer] += 2 if code == PONG else 3
        if ev != NONE and best_ev != NONE and ev > best_ev + 1e-9:
            chosen, best_ev, best_shanten = action, ev, after
        elif ev != NONE and best_ev == NONE and ev > 0 and after < best_shanten:
            chosen, best_ev, best_shanten = action, ev, after  # kept, the hand is too far for the search
    return chosen


@njit(cache=True, inline="always")
def _doubles_pay(observation, parameters, money, race, melds, search):
    """Whether the race with the doubled multiplier is worth more than the win on offer now."""
    table, seat, hand = observation.table, observation.seat, observation.hand
    if table[DOUBLES + seat] >= parameters[DOUBLE_POLICY] or money[2] != 0 or legal_action_of(observation.legal, DOUBLE) == NO_ACTION:
        return False  # each 加倍 doubles the spread of the results too: `double` caps how many ev makes
    now = (table[WIN_TOTAL] + money[0]) * money[1]
    extra_flags = READY_FLAG if table[READY + seat] == 1 else 0
    doubled = np.empty(3)
    doubled[0], doubled[1], doubled[2] = money[0], 2.0 * money[1], money[2]
    on_turn = observation.decision == DECISION_TURN
    drawn = observation.tile
    if on_turn:
        if drawn < 0:
            return False
        hand[drawn] -= 1  # the drawn tile goes back out: the same ready hand races on
    later, _ = _ready_ev(hand, observation.n_melds, melds, observation.unseen, observation.bonus, observation.rules,
                         observation.work, extra_flags, doubled, race, _my_rounds(observation, on_turn), search)
    if on_turn:
        hand[drawn] += 1
    return later > now


# The engine's loop runs without reference counting, which its callees inherit; this function allocates its
# work arrays, so it runs with reference counting on (as sim.xuezhan.win_value.score_win does).
@numba_player(ranges=RANGES, **DEFAULTS)
@njit(cache=True, _nrt=True)
def act(observation, parameters, rng):
    table, seat = observation.table, observation.seat
    depth = int(parameters[DEPTH])
    search = Search(np.zeros(4), np.zeros(4), np.zeros(MAX_ROUNDS + 1), np.zeros((2, MAX_ROUNDS + 1)),
                    np.zeros((2, MAX_ROUNDS + 1)), np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.int64),
                    np.zeros(MAX_LEVELS), np.zeros((2, MAX_ROUNDS + 1)), np.zeros(N_KINDS),
                    np.zeros((N_KINDS if depth >= 2 else 0, 2, MAX_ROUNDS + 1)))
    deal_in, race = np.zeros(N_KINDS), np.zeros(4)
    rates = search.rates
    melds = np.empty((4, 2), np.int8)  # the seat's melds, copied: a claim is tried by adding one
    for index in range(4):
        melds[index, 0], melds[index, 1] = observation.melds[seat, index, 0], observation.melds[seat, index, 1]
    money = np.empty(3)  # flowers, the multiplier 2^doubles, 1 where wins are priced in points
    money[0] = table[FLOWERS + seat]
    money[1] = 2.0 ** table[DOUBLES + seat]
    money[2] = 1.0 if observation.rules.settings[SCORING] == SCORING_CHALLENGE else 0.0
    threat = _race_terms(observation, parameters, race, search)
    win = legal_action_of(observation.legal, WIN)
    if win != NO_ACTION:
        if _doubles_pay(observation, parameters, money, race, melds, search):
            return legal_action_of(observation.legal, DOUBLE), rng
        return win, rng
    if observation.decision == DECISION_OPENING_READY:
        declare = legal_action_of(observation.legal, DECLARE_READY)
        if declare != NO_ACTION and parameters[READY_POLICY] != 0:
            _waits(observation.hand, observation.n_melds, melds, observation.unseen, observation.bonus,
                   observation.rules, observation.work, READY_FLAG, money, rates)
            if rates[0] + rates[2] > 0:
                return declare, rng
        return legal_action_of(observation.legal, PASS), rng
    _deal_in_chances(observation, threat, deal_in)
    if observation.decision == DECISION_TURN:
        return _turn(observation, parameters, money, race, deal_in, melds, search, depth), rng
    return _claim(observation, parameters, money, race, deal_in, melds, search, depth), rng


# The engine's loop for tables whose only numba player is ev (ev against built-in heuristics or itself),
# compiled once and cached: the loop that takes any numba function is compiled in every process.
_ACT = act.act


@njit(cache=True, _nrt=False)
def _play_deals_with_ev(functions, user_parameters, asks_python, seed, first_deal, session_length, template, rules,
                        kinds, parameters, state, work, view, validate, records, fans, events, wall, status, chances,
                        log):
    engine._asking_loop(_ACT, engine.no_numba_player, functions, user_parameters, asks_python, seed, first_deal,
                        session_length, template, rules, kinds, parameters, state, work, view, validate, records, fans,
                        events, wall, status, chances, log)


engine.CACHED_ASKING_LOOPS[(_ACT, engine.no_numba_player)] = _play_deals_with_ev

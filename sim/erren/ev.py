"""``ev``, the 二人 family's expected-value player: a numba player (sim.numba_players) seated by name.

It plays on the public numba player interface only (``sim.erren.observation.NumbaObservation``), so it sees
what any player's function sees. Each choice is scored by its expected money, in the units the ruleset
pays (fans plus flowers times 2^doubles; points in erren-challenge):

    EV = P(ev wins) x E[value of its win] - P(the opponent wins first) x E[value of the opponent's win]

The deal is a race of rounds: the opponent's turn (it wins with the hazard ``h``, else it discards and ev
may win on that tile), then ev's draw. With the per-round chances fixed, a ready hand's race has a closed
form; a hand one tile from ready is looked at one draw ahead, exactly: for each live tile that makes it
ready, ev's best discard after it, and that ready hand's race with the rounds then left, summed round by
round. So the values are the ruleset's own evaluator's on every wait (the minimum fan included: a wait that
may not win is worth nothing), and the win chances come from the live copies ev cannot see. Hands further
from ready are played as greedy plays them (the lowest shanten, then the most live improving tiles).

The opponent: its hazard per round is ``threat`` x (a share of the deal gone, or 1 once it declared ready)
x ``opponent_waits`` / (copies unseen); its win is worth ``opponent_value`` (fans or points, times its
2^doubles). Discarding a tile it may wait on risks that win at once (its copies unseen and the chows they
could finish, among all tiles' such counts). Once ev has declared ready it sees the opponent's hand and takes
its threat from the hand's real shanten instead.

Decisions: a discard (among those of the lowest shanten, and when that is ready, also those one step
slower, so a ready hand that may not win can be broken for one that may), 报听 (when the declared hand's EV
is at least the undeclared one's), a claim (when the hand after it and its best discard is worth more than
the hand kept), 加倍 (when the race with the doubled multiplier is worth more than the win now), a kong
that keeps the shanten, 天听 as a ready declaration. Parameters (``ev:key=value,...``): ``claim`` and
``ready`` (0 turns claims or declarations off), ``double`` (the most 加倍 in a deal; 0 never), ``ron_share`` (the chance the
opponent throws a wait tile it draws), ``threat``, ``opponent_waits``, ``opponent_value`` (0: the ruleset's
typical win: 18 fans, greedy's mean with flowers, or 1,000 points). See
docs/engine-and-players.md#ev-the-expected-value-player.
"""

import numpy as np
from numba import njit

from kernels.fan_ids import READY_FLAG, SELF_DRAWN_FLAG
from kernels.fans.challenge import POINTS
from kernels.shanten import _distances_after_discard, _ukeire_one
from kernels.tiles import HONOR_START, MELD_CHOW, MELD_KONG, MELD_PONG, N_KINDS, SUIT_SIZE
from sim.actions import (
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
from sim.erren.players import shanten_of
from sim.erren.table import (
    DOUBLES,
    FLOWERS,
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
from sim.numba_players import numba_player

DEFAULTS = {"claim": 1.0, "ready": 1.0, "double": 3.0, "ron_share": 0.5, "threat": 1.0, "opponent_waits": 5.0,
            "opponent_value": 0.0}
CLAIM, READY_POLICY, DOUBLE_POLICY, RON_SHARE, THREAT, OPPONENT_WAITS, OPPONENT_VALUE = range(7)
TYPICAL_FANS, TYPICAL_POINTS = 18.0, 1000.0  # opponent_value = 0: a typical win (greedy's, flowers included)
NONE = -1.0e18  # no evaluation (a hand further than one tile from ready)
NO_ACTION = -1


# ------------------------------------------------------------------------------------- the race


@njit(cache=True, inline="always")
def _rounds_sum(continuing, rounds):
    """1 + c + c^2 + ... + c^(rounds-1): the expected rounds the race is still on."""
    if rounds <= 0:
        return 0.0
    if continuing >= 1.0:
        return float(rounds)
    return (1.0 - continuing ** rounds) / (1.0 - continuing)


@njit(cache=True, inline="always")
def _ready_race(self_rate, self_value, ron_rate, ron_value, hazard, loss, rounds):
    """(EV, P(ev wins)) of a ready hand over `rounds` rounds: in each, the opponent wins with `hazard`,
    else ev wins on its discard with `ron_rate`, else on its own draw with `self_rate`."""
    continuing = (1.0 - hazard) * (1.0 - ron_rate) * (1.0 - self_rate)
    spread = _rounds_sum(continuing, rounds)
    win_self = (1.0 - hazard) * (1.0 - ron_rate) * self_rate
    win_ron = (1.0 - hazard) * ron_rate
    return (win_self * self_value + win_ron * ron_value - hazard * loss) * spread, (win_self + win_ron) * spread


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
def _ready_ev(hand, n_melds, melds, unseen, bonus, rules, work, extra_flags, money, race, rounds, rates):
    """(EV, P(win)) of the ready hand; race = (unseen copies, hazard, loss, ron share)."""
    _waits(hand, n_melds, melds, unseen, bonus, rules, work, extra_flags, money, rates)
    self_rate, self_value, ron_rate, ron_value = _race_rates(rates, race)
    return _ready_race(self_rate, self_value, ron_rate, ron_value, race[1], race[2], rounds)


@njit(cache=True, _nrt=False)
def _one_away_ev(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, rates, steps):
    """(EV, P(win)) of a hand of 3k+1 tiles one tile from ready: each live tile that makes it ready, with
    the best discard after it, then that ready hand's race in the rounds left (see the module text).
    steps: float64 (34, 4) work rows (chance of the tile, gain and win per round, continuing factor)."""
    unseen_total, hazard, loss = race[0], race[1], race[2]
    after = work.shanten_after_discard
    n_steps = 0
    reach = 0.0
    for kind in range(N_KINDS):
        live = unseen[kind]
        if live <= 0 or hand[kind] >= 4 or not _may_join(hand, kind):
            continue
        hand[kind] += 1
        _distances_after_discard(hand, n_melds, rules.suit_table, rules.honour_table, work.shanten_scratch, after)
        best_gain, best_win, best_continuing, best_worth = NONE, 0.0, 0.0, NONE
        for discard in range(N_KINDS):
            if after[discard] != 1:  # distance 1: ready after this discard
                continue
            hand[discard] -= 1
            _waits(hand, n_melds, melds, unseen, bonus, rules, work, 0, money, rates)
            hand[discard] += 1
            self_rate, self_value, ron_rate, ron_value = _race_rates(rates, race)
            continuing = (1.0 - hazard) * (1.0 - ron_rate) * (1.0 - self_rate)
            gain = (1.0 - hazard) * ((1.0 - ron_rate) * self_rate * self_value + ron_rate * ron_value) - hazard * loss
            win = (1.0 - hazard) * ((1.0 - ron_rate) * self_rate + ron_rate)
            worth = gain * _rounds_sum(continuing, rounds // 2)  # compared at the rounds then left on average
            if worth > best_worth:
                best_gain, best_win, best_continuing, best_worth = gain, win, continuing, worth
        hand[kind] -= 1
        if best_worth == NONE:
            continue
        share = live / unseen_total
        reach += share
        steps[n_steps, 0], steps[n_steps, 1], steps[n_steps, 2], steps[n_steps, 3] = share, best_gain, best_win, best_continuing
        n_steps += 1
    # round k: the opponent's turn, then the draw, which makes the hand ready with chance `reach`
    waiting = (1.0 - hazard) * (1.0 - reach)
    total_ev, total_win, staying = 0.0, 0.0, 1.0
    for round_index in range(rounds):
        total_ev -= staying * hazard * loss
        left = rounds - round_index - 1
        for step in range(n_steps):
            spread = _rounds_sum(steps[step, 3], left)
            weight = staying * (1.0 - hazard) * steps[step, 0]
            total_ev += weight * steps[step, 1] * spread
            total_win += weight * steps[step, 2] * spread
        staying *= waiting
    return total_ev, total_win


@njit(cache=True, _nrt=False)
def _hand_ev(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, rates, steps):
    """(EV, P(win)) of the hand of 3k+1 tiles: exact when ready, one draw ahead when one tile from it,
    NONE beyond."""
    shanten = shanten_of(hand, n_melds, rules, work.shanten_scratch)
    if shanten == 0:
        return _ready_ev(hand, n_melds, melds, unseen, bonus, rules, work, 0, money, race, rounds, rates)
    if shanten == 1:
        return _one_away_ev(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, rates, steps)
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
        start = kind - kind % SUIT_SIZE
        for low in range(max(start, kind - 2), min(kind, start + SUIT_SIZE - 3) + 1):
            other = 1.0
            for tile in range(low, low + 3):
                if tile != kind:
                    other = min(other, max(unseen[tile], 0) / 4.0)
            danger += 2.0 * other
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
def _race_terms(observation, parameters, race):
    """race = (copies unseen, the opponent's hazard per round, the value of its win, the ron share); returns
    the chance the opponent is ready now (its threat)."""
    table, seat, rules = observation.table, observation.seat, observation.rules
    opponent = 1 - seat
    unseen_total = 0.0
    for kind in range(N_KINDS):
        unseen_total += max(observation.unseen[kind], 0)
    unseen_total = max(unseen_total, 1.0)
    if table[READY + opponent] == 1:
        threat = 1.0
    else:
        # the share of the deal gone, by the tiles drawn: a hand is ready ever more often as the deal goes on
        gone = 1.0 - wall_left(table) / max(rules.settings[WALL_TILES] - 27.0, 1.0)
        threat = min(1.0, max(0.0, gone)) * parameters[THREAT]
    if table[READY + seat] == 1:  # ev sees the opponent's hand: its real distance from ready
        opponent_shanten = shanten_of(observation.opponent_hand, table[N_MELDS + opponent], rules,
                                      observation.work.shanten_scratch)
        threat = 1.0 if opponent_shanten <= 0 else (0.25 if opponent_shanten == 1 else 0.0)
    hazard = min(0.9, threat * parameters[OPPONENT_WAITS] / unseen_total)
    typical = TYPICAL_POINTS if rules.settings[SCORING] == SCORING_CHALLENGE else TYPICAL_FANS
    loss = parameters[OPPONENT_VALUE] if parameters[OPPONENT_VALUE] > 0 else typical
    if rules.settings[SCORING] != SCORING_CHALLENGE:
        loss *= 2.0 ** table[DOUBLES + opponent]
    race[0], race[1], race[2], race[3] = unseen_total, hazard, loss, parameters[RON_SHARE]
    return threat


# ------------------------------------------------------------------------------------- decisions


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
                  rates, steps, distances):
    """(kind, declare, EV, P(win)) of the best discard from the hand of 3k+2 tiles. EV is NONE when every
    discard leaves the hand too far from ready for the search; the discard is then greedy's."""
    _distances_after_discard(hand, n_melds, rules.suit_table, rules.honour_table, work.shanten_scratch, distances)
    best_distance = 255
    for kind in range(N_KINDS):
        best_distance = min(best_distance, distances[kind])
    if best_distance > 2:
        return _greedy_discard(hand, n_melds, unseen, rules, work, distances), False, NONE, 0.0
    # when a discard leaves the hand ready, those leaving it one tile away compete too: a ready hand that
    # may not win is worth breaking for one that may
    deepest = 2 if best_distance == 1 else best_distance
    loss = race[2]
    best_kind, best_declare, best_ev, best_win = -1, False, NONE, 0.0
    for kind in range(N_KINDS):
        if distances[kind] > deepest:
            continue
        hand[kind] -= 1
        ev, win = _hand_ev(hand, n_melds, melds, unseen, bonus, rules, work, money, race, rounds, rates, steps)
        declare = False
        if may_declare and distances[kind] == 1:
            declared_ev, declared_win = _ready_ev(hand, n_melds, melds, unseen, bonus, rules, work, READY_FLAG,
                                                  money, race, rounds, rates)
            if declared_ev >= ev and rates[0] + rates[2] > 0:
                ev, win, declare = declared_ev, declared_win, True
        hand[kind] += 1
        ev = (1.0 - deal_in[kind]) * ev - deal_in[kind] * loss
        win *= 1.0 - deal_in[kind]
        if ev > best_ev + 1e-9:
            best_kind, best_declare, best_ev, best_win = kind, declare, ev, win
    return best_kind, best_declare, best_ev, best_win


@njit(cache=True, inline="always")
def _find(observation, code, tile):
    target = code * ACTION_BASE + tile
    for action in observation.legal:
        if action == target:
            return action
    return NO_ACTION


@njit(cache=True, inline="always")
def _find_code(observation, code):
    for action in observation.legal:
        if action // ACTION_BASE == code:
            return action
    return NO_ACTION


@njit(cache=True, inline="always")
def _my_rounds(observation, on_turn):
    """The draws left to the seat: after its own discard the opponent draws first; on the opponent's
    discard the seat does."""
    left = wall_left(observation.table)
    return left // 2 if on_turn else (left + 1) // 2


@njit(cache=True, inline="always")
def _turn(observation, parameters, money, race, deal_in, melds, rates, steps, distances):
    hand, rules, work = observation.hand, observation.rules, observation.work
    n_melds = observation.n_melds
    may_declare = parameters[READY_POLICY] != 0 and _find_code(observation, DISCARD_READY) != NO_ACTION
    kind, declare, _, _ = _best_discard(hand, n_melds, melds, observation.unseen, observation.bonus, rules, work,
                                        money, race, _my_rounds(observation, True), may_declare, deal_in, rates,
                                        steps, distances)
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
        action = _find(observation, DISCARD_READY, kind)
        if action != NO_ACTION:
            return action
    action = _find(observation, DISCARD, kind)
    return action if action != NO_ACTION else observation.legal[0]


@njit(cache=True, inline="always")
def _claim(observation, parameters, money, race, deal_in, melds, rates, steps, distances):
    """Pass, or the pong, chow or kong whose hand (after its best discard) is worth more than the hand kept."""
    hand, rules, work, unseen, bonus = observation.hand, observation.rules, observation.work, observation.unseen, observation.bonus
    offer = observation.tile
    n_melds = observation.n_melds
    passing = _find_code(observation, PASS)
    if parameters[CLAIM] == 0 or n_melds >= 4:
        return passing
    keep_ev, _ = _hand_ev(hand, n_melds, melds, unseen, bonus, rules, work, money, race,
                          _my_rounds(observation, False), rates, steps)
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
                                 rates, steps)
        else:
            _, _, ev, _ = _best_discard(hand, n_melds + 1, melds, unseen, bonus, rules, work, money, race,
                                        rounds_after, False, deal_in, rates, steps, distances)
            after = 255
            for kind in range(N_KINDS):
                after = min(after, distances[kind] - 1)
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
def _doubles_pay(observation, parameters, money, race, melds, rates):
    """Whether the race with the doubled multiplier is worth more than the win on offer now."""
    table, seat, hand = observation.table, observation.seat, observation.hand
    if table[DOUBLES + seat] >= parameters[DOUBLE_POLICY] or money[2] != 0 or _find_code(observation, DOUBLE) == NO_ACTION:
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
                         observation.work, extra_flags, doubled, race, _my_rounds(observation, on_turn), rates)
    if on_turn:
        hand[drawn] += 1
    return later > now


# The engine's loop runs without reference counting, which its callees inherit; this function allocates its
# work arrays, so it runs with reference counting on (as sim.numba_players._xuezhan_value does).
@numba_player(**DEFAULTS)
@njit(cache=True, _nrt=True)
def act(observation, parameters, rng):
    table, seat = observation.table, observation.seat
    rates, steps = np.zeros(4), np.zeros((N_KINDS, 4))
    distances, deal_in, race = np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS), np.zeros(4)
    melds = np.empty((4, 2), np.int8)  # the seat's melds, copied: a claim is tried by adding one
    for index in range(4):
        melds[index, 0], melds[index, 1] = observation.melds[seat, index, 0], observation.melds[seat, index, 1]
    money = np.empty(3)  # flowers, the multiplier 2^doubles, 1 where wins are priced in points
    money[0] = table[FLOWERS + seat]
    money[1] = 2.0 ** table[DOUBLES + seat]
    money[2] = 1.0 if observation.rules.settings[SCORING] == SCORING_CHALLENGE else 0.0
    threat = _race_terms(observation, parameters, race)
    win = _find_code(observation, WIN)
    if win != NO_ACTION:
        if _doubles_pay(observation, parameters, money, race, melds, rates):
            return _find_code(observation, DOUBLE), rng
        return win, rng
    if observation.decision == DECISION_OPENING_READY:
        declare = _find_code(observation, DECLARE_READY)
        if declare != NO_ACTION and parameters[READY_POLICY] != 0:
            _waits(observation.hand, observation.n_melds, melds, observation.unseen, observation.bonus,
                   observation.rules, observation.work, READY_FLAG, money, rates)
            if rates[0] + rates[2] > 0:
                return declare, rng
        return _find_code(observation, PASS), rng
    _deal_in_chances(observation, threat, deal_in)
    if observation.decision == DECISION_TURN:
        return _turn(observation, parameters, money, race, deal_in, melds, rates, steps, distances), rng
    return _claim(observation, parameters, money, race, deal_in, melds, rates, steps, distances), rng

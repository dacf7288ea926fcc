"""Slow, obviously correct twins of the kernels, written for clarity; the tests compare the kernels to them.

Written in the subset of Python that numba also compiles, so the tests can run them over hundreds of
thousands of hands (``numba.njit(function)`` compiles the very same code; nothing here is cached).
"""

import functools

import numpy as np

N_KINDS = 34
BIG = 1000


def is_complete_standard(counts, n_sets):
    """Try every pair; the rest must split into exactly `n_sets` pungs and chows."""
    for pair_kind in range(N_KINDS):
        if counts[pair_kind] >= 2:
            rest = counts.copy()
            rest[pair_kind] -= 2
            if _all_sets(rest, n_sets):
                return True
    return False


def _all_sets(counts, n_sets):
    """Can `counts` be split into exactly `n_sets` pungs and chows? (consumes `counts`)

    Walk the kinds upwards. The tiles of the lowest kind left can only be covered by pungs of it and
    chows starting at it. Three chows starting there hold the same tiles as three pungs (of it and the
    next two kinds), so taking a pung whenever three are held loses nothing; the rest must start chows.
    """
    sets = 0
    for kind in range(N_KINDS):
        if counts[kind] >= 3:
            counts[kind] -= 3
            sets += 1
        chows = counts[kind]
        if chows == 0:
            continue
        if kind >= 27 or kind % 9 > 6 or counts[kind + 1] < chows or counts[kind + 2] < chows:
            return False
        counts[kind] = 0
        counts[kind + 1] -= chows
        counts[kind + 2] -= chows
        sets += chows
    return sets == n_sets


def is_complete_seven_pairs(counts):
    """Seven pairs, a four-of-a-kind counting as two pairs: every count even, 14 tiles."""
    for kind in range(N_KINDS):
        if counts[kind] % 2 == 1:
            return False
    return counts.sum() == 14


def standard_distance(counts, n_sets):
    """Fewest tiles to add so the hand contains `n_sets` sets and a pair, at most 4 copies of a kind."""
    return standard_distances(counts)[n_sets]


def standard_distances(counts, max_copies=4):
    """[fewest tiles to add so the hand contains `sets` sets and a pair, for sets = 0..4].

    A target holds at most `max_copies` of a kind (4 in the game; more only to explain other calculators).

    A dynamic programme over the kinds in order. The state is how many chows were started at the
    previous kind and the one before (they still need this kind), the sets chosen so far and whether
    the pair is chosen. At each kind choose a pung or not, the pair or not, and a number of chows to
    start; the target count of the kind is what those choices use, capped at 4, and the cost is the
    part of it the hand lacks.
    """
    # best[started_previous, started_two_back, sets, pair]
    best = np.full((5, 5, 5, 2), BIG, np.int64)
    best[0, 0, 0, 0] = 0
    for kind in range(N_KINDS):
        suited = kind < 27
        rank = kind % 9 if suited else 0
        next_best = np.full((5, 5, 5, 2), BIG, np.int64)
        for previous in range(5):
            for two_back in range(5):
                for sets in range(5):
                    for pair in range(2):
                        cost_so_far = best[previous, two_back, sets, pair]
                        if cost_so_far >= BIG:
                            continue
                        # Chows started two kinds back end here; they must not run off the suit.
                        for start in range(5):
                            if start > 0 and (not suited or rank > 6):
                                break
                            for pung in range(2):
                                for take_pair in range(2 - pair):
                                    new_sets = sets + start + pung
                                    if new_sets > 4:
                                        continue
                                    used = previous + two_back + start + 3 * pung + 2 * take_pair
                                    if used > max_copies:
                                        continue
                                    cost = cost_so_far + max(0, used - counts[kind])
                                    if cost < next_best[start, previous, new_sets, pair + take_pair]:
                                        next_best[start, previous, new_sets, pair + take_pair] = cost
        # Chows still open at the end of a suit cannot be finished: drop those states.
        if suited and rank >= 7:
            for previous in range(5):
                for two_back in range(5):
                    if (rank == 7 and previous > 0) or (rank == 8 and (previous > 0 or two_back > 0)):
                        next_best[previous, two_back, :, :] = BIG
        best = next_best
    return best[0, 0, :, 1].copy()


def seven_pairs_distance(counts):
    """Fewest tiles to add for seven pairs: choose each kind's target among 0, 2 and 4 copies."""
    # best[pairs] over the kinds seen so far
    best = np.full(8, BIG, np.int64)
    best[0] = 0
    for kind in range(N_KINDS):
        next_best = np.full(8, BIG, np.int64)
        for pairs in range(8):
            if best[pairs] >= BIG:
                continue
            for take in range(3):
                if pairs + take > 7:
                    continue
                cost = best[pairs] + max(0, 2 * take - counts[kind])
                if cost < next_best[pairs + take]:
                    next_best[pairs + take] = cost
        best = next_best
    return best[7]


def shanten(counts, n_melds):
    """(best, standard, seven pairs) shanten; seven pairs is 99 (unreachable) with melds."""
    standard = standard_distance(counts, 4 - n_melds) - 1
    seven = seven_pairs_distance(counts) - 1 if n_melds == 0 else 99
    return min(standard, seven), standard, seven


def is_complete(counts, n_melds):
    if counts.sum() + 3 * n_melds != 14:
        return False
    return is_complete_standard(counts, 4 - n_melds) or (n_melds == 0 and is_complete_seven_pairs(counts))


def waits(counts, n_melds):
    """Kinds whose addition completes the hand, never a fifth copy."""
    result = np.zeros(N_KINDS, np.bool_)
    for kind in range(N_KINDS):
        if counts[kind] < 4:
            counts[kind] += 1
            result[kind] = is_complete(counts, n_melds)
            counts[kind] -= 1
    return result


def ukeire(counts, n_melds, live):
    """Live copies of the kinds whose draw lowers the shanten of a 13-tile (less 3 per meld) hand."""
    before = shanten(counts, n_melds)[0]
    total = 0
    for kind in range(N_KINDS):
        if counts[kind] < 4 and live[kind] > 0:
            counts[kind] += 1
            if shanten(counts, n_melds)[0] < before:
                total += live[kind]
            counts[kind] -= 1
    return total


def discard_measures(counts, n_melds, live, after, accepted):
    """For a hand of 14 tiles (less 3 per meld): after[kind] = shanten + 1 of the hand left by discarding
    `kind` (BIG for kinds not held), and for the kinds at the lowest, accepted[kind] = the ukeire of that hand
    left (0 for the others); returns the lowest. `live`: the copies the player cannot see."""
    best = BIG
    for kind in range(N_KINDS):
        after[kind] = BIG
        accepted[kind] = 0
        if counts[kind] > 0:
            counts[kind] -= 1
            after[kind] = shanten(counts, n_melds)[0] + 1
            counts[kind] += 1
            best = min(best, after[kind])
    for kind in range(N_KINDS):
        if after[kind] == best:
            counts[kind] -= 1
            accepted[kind] = ukeire(counts, n_melds, live)
            counts[kind] += 1
    return best


# Batch loops, so the compiled copy runs whole arrays without a Python call per hand.


def standard_distances_many(hands, out):
    for hand in range(hands.shape[0]):
        out[hand, :] = standard_distances(hands[hand])


def seven_pairs_distance_many(hands, out):
    for hand in range(hands.shape[0]):
        out[hand] = seven_pairs_distance(hands[hand])


def is_complete_many(hands, n_melds, out):
    for hand in range(hands.shape[0]):
        out[hand] = is_complete(hands[hand], n_melds[hand])


def waits_many(hands, n_melds, out):
    for hand in range(hands.shape[0]):
        out[hand, :] = waits(hands[hand].copy(), n_melds[hand])


def ukeire_many(hands, n_melds, live, out):
    for hand in range(hands.shape[0]):
        out[hand] = ukeire(hands[hand].copy(), n_melds[hand], live[hand])


def discard_measures_many(hands, n_melds, live, after, accepted):
    for hand in range(hands.shape[0]):
        discard_measures(hands[hand].copy(), n_melds[hand], live[hand], after[hand], accepted[hand])


def ready_race(self_rate, self_value, ron_rate, ron_value, hazards, loss, rounds):
    """sim.players.win_race's race of a ready hand over `rounds` rounds, walked forwards: (EV, P(the hand wins)).
    The round with h rounds left first ends the race with hazards[h]; else the hand wins on a discard with
    `ron_rate`; else on its own draw with `self_rate`; else the next round begins."""
    on, expected, won = 1.0, 0.0, 0.0
    for left in range(rounds, 0, -1):
        expected -= on * hazards[left] * loss
        on *= 1.0 - hazards[left]
        expected += on * ron_rate * ron_value
        won += on * ron_rate
        on *= 1.0 - ron_rate
        expected += on * self_rate * self_value
        won += on * self_rate
        on *= 1.0 - self_rate
    return expected, won

def far_chance(distance, advance, self_rate, ron_rate, hazards, rounds):
    """sim.players.win_race.far_chance by its recursion (plain Python, not for numba): the chance that a hand `level`
    useful draws from ready wins within `left` rounds, the round ending the race with hazards[left], then
    (ready) a win on a discard or on the draw, or (not ready) a step closer with the draw."""

    @functools.cache
    def chance(level, left):
        if left == 0:
            return 0.0
        stay = 1 - hazards[left]
        if level == 0:
            return stay * (ron_rate + (1 - ron_rate) * (self_rate + (1 - self_rate) * chance(0, left - 1)))
        return stay * (advance * chance(level - 1, left - 1) + (1 - advance) * chance(level, left - 1))

    return chance(distance, rounds)


def opponent_hazards(start, advance, win_rate, played, rounds):
    """sim.players.win_race.opponent_hazards by counting paths (plain Python): the opponent's chance to be at each
    distance after n rounds without winning, each path's probability the product of its steps; the hazard
    of a round is its chance to win in it over its chance to be still in (a hand that cannot be still in
    counts as ready and winning at `win_rate`). Returns (ready now, hazards)."""
    base, further = int(start), start - int(start)

    @functools.cache
    def at(level, n):  # the chance to be `level` from ready after n rounds, not having won
        if n == 0:
            return (1 - further if level == base else 0.0) + (further if level == base + 1 else 0.0)
        came = at(level + 1, n - 1) * advance if level + 1 <= base + 1 else 0.0
        if level == 0:
            return at(0, n - 1) * (1 - win_rate) + came
        return at(level, n - 1) * (1 - advance) + came

    def alive(n):
        return sum(at(level, n) for level in range(base + 2))

    hazards = [0.0] * (rounds + 1)
    for step in range(rounds):
        n = played + step
        hazards[rounds - step] = at(0, n) * win_rate / alive(n) if alive(n) > 0 else win_rate  # gone: certain
    return (at(0, played) / alive(played) if alive(played) > 0 else 1.0), hazards


def clustered_error(values, clusters):
    """analysis.calibration's cluster-robust standard error of a mean, by its formula: the clusters' summed
    deviations from the mean, squared, with the small-sample factor C/(C-1), over n^2 (plain Python)."""
    values, clusters = list(values), list(clusters)
    mean = sum(values) / len(values)
    sums = {}
    for value, cluster in zip(values, clusters):
        sums[cluster] = sums.get(cluster, 0.0) + value - mean
    count = len(sums)
    return (count / (count - 1) * sum(total * total for total in sums.values())) ** 0.5 / len(values)


def isotonic(values, weights):
    """sim.players.ev_calibration.isotonic by the min-max formula of isotonic regression (plain Python): the fitted
    value at i is the largest, over blocks starting at or before i, of the smallest weighted mean of a block
    from there ending at or after i."""
    n = len(values)

    def mean(low, high):
        return sum(values[k] * weights[k] for k in range(low, high + 1)) / sum(weights[low:high + 1])

    return [max(min(mean(low, high) for high in range(i, n)) for low in range(i + 1)) for i in range(n)]


def largest_fee_by_scan(meets, highest):
    """The largest whole fee from 0 to `highest` for which `meets(fee)` holds, trying every fee in turn
    (analysis.fee_solver.largest_fee's twin); NaN when none does."""
    found = float("nan")
    for fee in range(highest + 1):
        if meets(fee):
            found = float(fee)
    return found


def ratio_difference(first, second, paired, z):
    """analysis.compare.difference_interval by the textbook delta method (plain Python, not for numba): a
    run's figure is R = mean(x) / mean(w) over its deals, `first` and `second` lists of (x, w), one per deal;
    the variance of R_B - R_A is g' S g / n, g the gradient of R_B - R_A in the four means (dR/d mean(x) =
    1 / mean(w), dR/d mean(w) = -mean(x) / mean(w)^2) and S the sample covariance matrix of the deals'
    (x_A, w_A, x_B, w_B); unpaired, each run's g' S g / n on its own, added. Returns (R_A, R_B, R_B - R_A,
    low, high) with the interval at z standard errors."""

    def means(pairs):
        return sum(x for x, _ in pairs) / len(pairs), sum(w for _, w in pairs) / len(pairs)

    def covariance(rows, i, j):
        mean_i = sum(row[i] for row in rows) / len(rows)
        mean_j = sum(row[j] for row in rows) / len(rows)
        return sum((row[i] - mean_i) * (row[j] - mean_j) for row in rows) / (len(rows) - 1)

    def quadratic_form(gradient, rows):
        return sum(gradient[i] * gradient[j] * covariance(rows, i, j) for i in range(len(gradient)) for j in range(len(gradient)))

    (mean_xa, mean_wa), (mean_xb, mean_wb) = means(first), means(second)
    ratio_a, ratio_b = mean_xa / mean_wa, mean_xb / mean_wb
    gradient_a = [1 / mean_wa, -mean_xa / mean_wa**2]
    gradient_b = [1 / mean_wb, -mean_xb / mean_wb**2]
    if paired:
        rows = [(xa, wa, xb, wb) for (xa, wa), (xb, wb) in zip(first, second, strict=True)]
        variance = quadratic_form([-gradient_a[0], -gradient_a[1], gradient_b[0], gradient_b[1]], rows) / len(rows)
    else:
        variance = quadratic_form(gradient_a, first) / len(first) + quadratic_form(gradient_b, second) / len(second)
    difference = ratio_b - ratio_a
    half = z * variance**0.5
    return ratio_a, ratio_b, difference, difference - half, difference + half


def ratings_by_averaging(pairings, anchor, sweeps=20_000, tolerance=1e-13):
    """The least-squares ratings of (first, second, mean difference, walls) pairings, anchor at 0, by their
    defining property: each other player's rating is the walls-weighted mean of what its pairings say it is
    (its opponent's rating plus the difference it won by), so sweeps of that averaging settle on the fit."""
    players = list(dict.fromkeys(name for first, second, _, _ in pairings for name in (first, second)))
    ratings = dict.fromkeys(players, 0.0)
    for _ in range(sweeps):
        largest_move = 0.0
        for player in players:
            if player == anchor:
                continue
            said, weight = 0.0, 0.0
            for first, second, difference, walls in pairings:
                if first == second:
                    continue
                if first == player:
                    said, weight = said + walls * (ratings[second] + difference), weight + walls
                elif second == player:
                    said, weight = said + walls * (ratings[first] - difference), weight + walls
            moved = said / weight
            largest_move = max(largest_move, abs(moved - ratings[player]))
            ratings[player] = moved
        if largest_move < tolerance:
            break
    return ratings

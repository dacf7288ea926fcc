"""The sequential probability ratio test on per-wall values: its LLR is the normal likelihood ratio, its
error rates hold by simulation on streams of known mean (normal, and one with rare large values shaped like
mahjong money), and it needs fewer values on average than the fixed-length test of the same power."""

import math

import numpy as np
import pytest

from sim.core.sequential_test import (
    ACCEPT_H0,
    ACCEPT_H1,
    CONTINUE,
    SequentialTest,
    elo_of_score,
    score_of_elo,
    wall_scores,
)

TESTS = 2_000  # simulated tests per stream and true mean
TOLERANCE = 0.01  # absolute, on the simulated error rate


def test_the_llr_is_the_log_ratio_of_two_normal_likelihoods_of_the_stream_variance():
    values = np.random.default_rng(5).normal(0.3, 2.0, 500)
    test = SequentialTest(0.0, 0.5)
    variance = values.var()
    direct = np.sum(-(values - 0.5) ** 2 + (values - 0.0) ** 2) / (2 * variance)
    assert test.log_likelihood_ratio(len(values), values.mean(), variance) == pytest.approx(direct)


def test_the_bounds_are_walds():
    test = SequentialTest(0.0, 1.0, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95)) and test.upper == pytest.approx(math.log(0.9 / 0.05))


def test_a_stream_without_variance_is_decided_by_which_side_of_the_midpoint_it_is_on():
    test = SequentialTest(0.0, 1.0)
    assert test.log_likelihood_ratio(400, 0.0, 0.0) == -math.inf  # a player against itself: every value 0
    assert test.log_likelihood_ratio(400, 0.9, 0.0) == math.inf
    assert test.log_likelihood_ratio(400, 0.5, 0.0) == 0
    assert test.decide(400, -math.inf) == ACCEPT_H0 and test.decide(400, math.inf) == ACCEPT_H1


def test_the_test_does_not_look_before_its_first_look():
    test = SequentialTest(0.0, 1.0, first_look=300)
    assert test.decide(299, 100.0) is CONTINUE and test.decide(300, 100.0) == ACCEPT_H1
    assert test.decide(300, 0.0) is CONTINUE


def test_the_fixed_length_test_is_the_textbook_sample_size():
    # z_0.95 = 1.6449: n = ((1.6449 + 1.6449) * sd / delta)^2
    assert SequentialTest(0.0, 0.1).fixed_length(1.0) == pytest.approx((2 * 1.644854 / 0.1) ** 2, rel=1e-5)


def test_elo_and_score_are_the_logistic_curve():
    assert score_of_elo(0.0) == 0.5 and score_of_elo(400.0) == pytest.approx(10 / 11)
    assert elo_of_score(0.75) == pytest.approx(-400 * math.log10(1 / 0.75 - 1))
    assert elo_of_score(score_of_elo(-123.0)) == pytest.approx(-123.0)
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf


def test_a_wall_scores_one_won_half_equal_nothing_lost():
    assert wall_scores(np.array([3.0, 0.0, -0.5])).tolist() == [1.0, 0.5, 0.0]


# ------------------------------------------------------------------------------------- by simulation


def simulate(test, draw, batch, rng, tests=TESTS, cap=None):
    """(verdicts, values used) of `tests` independent sequential tests on streams from draw(rng, shape),
    looked at every `batch` values: all tests advance together, one batch of values at a time."""
    cap = cap or int(20 * test.fixed_length(1.0))
    count, total, squares = np.zeros(tests), np.zeros(tests), np.zeros(tests)
    verdicts = np.full(tests, "", dtype=object)
    active = np.arange(tests)
    while len(active):
        values = draw(rng, (len(active), batch))
        count[active] += batch
        total[active] += values.sum(axis=1)
        squares[active] += (values**2).sum(axis=1)
        seen = count[active]
        mean = total[active] / seen
        llr = test.log_likelihood_ratio(seen, mean, np.maximum(squares[active] / seen - mean**2, 0))
        for index, one in zip(active, llr, strict=True):
            verdicts[index] = test.decide(count[index], one) or ""
        active = active[(verdicts[active] == "") & (count[active] < cap)]
    return verdicts, count


def normal(mean):
    return lambda rng, shape: rng.normal(mean, 1.0, shape)


# Mahjong money per wall, in its shape: a tenth of the walls even, most a little up or down, and one in fifty
# a large win, three times as often the first player's as the second's: skewness 2.8 and excess kurtosis 37
# (value v greedy in sanren-liangfang, uncapped 2 to the power of the fans, measured 2.8 and 104).
_MIXTURE_MEAN = 0.015 * 20 - 0.005 * 20
_MIXTURE_DEVIATION = math.sqrt(0.88 + 0.02 * 400 - _MIXTURE_MEAN**2)


def money_like(mean):
    def draw(rng, shape):
        uniform = rng.random(shape)
        value = np.where(uniform < 0.10, 0.0, np.where(uniform < 0.98, rng.normal(0.0, 1.0, shape),
                                                      np.where(uniform < 0.995, 20.0, -20.0)))
        return mean + (value - _MIXTURE_MEAN) / _MIXTURE_DEVIATION  # standard deviation 1, mean `mean`
    return draw


def test_the_money_like_stream_has_the_mean_and_spread_it_claims():
    values = money_like(0.25)(np.random.default_rng(0), 2_000_000)
    assert values.mean() == pytest.approx(0.25, abs=0.003) and values.std() == pytest.approx(1.0, abs=0.01)


@pytest.mark.parametrize("stream", [normal, money_like], ids=["normal", "money-like"])
def test_the_error_rates_hold_at_the_bounds(stream):
    test = SequentialTest(0.0, 0.1)  # a tenth of a standard deviation: 1,082 values for the fixed-length test
    at_low, _ = simulate(test, stream(0.0), 100, np.random.default_rng(1))
    at_high, _ = simulate(test, stream(0.1), 100, np.random.default_rng(2))
    assert np.mean(at_low == ACCEPT_H1) <= test.alpha + TOLERANCE
    assert np.mean(at_high == ACCEPT_H0) <= test.beta + TOLERANCE


def test_without_its_first_look_the_money_like_stream_breaks_beta():
    # why the test waits: early, before the rare large wins show, mean and variance are both low together
    test = SequentialTest(0.0, 0.1, first_look=0)
    at_high, _ = simulate(test, money_like(0.1), 100, np.random.default_rng(2))
    assert np.mean(at_high == ACCEPT_H0) > test.beta + 2 * TOLERANCE


def test_the_sequential_test_needs_fewer_values_than_the_fixed_length_one_at_either_bound():
    test = SequentialTest(0.0, 0.05)  # 4,329 values for the fixed-length test
    for mean, rng in ((0.0, 3), (0.05, 4)):
        _, used = simulate(test, normal(mean), 200, np.random.default_rng(rng), tests=500)
        assert used.mean() < 0.7 * test.fixed_length(1.0)

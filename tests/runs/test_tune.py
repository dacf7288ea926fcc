"""The tuner on a synthetic objective of known optimum: the "play" is injected, a noisy quadratic in greedy's
doubling parameters, so these tests need no deal. They pin that SPSA converges near the optimum, that integer
parameters are played rounded and ranges are kept, that a run is a pure function of its seed, that every
iteration and the confirmation play walls of their own, and that luck on the walls is taken out."""

import zlib

import numpy as np
import pytest

from sim.core.spsa import Gains, Parameter
from sim.erren import FAMILY
from sim.players.player_parameters import parameter_values
from sim.runs.duel import Walls
from sim.runs.tune import confirm, tune

BELOW, WALL = Parameter("double_below", 0, 30), Parameter("double_wall", 0, 20)
OPTIMUM = {"double_below": 21.0, "double_wall": 6.0}  # scaled: 0.7 and 0.3; greedy's defaults are 0 and 10


def worth(text: str, curvature: float) -> float:
    """The synthetic objective, in standard deviations of a wall's result: a quadratic in the scaled values."""
    values = parameter_values(FAMILY, text)
    return -curvature * sum(((values[name] - OPTIMUM[name]) / span) ** 2
                            for name, span in (("double_below", 30), ("double_wall", 20)))


class NoisyQuadratic:
    """`play` for tune: each player's money on a wall is its worth plus noise of one standard deviation, the
    noise a pure function of (player, wall); with `luck`, the first player's noise is also returned as the
    walls' luck, a feature of known zero mean that explains it."""

    def __init__(self, curvature: float = 1.0, luck: bool = False):
        self.curvature, self.luck, self.calls = curvature, luck, []

    def __call__(self, first, second, start, count):
        self.calls.append((first, second, start, count))
        noise = [np.random.default_rng([zlib.crc32(text.encode()), start, count]).normal(size=count)
                 for text in (first, second)]
        money = np.stack([worth(first, self.curvature) + noise[0], worth(second, self.curvature) + noise[1]])[None]
        return Walls(start, money, np.zeros((1, 2, count), np.int8), np.ones(2), noise[0][:, None] if self.luck else None)


def _tuned(play, iterations=200, walls=100, seed=1, parameters=(BELOW, WALL), player="greedy", **options):
    return tune(FAMILY, player, "greedy", list(parameters), iterations, walls, seed, play,
                Gains(2.0, 0.2, 0.1 * iterations), **options)


def test_spsa_converges_near_the_optimum_of_a_noisy_quadratic():
    # a player's result on a wall has a standard deviation of 1; the optimum is worth 1.06 more than the defaults
    result = _tuned(NoisyQuadratic(curvature=2.0), walls=400)
    assert result.start == {"double_below": 0.0, "double_wall": 10.0}
    # within a tenth of each range of the optimum, from 0.7 and 0.2 of the ranges away (over 40 seeds the
    # farthest was 0.07 of a range)
    assert abs(result.tuned["double_below"] - OPTIMUM["double_below"]) < 3
    assert abs(result.tuned["double_wall"] - OPTIMUM["double_wall"]) < 2
    assert result.tuned_text == (f"greedy:double_below={result.tuned['double_below']:.5g},"
                                 f"double_wall={result.tuned['double_wall']:.5g}")


def test_the_trace_has_one_row_per_iteration_and_each_row_leads_to_the_next():
    result = _tuned(NoisyQuadratic(), iterations=30)
    trace = result.trace
    assert list(trace["iteration"]) == list(range(30))
    for name in ("double_below", "double_wall"):
        assert np.allclose(trace[f"next_{name}"].iloc[:-1], trace[f"theta_{name}"].iloc[1:])
        low, high = (0, 30) if name == "double_below" else (0, 20)
        for column in ("theta", "plus", "minus", "next"):
            assert trace[f"{column}_{name}"].between(low, high).all()
    assert (trace["standard_error"] > 0).all() and (trace["scale"] > 0).all()
    assert (np.diff(trace["step"]) < 0).all() and (np.diff(trace["spread"]) < 0).all()


def test_an_integer_parameter_is_played_rounded_while_its_iterate_stays_continuous():
    whole = Parameter("double_below", 0, 30, integer=True)
    play = NoisyQuadratic()
    result = _tuned(play, iterations=40, parameters=(whole, WALL))
    trace = result.trace
    assert (trace["plus_double_below"] % 1 == 0).all() and (trace["minus_double_below"] % 1 == 0).all()
    assert (trace["theta_double_below"] % 1 != 0).any()
    assert result.tuned["double_below"].is_integer()
    assert f"double_below={int(result.tuned['double_below'])}," in result.tuned_text
    played = {parameter_values(FAMILY, first)["double_below"] for first, _, _, _ in play.calls}
    assert all(value.is_integer() for value in played)


def test_a_switch_is_measured_off_against_on_and_tuned_to_the_better_end():
    class ClaimingCosts(NoisyQuadratic):
        def __call__(self, first, second, start, count):
            walls = super().__call__(first, second, start, count)
            walls.money[0, 0] -= 0.5 * parameter_values(FAMILY, first)["claim"]  # claiming costs half a deviation
            walls.money[0, 1] -= 0.5 * parameter_values(FAMILY, second)["claim"]
            return walls

    result = _tuned(ClaimingCosts(curvature=0.0), iterations=30, parameters=(Parameter("claim", 0, 1, integer=True),))
    assert result.start == {"claim": 1.0} and result.tuned == {"claim": 0.0}
    assert result.tuned_text == "greedy:claim=0"
    assert (result.trace["plus_claim"] != result.trace["minus_claim"]).all()


def test_a_huge_step_keeps_every_point_inside_the_ranges():
    result = tune(FAMILY, "greedy", "greedy", [BELOW, WALL], 20, 50, 3, NoisyQuadratic(curvature=50.0),
                  Gains(500.0, 0.5, 2.0))
    for name, (low, high) in (("double_below", (0, 30)), ("double_wall", (0, 20))):
        for column in ("theta", "plus", "minus", "next"):
            assert result.trace[f"{column}_{name}"].between(low, high).all()
    assert set(result.trace["next_double_below"]) & {0.0, 30.0}  # it did reach an end


def test_the_same_seed_gives_the_same_trace_and_another_seed_another():
    first, again, other = (_tuned(NoisyQuadratic(), iterations=25, seed=seed) for seed in (5, 5, 6))
    assert first.trace.equals(again.trace) and first.tuned_text == again.tuned_text
    assert not first.trace.equals(other.trace)


def test_every_iteration_and_the_confirmation_play_walls_of_their_own():
    play = NoisyQuadratic()
    result = _tuned(play, iterations=12, walls=40)
    confirmation = confirm(FAMILY, result.tuned_text, "greedy", result.walls_used, 300, play)
    ranges = sorted({(start, start + count) for _, _, start, count in play.calls})
    assert ranges == [(40 * k, 40 * (k + 1)) for k in range(12)] + [(480, 780)]
    assert confirmation.first_wall == 480 and confirmation.walls == 300
    # each iteration plays its two points against the opponent on the same walls
    for k in range(12):
        calls = [call for call in play.calls if call[2] == 40 * k]
        assert len(calls) == 2 and {call[1] for call in calls} == {"greedy"} and calls[0][0] != calls[1][0]


def test_the_confirmation_measures_the_tuned_player_against_the_player_as_given():
    play = NoisyQuadratic(curvature=1.0)
    confirmation = confirm(FAMILY, "greedy:double_below=21,double_wall=6", "greedy", 0, 4000, play)
    expected = worth("greedy:double_below=21,double_wall=6", 1.0) - worth("greedy", 1.0)  # 0.49 + 0.04
    assert confirmation.difference == pytest.approx(expected, abs=4 * confirmation.standard_error)
    assert confirmation.z > 10 and confirmation.p_value < 1e-6
    low, high = confirmation.interval
    assert low < confirmation.difference < high
    same = confirm(FAMILY, "greedy:double_wall=10", "greedy", 0, 100, play)
    assert not same.played and same.difference == 0 and same.z == 0 and len(play.calls) == 1  # nothing played


def test_luck_on_the_walls_is_taken_out_when_variance_reduction_is_on():
    reduced = _tuned(NoisyQuadratic(luck=True), iterations=10, walls=400)
    plain = _tuned(NoisyQuadratic(luck=True), iterations=10, walls=400, variance_reduction=False)
    # the luck explains all of both points' noise (the opponent's cancels: the same player on the same walls)
    assert (reduced.trace["standard_error"] < plain.trace["standard_error"] / 10).all()
    assert (plain.trace["standard_error"] > 0.05).all()  # sqrt(2) / sqrt(400): two players' noise
    lucky = confirm(FAMILY, "greedy:double_below=21", "greedy", 0, 2000, NoisyQuadratic(luck=True))
    unlucky = confirm(FAMILY, "greedy:double_below=21", "greedy", 0, 2000, NoisyQuadratic(luck=True),
                      variance_reduction=False)
    # against the player as given, the luck explains the tuned player's noise only: half of the variance
    assert lucky.variance_reduced and not unlucky.variance_reduced
    assert lucky.standard_error == pytest.approx(unlucky.standard_error / np.sqrt(2), rel=0.1)
    assert abs(lucky.difference - unlucky.difference) < 3 * unlucky.standard_error

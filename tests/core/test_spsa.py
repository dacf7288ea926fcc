"""SPSA's step, alone: the gains Spall gives, parameters scaled by their ranges, integer parameters rounded
only when played, everything clipped to the ranges, and perturbations that are a pure function of the seed."""

import numpy as np
import pytest

from sim.core.spsa import ALPHA, GAMMA, Gains, Parameter, perturbed, signs, spreads, stepped


def test_the_gains_follow_spalls_sequences():
    gains = Gains(step_size=2.0, perturbation=0.2, stability=10.0)
    assert gains.step(0) == pytest.approx(2.0 / 11**0.602)
    assert gains.step(9) == pytest.approx(2.0 / 20**ALPHA)
    assert gains.spread(0) == pytest.approx(0.2)
    assert gains.spread(99) == pytest.approx(0.2 / 100**GAMMA)


def test_a_parameter_is_scaled_to_its_range_and_clipped_to_it():
    wall = Parameter("double_wall", 0, 20)
    assert wall.scaled(5) == 0.25 and wall.value(0.25) == 5
    assert wall.scaled(-3) == 0.0 and wall.scaled(40) == 1.0
    assert wall.value(1.7) == 20 and wall.value(-0.2) == 0


def test_an_integer_parameter_is_rounded_to_a_whole_number_inside_its_range():
    below = Parameter("double_below", 2, 9, integer=True)
    assert below.value(0.5) == 6 and below.value(1.5 / 7) == 4  # 5.5 and 3.5: halves round up
    assert below.value(0.49) == 5
    assert below.value(0.0) == 2 and below.value(1.0) == 9
    assert all(below.value(point).is_integer() for point in np.linspace(0, 1, 57))


@pytest.mark.parametrize("low, high, integer", [(5, 5, False), (6, 2, False), (0.5, 3, True), (float("nan"), 1, False)])
def test_a_range_needs_finite_ends_in_order_and_whole_ends_for_an_integer(low, high, integer):
    with pytest.raises(ValueError):
        Parameter("x", low, high, integer)


def test_an_integer_parameter_is_perturbed_by_at_least_one_unit_so_its_two_points_differ():
    switch, wide, real = Parameter("claim", 0, 1, integer=True), Parameter("below", 0, 40, integer=True), Parameter("w", 0, 1)
    assert spreads([switch, wide, real], 0.2) == pytest.approx([1.0, 0.2, 0.2])
    plus, minus = perturbed(np.array([1.0]), np.array([1.0]), spreads([switch], 0.2))
    assert switch.value(plus[0]) == 1 and switch.value(minus[0]) == 0


def test_signs_are_fair_coins_fixed_by_seed_and_iteration():
    assert np.array_equal(signs(3, 7, 5), signs(3, 7, 5))
    assert not np.array_equal(signs(3, 7, 64), signs(3, 8, 64))
    assert not np.array_equal(signs(3, 7, 64), signs(4, 7, 64))
    many = signs(1, 0, 20_000)
    assert set(np.unique(many)) == {-1.0, 1.0}
    assert abs(many.mean()) < 4 / np.sqrt(len(many))  # 4 standard errors of a fair coin


def test_the_perturbed_points_straddle_the_iterate_and_stay_in_range():
    theta = np.array([0.5, 0.95, 0.02])
    plus, minus = perturbed(theta, np.array([1.0, 1.0, -1.0]), 0.1)
    assert plus == pytest.approx([0.6, 1.0, 0.0])
    assert minus == pytest.approx([0.4, 0.85, 0.12])


def test_a_step_moves_towards_the_better_point_by_the_gradient_estimate():
    theta, direction = np.array([0.5, 0.5]), np.array([1.0, -1.0])
    # the plus point measured better by 0.1: a gradient estimate of 0.1 / (2 x 0.2) along the signs
    assert stepped(theta, direction, 0.4, 0.2, 0.1) == pytest.approx([0.5 + 0.1, 0.5 - 0.1])
    assert stepped(theta, direction, 0.4, 0.2, -0.1) == pytest.approx([0.4, 0.6])
    assert stepped(theta, direction, 100.0, 0.2, 1.0) == pytest.approx([1.0, 0.0])  # clipped to the ranges

"""A player's numeric parameters tuned by SPSA (``sim.core.spsa``) on duplicate walls, and the tuned player
confirmed against the player as given on walls the tuning never saw.

Iteration k plays the two perturbed players, each against the same opponent, on walls k x n .. (k + 1) x n - 1
(n walls a step, each played once per rotation of the seating: ``sim.runs.duel.play_walls``), so no two
iterations share a wall and the confirmation, on the walls after the last iteration's, shares none with any.
What is measured on a wall is the plus player's money per seat and deal against the opponent less the minus
player's: the same wall, the same opponent, so most of the wall's luck cancels. Where the walls carry luck
features of known zero mean (``Walls.luck``), the differences are also adjusted by control variates fitted on
the other walls (``sim.core.control_variates.cross_fitted``), which keeps them unbiased.

The step divides the mean difference by the standard deviation of a wall's difference, pooled over the
iterations played so far: a result in those units is the same whatever the ruleset, room or stake, so one
step size suits all. Everything is a pure function of the seed: the walls of (seed, wall), the perturbations
of (seed, iteration).
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.core import spsa
from sim.core.control_variates import cross_fitted
from sim.core.statistics import Z_95
from sim.players.player_parameters import parameter_values, with_values
from sim.runs.duel import Walls

# (first player's text, second's, first wall, walls) -> the two players' results on those walls
Play = Callable[[str, str, int, int], Walls]


@dataclass
class Tuning:
    parameters: list[spsa.Parameter]
    start: dict[str, float]  # the values the player is given with (its defaults where not written)
    tuned: dict[str, float]  # the values of the last iterate, rounded where integer
    tuned_text: str
    trace: pd.DataFrame  # one row per iteration
    walls_used: int  # walls 0 .. walls_used - 1 were played in tuning


@dataclass
class Confirmation:
    tuned: str
    default: str
    first_wall: int
    walls: int
    difference: float  # tuned less default, money per seat and deal
    standard_error: float
    variance_reduced: bool
    played: bool = True  # False when the tuned player is the player as given: nothing to measure

    @property
    def interval(self) -> tuple[float, float]:
        return self.difference - Z_95 * self.standard_error, self.difference + Z_95 * self.standard_error

    @property
    def z(self) -> float:
        if self.standard_error > 0:
            return self.difference / self.standard_error
        return 0.0 if self.difference == 0 else math.copysign(math.inf, self.difference)

    @property
    def p_value(self) -> float:
        return math.erfc(abs(self.z) / math.sqrt(2))


def measured(walls: Walls, variance_reduction: bool) -> tuple[np.ndarray, bool]:
    """(walls,) the walls' first-less-second differences, adjusted by the walls' luck where they carry it and
    `variance_reduction` is on; and whether they were."""
    differences = walls.difference()
    if variance_reduction and walls.luck is not None:
        return cross_fitted(differences, walls.luck), True
    return differences, False


def tune(family, player: str, opponent: str, parameters: list[spsa.Parameter], iterations: int,
         walls_per_step: int, seed: int, play: Play, gains: spsa.Gains, variance_reduction: bool = True,
         progress: Callable[[int], None] = lambda amount=1: None) -> Tuning:
    """Tune `parameters` of `player` (values in its text, or its defaults, as the start) against `opponent`."""
    given = parameter_values(family, player)
    start = {parameter.name: given[parameter.name] for parameter in parameters}
    theta = np.array([parameter.scaled(start[parameter.name]) for parameter in parameters])
    rows, variances = [], []
    for iteration in range(iterations):
        step, spread = gains.step(iteration), gains.spread(iteration)
        direction = spsa.signs(seed, iteration, len(parameters))
        spread_each = spsa.spreads(parameters, spread)
        plus, minus = spsa.perturbed(theta, direction, spread_each)
        plus_values, minus_values = _values(parameters, plus), _values(parameters, minus)
        first_wall = iteration * walls_per_step
        differences = np.zeros(walls_per_step)
        if plus_values != minus_values:  # rounding can make them the same player: then they differ by nothing
            plus_walls = play(with_values(family, player, plus_values), opponent, first_wall, walls_per_step)
            minus_walls = play(with_values(family, player, minus_values), opponent, first_wall, walls_per_step)
            luck = (None if plus_walls.luck is None or minus_walls.luck is None
                    else np.hstack([plus_walls.luck, minus_walls.luck]))
            differences = plus_walls.difference() - minus_walls.difference()
            if variance_reduction and luck is not None:
                differences = cross_fitted(differences, luck)
            variances.append(float(differences.var(ddof=1)) if walls_per_step > 1 else 0.0)
        difference = float(differences.mean())
        error = float(differences.std(ddof=1) / math.sqrt(walls_per_step)) if walls_per_step > 1 else math.nan
        scale = math.sqrt(sum(variances) / len(variances)) if variances else 0.0
        following = spsa.stepped(theta, direction, step, spread_each, difference / scale) if scale > 0 else theta
        row = {"iteration": iteration, "first_wall": first_wall, "walls": walls_per_step}
        for index, parameter in enumerate(parameters):
            row[f"theta_{parameter.name}"] = _unscaled(parameter, theta[index])
            row[f"plus_{parameter.name}"] = plus_values[parameter.name]
            row[f"minus_{parameter.name}"] = minus_values[parameter.name]
            row[f"next_{parameter.name}"] = _unscaled(parameter, following[index])
        row.update({"difference": difference, "standard_error": error, "scale": scale, "step": step, "spread": spread})
        rows.append(row)
        theta = following
        progress(1)
    tuned = _values(parameters, theta)
    return Tuning(parameters, start, tuned, with_values(family, player, tuned), pd.DataFrame(rows),
                  iterations * walls_per_step)


def confirm(family, tuned: str, default: str, first_wall: int, walls: int, play: Play,
            variance_reduction: bool = True) -> Confirmation:
    """The tuned player against the player as given on walls `first_wall` .. `first_wall + walls - 1`."""
    if family.player_name(tuned) == family.player_name(default):  # the same player: no difference to measure
        return Confirmation(tuned, default, first_wall, walls, 0.0, 0.0, False, played=False)
    differences, reduced = measured(play(tuned, default, first_wall, walls), variance_reduction)
    error = float(differences.std(ddof=1) / math.sqrt(walls)) if walls > 1 else math.nan
    return Confirmation(tuned, default, first_wall, walls, float(differences.mean()), error, reduced)


def _values(parameters: list[spsa.Parameter], scaled: np.ndarray) -> dict[str, float]:
    return {parameter.name: parameter.value(value) for parameter, value in zip(parameters, scaled)}


def _unscaled(parameter: spsa.Parameter, scaled: float) -> float:
    """The continuous iterate in the parameter's units (not rounded)."""
    return parameter.low + float(scaled) * (parameter.high - parameter.low)

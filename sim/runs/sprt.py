"""A sequential test on duplicate walls: two players play walls in batches (``sim.runs.duel.play_walls``)
until the test of ``sim.core.sequential_test`` accepts H0 or H1, or a cap on the walls is reached.

Batch k is walls k * batch .. (k + 1) * batch - 1, and each wall depends only on (seed, wall), so the stream
of per-wall values is the same whatever the batch size; the batch size decides only where the test looks.
Each wall's value is the first player's money per seat and deal less the second's, or, for bounds in Elo,
its score (1, 0.5 or 0). When the walls carry measured luck (``Walls.luck``) and variance reduction is on,
batch k's values are adjusted by control variates fitted on the walls of batches 0 .. k - 1 only: the
coefficients are fixed before the batch is played, so every adjusted value keeps its mean (the luck has
mean zero) and the test stays a pure function of the seed and the batch size. Batch 0 is plain.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sim.core import control_variates
from sim.core.rooms import Room
from sim.core.ruleset import Ruleset
from sim.core.sequential_test import SequentialTest, elo_of_score, mean_interval, wall_scores
from sim.runs.duel import play_walls

MONEY, ELO = "money", "elo"
INCONCLUSIVE = "inconclusive"
BYTES_PER_WALL = 16 + 8 * 32  # a wall's value, raw and adjusted, and up to 32 features of its luck


@dataclass(frozen=True)
class Look:
    """The test after a batch: the walls played so far, the LLR and the values' mean."""
    walls: int
    llr: float
    mean: float


@dataclass
class SprtResult:
    names: tuple[str, str]  # canonical player texts
    test: SequentialTest  # on the values: money, or scores for bounds in Elo
    units: str  # MONEY or ELO: what the bounds and the estimate are in
    seats: int
    lineup: str
    walls: int
    verdict: str  # "H0", "H1" or INCONCLUSIVE
    looks: list[Look] = field(default_factory=list)
    values: np.ndarray | None = None  # (walls,): the stream the test ran on (adjusted where luck was taken out)
    adjusted: bool = False  # whether any batch was adjusted by control variates

    @property
    def llr(self) -> float:
        return self.looks[-1].llr

    @property
    def deviation(self) -> float:
        """The standard deviation of the values per wall."""
        return float(self.values.std(ddof=1)) if len(self.values) > 1 else float("nan")

    def estimate(self) -> tuple[float, float, float]:
        """(estimate, low, high) with its 95% interval, in the bounds' units: money per seat and deal, or Elo."""
        mean, low, high = mean_interval(self.values)
        if self.units == ELO:
            return tuple(float(elo_of_score(value)) for value in (mean, max(low, 0.0), min(high, 1.0)))
        return mean, low, high

    def fixed_length(self) -> float:
        """Walls a fixed-length test of the same error rates would need at the values' standard deviation."""
        return self.test.fixed_length(self.deviation)


def wall_values(walls, units: str) -> np.ndarray:
    """(walls,): what the test runs on: the per-wall difference, or its score for bounds in Elo."""
    difference = walls.difference()
    return wall_scores(difference) if units == ELO else difference


def sprt(ruleset: Ruleset, first: str, second: str, test: SequentialTest, units: str, seed: int, batch: int,
         max_walls: int, room: Room, seats: int | None = None, lineup: str = "alternate",
         variance_reduction: bool = True, names: tuple[str, str] | None = None,
         report: Callable[[Look], None] | None = None, play=None) -> SprtResult:
    """Play batches of `batch` walls until `test` decides or `max_walls` are played; `report` is called with
    the test after each batch. `play` plays walls as ``play_walls`` does (default: ``play_walls``, measuring the
    luck of the draws with `variance_reduction`; the tests pass their own)."""
    if play is None:
        play = functools.partial(play_walls, luck=variance_reduction)
    if batch < 1 or max_walls < 1:
        raise ValueError("batch and max_walls must be positive")
    raw, luck, values, looks = [], [], [], []
    played, verdict, adjusted, table_seats = 0, None, False, seats
    while verdict is None and played < max_walls:
        walls = play(ruleset, first, second, seed, played, min(batch, max_walls - played), room, seats, lineup)
        table_seats = walls.money.shape[0]
        batch_values = wall_values(walls, units)
        if variance_reduction and walls.luck is not None and played > 0:
            coefficients = control_variates.fit(np.concatenate(raw), np.concatenate(luck))
            values.append(control_variates.adjust(batch_values, walls.luck, coefficients))
            adjusted = adjusted or bool(np.any(coefficients != 0))
        else:
            values.append(batch_values)
        raw.append(batch_values)
        luck.append(walls.luck if walls.luck is not None else np.zeros((walls.count, 0)))
        played += walls.count
        stream = np.concatenate(values)
        llr = float(test.log_likelihood_ratio(played, stream.mean(), stream.var()))
        looks.append(Look(played, llr, float(stream.mean())))
        if report is not None:
            report(looks[-1])
        verdict = test.decide(played, llr)
    return SprtResult(names or (first, second), test, units, table_seats, lineup, played, verdict or INCONCLUSIVE,
                      looks, np.concatenate(values), adjusted)

"""Simultaneous perturbation stochastic approximation (SPSA, Spall 1992) as fishtest tunes engines with it: the
maths of one step, apart from how a result is measured (``sim.runs.tune`` plays the games).

Each parameter is scaled to [0, 1] by its range, so that one step size and one perturbation serve parameters of
any units. At iteration k (from 0) every parameter is moved by +c_k or -c_k at once, the signs drawn fair and
independent (Rademacher) from the stream (seed, k); the two points, clipped to the ranges, are measured against
each other, and the iterate steps by a_k times the measured difference over 2 c_k along the signs (a gradient
estimate whose mean is the gradient, up to O(c_k^2)). Spall's gains: a_k = a / (A + k + 1)^0.602 and
c_k = c / (k + 1)^0.101, A a tenth of the iterations. An integer parameter is rounded (halves up) only when a
point is played; the iterate itself stays continuous, so that steps smaller than one unit still add up. It is
perturbed by at least one whole unit, so that its two points never round to the same value: a switch (0..1)
is then measured as 0 against 1 at every iteration, and its iterate drifts towards the better end.
"""

import math
from dataclasses import dataclass

import numpy as np

ALPHA = 0.602  # Spall's exponents, as fishtest uses them
GAMMA = 0.101
STREAM = 0x5B5A  # the perturbations' stream, apart from every other use of the seed


@dataclass(frozen=True)
class Parameter:
    """A tuned parameter: its name, the range it is tuned in, and whether it takes whole numbers only."""
    name: str
    low: float
    high: float
    integer: bool = False

    def __post_init__(self):
        if not (math.isfinite(self.low) and math.isfinite(self.high)) or self.low >= self.high:
            raise ValueError(f"{self.name}: a range needs finite LO < HI, not {self.low:g}..{self.high:g}")
        if self.integer and not (float(self.low).is_integer() and float(self.high).is_integer()):
            raise ValueError(f"{self.name}: an integer parameter's range has whole ends, not {self.low:g}..{self.high:g}")

    @property
    def least_spread(self) -> float:
        """The smallest perturbation, scaled: one unit for an integer parameter, none otherwise."""
        return 1.0 / (self.high - self.low) if self.integer else 0.0

    def scaled(self, value: float) -> float:
        """`value` on [0, 1], clipped to the range."""
        return float(np.clip((value - self.low) / (self.high - self.low), 0.0, 1.0))

    def value(self, scaled: float) -> float:
        """The value played at the scaled point: rounded to the nearest whole number for an integer parameter
        (and kept in the range)."""
        value = self.low + float(np.clip(scaled, 0.0, 1.0)) * (self.high - self.low)
        if self.integer:
            value = float(min(max(math.floor(value + 0.5), self.low), self.high))
        return value


@dataclass(frozen=True)
class Gains:
    """Spall's gain sequences: `step_size` a, `perturbation` c (both in the scaled units) and `stability` A."""
    step_size: float = 2.0
    perturbation: float = 0.2
    stability: float = 10.0

    def step(self, iteration: int) -> float:
        return self.step_size / (self.stability + iteration + 1) ** ALPHA

    def spread(self, iteration: int) -> float:
        return self.perturbation / (iteration + 1) ** GAMMA


def signs(seed: int, iteration: int, count: int) -> np.ndarray:
    """(count,) of +1 or -1, fair and independent, a pure function of (seed, iteration)."""
    generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence((int(seed), STREAM, int(iteration)))))
    return np.where(generator.integers(0, 2, count) == 1, 1.0, -1.0)


def spreads(parameters: list[Parameter], spread: float) -> np.ndarray:
    """(parameters,) each parameter's perturbation: `spread`, or one unit of an integer parameter if larger."""
    return np.array([max(spread, parameter.least_spread) for parameter in parameters])


def perturbed(theta: np.ndarray, direction: np.ndarray, spread) -> tuple[np.ndarray, np.ndarray]:
    """theta + spread x direction and theta - spread x direction, each clipped to [0, 1] (`spread` a number
    or one per parameter)."""
    return np.clip(theta + spread * direction, 0.0, 1.0), np.clip(theta - spread * direction, 0.0, 1.0)


def stepped(theta: np.ndarray, direction: np.ndarray, step: float, spread, measured: float) -> np.ndarray:
    """The next iterate, towards higher results: `measured` is the result of the plus point less the minus
    point's (in the units the step size is chosen for), clipped to [0, 1]."""
    return np.clip(theta + step * measured / (2.0 * spread) * direction, 0.0, 1.0)

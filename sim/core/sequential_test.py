"""The sequential probability ratio test (SPRT) on a stream of per-wall values of unknown variance, and the
fixed-length test of the same power it is measured against.

H0 says the stream's mean is at most `low`, H1 that it is at least `high`. After n values of mean m and
variance v (the variance of the values so far, not a known one: the generalised SPRT, as fishtest's normal
approximation does it), the log-likelihood ratio of H1 to H0 is that of two normal means of variance v:

    LLR = n (high - low) (m - (low + high) / 2) / v

The test accepts H1 when LLR reaches log((1 - beta) / alpha), H0 when it falls to log(beta / (1 - alpha)),
and otherwise asks for more values. It looks only at the ends of batches, and only once it has FIRST_LOOK
values: in a skewed stream with rare large values (mahjong money under uncapped fans) a short stream that
has not yet met its large values has both its mean and its variance too low, so its LLR rushes toward the
wrong bound; without that minimum, simulated error rates on such streams reach twice the nominal
(tests/core/test_sequential_test.py, docs/duels-and-leagues.md).

Bounds may also be in Elo: each wall is then scored 1, 0.5 or 0 as the first player's result on it is above,
equal to or below the second's, and a mean score s is the Elo -400 log10(1 / s - 1), so that the test runs on
the scores with its bounds converted to scores.
"""

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from sim.core.statistics import Z_95

ACCEPT_H0, ACCEPT_H1, CONTINUE = "H0", "H1", None
LARGEST_ELO = 800.0  # a mean score of 0.99: beyond, the scores carry no information about a difference
FIRST_LOOK = 300  # values before the test first looks (see above)


@dataclass(frozen=True)
class SequentialTest:
    """H0: mean <= low against H1: mean >= high, with error rates alpha (accepting H1 when the mean is low)
    and beta (accepting H0 when it is high)."""
    low: float
    high: float
    alpha: float = 0.05
    beta: float = 0.05
    first_look: int = FIRST_LOOK

    def __post_init__(self):
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise ValueError(f"the bounds must be finite with low < high, not {self.low} and {self.high}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(f"alpha and beta must be between 0 and 0.5, not {self.alpha} and {self.beta}")

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def log_likelihood_ratio(self, count, mean, variance):
        """The LLR after `count` values of this mean and variance (arrays broadcast). A variance of zero
        (every value the same, as for a player against itself) is certainty: +inf above the midpoint of the
        bounds, -inf below it, 0 on it."""
        count, mean, variance = (np.asarray(value, dtype=np.float64) for value in (count, mean, variance))
        distance = mean - (self.low + self.high) / 2
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = count * (self.high - self.low) * distance / variance
        certain = np.where(distance > 0, np.inf, -np.inf)
        return np.where(variance > 0, ratio, np.where(distance == 0, 0.0, certain))[()]

    def decide(self, count: int, llr: float):
        """ACCEPT_H1, ACCEPT_H0 or CONTINUE after `count` values whose LLR is `llr`."""
        if count < self.first_look:
            return CONTINUE
        if llr >= self.upper:
            return ACCEPT_H1
        if llr <= self.lower:
            return ACCEPT_H0
        return CONTINUE

    def fixed_length(self, deviation: float) -> float:
        """Values a fixed-length one-sided z test needs for the same error rates, when the values have this
        standard deviation: ((z_{1-alpha} + z_{1-beta}) deviation / (high - low))^2."""
        normal = NormalDist()
        return ((normal.inv_cdf(1 - self.alpha) + normal.inv_cdf(1 - self.beta)) * deviation / (self.high - self.low)) ** 2


def mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """(mean, low, high): the values' mean and its 95% normal interval."""
    values = np.asarray(values, dtype=np.float64)
    mean = float(values.mean())
    error = float(values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else math.inf
    return mean, mean - Z_95 * error, mean + Z_95 * error


def wall_scores(differences: np.ndarray) -> np.ndarray:
    """Each wall's score for the first player: 1 if its result is above the second's, 0.5 if equal, 0 below."""
    return (np.sign(np.asarray(differences, dtype=np.float64)) + 1) / 2


def score_of_elo(elo):
    """The mean score an Elo difference stands for: 1 / (1 + 10^(-elo / 400))."""
    return 1 / (1 + 10 ** (-np.asarray(elo, dtype=np.float64) / 400))


def elo_of_score(score):
    """The Elo difference of a mean score: -400 log10(1 / s - 1); -inf and +inf at 0 and 1."""
    score = np.asarray(score, dtype=np.float64)
    with np.errstate(divide="ignore"):
        return (-400 * np.log10(1 / np.clip(score, 0, 1) - 1) + 0.0)[()]  # + 0.0: an even score is 0, not -0

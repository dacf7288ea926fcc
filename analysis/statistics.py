"""Interval estimates for the rates the tables report."""

import numpy as np

Z_95 = 1.959963984540054


def wilson_interval(successes, trials, z: float = Z_95):
    """(low, high) of the Wilson score interval for successes / trials, elementwise; (0, 1) where trials is 0.

    Unlike the normal approximation it stays inside [0, 1] and is honest for rare events (a fan seen
    3 times in a million deals), which is most of a fan table.
    """
    successes = np.asarray(successes, dtype=np.float64)
    trials = np.asarray(trials, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = successes / trials
        denominator = 1 + z**2 / trials
        centre = (share + z**2 / (2 * trials)) / denominator
        half = z * np.sqrt(share * (1 - share) / trials + z**2 / (4 * trials**2)) / denominator
    low = np.where(trials > 0, np.clip(centre - half, 0, 1), 0.0)
    high = np.where(trials > 0, np.clip(centre + half, 0, 1), 1.0)
    return low, high

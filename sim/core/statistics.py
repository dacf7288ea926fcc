"""Interval estimates for the rates the tables report, and the rows of a quantity's mean and quantiles."""

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


QUANTILES = (0.1, 0.5, 0.9, 0.99)  # the quantiles an outcome table gives of a quantity per win


def mean_and_quantiles(stem: str, values) -> list[tuple]:
    """Outcome-table rows (statistic, value, low, high) of `values`: ``mean_<stem>``, then ``<stem>_q10``,
    ``_q50``, ``_q90`` and ``_q99``; NaN where there are no values, and no interval."""
    values = np.asarray(values)
    found = len(values) > 0
    rows = [(f"mean_{stem}", values.mean() if found else np.nan, np.nan, np.nan)]
    for quantile in QUANTILES:
        rows.append((f"{stem}_q{round(quantile * 100)}", float(np.quantile(values, quantile)) if found else np.nan,
                     np.nan, np.nan))
    return rows


def batch_means_interval(values, batch: int, z: float = Z_95) -> tuple[float, float, float]:
    """(mean, low, high) of `values`, a series whose neighbours may depend on each other (the deals of a
    session share a dealer rotation): the standard error comes from the means of consecutive batches of
    `batch` values, which are close to independent when a batch is longer than the dependence (the last,
    shorter batch is left out of the error, not of the mean). NaN interval with fewer than two batches."""
    values = np.asarray(values, dtype=np.float64)
    mean = float(values.mean()) if len(values) else float("nan")
    batches = len(values) // batch
    if batches < 2:
        return mean, float("nan"), float("nan")
    means = values[: batches * batch].reshape(batches, batch).mean(axis=1)
    half = z * float(means.std(ddof=1)) / np.sqrt(batches)
    return mean, mean - half, mean + half

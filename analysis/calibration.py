"""Whether players' reported chances of winning come true: the calibration table of a run.

A player may report, with each discard, its chance of winning the deal (sim.core.win_chances; ``ev`` always
does). The table puts every report in a bucket by its value (tenths: 0-10%, ..., 90-100%) and gives, per
player and bucket, the reports, the deals they came from, their mean, the share of them made in deals that
the seat went on to win, and the gap: that share less the mean report. A player whose 30% reports win 30%
of the time has gaps near zero.

Reports made in one deal by one seat share its outcome, so they are not independent: the intervals treat
each (deal, seat) as one cluster (a cluster-robust standard error of a mean). They are simultaneous over a
player's buckets (Bonferroni: each at 1 - 5%/k for k buckets), so that "every gap holds zero in its
interval" is a statement at 95% about the whole table, not about each row.
"""

import math
from statistics import NormalDist

import numpy as np
import pandas as pd

BUCKETS = 10
CONFIDENCE = 0.95
COLUMNS = ("player", "bucket", "bucket_low", "bucket_high", "reports", "deals", "mean_chance", "win_share",
           "win_share_low", "win_share_high", "gap", "gap_low", "gap_high", "within")


def _clustered_error(values: np.ndarray, clusters: np.ndarray) -> float:
    """The cluster-robust standard error of the mean of `values`, `clusters` labelling each value's cluster
    (0 .. C-1); NaN with fewer than two clusters."""
    n = values.shape[0]
    count = int(clusters.max()) + 1 if n else 0
    if count < 2:
        return math.nan
    sums = np.bincount(clusters, weights=values - values.mean(), minlength=count)
    return math.sqrt(count / (count - 1) * float(np.dot(sums, sums))) / n


def calibration_table(chances: pd.DataFrame, records: pd.DataFrame, won: np.ndarray, players) -> pd.DataFrame:
    """The calibration table (module text). `chances`: deal, seat, chance (``sim.core.run_records.read_win_chances``);
    `records`: the run's records (their ``deal`` column); `won`: (deals, seats) bool, in the records' order
    (the family's ``money.seat_wins``); `players`: each seat's player text (seats with the same text are
    pooled)."""
    if chances.empty:
        return pd.DataFrame({name: [] for name in COLUMNS})
    rows = np.searchsorted(records["deal"].to_numpy(), chances["deal"].to_numpy())
    seats = chances["seat"].to_numpy().astype(np.int64)
    outcome = won[rows, seats].astype(np.float64)
    value = chances["chance"].to_numpy().astype(np.float64)
    bucket = np.minimum((value * BUCKETS).astype(np.int64), BUCKETS - 1)
    names = np.array(players, dtype=object)[seats]
    cluster_of = rows * won.shape[1] + seats
    table = []
    for player in dict.fromkeys(players):
        mine = names == player
        present = np.unique(bucket[mine])
        if present.size == 0:
            continue
        z = NormalDist().inv_cdf(1 - (1 - CONFIDENCE) / (2 * present.size))
        for index in present:
            chosen = mine & (bucket == index)
            _, clusters = np.unique(cluster_of[chosen], return_inverse=True)
            chance, result = value[chosen], outcome[chosen]
            mean, share = chance.mean(), result.mean()
            gap_error = _clustered_error(result - chance, clusters)
            share_error = _clustered_error(result, clusters)
            gap = share - mean
            table.append({
                "player": player, "bucket": f"{index * 100 // BUCKETS}-{(index + 1) * 100 // BUCKETS}%",
                "bucket_low": index / BUCKETS, "bucket_high": (index + 1) / BUCKETS,
                "reports": int(chosen.sum()), "deals": int(clusters.max()) + 1,
                "mean_chance": mean, "win_share": share,
                "win_share_low": share - z * share_error, "win_share_high": share + z * share_error,
                "gap": gap, "gap_low": gap - z * gap_error, "gap_high": gap + z * gap_error,
                "within": bool(gap - z * gap_error <= 0 <= gap + z * gap_error),
            })
    return pd.DataFrame(table, columns=list(COLUMNS))


def format_calibration(table: pd.DataFrame) -> str:
    """The table as text: per player, each bucket's mean report, won share and gap with its interval."""
    lines = ["reported chances of winning against the deals' outcomes (gap = won share - mean report; "
             f"intervals simultaneous at {CONFIDENCE:.0%} over a player's buckets, clustered by deal)"]
    for player, rows in table.groupby("player", sort=False):
        held = int(rows["within"].sum())
        lines.append(f"  {player}: {held} of {len(rows)} gaps hold zero in their interval")
        lines.append("    bucket    reports    deals  mean report  won share     gap   interval")
        for row in rows.itertuples():
            lines.append(f"    {row.bucket:>7}  {row.reports:>9,}  {row.deals:>7,}  {row.mean_chance:>11.2%}  "
                         f"{row.win_share:>9.2%}  {row.gap:>+6.2%}   [{row.gap_low:+.2%}, {row.gap_high:+.2%}]")
    return "\n".join(lines) + "\n"

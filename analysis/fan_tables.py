"""Fan frequency tables from per-deal records: how often each fan of a ruleset is scored, per deal and
per win, with 95% Wilson intervals. (Each family's outcome summary lives with its money, ``sim.<family>.money``.)"""

import numpy as np
import pandas as pd

from kernels.fan_ids import FAN_IDS
from sim.core.ruleset import Ruleset
from sim.core.run_records import fan_column
from sim.core.statistics import wilson_interval


def fan_frequency(wins: pd.DataFrame, deals: int, ruleset: Ruleset) -> pd.DataFrame:
    """One row per fan the ruleset scores (by decreasing value): the deals that scored it (in any win), its
    share of deals and of wins with Wilson intervals, and the mean count in the wins that scored it.
    `wins` has one row per win with a ``deal`` column and the ``fan_<id>`` columns (``sim.families``)."""
    rows = []
    for fan in ruleset.fans:
        counts = wins[fan_column(fan)].to_numpy()
        scored = counts > 0
        rows.append(
            {
                "fan": FAN_IDS[fan],
                "name": ruleset.fan_names[fan],
                "value": int(ruleset.values[fan]),
                "deals_scored": len(np.unique(wins["deal"].to_numpy()[scored])),
                "wins_scored": int(scored.sum()),
                "mean_count": counts[scored].mean() if scored.any() else np.nan,
            }
        )
    table = pd.DataFrame(rows)
    n_wins = len(wins)
    table.insert(table.columns.get_loc("deals_scored") + 1, "per_deal", table["deals_scored"] / deals if deals else np.nan)
    table.insert(table.columns.get_loc("wins_scored") + 1, "per_win", table["wins_scored"] / n_wins if n_wins else np.nan)
    for column, count, trials in (("per_deal", "deals_scored", deals), ("per_win", "wins_scored", n_wins)):
        low, high = wilson_interval(table[count], trials)
        table.insert(table.columns.get_loc(column) + 1, f"{column}_low", low)
        table.insert(table.columns.get_loc(column) + 2, f"{column}_high", high)
    return table

"""Fan frequency tables from per-deal records: how often each fan of a ruleset is scored, per deal and
per win, with 95% Wilson intervals, and the outcome summary (wins, draws, self-drawn share, fan totals)."""

import numpy as np
import pandas as pd

from analysis.statistics import wilson_interval
from kernels.fan_ids import FAN_IDS, Fan
from sim.ruleset import Ruleset

WIN_TYPES = {1: "self_drawn", 2: "discard", 3: "robbed_kong"}


def fan_column(fan: Fan) -> str:
    """The records column holding each deal's count of `fan`."""
    return f"fan_{FAN_IDS[fan]}"


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


def outcome_summary(records: pd.DataFrame) -> pd.DataFrame:
    """One row per statistic (value, and a 95% Wilson interval for the shares): deals, wins, draws, the
    share of deals won and drawn, each way of winning as a share of wins, and the fan totals of wins
    (before doubling, flowers aside): mean and quantiles."""
    deals = len(records)
    won = records["winner"] >= 0
    wins = int(won.sum())
    totals = records.loc[won, "fan_total"].to_numpy()
    none = (np.nan, np.nan)
    rows = [("deals", deals, *none), ("wins", wins, *none), ("draws", deals - wins, *none)]
    rows.append(("win_share", wins / deals, *wilson_interval(wins, deals)))
    rows.append(("draw_share", (deals - wins) / deals, *wilson_interval(deals - wins, deals)))
    for code, name in WIN_TYPES.items():
        count = int((records["win_type"] == code).sum())
        rows.append((f"{name}_share_of_wins", count / wins if wins else np.nan, *wilson_interval(count, wins)))
    rows.append(("mean_fan_total", totals.mean() if wins else np.nan, *none))
    for quantile in (0.1, 0.5, 0.9, 0.99):
        rows.append((f"fan_total_q{round(quantile * 100)}", float(np.quantile(totals, quantile)) if wins else np.nan, *none))
    return pd.DataFrame(rows, columns=["statistic", "value", "low", "high"]).astype({"value": float, "low": float, "high": float})

"""The tables of 004's 闯关 campaign from its runs (sim.erren.challenge.campaign): per level, the share of runs clearing
it with Wilson intervals, the deals a level took and the score at its end; and, per assist, what the
campaign without it loses, paired run by run on the same seeds.

`runs` is the long table `mjsim challenge` writes to runs.parquet: one row per (variant, run, level) with
the fields of ``sim.erren.challenge.campaign.RUN_FIELDS``; `variant` is "all" (every assist of the levels file) or
the name of the one assist switched off.
"""

import numpy as np
import pandas as pd

from sim.core.statistics import Z_95, wilson_interval

CLEARED, FAILED, OUT_OF_DEALS = 1, 2, 3  # sim.erren.challenge.campaign's outcomes (not imported: analysis stays numba-free)
QUANTILES = (0.1, 0.5, 0.9)


def level_table(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (variant, level): runs reaching and clearing it, the share of all runs that cleared it
    (with its Wilson interval) and of those that reached it, the deals it took and the score at its end
    (quantiles over the runs that reached it), and the assists used per deal."""
    rows = []
    for (variant, level), group in runs.groupby(["variant", "level"], sort=False):
        total = group["run"].nunique()
        played = group[group["outcome"] > 0]  # the runs that reached the level (failing at once is 0 deals)
        reached = int((group["outcome"] > 0).sum())
        cleared = int((group["outcome"] == CLEARED).sum())
        low, high = wilson_interval(cleared, total)
        given_low, given_high = wilson_interval(cleared, reached)
        deals = played["deals"].to_numpy()
        scores = played["end_score"].to_numpy()
        n_deals = max(int(deals.sum()), 1)
        row = {
            "variant": variant, "level": int(level), "name": group["name"].iloc[0], "runs": total, "reached": reached,
            "cleared": cleared, "failed": int((group["outcome"] == FAILED).sum()),
            "out_of_deals": int((group["outcome"] == OUT_OF_DEALS).sum()),
            "clear_share": cleared / total, "clear_share_low": float(low), "clear_share_high": float(high),
            "clear_share_if_reached": cleared / reached if reached else np.nan,
            "clear_share_if_reached_low": float(given_low), "clear_share_if_reached_high": float(given_high),
        }
        for name, values in (("deals", deals), ("end_score", scores)):
            for quantile in QUANTILES:
                row[f"{name}_q{round(quantile * 100)}"] = float(np.quantile(values, quantile)) if values.size else np.nan
        row["end_score_mean"] = float(scores.mean()) if scores.size else np.nan
        row["player_win_share"] = played["player_wins"].sum() / n_deals
        row["computer_win_share"] = played["computer_wins"].sum() / n_deals
        row["exchanged_per_deal"] = played["exchanged"].sum() / n_deals
        row["picks_per_deal"] = played["picks"].sum() / n_deals
        row["pungs_per_deal"] = played["pung_tiles"].sum() / 3 / n_deals
        row["violations"] = int(group["violations"].sum())
        rows.append(row)
    return pd.DataFrame(rows)


def assist_effects(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (assist, level): the share of runs clearing the level with every assist and with that
    one switched off, and their difference with a 95% interval paired run by run (the same seeds), from
    the runs where the two campaigns part: d = (b - c) / n, its standard error sqrt(b + c - (b - c)^2 / n) / n."""
    cleared = runs.assign(cleared=runs["outcome"] == CLEARED).pivot_table(
        index=["run", "level"], columns="variant", values="cleared", aggfunc="first"
    )
    rows = []
    for assist in [variant for variant in runs["variant"].unique() if variant != "all"]:
        for level, group in cleared.groupby(level="level"):
            with_all, without = group["all"].astype(bool), group[assist].astype(bool)
            n = len(group)
            gained = int((with_all & ~without).sum())  # cleared only with the assist
            lost = int((~with_all & without).sum())  # cleared only without it
            difference = (gained - lost) / n
            error = np.sqrt(max(gained + lost - (gained - lost) ** 2 / n, 0.0)) / n
            rows.append({
                "assist": assist, "level": int(level), "runs": n, "clear_share": with_all.mean(),
                "clear_share_without": without.mean(), "difference": difference,
                "difference_low": difference - Z_95 * error, "difference_high": difference + Z_95 * error,
                "runs_cleared_only_with": gained, "runs_cleared_only_without": lost,
            })
    return pd.DataFrame(rows)


def format_tables(levels: pd.DataFrame, effects: pd.DataFrame, names: dict[str, str]) -> str:
    """The printed report: the level table of the campaign with every assist, then each assist's effect on
    clearing the last level. `names`: assist -> its name in 004."""
    lines = []
    table = levels[levels["variant"] == "all"]
    lines.append("level        reached  cleared (95% interval)       if reached   deals q10/q50/q90   end score q10/q50/q90")
    for row in table.itertuples():
        lines.append(
            f"{row.level} {row.name:<8} {row.reached:>7,}  {row.clear_share:7.2%} ({row.clear_share_low:6.2%}-{row.clear_share_high:6.2%})"
            f"   {row.clear_share_if_reached:8.2%}   {row.deals_q10:5.0f} {row.deals_q50:5.0f} {row.deals_q90:5.0f}"
            f"     {row.end_score_q10:8,.0f} {row.end_score_q50:8,.0f} {row.end_score_q90:8,.0f}"
        )
    if not effects.empty:
        last = effects["level"].max()
        lines.append("")
        share = table.loc[table["level"] == last, "clear_share"].iloc[0]
        lines.append(f"runs clearing level {last}: {share:.2%} with every assist; with one switched off at every level "
                     "(the same seeds), and what the assist adds (paired 95% interval):")
        for row in effects[effects["level"] == last].itertuples():
            parted = row.runs_cleared_only_with + row.runs_cleared_only_without > 0
            interval = (f"({row.difference_low:+.2%} to {row.difference_high:+.2%})" if parted
                        else "(every run ends the same way with it or without)")
            lines.append(f"  without {row.assist:<19} {names.get(row.assist, ''):<7} {row.clear_share_without:7.2%}"
                         f"   {row.difference:+7.2%} {interval}")
    return "\n".join(lines) + "\n"

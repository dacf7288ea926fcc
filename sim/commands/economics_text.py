"""What `mjsim economics` prints: its tables in plain numbers (money with thousands separators, shares as
percentages, counts as integers, each figure with its 95% interval and only the digits the interval
supports), the line that states the purse, the legend of the columns, and the same tables as JSON or CSV.
"""

import json
import math
import unicodedata
from pathlib import Path

import pandas as pd

from sim.core.result_files import versions, write_text_atomically

LEGEND = {
    "beans moved": "the beans the players pay each other, before fees",
    "house share": "the fees' share of the fees and the beans moved together",
    "wins losing money": "the share of wins whose winnings are smaller than the winner's fee (F x stake < fee)",
    "drift": "a seat's (or player's) mean bean change per deal, fee included",
    "volatility": "the standard deviation of one seat's bean change in a deal",
    "purse": "the stakes a simulated player enters with (--bankroll; the beans are purse x stake)",
    "ruined": "the share of simulated players whose beans reach 0 within the horizon",
    "median deals to ruin": "half the simulated players are broke by then (>H: most outlast the horizon H)",
    "mean deals played": "the deals a simulated player plays before ruin, H for those who outlast the horizon",
    "house take per bankroll": "the fees one simulated player pays over those deals (fee x mean deals played)",
}
SOLVER_LEGEND = {
    "fee": "the largest whole fee (beans per player and deal) meeting the target, on the run's own deals and the "
           "simulated players of --seed; [interval]: 2.5% and 97.5% of the same solve on block bootstraps of the run; "
           "* marks a fee outside its interval; none: not met even without a fee",
}
INTERVALS = ("[low, high]: 95% interval; drift and house share from batch means over blocks of --block consecutive "
             "deals, ruin figures over the simulated players (Wilson, order statistics, normal)")


def _digits(low: float, high: float, fallback: int) -> int:
    """Decimals that show an interval's half width to two significant digits: negative for a place left of
    the point (-2: hundreds), so that 18,210,937 [17,841,521, 18,580,353] prints as 18,210,000 [17,840,000, ...]."""
    half = (high - low) / 2
    if not (math.isfinite(half) and half > 0):
        return fallback
    return 1 - math.floor(math.log10(half))


def number(value: float, decimals: int = 0, sign: str = "") -> str:
    """`value` with thousands separators, rounded to `decimals` places (negative: to tens, hundreds, ...)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    rounded = round(value, decimals) + 0.0  # + 0.0: no "-0"
    return f"{rounded:{sign},.{max(0, decimals)}f}"


def with_interval(value: float, low: float, high: float, fallback: int = 2, signed: bool = False) -> str:
    """`value [low, high]` to the precision the interval supports."""
    decimals = _digits(low, high, fallback)
    sign = "+" if signed else ""
    if any(math.isnan(x) for x in (low, high)):
        return number(value, fallback, sign)
    return f"{number(value, decimals, sign)} [{number(low, decimals, sign)}, {number(high, decimals, sign)}]"


def share_with_interval(value: float, low: float, high: float) -> str:
    """A share as a percentage with its interval, to the precision the interval supports (at most 2 decimals)."""
    if math.isnan(value):
        return "-"
    decimals = min(2, max(0, _digits(100 * low, 100 * high, 1)))
    return f"{number(100 * value, decimals)}% [{number(100 * low, decimals)}, {number(100 * high, decimals)}]"


def deals_with_interval(value: float, low: float, high: float, horizon: int) -> str:
    """A count of deals (a median: whole or half deals) with its interval; past the horizon as >H."""
    def text(deals):
        if math.isnan(deals):
            return "-"
        return f">{horizon:,}" if deals > horizon else f"{deals:,.0f}" if deals == int(deals) else f"{deals:,.1f}"
    return f"{text(value)} [{text(low)}, {text(high)}]"


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def aligned(header: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widest cell (CJK characters count twice), the first left-aligned, the others right."""
    widths = [max(_width(str(cell)) for cell in column) for column in zip(header, *rows)]
    lines = []
    for cells in [header, *rows]:
        padded = [cell + " " * (width - _width(cell)) if index == 0 else " " * (width - _width(cell)) + cell
                  for index, (cell, width) in enumerate(zip(map(str, cells), widths))]
        lines.append("  ".join(padded).rstrip())
    return "\n".join(lines)


def legend(names: list[str], extra: dict | None = None) -> str:
    entries = {**{name: LEGEND[name] for name in names}, **(extra or {})}
    return "\n".join(f"  {name}: {text}" for name, text in entries.items()) + f"\n  {INTERVALS}"


def purse_line(purses, horizon: int, players: int, block: int, seed: int, currency: str) -> str:
    listed = ", ".join(f"{purse:,}" for purse in purses[:-1]) + (" or " if len(purses) > 1 else "") + f"{purses[-1]:,}"
    return (f"each simulated player enters with {listed} stakes (the purse; --bankroll K sets it) and plays at most "
            f"{horizon:,} deals: {players:,} players per room and purse, blocks of {block} deals, seed {seed}")


def rooms_text(table: pd.DataFrame, currency: str) -> str:
    """The per-room table (figures that do not depend on the purse) and the per-room-and-purse ruin table."""
    first = table.drop_duplicates("room")
    seats = sorted(int(column.split("_")[2]) for column in table if column.startswith("drift_seat_") and column.count("_") == 2)
    header = ["room", "stake", "fee", "house share", "wins losing money",
              *[f"drift seat {seat}" for seat in seats], "volatility"]
    rows = [[row["room"], number(row["stake"]), number(row["fee"]),
             share_with_interval(row["house_share_of_moved"], row["house_share_low"], row["house_share_high"]),
             number(100 * row["winning_but_losing_share"], 1) + "%",
             *[with_interval(row[f"drift_seat_{seat}"], row[f"drift_seat_{seat}_low"], row[f"drift_seat_{seat}_high"],
                             signed=True) for seat in seats],
             number(row["volatility"], 0 if row["volatility"] >= 100 else 2)]
            for _, row in first.iterrows()]
    return (f"per room ({currency} per deal):\n" + aligned(header, rows) + "\n\nper room and purse:\n"
            + aligned(*ruin_rows(table)))


def ruin_rows(table: pd.DataFrame, leading=("room",)) -> tuple[list[str], list[list[str]]]:
    horizon = int(table["horizon"].iloc[0])
    header = [*leading, "purse", "enters with", f"ruined within {horizon:,}", "median deals to ruin", "mean deals played",
              "house take per bankroll"]
    rows = [[*[str(row[name]) for name in leading], number(row["purse_stakes"]), number(row["start_beans"]),
             share_with_interval(row["ruin_probability"], row["ruin_low"], row["ruin_high"]),
             deals_with_interval(row["median_deals_to_ruin"], row["median_low"], row["median_high"], horizon),
             with_interval(row["mean_deals_played"], row["mean_deals_low"], row["mean_deals_high"], 0),
             with_interval(row["house_take_per_bankroll"], row["house_take_low"], row["house_take_high"], 0)]
            for _, row in table.iterrows()]
    return header, rows


def players_text(table: pd.DataFrame, currency: str) -> str:
    first = table.drop_duplicates(["room", "player"])
    header = ["room", "player", f"drift ({currency} per deal)", "volatility"]
    rows = [[row["room"], row["player"], with_interval(row["drift"], row["drift_low"], row["drift_high"], signed=True),
             number(row["volatility"], 0 if row["volatility"] >= 100 else 2)] for _, row in first.iterrows()]
    return aligned(header, rows) + "\n\n" + aligned(*ruin_rows(table, ("room", "player")))


def solution_text(table: pd.DataFrame, horizon: int) -> str:
    header = ["room", "stake", "purse", "enters with", "fee [interval]", "fee in stakes", "house share",
              f"ruined within {horizon:,}", "median deals to ruin", "mean deals played", "house take per bankroll"]
    rows = []
    for _, row in table.iterrows():
        if not math.isfinite(row["fee"]):
            fee_text = "none" if math.isnan(row["fee"]) else "any"
            rows.append([row["room"], number(row["stake"]), number(row["purse_stakes"]), number(row["start_beans"]),
                         fee_text, "-", "-", "-", "-", "-", "-"])
            continue
        mark = "" if row["fee_in_interval"] else "*"
        fee_text = f"{row['fee']:,.0f}{mark} [{number(row['fee_low'])}, {number(row['fee_high'])}]"
        rows.append([
            row["room"], number(row["stake"]), number(row["purse_stakes"]), number(row["start_beans"]), fee_text,
            number(row["fee"] / row["stake"], 2),
            share_with_interval(row["house_share_of_moved"], row["house_share_low"], row["house_share_high"]),
            share_with_interval(row["ruin_probability"], row["ruin_low"], row["ruin_high"]),
            deals_with_interval(row["median_deals_to_ruin"], row["median_low"], row["median_high"], horizon),
            with_interval(row["mean_deals_played"], row["mean_deals_low"], row["mean_deals_high"], 0),
            with_interval(row["house_take_per_bankroll"], row["house_take_low"], row["house_take_high"], 0),
        ])
    return aligned(header, rows)


def _json_value(value):
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value.item() if hasattr(value, "item") else value


def as_json(scenario: str, settings: dict, tables: dict[str, pd.DataFrame], files: list[Path]) -> str:
    """One JSON object: the scenario, its settings, each table as a list of rows (NaN as null, infinity as
    "inf") and the files written."""
    data = {"scenario": scenario, "settings": settings,
            "tables": {name: [{key: _json_value(value) for key, value in row.items()} for row in table.to_dict("records")]
                       for name, table in tables.items()},
            "files": [str(path) for path in files]}
    return json.dumps(data, ensure_ascii=False)


def write_csv(table: pd.DataFrame, path: Path, config: dict) -> Path:
    """`table` as CSV, after two comment lines (``# mjsim.config: {...}``, ``# mjsim.versions: {...}``) that carry
    its configuration as the Parquet files' metadata does: pandas reads it with ``comment="#"``."""
    header = (f"# mjsim.config: {json.dumps(config, ensure_ascii=False, sort_keys=True)}\n"
              f"# mjsim.versions: {json.dumps(versions(), sort_keys=True)}\n")
    return write_text_atomically(path, header + table.to_csv(index=False))

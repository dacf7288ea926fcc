"""Money of the 血战 family (docs/rules/xuezhan-table.md) from per-deal records: each seat's change per deal in a room, the
wins as rows, and the money tables (per seat and dealer / non-dealer, per win by way of winning, and the
money from wins, kongs, 查叫 and 关死 separately).

The engine (``sim.xuezhan.engine``) writes, per seat s, ``money_s`` = ``win_money_s`` + ``kong_money_s`` +
``chajiao_money_s`` + ``guansi_money_s`` in units of the base stake; the money of a deal sums to zero over the
seats. A room multiplies units by its base stake (``Room.stake``) and charges every seat its fee each deal.
"""

import numpy as np
import pandas as pd

from sim.core.rooms import Room
from sim.core.statistics import Z_95, mean_and_quantiles, wilson_interval

QUANTILES = (0.01, 0.1, 0.5, 0.9, 0.99)
SOURCES = ("win", "kong", "chajiao", "guansi")  # money_s is their sum
WIN_TYPES = {1: "self_drawn", 2: "discard", 3: "robbed_kong"}


def seat_count(records: pd.DataFrame) -> int:
    """The seats of a run: one ``money_s`` column each."""
    count = 0
    while f"money_{count}" in records:
        count += 1
    return count


def per_seat(records: pd.DataFrame, column: str) -> np.ndarray:
    """(deals, seats): the per-seat record columns ``<column>_0``, ``<column>_1``, ... side by side."""
    return np.column_stack([records[f"{column}_{seat}"].to_numpy() for seat in range(seat_count(records))])


def seat_changes(records: pd.DataFrame, room: Room) -> np.ndarray:
    """(deals, seats): each seat's money change per deal in the room (units x base stake, less the fee)."""
    return per_seat(records, "money") * float(room.stake) - float(room.fee)


def seat_wins(records: pd.DataFrame) -> np.ndarray:
    """(deals, seats) bool: the seat won in the deal (血战: several seats may win one deal)."""
    return per_seat(records, "win_order") > 0


def win_rows(records: pd.DataFrame, fan_columns: list[str]) -> pd.DataFrame:
    """One row per win: deal, seat, win_type, value (the raw value of the win), income (what its payers paid
    for it, in units), payers, and the given fan columns (read from each seat's ``<fan column>_<seat>``)."""
    parts = []
    for seat in range(seat_count(records)):
        won = records[f"win_order_{seat}"].to_numpy() > 0
        part = pd.DataFrame(
            {
                "deal": records["deal"].to_numpy()[won],
                "seat": seat,
                "win_type": records[f"win_type_{seat}"].to_numpy()[won],
                "value": records[f"fan_value_{seat}"].to_numpy()[won],
                "income": records[f"win_income_{seat}"].to_numpy()[won],
                "payers": records[f"payers_{seat}"].to_numpy()[won],
            }
        )
        for column in fan_columns:
            part[column] = records[f"{column}_{seat}"].to_numpy()[won]
        parts.append(part)
    return pd.concat(parts, ignore_index=True).sort_values(["deal", "seat"], ignore_index=True)


def outcome_summary(records: pd.DataFrame) -> pd.DataFrame:
    """One row per statistic (value, and a 95% Wilson interval for shares): deals, wins, deals with a win,
    draws (the wall ran out with two or more players not won), 一炮多响, the ways of winning as shares of wins,
    the raw value of wins: mean and quantiles, and the mean paid per win: its income, what all its payers paid
    for it in units (the value capped per payer, times the payers; ``win_money`` has the quantiles)."""
    deals = len(records)
    wins = win_rows(records, [])
    n_wins = len(wins)
    won_deals = int((records["winners"] > 0).sum())
    draws = int(records["draw"].sum())
    multi = int(records["multi_win"].sum())
    none = (np.nan, np.nan)
    rows = [("deals", deals, *none), ("wins", n_wins, *none), ("wins_per_deal", n_wins / deals, *none)]
    rows.append(("deals_with_a_win_share", won_deals / deals, *wilson_interval(won_deals, deals)))
    rows.append(("draw_share", draws / deals, *wilson_interval(draws, deals)))
    rows.append(("multiple_winners_on_one_discard_share", multi / deals, *wilson_interval(multi, deals)))
    for code, name in WIN_TYPES.items():
        count = int((wins["win_type"] == code).sum())
        rows.append((f"{name}_share_of_wins", count / n_wins if n_wins else np.nan, *wilson_interval(count, n_wins)))
    rows += mean_and_quantiles("win_value", wins["value"].to_numpy())
    rows.append(("mean_paid_per_win", wins["income"].mean() if n_wins else np.nan, *none))
    return pd.DataFrame(rows, columns=["statistic", "value", "low", "high"]).astype({"value": float, "low": float, "high": float})


def _distribution(values: np.ndarray) -> dict:
    row = {"count": len(values), "mean": values.mean() if len(values) else np.nan,
           "std": values.std(ddof=1) if len(values) > 1 else np.nan}
    for quantile in QUANTILES:
        row[f"q{round(quantile * 100):02d}"] = np.quantile(values, quantile) if len(values) else np.nan
    return row


def money_distribution(records: pd.DataFrame, rooms: list[Room]) -> pd.DataFrame:
    """Per room and source (all, win, kong, 查叫, 关死): the distribution of a seat's money change per deal
    over every seat and deal, in the room's money (fee charged on 'all' only), and the house's take."""
    seats = seat_count(records)
    rows = []
    for room in rooms:
        for source in ("all",) + SOURCES:
            column = "money" if source == "all" else f"{source}_money"
            units = per_seat(records, column).ravel(order="F").astype(float)  # seat 0's deals, then seat 1's, ...
            changes = units * room.stake - (room.fee if source == "all" else 0.0)
            rows.append({"room": room.name, "stake": room.stake, "fee": room.fee, "source": source, **_distribution(changes),
                         "house_per_deal": float(room.fee * seats)})
    return pd.DataFrame(rows)


def units_moved(records: pd.DataFrame) -> np.ndarray:
    """Units that change hands in each deal (the sum of the gains)."""
    return np.clip(per_seat(records, "money"), 0, None).sum(axis=1).astype(float)


def win_money(records: pd.DataFrame) -> pd.DataFrame:
    """Per way of winning: wins, what the payers paid for the win (units; capped per payer in 002, with the
    winner's kong units in 003): mean, standard deviation and quantiles; the raw value and payers per win."""
    wins = win_rows(records, [])
    rows = []
    for code, name in (0, "all"), *WIN_TYPES.items():
        chosen = wins if code == 0 else wins[wins["win_type"] == code]
        money = chosen["income"].to_numpy().astype(float)
        row = {"win_type": name, **_distribution(money)}
        row["mean_value"] = chosen["value"].mean() if len(chosen) else np.nan
        row["mean_payers"] = chosen["payers"].mean() if len(chosen) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def seat_results(records: pd.DataFrame, rooms: list[Room]) -> pd.DataFrame:
    """Per room and group (each seat, dealer, non-dealers): win rate with its Wilson interval, mean money
    per deal with a 95% interval, and the mean per deal from each source (units x stake)."""
    seats = seat_count(records)
    dealer = records["dealer"].to_numpy()
    wins = seat_wins(records)
    is_dealer = np.arange(seats)[None, :] == dealer[:, None]
    rows = []
    for room in rooms:
        changes = seat_changes(records, room)
        sources = {source: per_seat(records, f"{source}_money") * float(room.stake) for source in SOURCES}
        groups = {f"seat {seat}": np.arange(seats) == seat for seat in range(seats)}
        for group, mask in groups.items():
            rows.append(_seat_row(room, group, changes[:, mask].ravel(), wins[:, mask].ravel(),
                                  {source: values[:, mask].ravel() for source, values in sources.items()}))
        for group, mask in (("dealer", is_dealer), ("non-dealer", ~is_dealer)):
            rows.append(_seat_row(room, group, changes[mask], wins[mask], {source: values[mask] for source, values in sources.items()}))
    return pd.DataFrame(rows)


def _seat_row(room: Room, group: str, money: np.ndarray, wins: np.ndarray, sources: dict) -> dict:
    count = len(money)
    low, high = wilson_interval(int(wins.sum()), count)
    half = Z_95 * money.std(ddof=1) / np.sqrt(count) if count > 1 else np.nan
    row = {"room": room.name, "group": group, "deals": count, "win_rate": wins.mean() if count else np.nan,
           "win_rate_low": float(low), "win_rate_high": float(high), "mean_money": money.mean() if count else np.nan,
           "mean_money_low": money.mean() - half, "mean_money_high": money.mean() + half}
    for source, values in sources.items():
        row[f"mean_{source}"] = values.mean() if count else np.nan
    return row


def run_tables(records: pd.DataFrame, rooms: list[Room]) -> dict[str, pd.DataFrame]:
    """The money tables a run writes: ``money`` (per room and source), ``wins`` (per way of winning, in
    units) and ``seats``."""
    return {"money": money_distribution(records, rooms), "wins": win_money(records), "seats": seat_results(records, rooms)}

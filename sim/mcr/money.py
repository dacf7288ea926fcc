"""Money of the MCR family (docs/rules/mcr-table.md) from per-deal records: each seat's change per deal in a
room, the wins as rows, the outcome summary, and the money tables (per way of winning, and per seat and
dealer / non-dealer).

The engine (``sim.mcr.engine``) writes, per seat s, ``money_s``: its net points of the deal. With F = fan
total + the winner's flowers and ``base`` from the ruleset, a win on a discard (or a robbed kong) is paid
base + F by the discarder and base by each other seat; a self-draw base + F by each of the three others; an
exhausted deal (荒庄) moves nothing. A deal's money sums to zero over the seats. A room multiplies points by
its stake (``Room.stake``) and charges every seat its fee each deal.
"""

import numpy as np
import pandas as pd

from sim.core.rooms import Room
from sim.core.statistics import Z_95, mean_and_quantiles, wilson_interval

SEATS = 4
QUANTILES = (0.01, 0.1, 0.5, 0.9, 0.99)
WIN_TYPES = {1: "self_drawn", 2: "discard", 3: "robbed_kong"}
SELF_DRAWN = 1


def per_seat(records: pd.DataFrame, column: str) -> np.ndarray:
    """(deals, 4): the per-seat record columns ``<column>_0`` .. ``<column>_3`` side by side."""
    return np.column_stack([records[f"{column}_{seat}"].to_numpy() for seat in range(SEATS)])


def seat_changes(records: pd.DataFrame, room: Room) -> np.ndarray:
    """(deals, 4): each seat's money change per deal in the room (points x stake, less the fee)."""
    return per_seat(records, "money") * float(room.stake) - float(room.fee)


def seat_wins(records: pd.DataFrame) -> np.ndarray:
    """(deals, 4) bool: the seat won the deal (one winner at most: 截和)."""
    winner = records["winner"].to_numpy()
    return winner[:, None] == np.arange(SEATS)[None, :]


def units_moved(records: pd.DataFrame) -> np.ndarray:
    """Points that change hands in each deal (what the winner receives; the fee aside)."""
    return np.clip(per_seat(records, "money"), 0, None).sum(axis=1).astype(float)


def _winner_income(records: pd.DataFrame, won: np.ndarray) -> np.ndarray:
    winner = records["winner"].to_numpy()[won]
    return per_seat(records, "money")[won][np.arange(len(winner)), winner]


def win_rows(records: pd.DataFrame, fan_columns: list[str]) -> pd.DataFrame:
    """One row per win (at most one a deal): deal, seat, win_type, value (the fan total, flowers aside),
    income (what its payers paid, in points), payers (always the three others) and the fan columns."""
    won = records["winner"].to_numpy() >= 0
    rows = pd.DataFrame({"deal": records["deal"].to_numpy()[won], "seat": records["winner"].to_numpy()[won],
                         "win_type": records["win_type"].to_numpy()[won], "value": records["fan_total"].to_numpy()[won],
                         "income": _winner_income(records, won), "payers": SEATS - 1})
    for column in fan_columns:
        rows[column] = records[column].to_numpy()[won]
    return rows


def outcome_summary(records: pd.DataFrame) -> pd.DataFrame:
    """One row per statistic (value, and a 95% Wilson interval for the shares): deals, wins, draws (荒庄), the
    share of deals won and drawn, each way of winning as a share of wins, the fan totals of wins (flowers
    aside): mean and quantiles, the winner's flowers per win, and what the winner receives from the three
    others in points: mean and quantiles."""
    deals = len(records)
    won = records["winner"].to_numpy() >= 0
    wins = int(won.sum())
    none = (np.nan, np.nan)
    rows = [("deals", deals, *none), ("wins", wins, *none), ("draws", deals - wins, *none)]
    rows.append(("win_share", wins / deals, *wilson_interval(wins, deals)))
    rows.append(("draw_share", (deals - wins) / deals, *wilson_interval(deals - wins, deals)))
    for code, name in WIN_TYPES.items():
        count = int((records["win_type"] == code).sum())
        rows.append((f"{name}_share_of_wins", count / wins if wins else np.nan, *wilson_interval(count, wins)))
    rows += mean_and_quantiles("fan_total", records["fan_total"].to_numpy()[won])
    rows.append(("mean_winner_flowers", records["winner_flowers"].to_numpy()[won].mean() if wins else np.nan, *none))
    rows += mean_and_quantiles("winner_income", _winner_income(records, won))
    return pd.DataFrame(rows, columns=["statistic", "value", "low", "high"]).astype({"value": float, "low": float, "high": float})


def _distribution(values: np.ndarray) -> dict:
    row = {"count": len(values), "mean": values.mean() if len(values) else np.nan,
           "std": values.std(ddof=1) if len(values) > 1 else np.nan}
    for quantile in QUANTILES:
        row[f"q{round(quantile * 100):02d}"] = np.quantile(values, quantile) if len(values) else np.nan
    return row


def win_money(records: pd.DataFrame) -> pd.DataFrame:
    """Per way of winning: wins, what the winner receives (points: mean, standard deviation, quantiles), the
    mean fan total, and the mean the discarder pays (base + F; NaN for self-draws, where each payer pays it)."""
    wins = win_rows(records, [])
    won = records["winner"].to_numpy() >= 0
    discarder = records["discarder"].to_numpy()[won]
    money = per_seat(records, "money")[won]
    dealt_in = np.where(discarder >= 0, -money[np.arange(len(discarder)), np.maximum(discarder, 0)], np.nan)
    rows = []
    for code, name in (0, "all"), *WIN_TYPES.items():
        chosen = np.ones(len(wins), bool) if code == 0 else (wins["win_type"] == code).to_numpy()
        row = {"win_type": name, **_distribution(wins["income"].to_numpy()[chosen].astype(float))}
        row["mean_value"] = wins["value"].to_numpy()[chosen].mean() if chosen.any() else np.nan
        paid = dealt_in[chosen & (discarder >= 0)]
        row["mean_discarder_pays"] = paid.mean() if len(paid) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def seat_results(records: pd.DataFrame, rooms: list[Room]) -> pd.DataFrame:
    """Per room and group (each seat, dealer, non-dealers): deals, win rate and the rate of paying base + F
    for another's win on its discard or robbed kong (点炮), each with its Wilson interval, and the mean money
    per deal with a 95% normal interval."""
    dealer = records["dealer"].to_numpy()
    wins = seat_wins(records)
    dealt_in = records["discarder"].to_numpy()[:, None] == np.arange(SEATS)[None, :]
    is_dealer = np.arange(SEATS)[None, :] == dealer[:, None]
    rows = []
    for room in rooms:
        changes = seat_changes(records, room)
        groups = {f"seat {seat}": np.broadcast_to(np.arange(SEATS) == seat, changes.shape) for seat in range(SEATS)}
        groups.update({"dealer": is_dealer, "non-dealer": ~is_dealer})
        for group, mask in groups.items():
            money, won, paid = changes[mask], wins[mask], dealt_in[mask]
            count = len(money)
            win_low, win_high = wilson_interval(int(won.sum()), count)
            paid_low, paid_high = wilson_interval(int(paid.sum()), count)
            half = Z_95 * money.std(ddof=1) / np.sqrt(count) if count > 1 else np.nan
            rows.append({"room": room.name, "group": group, "deals": count,
                         "win_rate": won.mean() if count else np.nan, "win_rate_low": float(win_low),
                         "win_rate_high": float(win_high), "deal_in_rate": paid.mean() if count else np.nan,
                         "deal_in_rate_low": float(paid_low), "deal_in_rate_high": float(paid_high),
                         "mean_money": money.mean() if count else np.nan, "mean_money_low": money.mean() - half,
                         "mean_money_high": money.mean() + half})
    return pd.DataFrame(rows)


def run_tables(records: pd.DataFrame, rooms: list[Room]) -> dict[str, pd.DataFrame]:
    """The money tables a run writes: ``wins`` (per way of winning, in points) and ``seats`` (per room)."""
    return {"wins": win_money(records), "seats": seat_results(records, rooms)}

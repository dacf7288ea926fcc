"""Money of the 二人 family, 富贵豆 (beans), from per-deal records: each seat's bean change per deal in each
room, its distribution by role, win rates and mean beans per seat and per dealer / non-dealer, and the
outcome summary (wins, draws, ways of winning, fan totals).

With F = (fan total + the winner's flowers) x 2^(the winner's doubles), stake s and table fee f: the
winner gets F*s - f, the loser pays F*s + f, and on a draw each pays f; the house takes 2f every deal. In
a ruleset that prices wins in points (erren-challenge: the record's `points`), F is the points.
"""

import numpy as np
import pandas as pd

from sim.core.rooms import Room
from sim.core.statistics import Z_95, mean_and_quantiles, wilson_interval

QUANTILES = (0.01, 0.1, 0.5, 0.9, 0.99)
WIN_TYPES = {1: "self_drawn", 2: "discard", 3: "robbed_kong"}


def winning_fans(records: pd.DataFrame) -> np.ndarray:
    """F per deal (0 for a draw), as float64: a long run of doubling outgrows any integer type."""
    winner = records["winner"].to_numpy()
    flowers = np.where(winner == 0, records["flowers_0"], records["flowers_1"])
    doubles = np.where(winner == 0, records["doubles_0"], records["doubles_1"])
    fans = (records["fan_total"].to_numpy() + flowers) * np.exp2(doubles)
    # runs written before the record had `points` price every win in fans
    points = records["points"].to_numpy() if "points" in records else np.zeros(len(records))
    return np.where(winner >= 0, np.where(points > 0, points, fans), 0.0)


def seat_changes(records: pd.DataFrame, room: Room) -> np.ndarray:
    """(deals, 2): the bean change of seat 0 and seat 1 in each deal."""
    winner = records["winner"].to_numpy()
    moved = winning_fans(records) * room.stake
    changes = np.full((len(records), 2), -float(room.fee))
    for seat in range(2):
        changes[:, seat] += np.where(winner == seat, moved, 0.0) - np.where(winner == 1 - seat, moved, 0.0)
    return changes


def seat_wins(records: pd.DataFrame) -> np.ndarray:
    """(deals, 2) bool: the seat won the deal."""
    winner = records["winner"].to_numpy()
    return np.column_stack([winner == 0, winner == 1])


def units_moved(records: pd.DataFrame) -> np.ndarray:
    """What changes hands in each deal before the stake: F (the fee aside)."""
    return winning_fans(records)


def win_rows(records: pd.DataFrame, fan_columns: list[str]) -> pd.DataFrame:
    """One row per win (at most one a deal): deal, seat, win_type, value (the fan total) and the fan columns."""
    won = records["winner"].to_numpy() >= 0
    rows = pd.DataFrame({"deal": records["deal"].to_numpy()[won], "seat": records["winner"].to_numpy()[won],
                         "win_type": records["win_type"].to_numpy()[won], "value": records["fan_total"].to_numpy()[won]})
    for column in fan_columns:
        rows[column] = records[column].to_numpy()[won]
    return rows


def run_tables(records: pd.DataFrame, rooms: list[Room]) -> dict[str, pd.DataFrame]:
    """The money tables a run writes: ``beans`` (per room and role) and ``seats``."""
    return {"beans": bean_distribution(records, rooms), "seats": seat_results(records, rooms)}


def bean_distribution(records: pd.DataFrame, rooms: list[Room]) -> pd.DataFrame:
    """Per room and role (winner, loser, draw): deals, mean, standard deviation and quantiles of the
    bean change, plus the house's take per deal and its share of the beans moved between players."""
    winner = records["winner"].to_numpy()
    won = winner >= 0
    rows = []
    for room in rooms:
        changes = seat_changes(records, room)
        by_role = {
            "winner": changes[won, winner[won]],
            "loser": changes[won, 1 - winner[won]],
            "draw": changes[~won].ravel(),
        }
        moved = winning_fans(records).sum() * room.stake
        house = 2.0 * room.fee * len(records)
        for role, values in by_role.items():
            row = {"room": room.name, "stake": room.stake, "fee": room.fee, "role": role, "count": len(values)}
            row["mean"] = values.mean() if len(values) else np.nan
            row["std"] = values.std(ddof=1) if len(values) > 1 else np.nan
            for quantile in QUANTILES:
                row[f"q{round(quantile * 100):02d}"] = np.quantile(values, quantile) if len(values) else np.nan
            row["house_per_deal"] = 2.0 * room.fee
            row["house_share_of_moved"] = house / (house + moved) if house + moved else np.nan
            rows.append(row)
    return pd.DataFrame(rows)


def seat_results(records: pd.DataFrame, rooms: list[Room]) -> pd.DataFrame:
    """Per room and group (seat 0, seat 1, dealer, non-dealer): deals, win rate with its Wilson interval,
    and mean beans per deal with a 95% normal interval."""
    winner = records["winner"].to_numpy()
    dealer = records["dealer"].to_numpy()
    rows = []
    for room in rooms:
        changes = seat_changes(records, room)
        dealer_change = np.where(dealer == 0, changes[:, 0], changes[:, 1])
        other_change = np.where(dealer == 0, changes[:, 1], changes[:, 0])
        groups = {
            "seat 0": (changes[:, 0], winner == 0),
            "seat 1": (changes[:, 1], winner == 1),
            "dealer": (dealer_change, winner == dealer),
            "non-dealer": (other_change, (winner >= 0) & (winner != dealer)),
        }
        for group, (beans, wins) in groups.items():
            deals = len(beans)
            low, high = wilson_interval(wins.sum(), deals)
            half = Z_95 * beans.std(ddof=1) / np.sqrt(deals) if deals > 1 else np.nan
            rows.append(
                {
                    "room": room.name, "group": group, "deals": deals, "win_rate": wins.mean() if deals else np.nan,
                    "win_rate_low": float(low), "win_rate_high": float(high), "mean_beans": beans.mean() if deals else np.nan,
                    "mean_beans_low": beans.mean() - half, "mean_beans_high": beans.mean() + half,
                }
            )
    return pd.DataFrame(rows)


def outcome_summary(records: pd.DataFrame) -> pd.DataFrame:
    """One row per statistic (value, and a 95% Wilson interval for the shares): deals, wins, draws, the
    share of deals won and drawn, each way of winning as a share of wins, the fan totals of wins (before
    doubling, flowers aside): mean and quantiles, and what the loser pays per stake for a win, F (module
    text: the fans with the winner's flowers, doubled; the points where wins are priced in points): mean and
    quantiles; where wins are priced in points (erren-challenge), the share of wins with a 役满 and the
    points: mean and quantiles."""
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
    rows += mean_and_quantiles("fan_total", totals)
    rows += mean_and_quantiles("paid_per_win", winning_fans(records)[won.to_numpy()])
    if "points" in records and (records["points"] > 0).any():
        points = records.loc[won, "points"].to_numpy()
        limits = int((records.loc[won, "limits"] > 0).sum())
        rows.append(("limit_share_of_wins", limits / wins, *wilson_interval(limits, wins)))
        rows += mean_and_quantiles("points", points)
    return pd.DataFrame(rows, columns=["statistic", "value", "low", "high"]).astype({"value": float, "low": float, "high": float})

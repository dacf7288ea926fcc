"""Heuristic against heuristic on duplicate deals: every wall is played twice with the seats swapped.

Deal i of both games has the same wall and the same dealer seat (both come from the stream (seed, 0, i)),
so the luck of the tiles cancels in the per-wall sum of a heuristic's results. A duel reports, per
heuristic, the win rate and the mean beans per deal in a room (default 体验场: one bean per fan, no fee,
so beans are fans), each with a 95% interval, and whether the difference between the two is significant:
a z test on the per-wall differences, which are independent from wall to wall. A league plays every
pair of a list of heuristics and writes the pairwise matrix.
"""

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.beans import seat_changes
from analysis.rooms import Room
from analysis.statistics import Z_95, wilson_interval
from sim import engine
from sim.ruleset import Ruleset


@dataclass
class DuelResult:
    names: tuple[str, str]  # canonical player texts
    deals: int  # walls; each played twice
    win_rate: np.ndarray  # (2,) over the 2 x deals games
    win_rate_interval: np.ndarray  # (2, 2)
    mean_beans: np.ndarray  # (2,) per deal
    mean_beans_interval: np.ndarray  # (2, 2)
    difference: float  # mean beans per deal of the first less the second
    difference_interval: tuple[float, float]
    z: float
    p_value: float

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05

    def table(self) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "player": self.names,
                "deals": [2 * self.deals] * 2,
                "win_rate": self.win_rate,
                "win_rate_low": self.win_rate_interval[:, 0],
                "win_rate_high": self.win_rate_interval[:, 1],
                "mean_beans": self.mean_beans,
                "mean_beans_low": self.mean_beans_interval[:, 0],
                "mean_beans_high": self.mean_beans_interval[:, 1],
            }
        )


def _frame(records: engine.DealRecords) -> pd.DataFrame:
    return pd.DataFrame(records.columns)


def duel(ruleset: Ruleset, first: str, second: str, deals: int, seed: int, room: Room) -> DuelResult:
    players = engine.Players.parse([first, second])
    swapped = engine.Players.parse([second, first])
    straight = _frame(engine.play(ruleset, players, seed, deals))
    reverse = _frame(engine.play(ruleset, swapped, seed, deals))
    # beans[player] per wall: its result in the straight game plus its result in the swapped one
    straight_changes = seat_changes(straight, room)
    reverse_changes = seat_changes(reverse, room)
    per_wall = np.stack([straight_changes[:, 0] + reverse_changes[:, 1], straight_changes[:, 1] + reverse_changes[:, 0]])
    wins = np.array(
        [
            (straight["winner"] == 0).sum() + (reverse["winner"] == 1).sum(),
            (straight["winner"] == 1).sum() + (reverse["winner"] == 0).sum(),
        ]
    )
    win_interval = np.column_stack(wilson_interval(wins, 2 * deals))
    mean = per_wall.mean(axis=1) / 2
    spread = per_wall.std(axis=1, ddof=1) / 2 / math.sqrt(deals) if deals > 1 else np.full(2, np.nan)
    mean_interval = np.column_stack([mean - Z_95 * spread, mean + Z_95 * spread])
    differences = (per_wall[0] - per_wall[1]) / 2
    difference = float(differences.mean())
    error = float(differences.std(ddof=1) / math.sqrt(deals)) if deals > 1 else math.nan
    z = difference / error if error > 0 else (0.0 if difference == 0 else math.copysign(math.inf, difference))
    p_value = math.erfc(abs(z) / math.sqrt(2))
    return DuelResult(
        players.names, deals, wins / (2 * deals), win_interval, mean, mean_interval, difference,
        (difference - Z_95 * error, difference + Z_95 * error), z, p_value,
    )


def format_duel(result: DuelResult, room: Room) -> str:
    lines = [f"{result.deals:,} walls, each played twice with the seats swapped; beans in {room.name} (stake {room.stake}, fee {room.fee})"]
    for index, name in enumerate(result.names):
        low, high = result.mean_beans_interval[index]
        win_low, win_high = result.win_rate_interval[index]
        lines.append(
            f"  {name}\n    wins {result.win_rate[index]:.2%} [{win_low:.2%}, {win_high:.2%}], "
            f"mean beans per deal {result.mean_beans[index]:+.3f} [{low:+.3f}, {high:+.3f}]"
        )
    low, high = result.difference_interval
    verdict = "significant" if result.significant else "not significant"
    lines.append(
        f"difference (first - second): {result.difference:+.3f} beans per deal [{low:+.3f}, {high:+.3f}], "
        f"z = {result.z:.2f}, p = {result.p_value:.3g}: {verdict} at 5%"
    )
    return "\n".join(lines) + "\n"


def league(ruleset: Ruleset, players: list[str], deals: int, seed: int, room: Room) -> pd.DataFrame:
    """Every pair once: one row per (player, opponent) with the player's mean beans per deal less the
    opponent's, the difference's interval, z and p. The matrix is antisymmetric."""
    rows = []
    for first, second in itertools.combinations(players, 2):
        result = duel(ruleset, first, second, deals, seed, room)
        low, high = result.difference_interval
        for sign, (row, column) in ((1, (first, second)), (-1, (second, first))):
            rows.append(
                {
                    "player": row, "opponent": column, "deals": 2 * deals,
                    "beans_difference": sign * result.difference,
                    "low": sign * (low if sign > 0 else high), "high": sign * (high if sign > 0 else low),
                    "z": sign * result.z, "p_value": result.p_value, "significant": result.significant,
                    "win_rate": result.win_rate[0 if sign > 0 else 1],
                }
            )
    return pd.DataFrame(rows)


def league_matrix(table: pd.DataFrame) -> pd.DataFrame:
    """The row player's mean beans per deal less the column player's (0 on the diagonal)."""
    order = list(dict.fromkeys(table["player"]))
    matrix = table.pivot(index="player", columns="opponent", values="beans_difference").reindex(index=order, columns=order)
    return matrix.fillna(0.0)

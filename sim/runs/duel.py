"""Player against player on duplicate deals: every wall is played once per seating, the seats rotated.

The two players sit alternately (A, B for two seats; A, B, A for three; A, B, A, B for four), or with the
lineup ``one``, A in one seat and B in all the others (A, B, B, B: how one player fares at a table of
another), and every wall is played once per rotation of that seating, so each seat holds each player
equally often. Deal i
of every game has the same wall and the same dealer seat (both come from the stream (seed, 0, i)), so the
luck of the tiles cancels in the per-wall sum of a heuristic's results; with two seats the rotation is the
usual swap. A duel reports, per heuristic, the win rate and the mean money per seat and deal in a room
(default the family's first room: 体验场 for 二人麻将, one bean per fan and no fee, so beans are fans; 练习场
for 血战, base stake 1, so money is units), each with a 95% interval, and whether the difference between the
two is significant: a z test on the per-wall differences, which are independent from wall to wall. By default
the verdict is on the differences with the luck of the draws taken out (``sim.core.draw_luck``: per wall, the
first player's luck less the second's, with coefficients cross-fitted on the other walls by
``sim.core.control_variates``), which keeps its mean and narrows its interval. A league plays every pair of
a list of heuristics on the same walls and gives the pairwise matrix, each pair keeping its per-wall
differences, which rating lists are fitted to (``analysis.ratings``).
"""

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.core import control_variates, draw_luck
from sim.core.rooms import Room
from sim.core.ruleset import Ruleset
from sim.core.statistics import Z_95, wilson_interval
from sim.families import family_of


@dataclass
class DuelResult:
    names: tuple[str, str]  # canonical player texts
    deals: int  # walls; each played once per rotation of the seating
    seats: int
    seat_deals: np.ndarray  # (2,) seat-deals each heuristic played
    win_rate: np.ndarray  # (2,) over its seat-deals
    win_rate_interval: np.ndarray  # (2, 2)
    mean_beans: np.ndarray  # (2,) per seat and deal
    mean_beans_interval: np.ndarray  # (2, 2)
    difference: float  # mean beans per seat and deal of the first less the second
    difference_interval: tuple[float, float]
    z: float
    p_value: float
    lineup: str = "alternate"
    seating_money: np.ndarray | None = None  # (seatings, 2, walls): each player's money per wall in each seating
    seating_wins: np.ndarray | None = None  # (seatings, 2, walls): the seats each player won the wall from
    # With variance reduction, the verdict above is on `adjusted`; `plain_*` is the verdict without it:
    luck: np.ndarray | None = None  # (walls, features): the first player's luck less the second's (Walls.luck)
    adjusted: np.ndarray | None = None  # (walls,): the per-wall differences less the luck cross-fitted to them
    plain_difference: float = math.nan
    plain_error: float = math.nan  # standard error of the plain difference
    error: float = math.nan  # standard error of the verdict's difference

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05

    def table(self) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "player": self.names,
                "deals": self.seat_deals,
                "win_rate": self.win_rate,
                "win_rate_low": self.win_rate_interval[:, 0],
                "win_rate_high": self.win_rate_interval[:, 1],
                "mean_beans": self.mean_beans,
                "mean_beans_low": self.mean_beans_interval[:, 0],
                "mean_beans_high": self.mean_beans_interval[:, 1],
            }
        )

    def walls_table(self) -> pd.DataFrame:
        """One row per wall: each player's money (summed over its seats) and wins in each seating (seating r:
        ``seating(seats, r, lineup)``), its money per seat over all seatings, and the first's less the second's,
        whose mean, standard error and z are the printed difference's (``mjsim duel --out``)."""
        columns = {"wall": np.arange(self.deals)}
        for seating_index in range(self.seating_money.shape[0]):
            for player, role in enumerate(("first", "second")):
                columns[f"{role}_money_seating_{seating_index}"] = self.seating_money[seating_index, player]
                columns[f"{role}_wins_seating_{seating_index}"] = self.seating_wins[seating_index, player]
        per_seat = self.seating_money.sum(axis=0) / (self.seat_deals / self.deals)[:, None]
        columns.update({"first_per_seat": per_seat[0], "second_per_seat": per_seat[1], "difference": per_seat[0] - per_seat[1]})
        if self.luck is not None:
            for index, feature in enumerate(draw_luck.FEATURES):
                columns[f"luck_{feature}"] = self.luck[:, index]
            columns["adjusted_difference"] = self.adjusted
        return pd.DataFrame(columns)


CHUNK = 2_000  # deals per engine call: numba holds off Ctrl-C until a call returns (ev plays 400 to 3,000 a second)
BYTES_PER_WALL = 400  # held for the whole duel: each player's money, wins and luck per wall in each of up to 4 seatings, and the figures from them


def duel_memory(deals: int) -> int:
    """Bytes a duel holds at most: its per-wall sums, and the records of one chunk of deals."""
    return deals * BYTES_PER_WALL + CHUNK * 4096


def _chunks(family, ruleset, players, seed: int, start: int, count: int, luck: bool = False):
    """(offset from `start`, record columns, luck or None) of walls `start` .. `start + count - 1`, played a
    chunk at a time: Ctrl-C stops a long duel within seconds, and only a chunk's records are held at once; each
    deal depends only on (seed, deal), so the records are the same as in one piece (money needs no fan columns)."""
    for offset in range(0, count, CHUNK):
        played = family.engine.play(ruleset, players, seed, min(CHUNK, count - offset), start + offset, luck=luck)
        yield offset, pd.DataFrame(played.columns), played.luck


LINEUPS = ("alternate", "one")


def seating(seats: int, rotation: int, lineup: str = "alternate") -> list[int]:
    """Which player (0 or 1) sits in each seat in the given rotation: alternately, or (lineup ``one``) the
    first in seat `rotation` alone and the second everywhere else."""
    if lineup == "one":
        return [0 if seat == rotation else 1 for seat in range(seats)]
    return [(seat + rotation) % seats % 2 for seat in range(seats)]


@dataclass
class Walls:
    """Two players' results on the duplicate walls `start` .. `start + count - 1`, each wall played once per
    rotation of the seating (``seating``). Each wall depends only on (seed, wall), so the walls of a match
    played in batches are the walls of the same match played at once."""
    start: int
    money: np.ndarray  # (seatings, 2, walls): each player's money summed over the seats it held in a seating
    wins: np.ndarray  # (seatings, 2, walls) int8: the seats each player won the wall from
    slots: np.ndarray  # (2,): seats each player held per wall, over the seatings
    # (walls, features): the luck of the draws (sim.core.draw_luck) of the first player's seats less the second's,
    # summed over the seatings and divided by the seats as `per_seat` divides money; None unless asked for
    luck: np.ndarray | None = None

    @property
    def count(self) -> int:
        return self.money.shape[2]

    def per_seat(self) -> np.ndarray:
        """(2, walls): each player's money per seat and deal on each wall, over all seatings."""
        return self.money.sum(axis=0) / self.slots[:, None]

    def difference(self) -> np.ndarray:
        """(walls,): the first player's money per seat and deal less the second's, wall by wall: independent
        from wall to wall, so their mean, its standard error and z are a duel's verdict."""
        per_seat = self.per_seat()
        return per_seat[0] - per_seat[1]


def play_walls(ruleset: Ruleset, first: str, second: str, seed: int, start: int, count: int, room: Room,
               seats: int | None = None, lineup: str = "alternate", luck: bool = False) -> Walls:
    """Play walls `start` .. `start + count - 1` once per rotation of the seating of `first` and `second`;
    with `luck`, measure the luck of the draws on each wall (``Walls.luck``)."""
    if lineup not in LINEUPS:
        raise ValueError(f"a lineup is one of {', '.join(LINEUPS)}, not {lineup!r}")
    family = family_of(ruleset)
    seats = seats or ruleset.players[0]
    texts = (first, second)
    money = np.zeros((seats, 2, count))
    wins = np.zeros((seats, 2, count), dtype=np.int8)
    players_luck = np.zeros((2, count, len(draw_luck.FEATURES))) if luck else None
    slots = np.zeros(2)
    for rotation in range(seats):
        sitting = seating(seats, rotation, lineup)
        players = family.parse_players([texts[player] for player in sitting], seats)
        try:
            for offset, records, measured in _chunks(family, ruleset, players, seed, start, count, luck):
                changes = family.money.seat_changes(records, room)
                won = family.money.seat_wins(records)
                walls = slice(offset, offset + len(records))
                for seat, player in enumerate(sitting):
                    money[rotation, player, walls] += changes[:, seat]
                    wins[rotation, player, walls] += won[:, seat]
                    if luck:
                        players_luck[player, walls] += measured[:, seat]
        finally:
            players.close()
        for player in sitting:
            slots[player] += 1
    difference = players_luck[0] / slots[0] - players_luck[1] / slots[1] if luck else None
    return Walls(start, money, wins, slots, difference)


def _mean_and_error(values: np.ndarray) -> tuple[float, float]:
    return float(values.mean()), (float(values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else math.nan)


VARIANCE_REDUCTION_FOLDS = 2


def duel(ruleset: Ruleset, first: str, second: str, deals: int, seed: int, room: Room, seats: int | None = None,
         lineup: str = "alternate", variance_reduction: bool = True) -> DuelResult:
    """`first` against `second` on walls 0 .. deals - 1; with `variance_reduction`, the verdict (difference,
    interval, z, p) is on the differences with the luck of the draws taken out, cross-fitted in
    VARIANCE_REDUCTION_FOLDS folds, and the plain verdict's difference and error are kept beside it."""
    family = family_of(ruleset)
    names = tuple(family.player_name(text) for text in (first, second))
    walls = play_walls(ruleset, first, second, seed, 0, deals, room, seats, lineup, luck=variance_reduction)
    seats = walls.money.shape[0]
    per_slot = walls.per_seat()
    wins = walls.wins.sum(axis=(0, 2), dtype=np.float64)
    seat_deals = walls.slots * deals
    win_interval = np.column_stack(wilson_interval(wins, seat_deals))
    mean = per_slot.mean(axis=1)
    spread = per_slot.std(axis=1, ddof=1) / math.sqrt(deals) if deals > 1 else np.full(2, np.nan)
    mean_interval = np.column_stack([mean - Z_95 * spread, mean + Z_95 * spread])
    differences = walls.difference()
    plain_difference, plain_error = _mean_and_error(differences)
    adjusted = None
    if variance_reduction:
        adjusted = control_variates.cross_fitted(differences, walls.luck, VARIANCE_REDUCTION_FOLDS)
    difference, error = _mean_and_error(adjusted if variance_reduction else differences)
    z = difference / error if error > 0 else (0.0 if difference == 0 else math.copysign(math.inf, difference))
    p_value = math.erfc(abs(z) / math.sqrt(2))
    return DuelResult(
        names, deals, seats, seat_deals.astype(int), wins / seat_deals, win_interval, mean, mean_interval, difference,
        (difference - Z_95 * error, difference + Z_95 * error), z, p_value, lineup, walls.money, walls.wins,
        walls.luck, adjusted, plain_difference, plain_error, error,
    )


def format_duel(result: DuelResult, room: Room, currency: str = "beans") -> str:
    per = "per deal" if result.seats == 2 else "per seat and deal"
    how = "twice with the seats swapped" if result.seats == 2 else f"{result.seats} times with the seats rotated"
    if result.lineup == "one" and result.seats > 2:
        how += f" (the first player alone at a table of the second's {result.seats - 1})"
    lines = [f"{result.deals:,} walls, each played {how}; {currency} in {room.name} (stake {room.stake}, fee {room.fee})"]
    for index, name in enumerate(result.names):
        low, high = result.mean_beans_interval[index]
        win_low, win_high = result.win_rate_interval[index]
        lines.append(
            f"  {name}\n    wins {result.win_rate[index]:.2%} [{win_low:.2%}, {win_high:.2%}], "
            f"mean {currency} {per} {result.mean_beans[index]:+.3f} [{low:+.3f}, {high:+.3f}]"
        )
    low, high = result.difference_interval
    verdict = "significant" if result.significant else "not significant"
    lines.append(
        f"difference (first - second): {result.difference:+.3f} {currency} {per} [{low:+.3f}, {high:+.3f}], "
        f"z = {result.z:.2f}, p = {result.p_value:.3g}: {verdict} at 5%"
    )
    if result.adjusted is not None:
        lines.append(f"luck of the draws taken out (control variates): standard error {result.plain_error:.3f} -> "
                     f"{result.error:.3f}; without: {result.plain_difference:+.3f}")
    return "\n".join(lines) + "\n"


def league(ruleset: Ruleset, players: list[str], deals: int, seed: int, room: Room, seats: int | None = None,
           lineup: str = "alternate", variance_reduction: bool = True) -> pd.DataFrame:
    """Every pair once, on the same walls 0 .. `deals` - 1: ``league_table`` of their ``play_walls`` (measuring
    the luck of the draws with `variance_reduction`, as a duel does), each pair's walls let go once its rows
    are made."""
    pairs = ((first, second, play_walls(ruleset, first, second, seed, 0, deals, room, seats, lineup, luck=variance_reduction))
             for first, second in itertools.combinations(players, 2))
    return league_table(pairs)


def league_memory(deals: int, players: int) -> int:
    """Bytes a league holds at most: one pair's duel, and every pair's differences wall by wall, each way,
    plain and luck-adjusted."""
    return duel_memory(deals) + players * (players - 1) * deals * 2 * 8


def league_table(pairs) -> pd.DataFrame:
    """Two rows per pair, one each way: the row player's mean money per seat and deal less the opponent's,
    its interval, z and p; the row player's win rate and mean money with its interval; and the row player's
    less the opponent's on each wall (`difference_by_wall`, a list, wall i at position i: what ratings are
    fitted to), beside it the luck-adjusted one (`adjusted_difference_by_wall`: control variates fitted on other
    walls, ``sim.core.control_variates.cross_fitted``) where the pair's walls measured their luck (None where
    they did not). Where they did, the difference, its interval, z and p are the adjusted ones, as a duel's
    verdict is. `pairs`: (first, second, Walls) of each pair. The matrix of the differences is antisymmetric."""
    rows = []
    for first, second, walls in pairs:
        differences = walls.difference()
        count = walls.count
        luck_adjusted = None
        if walls.luck is not None:
            luck_adjusted = control_variates.cross_fitted(differences, walls.luck, VARIANCE_REDUCTION_FOLDS)
        verdict_on = differences if luck_adjusted is None else luck_adjusted
        difference = float(verdict_on.mean())
        error = float(verdict_on.std(ddof=1) / math.sqrt(count)) if count > 1 else math.nan
        z = difference / error if error > 0 else (0.0 if difference == 0 else math.copysign(math.inf, difference))
        p_value = math.erfc(abs(z) / math.sqrt(2))
        per_seat = walls.per_seat()
        means = per_seat.mean(axis=1)
        spreads = per_seat.std(axis=1, ddof=1) / math.sqrt(count) if count > 1 else np.full(2, np.nan)
        seat_deals = walls.slots * count
        win_rates = walls.wins.sum(axis=(0, 2), dtype=np.float64) / seat_deals
        for sign, row, column, player in ((1, first, second, 0), (-1, second, first, 1)):
            low, high = sorted((sign * (difference - Z_95 * error), sign * (difference + Z_95 * error)))
            entry = {
                "player": row, "opponent": column, "deals": int(seat_deals[player]),
                "beans_difference": sign * difference, "low": low, "high": high,
                "z": sign * z, "p_value": p_value, "significant": p_value < 0.05, "win_rate": win_rates[player],
                "mean_beans": means[player], "mean_beans_low": means[player] - Z_95 * spreads[player],
                "mean_beans_high": means[player] + Z_95 * spreads[player],
                "difference_by_wall": sign * differences,
            }
            if luck_adjusted is not None:
                entry["adjusted_difference_by_wall"] = sign * luck_adjusted
            rows.append(entry)
    return pd.DataFrame(rows)

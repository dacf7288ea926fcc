"""Rating lists from duplicate pairings: one rating per player in the room's money per seat and deal, fitted
by least squares to every pairing's mean difference, anchored on one player, with bootstrap intervals over
the walls.

The model: each player has a rating r, and a duplicate pairing of A and B measures r_A - r_B on every wall
(``sim.runs.duel.Walls.difference``: A's money per seat and deal less B's; at three and four seats each seat's
money against the table, which under an additive model measures r_A - r_B in both lineups). The ratings
minimise the sum over pairings of walls x (r_A - r_B - mean difference)^2 with the anchor's rating held at 0:
each pairing counts by its walls, so a league (every pair on the same walls) gets the plain fit, in which a
rating is its player's mean row of the matrix less the anchor's. Weights of one over each mean's variance
were not taken: a player against a copy of itself has variance 0, the variances are themselves estimates,
and pairings on the same walls are correlated, so inverse variances would not make the fit efficient anyway.

The intervals: the fit is a fixed linear map of the pairings' means, and its sampling distribution is
bootstrapped over walls. Pairings on the same walls (one group: the walls of one seed) are resampled with
the same wall indices, so the luck their walls share moves them together, as it did when they were played;
groups are resampled independently, each from its own random stream (seed, group), so that adding a file of
other walls does not change the draws of these. The 95% interval is the 2.5% and 97.5% quantiles of the
resampled ratings; the anchor's is [0, 0].
"""

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
import pandas as pd

CONFIDENCE = 0.95
RESAMPLES, SEED = 1_000, 1  # the bootstrap's defaults, for every list mjsim shows
DRAWS_PER_BLOCK = 4_000_000  # wall draws held at once while resampling (32 MB of counts)


class RatingsError(ValueError):
    """Pairings that give no rating list: an anchor that is not rated, a player not connected to it."""


@dataclass(frozen=True)
class Pairing:
    """A duplicate pairing: per wall, the first player's money per seat and deal less the second's."""
    first: str
    second: str
    differences: np.ndarray  # (walls,)
    walls: np.ndarray  # (walls,) the walls' indices within their group
    group: Hashable  # pairings of one group were played on the same walls (in mjsim: the seed)

    @property
    def mean(self) -> float:
        return float(np.mean(self.differences))


@dataclass
class Ratings:
    """A rating list, best first."""
    players: list[str]
    rating: np.ndarray
    low: np.ndarray
    high: np.ndarray
    walls: np.ndarray  # walls of the pairings each player played, summed
    anchor: str
    resamples: int
    seed: int

    def table(self) -> pd.DataFrame:
        return pd.DataFrame({"player": self.players, "rating": self.rating, "low": self.low, "high": self.high,
                             "walls": self.walls})


def players_of(pairings: list[Pairing]) -> list[str]:
    """Every player of the pairings, in the order they first appear."""
    return list(dict.fromkeys(name for pairing in pairings for name in (pairing.first, pairing.second)))


def check_connected(pairings: list[Pairing], players: list[str], anchor: str) -> None:
    """RatingsError unless every player is linked to the anchor by a chain of pairings of two different players
    (only then are the differences to the anchor measured, and the fit unique)."""
    if anchor not in players:
        raise RatingsError(f"the anchor {anchor} is not one of the rated players ({', '.join(players)})")
    neighbours = {player: set() for player in players}
    for pairing in pairings:
        if pairing.first != pairing.second:
            neighbours[pairing.first].add(pairing.second)
            neighbours[pairing.second].add(pairing.first)
    reached, frontier = {anchor}, [anchor]
    while frontier:
        for neighbour in neighbours[frontier.pop()] - reached:
            reached.add(neighbour)
            frontier.append(neighbour)
    apart = [player for player in players if player not in reached]
    if apart:
        raise RatingsError(f"{', '.join(apart)} played no pairing linked to the anchor {anchor}, so "
                           f"{'its rating is' if len(apart) == 1 else 'their ratings are'} not measured")


def fit_map(pairings: list[Pairing], players: list[str], anchor: str) -> np.ndarray:
    """(players, pairings) matrix H: the ratings are H @ (the pairings' mean differences). Weighted least
    squares with each pairing's walls as its weight and the anchor's rating fixed at 0 (its row is zero)."""
    check_connected(pairings, players, anchor)
    index = {player: position for position, player in enumerate(players)}
    design = np.zeros((len(pairings), len(players)))
    for row, pairing in enumerate(pairings):
        if pairing.first != pairing.second:  # a player against itself measures 0 = r - r: no information
            design[row, index[pairing.first]] += 1.0
            design[row, index[pairing.second]] -= 1.0
    weights = np.array([len(pairing.differences) for pairing in pairings], dtype=np.float64)
    free = [position for position, player in enumerate(players) if player != anchor]
    reduced = design[:, free]
    normal = reduced.T @ (weights[:, None] * reduced)
    mapping = np.zeros((len(players), len(pairings)))
    if free:
        mapping[free] = np.linalg.solve(normal, reduced.T * weights)
    return mapping


def fit(pairings: list[Pairing], players: list[str], anchor: str) -> np.ndarray:
    """(players,) ratings: the least-squares fit of the pairings' mean differences, the anchor at 0."""
    return fit_map(pairings, players, anchor) @ np.array([pairing.mean for pairing in pairings])


def resampled_means(pairings: list[Pairing], resamples: int, seed: int) -> np.ndarray:
    """(resamples, pairings): each pairing's mean difference in each bootstrap resample of the walls. In each
    group the walls of all its pairings are drawn with replacement, as many as there are, and each pairing
    averages the draws that fall on its own walls (all of them when the group's pairings share their walls,
    as a league's do)."""
    means = np.empty((resamples, len(pairings)))
    groups: dict[Hashable, list[int]] = {}
    for position, pairing in enumerate(pairings):
        groups.setdefault(pairing.group, []).append(position)
    for group, members in groups.items():
        walls = np.unique(np.concatenate([pairings[member].walls for member in members]))
        differences = np.zeros((len(walls), len(members)))
        present = np.zeros((len(walls), len(members)))
        for column, member in enumerate(members):
            rows = np.searchsorted(walls, pairings[member].walls)
            differences[rows, column] = pairings[member].differences
            present[rows, column] = 1.0
        observed = differences.sum(axis=0) / present.sum(axis=0)
        generator = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=group_key(group)))
        block = max(1, DRAWS_PER_BLOCK // len(walls))
        for start in range(0, resamples, block):
            size = min(block, resamples - start)
            draws = generator.integers(0, len(walls), size=(size, len(walls)))
            counts = np.bincount((draws + len(walls) * np.arange(size)[:, None]).ravel(),
                                 minlength=size * len(walls)).reshape(size, len(walls)).astype(np.float64)
            drawn = counts @ present
            with np.errstate(invalid="ignore", divide="ignore"):
                block_means = (counts @ differences) / drawn
            # a pairing of a handful of walls among many others of its group may draw none of them (with
            # chance about e^-walls); it then keeps its observed mean in that resample
            means[start:start + size, members] = np.where(drawn > 0, block_means, observed)
    return means


def group_key(group: Hashable) -> tuple[int, ...]:
    """A group as the spawn key of its random stream: a seed's own number, or a name's bytes."""
    if isinstance(group, (int, np.integer)) and group >= 0:
        return (int(group),)
    return tuple(str(group).encode())


def rate(pairings: list[Pairing], anchor: str | None = None, resamples: int = RESAMPLES, seed: int = SEED) -> Ratings:
    """The rating list of the pairings, anchored on `anchor` (default: the first player), with 95% bootstrap
    intervals from `resamples` resamples of the walls drawn from `seed`."""
    if not pairings:
        raise RatingsError("no pairings to rate")
    if resamples < 2:
        raise RatingsError(f"the bootstrap needs two or more resamples, not {resamples}")
    players = players_of(pairings)
    anchor = players[0] if anchor is None else anchor
    mapping = fit_map(pairings, players, anchor)
    ratings = mapping @ np.array([pairing.mean for pairing in pairings])
    anchored = players.index(anchor)
    ratings[anchored] = 0.0  # a sum of zero terms may come out as -0.0
    resampled = resampled_means(pairings, resamples, seed) @ mapping.T
    tail = (1 - CONFIDENCE) / 2
    low, high = np.quantile(resampled, [tail, 1 - tail], axis=0)
    low[anchored] = high[anchored] = 0.0  # exactly, not a quantile's rounding of zeros
    walls = np.zeros(len(players))
    for pairing in pairings:
        for name in {pairing.first, pairing.second}:
            walls[players.index(name)] += len(pairing.differences)
    order = np.argsort(-ratings, kind="stable")
    return Ratings([players[position] for position in order], ratings[order], low[order], high[order],
                   walls[order].astype(np.int64), anchor, resamples, seed)

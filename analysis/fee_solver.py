"""The largest table fee (台费) at which a room still meets a target: how long a bankroll lasts, or how much
of the money on the table the house takes (``mjsim economics RUN --solve fee --target ...``).

A target is a metric, a direction and a bound: ``median_deals_to_ruin>=500``, ``mean_deals_played>=300``,
``ruin_probability<=0.5`` or ``house_share<=0.2`` (the metrics of docs/economics.md). Each falls or rises
with the fee alone, so the fee that meets it is found by bisection over whole beans. The ruin metrics come
from the resampled ruin model of ``analysis.economics``: simulated players who each enter with the room's
starting beans and play blocks of consecutive deals drawn from the run; a fee f takes f beans from each of
them every deal, so one set of resampled paths serves every fee tried (the bisection compares fees on the
same players). The uncertainty: the same solve on `replicates` block bootstraps of the run (each a run of
the same length drawn from the run's own blocks, then its own simulated players), whose 2.5% and 97.5%
quantiles bound the fee.
"""

import re
from dataclasses import dataclass

import numpy as np

METRICS = {  # metric -> the direction in which it meets a bound as the fee falls
    "median_deals_to_ruin": ">=",
    "mean_deals_played": ">=",
    "ruin_probability": "<=",
    "house_share": "<=",
}
LARGEST_FEE = 10**15
TARGET_FORM = re.compile(r"^\s*([a-z_]+)\s*(>=|<=)\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*$")


class TargetError(ValueError):
    """A target that is not one of the forms this module solves."""


@dataclass(frozen=True)
class Target:
    metric: str
    direction: str
    bound: float

    def __str__(self) -> str:
        return f"{self.metric}{self.direction}{self.bound:g}"

    def met(self, value: float) -> bool:
        return value >= self.bound if self.direction == ">=" else value <= self.bound


def parse_target(text: str) -> Target:
    """``metric>=bound`` or ``metric<=bound`` (module text); one TargetError for anything else."""
    found = TARGET_FORM.match(text or "")
    forms = ", ".join(f"{metric}{direction}N" for metric, direction in METRICS.items())
    if not found:
        raise TargetError(f"a target reads like median_deals_to_ruin>=500, not {text!r}; the targets: {forms}")
    metric, direction, bound = found.group(1), found.group(2), float(found.group(3))
    if metric not in METRICS:
        raise TargetError(f"unknown metric {metric!r}; the targets: {forms}")
    if direction != METRICS[metric]:
        how = "a floor" if METRICS[metric] == ">=" else "a ceiling"
        raise TargetError(f"a fee can only hold {metric} to {how}: give {metric}{METRICS[metric]}N")
    if metric in ("ruin_probability", "house_share") and not 0 <= bound < 1:
        raise TargetError(f"{metric} is a share: give a bound from 0 to below 1, not {bound:g}")
    return Target(metric, direction, bound)


def solve_memory(players: int, horizon: int, block: int) -> int:
    """Bytes ``solve_fee`` holds at most: every simulated player's path (8 bytes a player-deal), kept for the
    bisection, with the temporaries of drawing it (rows, columns, the changes: 24 bytes more) or of trying a
    fee on it (17 bytes), and the draws (16 bytes a block)."""
    return players * horizon * 32 + players * (-(-horizon // block)) * 16


def resampled_paths(changes: np.ndarray, horizon: int, players: int, block: int, rng) -> np.ndarray:
    """(players, horizon): each simulated player's running total of its bean changes before any fee,
    blocks of `block` consecutive deals of one seat at a time (as ``analysis.economics.deals_until_ruin``)."""
    deals = changes.shape[0]
    block = min(block, deals)
    n_blocks = -(-horizon // block)
    starts = rng.integers(0, deals - block + 1, size=(players, n_blocks))
    seats = rng.integers(0, changes.shape[1], size=(players, n_blocks))
    rows = (starts[:, :, None] + np.arange(block)).reshape(players, -1)[:, :horizon]
    columns = np.repeat(seats, block, axis=1)[:, :horizon]
    return np.cumsum(changes[rows, columns], axis=1)


def deals_played(paths: np.ndarray, start: float, fee: float) -> np.ndarray:
    """Each simulated player's deal of ruin under `fee` (its beans first at or below 0; inf if never)."""
    deal = np.arange(1, paths.shape[1] + 1)
    broke = start + paths - fee * deal <= 0
    return np.where(broke.any(axis=1), broke.argmax(axis=1) + 1, np.inf)


def metric_value(metric: str, fee: float, paths: np.ndarray, start: float, moved: float, fees_per_deal: float) -> float:
    """The metric under `fee`: the ruin metrics from the resampled paths; the house share from the run
    (`moved`: beans that changed hands over the run before fees; `fees_per_deal`: deals x seats)."""
    if metric == "house_share":
        house = fee * fees_per_deal
        return house / (house + moved) if house + moved else 0.0
    ruin = deals_played(paths, start, fee)
    if metric == "median_deals_to_ruin":
        return float(np.median(ruin))
    if metric == "mean_deals_played":
        return float(np.minimum(ruin, paths.shape[1]).mean())
    return float(np.isfinite(ruin).mean())


def largest_fee(target: Target, paths: np.ndarray, start: float, moved: float, fees_per_deal: float) -> float:
    """The largest whole fee meeting `target` (bisection; each metric is monotone in the fee on fixed
    paths); NaN when even no fee misses it, inf when no fee up to LARGEST_FEE misses it."""
    def meets(fee: float) -> bool:
        return target.met(metric_value(target.metric, fee, paths, start, moved, fees_per_deal))

    if not meets(0):
        return float("nan")
    low, high = 0, 1
    while meets(high):  # a fee that misses it, doubling: above the start, a player is broke at the first deal
        low, high = high, high * 2
        if high > LARGEST_FEE:
            return float("inf")
    while high - low > 1:
        middle = (low + high) // 2
        if meets(middle):
            low = middle
        else:
            high = middle
    return float(low)


def solve_fee(changes: np.ndarray, moved: np.ndarray, start: float, target: Target, horizon: int, players: int,
              block: int, seed: int, replicates: int) -> dict:
    """The largest fee meeting `target` in a room, with its bootstrap interval. `changes`: (deals, seats)
    bean changes of each seat before any fee; `moved`: (deals,) beans that changed hands in each deal
    before fees; `start`: a player's starting beans."""
    deals, seats = changes.shape
    fees_per_deal = float(deals * seats)
    rng = np.random.default_rng(seed)
    paths = resampled_paths(changes, horizon, players, block, rng)
    fee = largest_fee(target, paths, start, float(moved.sum()), fees_per_deal)
    block = min(block, deals)
    solved = []
    for _ in range(replicates):  # a block bootstrap of the run, then its own simulated players
        starts = rng.integers(0, deals - block + 1, size=-(-deals // block))
        rows = (starts[:, None] + np.arange(block)).reshape(-1)[:deals]
        replica = resampled_paths(changes[rows], horizon, players, block, rng)
        solved.append(largest_fee(target, replica, start, float(moved[rows].sum()), fees_per_deal))
    values = np.array(solved)
    finite = values[~np.isnan(values)]
    low, high = ((np.quantile(finite, 0.025, method="lower"), np.quantile(finite, 0.975, method="higher"))
                 if finite.size else (np.nan, np.nan))
    return {"fee": fee, "fee_low": float(low), "fee_high": float(high), "replicates_not_met": int(np.isnan(values).sum())}

"""The largest table fee (台费) at which a room still meets a target: how long a bankroll lasts, or how much
of the money on the table the house takes (``mjsim economics RUN --solve fee --target ...``), and each target
metric against the fee (``metric_curves``, the charts' data).

A target is a metric, a direction and a bound: ``median_deals_to_ruin>=500``, ``mean_deals_played>=300``,
``ruin_probability<=0.5`` or ``house_share<=0.2`` (the metrics of docs/economics.md). Each falls or rises
with the fee alone, so the fee that meets it is found by bisection over whole beans. The ruin metrics come
from the simulated players of ``analysis.ruin``, drawn at the study's seed exactly as ``mjsim economics --fee``
draws them (a fee found here checks out there), for each purse; their ruin curves answer every fee tried,
so the bisection compares fees on the same players. The uncertainty: the same solve on `replicates` block
bootstraps of the run (each a run of the same length drawn from the run's own blocks, then its own
simulated players, all from the stream (seed, 1)), whose 2.5% and 97.5% quantiles bound the fee.
"""

import re
from dataclasses import dataclass

import numpy as np

from analysis.ruin import curves_memory, ruin_deals, simulated_curves

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


def solve_memory(players: int, horizon: int, block: int, purses: int) -> int:
    """Bytes ``solve_fee`` holds at most: the curves of one set of simulated players (the run's own, then each
    bootstrap replicate's in turn) for every purse (``analysis.ruin.curves_memory``)."""
    return curves_memory(players, horizon, block, purses)


def metric_value(metric: str, fee: float, curves: np.ndarray, moved: float, fees_per_deal: float) -> float:
    """The metric under `fee`: the ruin metrics from the players' ruin curves (``analysis.ruin``); the house
    share from the run (`moved`: beans that changed hands over the run before fees; `fees_per_deal`: deals x
    seats)."""
    if metric == "house_share":
        house = fee * fees_per_deal
        return house / (house + moved) if house + moved else 0.0
    ruin = ruin_deals(curves, fee)
    if metric == "median_deals_to_ruin":
        return float(np.median(ruin))
    if metric == "mean_deals_played":
        return float(np.minimum(ruin, curves.shape[1]).mean())
    return float(np.isfinite(ruin).mean())


def largest_fee(target: Target, curves: np.ndarray, moved: float, fees_per_deal: float) -> float:
    """The largest whole fee meeting `target` (bisection; each metric is monotone in the fee on fixed
    players); NaN when even no fee misses it, inf when no fee up to LARGEST_FEE misses it."""
    def meets(fee: float) -> bool:
        return target.met(metric_value(target.metric, fee, curves, moved, fees_per_deal))

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


def solve_fee(changes: np.ndarray, moved: np.ndarray, starts: list[float], target: Target, horizon: int, players: int,
              block: int, seed: int, replicates: int, progress=None) -> list[dict]:
    """The largest fee meeting `target` in a room for each purse of `starts` (a player's beans on entering),
    with its bootstrap interval: one dict per purse. `changes`: (deals, seats) bean changes of each seat
    before any fee; `moved`: (deals,) beans that changed hands in each deal before fees. `progress(n)` is
    told of each purse solved, on the run and on each replicate."""
    deals, seats = changes.shape
    fees_per_deal = float(deals * seats)

    def players_of(run_changes, rng):  # the house share needs no simulated players
        if target.metric == "house_share":
            return [None] * len(starts)
        return simulated_curves(run_changes, starts, horizon, players, block, rng)

    fees = [largest_fee(target, curve, float(moved.sum()), fees_per_deal) for curve in players_of(changes, seed)]
    if progress is not None:
        progress(len(starts))
    rng = np.random.default_rng((seed, 1))  # the bootstraps' own stream: the run's players stay those of --fee
    block = min(block, deals)
    solved = np.empty((replicates, len(starts)))
    for replicate in range(replicates):  # a block bootstrap of the run, then its own simulated players
        first = rng.integers(0, deals - block + 1, size=-(-deals // block))
        rows = (first[:, None] + np.arange(block)).reshape(-1)[:deals]
        replica = players_of(changes[rows], rng)
        solved[replicate] = [largest_fee(target, curve, float(moved[rows].sum()), fees_per_deal) for curve in replica]
        if progress is not None:
            progress(len(starts))
    results = []
    for index, fee in enumerate(fees):
        values = solved[:, index]
        finite = values[~np.isnan(values)]
        low, high = ((np.quantile(finite, 0.025, method="lower"), np.quantile(finite, 0.975, method="higher"))
                     if finite.size else (np.nan, np.nan))
        results.append({"fee": fee, "fee_low": float(low), "fee_high": float(high),
                        "replicates_not_met": int(np.isnan(values).sum())})
    return results


def metric_curves(changes: np.ndarray, moved: np.ndarray, starts: list[float], fees, horizon: int, players: int,
                  block: int, seed: int) -> list[list[dict]]:
    """Every target metric at each fee of `fees`, for each purse of `starts`, on the players the solver and
    ``mjsim economics --fee`` draw at `seed`: per purse, one dict per fee."""
    deals, seats = changes.shape
    curves = simulated_curves(changes, starts, horizon, players, block, seed)
    total = float(moved.sum())
    return [[{"fee": float(fee), **{metric: metric_value(metric, fee, curve, total, float(deals * seats)) for metric in METRICS}}
             for fee in fees] for curve in curves]

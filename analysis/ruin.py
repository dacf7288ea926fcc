"""Simulated players and when each is ruined: the resampling model behind the ruin figures of
``analysis.economics`` and the fee solver (``analysis.fee_solver``).

A simulated player plays `horizon` deals made of blocks of `block` consecutive deals drawn from the run, each
block from one seat chosen at random, so whatever structure consecutive deals have (dealer rotation in a
session run) is kept inside a block. Its draws (block starts, then seats) come from ``numpy.random.
default_rng(seed)``, the same for every room and purse: a fee checked with ``mjsim economics --fee F --seed S``
meets the very players the solver met at seed S.

A player entering with `start` beans is ruined at the first deal t at which ``start + S_t - fee * t <= 0``
(S_t: its running total of bean changes before fees). That holds exactly when ``fee >= (start + S_t) / t``,
so the running minimum of ``(start + S_t) / t`` over t, its *ruin curve*, answers for every fee at once: the
ruin deal under a fee is the first deal whose curve value is at or below the fee (a binary search along the
curve, non-increasing by construction). This is what lets one set of paths serve every fee tried.
"""

import math

import numpy as np

from sim.core.statistics import Z_95, wilson_interval

PLAYERS_PER_CHUNK_ELEMENTS = 1 << 22  # player-deals turned into curves at once (about 130 MB of temporaries)


def block_draws(deals: int, seats: int, horizon: int, players: int, block: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """(starts, seats) of every simulated player's blocks, each (players, blocks): the first deal of each
    block and the seat it is played from. Drawn up front, so that chunking the paths changes nothing."""
    block = min(block, deals)
    n_blocks = -(-horizon // block)
    starts = rng.integers(0, deals - block + 1, size=(players, n_blocks))
    chosen = rng.integers(0, seats, size=(players, n_blocks))
    return starts, chosen


def resampled_paths(changes: np.ndarray, horizon: int, players: int, block: int, rng) -> np.ndarray:
    """(players, horizon) running totals before any fee of `players` simulated players drawn from `rng`."""
    block = min(block, changes.shape[0])
    starts, seats = block_draws(changes.shape[0], changes.shape[1], horizon, players, block, rng)
    return _paths(changes, starts, seats, block, horizon)


def _paths(changes: np.ndarray, starts: np.ndarray, seats: np.ndarray, block: int, horizon: int) -> np.ndarray:
    """(players, horizon) running totals of the changes the draws pick: `block` deals from each start."""
    rows = (starts[:, :, None] + np.arange(block)).reshape(starts.shape[0], -1)[:, :horizon]
    columns = np.repeat(seats, block, axis=1)[:, :horizon]
    return np.cumsum(changes[rows, columns], axis=1)


def ruin_curves(running: np.ndarray, start: float) -> np.ndarray:
    """(players, horizon): the running minimum over deals of ``(start + S_t) / t`` (module text); a player is
    ruined by deal t under a fee exactly when its curve at t is at or below the fee."""
    deal = np.arange(1, running.shape[1] + 1, dtype=np.float64)
    return np.minimum.accumulate((start + running) / deal, axis=1)


def simulated_curves(changes: np.ndarray, starts: list[float], horizon: int, players: int, block: int,
                     seed: int) -> list[np.ndarray]:
    """The ruin curves of `players` simulated players drawn at `seed`, one (players, horizon) array for each
    purse of `starts` (beans on entering; the same players for every purse). The paths are walked a chunk of
    players at a time, so that memory stays bounded (``curves_memory``), with the same result."""
    rng = np.random.default_rng(seed)
    block = min(block, changes.shape[0])
    first, seats = block_draws(changes.shape[0], changes.shape[1], horizon, players, block, rng)
    curves = [np.empty((players, horizon)) for _ in starts]
    chunk = max(1, PLAYERS_PER_CHUNK_ELEMENTS // horizon)
    for low in range(0, players, chunk):
        high = min(players, low + chunk)
        running = _paths(changes, first[low:high], seats[low:high], block, horizon)
        for curve, start in zip(curves, starts):
            curve[low:high] = ruin_curves(running, start)
    return curves


def curves_memory(players: int, horizon: int, block: int, purses: int) -> int:
    """Bytes ``simulated_curves`` holds at most: the curves (8 bytes a player-deal and purse), the draws (16
    bytes a block) and one chunk's temporaries (rows, columns, changes, running totals: about 40 bytes a
    player-deal)."""
    chunk = max(1, PLAYERS_PER_CHUNK_ELEMENTS // horizon)
    return players * horizon * 8 * purses + players * -(-horizon // block) * 16 + min(players, chunk) * horizon * 40


def ruin_deals(curves: np.ndarray, fee: float) -> np.ndarray:
    """Each player's deal of ruin under `fee` (1-based; inf if it outlasts the curves' horizon): the first
    deal whose curve value is at or below the fee, by a binary search run on every player at once."""
    players, horizon = curves.shape
    low = np.zeros(players, dtype=np.int64)
    high = np.full(players, horizon, dtype=np.int64)  # horizon: not ruined within it
    everyone = np.arange(players)
    while True:
        open_ = low < high
        if not open_.any():
            break
        middle = (low + high) // 2
        ruined = curves[everyone, np.minimum(middle, horizon - 1)] <= fee
        high = np.where(open_ & ruined, middle, high)
        low = np.where(open_ & ~ruined, middle + 1, low)
    return np.where(low < horizon, low + 1.0, np.inf)


def median_interval(values: np.ndarray, z: float = Z_95) -> tuple[float, float]:
    """A distribution-free 95% interval for the median of `values` (inf allowed): the order statistics whose
    ranks bound the number of values below the median, a binomial(n, 1/2), within z standard deviations."""
    ordered = np.sort(values)
    n = len(ordered)
    if n == 0:
        return math.nan, math.nan
    low_rank = max(1, math.floor(n / 2 - z * math.sqrt(n) / 2))
    high_rank = min(n, math.ceil(1 + n / 2 + z * math.sqrt(n) / 2))
    return float(ordered[low_rank - 1]), float(ordered[high_rank - 1])


def ruin_figures(ruin: np.ndarray, horizon: int, fee: float) -> dict:
    """The ruin figures of one room and purse from its players' deals of ruin, each with a 95% interval over
    the simulated players (given the run): the share ruined within the horizon (Wilson), the median deals to
    ruin (order statistics), the mean deals played counting the horizon for survivors, and the fees the house
    takes from one bankroll over them (normal intervals)."""
    players = len(ruin)
    ruined = int(np.isfinite(ruin).sum())
    ruin_low, ruin_high = wilson_interval(ruined, players)
    median_low, median_high = median_interval(ruin)
    played = np.minimum(ruin, horizon)
    mean = float(played.mean())
    half = Z_95 * float(played.std(ddof=1)) / math.sqrt(players) if players > 1 else math.nan
    low, high = max(1.0, mean - half), min(float(horizon), mean + half)  # a player plays 1 to horizon deals
    return {
        "ruin_probability": ruined / players, "ruin_low": float(ruin_low), "ruin_high": float(ruin_high),
        "median_deals_to_ruin": float(np.median(ruin)), "median_low": median_low, "median_high": median_high,
        "mean_deals_played": mean, "mean_deals_low": low, "mean_deals_high": high,
        "house_take_per_bankroll": fee * mean, "house_take_low": fee * low, "house_take_high": fee * high,
    }

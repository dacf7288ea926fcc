"""Exact probabilities of initial 二人麻将 hands, by enumeration over count vectors.

An initial hand (after flower replacement) is a uniformly random set of `n_tiles` tiles from the 64 of
万 and honours, four copies of 16 kinds: a count vector c has probability prod C(4, c_k) / C(64, n).
Every 万 vector (5^9) and honour vector (5^7) is grouped by what decides the shanten (its tile count,
its row of the per-suit distance table, its pairs and singles for seven pairs); the groups are then
combined exactly. The statistical tests compare dealt hands with these numbers.
"""

import functools
from math import comb

import numpy as np

import kernels
from kernels.shanten import _seven_pairs_from_tally

WAN_KINDS, HONOUR_KINDS, COPIES = 9, 7, 4
MAX_SHANTEN = 8


def _groups(n_kinds, table, max_tiles):
    """Per distinct (tiles, table row, pairs, singles): that key's parts and the summed weight."""
    digits = (np.arange(5**n_kinds)[:, None] // 5 ** np.arange(n_kinds)) % 5
    tiles = digits.sum(axis=1)
    keep = tiles <= max_tiles
    digits, tiles, rows = digits[keep], tiles[keep], table[keep].astype(np.int64)
    weights = np.prod(np.vectorize(lambda count: comb(COPIES, count))(digits), axis=1).astype(np.float64)
    pairs = (digits // 2).sum(axis=1)
    singles = (digits % 2).sum(axis=1)
    keys = np.column_stack([tiles, rows, pairs, singles])
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    return unique, np.bincount(inverse.ravel(), weights=weights)


@functools.cache
def initial_shanten_distribution(n_tiles: int) -> np.ndarray:
    """P(shanten = s) for a uniform `n_tiles`-tile hand of 万 and honours, indexed by s + 1."""
    tables = kernels.load_tables()
    wan, wan_weights = _groups(WAN_KINDS, tables.suit, n_tiles)
    honours, honour_weights = _groups(HONOUR_KINDS, tables.honors, n_tiles)
    n_sets = 4
    found = np.zeros(MAX_SHANTEN + 2)
    for wan_tiles in range(n_tiles + 1):
        left = wan[:, 0] == wan_tiles
        right = honours[:, 0] == n_tiles - wan_tiles
        if not left.any() or not right.any():
            continue
        w, h = wan[left], honours[right]
        standard = np.full((len(w), len(h)), 99, np.int64)
        for sets in range(n_sets + 1):
            for pair in range(2):
                cost = w[:, None, 1 + 2 * sets + pair] + h[None, :, 1 + 2 * (n_sets - sets) + (1 - pair)]
                np.minimum(standard, cost, out=standard)
        pairs = w[:, None, -2] + h[None, :, -2]
        singles = w[:, None, -1] + h[None, :, -1]
        seven = np.vectorize(_seven_pairs_from_tally.py_func)(pairs, singles)
        shanten = np.minimum(standard, seven) - 1
        weight = wan_weights[left][:, None] * honour_weights[right][None, :]
        found += np.bincount((shanten + 1).ravel(), weights=weight.ravel(), minlength=MAX_SHANTEN + 2)
    return found / comb(COPIES * (WAN_KINDS + HONOUR_KINDS), n_tiles)


def agrees_with_exact(observed, probabilities, n):
    """(agrees, chi-square): each shanten with at least 20 expected deals within 5 standard deviations,
    and a chi-square over them far below what a real difference in hundreds of thousands of deals gives."""
    expected = probabilities * n
    used = expected >= 20
    deviations = (observed[used] - expected[used]) / np.sqrt(expected[used] * (1 - probabilities[used]))
    chi_square = float(((observed[used] - expected[used]) ** 2 / expected[used]).sum())
    degrees = int(used.sum()) - 1
    return np.abs(deviations).max() < 5 and chi_square < degrees + 5 * np.sqrt(2 * degrees), chi_square

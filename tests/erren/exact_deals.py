"""Exact probabilities of initial 二人麻将 hands, by enumeration over count vectors.

An initial hand (after flower replacement) is a uniformly random set of `n_tiles` tiles from the 64 of
万 and honours, four copies of 16 kinds: a count vector c has probability prod C(4, c_k) / C(64, n).
Every 万 vector (5^9) and honour vector (5^7) is grouped by what decides the shanten (its tile count,
its row of the per-suit distance table, its pairs and singles for seven pairs); the groups are then
combined exactly. The statistical tests compare dealt hands with these numbers.

``initial_shanten_distribution_all_suits`` does the same for hands from all 136 tiles (erren-challenge):
there a group's key holds its distance *values* (capped, as no distance of a hand of 14 tiles reaches
the cap), so the three suits, each about 400 keys, combine one after another before the honours.
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


CAP = 10  # a distance at or above this cannot be the least of a 14-tile hand: capping merges keys, exactly
N_COSTS = 10  # a group's cost of holding s sets (0-4) and p pairs (0-1), at column 2s + p


def _value_groups(n_kinds, table, max_tiles):
    """Per distinct (tiles, capped costs, pairs, singles) of one group of kinds: the key and its weight."""
    digits = (np.arange(5**n_kinds)[:, None] // 5 ** np.arange(n_kinds)) % 5
    tiles = digits.sum(axis=1)
    keep = tiles <= max_tiles
    digits, tiles = digits[keep], tiles[keep]
    costs = np.minimum(table[keep].astype(np.int64), CAP)
    weights = np.prod(np.vectorize(lambda count: comb(COPIES, count))(digits), axis=1).astype(np.float64)
    keys = np.column_stack([tiles, costs, (digits // 2).sum(axis=1), (digits % 2).sum(axis=1)])
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    return unique, np.bincount(inverse.ravel(), weights=weights)


def _combine_groups(a, a_weights, b, b_weights, max_tiles):
    """Every pair of keys of two groups with at most `max_tiles` tiles together, combined: the cheapest
    split of each (sets, pair) between them, pairs and singles added; the keys deduplicated."""
    keys, weights = [], []
    for a_tiles in np.unique(a[:, 0]):
        rows_a = a[:, 0] == a_tiles
        rows_b = b[:, 0] <= max_tiles - a_tiles
        left, right = a[rows_a], b[rows_b]
        costs = np.full((len(left), len(right), N_COSTS), CAP, np.int64)
        for sets in range(N_COSTS // 2):
            for pair in range(2):
                for sets_a in range(sets + 1):
                    for pair_a in range(pair + 1):
                        split = (left[:, None, 1 + 2 * sets_a + pair_a]
                                 + right[None, :, 1 + 2 * (sets - sets_a) + pair - pair_a])
                        np.minimum(costs[:, :, 2 * sets + pair], np.minimum(split, CAP), out=costs[:, :, 2 * sets + pair])
        combined = np.concatenate([
            (left[:, None, 0] + right[None, :, 0])[..., None], costs,
            (left[:, None, -2] + right[None, :, -2])[..., None], (left[:, None, -1] + right[None, :, -1])[..., None],
        ], axis=2).reshape(-1, 2 + N_COSTS + 1)
        keys.append(combined)
        weights.append((a_weights[rows_a][:, None] * b_weights[rows_b][None, :]).ravel())
    keys, weights = np.concatenate(keys), np.concatenate(weights)
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    return unique, np.bincount(inverse.ravel(), weights=weights)


@functools.cache
def _all_suits_hands(max_tiles: int):
    """Every hand of at most `max_tiles` tiles of the 136 as (keys, weights): the three suits and the honours
    combined. One enumeration serves the 13- and the 14-tile distributions."""
    tables = kernels.load_tables()
    suit, suit_weights = _value_groups(WAN_KINDS, tables.suit, max_tiles)
    honours, honour_weights = _value_groups(HONOUR_KINDS, tables.honors, max_tiles)
    two, two_weights = _combine_groups(suit, suit_weights, suit, suit_weights, max_tiles)
    three, three_weights = _combine_groups(two, two_weights, suit, suit_weights, max_tiles)
    return _combine_groups(three, three_weights, honours, honour_weights, max_tiles)


@functools.cache
def initial_shanten_distribution_all_suits(n_tiles: int) -> np.ndarray:
    """P(shanten = s) for a uniform `n_tiles`-tile hand of the 136 tiles, standard form and seven pairs
    (the engine's shanten), indexed by s + 1."""
    hand, hand_weights = _all_suits_hands(max(n_tiles, 14))
    whole = hand[:, 0] == n_tiles
    hand, hand_weights = hand[whole], hand_weights[whole]
    standard = hand[:, 1 + 2 * 4 + 1]  # four sets and the pair
    seven = np.vectorize(_seven_pairs_from_tally.py_func)(hand[:, -2], hand[:, -1])
    shanten = np.minimum(standard, seven) - 1
    found = np.bincount(shanten + 1, weights=hand_weights, minlength=MAX_SHANTEN + 2)
    return found / comb(COPIES * (3 * WAN_KINDS + HONOUR_KINDS), n_tiles)


def agrees_with_exact(observed, probabilities, n):
    """(agrees, chi-square): each shanten with at least 20 expected deals within 5 standard deviations,
    and a chi-square over them far below what a real difference in hundreds of thousands of deals gives."""
    expected = probabilities * n
    used = expected >= 20
    deviations = (observed[used] - expected[used]) / np.sqrt(expected[used] * (1 - probabilities[used]))
    chi_square = float(((observed[used] - expected[used]) ** 2 / expected[used]).sum())
    degrees = int(used.sum()) - 1
    return np.abs(deviations).max() < 5 and chi_square < degrees + 5 * np.sqrt(2 * degrees), chi_square

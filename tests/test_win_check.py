"""The engine's complete-hand check (a bit table) against shanten == -1: every 万 vector, and random hands."""

import numpy as np
import pytest
from numba import njit

import kernels
from kernels.tiles import HONOR_START, N_KINDS
from kernels.win_check import WAN_VECTORS, is_complete, load_complete_bits


@njit(cache=True)
def _check_many(hands, n_melds, bits, out):
    for row in range(hands.shape[0]):
        out[row] = is_complete(hands[row], n_melds[row], bits)


def _complete(hands, n_melds):
    out = np.zeros(len(hands), np.bool_)
    _check_many(hands, n_melds, load_complete_bits(), out)
    return out


def _wan_vectors():
    digits = np.zeros((WAN_VECTORS, 9), np.int8)
    index = np.arange(WAN_VECTORS)
    for rank in range(9):
        digits[:, rank] = index % 5
        index //= 5
    return digits


@pytest.mark.parametrize("honour_pair", [False, True])
def test_every_wan_vector_of_a_legal_size_agrees_with_shanten(honour_pair):
    """Every 万 count vector with 3k or 3k+2 tiles (k sets for 0-4 melds), with or without an honour pair
    beside it: complete exactly when shanten says -1."""
    wan = _wan_vectors()
    sizes = wan.sum(axis=1)
    for n_melds in range(5):
        size = 3 * (4 - n_melds) + 2 - (2 if honour_pair else 0)
        chosen = wan[sizes == size]
        if not len(chosen):
            continue
        hands = np.zeros((len(chosen), N_KINDS), np.int8)
        hands[:, :9] = chosen
        if honour_pair:
            hands[:, HONOR_START] = 2
        expected = kernels.shanten_many(hands, n_melds) == -1
        assert np.array_equal(_complete(hands, np.full(len(hands), n_melds, np.int8)), expected), n_melds


def test_random_hands_with_honour_sets_agree_with_shanten():
    rng = np.random.default_rng(12)
    kinds = np.r_[0:9, 27:34]
    hands, n_melds = [], []
    for _ in range(60_000):
        melds = int(rng.integers(0, 5))
        hand = np.zeros(N_KINDS, np.int8)
        for _ in range(4 - melds):
            if rng.random() < 0.5:
                low = rng.integers(0, 7)
                hand[low : low + 3] += 1
            else:
                hand[rng.choice(kinds)] += 3
        hand[rng.choice(kinds)] += 2
        if rng.random() < 0.5:  # move one tile: often no longer complete
            source = rng.choice(np.flatnonzero(hand))
            hand[source] -= 1
            hand[rng.choice(kinds)] += 1
        if melds == 0 and rng.random() < 0.1:  # seven pairs, a four-of-a-kind allowed
            hand[:] = 0
            hand[rng.choice(kinds, 6, replace=False)] = 2
            hand[rng.choice(np.flatnonzero(hand))] += 2
        if hand.max() <= 4:
            hands.append(hand)
            n_melds.append(melds)
    hands, n_melds = np.array(hands), np.array(n_melds, np.int8)
    found = _complete(hands, n_melds)
    for melds in range(5):
        rows = n_melds == melds
        assert np.array_equal(found[rows], kernels.shanten_many(hands[rows], melds) == -1), melds
    assert 0.2 < found.mean() < 0.9

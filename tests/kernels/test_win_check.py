"""The engine's complete-hand checks (a bit table) against shanten == -1: every 万 vector and random hands for
the 万-and-honours check, random hands of all 34 kinds (and thirteen orphans, which shanten does not know)
for the all-suits one."""

import numpy as np
import pytest
from numba import njit

import kernels
from kernels.tiles import HONOR_START, N_KINDS
from kernels.win_check import WAN_VECTORS, is_complete, is_complete_all_suits, load_complete_bits


@njit(cache=True)
def _check_many(hands, n_melds, bits, out):
    for row in range(hands.shape[0]):
        out[row] = is_complete(hands[row], n_melds[row], bits)


@njit(cache=True)
def _check_many_all_suits(hands, n_melds, bits, out):
    for row in range(hands.shape[0]):
        out[row] = is_complete_all_suits(hands[row], n_melds[row], bits)


def _complete(hands, n_melds, all_suits=False):
    out = np.zeros(len(hands), np.bool_)
    (_check_many_all_suits if all_suits else _check_many)(hands, n_melds, load_complete_bits(), out)
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


def _random_hands(rng, kinds, suits):
    """Hands of sets and a pair (a tile moved now and then), and some seven pairs, of `kinds`."""
    hands, n_melds = [], []
    for _ in range(60_000):
        melds = int(rng.integers(0, 5))
        hand = np.zeros(N_KINDS, np.int8)
        for _ in range(4 - melds):
            if rng.random() < 0.5:
                low = 9 * rng.integers(0, suits) + rng.integers(0, 7)
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
    return np.array(hands), np.array(n_melds, np.int8)


def test_random_hands_with_honour_sets_agree_with_shanten():
    hands, n_melds = _random_hands(np.random.default_rng(12), np.r_[0:9, 27:34], 1)
    found = _complete(hands, n_melds)
    for melds in range(5):
        rows = n_melds == melds
        assert np.array_equal(found[rows], kernels.shanten_many(hands[rows], melds) == -1), melds
    assert 0.2 < found.mean() < 0.9


def test_the_all_suits_check_agrees_with_shanten_on_hands_of_every_kind():
    hands, n_melds = _random_hands(np.random.default_rng(13), np.arange(N_KINDS), 3)
    found = _complete(hands, n_melds, all_suits=True)
    for melds in range(5):
        rows = n_melds == melds
        assert np.array_equal(found[rows], kernels.shanten_many(hands[rows], melds) == -1), melds
    assert 0.2 < found.mean() < 0.9
    wan_honours = ~hands[:, 9:HONOR_START].any(axis=1)  # on 万 and honours the two checks are one
    assert np.array_equal(found[wan_honours], _complete(hands[wan_honours], n_melds[wan_honours]))


ORPHANS = [0, 8, 9, 17, 18, 26, *range(HONOR_START, N_KINDS)]


@pytest.mark.parametrize(("pair", "stray", "complete"), [
    (0, None, True), (17, None, True), (33, None, True),  # one of each terminal and honour, one of them twice
    (0, (9, 10), False),  # 2p in place of 1p: a simple tile
    (None, (None, 4), False),  # the thirteen and a simple 5m instead of a pair
])
def test_thirteen_orphans_is_complete_for_the_all_suits_check(pair, stray, complete):
    hand = np.zeros(N_KINDS, np.int8)
    hand[ORPHANS] = 1
    if pair is not None:
        hand[pair] += 1
    if stray is not None:
        taken, added = stray
        if taken is not None:
            hand[taken] -= 1
        hand[added] += 1
    assert hand.sum() == 14
    assert _complete(hand[None], np.zeros(1, np.int8), all_suits=True)[0] == complete
    assert kernels.shanten_many(hand[None])[0] != -1  # shanten does not know the form

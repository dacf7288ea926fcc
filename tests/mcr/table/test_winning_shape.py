"""The MCR complete-hand check (``sim.mcr.table.is_winning_shape``) against the shapes' definitions: a slow
twin built on tests/kernels/naive.py's standard form and seven pairs, with thirteen orphans, 全不靠 and 组合龙
written out as the rules book states them (docs/rules/mcr-table.md), compared on random hands, hands near
complete with 0 to 4 melds, and hands built around each irregular shape and one tile away from it (fixed
seeds)."""

import numba
import numpy as np
import pytest
from conftest import near_complete_hands, random_hands
from naive import is_complete_seven_pairs, is_complete_standard

from kernels.tiles import HONOR_START, N_KINDS, SUIT_SIZE
from kernels.win_check import load_complete_bits
from sim.mcr.table import is_winning_shape

ALL_KINDS = np.arange(N_KINDS)
TERMINALS_AND_HONOURS = [0, 8, 9, 17, 18, 26, *range(HONOR_START, N_KINDS)]
# the six knitted straights: one suit holds ranks 1-4-7, another 2-5-8, the third 3-6-9
STRAIGHTS = [
    [suit * SUIT_SIZE + rank for suit, residue in enumerate(residues) for rank in range(residue, SUIT_SIZE, 3)]
    for residues in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
]


def naive_winning_shape(counts, n_melds):
    """Each MCR shape by its definition."""
    if is_complete_standard(counts.copy(), 4 - n_melds):
        return True
    if n_melds == 0 and is_complete_seven_pairs(counts):
        return True
    held = set(np.flatnonzero(counts))
    if n_melds == 0 and held == set(TERMINALS_AND_HONOURS) and counts.sum() == 14:
        return True  # thirteen orphans: each terminal and honour, one of them twice
    for straight in STRAIGHTS:
        numbered = {kind for kind in held if kind < HONOR_START}
        if n_melds == 0 and counts.max() == 1 and counts.sum() == 14 and numbered <= set(straight):
            return True  # 全不靠
        if n_melds <= 1 and set(straight) <= held:
            rest = counts.copy()
            rest[straight] -= 1
            if is_complete_standard(rest, 1 - n_melds):
                return True  # 组合龙 and the rest of four sets and a pair
    return False


@numba.njit
def _checked(hands, n_melds, bits, out):
    scratch = np.empty(N_KINDS, np.int8)
    for hand in range(hands.shape[0]):
        out[hand] = is_winning_shape(hands[hand], n_melds[hand], bits, scratch)


def checked(hands, n_melds):
    out = np.empty(len(hands), np.bool_)
    _checked(np.ascontiguousarray(hands, np.int8), np.asarray(n_melds, np.int64), load_complete_bits(), out)
    return out


def irregular_hands(rng, n_hands):
    """Hands of 14 concealed tiles built on 十三幺, 全不靠 or 组合龙 (with a set and a pair, or a pair beside
    one meld), half of them with one tile changed for a random one; returns (hands, melds, changed)."""
    hands, melds, changed = [], [], []
    for index in range(n_hands):
        counts = np.zeros(N_KINDS, np.int8)
        shape = index % 4
        n_melds = 0
        if shape == 0:
            counts[TERMINALS_AND_HONOURS] = 1
            counts[rng.choice(TERMINALS_AND_HONOURS)] += 1
        elif shape == 1:
            pool = STRAIGHTS[rng.integers(6)] + list(range(HONOR_START, N_KINDS))
            counts[rng.choice(pool, 14, replace=False)] = 1
        else:
            counts[STRAIGHTS[rng.integers(6)]] += 1
            n_melds = shape - 2
            if n_melds == 0:
                low = rng.integers(SUIT_SIZE - 2) + SUIT_SIZE * rng.integers(3)
                if rng.random() < 0.5:
                    counts[low : low + 3] += 1
                else:
                    counts[rng.integers(N_KINDS)] += 3
            counts[rng.integers(N_KINDS)] += 2
        if index % 8 >= 4:  # one tile away from the shape
            taken = rng.choice(np.flatnonzero(counts))
            counts[taken] -= 1
            counts[rng.choice(np.flatnonzero(counts < 4))] += 1
        if counts.max() > 4:
            continue
        hands.append(counts)
        melds.append(n_melds)
        changed.append(index % 8 >= 4)
    return np.array(hands), np.array(melds), np.array(changed)


def hands_of_every_kind(seed, n_hands):
    rng = np.random.default_rng(seed)
    parts, melds = [random_hands(rng, n_hands, ALL_KINDS, 14)], [np.zeros(n_hands, np.int64)]
    for n_melds in range(5):
        parts.append(near_complete_hands(rng, n_hands, ALL_KINDS, n_melds, 14 - 3 * n_melds))
        melds.append(np.full(n_hands, n_melds))
    irregular, irregular_melds, _ = irregular_hands(rng, 4 * n_hands)
    return np.concatenate([*parts, irregular]), np.concatenate([*melds, irregular_melds])


@pytest.mark.parametrize("seed", [1, 2])
def test_the_check_answers_as_every_shape_is_defined(seed):
    hands, n_melds = hands_of_every_kind(seed, 2_000)
    expected = np.array([naive_winning_shape(hand, melds) for hand, melds in zip(hands, n_melds)])
    assert (checked(hands, n_melds) == expected).all()
    # the hands hold each answer often enough for the comparison to mean something
    assert 0.2 < expected.mean() < 0.8


def test_every_hand_built_on_an_irregular_shape_is_complete_and_most_one_tile_off_are_not():
    rng = np.random.default_rng(3)
    hands, n_melds, changed = irregular_hands(rng, 800)
    answers = checked(hands, n_melds)
    assert answers[~changed].all()
    assert answers[changed].mean() < 0.5

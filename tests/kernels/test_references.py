"""The standard-form shanten agrees with two independent calculators: PyPI `mahjong` and `PyMahjongGB`.

Both take the concealed tiles and infer the number of sets from the hand size (4 - melds for 13 - 3 melds
tiles). PyMahjongGB does not cap a kind at four copies: with four copies of a kind held it will count
a hand as waiting on a fifth copy. Every disagreement must be exactly that: our distance is the true
one, and the naive reference with the cap lifted reproduces PyMahjongGB's answer.
"""

import numpy as np
import pytest
from conftest import near_complete_hands, random_hands
from mahjong.shanten import Shanten
from MahjongGB import RegularShanten

import kernels
from kernels.tiles import HONOR_START, N_KINDS
from sim.commands.benchmark import GB_CODES

WAN_HONOURS = np.r_[0:9, HONOR_START:N_KINDS]


def _sample(seed, kinds):
    """Random and near-complete 13-tile-equivalent hands with 0 to 3 melds (PyMahjongGB takes 13, 10, 7, 4 tiles)."""
    rng = np.random.default_rng(seed)
    parts, melds = [random_hands(rng, 6_000, kinds, 13)], [np.zeros(6_000, np.int8)]
    for n_melds in range(4):
        parts.append(near_complete_hands(rng, 1_000, kinds, n_melds, 13 - 3 * n_melds))
        melds.append(np.full(1_000, n_melds, np.int8))
    return np.concatenate(parts), np.concatenate(melds)


@pytest.fixture(scope="module", params=["wan_honours", "all_kinds"])
def sample(request):
    return _sample(5 if request.param == "wan_honours" else 6, WAN_HONOURS if request.param == "wan_honours" else np.arange(N_KINDS))


def test_standard_shanten_equals_pypi_mahjong(sample):
    hands, n_melds = sample
    ours = kernels.shanten_many(hands, n_melds, form="standard")
    theirs = np.array([Shanten.calculate_shanten_for_regular_hand(list(map(int, hand))) for hand in hands])
    np.testing.assert_array_equal(ours, theirs)


def test_standard_shanten_equals_pymahjonggb_except_waits_on_a_fifth_copy(sample, compiled_naive):
    hands, n_melds = sample
    ours = kernels.shanten_many(hands, n_melds, form="standard")
    theirs = np.array([RegularShanten(tuple(GB_CODES[k] for k in np.repeat(np.arange(N_KINDS), hand)))[0] for hand in hands])
    differ = np.flatnonzero(ours != theirs)
    assert len(differ) < 0.01 * len(hands)
    for index in differ:
        hand = hands[index]
        assert hand.max() == 4, "a disagreement needs a kind held four times"
        uncapped = compiled_naive.standard_distances(hand.astype(np.int64), 8)[4 - n_melds[index]] - 1
        assert theirs[index] == uncapped < ours[index]


def test_pinned_a_wait_on_a_fifth_copy_is_not_ready():
    # 444m 777m 567p 666p + 7m would wait on a fifth 7m: PyMahjongGB calls it ready (0); it is not.
    from sim.core.notation import parse_hand

    counts = parse_hand("4447777m56667p6p").counts
    assert RegularShanten(tuple(GB_CODES[k] for k in np.repeat(np.arange(N_KINDS), counts)))[0] == 0
    assert kernels.shanten_many(counts, form="standard")[0] == 1
    assert kernels.waits(counts) == []

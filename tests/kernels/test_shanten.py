"""Shanten, complete-hand check, waits and ukeire: the kernels against the naive twins in tests/kernels/naive.py.

Exhaustive on every one-suit count vector of at most 14 tiles (405,350 of them, and the 7 honour kinds),
random with fixed seeds on 100,000 万 + honour hands and 100,000 hands of all 34 kinds.
"""

import itertools

import numba
import numpy as np
import pytest
from conftest import near_complete_hands, random_hands

import kernels
from kernels.shanten import _distances_after_discard, _hand_shanten
from kernels.tiles import HONOR_START, N_KINDS, TILE_SET_ALL, TILE_SET_WAN_HONOURS

WAN_HONOURS = np.r_[0:9, HONOR_START:N_KINDS]
ALL_KINDS = np.arange(N_KINDS)


def _one_group_hands(start, n_ranks):
    vectors = np.array([v for v in itertools.product(range(5), repeat=n_ranks) if sum(v) <= 14], np.int8)
    hands = np.zeros((len(vectors), N_KINDS), np.int8)
    hands[:, start : start + n_ranks] = vectors
    return hands


@pytest.fixture(scope="module")
def one_suit_hands():
    return _one_group_hands(0, 9)


@pytest.fixture(scope="module")
def honour_hands():
    return _one_group_hands(HONOR_START, 7)


@numba.njit
def _kernel_distances(hands, suit, honors, wan_honours_only, out):
    scratch = np.empty((6, 10), np.int16)
    for hand in range(hands.shape[0]):
        for n_melds in range(5):
            out[hand, 4 - n_melds] = _hand_shanten(hands[hand], n_melds, suit, honors, 1, wan_honours_only, scratch) + 1
        out[hand, 5] = _hand_shanten(hands[hand], 0, suit, honors, 2, wan_honours_only, scratch) + 1


def kernel_distances(hands, wan_honours_only=False):
    """(N, 6): standard distance for 0..4 sets, then seven pairs, straight from the kernels."""
    suit, honors = kernels.load_tables()
    out = np.empty((len(hands), 6), np.int64)
    _kernel_distances(hands, suit, honors, wan_honours_only, out)
    return out


def reference_distances(naive, hands):
    out = np.empty((len(hands), 6), np.int64)
    naive.standard_distances_many(hands, out[:, :5])
    seven = np.empty(len(hands), np.int64)
    naive.seven_pairs_distance_many(hands, seven)
    out[:, 5] = seven
    return out


def sized(hands, n_tiles_equivalent):
    """The hands whose size fits `n_tiles_equivalent` (13 or 14) with some number of melds, and that number."""
    sizes = hands.sum(axis=1)
    keep = (sizes <= n_tiles_equivalent) & ((n_tiles_equivalent - sizes) % 3 == 0)
    return hands[keep], ((n_tiles_equivalent - sizes[keep]) // 3).astype(np.int8)


def ukeire_by_definition(hands, n_melds, live):
    """Live copies of every kind whose draw lowers the shanten, one full shanten evaluation per kind."""
    before = kernels.shanten_many(hands, n_melds)
    total = np.zeros(len(hands), np.int64)
    for kind in range(N_KINDS):
        drawable = (hands[:, kind] < 4) & (live[:, kind] > 0)
        after = hands[drawable].copy()
        after[:, kind] += 1
        lowered = kernels.shanten_many(after, n_melds[drawable]) < before[drawable]
        total[np.flatnonzero(drawable)[lowered]] += live[drawable, kind][lowered]
    return total


# ------------------------------------------------------------------------------------- exhaustive


@pytest.mark.parametrize("group", ["one_suit_hands", "honour_hands"])
def test_distances_equal_the_reference_on_every_one_group_hand(group, request, compiled_naive):
    hands = request.getfixturevalue(group)
    np.testing.assert_array_equal(kernel_distances(hands), reference_distances(compiled_naive, hands))


def test_the_wan_honours_fast_path_equals_the_general_path_on_every_one_suit_hand(one_suit_hands, honour_hands):
    for hands in (one_suit_hands, honour_hands):
        np.testing.assert_array_equal(kernel_distances(hands, True), kernel_distances(hands, False))


@pytest.mark.parametrize("group", ["one_suit_hands", "honour_hands"])
def test_complete_hand_check_equals_the_reference_on_every_one_group_hand(group, request, compiled_naive):
    hands, n_melds = sized(request.getfixturevalue(group), 14)
    expected = np.empty(len(hands), np.bool_)
    compiled_naive.is_complete_many(hands, n_melds, expected)
    np.testing.assert_array_equal(kernels.is_complete_many(hands, n_melds), expected)
    assert expected.sum() > 500  # the set really contains complete hands


@pytest.mark.parametrize("group", ["one_suit_hands", "honour_hands"])
def test_waits_equal_the_reference_on_every_one_group_hand(group, request, compiled_naive):
    hands, n_melds = sized(request.getfixturevalue(group), 13)
    expected = np.empty(hands.shape, np.bool_)
    compiled_naive.waits_many(hands, n_melds, expected)
    np.testing.assert_array_equal(kernels.waits_many(hands, n_melds), expected)
    assert expected.any(axis=1).sum() > 500


def test_ukeire_equals_its_definition_on_every_one_suit_hand(one_suit_hands):
    hands, n_melds = sized(one_suit_hands, 13)
    live = np.clip(4 - hands, 0, 4)
    np.testing.assert_array_equal(kernels.ukeire_many(hands, n_melds), ukeire_by_definition(hands, n_melds, live))


# ------------------------------------------------------------------------------------------ random


def _random_sample(seed, kinds):
    """100,000 hands: uniform 13- and 14-tile hands and near-complete hands with 0 to 4 melds."""
    rng = np.random.default_rng(seed)
    parts, melds = [], []
    for n_tiles in (13, 14):
        parts.append(random_hands(rng, 25_000, kinds, n_tiles))
        melds.append(np.zeros(25_000, np.int8))
    for n_melds in range(5):
        for n_tiles in (13 - 3 * n_melds, 14 - 3 * n_melds):
            parts.append(near_complete_hands(rng, 5_000, kinds, n_melds, n_tiles))
            melds.append(np.full(5_000, n_melds, np.int8))
    return np.concatenate(parts), np.concatenate(melds)


@pytest.fixture(scope="module", params=["wan_honours", "all_kinds"])
def random_sample(request):
    kinds = WAN_HONOURS if request.param == "wan_honours" else ALL_KINDS
    hands, n_melds = _random_sample(20261129 if request.param == "wan_honours" else 34, kinds)
    return request.param, hands, n_melds


def test_random_hands_shanten_equals_the_reference(random_sample, compiled_naive):
    name, hands, n_melds = random_sample
    reference = reference_distances(compiled_naive, hands)
    standard = reference[np.arange(len(hands)), 4 - n_melds] - 1
    seven = np.where(n_melds == 0, reference[:, 5] - 1, kernels.UNREACHABLE)
    np.testing.assert_array_equal(kernels.shanten_many(hands, n_melds, form="standard"), standard)
    np.testing.assert_array_equal(kernels.shanten_many(hands, n_melds, form="seven_pairs"), seven)
    np.testing.assert_array_equal(kernels.shanten_many(hands, n_melds), np.minimum(standard, seven))
    assert len(np.unique(standard)) >= 5  # from complete to far away


def test_random_hands_complete_check_and_waits_equal_the_reference(random_sample, compiled_naive):
    name, hands, n_melds = random_sample
    fourteen = hands.sum(axis=1) + 3 * n_melds == 14
    expected = np.empty(fourteen.sum(), np.bool_)
    compiled_naive.is_complete_many(hands[fourteen], n_melds[fourteen], expected)
    np.testing.assert_array_equal(kernels.is_complete_many(hands[fourteen], n_melds[fourteen]), expected)
    assert expected.sum() > 1000

    thirteen = ~fourteen
    expected_waits = np.empty((thirteen.sum(), N_KINDS), np.bool_)
    compiled_naive.waits_many(hands[thirteen], n_melds[thirteen], expected_waits)
    np.testing.assert_array_equal(kernels.waits_many(hands[thirteen], n_melds[thirteen]), expected_waits)
    assert expected_waits.any(axis=1).sum() > 1000


def test_random_hands_ukeire_equals_its_definition(random_sample):
    name, hands, n_melds = random_sample
    thirteen = hands.sum(axis=1) + 3 * n_melds == 13
    tile_set = TILE_SET_WAN_HONOURS if name == "wan_honours" else TILE_SET_ALL
    rng = np.random.default_rng(7)
    # Tiles seen elsewhere: a random part of what is not in the hand.
    visible = rng.binomial(np.clip(tile_set - hands, 0, 4), 0.3).astype(np.int8)
    live = np.clip(tile_set - hands - visible, 0, 4)
    got = kernels.ukeire_many(hands[thirteen], n_melds[thirteen], visible[thirteen], tile_set)
    np.testing.assert_array_equal(got, ukeire_by_definition(hands[thirteen], n_melds[thirteen], live[thirteen]))


def test_ukeire_equals_the_fully_naive_reference_on_a_sample(random_sample, compiled_naive):
    name, hands, n_melds = random_sample
    thirteen = np.flatnonzero(hands.sum(axis=1) + 3 * n_melds == 13)[::20]
    live = np.clip(4 - hands[thirteen], 0, 4).astype(np.int64)
    expected = np.empty(len(thirteen), np.int64)
    compiled_naive.ukeire_many(hands[thirteen].astype(np.int64), n_melds[thirteen].astype(np.int64), live, expected)
    np.testing.assert_array_equal(kernels.ukeire_many(hands[thirteen], n_melds[thirteen]), expected)


def test_fourteen_tile_ukeire_is_the_best_discards_ukeire(random_sample):
    name, hands, n_melds = random_sample
    fourteen = np.flatnonzero(hands.sum(axis=1) + 3 * n_melds == 14)[::50]
    for index in fourteen:
        options = kernels.discard_options(hands[index], n_melds[index])
        lowest = min(shanten for shanten, _ in options.values())
        best = max(ukeire for shanten, ukeire in options.values() if shanten == lowest)
        assert kernels.ukeire(hands[index], n_melds[index]) == best
        for kind, (shanten, ukeire) in options.items():
            after = hands[index].copy()
            after[kind] -= 1
            discarded = np.zeros(N_KINDS, np.int8)  # the discard is on the table now, no longer live
            discarded[kind] = 1
            assert shanten == kernels.shanten_many(after, n_melds[index])[0]
            assert ukeire == kernels.ukeire(after, n_melds[index], visible=discarded)


@numba.njit
def _distances_after_each_discard(hands, n_melds, suit, honors, out):
    scratch = np.empty((6, 10), np.int16)
    for hand in range(hands.shape[0]):
        _distances_after_discard(hands[hand], n_melds[hand], suit, honors, scratch, out[hand])


def test_the_distance_after_each_discard_is_the_reference_distance_of_the_hand_left(random_sample, compiled_naive):
    """The players' discard kernel changes one group's table row per discard; the reference re-reads the
    whole hand left (kinds not held: 255)."""
    name, hands, n_melds = random_sample
    fourteen = np.flatnonzero(hands.sum(axis=1) + 3 * n_melds == 14)[::25]
    got = np.empty((len(fourteen), N_KINDS), np.int64)
    _distances_after_each_discard(hands[fourteen], n_melds[fourteen], *kernels.load_tables(), got)
    for row, index in enumerate(fourteen):
        for kind in range(N_KINDS):
            if hands[index, kind] == 0:
                assert got[row, kind] == 255
                continue
            after = hands[index].copy()
            after[kind] -= 1
            reference = reference_distances(compiled_naive, after[None])[0]
            expected = reference[4 - n_melds[index]] if n_melds[index] else min(reference[4], reference[5])
            assert got[row, kind] == expected, (hands[index], kind)


def test_the_wan_honours_fast_path_equals_the_general_path_on_random_hands():
    hands, _ = _random_sample(11, WAN_HONOURS)
    np.testing.assert_array_equal(kernel_distances(hands, True), kernel_distances(hands, False))

"""The discard choice's measures (kernels/discard_choice.py) against their definitions: the distance after
each discard and the ukeire of each discard tied at the best, from tests/kernels/naive.py (a full shanten
per hand left and per draw), on random hands of all 34 kinds with 0 to 4 melds, hands near complete and
complete (fixed seeds), and against the shanten kernels' own discard and ukeire kernels on more of them."""

import numba
import numpy as np
from conftest import near_complete_hands, random_hands

import kernels
from kernels.discard_choice import UKEIRE, WORK_SIZE, distances_after_discard, tied_ukeire
from kernels.shanten import _distances_after_discard, _ukeire_one
from kernels.tiles import N_KINDS, TILE_SET_ALL

ALL_KINDS = np.arange(N_KINDS)
NOT_HELD = 255


def fourteen_tile_hands(seed, n_hands):
    """(hands, melds, live): uniform hands, hands near complete with 0 to 4 melds, and some tiles seen."""
    rng = np.random.default_rng(seed)
    parts = [random_hands(rng, n_hands, ALL_KINDS, 14)]
    melds = [np.zeros(n_hands, np.int8)]
    for n_melds in range(5):
        parts.append(near_complete_hands(rng, n_hands, ALL_KINDS, n_melds, 14 - 3 * n_melds))
        melds.append(np.full(n_hands, n_melds, np.int8))
    hands = np.concatenate(parts)
    visible = rng.binomial(np.clip(TILE_SET_ALL - hands, 0, 4), 0.3).astype(np.int8)
    live = np.clip(TILE_SET_ALL - hands - visible, 0, 4).astype(np.int8)
    return hands, np.concatenate(melds), live


@numba.njit
def _measures(hands, n_melds, live, suit, honors, after, accepted, best):
    scratch = np.empty((6, 10), np.int16)
    work = np.zeros(WORK_SIZE, np.int64)
    ukeire_scratch = np.empty(N_KINDS, np.int64)
    for hand in range(hands.shape[0]):
        best[hand], _ = distances_after_discard(hands[hand], n_melds[hand], suit, honors, scratch, work, after[hand])
        tied_ukeire(hands[hand], n_melds[hand], live[hand], best[hand], suit, honors, scratch, work, after[hand],
                    ukeire_scratch)
        for kind in range(N_KINDS):
            accepted[hand, kind] = work[UKEIRE + kind]


def measures(hands, n_melds, live):
    after = np.empty(hands.shape, np.int64)
    accepted = np.empty(hands.shape, np.int64)
    best = np.empty(len(hands), np.int64)
    _measures(hands, n_melds, live, *kernels.load_tables(), after, accepted, best)
    return after, accepted, best


@numba.njit
def _by_the_shanten_kernels(hands, n_melds, live, suit, honors, after, accepted):
    scratch = np.empty((6, 10), np.int16)
    columns = np.empty(N_KINDS, np.int64)
    for hand in range(hands.shape[0]):
        best = _distances_after_discard(hands[hand], n_melds[hand], suit, honors, scratch, after[hand])
        for kind in range(N_KINDS):
            accepted[hand, kind] = 0
            if hands[hand, kind] > 0 and after[hand, kind] == best:
                hands[hand, kind] -= 1
                accepted[hand, kind] = _ukeire_one(hands[hand], n_melds[hand], live[hand], suit, honors, scratch,
                                                   columns)[1]
                hands[hand, kind] += 1


def test_the_measures_equal_their_definitions(compiled_naive):
    hands, n_melds, live = fourteen_tile_hands(38, 300)
    after, accepted, best = measures(hands, n_melds, live)
    expected_after = np.empty(hands.shape, np.int64)
    expected_accepted = np.empty(hands.shape, np.int64)
    compiled_naive.discard_measures_many(hands.astype(np.int64), n_melds.astype(np.int64), live.astype(np.int64),
                                         expected_after, expected_accepted)
    expected_after[hands == 0] = NOT_HELD
    np.testing.assert_array_equal(after, expected_after)
    np.testing.assert_array_equal(best, after.min(axis=1))
    np.testing.assert_array_equal(accepted, expected_accepted)
    assert (best == 1).sum() > 100 and (best >= 4).sum() > 50  # ready, complete and far hands are all there
    assert ((after == best[:, None]).sum(axis=1) >= 2).sum() > 1000  # ties, the case the ukeire decides


def test_the_measures_equal_the_shanten_kernels_on_many_hands():
    hands, n_melds, live = fourteen_tile_hands(3800, 20_000)
    after, accepted, _ = measures(hands, n_melds, live)
    expected_after = np.empty(hands.shape, np.int64)
    expected_accepted = np.empty(hands.shape, np.int64)
    _by_the_shanten_kernels(hands.copy(), n_melds, live, *kernels.load_tables(), expected_after, expected_accepted)
    np.testing.assert_array_equal(after, expected_after)
    np.testing.assert_array_equal(accepted, expected_accepted)

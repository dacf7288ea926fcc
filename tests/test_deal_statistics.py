"""Dealt hands against exact probabilities: the shanten of the dealer's 14 and the other player's 13
initial tiles, over enough deals that a biased shuffle or a wrong deal would show."""

import numpy as np
import pytest
from exact_deals import agrees_with_exact, initial_shanten_distribution

import kernels
from sim.demo import deal_initial_hands

N_DEALS = 300_000


@pytest.fixture(scope="module")
def dealt():
    return deal_initial_hands(seed=20261129, n_deals=N_DEALS)


@pytest.mark.parametrize(("seat", "n_tiles"), [(0, 14), (1, 13)])
def test_initial_shanten_of_dealt_hands_matches_the_exact_distribution(dealt, seat, n_tiles):
    hands = dealt[seat]
    assert (hands.sum(axis=1) == n_tiles).all()
    observed = np.bincount(kernels.shanten_many(hands) + 1, minlength=10)
    agrees, chi_square = agrees_with_exact(observed, initial_shanten_distribution(n_tiles), N_DEALS)
    assert agrees, f"chi-square {chi_square:.1f}: observed {observed.tolist()}"


def test_the_check_sees_a_biased_deal():
    """Dealing with replacement (each tile kind equally likely, copies unlimited) must fail the check."""
    rng = np.random.default_rng(1)
    kinds = np.r_[0:9, 27:34]
    hands = np.zeros((N_DEALS, 34), np.int8)
    for column in rng.choice(kinds, size=(14, N_DEALS)):
        np.add.at(hands, (np.arange(N_DEALS), column), 1)
    hands = hands[hands.max(axis=1) <= 4]
    observed = np.bincount(kernels.shanten_many(hands) + 1, minlength=10)
    agrees, _ = agrees_with_exact(observed, initial_shanten_distribution(14), len(hands))
    assert not agrees


def test_exact_distribution_sums_to_one_and_a_complete_hand_is_rare():
    dealer = initial_shanten_distribution(14)
    assert abs(dealer.sum() - 1) < 1e-12
    assert 2.2e-4 < dealer[0] < 2.4e-4  # 天胡 before flowers: about 232 deals in a million
    assert initial_shanten_distribution(13)[0] == 0  # 13 tiles are never complete

"""Reproducibility: a deal is a pure function of (seed, deal index), however the work is split."""

import numpy as np

from analysis.tables import read_metadata, write_table
from sim.demo import deal_initial_hands, initial_shanten_table


def test_a_deal_depends_only_on_seed_and_deal_index():
    dealer, other = deal_initial_hands(seed=9, n_deals=500)
    dealer_tail, other_tail = deal_initial_hands(seed=9, n_deals=100, first_deal=400)
    np.testing.assert_array_equal(dealer[400:], dealer_tail)
    np.testing.assert_array_equal(other[400:], other_tail)
    other_seed, _ = deal_initial_hands(seed=10, n_deals=500)
    assert (other_seed != dealer).any()


def test_deals_are_legal_hands_of_the_wan_honours_wall():
    dealer, other = deal_initial_hands(seed=1, n_deals=2000)
    assert (dealer.sum(axis=1) == 14).all() and (other.sum(axis=1) == 13).all()
    assert ((dealer + other) <= 4).all()
    assert not (dealer + other)[:, 9:27].any()


def test_every_kind_is_dealt_equally_often():
    dealer, _ = deal_initial_hands(seed=2, n_deals=20_000)
    per_kind = dealer.sum(axis=0)[np.r_[0:9, 27:34]]
    expected = 20_000 * 14 / 16
    # Binomial spread around 17,500 per kind is about 125; 5 standard deviations would be a real bias.
    assert np.abs(per_kind - expected).max() < 5 * np.sqrt(expected)


def test_the_table_does_not_depend_on_chunking():
    whole = initial_shanten_table(seed=3, n_deals=3000, chunk=3000)
    pieces = initial_shanten_table(seed=3, n_deals=3000, chunk=700)
    assert whole.equals(pieces)


def test_tables_carry_configuration_and_versions(tmp_path):
    import pandas as pd

    path = write_table(pd.DataFrame({"a": [1, 2]}), tmp_path / "t.parquet", {"seed": 5})
    meta = read_metadata(path)
    assert meta["config"] == {"seed": 5} and "numba" in meta["versions"]
    assert not list(tmp_path.glob("*.tmp"))

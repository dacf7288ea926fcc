"""The per-suit tables: built deterministically, cached on disk, rebuilt when the cache is unusable."""

import numpy as np

from kernels import tables


def test_an_empty_group_costs_three_per_set_and_two_for_the_pair():
    built = tables.load_tables()
    for table in built:
        assert table[0].tolist() == [3 * sets + 2 * pairs for sets in range(5) for pairs in range(2)]


def test_a_cached_table_is_loaded_and_a_corrupt_one_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("MJSIM_CACHE_DIR", str(tmp_path))
    fresh = tables.build_tables()
    tables.load_tables.cache_clear()
    try:
        first = tables.load_tables()
        suit_path, honors_path = tables._cache_paths()
        assert suit_path.exists() and honors_path.exists()
        np.testing.assert_array_equal(first.suit, fresh.suit)
        suit_path.write_bytes(b"not a table")
        tables.load_tables.cache_clear()
        rebuilt = tables.load_tables()
        np.testing.assert_array_equal(rebuilt.suit, fresh.suit)
        np.testing.assert_array_equal(rebuilt.honors, fresh.honors)
    finally:
        tables.load_tables.cache_clear()

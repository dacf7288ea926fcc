"""Rating lists (analysis.ratings): the least-squares fit of pairings' mean differences, its anchor, and its
bootstrap intervals over walls, on synthetic pairings whose true ratings are known."""

import itertools

import naive
import numpy as np
import pytest

from analysis.ratings import Pairing, RatingsError, fit, players_of, rate


def _round_robin(ratings: dict, walls: int, generator, seed_group=1, luck=1.0, noise=1.0):
    """Every pair of the players on the same walls: per wall, each player's luck on that wall (shared by all
    its pairings there) and noise of the pairing's own, around the true difference of ratings."""
    players = list(ratings)
    wall_luck = {player: generator.normal(0, luck, walls) for player in players}
    pairings = []
    for first, second in itertools.combinations(players, 2):
        differences = (ratings[first] - ratings[second] + wall_luck[first] - wall_luck[second]
                       + generator.normal(0, noise, walls))
        pairings.append(Pairing(first, second, differences, np.arange(walls), seed_group))
    return pairings


def _as_rows(pairings):
    return [(pairing.first, pairing.second, pairing.mean, len(pairing.differences)) for pairing in pairings]


def test_a_round_robin_of_additive_differences_recovers_the_ratings_exactly():
    truth = {"a": 1.5, "b": -0.25, "c": 0.0, "d": 3.0}
    generator = np.random.default_rng(5)
    pairings = []
    for first, second in itertools.combinations(truth, 2):
        noise = generator.normal(0, 4, 300)
        pairings.append(Pairing(first, second, truth[first] - truth[second] + noise - noise.mean(), np.arange(300), 1))
    ratings = rate(pairings, anchor="c", resamples=50)
    assert dict(zip(ratings.players, ratings.rating)) == pytest.approx(truth, abs=1e-12)
    assert ratings.players == ["d", "a", "c", "b"]  # best first


def test_the_fit_is_the_walls_weighted_least_squares_of_the_slow_twin():
    # an incomplete, inconsistent set of pairings of unequal walls, a pair played twice and a player against itself
    generator = np.random.default_rng(11)
    shape = [("a", "b", 100), ("b", "c", 400), ("c", "d", 50), ("a", "c", 900), ("d", "e", 70), ("b", "e", 30),
             ("a", "b", 250), ("c", "c", 60)]
    pairings = [Pairing(first, second, generator.normal(generator.normal(0, 2), 3, walls), np.arange(walls), index)
                for index, (first, second, walls) in enumerate(shape)]
    players = players_of(pairings)
    for anchor in ("a", "d"):
        expected = naive.ratings_by_averaging(_as_rows(pairings), anchor)
        assert fit(pairings, players, anchor) == pytest.approx([expected[player] for player in players], abs=1e-9)


def test_the_anchor_rates_zero_with_an_interval_of_zero_width():
    pairings = _round_robin({"a": 1.0, "b": 0.0, "c": -2.0}, 200, np.random.default_rng(3))
    for anchor in ("a", "b", "c"):
        table = rate(pairings, anchor=anchor, resamples=200).table().set_index("player")
        assert table.loc[anchor, ["rating", "low", "high"]].tolist() == [0.0, 0.0, 0.0]
        others = table.drop(index=anchor)
        assert (others["high"] - others["low"] > 0).all()
    assert rate(pairings, resamples=200).anchor == "a"  # the default: the first player


def test_a_player_and_its_copy_rate_equal():
    # "a2" is "a" again: it plays the same as "a" on every wall, so against "a" it differs by 0 on every
    # wall and against every other player it wins what "a" wins
    generator = np.random.default_rng(8)
    pairings = _round_robin({"a": 0.5, "b": 0.0, "c": -1.0}, 300, generator)
    copies = [Pairing("a2", pairing.second, pairing.differences, pairing.walls, pairing.group)
              for pairing in pairings if pairing.first == "a"]
    ratings = rate(pairings + copies + [Pairing("a", "a2", np.zeros(300), np.arange(300), 1)], anchor="b",
                   resamples=300).table().set_index("player")
    assert ratings.loc["a"].tolist() == pytest.approx(ratings.loc["a2"].tolist(), abs=1e-12)


def test_the_interval_covers_the_true_rating_about_95_percent_of_the_time():
    truth = {"anchor": 0.0, "b": 0.4, "c": -0.3, "d": 1.0}
    covered = []
    for seed in range(400):
        generator = np.random.default_rng(1000 + seed)
        ratings = rate(_round_robin(truth, 1000, generator, luck=2.0, noise=3.0), anchor="anchor", resamples=400,
                       seed=seed).table().set_index("player")
        for player in ("b", "c", "d"):
            covered.append(ratings.loc[player, "low"] <= truth[player] <= ratings.loc[player, "high"])
    # 1,200 intervals, correlated within a seed: a standard error of at most about 1.1%
    assert 0.925 <= np.mean(covered) <= 0.975


def test_pairings_on_the_same_walls_are_resampled_together():
    # b's luck on a wall is large and enters a - b and b - c with opposite signs: rating a against c adds the
    # two pairings, and the luck cancels only when both pairings draw the same walls
    walls = 400
    generator = np.random.default_rng(2)
    luck = generator.normal(0, 10, walls)
    first = 1.0 - luck + generator.normal(0, 1, walls)
    second = 1.0 + luck + generator.normal(0, 1, walls)

    def width(groups):
        pairings = [Pairing("a", "b", first, np.arange(walls), groups[0]),
                    Pairing("b", "c", second, np.arange(walls), groups[1])]
        table = rate(pairings, anchor="c", resamples=500).table().set_index("player")
        return table.loc["a", "high"] - table.loc["a", "low"]

    together, apart = width((1, 1)), width((1, 2))
    # sd of a's rating: about 2 * 1/sqrt(walls) together and 2 * 10/sqrt(walls) * sqrt(1/2) apart
    assert together < apart / 4


def test_the_bootstrap_is_a_pure_function_of_its_seed():
    pairings = _round_robin({"a": 1.0, "b": 0.0, "c": -2.0}, 200, np.random.default_rng(3))
    once, again = rate(pairings, resamples=300, seed=4), rate(pairings, resamples=300, seed=4)
    other = rate(pairings, resamples=300, seed=5)
    assert np.array_equal(once.low, again.low) and np.array_equal(once.high, again.high)
    assert not np.array_equal(once.low, other.low)


def test_a_pairing_on_part_of_its_groups_walls_is_resampled_on_its_own_walls():
    # a long duel and a short one on the same seed share the short one's walls; the short one's interval
    # is as wide as its own walls make it, not narrowed by the long one's
    generator = np.random.default_rng(6)
    long = Pairing("a", "b", generator.normal(0, 5, 4000), np.arange(4000), 1)
    short = Pairing("c", "b", generator.normal(0, 5, 100), np.arange(100), 1)
    table = rate([long, short], anchor="b", resamples=1000).table().set_index("player")
    assert table.loc["c", "high"] - table.loc["c", "low"] == pytest.approx(2 * 1.96 * 5 / 10, rel=0.2)
    assert table.loc["a", "high"] - table.loc["a", "low"] == pytest.approx(2 * 1.96 * 5 / np.sqrt(4000), rel=0.2)


def test_players_not_linked_to_the_anchor_are_refused():
    walls = np.arange(10)
    pairings = [Pairing("a", "b", np.ones(10), walls, 1), Pairing("c", "d", np.ones(10), walls, 1),
                Pairing("e", "e", np.zeros(10), walls, 1)]
    with pytest.raises(RatingsError, match="c, d, e played no pairing linked to the anchor a"):
        rate(pairings, anchor="a")
    with pytest.raises(RatingsError, match="the anchor z is not one of the rated players"):
        rate(pairings[:1], anchor="z")

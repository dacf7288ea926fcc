"""Room economics as a specification: house share, wins that lose money, drift with its batch-means
interval, the simulated players and their ruin (analysis.ruin), each room priced for every purse."""

import math

import numpy as np
import pytest
from conftest import deal_records

from analysis.economics import DEFAULT_PURSES, grid_rooms, player_economics, room_economics
from analysis.ruin import median_interval, resampled_paths, ruin_deals, ruin_figures, simulated_curves
from sim.core.rooms import Room
from sim.core.statistics import batch_means_interval
from sim.erren import money


def test_a_small_win_under_a_large_fee_loses_the_winner_money():
    records = deal_records([(0, 0, 8, 0, 0, 0, 0), (1, 0, 30, 0, 0, 0, 0), (-1, 0, 0, 0, 0, 0, 0)] * 10)
    room = Room("dear", stake=1, fee=10, min_entry=1000, max_entry=0)
    row = room_economics(records, [room], (1000,), horizon=10, players=10, block=3, money=money).iloc[0]
    assert row["winning_but_losing_share"] == pytest.approx(0.5)  # 8 * 1 < 10, 30 * 1 > 10
    assert row["house_share_of_moved"] == pytest.approx(20 * 30 / (20 * 30 + 38 * 10))
    assert row["drift_seat_0"] == pytest.approx((8 - 30 - 3 * 10) / 3)
    assert row["drift_seat_0"] + row["drift_seat_1"] == pytest.approx(-2 * room.fee)


def test_every_room_is_priced_for_every_purse_which_is_stated_in_stakes():
    records = deal_records([(deal % 2, 0, 10, 0, 0, 0, 0) for deal in range(200)])
    rooms = [Room("a", 1, 0, 0, 0), Room("b", 10, 5, 777, 0)]  # a room's minimum entry is not the purse
    table = room_economics(records, rooms, horizon=50, players=20, block=5, money=money)
    assert list(zip(table["room"], table["purse_stakes"])) == [(room.name, purse) for room in rooms for purse in DEFAULT_PURSES]
    assert (table["start_beans"] == table["purse_stakes"] * table["stake"]).all()
    assert DEFAULT_PURSES == (100, 300, 1000, 3000)  # the purses docs/economics.md promises


def test_ruin_is_certain_when_every_deal_loses_and_impossible_when_none_does():
    losing = np.zeros((100, 2))
    curve, = simulated_curves(losing, [95.0], horizon=50, players=20, block=7, seed=1)
    assert (ruin_deals(curve, 10) == 10).all()  # 95 - 10 * 10 <= 0 first after the tenth deal
    winning = np.full((100, 2), 5.0)
    curve, = simulated_curves(winning, [1.0], horizon=50, players=20, block=7, seed=1)
    assert np.isinf(ruin_deals(curve, 4)).all() and (ruin_deals(curve, 6) == 1).all()


def test_the_ruin_deal_read_off_the_curve_is_the_first_deal_a_direct_walk_goes_broke():
    """The curve (running minimum of (start + S_t) / t) against the definition: the first t at which
    start + S_t - fee * t <= 0, walked deal by deal, for every fee from 0 to past the start."""
    changes = np.random.default_rng(7).integers(-60, 61, size=(3000, 2)).astype(float)
    running = resampled_paths(changes, 300, 50, 25, np.random.default_rng(2))
    curve, = simulated_curves(changes, [400.0], 300, 50, 25, np.random.default_rng(2))
    for fee in range(0, 420, 7):
        balance = 400.0 + running - fee * np.arange(1, 301)
        walked = [next((t + 1 for t in range(300) if balance[player, t] <= 0), math.inf) for player in range(50)]
        assert ruin_deals(curve, fee).tolist() == walked


def test_resampling_is_a_pure_function_of_its_seed_and_chunking_changes_nothing(monkeypatch):
    changes = np.random.default_rng(3).normal(-1, 30, size=(5000, 2))
    a, = simulated_curves(changes, [200.0], 500, 300, 50, seed=9)
    assert np.array_equal(a, simulated_curves(changes, [200.0], 500, 300, 50, seed=9)[0])
    assert not np.array_equal(a, simulated_curves(changes, [200.0], 500, 300, 50, seed=10)[0])
    monkeypatch.setattr("analysis.ruin.PLAYERS_PER_CHUNK_ELEMENTS", 7 * 500)  # seven players at a time
    assert np.array_equal(a, simulated_curves(changes, [200.0], 500, 300, 50, seed=9)[0])


def test_the_median_interval_covers_the_true_median_about_95_percent_of_the_time():
    rng = np.random.default_rng(11)
    covered = 0
    for _ in range(400):
        low, high = median_interval(rng.exponential(size=201))
        covered += low <= math.log(2) <= high
    assert 0.92 <= covered / 400 <= 0.99


def test_batch_means_keep_their_coverage_where_neighbouring_deals_depend_on_each_other():
    """Each value repeated 10 times (a dealer rotation's worth of dependence): a naive standard error is about
    three times too small, while batches of 50 still cover the true mean (0) about 95% of the time."""
    rng = np.random.default_rng(5)
    covered = naive_covered = 0
    for _ in range(300):
        values = np.repeat(rng.normal(size=500), 10)
        mean, low, high = batch_means_interval(values, 50)
        covered += low <= 0 <= high
        naive_covered += abs(mean) <= 1.96 * values.std(ddof=1) / math.sqrt(len(values))
    assert covered / 300 >= 0.9 and naive_covered / 300 < 0.7


def test_every_ruin_figure_lies_inside_its_interval():
    ruin = np.array([3, 8, 8, 15, 40, math.inf, 22, 9, math.inf, 5] * 30, dtype=float)
    figures = ruin_figures(ruin, horizon=50, fee=4)
    for name, low, high in (("ruin_probability", "ruin_low", "ruin_high"), ("median_deals_to_ruin", "median_low", "median_high"),
                            ("mean_deals_played", "mean_deals_low", "mean_deals_high"),
                            ("house_take_per_bankroll", "house_take_low", "house_take_high")):
        assert figures[low] <= figures[name] <= figures[high], name
    assert figures["ruin_probability"] == pytest.approx(0.8)
    assert figures["house_take_per_bankroll"] == pytest.approx(4 * figures["mean_deals_played"])


def test_a_rooms_drift_interval_is_from_batches_of_consecutive_deals():
    records = deal_records([(deal // 50 % 2, 0, 10, 0, 0, 0, 0) for deal in range(1000)])  # runs of 50 wins each
    row = room_economics(records, [Room("r", 1, 0, 0, 0)], (100,), horizon=20, players=10, block=50, money=money).iloc[0]
    mean, low, high = batch_means_interval(np.where(np.arange(1000) // 50 % 2 == 0, 10.0, -10.0), 50)
    assert (row["drift_seat_0"], row["drift_seat_0_low"], row["drift_seat_0_high"]) == pytest.approx((mean, low, high))
    assert row["drift_seat_0_high"] - row["drift_seat_0_low"] > 5  # blocks of ±10: wide, not the iid ±1.2


def test_a_stronger_players_bankroll_drifts_up_and_a_weaker_ones_is_ruined():
    """Seat 0 wins 10 fans every deal: as its own player it gains 10 - fee a deal and never goes broke; the
    player in seat 1 loses 10 + fee a deal and is broke after start / (10 + fee) deals."""
    records = deal_records([(0, 0, 10, 0, 0, 0, 0)] * 300)
    room = Room("r", stake=1, fee=2, min_entry=0, max_entry=0)
    table = player_economics(records, [room], ["strong", "weak"], (120,), horizon=200, players=50, block=10, money=money)
    strong, weak = table.itertuples()
    assert (strong.player, strong.drift, strong.ruin_probability) == ("strong", 8.0, 0.0)
    assert (weak.player, weak.drift, weak.ruin_probability, weak.median_deals_to_ruin) == ("weak", -12.0, 1.0, 10.0)
    assert weak.house_take_per_bankroll == 2 * 10 and strong.mean_deals_played == 200


def test_grid_rooms_have_every_stake_and_fee():
    rooms = grid_rooms([10, 20], [0, 5])
    assert [(room.stake, room.fee) for room in rooms] == [(10, 0), (10, 5), (20, 0), (20, 5)]


def test_progress_is_told_of_every_room():
    records = deal_records([(deal % 2, 0, 10, 0, 0, 0, 0) for deal in range(100)])
    told = []
    room_economics(records, grid_rooms([1, 2], [0, 1, 2]), (10,), horizon=10, players=5, block=5, money=money,
                   progress=told.append)
    assert sum(told) == 6

"""The fee solver as a specification (analysis/fee_solver.py, docs/economics.md#the-largest-fee-that-meets-a-target):
the largest whole fee meeting a target, on cases whose answer is known by hand, against a scan of every
fee, with an interval from bootstraps of the run."""

import math

import numpy as np
import pytest
from conftest import deal_records
from naive import largest_fee_by_scan

from analysis.economics import room_economics
from analysis.fee_solver import (
    TargetError,
    largest_fee,
    metric_value,
    parse_target,
    solve_fee,
)
from analysis.ruin import simulated_curves
from sim.core.rooms import Room
from sim.erren import money

DRAWS = deal_records([(-1, 0, 0, 0, 0, 0, 0)] * 400)  # nobody wins: only the fee moves beans


def _solve(records, room, target, replicates=8, starts=None, progress=None):
    """The solver on `room` for a purse of room.min_entry beans (or for each of `starts`: then all the answers)."""
    free = Room(room.name, room.stake, 0, room.min_entry, room.max_entry)
    solved = solve_fee(money.seat_changes(records, free), money.units_moved(records) * float(room.stake),
                       starts or [room.min_entry], parse_target(target), horizon=300, players=200, block=20, seed=3,
                       replicates=replicates, progress=progress)
    return solved if starts else solved[0]


def test_a_bankroll_paying_only_the_fee_lasts_its_beans_divided_by_the_fee():
    """With draws only, a player entering with 1,000 beans is broke after ceil(1000 / f) deals: the largest
    fee that keeps the median at 11 deals or more is ceil(1000 / 10) - 1 = 99, in every bootstrap too."""
    solved = _solve(DRAWS, Room("draws", 10, 0, 1000, 0), "median_deals_to_ruin>=11")
    assert solved == {"fee": 99.0, "fee_low": 99.0, "fee_high": 99.0, "replicates_not_met": 0}


def test_the_house_share_is_the_fees_against_the_beans_won():
    """Every deal a 30-fan win at 1 bean a fan: the fees 2f a deal are at most 20% of 2f + 30 while
    f <= 0.2 x 30 / (2 x 0.8) = 3.75."""
    records = deal_records([(deal % 2, 0, 30, 0, 0, 0, 0) for deal in range(400)])
    solved = _solve(records, Room("fixed", 1, 0, 10_000, 0), "house_share<=0.2")
    assert solved["fee"] == 3.0 and solved["fee_low"] == 3.0 and solved["fee_high"] == 3.0


@pytest.mark.parametrize("target", ["median_deals_to_ruin>=100", "mean_deals_played>=60", "ruin_probability<=0.7",
                                    "house_share<=0.3"])
def test_bisection_finds_the_fee_a_scan_of_every_fee_finds(target):
    changes = np.random.default_rng(5).normal(0, 40, size=(3000, 2)).round()
    changes[:, 1] = -changes[:, 0]
    curves, = simulated_curves(changes, [500.0], 300, 200, 25, seed=8)
    parsed = parse_target(target)
    moved = float(np.abs(changes[:, 0]).sum())

    def meets(fee):
        return parsed.met(metric_value(parsed.metric, fee, curves, moved, 6000.0))

    found = largest_fee(parsed, curves, moved, 6000.0)
    assert 0 < found < 600 and found == largest_fee_by_scan(meets, 600)


def test_a_target_missed_without_any_fee_has_no_fee():
    losing = deal_records([(1, 0, 50, 0, 0, 0, 0)] * 400)  # seat 0 loses 50 fans every deal
    solved = _solve(losing, Room("steep", 10, 0, 1000, 0), "ruin_probability<=0.1")
    assert math.isnan(solved["fee"]) and solved["replicates_not_met"] == 8


def test_the_interval_is_near_the_fee_and_widens_with_a_noisy_run():
    rng = np.random.default_rng(2)
    records = deal_records([(int(rng.integers(-1, 2)), 0, int(rng.integers(8, 60)), 0, 0, 0, 0) for _ in range(2000)])
    solved = _solve(records, Room("noisy", 1, 0, 2000, 0), "median_deals_to_ruin>=60", replicates=20)
    assert solved["fee_high"] > solved["fee_low"]
    assert 0.5 * solved["fee_low"] <= solved["fee"] <= 2 * solved["fee_high"]


def test_the_room_at_the_solved_fee_meets_its_target_on_the_same_resampling():
    rng = np.random.default_rng(4)
    records = deal_records([(int(rng.integers(0, 2)), 0, int(rng.integers(8, 40)), 0, 0, 0, 0) for _ in range(1500)])
    room = Room("r", 2, 0, 3000, 0)
    solved = _solve(records, room, "median_deals_to_ruin>=50")
    at = room_economics(records, [Room("r", 2, int(solved["fee"]), 0, 0)], (1500,), 300, 200, 20, 3, money=money).iloc[0]
    above = room_economics(records, [Room("r", 2, int(solved["fee"]) + 1, 0, 0)], (1500,), 300, 200, 20, 3, money=money).iloc[0]
    assert at["median_deals_to_ruin"] >= 50 > above["median_deals_to_ruin"]
    assert at["house_take_per_bankroll"] == pytest.approx(solved["fee"] * at["mean_deals_played"])


def test_each_purse_gets_its_own_fee_and_a_bigger_purse_bears_a_bigger_fee():
    """Draws only: a purse of B beans lasts ceil(B / f) deals, so the median reaches 11 while f <= ceil(B / 10) - 1."""
    solved = _solve(DRAWS, Room("draws", 10, 0, 0, 0), "median_deals_to_ruin>=11", starts=[500, 1000, 3000])
    assert [answer["fee"] for answer in solved] == [49.0, 99.0, 299.0]


def test_progress_counts_every_purse_on_the_run_and_on_every_replicate():
    told = []
    _solve(DRAWS, Room("draws", 10, 0, 0, 0), "median_deals_to_ruin>=11", replicates=4, starts=[500, 1000, 3000],
           progress=told.append)
    assert sum(told) == 3 * (4 + 1)


@pytest.mark.parametrize(("text", "message"), [
    ("median_deals_to_ruin>500", "reads like"),
    ("deals>=5", "unknown metric 'deals'"),
    ("ruin_probability>=0.2", "to a ceiling"),
    ("house_share<=1.5", "from 0 to below 1"),
    ("", "reads like"),
])
def test_a_malformed_target_is_one_clear_error(text, message):
    with pytest.raises(TargetError, match=message):
        parse_target(text)

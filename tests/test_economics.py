"""Room economics as a specification: house share, wins that lose money, drift, and risk of ruin."""

import numpy as np
import pandas as pd
import pytest
from conftest import deal_records

from analysis.economics import (
    deals_until_ruin,
    grid_rooms,
    room_economics,
    starting_beans,
)
from analysis.rooms import Room
from analysis.tables import read_metadata
from sim.erren import money
from sim.runner import RunConfig, run


def test_a_small_win_under_a_large_fee_loses_the_winner_money():
    records = deal_records([(0, 0, 8, 0, 0, 0, 0), (1, 0, 30, 0, 0, 0, 0), (-1, 0, 0, 0, 0, 0, 0)] * 10)
    room = Room("dear", stake=1, fee=10, min_entry=1000, max_entry=0)
    row = room_economics(records, [room], horizon=10, players=10, money=money).iloc[0]
    assert row["winning_but_losing_share"] == pytest.approx(0.5)  # 8 * 1 < 10, 30 * 1 > 10
    assert row["house_share_of_moved"] == pytest.approx(20 * 30 / (20 * 30 + 38 * 10))
    assert row["drift_seat_0"] == pytest.approx((8 - 30 - 3 * 10) / 3)
    assert row["drift_seat_0"] + row["drift_seat_1"] == pytest.approx(-2 * room.fee)


def test_ruin_is_certain_when_every_deal_loses_and_impossible_when_none_does():
    losing = np.full((100, 2), -10.0)
    first = deals_until_ruin(losing, start=95, horizon=50, players=20, block=7, seed=1)
    assert (first == 10).all()  # 95 - 10 * 10 <= 0 first after the tenth deal
    winning = np.full((100, 2), 5.0)
    assert np.isinf(deals_until_ruin(winning, start=1, horizon=50, players=20, block=7, seed=1)).all()


def test_resampling_is_a_pure_function_of_its_seed():
    changes = np.random.default_rng(3).normal(-1, 30, size=(5000, 2))
    a = deals_until_ruin(changes, 200, 500, 300, 50, seed=9)
    assert np.array_equal(a, deals_until_ruin(changes, 200, 500, 300, 50, seed=9))
    assert not np.array_equal(a, deals_until_ruin(changes, 200, 500, 300, 50, seed=10))


def test_grid_rooms_and_the_entry_of_a_free_room():
    rooms = grid_rooms([10, 20], [0, 5])
    assert [(room.stake, room.fee) for room in rooms] == [(10, 0), (10, 5), (20, 0), (20, 5)]
    assert starting_beans(Room("free", 3, 0, 0, 0)) == 300 and starting_beans(rooms[1]) == 1000


def test_economics_command_writes_a_table_per_room(mjsim, tmp_path):
    directory = tmp_path / "run"
    run(RunConfig("erren", ("greedy", "greedy"), deals=2000, seed=3, shard_size=1000), directory, workers=1)
    code, out, _ = mjsim("economics", str(directory), "--stake", "10", "--fee", "0", "--fee", "50",
                          "--horizon", "300", "--players", "200")
    assert code == 0 and "s=10 f=50" in out
    table = pd.read_parquet(directory / "economics.parquet")
    assert table["room"].tolist() == ["s=10 f=0", "s=10 f=50"]
    free, taxed = table.itertuples()
    assert taxed.ruin_probability >= free.ruin_probability and taxed.drift_seat_0 == pytest.approx(free.drift_seat_0 - 50)
    assert read_metadata(directory / "economics.parquet")["config"]["horizon"] == 300


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--stake", "10"], "--stake and --fee together"),
        (["--horizon", "0"], "must be positive"),
        (["--stake", "0", "--fee", "1"], "--stake must be from 1 to"),
    ],
)
def test_economics_bad_input_is_one_error_line(mjsim, tmp_path, arguments, message):
    directory = tmp_path / "run"
    run(RunConfig("erren", ("random", "random"), deals=200, seed=3, shard_size=100), directory, workers=1)
    code, _, err = mjsim("economics", str(directory), *arguments)
    assert code == 2 and err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1


def test_plot_writes_the_bean_distribution_and_the_ruin_curve(mjsim, tmp_path):
    directory = tmp_path / "run"
    run(RunConfig("erren", ("greedy", "greedy"), deals=1000, seed=3, shard_size=1000), directory, workers=1)
    code, out, _ = mjsim("economics", str(directory), "--stake", "10", "--fee", "0", "--fee", "20", "--horizon", "100",
                         "--players", "50", "--plot")
    assert code == 0
    for name in ("bean_distribution.png", "ruin_by_fee.png"):
        assert (directory / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and name in out


def test_plot_of_rooms_where_ruin_is_certain(mjsim, tmp_path):
    """The default rooms ruin every player within the horizon: the error bars' rounding must not break."""
    directory = tmp_path / "run"
    run(RunConfig("erren", ("greedy", "greedy"), deals=1000, seed=3, shard_size=1000), directory, workers=1)
    code, _, _ = mjsim("economics", str(directory), "--horizon", "400", "--players", "50", "--plot")
    assert code == 0 and (directory / "ruin_by_fee.png").is_file()

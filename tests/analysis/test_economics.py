"""Room economics as a specification: house share, wins that lose money, drift, and risk of ruin."""

import numpy as np
import pandas as pd
import pytest
from conftest import deal_records

from analysis.economics import (
    deals_until_ruin,
    grid_rooms,
    player_economics,
    room_economics,
    starting_beans,
)
from sim.core.result_files import read_metadata
from sim.core.rooms import Room
from sim.erren import money
from sim.runs.runner import RunConfig, run


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


def test_a_stronger_players_bankroll_drifts_up_and_a_weaker_ones_is_ruined():
    """Seat 0 wins 10 fans every deal: as its own player it gains 10 - fee a deal and never goes broke; the
    player in seat 1 loses 10 + fee a deal and is broke after start / (10 + fee) deals."""
    records = deal_records([(0, 0, 10, 0, 0, 0, 0)] * 300)
    room = Room("r", stake=1, fee=2, min_entry=120, max_entry=0)
    table = player_economics(records, [room], ["strong", "weak"], horizon=200, players=50, block=10, money=money)
    strong, weak = table.itertuples()
    assert (strong.player, strong.drift, strong.ruin_probability) == ("strong", 8.0, 0.0)
    assert (weak.player, weak.drift, weak.ruin_probability, weak.median_deals_to_ruin) == ("weak", -12.0, 1.0, 10.0)
    assert weak.house_take_per_bankroll == 2 * 10 and strong.mean_deals_played == 200


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


def test_the_app_rooms_of_seed_004_take_the_fee_as_a_parameter(mjsim, tmp_path):
    directory = tmp_path / "run"
    run(RunConfig("erren", ("greedy", "greedy"), deals=1000, seed=3, shard_size=1000), directory, workers=1)
    code, _, _ = mjsim("economics", str(directory), "--rooms", "app", "--fee", "100", "--horizon", "200", "--players", "100")
    table = pd.read_parquet(directory / "economics.parquet")
    assert code == 0 and table["room"].tolist() == ["新手场", "普通场", "初级场", "中级场", "高级场"]
    assert table["stake"].tolist() == [50, 200, 500, 2000, 6000] and (table["fee"] == 100).all()
    assert table["start_beans"].tolist() == [1000, 5000, 10000, 50000, 200000]
    assert (table["house_take_per_bankroll"] == 100 * table["mean_deals_played"]).all()


def test_a_run_of_two_players_gets_each_players_economics(mjsim, tmp_path):
    directory = tmp_path / "run"
    run(RunConfig("erren", ("random", "greedy"), deals=300, seed=3, shard_size=300), directory, workers=1)
    code, out, _ = mjsim("economics", str(directory), "--horizon", "100", "--players", "50")
    table = pd.read_parquet(directory / "economics_by_player.parquet")
    assert code == 0 and "per player" in out and len(table) == 2 * 6
    greedy = table[table["player"].str.startswith("greedy")]
    random = table[table["player"].str.startswith("random")]
    assert (greedy["drift"].to_numpy() > random["drift"].to_numpy()).all()


def test_the_fee_solver_writes_each_rooms_fee_with_its_interval(mjsim, tmp_path):
    directory = tmp_path / "run"
    run(RunConfig("erren", ("greedy", "greedy"), deals=1000, seed=3, shard_size=1000), directory, workers=1)
    code, out, _ = mjsim("economics", str(directory), "--rooms", "app", "--bankroll", "1000", "--solve", "fee",
                         "--target", "median_deals_to_ruin>=100", "--horizon", "200", "--players", "100",
                         "--replicates", "5")
    table = pd.read_parquet(directory / "fee_solution.parquet")
    assert code == 0 and "median_deals_to_ruin>=100" in out and len(table) == 5
    assert (table["fee"] > 0).all() and (table["fee_low"] <= table["fee_high"]).all()
    assert ((table["fee_high"] - table["fee_low"]) < 0.5 * table["fee"]).all()  # the run's 1,000 deals pin it down
    assert (table["median_deals_to_ruin"] >= 100).all()  # the room at the solved fee meets the target
    assert read_metadata(directory / "fee_solution.parquet")["config"]["target"] == "median_deals_to_ruin>=100"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--fee", "1", "--fee", "2"], "give one --fee"),
        (["--solve", "fee"], "--solve fee and --target together"),
        (["--solve", "fee", "--target", "deals>=3"], "unknown metric"),
        (["--solve", "fee", "--target", "house_share<=0.2", "--stake", "1", "--fee", "1"], "not a grid"),
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

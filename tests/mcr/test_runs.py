"""The run tooling on the 国标 family: `mjsim run --ruleset mcr` writes its records and tables, each carrying
the run's configuration, seed and versions; every deal's money balances and is what the rules book prices;
the tables are read off the records; a run is the same on one worker or two; and `analyze`, `duel` and bad
input behave as for the other families."""

import numpy as np
import pandas as pd
import pytest

from sim.core.result_files import read_metadata
from sim.core.rooms import Room, load_rooms
from sim.core.ruleset import RULESET_DIR, load_ruleset
from sim.families import FAMILIES, family_of
from sim.mcr import money
from sim.runs.runner import RunConfig, run

PLAYERS = ("greedy", "random", "greedy", "random")
UNITS = Room("units", stake=1, fee=0, min_entry=0, max_entry=0)


@pytest.fixture(scope="module")
def command_run(tmp_path_factory):
    """`mjsim run --ruleset mcr` as a user types it: 3,000 deals in three shards, on one worker."""
    from sim import cli

    out = tmp_path_factory.mktemp("mcr") / "run"
    arguments = ["run", "--ruleset", "mcr", "--players", ",".join(PLAYERS), "--deals", "3000", "--seed", "6",
                 "--shard-size", "1000", "--workers", "1", "--out", str(out)]
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr("sys.argv", ["mjsim", *arguments])
    try:
        cli.main()
    except SystemExit as exit:
        assert not exit.code
    finally:
        monkeypatch.undo()
    return out


def records_of(directory):
    return pd.concat([pd.read_parquet(path) for path in sorted((directory / "records").glob("shard-*.parquet"))],
                     ignore_index=True)


def test_every_file_of_the_run_carries_its_configuration_seed_and_versions(command_run):
    files = sorted(command_run.glob("*.parquet")) + sorted((command_run / "records").glob("*.parquet"))
    names = {path.name for path in files}
    assert {"fan_frequency.parquet", "outcomes.parquet", "seats.parquet", "wins.parquet"} <= names
    assert len(list((command_run / "records").glob("*.parquet"))) == 3
    for path in files:
        metadata = read_metadata(path)
        config = metadata["config"]
        assert config["ruleset"] == "mcr" and config["seed"] == 6 and config["deals"] == 3000, path
        assert [name.split(":")[0] for name in config["players"]] == list(PLAYERS), path  # their canonical texts
        assert config["ruleset_source"] == (RULESET_DIR / "mcr.toml").read_text(encoding="utf-8"), path
        assert {"mjsim", "numba", "numpy"} <= set(metadata["versions"]), path


def test_every_deal_balances_and_pays_as_the_rules_book_prices_it(command_run):
    records = records_of(command_run)
    assert len(records) == 3000 and (records["violation"] == 0).all()
    money_columns = records[[f"money_{seat}" for seat in range(4)]].to_numpy()
    assert (money_columns.sum(axis=1) == 0).all()
    base = load_ruleset("mcr").family_switches.base
    price = (records["fan_total"] + records["winner_flowers"]).to_numpy()  # F
    for index, row in enumerate(records.itertuples()):
        expected = np.zeros(4, np.int64)
        if row.winner >= 0:
            for payer in range(4):
                if payer != row.winner:
                    amount = base + (price[index] if row.discarder < 0 or payer == row.discarder else 0)
                    expected[payer] -= amount
                    expected[row.winner] += amount
        assert (money_columns[index] == expected).all(), row.deal
    won = records["winner"] >= 0
    assert (records.loc[won, "fan_total"] >= 8).all()  # the minimum, flowers not counted
    assert (records.loc[~won, "tiles_left"] == 0).all()  # only an empty wall ends a deal without a win


def test_the_tables_are_read_off_the_records(command_run):
    records = records_of(command_run)
    outcomes = pd.read_parquet(command_run / "outcomes.parquet").set_index("statistic")["value"]
    won = records["winner"] >= 0
    assert outcomes["deals"] == 3000 and outcomes["wins"] == won.sum()
    assert outcomes["mean_fan_total"] == pytest.approx(records.loc[won, "fan_total"].mean())
    wins = pd.read_parquet(command_run / "wins.parquet").set_index("win_type")
    assert wins.loc["all", "count"] == won.sum()
    assert wins.loc["self_drawn", "count"] == (records["win_type"] == 1).sum()
    fans = pd.read_parquet(command_run / "fan_frequency.parquet").set_index("fan")
    assert fans.loc["flower_tiles", "wins_scored"] == (records.loc[won, "fan_flower_tiles"] > 0).sum()
    seats = pd.read_parquet(command_run / "seats.parquet")
    practice = seats[seats["room"] == seats["room"].iloc[0]].set_index("group")
    assert practice.loc["seat 1", "mean_money"] == pytest.approx(records["money_1"].mean() * practice_stake())


def practice_stake():
    return load_rooms(None, FAMILIES["mcr"].rooms_file)[0].stake


def test_a_run_is_the_same_on_one_worker_or_two(command_run, tmp_path):
    config = RunConfig("mcr", PLAYERS, deals=3000, seed=6, shard_size=1000)
    two = run(config, tmp_path / "two", workers=2)
    pd.testing.assert_frame_equal(two.records.reset_index(drop=True), records_of(command_run))
    for name in ("outcomes", "wins", "fan_frequency"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "two" / f"{name}.parquet"),
                                      pd.read_parquet(command_run / f"{name}.parquet"))
    other_seed = run(RunConfig("mcr", PLAYERS, deals=1000, seed=7, shard_size=1000), tmp_path / "seven", workers=1)
    assert not other_seed.records["money_0"].equals(records_of(command_run)["money_0"].iloc[:1000])


def test_a_room_prices_points_and_charges_its_fee(command_run):
    records = records_of(command_run)
    changes = money.seat_changes(records, Room("r", stake=5, fee=3, min_entry=0, max_entry=0))
    assert changes.shape == (3000, 4)
    assert np.array_equal(changes[:, 2], records["money_2"].to_numpy() * 5 - 3)
    assert family_of(load_ruleset("mcr")) is FAMILIES["mcr"]


def test_analyze_prints_the_runs_tables(mjsim, command_run):
    code, printed, _ = mjsim("analyze", str(command_run))
    assert code == 0 and "3,000 deals in" in printed
    for heading in ("outcomes", "fans"):
        assert f"\n{heading}\n" in printed


def test_a_duel_at_four_seats_of_a_player_against_itself_differs_by_zero(mjsim):
    code, printed, _ = mjsim("duel", "greedy", "greedy", "--ruleset", "mcr", "--deals", "100", "--no-variance-reduction")
    assert code == 0, printed
    assert "4 times with the seats rotated" in printed


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["run", "--ruleset", "mcr", "--players", "greedy,greedy", "--deals", "10"], "not 2"),
        (["run", "--ruleset", "mcr", "--players", "greedy:speed=2,greedy,greedy,greedy", "--deals", "10"],
         "unknown parameter"),
        (["run", "--ruleset", "mcr", "--deals", "10", "--session-length", "2"], "no sessions"),
        (["replay", "--ruleset", "mcr", "--session-length", "4"], "no sessions"),
        (["replay", "--ruleset", "mcr", "--players", "greedy,greedy,greedy"], "not 3"),
    ],
)
def test_bad_mcr_input_is_one_error_line(mjsim, tmp_path, arguments, message):
    if arguments[0] == "run":
        arguments = [*arguments, "--out", str(tmp_path / "x")]
    code, _, err = mjsim(*arguments)
    assert code == 2 and err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x" / "records").exists()

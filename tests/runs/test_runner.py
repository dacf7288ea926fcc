"""`mjsim run` as a specification: shards on any number of workers give the same files, an interrupted
run resumes where it stopped, every file carries its configuration, and bad input leaves results alone."""

import sys
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from sim.core.result_files import read_metadata
from sim.players.player_text import players_label
from sim.runs.runner import RunConfig, RunError, run, shard_path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = RunConfig("erren", ("greedy", "random"), deals=3000, seed=5, shard_size=1000)


def _records(directory):
    return pd.concat([pd.read_parquet(path) for path in sorted((directory / "records").glob("*.parquet"))], ignore_index=True)


def test_a_run_is_the_same_whatever_the_number_of_workers(tmp_path):
    one = run(CONFIG, tmp_path / "one", workers=1)
    two = run(CONFIG, tmp_path / "two", workers=2)
    for index in range(3):
        assert shard_path(tmp_path / "one", index).read_bytes() == shard_path(tmp_path / "two", index).read_bytes()
    assert one.records.equals(two.records)
    assert one.fan_table.equals(two.fan_table)
    assert one.records["deal"].tolist() == list(range(3000))


def test_every_file_carries_the_configuration_ruleset_and_versions(tmp_path):
    run(CONFIG, tmp_path / "run", workers=1)
    for path in [shard_path(tmp_path / "run", 0), tmp_path / "run" / "fan_frequency.parquet", tmp_path / "run" / "outcomes.parquet"]:
        metadata = read_metadata(path)
        assert metadata["config"]["seed"] == 5 and metadata["config"]["deals"] == 3000
        assert metadata["config"]["players"][0].startswith("greedy:")
        assert "[fans.seven_pairs]" in metadata["config"]["ruleset_source"]
        assert {"mjsim", "numba", "numpy", "pyarrow"} <= set(metadata["versions"])


def test_an_interrupted_run_resumes_and_plays_only_what_is_missing(tmp_path):
    directory = tmp_path / "run"
    whole = run(CONFIG, directory, workers=1)
    shard_path(directory, 1).unlink()  # as if the run had stopped before writing it
    (directory / "fan_frequency.parquet").unlink()
    untouched = shard_path(directory, 2).stat().st_mtime_ns
    with pytest.raises(RunError, match="not empty"):
        run(CONFIG, directory, workers=1)
    resumed = run(CONFIG, directory, workers=1, resume=True)
    assert resumed.played == 1000
    assert shard_path(directory, 2).stat().st_mtime_ns == untouched
    assert resumed.records.equals(whole.records)
    assert resumed.fan_table.equals(whole.fan_table)


def test_resume_refuses_a_directory_holding_another_run(tmp_path):
    directory = tmp_path / "run"
    run(CONFIG, directory, workers=1)
    before = {path: path.read_bytes() for path in directory.rglob("*") if path.is_file()}
    other = RunConfig("erren", ("greedy", "random"), deals=3000, seed=6, shard_size=1000)
    with pytest.raises(RunError, match="different run .*seed"):
        run(other, directory, workers=1, resume=True)
    assert before == {path: path.read_bytes() for path in directory.rglob("*") if path.is_file()}


def test_fan_table_counts_deals_and_wins_with_intervals(tmp_path):
    result = run(CONFIG, tmp_path / "run", workers=1)
    table = result.fan_table.set_index("fan")
    wins = int((result.records["winner"] >= 0).sum())
    flush = int((result.records["fan_half_flush"] > 0).sum())
    assert table.loc["half_flush", "deals_scored"] == flush
    assert table.loc["half_flush", "per_win"] == pytest.approx(flush / wins)
    assert (table["per_deal_low"] <= table["per_deal"]).all() and (table["per_deal"] <= table["per_deal_high"]).all()
    assert list(table["value"]) == sorted(table["value"], reverse=True)


def test_run_command_writes_tables_and_prints_a_summary(mjsim, tmp_path):
    out = tmp_path / "cli"
    code, printed, _ = mjsim("run", "--deals", "2000", "--shard-size", "1000", "--workers", "1",
                              "--ruleset", "erren-classic", "--players", "value,defensive", "--out", str(out))
    assert code == 0
    assert "2,000 deals of erren-classic, value v defensive in" in printed and "top fans" in printed
    assert "paid per win" in printed
    assert (out / "fan_frequency.parquet").is_file() and (out / "outcomes.parquet").is_file()
    assert len(_records(out)) == 2000


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--ruleset", "no-such-ruleset"], "no-such-ruleset"),
        (["--players", "greedy,oracle"], "unknown heuristic 'oracle'"),
        (["--players", "greedy:greed=2,greedy"], "unknown parameter"),
        (["--deals", "0"], "--deals must be from 1 to"),
        (["--shard-size", "1000", "--session-length", "300"], "multiple of --session-length"),
        (["--workers", "-1"], "must not be negative"),
    ],
)
def test_bad_input_is_one_error_line(mjsim, tmp_path, arguments, message):
    code, _, err = mjsim("run", "--deals", "100", "--out", str(tmp_path / "x"), *arguments)
    assert code == 2 and err.startswith("error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_a_non_empty_directory_is_left_alone(mjsim, tmp_path):
    occupied = tmp_path / "occupied"
    occupied.mkdir()
    (occupied / "notes.txt").write_text("keep me")
    code, _, err = mjsim("run", "--deals", "100", "--out", str(occupied))
    assert code == 2 and "not empty" in err
    code, _, err = mjsim("run", "--deals", "100", "--out", str(occupied), "--resume")
    assert code == 2 and "holds no run" in err
    assert [path.name for path in occupied.iterdir()] == ["notes.txt"]


def test_an_unwritable_output_directory_is_one_error_line(mjsim, tmp_path):
    # A path under a regular file cannot be created even by root, unlike a chmod'ed directory.
    blocker = tmp_path / "a-file"
    blocker.write_text("keep me")
    code, _, err = mjsim("run", "--deals", "100", "--out", str(blocker / "run"))
    assert code == 2 and err.startswith("error: cannot write the run to ") and "Not a directory" in err
    assert len(err.strip().splitlines()) == 1
    assert blocker.read_text() == "keep me"


def test_the_dask_backend_writes_the_same_files_as_the_local_one(tmp_path):
    """Also with user players on the workers: a stochastic Python class, an external program, a numba
    function, each seated in its worker process."""
    from distributed import LocalCluster

    players = ROOT / "examples" / "players"
    with_users = RunConfig("erren", (f"{players / 'simple.py'}:Coin:win=0.7", f"exec:{sys.executable} {players / 'json_bot.py'}"),
                           deals=400, seed=6, shard_size=200)
    # one shard: the loop that calls numba functions is compiled in each process that plays one
    with_numba = RunConfig("erren-classic", (f"{players / 'numba_greedy.py'}:act", "random"), deals=400, seed=6, shard_size=400)
    configs = {"builtin": CONFIG, "users": with_users, "numba": with_numba}
    local = {name: run(config, tmp_path / "local" / name, workers=1) for name, config in configs.items()}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_cluster = {name: run(config, tmp_path / "dask" / name, scheduler=cluster.scheduler_address)
                      for name, config in configs.items()}
    for name, config in configs.items():
        assert on_cluster[name].played == config.deals
        for index in range(config.deals // config.shard_size):
            assert (shard_path(tmp_path / "local" / name, index).read_bytes()
                    == shard_path(tmp_path / "dask" / name, index).read_bytes())
        assert on_cluster[name].fan_table.equals(local[name].fan_table)
        assert on_cluster[name].beans.equals(local[name].beans)


def _kernels_in_this_process(counted):
    """`counted` ("cache_hits" or "cache_misses") -> the numba functions of this process with any."""
    import gc

    return sorted(f"{function.py_func.__module__}.{function.__name__}" for function in gc.get_objects()
                  if type(function).__name__ == "CPUDispatcher" and sum(getattr(function.stats, counted).values()))


def test_dask_workers_on_a_cold_cache_play_the_clients_compiled_kernels_without_compiling(tmp_path):
    from distributed import Client, LocalCluster

    config = replace(CONFIG, shard_size=750)  # four shards, so that both workers play
    workers_cache = tmp_path / "workers' numba cache"  # empty: the workers' machine has never compiled mjsim
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      env={"NUMBA_CACHE_DIR": str(workers_cache)}) as cluster, Client(cluster) as client:
        played = run(config, tmp_path / "dask", scheduler=cluster.scheduler_address)
        compiled = client.run(_kernels_in_this_process, "cache_misses")  # what a worker compiled itself
        loaded = client.run(_kernels_in_this_process, "cache_hits")
    assert played.played == config.deals and len(compiled) == 2
    assert all(names == [] for names in compiled.values()), compiled
    assert all("sim.erren.engine._play_deals" in names for names in loaded.values()), loaded
    assert list(workers_cache.rglob("*.nbi")) and not list(workers_cache.rglob(".*"))  # written whole, no leftovers


def test_an_unreachable_scheduler_is_one_error_line(mjsim, tmp_path, monkeypatch):
    monkeypatch.setenv("MJSIM_DASK_TIMEOUT", "2")  # the default waits 20 s for a scheduler that may be starting
    code, _, err = mjsim("run", "--deals", "100", "--out", str(tmp_path / "x"), "--backend", "dask",
                         "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and err.startswith("error: ") and "cannot reach the Dask scheduler" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("players", "label"),
    [
        (("greedy:claim=1,ready=1", "greedy:claim=1,ready=1"), "greedy v greedy"),
        (("ev:depth=1", "greedy:claim=1", "greedy:claim=1", "greedy:claim=1"), "ev v greedy v greedy v greedy"),
        (("value:speed=6,claim=1", "value:speed=3,claim=1"), "value:speed=6 v value:speed=3"),
        (("examples/players/simple.py:Coin:win=0.9", "greedy:claim=1"), "examples/players/simple.py:Coin:win=0.9 v greedy"),
    ],
)
def test_a_table_is_named_by_its_players_and_two_seats_of_one_name_by_the_parameters_they_differ_in(players, label):
    assert players_label(players) == label


def test_a_player_set_away_from_its_defaults_shows_the_parameters_it_sets():
    from sim.core.ruleset import load_ruleset
    from sim.families import default_texts

    defaults = default_texts(load_ruleset("erren"))
    deeper = defaults["ev"].replace("depth=1", "depth=2")
    assert players_label([deeper, defaults["greedy"]], defaults) == "ev:depth=2 v greedy"
    assert players_label([defaults["ev"], defaults["greedy"]], defaults) == "ev v greedy"


def test_analyze_names_the_ruleset_and_the_players_in_its_first_line(mjsim, tmp_path):
    run(CONFIG, tmp_path / "run", workers=1)
    code, printed, err = mjsim("analyze", str(tmp_path / "run"))
    assert code == 0, err
    assert printed.splitlines()[0] == f"erren, greedy v random: 3,000 deals in {tmp_path / 'run'}"
    assert "mean_paid_per_win" in printed

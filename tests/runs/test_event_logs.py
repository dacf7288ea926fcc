"""Event logs as data (docs/event-logs.md): the schema, payments that add up to the records' money, the
JSON lines of `mjsim replay --json`, and the round trip: a run's logs replay to the run's records."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from sim.core import event_logs, run_directory, run_records
from sim.core.ruleset import load_ruleset
from sim.families import family_of
from sim.runs import runner
from sim.runs.log_replay import LogMismatch, check_round_trip, engine_columns, replay_logs
from sim.runs.log_replay import main as log_replay_main


def logged_run(directory: Path, ruleset: str, players=None, deals: int = 200, session_length: int = 0,
               shard_size: int = 100, logs: bool = True, seed: int = 5) -> runner.RunResult:
    rules = load_ruleset(ruleset)
    seats = runner.seated_players(rules, players)
    config = runner.RunConfig(ruleset, seats.names, deals, seed, shard_size, session_length)
    return runner.run(config, directory, workers=1, logs=logs)


# Every ruleset, at each table size it is played at, with players whose decisions differ in kind (random
# passes and claims oddly, value and defensive plan and fold, ev is a numba player reporting its chances),
# one run in sessions per family (the dealer follows the winner), as many deals as the suite's time allows
# (some 25 s in all here); `python -m sim.runs.log_replay` checks whole runs (docs/event-logs.md#the-round-trip).
ROUND_TRIPS = [
    ("erren", "greedy,greedy", 0, 2500),
    ("erren", "random,defensive", 10, 1500),
    ("erren-classic", "ev,random", 0, 800),
    ("erren-challenge", "greedy,value", 0, 1000),
    ("liangmen-xuezhan", "random,defensive,value,greedy", 5, 1500),
    ("sanren-liangfang", "greedy,random,defensive", 0, 1200),
    ("sanren-liangfang", "greedy,value", 0, 1500),
]


@pytest.mark.parametrize(("ruleset", "players", "session_length", "deals"), ROUND_TRIPS)
def test_a_runs_logs_replay_to_its_events_and_records(tmp_path, ruleset, players, session_length, deals):
    logged_run(tmp_path / "run", ruleset, players, deals, session_length, shard_size=deals // 2)
    trip = check_round_trip(tmp_path / "run")  # LogMismatch at the first difference
    assert trip.deals == deals and trip.events == len(run_records.read_logs(tmp_path / "run"))


def test_replay_logs_gives_the_runs_records(tmp_path):
    result = logged_run(tmp_path / "run", "sanren-liangfang", "greedy,ev,random", deals=60, shard_size=30)
    replayed = replay_logs(tmp_path / "run", deals=40)
    columns = engine_columns(result.records)
    pd.testing.assert_frame_equal(replayed[columns], result.records[columns].iloc[:40])


def _list_again(directory: Path, index: int) -> None:
    """Record an edited log in the run's manifest, as if the run had written it (a forgery the checks of
    read_logs cannot see: what is left to catch it is the replay)."""
    manifest = json.loads((directory / run_directory.MANIFEST).read_text())
    path = event_logs.log_path(directory, index)
    manifest["shards"][path.name]["log"].update(sha256=run_directory.file_hash(path), rows=pq.ParquetFile(path).metadata.num_rows)
    (directory / run_directory.MANIFEST).write_text(json.dumps(manifest))


def test_a_pong_overruled_by_a_win_replays_as_the_player_answered_it(tmp_path):
    # liangmen-xuezhan forbids a seat the pong it passed until it acts (过手碰). A pong overruled by
    # another seat's win on the same discard is not a pass, and leaves no event: in deal 244 of seed 1,
    # seat 1's pong of 5s is overruled by seat 2's win, and seat 1 pongs 5s four turns later.
    logged_run(tmp_path / "run", "liangmen-xuezhan", deals=250, shard_size=250, seed=1)
    events = run_records.read_logs(tmp_path / "run", deals=[244])
    won = events[(events.event == "win_discard") & (events.tile == "5s")]
    later = events[(events.event == "pong") & (events.tile == "5s") & (events.step > won.step.min())]
    assert list(won.seat) == [2] and list(later.seat) == [1]
    between = events[(events.step > won.step.min()) & (events.step < later.step.min())]
    assert 1 not in set(between.seat)  # seat 1 did not act in between: it was never locked out of that pong
    assert check_round_trip(tmp_path / "run").deals == 250


def test_a_log_missing_a_decision_is_one_error_naming_its_deal_seat_and_decision(tmp_path):
    logged_run(tmp_path / "run", "erren", deals=100)
    path = event_logs.log_path(tmp_path / "run", 0)
    events = pq.read_table(path).to_pandas()
    discard = events.index[(events.deal == 7) & (events.event == "discard")][3]
    turn = 1 + int(events.loc[: discard - 1].query("deal == 7").event.isin(["draw", "chow", "pong", "kong"]).sum())
    pq.write_table(pq.read_table(path).take(np.delete(np.arange(len(events)), discard)), path)
    _list_again(tmp_path / "run", 0)  # past the manifest's check, to the replay's own
    seat = events.seat[discard]
    with pytest.raises(LogMismatch, match=rf"^deal 7, seat {seat}, turn decision at turn {turn}: the log has no answer"):
        check_round_trip(tmp_path / "run")


def test_a_log_whose_events_differ_from_the_replays_is_one_error_naming_the_deal_and_step(tmp_path):
    logged_run(tmp_path / "run", "liangmen-xuezhan", deals=20, shard_size=20)
    path = event_logs.log_path(tmp_path / "run", 0)
    table = pq.read_table(path)
    events = table.to_pandas()
    draw = events.index[(events.deal == 3) & (events.event == "draw")][5]
    money = events.money.to_numpy().copy()
    money[draw] = 9  # a draw moves no money
    pq.write_table(table.set_column(table.schema.get_field_index("money"), "money", pa.array(money)), path)
    _list_again(tmp_path / "run", 0)
    tile, seat, step = events.tile[draw], events.seat[draw], events.step[draw]
    with pytest.raises(LogMismatch, match=rf"^deal 3, step {step}: the log has seat {seat} draw {tile} 9 to seat -1, "
                                          rf"the replay seat {seat} draw {tile}$"):
        check_round_trip(tmp_path / "run")


def test_python_m_sim_log_replay_checks_a_run_or_gives_one_error_line(tmp_path, capsys):
    logged_run(tmp_path / "run", "erren", deals=50, shard_size=50)
    assert log_replay_main([str(tmp_path / "run"), "--deals", "30"]) == 0
    assert "30 deals" in capsys.readouterr().out
    assert log_replay_main([str(tmp_path / "nowhere")]) == 2
    assert log_replay_main([str(tmp_path / "run"), "--deals", "0"]) == 2
    path = event_logs.log_path(tmp_path / "run", 0)
    table = pq.read_table(path)
    pq.write_table(table.filter(pc.not_equal(table.column("deal"), 20)), path)
    _list_again(tmp_path / "run", 0)
    assert log_replay_main([str(tmp_path / "run")]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and all(line.startswith("error: ") for line in lines)
    assert lines[-1] == f"error: deal 20 is not in the logs of {tmp_path / 'run'}"


def test_logging_changes_no_record(tmp_path):
    logged = logged_run(tmp_path / "logged", "erren-challenge", deals=150, shard_size=50, session_length=5)
    plain = logged_run(tmp_path / "plain", "erren-challenge", deals=150, shard_size=50, session_length=5, logs=False)
    pd.testing.assert_frame_equal(logged.records, plain.records)
    assert not (tmp_path / "plain" / event_logs.LOGS).exists()
    assert len(list((tmp_path / "logged" / event_logs.LOGS).glob("shard-*.parquet"))) == 3


@pytest.mark.parametrize("ruleset", ["erren", "liangmen-xuezhan"])
def test_the_logs_follow_the_schema(tmp_path, ruleset):
    result = logged_run(tmp_path / "run", ruleset, deals=100)
    table = pq.read_table(event_logs.log_path(tmp_path / "run", 0))
    assert table.schema.names == list(event_logs.COLUMNS)
    assert [field.type for field in table.schema] == [kind for kind, _ in event_logs.COLUMNS.values()]
    events = run_records.read_logs(tmp_path / "run")
    assert set(events.deal) == set(result.records.deal)
    for _, deal in events.groupby("deal"):  # steps count from 0 without a gap
        assert (deal.step.to_numpy() == np.arange(len(deal))).all()
    assert set(events.event.astype(str)) <= set(family_of(load_ruleset(ruleset)).event_log.EVENT_NAMES)
    drawn = events[events.event.isin(["draw", "discard"])]
    assert drawn.tile.notna().all() and drawn.seat.between(0, 3).all()


def test_the_payments_of_a_two_player_log_are_the_wins_points(tmp_path):
    result = logged_run(tmp_path / "run", "erren", "greedy,value", deals=200)
    events = run_records.read_logs(tmp_path / "run")
    payments = events[events.event == "pay_win"].set_index("deal")
    records = result.records.set_index("deal")
    won = records[records.winner >= 0]
    assert list(payments.index) == list(won.index)
    assert (payments.to_seat == won.winner).all() and (payments.seat == 1 - won.winner).all()
    seat = won.winner.to_numpy()
    fans = won.fan_total + np.where(seat == 0, won.flowers_0, won.flowers_1)
    assert (payments.money == fans * 2 ** np.where(seat == 0, won.doubles_0, won.doubles_1)).all()
    last = events.groupby("deal").tail(1).set_index("deal")
    assert (last.loc[won.index, "event"] == "pay_win").all()  # the payment closes the deal


@pytest.mark.parametrize(("ruleset", "players"), [("liangmen-xuezhan", None), ("sanren-liangfang", "greedy,defensive,value")])
def test_the_payments_of_a_xuezhan_log_add_up_to_each_seats_money(tmp_path, ruleset, players):
    result = logged_run(tmp_path / "run", ruleset, players, deals=200)
    events = run_records.read_logs(tmp_path / "run")
    paying = events[events.money != 0]
    assert paying.event.astype(str).str.startswith(("pay_", "refund_")).all()
    received = paying.groupby(["deal", "to_seat"]).money.sum()
    paid = paying.groupby(["deal", "seat"]).money.sum()
    for seat in range(len(result.records.filter(regex=r"^money_\d$").columns)):
        money = (received.xs(seat, level=1).reindex(result.records.deal, fill_value=0)
                 - paid.xs(seat, level=1).reindex(result.records.deal, fill_value=0))
        assert (money.to_numpy() == result.records[f"money_{seat}"].to_numpy()).all()


def test_replay_json_prints_the_deal_as_the_log_has_it(tmp_path, mjsim):
    logged_run(tmp_path / "run", "liangmen-xuezhan", deals=20, shard_size=20)
    code, out, err = mjsim("replay", "--ruleset", "liangmen-xuezhan", "--seed", "5", "--deal", "13", "--json")
    assert code == 0, err
    printed = [json.loads(line) for line in out.splitlines()]
    logged = run_records.read_logs(tmp_path / "run", deals=[13])
    assert printed == json.loads(logged.to_json(orient="records"))
    assert {"pay_win", "win_self_drawn"} & {row["event"] for row in printed}


def test_resume_with_logs_logs_a_run_played_without(tmp_path):
    plain = logged_run(tmp_path / "run", "erren", deals=200, logs=False)
    rules = load_ruleset("erren")
    config = runner.RunConfig("erren", runner.seated_players(rules).names, 200, 5, 100, 0)
    resumed = runner.run(config, tmp_path / "run", workers=1, resume=True, logs=True)
    assert resumed.played == 200
    pd.testing.assert_frame_equal(resumed.records, plain.records)
    assert run_records.read_logs(tmp_path / "run").deal.nunique() == 200

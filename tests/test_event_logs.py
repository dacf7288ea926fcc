"""Event logs as data (docs/event-logs.md): the schema, payments that add up to the records' money, the
JSON lines of `mjsim replay --json`, and the round trip: a run's logs replay to the run's records."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from sim import event_logs, run_directory, runner
from sim.families import family_of
from sim.log_replay import LogMismatch, replay_logs
from sim.ruleset import load_ruleset


def logged_run(directory: Path, ruleset: str, players=None, deals: int = 200, session_length: int = 0,
               shard_size: int = 100, logs: bool = True) -> runner.RunResult:
    rules = load_ruleset(ruleset)
    seats = runner.seated_players(rules, players)
    config = runner.RunConfig(ruleset, seats.names, deals, 5, shard_size, session_length)
    return runner.run(config, directory, workers=1, logs=logs)


def engine_columns(records: pd.DataFrame) -> list[str]:
    return [name for name in records.columns if not name.startswith("win_chances_")]


# Every ruleset, at each table size it is played at, with players whose decisions differ in kind (random
# passes and claims oddly, value and defensive plan and fold) and one run in sessions (the dealer follows
# the winner).
ROUND_TRIPS = [
    ("erren", "greedy,greedy", 0),
    ("erren", "random,defensive", 10),
    ("erren-classic", "value,random", 0),
    ("erren-challenge", "greedy,greedy", 0),
    ("liangmen-xuezhan", "random,defensive,value,greedy", 5),
    ("sanren-liangfang", "greedy,random,defensive", 0),
    ("sanren-liangfang", "greedy,value", 0),
]


@pytest.mark.parametrize(("ruleset", "players", "session_length"), ROUND_TRIPS)
def test_a_runs_logs_replay_to_its_records(tmp_path, ruleset, players, session_length):
    result = logged_run(tmp_path / "run", ruleset, players, session_length=session_length)
    replayed = replay_logs(tmp_path / "run")
    columns = engine_columns(result.records)
    pd.testing.assert_frame_equal(replayed[columns], result.records[columns])


def _list_again(directory: Path, index: int) -> None:
    """Record an edited log in the run's manifest, as if the run had written it (a forgery the checks of
    read_logs cannot see: what is left to catch it is the replay)."""
    manifest = json.loads((directory / run_directory.MANIFEST).read_text())
    path = event_logs.log_path(directory, index)
    manifest["shards"][path.name]["log"].update(sha256=run_directory.file_hash(path), rows=pq.ParquetFile(path).metadata.num_rows)
    (directory / run_directory.MANIFEST).write_text(json.dumps(manifest))


def test_a_log_missing_a_decision_does_not_replay(tmp_path):
    logged_run(tmp_path / "run", "erren", deals=100)
    path = event_logs.log_path(tmp_path / "run", 0)
    events = pq.read_table(path).to_pandas()
    first_claim = events.index[events.event.isin(["pong", "chow"])][0]
    pq.write_table(pq.read_table(path).take(np.delete(np.arange(len(events)), first_claim)), path)
    _list_again(tmp_path / "run", 0)  # past the manifest's check, to the replay's own
    try:
        replayed = replay_logs(tmp_path / "run")
    except LogMismatch:
        return
    original = runner.read_records(tmp_path / "run", *runner.load_run(tmp_path / "run"))
    assert not replayed[engine_columns(original)].equals(original[engine_columns(original)])


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
    events = event_logs.read_logs(tmp_path / "run")
    assert set(events.deal) == set(result.records.deal)
    for _, deal in events.groupby("deal"):  # steps count from 0 without a gap
        assert (deal.step.to_numpy() == np.arange(len(deal))).all()
    assert set(events.event.astype(str)) <= set(family_of(load_ruleset(ruleset)).event_log.EVENT_NAMES)
    drawn = events[events.event.isin(["draw", "discard"])]
    assert drawn.tile.notna().all() and drawn.seat.between(0, 3).all()


def test_the_payments_of_a_two_player_log_are_the_wins_points(tmp_path):
    result = logged_run(tmp_path / "run", "erren", "greedy,value", deals=200)
    events = event_logs.read_logs(tmp_path / "run")
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
    events = event_logs.read_logs(tmp_path / "run")
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
    logged = event_logs.read_logs(tmp_path / "run", deals=[13])
    assert printed == json.loads(logged.to_json(orient="records"))
    assert {"pay_win", "win_self_drawn"} & {row["event"] for row in printed}


def test_resume_with_logs_logs_a_run_played_without(tmp_path):
    plain = logged_run(tmp_path / "run", "erren", deals=200, logs=False)
    rules = load_ruleset("erren")
    config = runner.RunConfig("erren", runner.seated_players(rules).names, 200, 5, 100, 0)
    resumed = runner.run(config, tmp_path / "run", workers=1, resume=True, logs=True)
    assert resumed.played == 200
    pd.testing.assert_frame_equal(resumed.records, plain.records)
    assert event_logs.read_logs(tmp_path / "run").deal.nunique() == 200

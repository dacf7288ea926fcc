"""A 血战 run's event logs witness every deal: the independent checker (tests/xuezhan/xuezhan_log_checker.py), which
reads only the logs, the ruleset and (to compare) the records, finds no disagreement in runs of every 血战
table with each built-in heuristic, 换三张 and 定缺 switched on too; and it reports each fault planted in a
log: a drawn tile, a discard, a payment, a dropped pass, a wait, a wall tile, the last tile's place."""

import numpy as np
import pandas as pd
import pytest
from xuezhan_log_checker import check_events, check_run

from sim.core import run_records
from sim.core.ruleset import RULESET_DIR, load_ruleset
from sim.runs import runner

SEED = 3


def logged_run(directory, ruleset, players, deals, session_length=0):
    rules = load_ruleset(str(ruleset))
    seats = runner.seated_players(rules, players)
    config = runner.RunConfig(str(ruleset), seats.names, deals, SEED, deals, session_length)
    runner.run(config, directory, workers=1, logs=True)
    return directory


def with_openings(directory, ruleset_id):
    """A copy of a shipped ruleset, under its own id, with 换三张 and 定缺 switched on."""
    text = (RULESET_DIR / f"{ruleset_id}.toml").read_text(encoding="utf-8")
    for switch in ("exchange_three", "void_suit"):
        assert f"\n{switch} = false" in text
        text = text.replace(f"\n{switch} = false", f"\n{switch} = true")
    text = text.replace(f'id = "{ruleset_id}"', f'id = "{ruleset_id}-openings"')
    path = directory / f"{ruleset_id}-openings.toml"
    path.write_text(text, encoding="utf-8")
    return path


# Every table the family plays (four seats, three, two), each heuristic in some seat, sessions once.
RUNS = [
    ("liangmen-xuezhan", "greedy,random,value,defensive", 0, 1000),
    ("liangmen-xuezhan", "random,random,defensive,random", 4, 600),
    ("sanren-liangfang", "random,value,defensive", 0, 1000),
    ("sanren-liangfang", "greedy,random", 0, 1500),
]
OPENINGS = [
    ("liangmen-xuezhan", "random,greedy,value,defensive", 600),
    ("sanren-liangfang", "defensive,random,greedy", 600),
    ("sanren-liangfang", "random,value", 600),
]


@pytest.mark.parametrize(("ruleset", "players", "session_length", "deals"), RUNS)
def test_every_logged_deal_agrees_with_the_rules_and_the_records(tmp_path, ruleset, players, session_length, deals):
    run = logged_run(tmp_path / "run", ruleset, players, deals, session_length)
    assert check_run(run) == []


@pytest.mark.parametrize(("ruleset", "players", "deals"), OPENINGS)
def test_exchange_and_void_suit_deals_agree_with_the_rules_and_the_records(tmp_path, ruleset, players, deals):
    run = logged_run(tmp_path / "run", with_openings(tmp_path, ruleset), players, deals)
    assert check_run(run) == []


# ------------------------------------------------------------------------------------- planted faults


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """(events as plain columns, ruleset, records) of a four-seat run with choices to pass and 报叫."""
    directory = logged_run(tmp_path_factory.mktemp("planted") / "run", "liangmen-xuezhan",
                           "random,greedy,defensive,value", 400)
    config, ruleset = run_records.load_run(directory)
    events = run_records.read_logs(directory).astype({"event": object, "tile": object})
    records = run_records.read_records(directory, config, ruleset)
    assert check_events(events, ruleset, 4, records) == []
    return events, ruleset, records


def planted(logged, row, **changes):
    """The problems the checker reports once row `row` of the logs is changed (or, with drop=True, removed)."""
    events, ruleset, records = logged
    events = events.copy()
    if changes.pop("drop", False):
        events = events.drop(index=row).reset_index(drop=True)
    for column, value in changes.items():
        events.loc[row, column] = value
    return check_events(events, ruleset, 4, records)


def rows_of(events, event):
    return np.flatnonzero(events["event"].to_numpy() == event)


def another_tile(tile):
    return "5p" if tile != "5p" else "6s"


def _plant(logged, row, **change):
    """Plant `change` at event row `row` and require one problem, naming that row's deal."""
    problems, deal = planted(logged, row, **change), logged[0].loc[row, "deal"]
    assert len(problems) == 1 and problems[0].startswith(f"deal {deal}"), problems


def test_a_drawn_tile_changed_is_caught(logged):
    events = logged[0]
    row = rows_of(events, "draw")[100]
    _plant(logged, row, tile=another_tile(events.loc[row, "tile"]))


def test_a_discard_changed_is_caught(logged):
    events = logged[0]
    row = rows_of(events, "discard")[200]
    _plant(logged, row, tile=another_tile(events.loc[row, "tile"]))


@pytest.mark.parametrize("payment", ["pay_win", "pay_kong", "pay_chajiao"])
def test_a_payment_changed_is_caught(logged, payment):
    events = logged[0]
    row = rows_of(events, payment)[5]
    _plant(logged, row, money=events.loc[row, "money"] + 1)


def test_a_dropped_pass_is_caught(logged):
    """A pass on a discard nobody won: without it the seat left its choice unanswered. (On a discard another
    seat won, a seat that could claim and logged no pass claimed and was overruled: docs/event-logs.md.)"""
    events = logged[0]
    names = events["event"].to_numpy()
    passes = [row for row in rows_of(events, "pass") if names[row + 1] not in ("pass", "win_discard", "win_robbed_kong")]
    assert passes, "no pass on a discard nobody won: plant in a longer run"
    row = passes[0]
    _plant(logged, row, drop=True)


def test_a_wait_changed_is_caught(logged):
    events = logged[0]
    waits = rows_of(events, "wait")
    assert len(waits) > 0, "no 报叫 in the run: plant in a longer run"
    row = waits[0]
    waits_in_deal = set(events.loc[waits[events.loc[waits, "deal"].to_numpy() == events.loc[row, "deal"]], "tile"])
    other = next(tile for tile in ("1p", "2p", "3p", "4p") if tile not in waits_in_deal)
    _plant(logged, row, tile=other)


def test_a_wall_tile_changed_is_caught(logged):
    events = logged[0]
    row = rows_of(events, "wall")[72 * 3 + 40]
    _plant(logged, row, tile=another_tile(events.loc[row, "tile"]))


def test_the_last_tile_dropped_is_caught(logged):
    events = logged[0]
    row = rows_of(events, "last_tile")[0]
    _plant(logged, row, drop=True)


def test_a_declined_win_dropped_is_caught(logged):
    events = logged[0]
    declines = rows_of(events, "decline_win")
    assert len(declines) > 0, "no declined win in the run: plant in a longer run"
    row = declines[0]
    _plant(logged, row, drop=True)


def test_the_checker_compares_each_deal_with_its_record(logged):
    events, ruleset, records = logged
    changed = records.copy()
    changed.loc[7, "money_2"] += 1
    changed.loc[9, "fan_value_0"] = 999
    problems = check_events(events, ruleset, 4, changed)
    assert [problem.split(":")[0] for problem in problems] == ["deal 7", "deal 9"], problems


def test_a_deal_missing_from_the_logs_is_caught(logged):
    events, ruleset, records = logged
    problems = check_events(events[events["deal"] != 11], ruleset, 4, records)
    assert problems == ["deal 11: the logs do not have it"]


def test_every_new_event_occurs_in_the_runs(logged):
    """The plants above would prove nothing if the runs had none of the rows they change."""
    names = set(pd.unique(logged[0]["event"]))
    assert {"wall", "last_tile", "pass", "decline_win", "wait", "declare_ready"} <= names

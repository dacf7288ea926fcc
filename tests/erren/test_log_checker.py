"""Logs that witness their deals (docs/event-logs.md#what-a-log-witnesses): every logged 二人 deal rebuilds from its
log alone on the slow twin (tests/erren/erren_log_checker.py), and the checker reports each kind of planted fault.

The runs cover the three 二人 rulesets, players that pass, claim, double and decline oddly (random) beside those
that plan (value, defensive) and the strongest (ev), a run in sessions, and erren-challenge with the assists of
its levels on; a few hundred deals each keep this file to some 30 s once the engines are compiled.
"""

import dataclasses
import functools

import numpy as np
import pytest
from erren_log_checker import check_logged_run, logged_rows, record_of
from naive_game import (
    CHOW_LOWEST,
    DECLINE_WIN,
    DISCARD,
    DRAW,
    EXCHANGE_GIVES,
    EXCHANGE_TAKES,
    LAST_TILE,
    PASS,
    PAY_WIN,
    PICK,
    PUNG_GIVES,
    REPLACEMENT,
    WAIT,
    WALL,
    check_deal,
)

from sim.core.event_logs import DealLog
from sim.core.ruleset import load_ruleset
from sim.core.run_records import load_run, read_logs, read_records
from sim.runs import runner

# (ruleset, players, session length, deals)
LOGGED_RUNS = [
    ("erren", "random,greedy", 0, 400),
    ("erren", "value,defensive", 6, 300),
    ("erren-classic", "ev,random", 0, 200),
    ("erren-challenge", "greedy,random", 0, 300),
]


def logged_run(directory, ruleset, players, deals, session_length=0, seed=11):
    rules = load_ruleset(ruleset)
    seats = runner.seated_players(rules, players)
    config = runner.RunConfig(ruleset, seats.names, deals, seed, max(1, deals // 2), session_length)
    runner.run(config, directory, workers=1, logs=True)
    return directory


@pytest.mark.parametrize(("ruleset", "players", "session_length", "deals"), LOGGED_RUNS)
def test_every_logged_deal_rebuilds_from_its_log_and_agrees_with_the_records(tmp_path, ruleset, players, session_length, deals):
    directory = logged_run(tmp_path / "run", ruleset, players, deals, session_length)
    assert check_logged_run(directory) == deals


@functools.cache
def _sample(tmp_root):
    """A logged erren run of random players (every kind of row appears), as DealLogs the checker accepts."""
    directory = logged_run(tmp_root / "faults", "erren", "random,random", 300)
    config, ruleset = load_run(directory)
    records, events = read_records(directory, config, ruleset), read_logs(directory)
    rows, deals = logged_rows(events), events["deal"].to_numpy()
    logs = []
    for row in records.to_dict("records"):
        record, fans = record_of(row)
        logs.append(DealLog(record, fans, np.zeros(0, np.int64), rows[deals == record["deal"]]))
    return ruleset, logs


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return _sample(tmp_path_factory.mktemp("log-checker"))


def _change(rows, code, column, change, nth=0):
    """A copy of the rows with the nth row of `code` changed in `column`; None when the deal has no such row."""
    found = np.flatnonzero(rows[:, 0] == code)
    if len(found) <= nth:
        return None
    changed = rows.copy()
    changed[found[nth], column] = change(changed[found[nth], column])
    return changed


def _drop(rows, code):
    found = np.flatnonzero(rows[:, 0] == code)
    return None if not len(found) else np.delete(rows, found[0], axis=0)


def _other_kind(tile):
    return (tile + 1) % 34 if tile < 34 else 0


# A planted fault: how it changes a deal's rows (None: the deal has nothing to change).
FAULTS = {
    "a wall tile swapped for another kind": lambda rows: _change(rows, WALL, 2, _other_kind, nth=40),
    "a draw of another tile than the wall's front": lambda rows: _change(rows, DRAW, 2, _other_kind, nth=3),
    "a replacement of another tile than the wall's back": lambda rows: _change(rows, REPLACEMENT, 2, _other_kind),
    "a discard of a tile not held": lambda rows: _change(rows, DISCARD, 2, lambda tile: 33 if tile != 33 else 32, nth=2),
    "a payment off by one": lambda rows: _change(rows, PAY_WIN, 3, lambda amount: amount + 1),
    "a payment to the loser": lambda rows: _change(rows, PAY_WIN, 2, lambda seat: 1 - seat),
    "a pass dropped": lambda rows: _drop(rows, PASS),
    "a pass on another tile": lambda rows: _change(rows, PASS, 2, _other_kind),
    "a declined win dropped": lambda rows: _drop(rows, DECLINE_WIN),
    "a wait changed": lambda rows: _change(rows, WAIT, 2, _other_kind),
    "a wait dropped": lambda rows: _drop(rows, WAIT),
    "the last tile unmarked": lambda rows: _drop(rows, LAST_TILE),
    "a chow's lowest tile moved": lambda rows: _change(rows, CHOW_LOWEST, 2, lambda low: low + 1 if low % 9 < 6 else low - 1),
}


def _plant(ruleset, logs, fault, deals=5):
    """Plant `fault` in the first `deals` logs that have a row for it, each first checked sound as logged, and
    require the checker to report each planted deal by its number; returns how many were planted."""
    planted = 0
    for log in logs:
        check_deal(ruleset, log)
        rows = fault(log.events)
        if rows is None:
            continue
        with pytest.raises(AssertionError, match=f"deal {log.record['deal']}"):
            check_deal(ruleset, dataclasses.replace(log, events=rows))
        planted += 1
        if planted == deals:
            break
    return planted


@pytest.mark.parametrize("fault", FAULTS)
def test_the_checker_reports_a_planted_fault(sample, fault):
    ruleset, logs = sample
    assert _plant(ruleset, logs, FAULTS[fault]), f"no deal of the sample has a row to plant {fault!r} in"


def test_an_invented_pass_is_reported(sample):
    """A pass row after a discard the other seat could neither claim nor win on."""
    ruleset, logs = sample
    for log in logs:
        rows = log.events
        for index in np.flatnonzero(rows[:, 0] == DISCARD):
            after = rows[index + 1] if index + 1 < len(rows) else None
            if after is not None and after[0] == DRAW and after[1] != rows[index, 1]:
                invented = np.insert(rows, index + 1, [PASS, after[1], rows[index, 2], 0], axis=0)
                try:
                    check_deal(ruleset, dataclasses.replace(log, events=invented))
                except AssertionError as error:
                    if "pass row where" in str(error):
                        return
    pytest.fail("no invented pass was reported as one")


# ------------------------------------------------------------------------------------- 004's assists

ASSISTED = {"start_exchange": True, "pick_chance": 0.3, "pung_offer_chance": 0.2}


@functools.cache
def assisted_logs():
    """Deals of erren-challenge with the three assists of its levels on (as `mjsim challenge` plays them)."""
    from sim.erren import engine

    ruleset = dataclasses.replace(load_ruleset("erren-challenge"), **ASSISTED)
    players = engine.Players.parse("greedy,random")
    return ruleset, [engine.replay(ruleset, players, 9, deal) for deal in range(150)]


def test_deals_with_the_assists_rebuild_from_their_logs():
    """起始换牌, 换刻子 and 搓牌 move tiles between the player's hand and the wall; their rows and the rules say how."""
    ruleset, logs = assisted_logs()
    seen = set()
    for log in logs:
        check_deal(ruleset, log)
        seen |= set(log.events[:, 0].tolist()) & {EXCHANGE_GIVES, PICK, PUNG_GIVES}
    assert seen == {EXCHANGE_GIVES, PICK, PUNG_GIVES}


ASSIST_FAULTS = {
    "a picked kind that is not the next draw": lambda rows: _change(rows, PICK, 2, lambda kind: (kind + 1) % 34),
    "an exchange that gives back another tile": lambda rows: _change(rows, EXCHANGE_TAKES, 2, lambda kind: (kind + 1) % 34),
    "an offer of three answered with two": lambda rows: _drop(rows, PUNG_GIVES),
}


@pytest.mark.parametrize("fault", ASSIST_FAULTS)
def test_the_checker_reports_a_planted_fault_in_an_assist(fault):
    ruleset, logs = assisted_logs()
    assert _plant(ruleset, logs, ASSIST_FAULTS[fault]), f"no assisted deal has a row to plant {fault!r} in"

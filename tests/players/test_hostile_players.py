"""The player protocol against players that attack it (docs/write-a-player.md#where-a-player-runs): the seat,
not the player, owns what is legal, and nothing a player does to what it is shown changes the deal; every
way a player can leave its code is its failure, one error line and status 2, never an exit 0 before the
work is done; an external program's replies are bounded, its stray lines are faults, and its process group
ends with it; Ctrl-C stops any player within seconds; and a run says how many of its deals had a faulted
player, per seat."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from sim.core.ruleset import load_ruleset
from sim.families import family_of
from sim.players.user_players import PlayerFailure
from sim.runs.runner import RunConfig, run

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "players" / "hostile_players.py"
NUMBA_PLAYERS = ROOT / "tests" / "players" / "numba_players.py"
FAULT_BOT = ROOT / "tests" / "players" / "fault_bot.py"
MJSIM = [sys.executable, "-m", "sim.cli"]
TABLES = [("erren", 2), ("liangmen-xuezhan", 4)]


def _play(ruleset, texts, deals=40, seed=4):
    """The records of `deals` deals (closing the table's players after)."""
    ruleset = load_ruleset(ruleset)
    family = family_of(ruleset)
    players = family.parse_players(texts, len(texts))
    try:
        return family.engine.play(ruleset, players, seed, deals, validate=True)
    finally:
        players.close()


def _one_error_line(code, err, *fragments):
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.fixture(scope="module", autouse=True)
def _hosts_kept_open():
    """Each family's host kept open for the module (a table seated and played in it): the hostile numba
    player's loop is then compiled once per family, not once per test (sim.players.player_host)."""
    tables = []
    for name, seats in TABLES:
        ruleset = load_ruleset(name)
        family = family_of(ruleset)
        tables.append(family.parse_players([f"{NUMBA_PLAYERS}:hostile"] + ["greedy"] * (seats - 1), seats))
        family.engine.play(ruleset, tables[-1], 0, 1)
    yield
    for players in tables:
        players.close()


# ------------------------------------------------------------------------------------- what is legal


@pytest.mark.parametrize("ruleset,seats", TABLES)
def test_a_python_player_that_rewrites_its_legal_actions_is_refused(ruleset, seats):
    with pytest.raises(PlayerFailure, match=r"Forger answered 0, not a legal action, at deal 0, seat 0"):
        _play(ruleset, [f"{HOSTILE}:Forger"] + ["greedy"] * (seats - 1))


@pytest.mark.parametrize("ruleset,seats", TABLES)
def test_a_numba_player_that_rewrites_its_legal_actions_is_refused(ruleset, seats):
    with pytest.raises(PlayerFailure, match=r"hostile:mode=1 answered 0, not a legal action, at deal 0, seat 0"):
        _play(ruleset, [f"{NUMBA_PLAYERS}:hostile:mode=1"] + ["greedy"] * (seats - 1))


@pytest.mark.parametrize("ruleset,seats", TABLES)
def test_nothing_a_player_writes_into_its_observation_changes_the_deal(ruleset, seats):
    """A Python and a numba player that write into everything they are shown play the deals of a player that
    only reads (all three answer their first legal action)."""
    others = ["greedy"] * (seats - 1)
    reader = _play(ruleset, [f"{HOSTILE}:FirstLegal", *others], deals=60)
    for writer in (f"{HOSTILE}:Spoiler", f"{NUMBA_PLAYERS}:hostile"):
        written = _play(ruleset, [writer, *others], deals=60)
        for column, values in reader.columns.items():
            assert np.array_equal(values, written.columns[column]), (writer, column)
        assert (written.columns["violation"] == 0).all()


def test_a_player_that_changes_its_ruleset_changes_no_later_shard(tmp_path):
    """The Spoiler also zeroes the fan values of the ruleset it is shown; the worker plays both shards."""
    records = {}
    for player in ("FirstLegal", "Spoiler"):
        config = RunConfig("erren", (f"{HOSTILE}:{player}", "greedy"), deals=200, seed=3, shard_size=100)
        records[player] = run(config, tmp_path / player, workers=1).records
    columns = [name for name in records["FirstLegal"].columns if not name.startswith("win_chances_")]
    assert records["Spoiler"][columns].equals(records["FirstLegal"][columns])
    assert records["Spoiler"]["fan_total"].max() > 0


# ------------------------------------------------------------------------------------- leaving the code


@pytest.mark.parametrize("how, message", [
    ("system_exit", "': SystemExit: 0"),
    ("keyboard_interrupt", "': KeyboardInterrupt"),
    ("unprintable", "': Unprintable: (its message could not be read)"),
    ("thread", "': SystemExit: 0"),
    ("os_exit", "ended its worker process (exit status 0) at deal 2, seat 0, decision '"),
])
def test_every_way_out_of_a_players_act_is_its_failure(mjsim, how, message):
    code, out, err = mjsim("replay", "--deal", "2", "--players", f"{HOSTILE}:Exits:how={how},at=2,greedy")
    _one_error_line(code, err, f"Exits:how={how},at=2 ", "at deal 2, seat 0, decision '", message)


@pytest.mark.parametrize("player, message", [
    ("ExitsInReset", "raised at deal 0, seat 0, decision 'reset': SystemExit: 3"),
    ("ExitsWhenBuilt", "ended its worker process (exit status 0)"),
])
def test_a_player_that_leaves_before_its_first_decision_is_its_failure(mjsim, player, message):
    code, _, err = mjsim("replay", "--deal", "0", "--players", f"{HOSTILE}:{player},greedy")
    _one_error_line(code, err, message)


def test_a_module_that_exits_as_it_is_imported_is_its_failure(mjsim):
    code, _, err = mjsim("replay", "--deal", "0", "--players", f"{ROOT}/tests/players/exits_on_import.py:Player,greedy")
    _one_error_line(code, err, "exits_on_import.py failed to load: SystemExit: 0")


@pytest.mark.parametrize("command", [
    ["run", "--deals", "40", "--workers", "1"],
    ["duel", "PLAYER", "greedy", "--deals", "20"],
    ["league", "PLAYER", "greedy", "random", "--deals", "20"],
    ["replay", "--deal", "1"],
    ["challenge", "--runs", "2"],
])
def test_a_player_that_exits_stops_every_command_with_status_2(mjsim, tmp_path, command):
    player = f"{HOSTILE}:Exits:how=system_exit,at=1"
    arguments = [player if word == "PLAYER" else word for word in command]
    if command[0] in ("run", "replay", "challenge"):
        arguments += ["--players", f"{player},greedy"]
    if command[0] in ("run", "challenge"):
        arguments += ["--out", str(tmp_path / "out")]
    code, out, err = mjsim(*arguments)
    assert code == 2 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("error: ")
    assert not (tmp_path / "out" / "records").exists() or not list((tmp_path / "out" / "records").glob("*.parquet"))


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_player_that_ends_a_run_worker_is_named_with_its_deal(mjsim, tmp_path, workers):
    code, _, err = mjsim("run", "--deals", "600", "--shard-size", "200", "--workers", workers, "--out",
                         str(tmp_path / "run"), "--players", f"{HOSTILE}:Exits:how=os_exit,at=250,greedy")
    _one_error_line(code, err, "Exits:how=os_exit,at=250 ended its worker process (exit status 0) at deal 250, seat 0",
                    "while playing shard 1", "--resume")


# ------------------------------------------------------------------------------------- external programs


def _bot(mode):
    return f"exec:{sys.executable} {FAULT_BOT} {mode}"


def test_an_unreadable_exec_command_is_one_error_line(mjsim):
    code, _, err = mjsim("replay", "--players", "exec:python3 'unbalanced,greedy")
    _one_error_line(code, err, "the command cannot be read (No closing quotation)")


def _pids(folder: Path) -> list[int]:
    return [int(pid) for path in folder.glob("*.pids") for pid in path.read_text().split()]


def _alive(pids) -> list[int]:
    living = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            living.append(pid)
    return living


def _wait_for(condition, seconds=120.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_an_external_programs_children_end_with_the_command(mjsim, tmp_path, monkeypatch):
    """A program that ignores signals and whose child does too: after the run, neither is left."""
    monkeypatch.setenv("MJSIM_TEST_PIDS", str(tmp_path))
    code, _, err = mjsim("run", "--deals", "20", "--workers", "1", "--out", str(tmp_path / "run"),
                         "--players", f"{_bot('orphan')},greedy")
    assert code == 0, err
    pids = _pids(tmp_path)
    assert len(pids) == 2
    _wait_for(lambda: not _alive(pids), 10)


# ------------------------------------------------------------------------------------- Ctrl-C


def _interrupted(arguments, ready, tmp_path):
    """Start mjsim, wait for `ready()` (never a fixed sleep), press Ctrl-C, and return (status, stderr,
    seconds from Ctrl-C to the end)."""
    process = subprocess.Popen([*MJSIM, *arguments], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "MJSIM_TEST_PIDS": str(tmp_path)},
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        _wait_for(lambda: ready() or process.poll() is not None, 300)
        assert process.poll() is None, process.communicate()
        process.send_signal(signal.SIGINT)
        interrupted = time.monotonic()
        _, err = process.communicate(timeout=60)
        return process.returncode, err, time.monotonic() - interrupted
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.parametrize("command, looper", [
    (["replay", "--deal", "0"], f"{NUMBA_PLAYERS}:hostile:mode=2"),  # no signal stops a compiled loop
    (["run", "--deals", "40", "--workers", "2", "--shard-size", "20"], f"{HOSTILE}:Deaf"),  # ignores SIGTERM
])
def test_ctrl_c_stops_a_player_that_never_returns(tmp_path, command, looper):
    """The player loops for ever at its first decision; the other seat says when the deal has begun."""
    started = tmp_path / "started"
    arguments = [*command, "--players", f"{HOSTILE}:Announcer:path={started},{looper}"]
    if command[0] == "run":
        arguments += ["--out", str(tmp_path / "run")]
    code, err, seconds = _interrupted(arguments, started.exists, tmp_path)
    assert code == 130 and err.strip().splitlines()[-1] == "aborted" and "Traceback" not in err, err
    assert seconds < 10


def test_ctrl_c_ends_a_program_that_ignores_signals_and_its_children(tmp_path):
    arguments = ["run", "--deals", "4000", "--workers", "2", "--shard-size", "1000", "--out", str(tmp_path / "run"),
                 "--players", f"{_bot('orphan')},greedy"]
    code, err, seconds = _interrupted(arguments, lambda: len(_pids(tmp_path)) >= 4, tmp_path)
    assert code == 130 and "Traceback" not in err, err
    assert seconds < 10
    _wait_for(lambda: not _alive(_pids(tmp_path)), 10)


# ------------------------------------------------------------------------------------- faults are visible


def test_a_run_says_how_many_deals_each_seats_player_faulted_in(mjsim, tmp_path):
    directory = tmp_path / "run"
    code, out, err = mjsim("run", "--deals", "40", "--workers", "1", "--out", str(directory),
                           "--players", f"greedy,{_bot('illegal')}")
    assert code == 0, err
    line = f"player faults: seat 1 ({_bot('illegal')}) faulted in 20 of 40 deals (50.00%)"
    assert line in out
    code, out, err = mjsim("analyze", str(directory))
    assert code == 0 and line in out, err
    code, out, err = mjsim("report", str(directory))
    assert code == 0, err
    page = (directory / "report.html").read_text()
    assert "Player faults" in page and "faulted in 20 of 40 deals" in page

"""User players as a specification (docs/write-a-player.md): a Python class or an external program seated
by text beside the built-in heuristics, asked only what its seat may see, at every decision with a choice,
with exactly the legal actions; a broken player handled as documented; runs with user players still a
pure function of their configuration and seed."""

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from seated_deals import deal_frame as _frame
from seated_deals import play as _play

from sim.core.actions import N_ACTIONS, action_text
from sim.core.ruleset import load_ruleset
from sim.core.run_records import load_run, read_records
from sim.core.worker_processes import players_in_this_process
from sim.erren import engine
from sim.players import user_players
from sim.players.player_text import PlayerError
from sim.players.user_players import ACTIONS, PlayerFailure, is_user_player
from sim.runs.runner import RunConfig, run

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ROOT / "tests" / "players" / "python_players.py"
SIMPLE = ROOT / "examples" / "players" / "simple.py"
BOT = ROOT / "examples" / "players" / "json_bot.py"
FAULT_BOT = ROOT / "tests" / "players" / "fault_bot.py"
NUMBA_GREEDY = ROOT / "examples" / "players" / "numba_greedy.py"
RULESETS = ("erren", "erren-classic", "erren-challenge")



# ------------------------------------------------------------------------------------- seating


@pytest.mark.parametrize(
    "text, user",
    [("greedy", False), ("greedy:claim=0", False), ("value:speed=4", False), ("a/b.py:Player", True),
     ("pkg.module:Player:depth=2", True), ("exec:./bot --fast", True), ("module:Player", True)],
)
def test_a_text_names_a_user_player_by_its_form(text, user):
    assert is_user_player(text, engine.heuristics.NAMES) == user


@pytest.mark.parametrize(
    "text, message",
    [(f"{ROOT}/no/such.py:Player", "no file"), (f"{PLAYERS}:Missing", "has no Missing"),
     (f"{PLAYERS}:NotAPlayer", r"no act\(observation\)"), (f"{PLAYERS}:Raiser:at", "key=value"),
     (f"{PLAYERS}:Raiser:colour=red", "failed"), ("no_such_module_here:Player", "cannot import"),
     ("exec:no-such-program-anywhere", "no program"), ("exec:", "needs a command")],
)
def test_a_user_player_that_cannot_be_seated_is_one_clear_error(text, message):
    """What can be checked without running the player's code is refused as it is seated; the rest when the
    worker that plays it loads it."""
    with pytest.raises(PlayerError, match=message):
        players = engine.Players.parse([text, "greedy"])
        try:
            engine.play(load_ruleset("erren"), players, seed=1, n_deals=1)
        finally:
            players.close()


@pytest.mark.parametrize("make", [os.mkfifo, os.mkdir], ids=["a named pipe", "a directory"])
def test_a_player_file_that_is_not_a_regular_file_is_refused_before_it_is_read(tmp_path, make):
    """Importing a pipe would wait for ever for its writer."""
    path = tmp_path / "player.py"
    make(path)
    with pytest.raises(PlayerError, match="is not a regular file"):
        engine.Players.parse([f"{path}:Player", "greedy"])


def test_every_action_has_a_stable_code_and_a_readable_text():
    assert ACTIONS[2].text == "discard 3m" and ACTIONS[64 + 30].text == "ready 4z"
    assert action_text(7 * 64 + 3) == "chow 456m" and action_text(8 * 64 + 31) == "pong 5z"
    assert len({action.text for action in ACTIONS.values()}) == len(ACTIONS)
    assert all(0 <= code < N_ACTIONS for code in ACTIONS)


# ------------------------------------------------------------------------------------- what a player is asked


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_legal_actions_are_exactly_what_the_rules_allow(ruleset):
    with players_in_this_process():  # to read the auditor's findings
        players = engine.Players.parse([f"{PLAYERS}:Auditor:ruleset={ruleset}", "random"])
        auditor = players.users[0].player
        records = engine.play(load_ruleset(ruleset), players, seed=3, n_deals=400, validate=True)
    assert auditor.decisions > 3000
    assert not auditor.mismatches, auditor.mismatches[:3]
    assert not records.columns["violation"].any()


@pytest.mark.parametrize("heuristic", ["greedy", "value", "defensive:threat_wall=20", "greedy:double_below=30"])
def test_a_user_seat_answering_like_a_heuristic_plays_the_heuristics_deals(heuristic):
    """The asking loop is the engine: a Python seat that answers what a built-in heuristic would gives the
    records, fans and event logs of that heuristic, deal for deal."""
    ruleset = load_ruleset("erren")
    builtin = engine.play(ruleset, engine.Players.parse([heuristic, "value"]), seed=8, n_deals=500, session_length=4)
    user = engine.play(ruleset, engine.Players.parse([f"{PLAYERS}:Builtin:name={heuristic}", "value"]), seed=8,
                       n_deals=500, session_length=4)
    assert _frame(user).equals(_frame(builtin))
    assert np.array_equal(user.fans, builtin.fans)
    for deal in (0, 7, 199):
        a = engine.replay(ruleset, engine.Players.parse([heuristic, "value"]), seed=8, deal=deal)
        b = engine.replay(ruleset, engine.Players.parse([f"{PLAYERS}:Builtin:name={heuristic}", "value"]), seed=8, deal=deal)
        assert np.array_equal(a.events, b.events)


class _Spy:
    """Records what it observes, and checks it sees only its own seat's concealed tiles."""

    def __init__(self, ruleset):
        self.ruleset, self.seen = ruleset, []

    def reset(self, seat, ruleset, rng):
        assert ruleset.name == self.ruleset.name and isinstance(rng, np.random.Generator)
        self.seat = seat

    def act(self, observation):
        assert observation.seat == self.seat
        state = observation._state
        assert np.array_equal(observation.hand, state.hands[self.seat])
        opponent = observation.opponent_hand
        assert (opponent is not None) == observation.ready[self.seat]
        assert observation.legal_mask.sum() == len(observation.legal_actions) >= 2
        if observation.decision == "turn":
            assert observation.hand.sum() + 3 * observation.n_melds[self.seat] == 14
        json.dumps(observation.to_json())
        self.seen.append(observation.decision)
        return observation.legal_actions[-1]


def test_a_player_observes_its_own_seat_and_only_decisions_with_a_choice():
    ruleset = load_ruleset("erren")
    spy = _Spy(ruleset)
    players = engine.Players.parse(["greedy", "greedy"])
    players = engine.Players(players.kinds.copy(), players.parameters, ("greedy", "spy"), (None, _Seat(spy)))
    players.kinds[1] = engine.USER
    records = engine.play(ruleset, players, seed=4, n_deals=300, validate=True)
    assert not records.columns["violation"].any()
    assert {"turn", "claim"} <= set(spy.seen)


class _Seat:
    """A PythonSeat around an object, without loading it from a file."""

    def __new__(cls, player):
        from sim.players.user_players import PythonSeat

        return PythonSeat("spy", player)


# ------------------------------------------------------------------------------------- the examples


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("player", [f"{SIMPLE}:Isolated", f"{SIMPLE}:Coin:win=0.9", f"exec:{sys.executable} {BOT}"])
def test_the_example_players_play_legal_deals_to_the_end(ruleset, player):
    deals = 60 if player.startswith("exec") else 300
    records = _play(ruleset, [player, "greedy"], deals)
    assert not records.columns["violation"].any()
    assert (records.columns["winner"] == 0).any() or player.endswith("Isolated")


def test_a_stochastic_player_replays_exactly_from_the_seed():
    first = _play("erren", [f"{SIMPLE}:Coin", "greedy"], 300, seed=9)
    again = _play("erren", [f"{SIMPLE}:Coin", "greedy"], 300, seed=9)
    other = _play("erren", [f"{SIMPLE}:Coin", "greedy"], 300, seed=10)
    part = _play("erren", [f"{SIMPLE}:Coin", "greedy"], 100, seed=9, first_deal=200)
    assert _frame(first).equals(_frame(again)) and not _frame(first).equals(_frame(other))
    assert _frame(part).equals(_frame(first).iloc[200:].reset_index(drop=True))


def test_a_run_with_a_stochastic_player_is_the_same_on_one_worker_or_two(tmp_path):
    config = RunConfig("erren", (f"{SIMPLE}:Coin:win=0.5", "greedy"), deals=600, seed=12, shard_size=200)
    one = run(config, tmp_path / "one", workers=1).records
    two = run(config, tmp_path / "two", workers=2).records
    assert one.equals(two)
    assert one.equals(read_records(tmp_path / "two", *load_run(tmp_path / "two")))


# ------------------------------------------------------------------------------------- broken players


def test_a_python_player_that_raises_stops_the_batch_naming_the_deal_and_decision():
    with pytest.raises(PlayerFailure, match=r"raised at deal 5, seat 0, decision '(turn|claim|rob|opening ready)'.*gives up"):
        _play("erren", [f"{PLAYERS}:Raiser:at=5", "greedy"], 50)


def test_a_python_player_answering_illegally_stops_the_batch_listing_the_legal_actions():
    with pytest.raises(PlayerFailure, match=r"answered 'discard 9z', not a legal action, at deal 0.*legal: "):
        _play("erren", [f"{PLAYERS}:Illegal", "greedy"], 5)


@pytest.mark.parametrize("mode, why", [
    ("malformed", "sent a malformed reply"), ("illegal", "not a legal action"), ("late", "did not answer within"),
    ("crash", "has exited"), ("nested", "nested more than 16 levels deep"),
    ("huge", "sent a reply longer than 10,000 bytes"), ("twice", "wrote more than one line for one request"),
    ("unsolicited", ""),  # caught before the next request ("not asked for"), or read as a malformed reply
])
def test_a_faulty_external_program_forfeits_its_choices_for_the_deal(mode, why, monkeypatch, capfd):
    """The documented policy: the seat plays the engine's safe default for the rest of the deal, the deal's
    record says so (for the deal and the seat), stderr names the player, the deal and the decision, and the
    next deal asks again (a program that died, or was ended for being out of step, is started again)."""
    monkeypatch.setenv("MJSIM_EXEC_TIMEOUT", "0.5")
    deals = 6
    records = _play("erren", [f"exec:{sys.executable} {FAULT_BOT} {mode}", "greedy"], deals)
    violations = records.columns["violation"]
    faulted = np.flatnonzero(violations == engine.PLAYER_FAULT)
    assert faulted.tolist() == [deal for deal in range(deals) if deal % 2 == 1]
    assert set(violations[violations != engine.PLAYER_FAULT]) == {0}
    assert np.array_equal(records.columns["faulted_0"], violations == engine.PLAYER_FAULT)
    assert not records.columns["faulted_1"].any()
    err = capfd.readouterr().err
    assert "at deal 1, seat 0, decision" in err and "safe default" in err and why in err
    assert "Traceback" not in err


def test_an_external_program_that_stops_reading_is_ended_not_waited_for(monkeypatch, capfd):
    """A program that no longer reads its input fills the pipe: writing to it gives up after the timeout,
    as reading does, and the run goes on with a fresh program."""
    monkeypatch.setenv("MJSIM_EXEC_TIMEOUT", "0.5")
    monkeypatch.setattr(user_players, "FAULTS_REPORTED", 10**6)  # its stale answers are faults too: report all
    records = _play("erren", [f"exec:{sys.executable} {FAULT_BOT} deaf", "greedy"], 400)
    assert len(records) == 400 and (records.columns["violation"] == engine.PLAYER_FAULT).any()
    err = capfd.readouterr().err  # its flood of answers is out of step before the requests fill the pipe
    assert "wrote more than one line for one request" in err or "did not read its input within 0.5 s" in err


# ------------------------------------------------------------------------------------- every command


def test_run_duel_league_and_replay_seat_user_players(mjsim, tmp_path):
    coin, bot = f"{SIMPLE}:Coin:win=0.8", f"exec:{sys.executable} {BOT}"
    code, out, err = mjsim("run", "--deals", "400", "--shard-size", "200", "--workers", "1",
                           "--players", f"{coin},{bot}", "--out", str(tmp_path / "run"))
    assert code == 0, err
    assert "400 deals" in out
    metadata = json.loads((tmp_path / "run" / "run.json").read_text())
    assert metadata["players"] == [coin, bot]
    code, out, err = mjsim("duel", coin, "greedy", "--deals", "200")
    assert code == 0, err
    assert coin in out and "difference" in out
    code, out, err = mjsim("league", f"{SIMPLE}:Isolated", bot, f"{NUMBA_GREEDY}:act", "greedy", "--deals", "100")
    assert code == 0, err
    assert "Isolated" in out and "numba_greedy" in out
    code, out, err = mjsim("replay", "--deal", "3", "--players", f"{coin},greedy")
    assert code == 0, err
    assert "result:" in out and coin in out


def test_a_player_that_raises_in_a_run_exits_2_and_leaves_the_finished_shards_for_resume(mjsim, tmp_path, monkeypatch):
    directory = tmp_path / "run"
    arguments = ["run", "--deals", "600", "--shard-size", "200", "--workers", "1", "--out", str(directory),
                 "--players", f"{PLAYERS}:Raiser:at=450,greedy"]
    code, out, err = mjsim(*arguments)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: player {PLAYERS}:Raiser:at=450 raised at deal 450, seat 0")
    assert lines[0].endswith("RuntimeError: the test player gives up")
    assert sorted(path.name for path in (directory / "records").glob("*.parquet")) == [
        "shard-000000.parquet", "shard-000001.parquet"]
    monkeypatch.setenv("MJSIM_TEST_CALM", "1")
    code, out, err = mjsim(*arguments, "--resume")
    assert code == 0, err
    code, _, err = mjsim(*arguments[:-4], "--out", str(tmp_path / "clean"), "--players", f"{PLAYERS}:Raiser:at=450,greedy")
    assert code == 0, err
    assert read_records(directory, *load_run(directory)).equals(read_records(tmp_path / "clean", *load_run(tmp_path / "clean")))


def test_a_xuezhan_run_and_duel_seat_python_and_external_players(mjsim, tmp_path):
    coin, bot = f"{SIMPLE}:Coin", f"exec:{sys.executable} {BOT}"
    code, out, err = mjsim("run", "--ruleset", "liangmen-xuezhan", "--deals", "100", "--workers", "1",
                           "--players", f"{coin},greedy,{bot},greedy", "--out", str(tmp_path / "run"))
    assert code == 0, err
    assert "100 deals" in out
    code, out, err = mjsim("duel", "--ruleset", "sanren-liangfang", coin, "greedy", "--deals", "50")
    assert code == 0, err
    assert coin in out
    code, out, err = mjsim("run", "--ruleset", "liangmen-xuezhan", "--deals", "10", "--players",
                           f"{ROOT}/examples/players/numba_greedy.py:act,greedy,greedy,greedy", "--out", str(tmp_path / "numba"))
    assert code == 2 and "does not compile against the 血战 observation" in err  # a 二人 player, refused in one line
    assert len(err.strip().splitlines()) == 1

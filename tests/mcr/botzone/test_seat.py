"""Botzone bots seated at the MCR table (sim/mcr/botzone/seat.py): the example bot, written from Botzone's
documentation, plays whole deals in both of Botzone's modes, in `mjsim run` and `mjsim duel`; a bot that crashes,
answers an illegal move or a malformed line, or overruns the time limit is held to what an `exec:` program is
held to (docs/write-a-player.md#any-language): its seat plays the safe default for the rest of the deal, the
record says so, one line on standard error names the bot, the deal and the seat, and the run goes on."""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.core.ruleset import load_ruleset
from sim.mcr import engine as E

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE_BOT = ROOT / "examples" / "players" / "botzone_bot.py"
FAULTY_BOT = Path(__file__).resolve().parent / "faulty_bot.py"
RULESET = load_ruleset("mcr")
DEALS = 6


def bot(*arguments) -> str:
    return f"botzone:{sys.executable} {' '.join(map(str, arguments))}"


def lineup(first: str) -> list[str]:
    return [first, "greedy", "greedy", "greedy"]


def play(first: str, deals: int = DEALS):
    return E.play(RULESET, lineup(first), seed=3, n_deals=deals, validate=True).columns


@pytest.fixture(scope="module")
def example_deals():
    """The example bot (ponging pairs) in seat 0, started afresh at each request and kept running."""
    return {mode: play(bot(EXAMPLE_BOT, "--pong", *flags)) for mode, flags in
            (("afresh", ()), ("kept running", ("--keep-running",)))}


@pytest.mark.parametrize("mode", ["afresh", "kept running"])
def test_the_example_bot_plays_whole_deals_legally_and_without_a_fault(example_deals, mode):
    columns = example_deals[mode]
    assert (columns["violation"] == 0).all(), [E.VIOLATIONS[v] for v in np.unique(columns["violation"]) if v]
    assert (columns["faulted_0"] == 0).all()


def test_a_bots_mode_does_not_change_its_play(example_deals):
    afresh, running = example_deals["afresh"], example_deals["kept running"]
    for name in afresh:
        assert np.array_equal(afresh[name], running[name]), name


def test_the_bots_claims_are_made_at_the_table(example_deals):
    """With --pong it pongs pairs (its pong names the discard that follows): some deal shows its melds; the
    same bot without --pong never melds, since it answers nothing but PASS, PLAY and HU."""
    assert example_deals["kept running"]["melds_0"].max() > 0
    assert play(bot(EXAMPLE_BOT, "--keep-running"), deals=3)["melds_0"].max() == 0


@pytest.mark.parametrize("flags", [(), ("--keep-running",)], ids=["afresh", "kept running"])
def test_mjsim_run_seats_the_example_bot(mjsim, tmp_path, flags):
    player = bot(EXAMPLE_BOT, *flags)
    code, out, err = mjsim("run", "--ruleset", "mcr", "--players", ",".join(lineup(player)), "--deals", "2",
                           "--workers", "1", "--out", str(tmp_path / "run"))
    assert code == 0, err
    assert f"2 deals of mcr, {player} v greedy v greedy v greedy" in out
    records = pd.read_parquet(tmp_path / "run" / "records")
    assert len(records) == 2 and (records["faulted_0"] == 0).all()


@pytest.mark.parametrize("flags", [(), ("--keep-running",)], ids=["afresh", "kept running"])
def test_mjsim_duel_seats_the_example_bot_against_greedy(mjsim, flags):
    player = bot(EXAMPLE_BOT, *flags)
    code, out, err = mjsim("duel", player, "greedy", "--ruleset", "mcr", "--deals", "2", "--no-variance-reduction")
    assert code == 0, err
    assert "2 walls, each played 4 times with the seats rotated" in out
    assert player in out and "mjsim: player" not in err


FAULTS = {
    "crash": "exited before answering '2 ",
    "illegal": "answered 'HU' to '2 ",
    "malformed": "answered 'HELLO THERE' to '2 ",
    "slow": "did not answer '2 ",
}


@pytest.mark.parametrize("behaviour", FAULTS)
def test_a_misbehaving_bot_faults_its_deal_and_the_run_goes_on(mjsim, tmp_path, monkeypatch, behaviour):
    monkeypatch.setenv("MJSIM_EXEC_TIMEOUT", "1")
    player = bot(FAULTY_BOT, behaviour)
    code, _, err = mjsim("run", "--ruleset", "mcr", "--players", ",".join(lineup(player)), "--deals", "2",
                         "--workers", "1", "--out", str(tmp_path / "run"))
    assert code == 0, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("mjsim: player")]
    assert len(lines) == 2, err  # one a deal: the bot is not asked again in the deal it faulted in
    for deal, line in enumerate(lines):
        assert line.startswith(f"mjsim: player {player} {FAULTS[behaviour]}")
        assert f"at deal {deal}, seat 0, decision 'turn'; its seat plays the safe default" in line
    records = pd.read_parquet(tmp_path / "run" / "records")
    assert (records["faulted_0"] == 1).all() and (records["violation"] == E.PLAYER_FAULT).all()
    assert (records[["faulted_1", "faulted_2", "faulted_3"]] == 0).all().all()


def test_the_illegal_move_is_named_with_the_moves_the_engine_offered(mjsim, tmp_path):
    code, _, err = mjsim("run", "--ruleset", "mcr", "--players", ",".join(lineup(bot(FAULTY_BOT, "illegal"))),
                         "--deals", "1", "--workers", "1", "--out", str(tmp_path / "run"))
    assert code == 0
    assert "not a legal action, (legal: discard " in err

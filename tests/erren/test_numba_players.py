"""Numba players at a 二人 table as a specification (docs/write-a-player.md#a-numba-player): seated by the same
texts as Python players and called inside the engine's loop, the example re-writing greedy plays greedy's deals,
and a numba player that raises or answers illegally stops the batch, named."""

from pathlib import Path

import pytest
from seated_deals import deal_frame as _frame
from seated_deals import play as _play

from sim.players.user_players import PlayerFailure

ROOT = Path(__file__).resolve().parents[2]
NUMBA_GREEDY = ROOT / "examples" / "players" / "numba_greedy.py"
NUMBA_PLAYERS = ROOT / "tests" / "players" / "numba_players.py"
RULESETS = ("erren", "erren-classic", "erren-challenge")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_numba_example_plays_greedys_deals_in_either_seat(ruleset):
    """examples/players/numba_greedy.py re-writes greedy on the numba interface alone: its records and fans
    are greedy's, deal for deal, which pins what the numba observation shows and when the seat is asked."""
    builtin = _play(ruleset, ["greedy", "greedy"], 1500, session_length=4)
    for seats in ([f"{NUMBA_GREEDY}:act", "greedy"], ["greedy", f"{NUMBA_GREEDY}:act"]):
        assert _frame(_play(ruleset, seats, 1500, session_length=4)).equals(_frame(builtin))
    without_claims = _play(ruleset, [f"{NUMBA_GREEDY}:act:claim=0", "greedy"], 300)
    assert _frame(without_claims).equals(_frame(_play(ruleset, ["greedy:claim=0", "greedy"], 300)))


def test_a_numba_player_that_raises_stops_the_batch_naming_the_deal_and_decision():
    with pytest.raises(PlayerFailure, match=r"raised ValueError: the test player gives up at deal 0, seat 1, decision 'turn'"):
        _play("erren", ["greedy", f"{NUMBA_PLAYERS}:raises:turns=2"], 5)


def test_a_numba_player_answering_illegally_stops_the_batch():
    with pytest.raises(PlayerFailure, match=r"numba_players.py:illegal answered 9999, not a legal action, at deal 0"):
        _play("erren", [f"{NUMBA_PLAYERS}:illegal", "greedy"], 5)

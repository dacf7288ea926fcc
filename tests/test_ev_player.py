"""The expected-value player `ev` (sim/erren/ev.py, docs/engine-and-players.md#ev-the-expected-value-player): seated by name like a
heuristic, it keeps every rule of the table, its race arithmetic agrees with a round-by-round walk, and it
beats greedy on duplicate walls."""

import itertools

import naive
import numpy as np
import pytest

from analysis.rooms import Room
from sim.duel import duel
from sim.erren import engine, ev
from sim.families import family_of
from sim.player_text import PlayerError
from sim.ruleset import load_ruleset
from sim.runner import RunConfig, default_directory

FANS = Room("fans", stake=1, fee=0, min_entry=0, max_entry=0)


def test_ev_is_seated_by_name_with_every_parameter_in_its_canonical_text():
    players = engine.Players.parse("ev:double=0,greedy")
    assert players.names[0].startswith("ev:claim=1,ready=1,double=0,")
    assert players.names[0].count("=") == len(ev.DEFAULTS)
    assert family_of(load_ruleset("erren")).player_name("ev") == engine.Players.parse("ev,ev").names[0]
    assert default_directory(RunConfig("erren", ("ev", "greedy"), deals=10, seed=1)).name == "erren-ev-v-greedy-seed1"
    assert default_directory(RunConfig("erren", ("ev:double=0", "greedy"), deals=10, seed=1)).name == "erren-ev-double0-v-greedy-seed1"


@pytest.mark.parametrize("text", ["ev:depth=2,greedy", "ev:double=x,greedy"])
def test_ev_with_a_wrong_parameter_is_one_clear_error(text):
    with pytest.raises(PlayerError, match="ev"):
        engine.Players.parse(text)


@pytest.mark.parametrize(
    "self_rate, ron_rate, hazard, rounds",
    list(itertools.product([0.0, 0.07, 0.3], [0.0, 0.05], [0.0, 0.04, 0.2], [0, 1, 7, 30])),
)
def test_the_ready_race_in_closed_form_is_the_round_by_round_walk(self_rate, ron_rate, hazard, rounds):
    closed = ev._ready_race.py_func(self_rate, 21.0, ron_rate, 13.0, hazard, 17.0, rounds)
    assert closed == pytest.approx(naive.ready_race(self_rate, 21.0, ron_rate, 13.0, hazard, 17.0, rounds), abs=1e-12)


@pytest.mark.parametrize("ruleset", ["erren", "erren-classic", "erren-challenge"])
def test_ev_breaks_no_rule_of_the_table(ruleset):
    for pairing in ("ev,greedy", "random,ev"):
        records = engine.play(load_ruleset(ruleset), engine.Players.parse(pairing), seed=13, n_deals=1500,
                              validate=True)
        violations = np.flatnonzero(records.columns["violation"])
        assert not violations.size, f"{pairing}, deal {violations[0]}: {engine.VIOLATIONS[records.columns['violation'][violations[0]]]}"
        assert (records.columns["winner"] >= 0).mean() > 0.5


def test_ev_wins_more_beans_than_greedy_on_duplicate_walls():
    result = duel(load_ruleset("erren"), "ev", "greedy", 2000, 5, FANS)
    assert result.difference > 0 and result.z > 3

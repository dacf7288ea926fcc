"""The expected-value player `ev` (sim/erren/ev.py, docs/engine-and-players.md#ev-the-expected-value-player): seated by name like a
heuristic, it keeps every rule of the table, its race arithmetic agrees with a round-by-round walk, and it
beats greedy on duplicate walls."""

import itertools

import naive
import numpy as np
import pytest

from sim.core.rooms import Room
from sim.core.ruleset import load_ruleset
from sim.erren import engine, ev
from sim.families import family_of
from sim.players import win_race
from sim.players.player_text import PlayerError
from sim.runs.duel import duel
from sim.runs.runner import RunConfig, default_directory, run

FANS = Room("fans", stake=1, fee=0, min_entry=0, max_entry=0)


def test_ev_is_seated_by_name_with_every_parameter_in_its_canonical_text():
    players = engine.Players.parse("ev:double=0,greedy")
    assert players.names[0].startswith("ev:claim=1,ready=1,double=0,")
    assert players.names[0].count("=") == len(ev.DEFAULTS)
    assert family_of(load_ruleset("erren")).player_name("ev") == engine.Players.parse("ev,ev").names[0]
    assert default_directory(RunConfig("erren", ("ev", "greedy"), deals=10, seed=1)).name == "erren-ev-v-greedy-seed1"
    assert default_directory(RunConfig("erren", ("ev:double=0", "greedy"), deals=10, seed=1)).name == "erren-ev-double0-v-greedy-seed1"


@pytest.mark.parametrize("text", ["ev:width=2,greedy", "ev:double=x,greedy", "ev:depth=3,greedy"])
def test_ev_with_a_wrong_parameter_is_one_clear_error(text):
    with pytest.raises(PlayerError, match="ev"):
        engine.Players.parse(text)


def _hazards(first, growth, rounds):
    """A hazard for every number of rounds left, growing towards the end of the deal."""
    return np.array([0.0] + [min(0.9, first + growth * (rounds - left)) for left in range(1, rounds + 1)])


@pytest.mark.parametrize(
    "self_rate, ron_rate, hazard, rounds",
    list(itertools.product([0.0, 0.07, 0.3], [0.0, 0.05], [0.0, 0.04, 0.2], [0, 1, 7, 30])),
)
def test_the_ready_race_walked_backwards_is_the_round_by_round_walk(self_rate, ron_rate, hazard, rounds):
    hazards = _hazards(hazard, hazard / 10, rounds)
    table = np.zeros((2, rounds + 1))
    win_race.ready_race_table.py_func(self_rate, 21.0, ron_rate, 13.0, hazards, 17.0, rounds, table)
    expected, won = naive.ready_race(self_rate, 21.0, ron_rate, 13.0, hazards, 17.0, rounds)
    assert table[0, rounds] == pytest.approx(expected, abs=1e-12)
    assert table[1, rounds] == pytest.approx(won, abs=1e-12)


@pytest.mark.parametrize(
    "distance, advance, self_rate, ron_rate, hazard, rounds",
    list(itertools.product([0, 1, 3], [0.0, 0.15, 0.6], [0.0, 0.08], [0.0, 0.05], [0.0, 0.1], [0, 1, 9, 25])),
)
def test_the_walk_from_far_is_its_recursion(distance, advance, self_rate, ron_rate, hazard, rounds):
    hazards = _hazards(hazard, hazard / 20, rounds)
    levels = np.zeros(win_race.MAX_LEVELS)
    walked = win_race.far_chance.py_func(distance, advance, self_rate, ron_rate, hazards, rounds, levels)
    assert walked == pytest.approx(naive.far_chance(distance, advance, self_rate, ron_rate, hazards, rounds), abs=1e-12)


def test_a_ready_walk_is_the_ready_race():
    hazards = _hazards(0.05, 0.01, 12)
    levels, table = np.zeros(win_race.MAX_LEVELS), np.zeros((2, 13))
    walked = win_race.far_chance.py_func(0, 0.3, 0.07, 0.04, hazards, 12, levels)
    win_race.ready_race_table.py_func(0.07, 1.0, 0.04, 1.0, hazards, 0.0, 12, table)
    assert walked == pytest.approx(table[1, 12], abs=1e-12)


@pytest.mark.parametrize(
    "start, advance, win_rate, played, rounds",
    list(itertools.product([0.0, 1.0, 2.5, 3.2], [0.0, 0.3, 0.8], [0.0, 0.15, 1.0], [0, 4], [0, 1, 12])),
)
def test_the_opponents_hazards_are_its_paths_counted(start, advance, win_rate, played, rounds):
    levels, hazards = np.zeros(win_race.MAX_LEVELS), np.zeros(rounds + 1)
    ready_now = win_race.opponent_hazards.py_func(start, advance, win_rate, played, rounds, levels, hazards)
    expected_ready, expected = naive.opponent_hazards(start, advance, win_rate, played, rounds)
    assert ready_now == pytest.approx(expected_ready, abs=1e-12)
    assert hazards == pytest.approx(np.array(expected), abs=1e-12)


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


def _calibration(ruleset, players, deals, seed, tmp_path):
    directory = tmp_path / "run"
    result = run(RunConfig(ruleset, players, deals, seed, shard_size=deals), directory, workers=1)
    return result.calibration


def test_evs_chances_of_winning_come_true(tmp_path):
    """The calibration table of a run against greedy (deals other than those its curves were fitted on):
    every tenth of ev's reports holds zero in its gap's interval."""
    table = _calibration("erren", ("ev", "greedy"), 4_000, 11, tmp_path)
    assert table["reports"].sum() > 4_000 * 5
    assert table["within"].all(), table[["bucket", "reports", "mean_chance", "win_share", "gap_low", "gap_high"]]
    spread = table["mean_chance"].max() - table["mean_chance"].min()
    assert spread > 0.3  # and they say something: ev tells its likely wins from its unlikely ones

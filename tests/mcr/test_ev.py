"""`ev` at the MCR table (sim/mcr/ev.py, docs/engine-and-players.md#at-the-mcr-table): seated by name like
a heuristic, it keeps every rule of the table, values a wait by the ruleset's own fans and minimum (a wait
below the minimum is worth nothing) and the points MCR pays, and takes more points than greedy on the same
walls."""

import dataclasses

import numpy as np
import pytest

from kernels.fan_ids import SELF_DRAWN_FLAG, Fan
from kernels.tiles import N_KINDS
from sim.core.notation import parse_tiles
from sim.core.rooms import Room
from sim.core.ruleset import load_ruleset
from sim.families import family_of
from sim.mcr import engine, ev
from sim.mcr.observation import NumbaWork
from sim.mcr.win_value import new_fan_work, score_win
from sim.players.player_text import PlayerError
from sim.runs.duel import duel
from sim.runs.runner import RunConfig, default_directory, run

RULESET = load_ruleset("mcr")
POINTS = Room("points", stake=1, fee=0, min_entry=0, max_entry=0)
# 234m 567p 345s 678s and a lone 南 waiting on its pair: 单钓将, 连六 and 门前清 (不求人 self-drawn), below 8 fans
SMALL_WAIT = "234m567p345678s2z"
LONE_WIND = 28  # 南 (2z)


def test_ev_is_seated_by_name_with_every_parameter_in_its_canonical_text():
    players = engine.Players.parse("ev:claim=0,greedy,greedy,greedy")
    assert players.names[0].startswith("ev:claim=0,ron_share=0.5,")
    assert players.names[0].count("=") == len(ev.DEFAULTS)
    assert players.kinds[0] == engine.NUMBA
    assert family_of(RULESET).player_name("ev") == engine.Players.parse("ev,ev,ev,ev").names[0]
    config = RunConfig("mcr", ("ev", "greedy", "greedy", "greedy"), deals=10, seed=1)
    assert default_directory(config).name == "mcr-ev-v-greedy-v-greedy-v-greedy-seed1"


@pytest.mark.parametrize("text", ["ev:depth=2", "ev:ron_share=1.5", "ev:claim=yes", "ev:double=1"])
def test_ev_with_a_wrong_parameter_is_one_clear_error(text):
    with pytest.raises(PlayerError, match="ev"):
        engine.Players.parse(f"{text},greedy,greedy,greedy")


def _rates(ruleset, flowers=0.0):
    """ev's waits (sim.mcr.ev._waits) of SMALL_WAIT under `ruleset`, every copy of 南 live."""
    rules, _ = engine.kernel_rules(ruleset)
    hand = parse_tiles(SMALL_WAIT)
    unseen = np.zeros(N_KINDS, np.int8)
    unseen[LONE_WIND] = 3
    work = NumbaWork(np.zeros((6, 10), np.int16), np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.int64),
                     np.zeros(N_KINDS, np.int8), new_fan_work())
    base = float(ruleset.family_switches.base)
    race = ev.Race(100.0, base, base, 0.01, base, flowers)
    rates = np.zeros(4)
    ev._waits(hand, 0, np.zeros((4, 2), np.int8), unseen, rules, work, 0, race, rates)
    return rates, rules, hand, work


def _fans(rules, hand, work, flags):
    return score_win(hand, np.zeros((4, 2), np.int8), 0, LONE_WIND, flags, 0, rules, work.fans)


def test_a_wait_below_the_rulesets_minimum_is_worth_nothing():
    rates, rules, hand, work = _rates(RULESET)
    assert 0 < _fans(rules, hand, work, SELF_DRAWN_FLAG) < RULESET.min_fan  # the premise: a win, too small
    assert list(rates) == [0.0, 0.0, 0.0, 0.0]


def test_a_wait_at_the_minimum_is_paid_as_mcr_pays_it():
    """At a minimum of 0 the same wait may win: a self-draw brings base + F from each of the three others, a
    discard base + F from the discarder and base from the two others (F: the fans and the winner's flowers)."""
    ruleset = dataclasses.replace(RULESET, min_fan=0)
    rates, rules, hand, work = _rates(ruleset, flowers=2.0)
    base = ruleset.family_switches.base
    self_drawn, on_discard = _fans(rules, hand, work, SELF_DRAWN_FLAG), _fans(rules, hand, work, 0)
    assert rates[0] == 3 and rates[1] == 3 * 3 * (base + self_drawn + 2)
    assert rates[2] == 3 and rates[3] == 3 * (3 * base + on_discard + 2)


def test_ev_reads_the_fan_values_from_the_ruleset():
    """Doubling 单钓将's value in the ruleset's arrays raises each winning copy's worth by its value once more."""
    values = RULESET.values.copy()
    values[int(Fan.SINGLE_WAIT)] *= 2
    plain = dataclasses.replace(RULESET, min_fan=0)
    doubled = dataclasses.replace(RULESET, min_fan=0, values=values)
    before, after = _rates(plain)[0], _rates(doubled)[0]
    extra = RULESET.values[int(Fan.SINGLE_WAIT)]
    assert after[1] == before[1] + 3 * 3 * extra and after[3] == before[3] + 3 * extra


@pytest.mark.parametrize("lineup", ["ev,greedy,greedy,greedy", "random,ev,ev:depth=0,greedy",
                                    "ev:claim=0,ev,greedy,random"])
def test_ev_breaks_no_rule_of_the_table(lineup):
    records = engine.play(RULESET, lineup, seed=13, n_deals=300, validate=True)
    violations = records.columns["violation"]
    assert (violations == 0).all(), [engine.VIOLATIONS[v] for v in np.unique(violations) if v]
    seats = [seat for seat, text in enumerate(lineup.split(",")) if text.startswith("ev")]
    winners = records.columns["winner"]
    assert np.isin(winners, seats).mean() > 0.15  # it plays to win, at the minimum
    for seat in seats:
        reports = records.win_chances[f"win_chances_{seat}"].flatten().to_numpy()
        assert reports.size > 300 and ((reports >= 0) & (reports <= 1)).all()


def test_ev_takes_more_points_than_greedy_on_the_same_walls():
    """ev and greedy alternate (A, B, A, B), every seat in turn, on the same walls; plain verdict, since the
    MCR engine does not measure the luck of the draws."""
    result = duel(RULESET, "ev", "greedy", 150, 5, POINTS, variance_reduction=False)
    assert result.mean_beans[0] > 0 and result.z > 3


def test_evs_chances_of_winning_come_true(tmp_path):
    """The calibration table of a run against greedy (deals other than those its curves were fitted on):
    every tenth of ev's reports holds zero in its gap's interval."""
    result = run(RunConfig("mcr", ("ev", "greedy", "greedy", "greedy"), 1_500, 11, shard_size=1_500),
                 tmp_path / "run", workers=1)
    table = result.calibration
    assert table["reports"].sum() > 1_500 * 3
    assert table["within"].all(), table[["bucket", "reports", "mean_chance", "win_share", "gap_low", "gap_high"]]

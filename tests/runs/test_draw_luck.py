"""The luck of the draws (sim.core.draw_luck) and duels with it taken out (sim.runs.duel): the engines' sums
are the naive twin's, measuring them changes no deal, each feature has mean zero, and the adjusted verdict
keeps the plain one's mean while narrowing its interval."""

import math
from pathlib import Path

import numpy as np
import pytest
from naive_luck import deal_luck, mcr_deal_luck

from sim.core.control_variates import cross_fitted
from sim.core.draw_luck import FEATURES
from sim.core.rooms import Room
from sim.core.ruleset import load_ruleset
from sim.families import family_of
from sim.runs.duel import duel, play_walls

ROOT = Path(__file__).resolve().parents[2]
SALTED = f"{ROOT / 'tests' / 'players' / 'numba_players.py'}:salted_random"
UNITS = Room("units", stake=1, fee=0, min_entry=0, max_entry=0)
TABLES = [("erren", ["greedy", "value"]), ("erren", ["random", "defensive"]), ("liangmen-xuezhan", ["greedy", "random", "value", "greedy"])]
MCR_TABLE = ("mcr", ["greedy", "random", "greedy", "random"])


def _play(ruleset_id, texts, seed, deals, **options):
    ruleset = load_ruleset(ruleset_id)
    family = family_of(ruleset)
    players = family.parse_players(texts, len(texts))
    try:
        return ruleset, family.engine.play(ruleset, players, seed, deals, **options)
    finally:
        players.close()


@pytest.mark.parametrize(("ruleset_id", "texts"), TABLES)
def test_the_engines_luck_is_the_naive_twins_on_every_logged_deal(ruleset_id, texts):
    ruleset, played = _play(ruleset_id, texts, 5, 12, keep_log=True, luck=True)  # the twin takes seconds a deal
    names = family_of(ruleset).engine.EVENT_NAMES
    start = 0
    for deal, end in enumerate(played.log.ends):
        expected = deal_luck(ruleset, played.log.rows[start:end], names, len(texts))
        assert played.luck[deal] == pytest.approx(expected, abs=1e-9), f"deal {deal}"
        start = end
    assert np.abs(played.luck[:, :, FEATURES.index("improvement")]).sum() > 0


def test_the_mcr_engines_luck_is_the_naive_twins_on_every_logged_deal(compiled_naive):
    """At the MCR table, with its flowers (only the tile a draw keeps is measured), its four seats and wins
    priced as MCR pays them; the twin runs the compiled copy of naive.py (four suits are slow in Python)."""
    ruleset, played = _play(*MCR_TABLE, 5, 40, keep_log=True, luck=True)
    names = family_of(ruleset).engine.EVENT_NAMES
    start = 0
    for deal, end in enumerate(played.log.ends):
        rows = played.log.rows[start:end]
        expected = mcr_deal_luck(ruleset, rows, names, int(played.columns["round_wind"][deal]), compiled_naive)
        assert played.luck[deal] == pytest.approx(expected, abs=1e-9), f"deal {deal}"
        start = end
    for feature in ("improvement", "readying", "completion", "win_value", "discard_win_value"):
        assert np.abs(played.luck[:, :, FEATURES.index(feature)]).sum() > 0, feature
    rows = played.log.rows
    assert (rows[:, 0] == names.index("draws a flower")).any()  # flowers drawn in play


@pytest.mark.parametrize(("ruleset_id", "texts"), TABLES + [MCR_TABLE])
def test_measuring_luck_changes_no_record(ruleset_id, texts):
    _, plain = _play(ruleset_id, texts, 9, 1500)
    _, measured = _play(ruleset_id, texts, 9, 1500, luck=True)
    assert plain.luck is None and measured.luck.shape == (1500, len(texts), len(FEATURES))
    assert plain.columns.keys() == measured.columns.keys()
    for name in plain.columns:
        assert np.array_equal(plain.columns[name], measured.columns[name]), name
    assert np.array_equal(plain.fans, measured.fans)


@pytest.mark.parametrize(("ruleset_id", "texts"), TABLES[::2] + [MCR_TABLE])
def test_each_luck_feature_has_mean_zero_for_every_seat(ruleset_id, texts):
    # 3.3 standard errors: a 99.9% interval, as 2-4 seats x 3 features are checked at once on a fixed seed
    _, played = _play(ruleset_id, texts, 11, 20_000, luck=True)
    mean = played.luck.mean(axis=0)
    error = played.luck.std(axis=0, ddof=1) / math.sqrt(len(played.luck))
    assert (error > 0).all()
    assert (np.abs(mean) < 3.3 * error).all(), mean / error


def test_a_player_against_itself_has_an_adjusted_difference_of_exactly_nothing():
    result = duel(load_ruleset("erren"), "value", "value", 600, 2, UNITS)
    assert result.difference == 0 and result.plain_difference == 0
    assert np.array_equal(result.adjusted, np.zeros(600)) and not result.luck.any()


def _adjusted_and_plain(ruleset, first, second, seeds, walls):
    """Per seed: the adjusted mean difference and its standard error, and the plain ones."""
    rows = []
    for seed in seeds:
        result = duel(ruleset, first, second, walls, seed, UNITS)
        rows.append((result.difference, result.error, result.plain_difference, result.plain_error))
    return np.array(rows)


def _within_interval(means, errors):
    """The mean of independent estimates is within 2.6 of its standard errors (99%) of zero."""
    pooled_error = math.sqrt((errors ** 2).sum()) / len(errors)
    return abs(means.mean()) < 2.6 * pooled_error


def test_adjusted_differences_of_two_players_equal_by_symmetry_average_to_zero():
    """Two random players with different salts play differently deal by deal, and their true difference is 0.
    40 duels of 200 walls each, as 40 seeds would give: walls are independent, so 40 blocks of 8,000
    consecutive walls are 40 duels (played at once: a numba player's loop compiles once)."""
    walls = play_walls(load_ruleset("erren"), f"{SALTED}:salt=1", f"{SALTED}:salt=2", 7, 0, 8000, UNITS, luck=True)
    rows = []
    for block in np.split(np.arange(8000), 40):
        differences = walls.difference()[block]
        adjusted = cross_fitted(differences, walls.luck[block], 2)
        rows.append((adjusted.mean(), adjusted.std(ddof=1) / math.sqrt(200), differences.mean()))
    rows = np.array(rows)
    assert _within_interval(rows[:, 0], rows[:, 1])
    assert (rows[:, 0] != rows[:, 2]).all()  # the luck is taken out of every duel's result


@pytest.mark.parametrize(("ruleset_id", "first", "second"), [
    ("erren", "greedy", "value"), ("liangmen-xuezhan", "value", "greedy"), ("mcr", "greedy", "random"),
])
def test_adjusted_and_plain_differences_agree_on_a_pair_that_differs(ruleset_id, first, second):
    rows = _adjusted_and_plain(load_ruleset(ruleset_id), first, second, range(100, 120), 300)
    gap = rows[:, 0] - rows[:, 2]
    # the gap's own spread, seed to seed: the adjusted and plain means share most of their noise
    assert abs(gap.mean()) < 2.6 * gap.std(ddof=1) / math.sqrt(len(gap))
    assert (rows[:, 1] < rows[:, 3]).mean() > 0.5  # and the adjusted error is the smaller on most seeds


def test_walls_luck_is_the_first_players_seats_less_the_seconds_per_seat():
    ruleset = load_ruleset("liangmen-xuezhan")
    walls = play_walls(ruleset, "greedy", "value", 3, 10, 30, UNITS, luck=True)
    expected = np.zeros((2, 30, len(FEATURES)))
    for rotation in range(4):
        sitting = [(seat + rotation) % 4 % 2 for seat in range(4)]
        _, played = _play("liangmen-xuezhan", [("greedy", "value")[player] for player in sitting], 3, 30, first_deal=10,
                          luck=True)
        for seat, player in enumerate(sitting):
            expected[player] += played.luck[:, seat]
    assert walls.luck == pytest.approx(expected[0] / walls.slots[0] - expected[1] / walls.slots[1])
    assert walls.slots.tolist() == [8, 8]

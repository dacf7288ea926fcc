"""The sequential test on duplicate walls: a pure function of seed and batch size, the same stream of walls
whatever the batch, luck taken out with coefficients from earlier batches only, and neither a player against
itself nor two players of equal strength found better than alpha allows."""

import json
from pathlib import Path

import numpy as np
import pytest

from sim.core import control_variates
from sim.core.rooms import Room
from sim.core.ruleset import load_ruleset
from sim.core.sequential_test import ACCEPT_H0, ACCEPT_H1, SequentialTest, score_of_elo
from sim.runs import sprt as sequential
from sim.runs.duel import play_walls

FANS = Room("fans", stake=1, fee=0, min_entry=0, max_entry=0)
MONEY_TEST = SequentialTest(0.0, 1.0)
NEVER_LOOKS = SequentialTest(0.0, 1.0, first_look=10**9)  # plays every wall up to the cap


def _run(first="greedy", second="defensive", batch=100, seed=3, test=MONEY_TEST, units=sequential.MONEY, **options):
    return sequential.sprt(load_ruleset("erren"), first, second, test, units, seed, batch, options.pop("max_walls", 3_000),
                           FANS, **options)


def test_the_test_is_a_pure_function_of_seed_and_batch_size():
    once, again = _run(), _run()
    assert once.verdict == again.verdict and once.walls == again.walls
    assert [look.llr for look in once.looks] == [look.llr for look in again.looks]


def test_without_luck_taken_out_every_batch_size_sees_the_same_llr_and_one_that_divides_another_stops_no_later():
    """With luck taken out the coefficients come from the batches before, so the batch size changes the values."""
    fine = _run(batch=100, max_walls=1_200, variance_reduction=False)
    coarse = _run(batch=300, max_walls=1_200, variance_reduction=False)
    fine_llr = {look.walls: look.llr for look in fine.looks}
    for look in coarse.looks:  # at the walls both looked at, the same LLR
        if look.walls in fine_llr:
            assert fine_llr[look.walls] == pytest.approx(look.llr)
    assert fine.walls <= coarse.walls  # 100 divides 300: the finer test looks wherever the coarser one does


def test_the_plain_stream_is_the_duels_per_wall_difference():
    result = _run(test=NEVER_LOOKS, max_walls=400, variance_reduction=False)
    walls = play_walls(load_ruleset("erren"), "greedy", "defensive", 3, 0, 400, FANS)
    assert np.array_equal(result.values, walls.difference())


def test_elo_bounds_run_on_the_walls_scores():
    test = SequentialTest(float(score_of_elo(0.0)), float(score_of_elo(10.0)), first_look=10**9)
    result = _run(test=test, units=sequential.ELO, max_walls=400, batch=400)
    difference = play_walls(load_ruleset("erren"), "greedy", "defensive", 3, 0, 400, FANS).difference()
    assert np.array_equal(result.values, (np.sign(difference) + 1) / 2)
    estimate, low, high = result.estimate()
    assert low < estimate < high and estimate == pytest.approx(-400 * np.log10(1 / result.values.mean() - 1))


@pytest.mark.parametrize(("ruleset", "seats", "lineup"), [("erren", None, "alternate"), ("sanren-liangfang", 3, "one"),
                                                           ("liangmen-xuezhan", None, "alternate")])
def test_a_player_against_itself_is_never_found_better(ruleset, seats, lineup):
    """Over many seeds: the same player's walls are the same games, every value 0, so H0 at the first look."""
    rules = load_ruleset(ruleset)
    for seed in range(8 if ruleset == "erren" else 2):
        result = sequential.sprt(rules, "greedy", "greedy", MONEY_TEST, sequential.MONEY, seed, 300, 3_000, FANS, seats,
                                 lineup)
        assert result.verdict == ACCEPT_H0 and result.walls == 300 and result.estimate()[0] == 0


def _with_luck(features):
    """play_walls with a fake measured luck: `features(walls)` gives each wall's (walls, k) features."""
    def play(*arguments):
        walls = play_walls(*arguments)
        walls.luck = features(walls)
        return walls
    return play


def test_luck_is_taken_out_with_coefficients_fitted_on_earlier_batches_only():
    rng = np.random.default_rng(0)
    noise = rng.normal(0.0, 60.0, 10_000)  # of mean zero and known to the fake: the "luck" of wall i

    def features(walls):
        own = noise[walls.start:walls.start + walls.count]
        return np.column_stack([own, rng.normal(0.0, 1.0, walls.count)])  # one useful feature, one useless

    def play(*arguments):  # the luck adds to the first player's money, as a lucky wall would
        walls = _with_luck(features)(*arguments)
        walls.money[:, 0, :] += walls.luck[:, 0] * walls.slots[0] / walls.money.shape[0]
        return walls

    result = _run(test=NEVER_LOOKS, batch=200, max_walls=800, play=play)
    assert result.adjusted
    plain = play_walls(load_ruleset("erren"), "greedy", "defensive", 3, 0, 800, FANS).difference()
    raw = plain + noise[:800]
    assert np.allclose(result.values[:200], raw[:200])  # batch 0 plain
    for start in (200, 400, 600):  # the luck, four fifths of a raw wall's variance, mostly gone
        adjusted = result.values[start:start + 200]
        assert np.std(adjusted) < 0.5 * np.std(raw[start:start + 200])
    luckless = _run(test=NEVER_LOOKS, batch=200, max_walls=800, play=play, variance_reduction=False)
    assert not luckless.adjusted and np.allclose(luckless.values, raw)


def test_batch_k_is_adjusted_by_the_fit_on_batches_before_it():
    luck = np.random.default_rng(1).normal(0.0, 1.0, (10_000, 2))
    play = _with_luck(lambda walls: luck[walls.start:walls.start + walls.count])
    result = _run(test=NEVER_LOOKS, batch=200, max_walls=600, play=play)
    raw = play_walls(load_ruleset("erren"), "greedy", "defensive", 3, 0, 600, FANS).difference()
    expected = np.concatenate([raw[:200]] + [
        control_variates.adjust(raw[start:start + 200], luck[start:start + 200],
                                control_variates.fit(raw[:start], luck[:start])) for start in (200, 400)])
    assert np.allclose(result.values, expected)


def test_the_command_prints_the_verdict_and_its_json_holds_the_trace(mjsim):
    code, printed, _ = mjsim("sprt", "greedy", "random", "--batch", "100")
    assert code == 0 and "H1 accepted after 300 walls" in printed and "Elo +" in printed
    code, printed, _ = mjsim("sprt", "greedy", "greedy", "--money0", "0", "--money1", "1", "--json")
    data = json.loads(printed, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))
    assert code == 0 and data["verdict"] == "H0" and data["walls"] == 400 and data["estimate"] == 0
    assert data["llr"] == "-inf"  # a player against itself: no spread, certainty
    assert [look["walls"] for look in data["looks"]] == [200, 400] and data["config"]["seed"] == 1


SALTED = str(Path(__file__).parent / "salted_players.py") + ":SaltedCoin:salt="
SEGMENTS, SEGMENT = 30, 400  # independent tests on disjoint walls, as tests on different seeds would be


def _decide(values, test, batch):
    """The verdict of the sequential test on these values, looked at every `batch`, or INCONCLUSIVE."""
    for end in range(batch, len(values) + 1, batch):
        verdict = test.decide(end, test.log_likelihood_ratio(end, values[:end].mean(), values[:end].var()))
        if verdict:
            return verdict
    return sequential.INCONCLUSIVE


def test_two_players_of_equal_strength_playing_different_games_are_not_found_better_beyond_alpha():
    """The same random play from different parts of the seats' streams: on 30 stretches of 400 walls of real
    play (12,000 walls, each stretch an independent test), H1 is accepted in at most alpha of them, in money
    and in Elo, with the lower bound at the truth, 0."""
    walls = play_walls(load_ruleset("erren"), SALTED + "1", SALTED + "2", 1, 0, SEGMENTS * SEGMENT, FANS)
    difference = walls.difference()
    for test, values in ((SequentialTest(0.0, 3.0), difference),
                         (SequentialTest(0.5, float(score_of_elo(50.0))), (np.sign(difference) + 1) / 2)):
        verdicts = [_decide(values[start:start + SEGMENT], test, 100) for start in range(0, len(values), SEGMENT)]
        assert verdicts.count(ACCEPT_H1) <= test.alpha * SEGMENTS
        assert verdicts.count(ACCEPT_H0) > SEGMENTS // 2  # and it does decide: H0, mostly at its first looks

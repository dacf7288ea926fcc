"""Seeding as PettingZoo and Gymnasium document it, in mjsim's numbers: after ``reset(seed=s)`` episode k is
deal k of seed s, exactly as ``mjsim run --seed s`` plays it; ``options`` chooses the deal and the dealer;
a bad seed or option is one clear error that changes nothing."""

import warnings

import numpy as np
import pytest

import sim.rl
from sim.core.ruleset import load_ruleset
from sim.families import family_of
from sim.rl.episodes import Episodes


def _greedy_episodes(environment, count, **reset):
    """Play `count` episodes of a Gymnasium environment (greedy opponents), the learner answering as greedy:
    each episode's (deal, record, learner's reward)."""
    played = []
    for episode in range(count):
        environment.reset(**(reset if episode == 0 else {}))
        reward, terminated = 0.0, False
        while not terminated:
            _, reward, terminated, _, _ = environment.step(environment.table.environment.builtin_action("greedy"))
        played.append((environment.mjsim_deal, environment.table.environment.record_row, reward))
    return played


@pytest.mark.parametrize(("ruleset_id", "seats"), [("erren", 2), ("liangmen-xuezhan", 4), ("sanren-liangfang", 3),
                                                   ("mcr", 4)])
def test_episode_k_after_a_seeded_reset_is_deal_k_of_mjsim_run_on_that_seed(ruleset_id, seats):
    ruleset = load_ruleset(ruleset_id)
    family = family_of(ruleset)
    run = family.engine.play(ruleset, family.parse_players(["greedy"] * seats, seats), 11, 3).columns
    played = _greedy_episodes(sim.rl.gymnasium_env(ruleset_id, n_seats=seats), 3, seed=11)
    assert [deal for deal, _, _ in played] == [0, 1, 2]
    for deal, record, _ in played:
        assert record == {name: int(values[deal]) for name, values in run.items()}


def test_the_same_seed_gives_the_same_episodes_and_each_episode_a_new_deal():
    first = _greedy_episodes(sim.rl.gymnasium_env("erren"), 4, seed=3)
    again = _greedy_episodes(sim.rl.gymnasium_env("erren"), 4, seed=3)
    other = _greedy_episodes(sim.rl.gymnasium_env("erren"), 4, seed=4)
    assert first == again
    assert first != other
    walls = []
    environment = sim.rl.pettingzoo_env("erren")
    environment.reset(seed=3)
    for _ in range(4):
        walls.append(environment.table.environment.wall.copy())
        environment.reset()
    assert len({wall.tobytes() for wall in walls}) == 4


def test_a_seeded_reset_restarts_the_sequence_at_deal_0():
    environment = sim.rl.pettingzoo_env("erren")
    environment.reset(seed=9)
    environment.reset()
    environment.reset()
    assert environment.mjsim_deal == 2
    environment.reset(seed=9)
    assert (environment.mjsim_seed, environment.mjsim_deal) == (9, 0)


@pytest.mark.parametrize("make", [sim.rl.pettingzoo_env, sim.rl.gymnasium_env])
def test_an_unseeded_first_reset_draws_its_seed_from_fresh_entropy(make):
    seeds = set()
    for _ in range(3):
        environment = make("erren")
        environment.reset()
        seeds.add(environment.mjsim_seed)
        assert environment.mjsim_deal == 0
    assert len(seeds) == 3  # equal draws from 2^64 seeds would be a broken source of entropy


def test_options_deal_starts_the_sequence_at_that_deal():
    environment = sim.rl.gymnasium_env("erren")
    environment.reset(seed=5, options={"deal": 7})
    assert environment.mjsim_deal == 7
    environment.reset()
    assert environment.mjsim_deal == 8
    played = _greedy_episodes(sim.rl.gymnasium_env("erren"), 1, seed=5, options={"deal": 7})
    direct = _greedy_episodes(sim.rl.gymnasium_env("erren"), 8, seed=5)
    assert played == direct[7:]


@pytest.mark.parametrize(("ruleset_id", "seats"), [("erren", 2), ("liangmen-xuezhan", 4), ("mcr", 4)])
def test_options_dealer_seats_the_dealer_for_that_episode(ruleset_id, seats):
    environment = sim.rl.pettingzoo_env(ruleset_id)
    dealers = set()
    for dealer in range(seats):
        environment.reset(seed=5, options={"deal": 0, "dealer": dealer})
        dealers.add(int(environment.table.environment.record_row["dealer"]))
    assert dealers == set(range(seats))


@pytest.mark.parametrize(("options", "error", "words"), [
    ({"deal": -1}, ValueError, "deal must be from 0"),
    ({"deal": 1.0}, TypeError, "deal must be a whole number"),
    ({"dealer": 2}, ValueError, "the dealer (a seat of this table of 2)"),
    ({"dealer": "0"}, TypeError, "the dealer"),
    ({"deals": 3}, ValueError, "'deals' not known; the options are deal, dealer"),
    ([("deal", 3)], TypeError, "reset options are a dict"),
])
def test_a_bad_reset_option_is_one_error_that_changes_nothing(options, error, words):
    environment = sim.rl.gymnasium_env("erren")
    observation, _ = environment.reset(seed=5)
    with pytest.raises(error) as raised:
        environment.reset(options=options)
    assert words in str(raised.value)
    assert (environment.mjsim_seed, environment.mjsim_deal) == (5, 0)
    assert np.array_equal(environment.table.observation(0)["observation"], observation["observation"])


@pytest.mark.parametrize(("seed", "error"), [(-1, ValueError), (2**64, ValueError), (1.5, TypeError), (True, TypeError)])
def test_a_bad_seed_is_one_error(seed, error):
    for environment in (sim.rl.gymnasium_env("erren"), sim.rl.pettingzoo_env("erren")):
        with pytest.raises(error, match="seed"):
            environment.reset(seed=seed)


def test_pettingzoo_ignores_an_unknown_option_with_a_warning_as_its_api_test_needs():
    environment = sim.rl.pettingzoo_env("erren")
    with pytest.warns(UserWarning, match="'options' not known"):
        environment.reset(seed=0, options={"options": 1})
    assert environment.mjsim_deal == 0


class _TableWithoutChoices:
    """A stand-in step environment whose deals 0 and 1 end before any agent has a choice."""

    def __init__(self):
        self.dealt = []

    def reset(self, seed, deal, dealer):
        self.dealt.append(deal)
        self.terminated = deal < 2


def test_a_deal_where_no_agent_has_a_choice_is_passed_over():
    table, episodes = _TableWithoutChoices(), Episodes()
    episodes.begin(table, 1, {}, fresh_seed=None)
    assert table.dealt == [0, 1, 2]
    assert (episodes.deal, episodes.next_deal) == (2, 3)


def test_no_warning_from_a_known_option():
    environment = sim.rl.pettingzoo_env("erren")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        environment.reset(seed=0, options={"deal": 3, "dealer": 1})

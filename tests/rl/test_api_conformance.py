"""Both learning environments pass their library's own conformance checks, at every table the shipped
rulesets are played at (each ruleset at each seat count its file allows): PettingZoo's ``api_test`` with
every seat an agent and with an opponent in the engine, Gymnasium's ``check_env`` on the registered id."""

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import sim.rl
from sim.families import tables

TABLES = tables()


def test_the_tables_cover_two_three_and_four_seats():
    assert {seats for _, seats in TABLES} == {2, 3, 4}


@pytest.mark.parametrize(("ruleset_id", "seats"), TABLES)
def test_pettingzoo_api_test_passes_with_every_seat_an_agent(ruleset_id, seats):
    environment = sim.rl.pettingzoo_env(ruleset_id, n_seats=seats)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice (a Dict observation space) and its options={"options": 1}
        api_test(environment, num_cycles=1000)
    assert environment.possible_agents == [f"seat_{seat}" for seat in range(seats)]


@pytest.mark.parametrize(("ruleset_id", "seats"), TABLES)
def test_pettingzoo_api_test_passes_with_seat_0_played_in_the_engine(ruleset_id, seats):
    environment = sim.rl.pettingzoo_env(ruleset_id, n_seats=seats, opponents={0: "greedy"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(environment, num_cycles=1000)
    assert environment.possible_agents == [f"seat_{seat}" for seat in range(1, seats)]


@pytest.mark.parametrize("opponent", ["ev", "tests/players/numba_players.py:salted_random:salt=3",
                                      "examples/players/simple.py:Coin:win=0.9"])
def test_pettingzoo_api_test_passes_with_ev_a_numba_or_a_python_player_in_the_engine(opponent):
    environment = sim.rl.pettingzoo_env("erren", opponents={1: opponent})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(environment, num_cycles=300)
        assert environment.possible_agents == ["seat_0"]
    finally:
        environment.close()


@pytest.mark.parametrize(("ruleset_id", "seats"), TABLES)
def test_gymnasium_check_env_passes_on_the_registered_id(ruleset_id, seats):
    environment = gymnasium.make(f"mjsim/{ruleset_id}-v0", n_seats=seats)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env steps unmasked samples: each an illegal action, warned of
        check_env(environment.unwrapped)
    assert environment.unwrapped.table.n_seats == seats


def test_gymnasium_check_env_passes_with_the_oracle_observation():
    environment = gymnasium.make("mjsim/erren-v0", oracle=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(environment.unwrapped)
    plain = sim.rl.gymnasium_env("erren").observation_space["observation"]
    assert environment.observation_space["observation"].shape[0] > plain.shape[0]  # the hidden information too

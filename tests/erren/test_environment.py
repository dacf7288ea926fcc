"""The step environment as a specification: the engine of `mjsim run` stepped decision by decision.
Driven with greedy's own answers it gives greedy's records deal for deal; its rewards are the deal's money;
the batched form steps many tables exactly as single tables would."""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.core.rooms import Room
from sim.core.ruleset import load_ruleset
from sim.erren import engine, money
from sim.erren.environment import BatchEnvironment, Environment
from sim.players.user_players import PlayerFailure

DEALS = 150
JSON_BOT = Path(__file__).resolve().parents[2] / "examples" / "players" / "json_bot.py"


@pytest.mark.parametrize("ruleset", ["erren", "erren-classic", "erren-challenge"])
@pytest.mark.parametrize("opponents", [None, {1: "greedy"}])
def test_the_environment_driven_by_greedy_reproduces_the_records_of_a_run(ruleset, opponents):
    rules = load_ruleset(ruleset)
    expected = pd.DataFrame(engine.play(rules, engine.Players.parse("greedy,greedy"), seed=5, n_deals=DEALS).columns)
    environment = Environment(rules, opponents=opponents)
    rows, steps = [], 0
    for deal in range(DEALS):
        environment.reset(seed=5, deal=deal)
        while not environment.terminated:
            environment.step(environment.builtin_action("greedy"))
            steps += 1
        rows.append(environment.record_row)
    assert steps > DEALS * (3 if opponents else 10)  # decisions with a choice, of the agent seats
    assert pd.DataFrame(rows).astype(expected.dtypes.to_dict()).equals(expected)


def test_the_rewards_are_the_deals_money_in_the_room():
    room = Room("test", stake=10, fee=3, min_entry=0, max_entry=0)
    environment = Environment("erren", stake=room.stake, fee=room.fee)
    rows, rewards = [], []
    rng = np.random.default_rng(1)
    for deal in range(60):
        environment.reset(seed=2, deal=deal)
        while not environment.terminated:
            observation = environment.observation
            assert observation.seat == environment.agent_selection
            assert environment.legal_mask.sum() == len(observation.legal_actions) >= 2
            environment.step(observation.legal_actions[rng.integers(len(observation.legal_actions))])
        rows.append(environment.record_row)
        rewards.append(environment.rewards.copy())
    assert np.allclose(np.array(rewards), money.seat_changes(pd.DataFrame(rows), room))


def test_an_illegal_step_is_refused_and_changes_nothing():
    environment = Environment("erren")
    environment.reset(seed=3)
    before = environment.state.hands.copy()
    illegal = next(code for code in range(704) if code not in environment.observation.legal_codes)
    with pytest.raises(PlayerFailure, match="not a legal action"):
        environment.step(illegal)
    assert np.array_equal(environment.state.hands, before)




@pytest.mark.parametrize(("threads", "ruleset"), [(1, "erren"), (2, "erren"), (2, "erren-challenge")])
def test_the_batched_environment_steps_each_table_as_a_single_table_would(threads, ruleset):
    n_tables, seed = 8, 4
    batch = BatchEnvironment(n_tables, ruleset, seed=seed, threads=threads)
    batch.reset()
    finished = {table: [] for table in range(n_tables)}
    played = np.zeros(n_tables, np.int64)
    for _ in range(400):
        assert batch.masks.any(axis=1).all()
        actions = batch.masks.argmax(axis=1)  # the lowest legal code: deterministic
        batch.step(actions)
        for table in np.flatnonzero(batch.finished):
            finished[table].append((table + n_tables * played[table], *batch.rewards[table]))
            played[table] += 1
    assert batch.decisions == 400 * n_tables
    assert played.min() >= 3
    for table, results in finished.items():
        deals = [deal for deal, _, _ in results]
        expected = _first_legal_rewards_single_lowest(seed, deals, ruleset)
        assert results == expected


def _first_legal_rewards_single_lowest(seed, deals, ruleset):
    environment = Environment(ruleset)
    found = []
    for deal in deals:
        environment.reset(seed=seed, deal=deal)
        while not environment.terminated:
            environment.step(min(environment.observation.legal_codes))
        found.append((deal, *environment.rewards))
    return found


def test_a_batched_step_with_an_illegal_action_is_refused():
    batch = BatchEnvironment(4, "erren", seed=1, opponents={1: "greedy"})
    batch.reset()
    assert (batch.actors == 0).all()
    actions = batch.masks.argmax(axis=1)
    actions[2] = 703 if not batch.masks[2, 703] else 0
    with pytest.raises(PlayerFailure, match="table 2"):
        batch.step(actions)


OPPONENTS = ["ev", "tests/players/numba_players.py:salted_random:salt=3", "examples/players/simple.py:Coin:win=0.9",
             f"exec:{sys.executable} {JSON_BOT}"]


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_any_opponent_plays_as_it_plays_in_a_run(opponent):
    """The agent answers as greedy would; the opponent, whatever its kind, decides inside the environment from
    its own observation and stream: the deals are mjsim run's, record for record."""
    rules, n_deals = load_ruleset("erren"), 30
    expected = pd.DataFrame(engine.play(rules, engine.Players.parse(["greedy", opponent]), seed=7, n_deals=n_deals).columns)
    with Environment(rules, opponents={1: opponent}) as environment:
        rows = []
        for deal in range(n_deals):
            environment.reset(seed=7, deal=deal)
            while not environment.terminated:
                assert environment.agent_selection == 0
                environment.step(environment.builtin_action("greedy"))
            rows.append(environment.record_row)
    assert pd.DataFrame(rows).astype(expected.dtypes.to_dict()).equals(expected)


@pytest.mark.parametrize(("opponent", "failure"), [
    ("tests/players/python_players.py:Raiser:at=3", r"player tests/players/python_players.py:Raiser:at=3 raised at deal 3, seat 1"),
    ("tests/players/numba_players.py:illegal", r"player tests/players/numba_players.py:illegal answered -?\d+, not a "
                                               r"legal action, at deal 3, seat 1, decision"),
])
def test_an_opponent_that_fails_is_one_player_failure_naming_it(opponent, failure):
    environment = Environment("erren", opponents={1: opponent})
    with pytest.raises(PlayerFailure, match=failure):
        for _ in range(50):
            environment.reset(seed=1, deal=3)
            while not environment.terminated:
                environment.step(environment.builtin_action("greedy"))


def test_an_unknown_opponent_is_refused_as_run_refuses_it():
    with pytest.raises(ValueError, match="unknown heuristic 'grady'"):
        Environment("erren", opponents={1: "grady"})


@pytest.mark.parametrize("threads", [1, 2])
def test_a_batch_with_a_numba_opponent_steps_each_table_as_a_single_table_would(threads):
    n_tables, seed, opponents = 4, 4, {1: "ev"}
    batch = BatchEnvironment(n_tables, "erren", seed=seed, threads=threads, opponents=opponents)
    batch.reset()
    finished = {table: [] for table in range(n_tables)}
    played = np.zeros(n_tables, np.int64)
    for _ in range(60):
        assert (batch.actors == 0).all()
        batch.step(batch.masks.argmax(axis=1))
        for table in np.flatnonzero(batch.finished):
            finished[table].append((table + n_tables * played[table], *batch.rewards[table]))
            played[table] += 1
    assert played.min() >= 1
    environment = Environment("erren", opponents=opponents)
    for results in finished.values():
        single = []
        for deal, *_ in results:
            environment.reset(seed=seed, deal=deal)
            while not environment.terminated:
                environment.step(min(environment.observation.legal_codes))
            single.append((deal, *environment.rewards))
        assert results == single


def test_a_numba_opponent_that_answers_illegally_in_a_batch_is_one_player_failure_naming_it():
    batch = BatchEnvironment(2, "erren", seed=1, opponents={1: "tests/players/numba_players.py:illegal"})
    with pytest.raises(PlayerFailure, match=r"table \d: player tests/players/numba_players.py:illegal answered -?\d+, "
                                            r"not a legal action, at deal \d+, seat 1"):
        batch.reset()  # the opponent may deal, and answer, first
        for _ in range(200):
            batch.step(batch.masks.argmax(axis=1))


def test_a_batch_refuses_a_python_opponent_and_points_to_the_step_environment():
    with pytest.raises(ValueError, match="seat a Python or exec: player in the step environment"):
        BatchEnvironment(2, "erren", opponents={1: "examples/players/simple.py:Coin"})

"""The 血战 step environment as a specification: the engine of `mjsim run` stepped decision by decision at
2, 3 and 4 seats. Driven with greedy's own answers it gives greedy's records deal for deal; its rewards are
the deal's money as the run settles it; the batched form steps many tables exactly as single tables would;
an environment is asked for by ruleset name whatever the family (sim.families.environment, sim.xuezhan.environment)."""

import numpy as np
import pandas as pd
import pytest

from sim.core.rooms import Room
from sim.core.ruleset import load_ruleset
from sim.erren.environment import Environment as ErrenEnvironment
from sim.families.environment import make_batch_environment, make_environment
from sim.players.user_players import PlayerFailure
from sim.xuezhan import engine, money
from sim.xuezhan.environment import BatchEnvironment, Environment

DEALS = 40
TABLES = [("liangmen-xuezhan", 4), ("sanren-liangfang", 3), ("sanren-liangfang", 2)]


@pytest.mark.parametrize("ruleset,n_seats", TABLES)
@pytest.mark.parametrize("opponents", [None, {1: "greedy"}])
def test_the_environment_driven_by_greedy_reproduces_the_records_of_a_run(ruleset, n_seats, opponents):
    rules = load_ruleset(ruleset)
    expected = pd.DataFrame(engine.play(rules, ["greedy"] * n_seats, seed=5, n_deals=DEALS).columns)
    environment = Environment(rules, opponents=opponents, n_seats=n_seats)
    rows, steps = [], 0
    for deal in range(DEALS):
        environment.reset(seed=5, deal=deal)
        while not environment.terminated:
            environment.step(environment.builtin_action("greedy"))
            steps += 1
        rows.append(environment.record_row)
    assert steps > DEALS * 5  # decisions with a choice, of the agent seats
    assert pd.DataFrame(rows).astype(expected.dtypes.to_dict()).equals(expected)


@pytest.mark.parametrize("ruleset,n_seats", TABLES)
def test_the_rewards_are_the_deals_money_in_the_room_and_sum_to_minus_the_fees(ruleset, n_seats):
    room = Room("test", stake=10, fee=3, min_entry=0, max_entry=0)
    environment = Environment(ruleset, stake=room.stake, fee=room.fee, n_seats=n_seats)
    rows, rewards = [], []
    rng = np.random.default_rng(1)
    for deal in range(30):
        environment.reset(seed=2, deal=deal)
        while not environment.terminated:
            observation = environment.observation
            assert observation.seat == environment.agent_selection and observation.n_seats == n_seats
            assert environment.legal_mask.sum() == len(observation.legal_actions) >= 2
            assert not environment.rewards.any()
            environment.step(observation.legal_actions[rng.integers(len(observation.legal_actions))])
        rows.append(environment.record_row)
        rewards.append(environment.rewards.copy())
    rewards = np.array(rewards)
    assert np.allclose(rewards, money.seat_changes(pd.DataFrame(rows), room))
    assert np.allclose(rewards.sum(axis=1), -room.fee * n_seats)
    assert np.abs(rewards).max() > room.fee


def test_an_illegal_step_is_refused_and_changes_nothing():
    environment = Environment("liangmen-xuezhan")
    environment.reset(seed=3)
    before = [array.copy() for array in environment.state]
    legal = environment.observation.legal_codes
    illegal = next(code for code in range(704) if code not in legal)
    with pytest.raises(PlayerFailure, match="not a legal action"):
        environment.step(illegal)
    assert all(np.array_equal(now, then) for now, then in zip(environment.state, before, strict=True))
    assert environment.observation.legal_codes == legal


@pytest.mark.parametrize("threads", [1, 2])
def test_the_batched_environment_steps_each_table_as_a_single_table_would(threads):
    n_tables, seed, n_seats = 6, 4, 3
    batch = BatchEnvironment(n_tables, "sanren-liangfang", seed=seed, threads=threads, n_seats=n_seats)
    batch.reset()
    finished = {table: [] for table in range(n_tables)}
    played = np.zeros(n_tables, np.int64)
    for _ in range(300):
        assert batch.masks.any(axis=1).all()
        actions = batch.masks.argmax(axis=1)  # the lowest legal code: deterministic
        batch.step(actions)
        for table in np.flatnonzero(batch.finished):
            finished[table].append((table + n_tables * played[table], *batch.rewards[table]))
            played[table] += 1
    assert batch.decisions == 300 * n_tables
    assert played.min() >= 2
    single = Environment("sanren-liangfang", n_seats=n_seats)
    for table, results in finished.items():
        for deal, *rewards in results:
            single.reset(seed=seed, deal=deal)
            while not single.terminated:
                single.step(min(single.observation.legal_codes))
            assert rewards == list(single.rewards), (table, deal)


def test_a_batched_step_with_an_illegal_action_is_refused():
    batch = BatchEnvironment(4, "liangmen-xuezhan", seed=1, opponents={1: "greedy", 2: "greedy", 3: "greedy"})
    batch.reset()
    assert (batch.actors == 0).all() and batch.rewards.shape == (4, 4)
    actions = batch.masks.argmax(axis=1)
    actions[2] = 703 if not batch.masks[2, 703] else 0
    with pytest.raises(PlayerFailure, match="table 2"):
        batch.step(actions)


def test_an_environment_is_asked_for_by_ruleset_name_whatever_its_family():
    assert isinstance(make_environment("erren"), ErrenEnvironment)
    three = make_environment("sanren-liangfang", opponents={1: "greedy"})
    two = make_environment("sanren-liangfang", n_seats=2)
    assert isinstance(three, Environment) and (three.n_seats, two.n_seats) == (3, 2)
    assert isinstance(make_batch_environment(2, "liangmen-xuezhan"), BatchEnvironment)
    with pytest.raises(ValueError, match="players, not 4"):
        make_environment("sanren-liangfang", n_seats=4)


OPPONENTS = ["ev", "tests/players/numba_players.py:salted_random:salt=3", "examples/players/simple.py:Coin:win=0.9"]


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_any_opponent_plays_as_it_plays_in_a_run(opponent):
    """Agents at seats 0 and 2 answer as greedy would; the opponents at seats 1 and 3, whatever their kind,
    decide inside the environment from their own observations and streams: the deals are mjsim run's."""
    rules, n_deals = load_ruleset("liangmen-xuezhan"), 24
    players = engine.Players.parse(["greedy", opponent, "greedy", opponent], seats=4)
    expected = pd.DataFrame(engine.play(rules, players, seed=7, n_deals=n_deals).columns)
    with Environment(rules, opponents={1: opponent, 3: opponent}) as environment:
        rows = []
        for deal in range(n_deals):
            environment.reset(seed=7, deal=deal)
            while not environment.terminated:
                assert environment.agent_selection in (0, 2)
                environment.step(environment.builtin_action("greedy"))
            rows.append(environment.record_row)
    assert pd.DataFrame(rows).astype(expected.dtypes.to_dict()).equals(expected)


def test_an_opponent_that_raises_is_one_player_failure_naming_it():
    environment = Environment("liangmen-xuezhan", opponents={2: "tests/players/python_players.py:Raiser:at=1"})
    with pytest.raises(PlayerFailure, match=r"player tests/players/python_players.py:Raiser:at=1 raised at deal 1, seat 2"):
        for deal in range(3):
            environment.reset(seed=1, deal=deal)
            while not environment.terminated:
                environment.step(environment.builtin_action("greedy"))


@pytest.mark.parametrize("threads", [1, 2])
def test_a_batch_with_a_numba_opponent_steps_each_table_as_a_single_table_would(threads):
    n_tables, seed, opponents = 4, 4, {1: "ev", 3: "greedy"}
    batch = BatchEnvironment(n_tables, "liangmen-xuezhan", seed=seed, threads=threads, opponents=opponents)
    batch.reset()
    finished = {table: [] for table in range(n_tables)}
    played = np.zeros(n_tables, np.int64)
    for _ in range(80):
        assert np.isin(batch.actors, (0, 2)).all()
        batch.step(batch.masks.argmax(axis=1))
        for table in np.flatnonzero(batch.finished):
            finished[table].append((table + n_tables * played[table], *batch.rewards[table]))
            played[table] += 1
    assert played.min() >= 1
    environment = Environment("liangmen-xuezhan", opponents=opponents)
    for results in finished.values():
        single = []
        for deal, *_ in results:
            environment.reset(seed=seed, deal=deal)
            while not environment.terminated:
                environment.step(min(environment.observation.legal_codes))
            single.append((deal, *environment.rewards))
        assert results == single

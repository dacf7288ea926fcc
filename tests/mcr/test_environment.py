"""The MCR step environment as a specification: the engine of `mjsim run` stepped decision by decision at the
four-seat table. Driven with greedy's own answers it gives greedy's records deal for deal; its rewards are
the deal's money as the run settles it; a deal's dealer and round wind are its match's unless reset names
another dealer; opponents of every kind play as they play in a run; the batched form steps many tables
exactly as single tables would, with one thread or two (sim.mcr.environment)."""

import numpy as np
import pandas as pd
import pytest

from sim.core.rooms import Room
from sim.core.ruleset import load_ruleset
from sim.families.environment import make_batch_environment, make_environment
from sim.mcr import engine, money
from sim.mcr.environment import BatchEnvironment, Environment
from sim.players.user_players import PlayerFailure

RULESET = load_ruleset("mcr")
DEALS = 40
SEATS = 4


@pytest.mark.parametrize("opponents", [None, {1: "greedy", 3: "random"}])
def test_the_environment_driven_by_greedy_reproduces_the_records_of_a_run(opponents):
    players = ["greedy"] * SEATS
    for seat, text in (opponents or {}).items():
        players[seat] = text
    expected = pd.DataFrame(engine.play(RULESET, players, seed=5, n_deals=DEALS).columns)
    environment = Environment(RULESET, opponents=opponents)
    rows, steps = [], 0
    for deal in range(DEALS):
        environment.reset(seed=5, deal=deal)
        while not environment.terminated:
            assert opponents is None or environment.agent_selection not in opponents
            environment.step(environment.builtin_action("greedy"))
            steps += 1
        rows.append(environment.record_row)
    assert steps > DEALS * 10  # decisions with a choice, of the agent seats
    assert (expected["winner"] >= 0).any() and (expected["winner"] < 0).any()  # wins and exhausted deals both
    assert pd.DataFrame(rows).astype(expected.dtypes.to_dict()).equals(expected)


def test_the_rewards_are_the_deals_money_in_the_room_and_sum_to_minus_the_fees():
    room = Room("test", stake=10, fee=3, min_entry=0, max_entry=0)
    environment = Environment(RULESET, stake=room.stake, fee=room.fee)
    rows, rewards = [], []
    rng = np.random.default_rng(1)
    for deal in range(30):
        environment.reset(seed=2, deal=deal)
        while not environment.terminated:
            observation = environment.observation
            assert observation.seat == environment.agent_selection and observation.n_seats == SEATS
            assert environment.legal_mask.sum() == len(observation.legal_actions) >= 2
            assert not environment.rewards.any()
            legal = observation.legal_actions  # greedy's answer mostly, a random one at times (random alone seldom wins)
            random_answer = rng.random() < 0.2
            environment.step(legal[rng.integers(len(legal))] if random_answer else environment.builtin_action("greedy"))
        rows.append(environment.record_row)
        rewards.append(environment.rewards.copy())
    rewards = np.array(rewards)
    assert np.allclose(rewards, money.seat_changes(pd.DataFrame(rows), room))
    assert np.allclose(rewards.sum(axis=1), -room.fee * SEATS)
    assert np.abs(rewards).max() > room.fee  # some deal was won: money moved beyond the fee


def test_a_deal_has_its_matchs_dealer_and_round_wind_unless_reset_names_the_dealer():
    environment = Environment(RULESET)
    match_deals = RULESET.family_switches.match_deals
    for deal in (0, 1, 5, match_deals - 1, match_deals + 6):
        environment.reset(seed=1, deal=deal)
        expected_dealer, expected_wind = deal % match_deals % SEATS, deal % match_deals // (match_deals // 4)
        assert environment.record_row["dealer"] == expected_dealer
        assert environment.record_row["round_wind"] == expected_wind
        for dealer in range(SEATS):
            environment.reset(seed=1, deal=deal, dealer=dealer)
            assert (environment.record_row["dealer"], environment.record_row["round_wind"]) == (dealer, expected_wind)
            assert int(environment.state.hands[dealer].sum()) == 14  # the dealer holds the fourteenth tile


def test_an_illegal_step_is_refused_and_changes_nothing():
    environment = Environment(RULESET)
    environment.reset(seed=3)
    before = [array.copy() for array in environment.state]
    legal = environment.observation.legal_codes
    illegal = next(code for code in range(704) if code not in legal)
    with pytest.raises(PlayerFailure, match="not a legal action"):
        environment.step(illegal)
    assert all(np.array_equal(now, then) for now, then in zip(environment.state, before, strict=True))
    assert environment.observation.legal_codes == legal


def test_an_environment_is_asked_for_by_ruleset_name_and_seats_four():
    assert isinstance(make_environment("mcr", opponents={1: "greedy"}), Environment)
    assert make_environment("mcr", n_seats=4).n_seats == 4
    assert isinstance(make_batch_environment(2, "mcr"), BatchEnvironment)
    with pytest.raises(ValueError, match="played by 4 players, not 3"):
        make_environment("mcr", n_seats=3)
    with pytest.raises(ValueError, match="family-mcr rulesets, not erren"):
        Environment("erren")


def _single_table_results(environment, seed, deals):
    """Each deal played on one table, every agent decision answered with the lowest legal code: (deal, rewards)."""
    results = []
    for deal in deals:
        environment.reset(seed=seed, deal=deal)
        while not environment.terminated:
            environment.step(min(environment.observation.legal_codes))
        results.append((deal, *environment.rewards))
    return results


@pytest.mark.parametrize("threads", [1, 2])
def test_the_batched_environment_steps_each_table_as_a_single_table_would(threads):
    n_tables, seed = 6, 4
    batch = BatchEnvironment(n_tables, RULESET, seed=seed, threads=threads, opponents={2: "greedy"})
    batch.reset()
    finished = {table: [] for table in range(n_tables)}
    played = np.zeros(n_tables, np.int64)
    for _ in range(300):
        assert batch.masks.any(axis=1).all() and np.isin(batch.actors, (0, 1, 3)).all()
        batch.step(batch.masks.argmax(axis=1))  # the lowest legal code: deterministic
        for table in np.flatnonzero(batch.finished):
            finished[table].append((table + n_tables * played[table], *batch.rewards[table]))
            played[table] += 1
    assert batch.decisions == 300 * n_tables
    assert played.min() >= 2
    single = Environment(RULESET, opponents={2: "greedy"})
    for results in finished.values():
        assert results == _single_table_results(single, seed, [deal for deal, *_ in results])


def test_a_batched_step_with_an_illegal_action_is_refused():
    batch = BatchEnvironment(4, RULESET, seed=1, opponents={1: "greedy", 2: "greedy", 3: "greedy"})
    batch.reset()
    assert (batch.actors == 0).all() and batch.rewards.shape == (4, 4)
    actions = batch.masks.argmax(axis=1)
    actions[2] = 703 if not batch.masks[2, 703] else 0
    with pytest.raises(PlayerFailure, match="table 2"):
        batch.step(actions)


OPPONENTS = ["tests/players/numba_players.py:salted_random:salt=3", "examples/players/simple.py:Coin:win=0.9"]


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_any_opponent_plays_as_it_plays_in_a_run(opponent):
    """Agents at seats 0 and 2 answer as greedy would; the opponents at seats 1 and 3, whatever their kind,
    decide inside the environment from their own observations and streams: the deals are mjsim run's."""
    n_deals = 16
    players = engine.Players.parse(["greedy", opponent, "greedy", opponent], seats=SEATS)
    expected = pd.DataFrame(engine.play(RULESET, players, seed=7, n_deals=n_deals).columns)
    with Environment(RULESET, opponents={1: opponent, 3: opponent}) as environment:
        rows = []
        for deal in range(n_deals):
            environment.reset(seed=7, deal=deal)
            while not environment.terminated:
                assert environment.agent_selection in (0, 2)
                environment.step(environment.builtin_action("greedy"))
            rows.append(environment.record_row)
    assert pd.DataFrame(rows).astype(expected.dtypes.to_dict()).equals(expected)


def test_an_opponent_that_raises_is_one_player_failure_naming_it():
    environment = Environment(RULESET, opponents={2: "tests/players/python_players.py:Raiser:at=1"})
    with pytest.raises(PlayerFailure, match=r"player tests/players/python_players.py:Raiser:at=1 raised at deal 1, seat 2"):
        for deal in range(3):
            environment.reset(seed=1, deal=deal)
            while not environment.terminated:
                environment.step(environment.builtin_action("greedy"))


@pytest.mark.parametrize("threads", [1, 2])
def test_a_batch_with_a_numba_opponent_steps_each_table_as_a_single_table_would(threads):
    n_tables, seed, opponents = 4, 4, {1: OPPONENTS[0], 3: "greedy"}
    batch = BatchEnvironment(n_tables, RULESET, seed=seed, threads=threads, opponents=opponents)
    batch.reset()
    finished = {table: [] for table in range(n_tables)}
    played = np.zeros(n_tables, np.int64)
    for _ in range(120):
        assert np.isin(batch.actors, (0, 2)).all()
        batch.step(batch.masks.argmax(axis=1))
        for table in np.flatnonzero(batch.finished):
            finished[table].append((table + n_tables * played[table], *batch.rewards[table]))
            played[table] += 1
    assert played.min() >= 1
    single = Environment(RULESET, opponents=opponents)
    for results in finished.values():
        assert results == _single_table_results(single, seed, [deal for deal, *_ in results])

"""Actions in the learning environments: the masks are the step environment's legal actions, in the
observation and in the infos; an illegal action ends the episode as PettingZoo's classic environments
document (the offender gets ``illegal_reward``, the others 0, with a warning naming it and the legal
actions), or, with ``illegal_reward=None``, raises one error naming them."""

import numpy as np
import pytest

import sim.rl
from sim.core.actions import ACTION_BASE, DISCARD, N_ACTIONS, NO_TILE, PASS
from sim.players.user_players import PlayerFailure


@pytest.mark.parametrize(("ruleset_id", "seats"), [("erren", 2), ("liangmen-xuezhan", 4), ("sanren-liangfang", 3), ("mcr", 4)])
def test_the_masks_are_the_legal_actions_of_the_seat_to_act_and_zero_for_the_others(ruleset_id, seats):
    environment = sim.rl.pettingzoo_env(ruleset_id, n_seats=seats)
    environment.reset(seed=2)
    table = environment.table.environment
    steps = 0
    for agent in environment.agent_iter():
        observation, _, terminated, _, info = environment.last()
        if terminated:
            assert not observation["action_mask"].any()
            environment.step(None)
            continue
        assert agent == f"seat_{table.agent_selection}"
        assert observation["action_mask"].dtype == np.int8
        assert np.array_equal(observation["action_mask"], table.legal_mask.astype(np.int8))
        assert np.array_equal(info["action_mask"], observation["action_mask"])
        for other in environment.agents:
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
                assert not environment.infos[other]["action_mask"].any()
        environment.step(table.builtin_action("greedy"))
        steps += 1
    assert steps > 10


def _an_illegal_action(mask):
    return int(np.flatnonzero(mask == 0)[0])


def test_pettingzoo_an_illegal_action_ends_the_deal_with_the_penalty_for_the_offender_only():
    environment = sim.rl.pettingzoo_env("liangmen-xuezhan", illegal_reward=-50.0, render_mode="ansi")
    environment.reset(seed=1)
    offender = environment.agent_selection
    action = _an_illegal_action(environment.last()[0]["action_mask"])
    with pytest.warns(UserWarning, match=rf"{offender}: {action} \(.*\) is not a legal action here; legal: "):
        environment.step(action)
    assert all(environment.terminations.values())
    returns = {}
    for agent in environment.agent_iter():
        _, reward, terminated, _, _ = environment.last()
        assert terminated
        returns[agent] = reward
        environment.step(None)
    assert returns == {agent: (-50.0 if agent == offender else 0.0) for agent in environment.possible_agents}
    assert environment.render().endswith(f"{offender} took the illegal action {action} ({_text(action)}): the episode ended\n")


def _text(action):
    from sim.core.actions import action_text

    return action_text(action)


def test_an_illegal_action_raises_naming_it_and_the_legal_ones_when_there_is_no_penalty():
    for environment in (sim.rl.pettingzoo_env("erren", illegal_reward=None),
                        sim.rl.gymnasium_env("erren", illegal_reward=None)):
        environment.reset(seed=1)
        table = environment.table.environment
        legal = np.flatnonzero(table.legal_mask)
        illegal = next(code for code in range(N_ACTIONS) if code % ACTION_BASE < 34 and code not in legal)
        before = table.state.hands.copy()
        with pytest.raises(PlayerFailure) as raised:
            environment.step(illegal)
        message = str(raised.value)
        assert message.startswith(f"seat_{table.agent_selection}: {illegal} ({_text(illegal)}) is not a legal action here; legal: ")
        assert all(f"{code} ({_text(code)})" in message for code in legal)
        assert np.array_equal(table.state.hands, before) and not table.terminated


def test_gymnasium_an_illegal_action_ends_the_episode_with_the_penalty():
    environment = sim.rl.gymnasium_env("erren")
    observation, _ = environment.reset(seed=1)
    with pytest.warns(UserWarning, match="is not a legal action here"):
        observation, reward, terminated, truncated, info = environment.step(_an_illegal_action(observation["action_mask"]))
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert not observation["action_mask"].any() and not info["action_mask"].any()
    with pytest.raises(PlayerFailure, match="reset the environment"):
        environment.step(DISCARD * ACTION_BASE)


@pytest.mark.parametrize("action", [2.0, "3", None, True])
def test_an_action_that_is_not_an_integer_code_is_refused(action):
    for environment in (sim.rl.pettingzoo_env("erren"), sim.rl.gymnasium_env("erren")):
        environment.reset(seed=1)
        with pytest.raises(TypeError, match="an action is an Action or its integer code"):
            environment.step(action)


def test_a_code_past_the_action_space_reads_as_no_action():
    environment = sim.rl.gymnasium_env("erren", illegal_reward=None)
    environment.reset(seed=1)
    with pytest.raises(PlayerFailure, match=f"{N_ACTIONS} \\(not an action code: they run from 0 to {N_ACTIONS - 1}\\)"):
        environment.step(N_ACTIONS)
    with pytest.raises(PlayerFailure, match="no action: its tile part names no tile"):
        environment.step(PASS * ACTION_BASE + NO_TILE - 1)


@pytest.mark.parametrize("make", [sim.rl.pettingzoo_env, sim.rl.gymnasium_env])
@pytest.mark.parametrize(("options", "error", "words"), [
    ({"illegal_reward": float("nan")}, TypeError, "illegal_reward must be None or a finite number"),
    ({"oracle": 1}, TypeError, "oracle must be True or False"),
    ({"render_mode": "rgb_array"}, ValueError, "render_mode must be one of ansi, human"),
    ({"n_seats": 3}, ValueError, "erren is played by 2 players, not 3"),
])
def test_a_bad_option_is_one_clear_error(make, options, error, words):
    with pytest.raises(error, match=words):
        make("erren", **options)


def test_gymnasium_opponents_must_name_every_other_seat():
    with pytest.raises(ValueError, match="opponents names no player for seat 2"):
        sim.rl.gymnasium_env("liangmen-xuezhan", opponents={1: "greedy", 3: "greedy"})
    with pytest.raises(ValueError, match="seat 0 is the learner's"):
        sim.rl.gymnasium_env("erren", opponents={0: "greedy", 1: "greedy"})
    with pytest.raises(ValueError, match="opponents fill all 2 seats: leave at least one seat to the agent"):
        sim.rl.pettingzoo_env("erren", opponents={0: "greedy", 1: "greedy"})

"""Importing ``sim.rl`` registers every shipped ruleset with Gymnasium as ``mjsim/<ruleset>-v0``, once."""

import warnings

import gymnasium

import sim.rl
from sim.families import ruleset_ids


def test_every_shipped_ruleset_is_registered():
    for ruleset_id in ruleset_ids():
        spec = gymnasium.spec(f"mjsim/{ruleset_id}-v0")
        assert spec.kwargs == {"ruleset": ruleset_id}


def test_gymnasium_make_builds_the_environment_with_its_options():
    environment = gymnasium.make("mjsim/erren-v0", seat=1, opponents="value")
    assert isinstance(environment.unwrapped, sim.rl.MahjongGymEnv)
    assert environment.unwrapped.seat == 1
    observation, info = environment.reset(seed=3)
    seat_0, seat_1 = environment.unwrapped.table.names.names
    assert seat_0.startswith("value") and seat_1 == "agent"
    assert observation in environment.observation_space
    assert (info["action_mask"] == observation["action_mask"]).all()
    assert environment.unwrapped.table.environment.agent_selection == 1


def test_registering_again_changes_nothing_and_warns_of_nothing():
    before = dict(gymnasium.registry)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sim.rl.register_environments()
    assert dict(gymnasium.registry) == before


def test_gymnasium_make_plays_an_episode_against_ev_and_names_it_as_mjsim_replay_does():
    environment = gymnasium.make("mjsim/erren-v0", opponents="ev", render_mode="ansi")
    observation, info = environment.reset(seed=5)
    assert environment.unwrapped.table.names.names[1].startswith("ev:")
    terminated, steps = False, 0
    while not terminated:
        action = int(info["action_mask"].argmax())
        observation, reward, terminated, truncated, info = environment.step(action)
        steps += 1
    assert steps > 3
    assert "ev:" in environment.render()
    environment.close()

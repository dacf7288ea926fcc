"""Every shipped ruleset registered with Gymnasium as ``mjsim/<ruleset>-v0``, so that
``gymnasium.make("mjsim/erren-v0")`` builds ``sim.rl.MahjongGymEnv`` for it (keyword arguments of ``make``
are the environment's options: ``seat``, ``opponents``, ``n_seats``, ...)."""

import gymnasium

from sim.families import ruleset_ids

ENTRY_POINT = "sim.rl:MahjongGymEnv"


def environment_id(ruleset_id: str) -> str:
    return f"mjsim/{ruleset_id}-v0"


def register_environments() -> None:
    """Register the id of every shipped ruleset not registered yet (so a second call, or import, changes
    nothing and warns of nothing)."""
    for ruleset_id in ruleset_ids():
        if environment_id(ruleset_id) not in gymnasium.registry:
            gymnasium.register(environment_id(ruleset_id), entry_point=ENTRY_POINT, kwargs={"ruleset": ruleset_id})

"""mjsim for reinforcement learning (docs/learning.md): a PettingZoo environment of the agent-environment cycle
and a Gymnasium environment for one learning seat, over the same engine ``mjsim run`` plays, for every
shipped ruleset. Importing the package registers ``mjsim/<ruleset>-v0`` with Gymnasium.

The names here stay put: ``pettingzoo_env``, ``gymnasium_env``, ``register_environments`` and the two
classes they build, and ``read_decisions`` (``sim.rl.decisions``: a decision dataset written by ``mjsim run
--decisions``). Needs the ``rl`` extra (``pip install 'mjsim[rl]'``: PettingZoo and Gymnasium).
"""

from sim.rl.decisions import DecisionDataset, read_decisions
from sim.rl.gymnasium_adapter import MahjongGymEnv, gymnasium_env
from sim.rl.pettingzoo_adapter import MahjongAECEnv, pettingzoo_env
from sim.rl.registration import register_environments

__all__ = ["DecisionDataset", "MahjongAECEnv", "MahjongGymEnv", "gymnasium_env", "pettingzoo_env", "read_decisions",
           "register_environments"]

register_environments()

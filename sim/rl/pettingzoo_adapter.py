"""mjsim as a PettingZoo environment of the agent-environment cycle (AEC): the seats not given to the engine's
opponents are agents ``seat_0`` .. ``seat_{n-1}``, one deal is an episode, and the seat the engine asks acts
(docs/learning.md#pettingzoo).

PettingZoo's bookkeeping lives here (agents, rewards and their sums, terminations, truncations, infos, the
steps of finished agents); the table, its observations and its rules are ``sim.rl.table``'s.
"""

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from sim.core.actions import N_ACTIONS
from sim.rl.table import LearningTable, agent_name

RENDER_MODES = ("ansi", "human")


def checked_render_mode(render_mode) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
    return render_mode


class MahjongAECEnv(AECEnv):
    """A PettingZoo AEC environment of one mjsim table (see ``pettingzoo_env``)."""

    metadata = {
        "name": "mjsim_v0",
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,  # text, printed once a step: the figure only tells tools rendering is implemented
        "is_parallelizable": False,  # one seat decides at a time (docs/learning.md#no-parallel-form)
    }

    def __init__(self, ruleset="erren", *, opponents: dict | None = None, n_seats: int | None = None,
                 stake: float = 1.0, fee: float = 0.0, oracle: bool = False, illegal_reward: float | None = -1.0,
                 render_mode: str | None = None):
        super().__init__()
        opponents = {} if opponents is None else opponents
        self.render_mode = checked_render_mode(render_mode)
        self.table = LearningTable(ruleset, opponents, n_seats, stake, fee, oracle, illegal_reward)
        self.metadata = {**type(self).metadata, "name": f"mjsim_{self.table.ruleset.id}_v0"}
        self.possible_agents = [agent_name(seat) for seat in self.table.agent_seats]
        self._seats = dict(zip(self.possible_agents, self.table.agent_seats, strict=True))
        self.observation_spaces = {agent: self.table.observation_space() for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(N_ACTIONS) for agent in self.possible_agents}
        self.agents = []

    @property
    def mjsim_seed(self) -> int | None:
        """The mjsim seed of the current sequence of episodes."""
        return self.table.episodes.seed

    @property
    def mjsim_deal(self) -> int | None:
        """The mjsim deal the current episode plays (``mjsim replay --seed SEED --deal DEAL`` shows it)."""
        return self.table.episodes.deal

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """The next episode: see sim.rl.episodes for `seed` and `options` (``deal``, ``dealer``)."""
        self.table.reset(seed, options, _fresh_seed, unknown_keys="warn")
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self.agent_selection = agent_name(self.table.seat_to_act)
        self._update_infos()

    def observe(self, agent):
        """The agent's observation: ``observation`` (the encoding) and ``action_mask`` (all 0 unless it is to act)."""
        return self.table.observation(self._seats[agent])

    def step(self, action) -> None:
        """The agent to act answers with `action`; a finished agent steps with None (PettingZoo's rule).
        An illegal action ends the episode with ``illegal_reward`` for the agent and 0 for the others, as in
        PettingZoo's classic environments (None at construction: it raises instead)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        rewards = self.table.play(action)
        self._cumulative_rewards[agent] = 0.0
        if rewards is None:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = agent_name(self.table.seat_to_act)
        else:
            self.rewards = {name: float(rewards[self._seats[name]]) for name in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        self._update_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _update_infos(self):
        """Each agent's info: its action mask, a new array (the same as its observation's)."""
        self.infos = {agent: {"action_mask": self.table.mask(self._seats[agent])} for agent in self.agents}

    def render(self) -> str | None:
        """``ansi``: the deal so far as ``mjsim replay`` prints it; ``human``: that text printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() with no render_mode: give render_mode='ansi' or 'human' at construction")
            return None
        text = self.table.text()
        if self.render_mode == "ansi":
            return text
        print(text, end="")
        return None

    def close(self) -> None:
        """End the opponents' programs (exec: players); the table is otherwise arrays in this process."""
        self.table.environment.close()


def _fresh_seed() -> int:
    """A seed for a sequence no seed started: from the operating system's entropy."""
    return int(np.random.default_rng().integers(2**64, dtype=np.uint64))


def pettingzoo_env(ruleset="erren", **options) -> MahjongAECEnv:
    """The PettingZoo AEC environment of `ruleset` (a name, a .toml file or a Ruleset), every family and seat
    count. Options: ``opponents`` ({seat: player text}: played inside the engine, not agents), ``n_seats``
    (血战), ``stake``, ``fee``, ``oracle``, ``illegal_reward``, ``render_mode`` (docs/learning.md)."""
    return MahjongAECEnv(ruleset, **options)

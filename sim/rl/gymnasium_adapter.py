"""mjsim as a Gymnasium environment for one learner: one seat learns, every other seat is an opponent played
inside the engine, and one deal is an episode (docs/learning.md#gymnasium).

Gymnasium's bookkeeping lives here (its random generator, the five values of ``step``); the table, its
observations and its rules are ``sim.rl.table``'s. Opponents, any player ``mjsim run --players`` takes, answer
inside the step environment, so after each step the learner is to act again, or the deal is over.
"""

import gymnasium
import numpy as np
from gymnasium import spaces

from sim.core.actions import N_ACTIONS
from sim.players.environment import checked_seed, whole_number
from sim.rl.pettingzoo_adapter import RENDER_MODES, checked_render_mode
from sim.rl.table import LearningTable, seat_count


def opponents_of(opponents, learner: int, n_seats: int) -> dict:
    """{seat: player text} of every seat but the learner's: `opponents` is one text for all of them, or a dict
    naming each of them (and not the learner's seat)."""
    others = [seat for seat in range(n_seats) if seat != learner]
    if isinstance(opponents, str):
        return dict.fromkeys(others, opponents)
    if not isinstance(opponents, dict):
        raise TypeError(f"opponents is one player text for every other seat, or a dict of seat: text; not {opponents!r}")
    if learner in opponents:
        raise ValueError(f"seat {learner} is the learner's: it cannot also be an opponent")
    missing = [seat for seat in others if seat not in opponents]
    if missing:
        raise ValueError(f"opponents names no player for seat {missing[0]}: name every seat but the learner's "
                         f"({', '.join(map(str, others))}), or give one text for all of them")
    return dict(opponents)


class MahjongGymEnv(gymnasium.Env):
    """A Gymnasium environment of one mjsim table, seat ``seat`` learning (see docs/learning.md#gymnasium).
    Options as ``sim.rl.pettingzoo_env``'s, but ``seat`` (default 0) and ``opponents``, one player text for
    every other seat (default ``greedy``) or a dict of seat: text naming every other seat."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, ruleset="erren", *, seat: int = 0, opponents="greedy", n_seats: int | None = None,
                 stake: float = 1.0, fee: float = 0.0, oracle: bool = False, illegal_reward: float | None = -1.0,
                 render_mode: str | None = None):
        self.render_mode = checked_render_mode(render_mode)
        ruleset, n_seats = seat_count(ruleset, n_seats)
        seat = whole_number(seat, f"seat (the learner's, at a table of {n_seats})", 0, n_seats - 1)
        self.table = LearningTable(ruleset, opponents_of(opponents, seat, n_seats), n_seats, stake, fee, oracle,
                                   illegal_reward)
        self.seat = seat
        self.observation_space = self.table.observation_space()
        self.action_space = spaces.Discrete(N_ACTIONS)

    @property
    def mjsim_seed(self) -> int | None:
        """The mjsim seed of the current sequence of episodes."""
        return self.table.episodes.seed

    @property
    def mjsim_deal(self) -> int | None:
        """The mjsim deal the current episode plays (``mjsim replay --seed SEED --deal DEAL`` shows it)."""
        return self.table.episodes.deal

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """The next episode: see sim.rl.episodes for `seed` and `options` (``deal``, ``dealer``). Returns
        (observation, info); info's ``action_mask`` is the observation's."""
        if seed is not None:
            checked_seed(seed)  # mjsim's range, before Gymnasium's generator takes it
        super().reset(seed=seed)
        self.table.reset(seed, options, self._fresh_seed, unknown_keys="refuse")
        return self._observed()

    def step(self, action):
        """(observation, reward, terminated, truncated, info): the reward is the learner's money once the deal
        is over, 0 before. An illegal action ends the episode with ``illegal_reward`` (None at
        construction: it raises ``PlayerFailure``, a ValueError, naming the action and the legal ones)."""
        rewards = self.table.play(action)
        observation, info = self._observed()
        reward = 0.0 if rewards is None else float(rewards[self.seat])
        return observation, reward, rewards is not None, False, info

    def _observed(self):
        observation = self.table.observation(self.seat)
        return observation, {"action_mask": observation["action_mask"].copy()}

    def _fresh_seed(self) -> int:
        """A seed for a sequence no seed started, drawn from Gymnasium's generator (itself from fresh entropy)."""
        return int(self.np_random.integers(2**64, dtype=np.uint64))

    def close(self) -> None:
        """End the opponents' programs (exec: players)."""
        self.table.environment.close()

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


def gymnasium_env(ruleset="erren", **options) -> MahjongGymEnv:
    """The Gymnasium environment of `ruleset` for one learning seat (docs/learning.md#gymnasium)."""
    return MahjongGymEnv(ruleset, **options)

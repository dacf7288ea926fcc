"""One mjsim table as both learning environments drive it (docs/learning.md): the family's step environment
(``sim.families.environment``) built from the adapters' options, its episodes, the spaces, each seat's
observation and action mask, the rule for an illegal action, and the deal as text.

The PettingZoo and Gymnasium adapters (``pettingzoo_adapter``, ``gymnasium_adapter``) hold a
``LearningTable`` and add only their library's bookkeeping, so both play, observe and refuse alike.
"""

import math
import warnings
from numbers import Real

import numpy as np
from gymnasium import spaces

from sim.core.actions import N_ACTIONS, action_text
from sim.core.notation import NotationError
from sim.families.environment import make_environment
from sim.players.environment import ruleset_of, step_code, whole_number
from sim.players.user_players import PlayerFailure
from sim.rl import observations, rendering
from sim.rl.episodes import Episodes, checked_options


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def checked_flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {value!r}")
    return bool(value)


def checked_illegal_reward(value) -> float | None:
    """None (an illegal action raises) or the finite reward an illegal action ends the episode with."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real) or not math.isfinite(value):
        raise TypeError(f"illegal_reward must be None or a finite number, not {value!r}")
    return float(value)


def seat_count(ruleset, n_seats) -> tuple:
    """(the Ruleset, its table's seats): `n_seats` checked against the counts the ruleset is played at, its
    first count when None."""
    ruleset = ruleset_of(ruleset)
    n_seats = ruleset.players[0] if n_seats is None else whole_number(n_seats, "n_seats", 2, 4)
    if n_seats not in ruleset.players:
        raise ValueError(f"{ruleset.id} is played by {' or '.join(map(str, ruleset.players))} players, not {n_seats}")
    return ruleset, n_seats


def _describe(code: int) -> str:
    """`code` and how it reads (``discard 3m``), or why it reads as no action."""
    if not 0 <= code < N_ACTIONS:
        return f"{code} (not an action code: they run from 0 to {N_ACTIONS - 1})"
    try:
        return f"{code} ({action_text(code)})"
    except NotationError:  # a code below N_ACTIONS whose tile part names no tile
        return f"{code} (no action: its tile part names no tile)"


class LearningTable:
    """A table of `ruleset` whose seats in `opponents` ({seat: player text}) are played inside the engine and
    whose other seats are the learner's. ``n_seats`` for a 血战 ruleset that allows several counts; ``stake``
    and ``fee`` price the rewards (sim.families.environment); ``oracle`` adds the hidden information to the
    observations; ``illegal_reward`` is what an illegal action gets (it ends the episode), None to raise."""

    def __init__(self, ruleset, opponents: dict, n_seats, stake, fee, oracle, illegal_reward):
        ruleset, n_seats = seat_count(ruleset, n_seats)
        self.environment = make_environment(ruleset, opponents=opponents, stake=stake, fee=fee, n_seats=n_seats)
        self.n_seats = n_seats
        self.oracle = checked_flag(oracle, "oracle")
        self.illegal_reward = checked_illegal_reward(illegal_reward)
        self.agent_seats = tuple(seat for seat in range(n_seats) if seat not in opponents)
        self.names = rendering.seat_names(self.environment)
        self.episodes = Episodes()
        self.illegal_note = None  # why the episode ended before the deal did (an illegal action), if it did
        self._bounds = observations.bounds(self.environment, self.oracle)

    @property
    def ruleset(self):
        return self.environment.ruleset

    def observation_space(self) -> spaces.Dict:
        """A new space object (each agent holds its own, seeded apart): the encoding's Box and the action mask
        (int8 0 or 1 per action code, as PettingZoo's classic environments and Gymnasium's masked sampling
        take it)."""
        low, high = self._bounds
        return spaces.Dict({
            "observation": spaces.Box(low, high, dtype=observations.DTYPE),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), dtype=np.int8),
        })

    @property
    def over(self) -> bool:
        """The episode is over: the deal ended, or an illegal action ended it."""
        return self.environment.terminated or self.illegal_note is not None

    @property
    def seat_to_act(self) -> int | None:
        return None if self.over else self.environment.agent_selection

    def mask(self, seat: int) -> np.ndarray:
        """int8 (N_ACTIONS,): 1 at each legal action of `seat`'s pending decision, all 0 when it has none."""
        if seat != self.seat_to_act:
            return np.zeros(N_ACTIONS, np.int8)
        return self.environment.legal_mask.astype(np.int8)

    def observation(self, seat: int) -> dict:
        return {"observation": observations.observe(self.environment, seat, self.oracle), "action_mask": self.mask(seat)}

    def reset(self, seed, options, fresh_seed, unknown_keys: str) -> None:
        """Deal the next episode (sim.rl.episodes), the options and seed checked before anything moves."""
        options = checked_options(options, self.n_seats, unknown_keys)
        self.episodes.begin(self.environment, seed, options, fresh_seed)
        self.illegal_note = None

    def play(self, action) -> np.ndarray | None:
        """Answer the pending decision with `action`; each seat's reward (float64 (n_seats,)) if that ended the
        episode, else None. An illegal action raises ``PlayerFailure`` naming it and the legal ones when
        ``illegal_reward`` is None; otherwise it ends the episode with ``illegal_reward`` for the seat and 0
        for the others, with a warning saying so."""
        code = step_code(action)
        if self.over:
            raise PlayerFailure("the episode is over: reset the environment before stepping it")
        seat = self.environment.agent_selection
        legal = np.flatnonzero(self.environment.legal_mask)
        if code not in legal:
            message = (f"{agent_name(seat)}: {_describe(code)} is not a legal action here; legal: "
                       + ", ".join(_describe(int(other)) for other in legal))
            if self.illegal_reward is None:
                raise PlayerFailure(message)
            self.illegal_note = f"{agent_name(seat)} took the illegal action {_describe(code)}: the episode ended"
            warnings.warn(f"{message}. The episode ends: {self.illegal_reward:+g} to {agent_name(seat)}, "
                          f"0 to the other seats", stacklevel=3)
            rewards = np.zeros(self.n_seats)
            rewards[seat] = self.illegal_reward
            return rewards
        self.environment.step(code)
        return self.environment.rewards.copy() if self.environment.terminated else None

    def text(self) -> str:
        """The deal so far as ``mjsim replay`` prints it (sim.rl.rendering)."""
        seat = self.seat_to_act
        note = self.illegal_note if seat is None else f"{agent_name(seat)} to act"
        return rendering.deal_text(self.environment, self.names, note)

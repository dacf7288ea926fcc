"""The step environment, the part every family shares (docs/write-a-player.md#a-step-environment): the engine
of `mjsim run` stopped at each decision of an agent's seat, for search and learning.

This module owns what does not depend on the game: which seats the built-in opponents take, refusing an
illegal step before it reaches the engine, the legal-action mask, the agent-environment cycle (the seat to
act observes, then acts), the checks of the batched form, and ``make_environment`` /
``make_batch_environment``, which find the family of a ruleset (``sim.families``) and build its
environment. Each family's ``sim.<family>.environment`` holds its numba kernels (running a deal on to the
next agent decision, settling a finished deal's money, stepping many tables at once) and subclasses
``StepEnvironment`` and ``BatchStepEnvironment``.
"""

import importlib

import numpy as np

from sim.actions import N_ACTIONS
from sim.ruleset import load_ruleset
from sim.user_players import PlayerFailure

MAX_TABLES = 1_000_000
MAX_THREADS = 256


def heuristic_seats(opponents, n_seats: int, players, agent_kind: int):
    """(kinds, parameters) of a table: the seats in `opponents` ({seat: heuristic text}) played by the
    family's built-in heuristics (`players`: the family's players module), the others by the agent
    (`agent_kind`: the engine's USER)."""
    kinds = np.full(n_seats, agent_kind, np.int64)
    parameters = np.zeros((n_seats, players.N_PARAMETERS))
    for seat, text in (opponents or {}).items():
        if seat not in range(n_seats):
            raise ValueError(f"a table of {n_seats} seats has seats 0 to {n_seats - 1}, not {seat}")
        kinds[seat], parameters[seat], _ = players.parse_player(text)
    return kinds, parameters


class StepEnvironment:
    """One table stepped one decision at a time. A family's subclass sets ``ruleset``, ``state``, ``work``
    (whose ``legal`` holds the pending decision's legal actions), ``rewards`` and ``ACTOR`` (the actor's
    slot of ``state.table``), and provides ``reset``, ``observation`` and the two engine calls below."""

    ACTOR = -1
    NO_ANSWER = -1
    _legal = ()

    def _run_to_agent(self, code: int) -> int:
        """Answer the pending decision with `code` (already checked legal; NO_ANSWER after a deal), then
        every decision that is not an agent's choice; the agent's number of legal actions then (0: over)."""
        raise NotImplementedError

    def _settle(self):
        """Write the finished deal's money into ``rewards``."""
        raise NotImplementedError

    def _advance(self, code: int = NO_ANSWER):
        n = self._run_to_agent(code)
        self._legal = tuple(self.work.legal[:n].tolist())
        self.rewards[:] = 0.0
        if n == 0:
            self._settle()
        return self.observation

    @property
    def terminated(self) -> bool:
        return not self._legal

    @property
    def agent_selection(self):
        """The seat to act, None once the deal is over."""
        return None if self.terminated else int(self.state.table[self.ACTOR])

    @property
    def legal_mask(self) -> np.ndarray:
        """bool (sim.actions.N_ACTIONS,): True at each legal action's code of the pending decision."""
        mask = np.zeros(N_ACTIONS, bool)
        mask[list(self._legal)] = True
        return mask

    def step(self, action):
        """Answer the pending decision with `action` (an ``Action`` or its code); returns the next
        observation, None once the deal is over (then ``rewards`` holds its money). An illegal action is
        refused (``PlayerFailure``) and the table is left as it was."""
        code = int(getattr(action, "code", action))
        if self.terminated:
            raise PlayerFailure("the deal is over: reset the environment before stepping it")
        if code not in self._legal:
            raise PlayerFailure(f"{code} is not a legal action here; legal: {', '.join(map(str, self._legal))}")
        return self._advance(code)


class BatchStepEnvironment:
    """Many tables stepped together inside numba. A family's subclass allocates, for `n` tables, ``tables``
    (each table's scalar fields: all zero reads as a deal over), ``next_deal``, ``masks``, ``rewards``,
    ``finished`` and ``steps``, and provides ``_step(actions)``, its numba kernel (a negative action: none,
    as at the start)."""

    def __init__(self, n_tables: int, threads: int):
        if not 1 <= n_tables <= MAX_TABLES:
            raise ValueError(f"n_tables must be between 1 and {MAX_TABLES:,}")
        if not 1 <= threads <= min(n_tables, MAX_THREADS):
            raise ValueError(f"threads must be between 1 and the number of tables (at most {MAX_THREADS})")
        self.n = n_tables

    def _step(self, actions):
        raise NotImplementedError

    def reset(self):
        """Deal every table its first deal (table b: deal b); the next ``step`` answers their decisions."""
        self.next_deal[:] = np.arange(self.n)
        self.tables[:] = 0  # every table "over": the step below deals it
        self._step(np.full(self.n, -1, np.int64))
        self.finished[:] = False
        self.rewards[:] = 0.0
        self.steps[:] = 0

    def step(self, actions):
        """Answer every table's pending decision: actions[b] must be legal in masks[b]."""
        actions = np.asarray(actions, np.int64)
        if actions.shape != (self.n,):
            raise ValueError(f"one action per table: {self.n} actions, not {actions.shape}")
        chosen = self.masks[np.arange(self.n), np.clip(actions, 0, N_ACTIONS - 1)] & (actions >= 0) & (actions < N_ACTIONS)
        if not chosen.all():
            table = int(np.flatnonzero(~chosen)[0])
            raise PlayerFailure(f"table {table}: action {int(actions[table])} is not legal there")
        self._step(actions)

    @property
    def decisions(self) -> int:
        """Decisions answered since ``reset``."""
        return int(self.steps.sum())


def _family_module(ruleset):
    from sim.families import family_of  # here: the families import their engines, which import much

    ruleset = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    return ruleset, importlib.import_module(f"sim.{family_of(ruleset).name}.environment")


def make_environment(ruleset, **options) -> StepEnvironment:
    """The step environment of `ruleset` (a name or a ``Ruleset``), whatever its family: ``opponents``,
    ``stake``, ``fee`` and, for a 血战 ruleset, ``n_seats``, as the family's ``Environment`` takes them."""
    ruleset, module = _family_module(ruleset)
    return module.Environment(ruleset, **options)


def make_batch_environment(n_tables: int, ruleset, **options) -> BatchStepEnvironment:
    """The batched step environment of `ruleset`, whatever its family (see ``make_environment``; also
    ``seed`` and ``threads``)."""
    ruleset, module = _family_module(ruleset)
    return module.BatchEnvironment(n_tables, ruleset, **options)

"""Python players the tests seat: one that answers with a built-in heuristic's own choice (through the live
state, which only a test may read), one that checks every legal-action list against the legality rules,
one whose reported chances of winning count its discards, and broken ones."""

import os

import numpy as np
from numba import njit

from sim.core.actions import (
    ACTION_BASE,
    CHOW,
    DECISION_TURN,
    DECLARE_READY,
    DOUBLE,
    KONG,
    N_ACTIONS,
    NO_TILE,
    PASS,
    PONG,
    WIN,
)
from sim.core.ruleset import load_ruleset
from sim.erren import engine
from sim.erren import players as heuristics
from sim.erren.table import (
    ACTOR,
    CAN_DOUBLE,
    DECISION,
    MAY_MELD,
    OFFER,
    READY,
    WIN_TOTAL,
    is_legal_claim,
    is_legal_turn_action,
    new_work,
    ready_after_discard,
)


class Builtin:
    """Answers exactly what the built-in heuristic `name` would. Only the deterministic heuristics: a user
    seat is not asked when it has a single choice, where `random` would still draw from its stream."""

    def __init__(self, name="greedy"):
        kind, vector, _ = heuristics.parse_player(name)
        self.kinds = np.array([kind, kind], np.int64)
        self.parameters = np.stack([vector, vector])
        self.work = new_work()
        self.rules = {}

    def reset(self, seat, ruleset, rng):
        if ruleset.name not in self.rules:
            self.rules[ruleset.name] = engine.kernel_rules(ruleset)[0]
        self.current = self.rules[ruleset.name]

    def act(self, observation):
        state = type(observation._state)(*(array.copy() for array in observation._state))  # the kernel writes into it
        return engine.builtin_action(self.kinds, self.parameters, state, self.current, self.work)


@njit(cache=True)
def _rule_legal(state, rules, scratch, out):
    """Every canonical action code the legality rules of sim.erren.table accept for the pending decision."""
    table = state.table
    seat, decision = table[ACTOR], table[DECISION]
    win_allowed, can_double, may_meld = table[WIN_TOTAL] >= 0, table[CAN_DOUBLE] != 0, table[MAY_MELD] != 0
    n = 0
    for action in range(N_ACTIONS):
        code, tile = action // ACTION_BASE, action % ACTION_BASE
        if (code in (WIN, DOUBLE, PASS, DECLARE_READY)) != (tile == NO_TILE) or (tile != NO_TILE and tile >= 34):
            continue
        if code == DECLARE_READY or (code == PASS and decision == DECISION_TURN):
            continue
        if table[READY + seat] == 1:
            legal = code == WIN and win_allowed or code == DOUBLE and win_allowed and can_double
        elif decision == DECISION_TURN:
            ready = ready_after_discard(seat, tile, state, rules, scratch) if tile < 34 else False
            legal = is_legal_turn_action(action, seat, win_allowed, can_double, may_meld, ready, state)
        else:
            # the rules read a pong's or kong's tile from the discard itself; a chow's is its lowest kind
            legal = tile <= table[OFFER] <= tile + 2 if code == CHOW else code not in (PONG, KONG) or tile == table[OFFER]
            legal = legal and is_legal_claim(action, seat, table[OFFER], win_allowed, can_double, may_meld, state)
        if legal:
            out[n] = action
            n += 1
    return n


class Auditor:
    """Checks, at every decision it is asked, that its legal actions are exactly what the rules accept;
    plays the first one. `mismatches` lists the decisions where they differ."""

    def __init__(self, ruleset="erren"):
        self.mismatches, self.decisions = [], 0
        self.rules = engine.kernel_rules(load_ruleset(ruleset))[0]
        self.out = np.zeros(N_ACTIONS, np.int64)
        self.scratch = new_work().shanten_scratch

    def act(self, observation):
        state = type(observation._state)(*(array.copy() for array in observation._state))  # the kernel writes
        n = _rule_legal(state, self.rules, self.scratch, self.out)
        expected = sorted(self.out[:n].tolist())
        if observation.decision == "opening ready":
            expected = [PASS * ACTION_BASE + NO_TILE, DECLARE_READY * ACTION_BASE + NO_TILE]
        self.decisions += 1
        if sorted(observation.legal_codes) != expected:
            self.mismatches.append((observation.deal, observation.decision, observation.legal_codes, expected))
        actions = observation.legal_actions
        return actions[observation.deal % len(actions)]


class Raiser:
    """Raises at its first decision of deal `at` (unless MJSIM_TEST_CALM is set: the player fixed)."""

    def __init__(self, at=0):
        self.at = at

    def act(self, observation):
        if observation.deal == self.at and not os.environ.get("MJSIM_TEST_CALM"):
            raise RuntimeError("the test player gives up")
        return observation.legal_actions[0]


class Illegal:
    """Answers with a tile it does not hold."""

    def act(self, observation):
        return "discard 9z"


class NotAPlayer:
    pass


class CountsItsDiscards:
    """Plays its first legal action and, at every decision, reports `scale` times the tiles it has discarded
    so far as its chance of winning (`scale` 2: a report that is not a chance once it has discarded a tile)."""

    def __init__(self, scale=0.01):
        self.scale = scale

    def act(self, observation):
        observation.win_chance = self.scale * int(observation.discards[observation.seat].sum())
        return observation.legal_actions[0]

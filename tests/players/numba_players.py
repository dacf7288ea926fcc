"""Numba players the tests seat: broken ones (one that raises, one that answers an action that is not legal, one
that reports a chance of winning that is not a number), one whose reports count its discards, and a random
player whose stream a parameter salts."""

import numpy as np
from numba import njit

from sim.core.actions import ACTION_BASE, DECISION_TURN, WIN
from sim.core.random_streams import random_below
from sim.players.numba_players import numba_player


@numba_player(turns=3.0)
@njit(cache=True)
def raises(observation, parameters, rng):
    """Plays its first legal action until it has discarded `turns` tiles, then raises on its next turn."""
    if observation.decision == DECISION_TURN and observation.discards[observation.seat].sum() >= parameters[0]:
        raise ValueError("the test player gives up")
    return observation.legal[0], rng


@njit(cache=True)
def illegal(observation, parameters, rng):
    return 9999, rng


@numba_player(scale=0.01)
@njit(cache=True)
def counts_its_discards(observation, parameters, rng):
    """Plays its first legal action and, at every decision, reports `scale` times the tiles it has discarded
    so far as its chance of winning: the reports kept must then count up one by one."""
    observation.win_chance[0] = parameters[0] * observation.discards[observation.seat].sum()
    return observation.legal[0], rng


@njit(cache=True)
def reports_nonsense(observation, parameters, rng):
    """Plays its first legal action and reports a chance of winning that is not a number."""
    observation.win_chance[0] = np.nan
    return observation.legal[0], rng


@numba_player(mode=0.0)
@njit(cache=True)
def hostile(observation, parameters, rng):
    """Plays its first legal action, and attacks the deal through its observation on the way: mode 0 zeroes
    its hand, fills the table's copies, its melds and the table fields, and writes into the rules' shanten
    table and its own parameters; mode 1 rewrites its legal actions to offer 'discard 1m' and answers it;
    mode 2 loops for ever at its first decision."""
    if parameters[0] == 1:
        observation.legal[0] = 0
        return 0, rng
    if parameters[0] == 2:
        count = 0
        while count >= 0:
            count = (count + 1) % 1000
    action = observation.legal[0]
    for kind in range(34):
        observation.hand[kind] = 0
        observation.visible[kind] = 4
        observation.unseen[kind] = 0
    observation.melds[0, 0, 0] = 3
    for field in range(observation.table.shape[0]):
        observation.table[field] = 7
    observation.rules.suit_table[0, 0] = 99
    parameters[0] = 0
    return action, rng


@numba_player(salt=0.0)
@njit(cache=True)
def salted_random(observation, parameters, rng):
    """Wins whenever it may, else plays a legal action at random from its seat's stream mixed with `salt`: two
    salts play alike in law but differently deal by deal, so their true difference is zero by symmetry."""
    for action in observation.legal:
        if action // ACTION_BASE == WIN:
            return action, rng
    salted = rng ^ (np.uint64(parameters[0]) * np.uint64(0x9E3779B97F4A7C15))
    salted, pick = random_below(salted, observation.legal.shape[0])
    return observation.legal[pick], salted

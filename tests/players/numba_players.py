"""Broken numba players the tests seat: one that raises, one that answers an action that is not legal."""

from numba import njit

from sim.actions import DECISION_TURN
from sim.numba_players import numba_player


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

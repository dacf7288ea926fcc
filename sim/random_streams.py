"""Counter-based random streams: every deal's randomness is a pure function of (seed, shard, deal).

A stream is one uint64 state from hashing those three numbers with splitmix64; drawing advances it by
the splitmix64 step. No global generator exists, so results never depend on scheduling or workers.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _mix(value):
    value = (value ^ (value >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    value = (value ^ (value >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return value ^ (value >> np.uint64(31))


@njit(cache=True)
def stream_state(seed, shard, deal):
    """The starting state of the stream of one deal."""
    state = _mix(np.uint64(seed) + _GOLDEN)
    state = _mix(state ^ (np.uint64(shard) + _GOLDEN))
    return _mix(state ^ (np.uint64(deal) + _GOLDEN))


@njit(cache=True, inline="always")
def next_random(state):
    """(new state, 64 random bits)."""
    state = state + _GOLDEN
    return state, _mix(state)


@njit(cache=True, inline="always")
def random_below(state, bound):
    """(new state, an integer uniform on 0..bound-1), by rejection so that no value is favoured."""
    bound64 = np.uint64(bound)
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0xFFFFFFFFFFFFFFFF) % bound64 + np.uint64(1)) % bound64
    while True:
        state, bits = next_random(state)
        if bits <= limit:
            return state, np.int64(bits % bound64)


@njit(cache=True)
def shuffle_in_place(state, values):
    """Fisher-Yates shuffle driven by the stream; returns the new state."""
    for position in range(values.shape[0] - 1, 0, -1):
        state, other = random_below(state, position + 1)
        values[position], values[other] = values[other], values[position]
    return state

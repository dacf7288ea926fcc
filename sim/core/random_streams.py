"""Counter-based random streams: every deal's randomness is a pure function of (seed, shard, deal).

A stream is one uint64 state from hashing those three numbers with splitmix64; drawing advances it by
the splitmix64 step. No global generator exists, so results never depend on scheduling or workers.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always", _nrt=False)
def _mix(value):
    value = (value ^ (value >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    value = (value ^ (value >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return value ^ (value >> np.uint64(31))


@njit(cache=True, _nrt=False)
def stream_state(seed, shard, deal):
    """The starting state of the stream of one deal."""
    state = _mix(np.uint64(seed) + _GOLDEN)
    state = _mix(state ^ (np.uint64(shard) + _GOLDEN))
    return _mix(state ^ (np.uint64(deal) + _GOLDEN))


@njit(cache=True, inline="always", _nrt=False)
def next_random(state):
    """(new state, 64 random bits)."""
    state = state + _GOLDEN
    return state, _mix(state)


@njit(cache=True, inline="always", _nrt=False)
def random_below(state, bound):
    """(new state, an integer uniform on 0..bound-1) for 1 <= bound < 2**32.

    Lemire's multiply-and-shift on the top 32 bits, with his rejection step so that no value is favoured:
    a division only in the rare case that the low half falls below `bound`, where a modulo per call
    would cost more than the whole rest of a deal's shuffle.
    """
    bound64 = np.uint64(bound)
    while True:
        state, bits = next_random(state)
        product = (bits >> np.uint64(32)) * bound64
        low = product & np.uint64(0xFFFFFFFF)
        if low >= bound64 or low >= (np.uint64(0x100000000) - bound64) % bound64:
            return state, np.int64(product >> np.uint64(32))


@njit(cache=True, _nrt=False)
def shuffle_in_place(state, values):
    """Fisher-Yates shuffle driven by the stream; returns the new state."""
    for position in range(values.shape[0] - 1, 0, -1):
        state, other = random_below(state, position + 1)
        values[position], values[other] = values[other], values[position]
    return state

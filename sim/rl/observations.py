"""The numeric observation both learning environments give a seat: the one place they read it from the
family's step environment (docs/learning.md#the-observation).

``bounds`` declares the Box of an environment's observations and ``observe`` encodes what a seat sees, at any
time after ``reset``, the end of the deal included. ``oracle`` asks for the encoding with the hidden
information too (the other hands, the wall), for oracle-guided training.
"""

import numpy as np

HAND_KINDS = 34  # tile kinds in a concealed hand's counts
MOST_COPIES = 4


def bounds(environment, oracle: bool) -> tuple[np.ndarray, np.ndarray]:
    """(low, high): int8 arrays of the encoding's shape (size,)."""
    # Stand-in until the family encoders land: the lead swaps this for environment.encoding_bounds(oracle).
    size = HAND_KINDS * (_seats(environment) if oracle else 1)
    return np.zeros(size, np.int8), np.full(size, MOST_COPIES, np.int8)


def observe(environment, seat: int, oracle: bool) -> np.ndarray:
    """What `seat` sees now, as int8 (size,), a new array each call."""
    # Stand-in until the family encoders land: the lead swaps this for environment.encode(seat, oracle).
    hands = environment.state.hands[:, :HAND_KINDS]
    if not oracle:
        return hands[seat].astype(np.int8)
    order = [seat, *(other for other in range(_seats(environment)) if other != seat)]
    return hands[order].astype(np.int8).reshape(-1)


def _seats(environment) -> int:
    return len(environment.rewards)

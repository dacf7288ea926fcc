"""What an MCR win is worth under the ruleset's fans: the one place the family calls the three-suit MCR
evaluator (its fan total, flowers aside, and the best reading's fan counts). The engine, the built-in
players and, later, the numba players' helpers score through it.
"""

import numpy as np
from numba import njit

from kernels.fan_ids import N_FANS

NOT_A_WIN = -1
BEST_ROW = 0


# PROVISIONAL stand-in for the three-suit evaluator of branch issue38-fans (score_hand_all_suits and new_work in
# kernels/fans/), which this module imports once that branch is merged. Until then every complete hand scores
# 0 fans: the engine is exercised with min_fan = 0, and no fan is counted.
@njit(cache=True)
def new_fan_work():
    return np.zeros((1, N_FANS + 8), np.int64)


@njit(cache=True, _nrt=False)
def score_hand_all_suits(concealed, melds, n_melds, win, flags, flowers, values, priority, exclusion_start,
                         exclusion_target, work):
    for fan in range(N_FANS):
        work[BEST_ROW, fan] = 0
    return 0


@njit(cache=True, inline="always", _nrt=False)
def score_win(hand, melds, n_melds, tile, flags, flowers, rules, fan_work):
    """The fan total (flowers aside) of a complete hand (`hand`: the concealed tiles without the winning
    `tile`, beside `melds`) in the context `flags` (winds included), or NOT_A_WIN; the reading's fans stay
    in `fan_work` for ``copy_fans``."""
    return score_hand_all_suits(hand, melds, n_melds, tile, flags, flowers, rules.fan_values, rules.fan_priority,
                                rules.exclusion_start, rules.exclusion_target, fan_work)


@njit(cache=True, inline="always", _nrt=False)
def copy_fans(fan_work, out):
    """The fan counts of the reading ``score_win`` last kept, into `out`."""
    for fan in range(out.shape[0]):
        out[fan] = fan_work[BEST_ROW, fan]

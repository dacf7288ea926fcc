"""What an MCR win is worth under the ruleset's fans: the one place the family calls the three-suit MCR
evaluator (its fan total, flowers aside, and the best reading's fan counts). The engine, the built-in
players and, later, the numba players' helpers score through it.
"""

from numba import njit

from kernels.fans.mcr_all_suits import BEST_ROW, NOT_A_WIN, score_hand_all_suits
from kernels.fans.mcr_all_suits import new_work as new_fan_work

__all__ = ("NOT_A_WIN", "copy_fans", "new_fan_work", "score_win")


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

"""What a 血战 win is worth under the ruleset's own fans (kernels/fans/xuezhan.py): the raw value, the ruleset's
fans combined by its rule (multiplied, or 2 to the power of their sum) before any cap or payment rule: the
value of the win a decision offers (the engine's ``_win_value``), ``ev``'s and the numba players' helpers'. The
engine's settlement of a win calls the evaluator on its own work arrays (``_win``, ``_end``).
"""

from numba import njit

from kernels.fans.xuezhan import _score_xuezhan
from sim.xuezhan.table import COMBINE_MULTIPLY


# The fan evaluator allocates its work arrays, so this runs with reference counting on, whatever its caller's
# setting (numba would otherwise compile a callee with its caller's).
@njit(cache=True, _nrt=True)
def score_win(hand, melds, n_melds, tile, flags, rules, fan_counts):
    """The raw value of a complete hand (`hand`: the concealed tiles without the winning tile, beside `melds`)
    won on `tile` in the context `flags`; each fan's count goes to `fan_counts`."""
    return _score_xuezhan(
        hand, melds, n_melds, tile, flags, rules.fan_values, rules.fan_priority, rules.exclusion_start,
        rules.exclusion_target, rules.settings[COMBINE_MULTIPLY], fan_counts,
    )

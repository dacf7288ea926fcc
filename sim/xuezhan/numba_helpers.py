"""The 血战 family's helpers for numba players (docs/write-a-player.md#a-numba-player), beside the family-blind
ones of ``sim.players.numba_players``: the raw value of a win."""

from numba import njit

from sim.xuezhan.table import is_complete as _xuezhan_complete
from sim.xuezhan.win_value import score_win


@njit(cache=True, inline="always", _nrt=False)
def xuezhan_win_value(hand, melds, n_melds, tile, flags, rules, fan_counts):
    """The 血战 family's raw value (the ruleset's fans combined, before any cap or payment rule) of `hand`
    (its concealed tiles without `tile`) with `melds` winning on `tile` in the context `flags`
    (kernels.fan_ids: SELF_DRAWN_FLAG, ...); -1 if that is not a complete hand. It does not look at 定缺: a
    hand holding its void suit may not win (``observation.voids``). `fan_counts`:
    ``observation.work.fan_counts``."""
    hand[tile] += 1
    complete = _xuezhan_complete(hand, n_melds, rules.complete_bits)
    hand[tile] -= 1
    if not complete:
        return -1
    return score_win(hand, melds, n_melds, tile, flags, rules, fan_counts)

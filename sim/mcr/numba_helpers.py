"""The MCR family's helpers for numba players (docs/write-a-player.md#a-numba-player), beside the family-blind
ones of ``sim.players.numba_players``: the fan total of a win."""

from numba import njit

from sim.mcr.table import is_winning_shape
from sim.mcr.win_value import NOT_A_WIN, score_win


@njit(cache=True, inline="always", _nrt=False)
def mcr_win_fans(hand, melds, n_melds, tile, flags, rules, work):
    """The fan total (flowers aside) of `hand` (its concealed tiles without `tile`) with `melds` winning on
    `tile` in the context `flags` (kernels.fan_ids: SELF_DRAWN_FLAG, ..., and the wind fields
    SEAT_WIND_SHIFT, ROUND_WIND_SHIFT: ``observation.seat_wind``, ``observation.round_wind``); -1 if that is
    not complete in any MCR shape. A win needs ``observation.min_fan`` of them. `work`: ``observation.work``."""
    hand[tile] += 1
    complete = is_winning_shape(hand, n_melds, rules.complete_bits, work.knitted)
    hand[tile] -= 1
    if not complete:
        return NOT_A_WIN
    return score_win(hand, melds, n_melds, tile, flags, 0, rules, work.fans)

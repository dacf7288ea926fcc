"""The 二人 family's helpers for numba players (docs/write-a-player.md#a-numba-player), beside the family-blind
ones of ``sim.players.numba_players``: what a win is worth, by MCR's fans or the ruleset's own evaluator."""

from numba import njit

from kernels.fans.mcr import NOT_A_WIN, _score_hand
from kernels.win_check import is_complete
from sim.erren.win_value import is_winning_shape, score_win


@njit(cache=True, inline="always", _nrt=False)
def win_fans(hand, melds, n_melds, tile, flags, rules, fan_work):
    """The MCR fan total (erren, erren-classic: flowers aside, before doubling) of `hand` (its concealed tiles without
    `tile`) with `melds` winning on `tile` in the context `flags` (kernels.fan_ids: READY_FLAG,
    SELF_DRAWN_FLAG, ...); -1 if that is not a complete hand. `fan_work`: ``observation.work.fans``."""
    hand[tile] += 1
    complete = is_complete(hand, n_melds, rules.complete_bits)
    hand[tile] -= 1
    if not complete:
        return -1
    total = _score_hand(hand, melds, n_melds, tile, flags, 0, rules.fan_values, rules.fan_priority,
                        rules.exclusion_start, rules.exclusion_target, rules.suit_table, fan_work)
    return -1 if total == NOT_A_WIN else total


@njit(cache=True, inline="always", _nrt=False)
def win_value(hand, melds, n_melds, tile, flags, bonus, rules, work):
    """The fan total of a 二人 win under the ruleset's own evaluator (MCR, or erren-challenge's with the
    face-up `bonus` tiles, ``observation.bonus``), -1 if that is not a complete hand; its points, where the
    ruleset scores points, are then in work.score[0]. As ``win_fans`` otherwise; `work`: ``observation.work``."""
    hand[tile] += 1
    complete = is_winning_shape(hand, n_melds, rules)
    hand[tile] -= 1
    if not complete:
        work.score[0] = 0
        return -1
    total = score_win(hand, melds, n_melds, tile, flags, 0, bonus, rules, work)
    return -1 if total == NOT_A_WIN else total

"""What a 二人 win is worth under the ruleset's own evaluator: MCR's fans (`erren`, `erren-classic`,
kernels/fans/mcr.py) or 004's fans and points (`erren-challenge`, kernels/fans/challenge.py), chosen by
``settings[SCORING]``. The engine, the built-in players and the numba players' helpers all score through
these few functions, so a ruleset's evaluator is named in one place.
"""

from numba import njit

from kernels.fans import challenge, mcr
from kernels.fans.challenge import LIMITS, POINTS, TOTAL, _score_challenge
from kernels.fans.mcr import _score_hand
from kernels.win_check import is_complete, is_complete_all_suits
from sim.erren.table import ALL_SUITS, FAN_CAP, PER_FAN_STEP, PER_LIMIT, SCORING, SCORING_CHALLENGE

NOT_A_WIN = -1


@njit(cache=True, inline="always", _nrt=False)
def is_winning_shape(hand, n_melds, rules):
    """Whether the concealed tiles (3k+2 of them, beside n_melds melds) make a complete hand: the fast
    万-and-honours check, or the one that reads every suit and knows thirteen orphans."""
    if rules.settings[ALL_SUITS] != 0:
        return is_complete_all_suits(hand, n_melds, rules.complete_bits)
    return is_complete(hand, n_melds, rules.complete_bits)


@njit(cache=True, inline="always", _nrt=False)
def score_win(hand, melds, n_melds, tile, flags, flowers, bonus, rules, work):
    """The fan total of a win on `tile` (`hand`: the concealed tiles without it), or NOT_A_WIN when the tiles
    are not complete. MCR: the total flowers aside (`flowers` counts them). Challenge: the capped total with
    花牌 from `bonus` (0 for a 役满 hand). Either way work.score[POINTS] holds the points (0 under MCR, whose
    fans are the money) and work.score[LIMITS] the 役满, and the reading's fans stay in the work arrays for
    ``copy_fans``."""
    score = work.score
    if rules.settings[SCORING] == SCORING_CHALLENGE:
        settings = rules.settings
        _score_challenge(hand, melds, n_melds, tile, flags, bonus, rules.fan_values, rules.fan_priority,
                         rules.is_limit, rules.exclusion_start, rules.exclusion_target, settings[FAN_CAP],
                         settings[PER_FAN_STEP], settings[PER_LIMIT], work.challenge_fans, score)
        if score[POINTS] == NOT_A_WIN:
            score[POINTS] = 0
            return NOT_A_WIN
        return score[TOTAL]
    score[POINTS], score[LIMITS] = 0, 0
    return _score_hand(hand, melds, n_melds, tile, flags, flowers, rules.fan_values, rules.fan_priority,
                       rules.exclusion_start, rules.exclusion_target, rules.suit_table, work.fans)


@njit(cache=True, inline="always", _nrt=False)
def copy_fans(rules, work, out):
    """The fan counts of the reading ``score_win`` last kept into `out` (zeroed by the caller)."""
    if rules.settings[SCORING] == SCORING_CHALLENGE:
        fan_work = work.challenge_fans
        for index in range(1, fan_work[challenge.BEST_LIST_ROW, 0] + 1):
            fan = fan_work[challenge.BEST_LIST_ROW, index]
            out[fan] = fan_work[challenge.BEST_ROW, fan]
        return
    fan_work = work.fans
    for index in range(1, fan_work[mcr.BEST_LIST_ROW, 0] + 1):
        fan = fan_work[mcr.BEST_LIST_ROW, index]
        out[fan] = fan_work[mcr.BEST_ROW, fan]

"""The MCR fan evaluator on every tile: a winning hand of three suits and honours in, all 81 fans out.

Four-player MCR (国标, the 2006 official rules) scores hands of 万, 筒, 条 and honours; the 二人 evaluator
(``kernels/fans/mcr.py``) stays the one for 万 and honours. This kernel finds every way to read a hand
and keeps the best (就高不就低):

- the irregular forms, tried first on a hand without melds: 七对 (连七对), 全不靠 and 七星不靠, 十三幺,
  组合龙 (also with one meld) with its fourth set and pair, and 九莲宝灯;
- the regular readings (four sets and a pair), tried when no irregular form fits or the form is 七对:
  each suit's tiles are split on their own (the pair's rank fixed modulo 3 by the suit's rank sum, then
  pung-or-three-chows at each rank holding three or more), and the readings are the products of the
  suits' splits.

A reading's raw fans follow the combination principles as the MCR reference calculator PyMahjongGB
(ChineseOfficialMahjongHelper's algorithm) applies them: a four- or three-set fan first, then what the
remaining set may still add (套算一次), and the two-chow fans cut back from the repeated ones (不得相同).
Which fans another excludes (不计) is the ruleset's data, applied in order of value; a fan that is itself
excluded excludes nothing. Three things stay structural, as in the reference: the 幺九刻 that 三风刻 and
the wind fans (圈风刻, 门风刻) already count, 无番和 when nothing else is left, and which of two equal
readings is kept (the reference's: the first in its order, unless a later one has 一色三同顺 or 三同刻,
and the last equal regular reading over 七对).

Inputs are the 二人 evaluator's: concealed counts without the winning tile, melds as (kind, first tile)
rows (``sim.core.notation.MeldKind``), the winning tile, win-context bits with the seat and round winds
(``kernels.fan_ids``: SEAT_WIND_SHIFT, ROUND_WIND_SHIFT), the flower count and the ruleset's arrays.
"""

import numpy as np
from numba import njit

from kernels.fan_ids import (
    FOURTH_TILE_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    N_FANS,
    ROBBING_KONG_FLAG,
    ROUND_WIND_SHIFT,
    SEAT_WIND_SHIFT,
    SELF_DRAWN_FLAG,
    WIND_FIELD_MASK,
    Fan,
)
from kernels.fans import fan_rows
from kernels.tiles import (
    HONOR_START,
    MELD_CHOW,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PONG,
    N_KINDS,
    PIN_START,
    SOU_START,
)

NOT_A_WIN = -1

# Rows of the int64 work array every scoring call reuses (allocated once per batch or engine run).
STANDING_ROW = 0  # concealed tiles plus the winning tile
MELD_TILES_ROW = 1  # copies of each kind inside the melds
FANS_ROW = 2  # fans of the reading being scored
BEST_ROW = 3  # fans of the best reading so far
EXCLUDED_ROW = 4  # the stamp of the reading that excluded each fan
CONTEXT_ROW = 5  # fans of how the hand won, every form has them
TRAITS_ROW = 6  # the context fans plus those of which tiles the hand holds (regular readings, 七对)
SCRATCH_ROW = 7  # a suit's counts while its splits are walked
WAIT_ROW = 8  # the tiles before the win, for the wait check
CHECK_ROW = 9  # a suit's counts while the wait check splits them; from FITS_COLUMN how each group fits
FITS_COLUMN = 16
# The fan rows are sparse: a fan is non-zero only if its list row (length at column 0, fan ids from
# column 1) names it, so a reading touches the few fans it has.
FANS_LIST_ROW = 10
BEST_LIST_ROW = 11
CONTEXT_LIST_ROW = 12
TRAITS_LIST_ROW = 13
# The reading: set i at columns 4i..4i+3 (is a chow, tile code (a chow's middle tile), kong: 0 none,
# 1 exposed, 2 concealed, claimed from another player), the pair's code at PAIR_COLUMN.
SET_ROW = 14
PAIR_COLUMN = 16
CHOWS_COLUMN, PUNGS_COLUMN, TALLY_COLUMN = 20, 24, 28  # scratch: the reading's chow and pung codes, sorted; fan tallies
SPLIT_COUNT_ROW = 15  # how many splits each suit has, in the reference's suit order (万, 条, 筒)
MAX_SPLITS = 4  # the most any suit of up to 14 tiles has (tests/kernels/test_mcr_fans.py counts them all)
SPLIT_ROWS = 16  # row SPLIT_ROWS + MAX_SPLITS * suit + i: (order key, pair rank or -1, sets, then kind, rank per set)
WORK_ROWS = SPLIT_ROWS + 3 * MAX_SPLITS + 1  # and a spare row a full suit's walk may write
WORK_WIDTH = max(N_FANS, N_KINDS) + 8
STAMP_COLUMN = WORK_WIDTH - 1  # in EXCLUDED_ROW: a fan is excluded when its cell equals this stamp

# Tile codes of the reference (suit in the high nibble: 1 万, 2 条, 3 筒, 4 honours; rank 1-9 or
# 东南西北中发白 1-7 low): its orders (splits, the sets tried for a three-set fan) follow these codes.
_REFERENCE_CODE = np.zeros(N_KINDS, np.int64)
for _rank in range(9):
    _REFERENCE_CODE[_rank] = 0x11 + _rank
    _REFERENCE_CODE[PIN_START + _rank] = 0x31 + _rank
    _REFERENCE_CODE[SOU_START + _rank] = 0x21 + _rank
_REFERENCE_CODE[HONOR_START : HONOR_START + 4] = (0x41, 0x42, 0x43, 0x44)  # 东南西北
_REFERENCE_CODE[HONOR_START + 4 : HONOR_START + 7] = (0x47, 0x46, 0x45)  # our 白发中 are its 白 (7), 发, 中 (5)
REFERENCE_CODE = _REFERENCE_CODE
WINDS_CODE, DRAGONS_CODE = 0x41, 0x45
SET_CHOW, SET_PUNG = 1, 0


def _mask(kinds):
    bits = 0
    for kind in kinds:
        bits |= 1 << kind
    return bits


TERMINAL_MASK = _mask([start + rank for start in (0, PIN_START, SOU_START) for rank in (0, 8)])
HONOUR_MASK = _mask(range(HONOR_START, N_KINDS))
WIND_MASK = _mask(range(HONOR_START, HONOR_START + 4))
DRAGON_MASK = _mask(range(HONOR_START + 4, N_KINDS))
GREEN_MASK = _mask([SOU_START + rank - 1 for rank in (2, 3, 4, 6, 8)] + [HONOR_START + 5])  # 23468条, 发
REVERSIBLE_MASK = _mask([PIN_START + rank - 1 for rank in (1, 2, 3, 4, 5, 8, 9)]
                        + [SOU_START + rank - 1 for rank in (2, 4, 5, 6, 8, 9)] + [HONOR_START + 4])  # 白
ORPHANS_MASK = TERMINAL_MASK | HONOUR_MASK
# The six 组合龙: (万, 筒, 条) ranks 147/258/369 in the reference's order (万 first, then 条, then 筒).
KNITTED_RESIDUES = ((0, 2, 1), (0, 1, 2), (1, 2, 0), (1, 0, 2), (2, 1, 0), (2, 0, 1))  # 万, 筒, 条 of each
NINE_GATES_BASE = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@njit(cache=True)
def new_work():
    """The work array `score_hand_all_suits` needs, allocated once per batch (or per engine run)."""
    return np.zeros((WORK_ROWS, WORK_WIDTH), np.int64)


# ------------------------------------------------------------------------------- sparse fan rows


@njit(cache=True, inline="always", _nrt=False)
def _put(work, fan, value):
    """Set a fan of the reading being scored to `value` (> 0), listing it if it was absent."""
    fan_rows.put(work, FANS_ROW, FANS_LIST_ROW, fan, value)


@njit(cache=True, inline="always", _nrt=False)
def _add(work, fan, amount):
    _put(work, fan, work[FANS_ROW, fan] + amount)


# ------------------------------------------------------------------------------- tile codes


@njit(cache=True, inline="always", _nrt=False)
def _is_numbered(code):
    return code < WINDS_CODE


@njit(cache=True, inline="always", _nrt=False)
def _rank(code):
    return code & 15


@njit(cache=True, inline="always", _nrt=False)
def _suit(code):
    return code >> 4


@njit(cache=True, inline="always", _nrt=False)
def _consecutive(a, b, c):
    """Whether three ranks, in any order, are three in a row."""
    low = min(a, min(b, c))
    high = max(a, max(b, c))
    return high == low + 2 and a != b and b != c and a != c


@njit(cache=True, inline="always", _nrt=False)
def _three_suits(a, b, c):
    return _suit(a) != _suit(b) and _suit(a) != _suit(c) and _suit(b) != _suit(c)


@njit(cache=True, inline="always", _nrt=False)
def _bit_count(bits):
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


# ------------------------------------------------------------------------------- chow combinations
# Chows by their middle tile's code, as in the reference.


@njit(cache=True, _nrt=False)
def _four_chows_fan(a, b, c, d):
    """a <= b <= c <= d."""
    if (a + 2 == b and b + 2 == c and c + 2 == d) or (a + 1 == b and b + 1 == c and c + 1 == d):
        return Fan.FOUR_PURE_SHIFTED_CHOWS
    if a == b and b == c and c == d:
        return Fan.QUADRUPLE_CHOW
    return -1


@njit(cache=True, _nrt=False)
def _three_chows_fan(a, b, c):
    """a <= b <= c."""
    if _three_suits(a, b, c):
        ra, rb, rc = _rank(a), _rank(b), _rank(c)
        if _consecutive(ra, rb, rc):
            return Fan.MIXED_SHIFTED_CHOWS
        if ra == rb and rb == rc:
            return Fan.MIXED_TRIPLE_CHOW
        if ra + rb + rc == 15 and ra * rb * rc == 80:  # 2, 5 and 8 in some order
            return Fan.MIXED_STRAIGHT
    else:
        if a + 3 == b and b + 3 == c:
            return Fan.PURE_STRAIGHT
        if (a + 2 == b and b + 2 == c) or (a + 1 == b and b + 1 == c):
            return Fan.PURE_SHIFTED_CHOWS
        if a == b and b == c:
            return Fan.PURE_TRIPLE_CHOW
    return -1


@njit(cache=True, _nrt=False)
def _two_chows_fan(a, b):
    if _suit(a) != _suit(b):
        if _rank(a) == _rank(b):
            return Fan.MIXED_DOUBLE_CHOW
        return -1
    if a + 3 == b or b + 3 == a:
        return Fan.SHORT_STRAIGHT
    if (_rank(a) == 2 and _rank(b) == 8) or (_rank(a) == 8 and _rank(b) == 2):
        return Fan.TWO_TERMINAL_CHOWS
    if a == b:
        return Fan.PURE_DOUBLE_CHOW
    return -1


# The two-chow fans in the order the reference prefers them (and cuts them back from the end).
TWO_CHOW_FANS = (Fan.PURE_DOUBLE_CHOW, Fan.MIXED_DOUBLE_CHOW, Fan.SHORT_STRAIGHT, Fan.TWO_TERMINAL_CHOWS)


@njit(cache=True, _nrt=False)
def _extra_chow_fan(a, b, c, extra):
    """The one fan a fourth chow may still add to a three-chow fan (套算一次), best first."""
    fa, fb, fc = _two_chows_fan(a, extra), _two_chows_fan(b, extra), _two_chows_fan(c, extra)
    for fan in TWO_CHOW_FANS:
        if fa == fan or fb == fan or fc == fan:
            return fan
    return -1


@njit(cache=True, _nrt=False)
def _three_of_four_chows(work, a, b, c, extra):
    fan = _three_chows_fan(a, b, c)
    if fan < 0:
        return False
    _put(work, fan, 1)
    extra_fan = _extra_chow_fan(a, b, c, extra)
    if extra_fan >= 0:
        _put(work, extra_fan, 1)
    return True


@njit(cache=True, _nrt=False)
def _tally(work, fan):
    for position in range(4):
        if fan == TWO_CHOW_FANS[position]:
            work[SET_ROW, TALLY_COLUMN + position] += 1
            return 1
    return 0


@njit(cache=True, _nrt=False)
def _limit_two_chow_fans(work, f0, f1, f2, f3, f4, f5, max_count):
    """Keep at most `max_count` of up to six two-chow fans (-1 for none), dropping repeats first and
    老少副 before 连六 before 喜相逢 before 一般高 (不得相同, 套算一次), as the reference does."""
    for position in range(4):
        work[SET_ROW, TALLY_COLUMN + position] = 0
    count = _tally(work, f0) + _tally(work, f1) + _tally(work, f2) + _tally(work, f3) + _tally(work, f4) + _tally(work, f5)
    limit = 1
    while count > max_count and limit >= 0:
        position = 4
        while count > max_count and position > 0:
            position -= 1
            while work[SET_ROW, TALLY_COLUMN + position] > limit and count > max_count:
                work[SET_ROW, TALLY_COLUMN + position] -= 1
                count -= 1
        limit -= 1
    for position in range(4):
        if work[SET_ROW, TALLY_COLUMN + position] > 0:
            _put(work, TWO_CHOW_FANS[position], work[SET_ROW, TALLY_COLUMN + position])


@njit(cache=True, _nrt=False)
def _chow_fans(work, n_chows, a, b, c, d):
    """Fans among the chows (middle codes sorted: a <= b <= c <= d, the first `n_chows` used)."""
    if n_chows == 4:
        fan = _four_chows_fan(a, b, c, d)
        if fan >= 0:
            _put(work, fan, 1)
            return
        if (_three_of_four_chows(work, a, b, c, d) or _three_of_four_chows(work, a, b, d, c)
                or _three_of_four_chows(work, a, c, d, b) or _three_of_four_chows(work, b, c, d, a)):
            return
        fab, fac, fad = _two_chows_fan(a, b), _two_chows_fan(a, c), _two_chows_fan(a, d)
        fbc, fbd, fcd = _two_chows_fan(b, c), _two_chows_fan(b, d), _two_chows_fan(c, d)
        max_count = 3  # each chow that combines with none of the others lowers it
        max_count -= fab < 0 and fac < 0 and fad < 0
        max_count -= fab < 0 and fbc < 0 and fbd < 0
        max_count -= fac < 0 and fbc < 0 and fcd < 0
        max_count -= fad < 0 and fbd < 0 and fcd < 0
        if max_count > 0:
            _limit_two_chow_fans(work, fab, fac, fad, fbc, fbd, fcd, max_count)
    elif n_chows == 3:
        fan = _three_chows_fan(a, b, c)
        if fan >= 0:
            _put(work, fan, 1)
            return
        _limit_two_chow_fans(work, _two_chows_fan(a, b), _two_chows_fan(a, c), _two_chows_fan(b, c), -1, -1, -1, 2)
    elif n_chows == 2:
        fan = _two_chows_fan(a, b)
        if fan >= 0:
            _add(work, fan, 1)


# ------------------------------------------------------------------------------- pung combinations


@njit(cache=True, _nrt=False)
def _three_pungs_fan(a, b, c):
    """a < b < c."""
    if _is_numbered(a) and _is_numbered(b) and _is_numbered(c):
        if _three_suits(a, b, c):
            if _consecutive(_rank(a), _rank(b), _rank(c)):
                return Fan.MIXED_SHIFTED_PUNGS
            if _rank(a) == _rank(b) and _rank(b) == _rank(c):
                return Fan.TRIPLE_PUNG
        elif a + 1 == b and b + 1 == c:
            return Fan.PURE_SHIFTED_PUNGS
    elif a >= WINDS_CODE and c < DRAGONS_CODE:
        return Fan.BIG_THREE_WINDS
    elif a >= DRAGONS_CODE:
        return Fan.BIG_THREE_DRAGONS
    return -1


@njit(cache=True, _nrt=False)
def _two_pungs_fan(a, b):
    if _is_numbered(a) and _is_numbered(b):
        if _rank(a) == _rank(b):
            return Fan.DOUBLE_PUNG
    elif a >= DRAGONS_CODE and b >= DRAGONS_CODE:
        return Fan.TWO_DRAGON_PUNGS
    return -1


@njit(cache=True, _nrt=False)
def _add_two_pungs_fan(work, a, b):
    fan = _two_pungs_fan(a, b)
    if fan >= 0:
        _add(work, fan, 1)
        return True
    return False


@njit(cache=True, _nrt=False)
def _pung_fans(work, n_pungs, a, b, c, d):
    """Fans among the pungs (codes sorted: a < b < c < d, the first `n_pungs` used)."""
    if n_pungs == 4:
        if _is_numbered(a) and a + 1 == b and b + 1 == c and c + 1 == d:
            _put(work, Fan.FOUR_PURE_SHIFTED_PUNGS, 1)
            return
        if a == WINDS_CODE and d == WINDS_CODE + 3:
            _put(work, Fan.BIG_FOUR_WINDS, 1)
            return
        # A three-pung fan, then the free pung combines with the first of the others it can (套算一次).
        free = -1
        fan = _three_pungs_fan(a, b, c)
        if fan >= 0:
            free = d
        else:
            fan = _three_pungs_fan(a, b, d)
            if fan >= 0:
                free = c
            else:
                fan = _three_pungs_fan(a, c, d)
                if fan >= 0:
                    free = b
                else:
                    fan = _three_pungs_fan(b, c, d)
                    if fan >= 0:
                        free = a
        if fan >= 0:
            _put(work, fan, 1)
            if free != a and _add_two_pungs_fan(work, a, free):
                return
            if free != b and _add_two_pungs_fan(work, b, free):
                return
            if free != c and _add_two_pungs_fan(work, c, free):
                return
            if free != d:
                _add_two_pungs_fan(work, d, free)
            return
        _add_two_pungs_fan(work, a, b)
        _add_two_pungs_fan(work, a, c)
        _add_two_pungs_fan(work, a, d)
        _add_two_pungs_fan(work, b, c)
        _add_two_pungs_fan(work, b, d)
        _add_two_pungs_fan(work, c, d)
    elif n_pungs == 3:
        fan = _three_pungs_fan(a, b, c)
        if fan >= 0:
            _put(work, fan, 1)
            return
        _add_two_pungs_fan(work, a, b)
        _add_two_pungs_fan(work, a, c)
        _add_two_pungs_fan(work, b, c)
    elif n_pungs == 2:
        _add_two_pungs_fan(work, a, b)


@njit(cache=True, _nrt=False)
def _kong_fans(work, concealed_pungs, melded_kongs, concealed_kongs):
    """杠 and 暗刻 fans as the reference reads them (a concealed kong is also a concealed pung)."""
    kongs = melded_kongs + concealed_kongs
    hidden = concealed_pungs + concealed_kongs
    if kongs == 1:
        _put(work, Fan.MELDED_KONG if melded_kongs == 1 else Fan.CONCEALED_KONG, 1)
    elif kongs == 2:
        if concealed_kongs == 0:
            _put(work, Fan.TWO_MELDED_KONGS, 1)
        elif concealed_kongs == 1:
            _put(work, Fan.MELDED_KONG, 1)  # the reference's 明暗杠: 明杠 and 暗杠 (docs/scoring.md)
            _put(work, Fan.CONCEALED_KONG, 1)
        else:
            _put(work, Fan.TWO_CONCEALED_KONGS, 1)
    elif kongs == 3:
        _put(work, Fan.THREE_KONGS, 1)
    elif kongs == 4:
        _put(work, Fan.FOUR_KONGS, 1)
    if hidden == 2:
        _put(work, Fan.TWO_CONCEALED_PUNGS, 1)
    elif hidden == 3:
        _put(work, Fan.THREE_CONCEALED_PUNGS, 1)
    elif hidden == 4:
        _put(work, Fan.FOUR_CONCEALED_PUNGS, 1)


# ------------------------------------------------------------------------------- exclusions


@njit(cache=True, _nrt=False)
def _apply_exclusions(work, values, priority, exclusion_start, exclusion_target):
    """Drop unscored and excluded fans of the reading; return the total of the rest, flowers aside."""
    length = work[FANS_LIST_ROW, 0]
    for index in range(2, length + 1):  # the listed fans by priority (insertion sort)
        fan = work[FANS_LIST_ROW, index]
        position = index
        while position > 1 and priority[work[FANS_LIST_ROW, position - 1]] > priority[fan]:
            work[FANS_LIST_ROW, position] = work[FANS_LIST_ROW, position - 1]
            position -= 1
        work[FANS_LIST_ROW, position] = fan
    stamp = work[EXCLUDED_ROW, STAMP_COLUMN] + 1
    work[EXCLUDED_ROW, STAMP_COLUMN] = stamp
    for index in range(1, length + 1):
        fan = work[FANS_LIST_ROW, index]
        if values[fan] > 0 and work[FANS_ROW, fan] > 0 and work[EXCLUDED_ROW, fan] != stamp:
            for target in range(exclusion_start[fan], exclusion_start[fan + 1]):
                work[EXCLUDED_ROW, exclusion_target[target]] = stamp
    total = 0
    for index in range(1, length + 1):
        fan = work[FANS_LIST_ROW, index]
        if values[fan] == 0 or work[EXCLUDED_ROW, fan] == stamp:
            work[FANS_ROW, fan] = 0
        elif fan != Fan.FLOWER_TILES:
            total += work[FANS_ROW, fan] * values[fan]
    return total


@njit(cache=True, _nrt=False)
def _finish_reading(work, n_sets, seat_wind, round_wind, values, priority, exclusion_start, exclusion_target):
    """Exclusions, then what stays structural: the 幺九刻 that 三风刻 and the wind fans already count
    (the sets at SET_ROW), and 无番和 when nothing is left. Returns the reading's total."""
    total = _apply_exclusions(work, values, priority, exclusion_start, exclusion_target)
    terminal_pungs = work[FANS_ROW, Fan.PUNG_OF_TERMINALS_OR_HONORS]
    if terminal_pungs > 0:
        counted = 0
        if work[FANS_ROW, Fan.BIG_THREE_WINDS] > 0:
            counted = 3
        elif (work[FANS_ROW, Fan.ALL_TERMINALS_AND_HONORS] == 0 and work[FANS_ROW, Fan.ALL_HONORS] == 0
              and work[FANS_ROW, Fan.LITTLE_FOUR_WINDS] == 0):
            for index in range(n_sets):
                code = work[SET_ROW, 4 * index + 1]
                if work[SET_ROW, 4 * index] == SET_PUNG and WINDS_CODE <= code < DRAGONS_CODE:
                    wind = code - WINDS_CODE
                    if wind == round_wind and work[FANS_ROW, Fan.PREVALENT_WIND] > 0:
                        counted += 1
                    if wind == seat_wind and seat_wind != round_wind and work[FANS_ROW, Fan.SEAT_WIND] > 0:
                        counted += 1
        kept = max(0, terminal_pungs - counted)
        total -= (terminal_pungs - kept) * values[Fan.PUNG_OF_TERMINALS_OR_HONORS]
        work[FANS_ROW, Fan.PUNG_OF_TERMINALS_OR_HONORS] = kept
    if total == 0 and values[Fan.CHICKEN_HAND] > 0:
        _put(work, Fan.CHICKEN_HAND, 1)
        total = values[Fan.CHICKEN_HAND]
    return total


@njit(cache=True, _nrt=False)
def _keep_best(work, total):
    fan_rows.copy(work, FANS_ROW, FANS_LIST_ROW, BEST_ROW, BEST_LIST_ROW)
    return total


# ------------------------------------------------------------------------------- completeness and waits


@njit(cache=True, _nrt=False)
def _suit_is_sets(work, first):
    """Whether the nine counts at CHECK_ROW[first:first + 9] are sets only (any count, a fifth copy too).
    At the lowest rank, count mod 3 chows must start there and the rest are pungs (three chows there are
    three pungs), so one pass decides."""
    for rank in range(9):
        count = work[CHECK_ROW, first + rank]
        if count < 0:
            return False
        chows = count % 3
        if chows > 0:
            if rank > 6:
                return False
            work[CHECK_ROW, first + rank + 1] -= chows
            work[CHECK_ROW, first + rank + 2] -= chows
    return True


@njit(cache=True, _nrt=False)
def _suit_fits(work, row, start):
    """How a suit's counts in `row` fit a regular hand: 0 sets only, 1 sets and the pair, -1 neither."""
    tiles = 0
    rank_sum = 0
    for rank in range(9):
        tiles += work[row, start + rank]
        rank_sum += rank * work[row, start + rank]
    if tiles == 0:
        return 0
    if tiles % 3 == 1:
        return -1
    if tiles % 3 == 0:
        for rank in range(9):
            work[CHECK_ROW, rank] = work[row, start + rank]
        return 0 if _suit_is_sets(work, 0) else -1
    pair_rank = (2 * rank_sum) % 3  # sets add 0 mod 3 to the rank sum, so 2 x pair rank = rank sum (mod 3)
    while pair_rank < 9:
        if work[row, start + pair_rank] >= 2:
            for rank in range(9):
                work[CHECK_ROW, rank] = work[row, start + rank]
            work[CHECK_ROW, pair_rank] -= 2
            if _suit_is_sets(work, 0):
                return 1
        pair_rank += 3
    return -1


@njit(cache=True, inline="always", _nrt=False)
def _honour_fits(count):
    """How one honour's count fits a regular hand: 0 none or a pung, 1 the pair (a fifth copy: pung and pair)."""
    if count == 0 or count == 3:
        return 0
    if count == 2 or count == 5:
        return 1
    return -1


@njit(cache=True, _nrt=False)
def _group_fits(work, row, group):
    """group 0-2: a suit (万, 筒, 条 by kind order); 3: the honours together."""
    if group < 3:
        return _suit_fits(work, row, 9 * group)
    pairs = 0
    for kind in range(HONOR_START, N_KINDS):
        fit = _honour_fits(work[row, kind])
        if fit < 0:
            return -1
        pairs += fit
    return pairs


@njit(cache=True, _nrt=False)
def _unique_wait(work, win, seven_pairs):
    """Whether the tiles at WAIT_ROW (the hand before the win on `win`) wait on exactly one kind, as the
    reference judges it: the kinds that make four sets and a pair, a fifth copy allowed, and with
    `seven_pairs` the one that makes 七对."""
    for group in range(4):  # how each group fits before the wait is added (cells past the suit counts)
        work[CHECK_ROW, FITS_COLUMN + group] = _group_fits(work, WAIT_ROW, group)
    odd_kind = -1
    if seven_pairs:
        odd_kinds = 0
        for kind in range(N_KINDS):
            if work[WAIT_ROW, kind] & 1:
                odd_kinds += 1
                odd_kind = kind
        if odd_kinds != 1:
            odd_kind = -1
    # The winning tile is one wait (the hand is complete with it); any other ends the search. Kinds of the
    # winning tile's group first, nearest first, where a second wait most often is.
    win_group = 3 if win >= HONOR_START else win // 9
    start, size = (HONOR_START, 7) if win_group == 3 else (9 * win_group, 9)
    for distance in range(1, size):
        for kind in (win - distance, win + distance):
            if start <= kind < start + size and _is_wait(work, kind, win_group, odd_kind):
                return False
    if work[CHECK_ROW, FITS_COLUMN + win_group] < 0 and odd_kind < 0:
        return True  # without the winning tile its group fits no hand: no tile of another group completes one
    for kind in range(N_KINDS):  # the other groups
        group = 3 if kind >= HONOR_START else kind // 9
        if group != win_group and _is_wait(work, kind, group, odd_kind):
            return False
    return True


@njit(cache=True, _nrt=False)
def _is_wait(work, kind, group, odd_kind):
    """Whether `kind` added to WAIT_ROW completes a regular hand (or is the 七对 wait `odd_kind`)."""
    if kind == odd_kind:
        return True
    if work[WAIT_ROW, kind] == 0:
        if group == 3:
            return False
        start = 9 * group
        near = False  # a numbered kind only completes a shape within two ranks of a held tile
        for other in range(max(start, kind - 2), min(start + 9, kind + 3)):
            near = near or work[WAIT_ROW, other] > 0
        if not near:
            return False
    work[WAIT_ROW, kind] += 1
    fit = _group_fits(work, WAIT_ROW, group)
    work[WAIT_ROW, kind] -= 1
    if fit < 0:
        return False
    pairs = fit
    for other in range(4):
        if other != group:
            if work[CHECK_ROW, FITS_COLUMN + other] < 0:
                return False
            pairs += work[CHECK_ROW, FITS_COLUMN + other]
    return pairs == 1


# ------------------------------------------------------------------------------- hand-wide fans


@njit(cache=True, _nrt=False)
def _context_fans(work, n_melds, melds, win, flags, flowers):
    """Fans of how the hand won, made consistent with the tiles as the reference does."""
    self_drawn = (flags & SELF_DRAWN_FLAG) != 0
    kongs = 0
    claimed = 0
    for index in range(n_melds):
        kind = melds[index, 0]
        kongs += kind == MELD_KONG or kind == MELD_CONCEALED_KONG
        claimed += kind != MELD_CONCEALED_KONG
    in_hand = work[STANDING_ROW, win]
    in_melds = work[MELD_TILES_ROW, win]
    if ((flags & FOURTH_TILE_FLAG) != 0 and in_hand == 1) or in_melds == 3:
        _put(work, Fan.LAST_TILE, 1)
    if self_drawn:
        _put(work, Fan.SELF_DRAWN, 1)
        if flags & LAST_WALL_TILE_FLAG:
            _put(work, Fan.LAST_TILE_DRAW, 1)
        if flags & KONG_REPLACEMENT_FLAG and kongs > 0:
            _put(work, Fan.OUT_WITH_REPLACEMENT_TILE, 1)
    else:
        if flags & LAST_WALL_TILE_FLAG:
            _put(work, Fan.LAST_TILE_CLAIM, 1)
        if flags & ROBBING_KONG_FLAG and in_melds == 0 and in_hand == 1:
            _put(work, Fan.ROBBING_THE_KONG, 1)
    if claimed == 0:
        _put(work, Fan.FULLY_CONCEALED_HAND if self_drawn else Fan.CONCEALED_HAND, 1)
    elif claimed == 4 and not self_drawn:
        _put(work, Fan.MELDED_HAND, 1)
    if flowers > 0:
        _put(work, Fan.FLOWER_TILES, flowers)


@njit(cache=True, _nrt=False)
def _trait_fans(work, held):
    """Fans of which kinds the hand holds: suits (无字, 缺一门, 混一色, 清一色, 五门齐), tiles (断幺, 推不倒,
    绿一色, 字一色, 清幺九, 混幺九) and ranks (大于五, 小于五, 全大, 全中, 全小), as the reference reads them."""
    honours = held & HONOUR_MASK
    voided = 0
    suits = 0
    ranks = 0  # bit r: a numbered tile of rank r + 1
    for suit in range(3):
        in_suit = (held >> (9 * suit)) & 0x1FF
        ranks |= in_suit
        if in_suit == 0:
            voided += 1
        else:
            suits += 1
    if voided == 2:
        _put(work, Fan.HALF_FLUSH if honours else Fan.FULL_FLUSH, 1)
    elif voided > 0:
        _put(work, Fan.ONE_VOIDED_SUIT, voided)  # 3 for 字一色, which excludes it
    if honours == 0 and voided != 2:
        _put(work, Fan.NO_HONORS, 1)
    if suits == 3 and held & WIND_MASK and held & DRAGON_MASK:
        _put(work, Fan.ALL_TYPES, 1)
    simples = held & ORPHANS_MASK == 0
    if simples:
        _put(work, Fan.ALL_SIMPLES, 1)
    if held & ~REVERSIBLE_MASK == 0:
        _put(work, Fan.REVERSIBLE_TILES, 1)
    if held & ~GREEN_MASK == 0:
        _put(work, Fan.ALL_GREEN, 1)
    if not simples:
        if held & ~HONOUR_MASK == 0:
            _put(work, Fan.ALL_HONORS, 1)
        elif held & ~TERMINAL_MASK == 0:
            _put(work, Fan.ALL_TERMINALS, 1)
        elif held & ~ORPHANS_MASK == 0:
            _put(work, Fan.ALL_TERMINALS_AND_HONORS, 1)
    if honours == 0:
        if ranks & ~0b000001111 == 0:
            _put(work, Fan.LOWER_FOUR if ranks & 0b000001000 else Fan.LOWER_TILES, 1)
        elif ranks & ~0b111100000 == 0:
            _put(work, Fan.UPPER_FOUR if ranks & 0b000100000 else Fan.UPPER_TILES, 1)
        elif ranks & ~0b000111000 == 0:
            _put(work, Fan.MIDDLE_TILES, 1)


@njit(cache=True, _nrt=False)
def _start_reading(work, row, list_row):
    fan_rows.copy(work, row, list_row, FANS_ROW, FANS_LIST_ROW)


# ------------------------------------------------------------------------------- irregular forms


@njit(cache=True, _nrt=False)
def _knitted_residues(standing_kinds, inside_only):
    """The index in KNITTED_RESIDUES of the 组合龙 whose nine tiles the hand holds (`standing_kinds`: bit k
    for each kind the concealed tiles hold), or with `inside_only` the one that holds every numbered tile
    held (全不靠); -1 if none."""
    for index in range(6):
        fits = True
        for suit in range(3):
            ranks = (standing_kinds >> (9 * suit)) & 0x1FF
            knitted = 0b001001001 << KNITTED_RESIDUES[index][suit]  # ranks r, r + 3, r + 6
            if inside_only:
                fits = fits and ranks & ~knitted == 0
            else:
                fits = fits and ranks & knitted == knitted
        if fits:
            return index
    return -1


@njit(cache=True, _nrt=False)
def _seven_pairs(work, win, hog_kinds, seat_wind, round_wind, values, priority, exclusion_start, exclusion_target):
    """七对 or 连七对; returns the total and whether it is 连七对 (which no regular reading can beat)."""
    start = 9 * (win // 9) if win < HONOR_START else -1
    shifted = False
    if start >= 0:
        for low in range(3):
            run = True
            for rank in range(low, low + 7):
                run = run and work[STANDING_ROW, start + rank] == 2
            shifted = shifted or run
    if shifted:
        _start_reading(work, CONTEXT_ROW, CONTEXT_LIST_ROW)
        _put(work, Fan.SEVEN_SHIFTED_PAIRS, 1)
        if work[STANDING_ROW, start] == 0 and work[STANDING_ROW, start + 8] == 0:
            _put(work, Fan.ALL_SIMPLES, 1)
    else:
        _start_reading(work, TRAITS_ROW, TRAITS_LIST_ROW)
        _put(work, Fan.SEVEN_PAIRS, 1)
        if hog_kinds > 0:
            _put(work, Fan.TILE_HOG, hog_kinds)
    return _finish_reading(work, 0, seat_wind, round_wind, values, priority, exclusion_start, exclusion_target), shifted


@njit(cache=True, _nrt=False)
def _knitted_tiles(work, standing_kinds):
    """全不靠 or 七星不靠 (False if neither): fourteen different kinds (the caller checks), the numbered ones
    inside one 组合龙."""
    numbered = _bit_count(standing_kinds & ~HONOUR_MASK)
    if numbered < 7 or numbered > 9 or _knitted_residues(standing_kinds, True) < 0:
        return False
    _put(work, Fan.GREATER_HONORS_AND_KNITTED_TILES if numbered == 7 else Fan.LESSER_HONORS_AND_KNITTED_TILES, 1)
    if numbered == 9:
        _put(work, Fan.KNITTED_STRAIGHT, 1)
    return True


@njit(cache=True, _nrt=False)
def _knitted_straight(work, standing_kinds, melds, n_melds, win, seat_wind, round_wind, values, priority,
                      exclusion_start, exclusion_target):
    """组合龙 with a fourth set and a pair (the fourth set may be the one meld); NOT_A_WIN if the hand is
    not one."""
    index = _knitted_residues(standing_kinds, False)
    if index < 0:
        return NOT_A_WIN
    for kind in range(N_KINDS):  # the rest: the fourth set (unless a meld) and the pair
        work[WAIT_ROW, kind] = work[STANDING_ROW, kind]
    for suit in range(3):
        for rank in range(KNITTED_RESIDUES[index][suit], 9, 3):
            work[WAIT_ROW, 9 * suit + rank] -= 1
    pair = -1
    set_kind, set_first = -1, -1
    for kind in range(N_KINDS):
        if work[WAIT_ROW, kind] >= 2:
            work[WAIT_ROW, kind] -= 2
            if n_melds == 1:
                found = True
                for other in range(N_KINDS):
                    found = found and work[WAIT_ROW, other] == 0
            else:
                found = False
                for other in range(N_KINDS):
                    count = work[WAIT_ROW, other]
                    if count == 3:
                        set_kind, set_first = MELD_PONG, other
                    elif (count == 1 and other < HONOR_START and other % 9 <= 6
                          and work[WAIT_ROW, other + 1] == 1 and work[WAIT_ROW, other + 2] == 1):
                        set_kind, set_first = MELD_CHOW, other
                    if count > 0:
                        break  # the lowest tile left starts the set
                if set_kind >= 0:
                    tiles = 0
                    for other in range(N_KINDS):
                        tiles += work[WAIT_ROW, other]
                    found = tiles == 3
            work[WAIT_ROW, kind] += 2
            if found:
                pair = kind
                break
            set_kind = -1
    if pair < 0:
        return NOT_A_WIN
    kong = 0
    if n_melds == 1:
        set_kind, set_first = melds[0, 0], melds[0, 1]
        kong = 1 if set_kind == MELD_KONG else (2 if set_kind == MELD_CONCEALED_KONG else 0)
    pair_code = REFERENCE_CODE[pair]
    _start_reading(work, CONTEXT_ROW, CONTEXT_LIST_ROW)
    _put(work, Fan.KNITTED_STRAIGHT, 1)
    work[SET_ROW, 0] = SET_CHOW if set_kind == MELD_CHOW else SET_PUNG
    work[SET_ROW, 1] = REFERENCE_CODE[set_first] + (1 if set_kind == MELD_CHOW else 0)
    if set_kind == MELD_CHOW:
        if _is_numbered(pair_code):
            _put(work, Fan.ALL_CHOWS, 1)
        if work[STANDING_ROW, pair] + work[MELD_TILES_ROW, pair] == 4:
            _put(work, Fan.TILE_HOG, 1)
    else:
        code = REFERENCE_CODE[set_first]
        if code >= DRAGONS_CODE:
            _put(work, Fan.DRAGON_PUNG, 1)
            if WINDS_CODE <= pair_code < DRAGONS_CODE:
                _put(work, Fan.ALL_TYPES, 1)
        elif code >= WINDS_CODE:
            _put(work, Fan.PUNG_OF_TERMINALS_OR_HONORS, 1)
            _wind_fans(work, code, seat_wind, round_wind)
            if pair_code >= DRAGONS_CODE:
                _put(work, Fan.ALL_TYPES, 1)
        else:
            if _rank(code) == 1 or _rank(code) == 9:
                _put(work, Fan.PUNG_OF_TERMINALS_OR_HONORS, 1)
            if _is_numbered(pair_code):
                _put(work, Fan.NO_HONORS, 1)
            if kong == 0 and work[STANDING_ROW, set_first] + work[MELD_TILES_ROW, set_first] == 4:
                _put(work, Fan.TILE_HOG, 1)
        if kong == 1:
            _put(work, Fan.MELDED_KONG, 1)
        elif kong == 2:
            _put(work, Fan.CONCEALED_KONG, 1)
    # 边张, 嵌张, 单钓将: the reference judges the wait on the rest alone, the 组合龙 taken as complete.
    if n_melds == 0:
        if work[WAIT_ROW, win] > 0:
            work[WAIT_ROW, win] -= 1
            if _unique_wait(work, win, False):
                middle = work[SET_ROW, 1]
                win_code = REFERENCE_CODE[win]
                if set_kind == MELD_CHOW and (middle + 1 == win_code or middle - 1 == win_code):
                    _put(work, Fan.EDGE_WAIT, 1)
                elif set_kind == MELD_CHOW and middle == win_code:
                    _put(work, Fan.CLOSED_WAIT, 1)
                elif pair == win:
                    _put(work, Fan.SINGLE_WAIT, 1)
    elif not ((KNITTED_RESIDUES[index][win // 9] == win % 9 % 3) if win < HONOR_START else False):
        _put(work, Fan.SINGLE_WAIT, 1)  # the tile is not the 组合龙's: it was the pair's
    elif work[STANDING_ROW, win] == 3:
        _put(work, Fan.SINGLE_WAIT, 1)  # a 组合龙 tile and the pair's
    return _finish_reading(work, 1, seat_wind, round_wind, values, priority, exclusion_start, exclusion_target)


@njit(cache=True, _nrt=False)
def _nine_gates(work, win):
    """九莲宝灯: the concealed tiles are 1112345678999 of the winning tile's suit. Returns the rank won on
    (1-9), or 0 if not."""
    if win >= HONOR_START:
        return 0
    start = 9 * (win // 9)
    for rank in range(9):  # 14 of the suit's tiles: the hand holds no other (the caller checked the count)
        expected = NINE_GATES_BASE[rank] + (1 if start + rank == win else 0)
        if work[STANDING_ROW, start + rank] != expected:
            return 0
    return win - start + 1


@njit(cache=True, inline="always", _nrt=False)
def _wind_fans(work, code, seat_wind, round_wind):
    wind = code - WINDS_CODE
    if wind == round_wind:
        _put(work, Fan.PREVALENT_WIND, 1)
    if wind == seat_wind:
        _put(work, Fan.SEAT_WIND, 1)


# ------------------------------------------------------------------------------- regular readings


@njit(cache=True, _nrt=False)
def _suit_splits(work, start, slot, tiles, rank_sum):
    """Every way to split the suit at kinds start..start+8 into sets (and the pair, if its size is 2 mod
    3), written to the split rows of `slot` in the reference's order (sets sorted by rank, a pung before a
    chow of the same rank, compared in turn). Returns how many there are; the rows hold MAX_SPLITS, which
    no suit exceeds."""
    n_splits = 0
    found = 0
    has_pair = tiles % 3 == 2
    pair_rank = (2 * rank_sum) % 3 if has_pair else -1
    while pair_rank < 9:
        if pair_rank < 0 or work[STANDING_ROW, start + pair_rank] >= 2:
            # Walk the ranks upwards; where three or more tiles are left, either their pung or three more
            # chows start there (bit b of `choice` picks at the b-th such rank).
            branch_ranks = 0
            for rank in range(9):
                branch_ranks += work[STANDING_ROW, start + rank] - (2 if rank == pair_rank else 0) >= 3
            for choice in range(1 << branch_ranks):
                for rank in range(9):
                    work[SCRATCH_ROW, rank] = work[STANDING_ROW, start + rank]
                if pair_rank >= 0:
                    work[SCRATCH_ROW, pair_rank] -= 2
                row = SPLIT_ROWS + MAX_SPLITS * slot + n_splits
                n_sets = 0
                branch = 0
                valid = True
                for rank in range(9):
                    count = work[SCRATCH_ROW, rank]
                    if count < 0:
                        valid = False
                        break
                    chows = count % 3
                    if count >= 3:
                        if (choice >> branch) & 1:
                            chows += 3
                        branch += 1
                    if chows > 0:
                        if rank > 6:
                            valid = False
                            break
                        work[SCRATCH_ROW, rank + 1] -= chows
                        work[SCRATCH_ROW, rank + 2] -= chows
                    if count - chows >= 3:
                        work[row, 3 + 2 * n_sets] = SET_PUNG
                        work[row, 4 + 2 * n_sets] = rank
                        n_sets += 1
                    for _ in range(chows):
                        work[row, 3 + 2 * n_sets] = SET_CHOW
                        work[row, 4 + 2 * n_sets] = rank
                        n_sets += 1
                found += valid and (choice >> branch) == 0
                if valid and (choice >> branch) == 0 and n_splits < MAX_SPLITS:
                    key = 0  # sets are written by rank, a pung before chows: already in the reference's order
                    for index in range(n_sets):
                        key = key * 32 + 2 * work[row, 4 + 2 * index] + (1 if work[row, 3 + 2 * index] == SET_CHOW else 0)
                    work[row, 0] = key
                    work[row, 1] = pair_rank
                    work[row, 2] = n_sets
                    position = n_splits  # insertion by key
                    while position > 0 and work[row - n_splits + position - 1, 0] > key:
                        position -= 1
                    if position < n_splits:
                        first = SPLIT_ROWS + MAX_SPLITS * slot
                        for column in range(3 + 2 * n_sets):
                            work[SCRATCH_ROW, 9 + column] = work[row, column]
                        for moved in range(n_splits, position, -1):
                            for column in range(3 + 2 * n_sets):
                                work[first + moved, column] = work[first + moved - 1, column]
                        for column in range(3 + 2 * n_sets):
                            work[first + position, column] = work[SCRATCH_ROW, 9 + column]
                    n_splits += 1
        if pair_rank < 0:
            break
        pair_rank += 3
    return found


@njit(cache=True, _nrt=False)
def _place_split(work, slot, split, start, n_sets, pair):
    """Append a suit's split to the reading's sets at SET_ROW (from set `n_sets`); returns the new set
    count and the pair's code (or `pair` unchanged if the split has none)."""
    row = SPLIT_ROWS + MAX_SPLITS * slot + split
    for index in range(work[row, 2]):
        kind = work[row, 3 + 2 * index]
        code = REFERENCE_CODE[start + work[row, 4 + 2 * index]]
        column = 4 * n_sets
        work[SET_ROW, column] = kind
        work[SET_ROW, column + 1] = code + (1 if kind == SET_CHOW else 0)
        work[SET_ROW, column + 2] = 0
        work[SET_ROW, column + 3] = 0
        n_sets += 1
    if work[row, 1] >= 0:
        pair = REFERENCE_CODE[start + work[row, 1]]
    return n_sets, pair


@njit(cache=True, _nrt=False)
def _regular_fans(work, n_melds, self_drawn, win_code, hog_kinds, seat_wind, round_wind):
    """Raw fans of the regular reading at SET_ROW on top of the trait fans. Returns where the winning tile
    sat among the concealed sets if the reading could earn a wait fan (bits: 1 edge, 2 closed, 4 pair)."""
    _start_reading(work, TRAITS_ROW, TRAITS_LIST_ROW)
    pair = work[SET_ROW, PAIR_COLUMN]
    n_chows = 0
    n_pungs = 0
    concealed_pungs = 0
    melded_kongs = 0
    concealed_kongs = 0
    win_in_concealed_chow = False
    terminal_sets = 1 if (not _is_numbered(pair) or _rank(pair) == 1 or _rank(pair) == 9) else 0
    five_sets = 1 if _is_numbered(pair) and _rank(pair) == 5 else 0
    even_sets = 1 if _is_numbered(pair) and _rank(pair) % 2 == 0 else 0
    for index in range(4):
        column = 4 * index
        code = work[SET_ROW, column + 1]
        rank = _rank(code)
        if work[SET_ROW, column] == SET_CHOW:
            work[SET_ROW, CHOWS_COLUMN + n_chows] = code
            n_chows += 1
            if work[SET_ROW, column + 3] == 0 and code - 1 <= win_code <= code + 1:
                win_in_concealed_chow = True
            terminal_sets += rank == 2 or rank == 8
            five_sets += 4 <= rank <= 6
        else:
            work[SET_ROW, PUNGS_COLUMN + n_pungs] = code
            n_pungs += 1
            kong = work[SET_ROW, column + 2]
            if kong == 1:
                melded_kongs += 1
            elif kong == 2:
                concealed_kongs += 1
            elif work[SET_ROW, column + 3] == 0:
                concealed_pungs += 1
            if code >= DRAGONS_CODE:
                _add(work, Fan.DRAGON_PUNG, 1)
                terminal_sets += 1
            elif code >= WINDS_CODE:
                _add(work, Fan.PUNG_OF_TERMINALS_OR_HONORS, 1)
                _wind_fans(work, code, seat_wind, round_wind)
                terminal_sets += 1
            else:
                if rank == 1 or rank == 9:
                    _add(work, Fan.PUNG_OF_TERMINALS_OR_HONORS, 1)
                    terminal_sets += 1
                five_sets += rank == 5
                even_sets += rank % 2 == 0
    # A discarded winning tile that cannot sit in a concealed chow completed its pung in the open.
    if not self_drawn and not win_in_concealed_chow:
        for index in range(n_melds, 4):
            column = 4 * index
            if work[SET_ROW, column] == SET_PUNG and work[SET_ROW, column + 1] == win_code and work[SET_ROW, column + 2] == 0:
                concealed_pungs -= 1
    if n_pungs > 0:
        _kong_fans(work, concealed_pungs, melded_kongs, concealed_kongs)
        if n_pungs == 4 and work[FANS_ROW, Fan.FOUR_KONGS] == 0 and work[FANS_ROW, Fan.FOUR_CONCEALED_PUNGS] == 0:
            _put(work, Fan.ALL_PUNGS, 1)
    _sort_codes(work, CHOWS_COLUMN, n_chows)
    _sort_codes(work, PUNGS_COLUMN, n_pungs)
    c = CHOWS_COLUMN
    terminal_chows = _terminal_chows_fan(work, n_chows, pair) if _rank(pair) == 5 else -1
    if terminal_chows >= 0:
        _put(work, terminal_chows, 1)
    else:
        _chow_fans(work, n_chows, work[SET_ROW, c], work[SET_ROW, c + 1], work[SET_ROW, c + 2], work[SET_ROW, c + 3])
        p = PUNGS_COLUMN
        _pung_fans(work, n_pungs, work[SET_ROW, p], work[SET_ROW, p + 1], work[SET_ROW, p + 2], work[SET_ROW, p + 3])
    # the pair
    if n_chows == 4:
        if _is_numbered(pair):
            _put(work, Fan.ALL_CHOWS, 1)
    elif work[FANS_ROW, Fan.TWO_DRAGON_PUNGS] > 0:  # then the reference looks no further
        if pair >= DRAGONS_CODE:
            _put(work, Fan.LITTLE_THREE_DRAGONS, 1)
            work[FANS_ROW, Fan.TWO_DRAGON_PUNGS] = 0
    elif work[FANS_ROW, Fan.BIG_THREE_WINDS] > 0 and WINDS_CODE <= pair < DRAGONS_CODE:
        _put(work, Fan.LITTLE_FOUR_WINDS, 1)
        work[FANS_ROW, Fan.BIG_THREE_WINDS] = 0
    # what every set and the pair share
    if terminal_sets == 5:
        _put(work, Fan.OUTSIDE_HAND, 1)
    elif five_sets == 5:
        _put(work, Fan.ALL_FIVE, 1)
    elif even_sets == 5:
        _put(work, Fan.ALL_EVEN_PUNGS, 1)
    if work[FANS_ROW, Fan.QUADRUPLE_CHOW] == 0:
        kongs = melded_kongs + concealed_kongs
        if hog_kinds > kongs:
            _put(work, Fan.TILE_HOG, hog_kinds - kongs)
    if work[FANS_ROW, Fan.MELDED_HAND] > 0 or work[FANS_ROW, Fan.FOUR_KONGS] > 0:
        return 0
    where = 0
    for index in range(n_melds, 4):
        column = 4 * index
        if work[SET_ROW, column] == SET_CHOW:
            middle = work[SET_ROW, column + 1]
            if middle == win_code:
                where |= 2
            elif middle + 1 == win_code or middle - 1 == win_code:
                where |= 1
    if pair == win_code:
        where |= 4
    return where


@njit(cache=True, _nrt=False)
def _sort_codes(work, first, count):
    """Insertion sort of the `count` codes at SET_ROW from column `first`."""
    for index in range(first + 1, first + count):
        position = index
        while position > first and work[SET_ROW, position - 1] > work[SET_ROW, position]:
            swap = work[SET_ROW, position]
            work[SET_ROW, position] = work[SET_ROW, position - 1]
            work[SET_ROW, position - 1] = swap
            position -= 1


@njit(cache=True, _nrt=False)
def _terminal_chows_fan(work, n_chows, pair):
    """三色双龙会 (123 and 789 in each of the two suits other than the pair's), 一色双龙会 (two 123 and two
    789 of the pair's suit) or -1, for four chows and a pair of 5."""
    if n_chows != 4 or not _is_numbered(pair):
        return -1
    same_low = same_high = 0
    other_low = other_high = 0  # bit s: a 123 (789) chow of suit s
    for index in range(4):
        code = work[SET_ROW, CHOWS_COLUMN + index]
        rank = _rank(code)
        if rank != 2 and rank != 8:
            return -1
        if _suit(code) == _suit(pair):
            if rank == 2:
                same_low += 1
            else:
                same_high += 1
        elif rank == 2:
            other_low |= 1 << _suit(code)
        else:
            other_high |= 1 << _suit(code)
    if same_low == 2 and same_high == 2:
        return Fan.PURE_TERMINAL_CHOWS
    others = 0b1110 & ~(1 << _suit(pair))
    if same_low + same_high == 0 and other_low == others and other_high == others:
        return Fan.THREE_SUITED_TERMINAL_CHOWS
    return -1


@njit(cache=True, _nrt=False)
def _regular_readings(work, melds, n_melds, win, self_drawn, hog_kinds, seat_wind, round_wind, best_total,
                      after_seven_pairs, values, priority, exclusion_start, exclusion_target):
    """Score every regular reading (the melds, the honours' pungs and pair, each suit's splits) in the
    reference's order and keep the best: a higher total, or an equal one with 一色三同顺 or 三同刻, or any
    equal one after 七对 (the reference keeps the last of those)."""
    honour_pair = -1
    n_honour_pungs = 0
    for kind in range(HONOR_START, N_KINDS):
        count = work[STANDING_ROW, kind]
        if count == 3:
            n_honour_pungs += 1
        elif count == 2:
            if honour_pair >= 0:
                return best_total
            honour_pair = kind
        elif count != 0:
            return best_total
    pairs = 1 if honour_pair >= 0 else 0
    # the reference's suit order: 万 (kinds 0-8), 条 (18-26), 筒 (9-17)
    for slot in range(3):
        start = 0 if slot == 0 else (SOU_START if slot == 1 else PIN_START)
        tiles = 0
        rank_sum = 0
        for rank in range(9):
            tiles += work[STANDING_ROW, start + rank]
            rank_sum += rank * work[STANDING_ROW, start + rank]
        if tiles % 3 == 1:
            return best_total
        pairs += tiles % 3 == 2
        if pairs > 1:
            return best_total
        if tiles == 0:
            work[SPLIT_ROWS + MAX_SPLITS * slot, 1] = -1
            work[SPLIT_ROWS + MAX_SPLITS * slot, 2] = 0
            work[SPLIT_COUNT_ROW, slot] = 1
        else:
            work[SPLIT_COUNT_ROW, slot] = min(MAX_SPLITS, _suit_splits(work, start, slot, tiles, rank_sum))
            if work[SPLIT_COUNT_ROW, slot] == 0:
                return best_total
    if pairs != 1:
        return best_total
    for index in range(n_melds):
        kind, first = melds[index, 0], melds[index, 1]
        column = 4 * index
        work[SET_ROW, column] = SET_CHOW if kind == MELD_CHOW else SET_PUNG
        work[SET_ROW, column + 1] = REFERENCE_CODE[first] + (1 if kind == MELD_CHOW else 0)
        work[SET_ROW, column + 2] = 1 if kind == MELD_KONG else (2 if kind == MELD_CONCEALED_KONG else 0)
        work[SET_ROW, column + 3] = 1 if kind != MELD_CONCEALED_KONG else 0
    win_code = REFERENCE_CODE[win]
    unique_wait = -1  # not yet known
    for split_wan in range(work[SPLIT_COUNT_ROW, 0]):
        for split_sou in range(work[SPLIT_COUNT_ROW, 1]):
            for split_pin in range(work[SPLIT_COUNT_ROW, 2]):
                pair = REFERENCE_CODE[honour_pair] if honour_pair >= 0 else -1
                n_sets, pair = _place_split(work, 0, split_wan, 0, n_melds, pair)
                n_sets, pair = _place_split(work, 1, split_sou, SOU_START, n_sets, pair)
                n_sets, pair = _place_split(work, 2, split_pin, PIN_START, n_sets, pair)
                for kind in range(HONOR_START, N_KINDS):
                    if work[STANDING_ROW, kind] == 3:
                        column = 4 * n_sets
                        work[SET_ROW, column] = SET_PUNG
                        work[SET_ROW, column + 1] = REFERENCE_CODE[kind]
                        work[SET_ROW, column + 2] = 0
                        work[SET_ROW, column + 3] = 0
                        n_sets += 1
                work[SET_ROW, PAIR_COLUMN] = pair
                where = _regular_fans(work, n_melds, self_drawn, win_code, hog_kinds, seat_wind, round_wind)
                if where != 0:
                    if unique_wait < 0:
                        for kind in range(N_KINDS):
                            work[WAIT_ROW, kind] = work[STANDING_ROW, kind]
                        work[WAIT_ROW, win] -= 1
                        unique_wait = 1 if _unique_wait(work, win, n_melds == 0) else 0
                    if unique_wait == 1:
                        _put(work, Fan.EDGE_WAIT if where & 1 else (Fan.CLOSED_WAIT if where & 2 else Fan.SINGLE_WAIT), 1)
                total = _finish_reading(work, 4, seat_wind, round_wind, values, priority, exclusion_start, exclusion_target)
                if total > best_total or (total == best_total and (
                        after_seven_pairs or work[FANS_ROW, Fan.PURE_TRIPLE_CHOW] == 1 or work[FANS_ROW, Fan.TRIPLE_PUNG] > 0)):
                    best_total = _keep_best(work, total)
    return best_total


@njit(cache=True, _nrt=False)
def score_hand_all_suits(concealed, melds, n_melds, win, flags, flowers, values, priority, exclusion_start,
                         exclusion_target, work):
    """Score one winning hand of any tiles with MCR's fans; the best reading's fans end in work[BEST_ROW]
    (listed in work[BEST_LIST_ROW]). Returns the total without flowers, or NOT_A_WIN when the tiles are
    not a complete hand.

    `concealed` (34 counts) excludes the winning tile `win`; `melds[i] = (kind, first tile)` for
    i < n_melds; `flags` holds the win-context bits and the two wind fields; `work` comes from new_work.
    """
    tiles = 0
    for kind in range(N_KINDS):
        work[STANDING_ROW, kind] = concealed[kind]
        work[MELD_TILES_ROW, kind] = 0
        tiles += concealed[kind]
    work[STANDING_ROW, win] += 1
    if tiles + 3 * n_melds != 13:
        return NOT_A_WIN
    fan_rows.clear(work, FANS_ROW, FANS_LIST_ROW)
    fan_rows.clear(work, BEST_ROW, BEST_LIST_ROW)
    for index in range(n_melds):
        kind, first = melds[index, 0], melds[index, 1]
        if kind == MELD_CHOW:
            work[MELD_TILES_ROW, first] += 1
            work[MELD_TILES_ROW, first + 1] += 1
            work[MELD_TILES_ROW, first + 2] += 1
        else:
            work[MELD_TILES_ROW, first] += 3 if kind == MELD_PONG else 4
    self_drawn = (flags & SELF_DRAWN_FLAG) != 0
    seat_wind = (flags >> SEAT_WIND_SHIFT) & WIND_FIELD_MASK
    round_wind = (flags >> ROUND_WIND_SHIFT) & WIND_FIELD_MASK
    _context_fans(work, n_melds, melds, win, flags, flowers)
    fan_rows.copy(work, FANS_ROW, FANS_LIST_ROW, CONTEXT_ROW, CONTEXT_LIST_ROW)
    held = 0  # bit k: the hand holds kind k, concealed or in a meld
    standing_kinds = 0  # bit k: the concealed tiles hold kind k
    hog_kinds = 0
    odd_kinds = 0
    most = 0
    for kind in range(N_KINDS):
        standing = work[STANDING_ROW, kind]
        in_all = standing + work[MELD_TILES_ROW, kind]
        if in_all > 0:
            held |= 1 << kind
            if standing > 0:
                standing_kinds |= 1 << kind
                most = max(most, standing)
        hog_kinds += in_all == 4
        odd_kinds += standing & 1
    _trait_fans(work, held)
    fan_rows.copy(work, FANS_ROW, FANS_LIST_ROW, TRAITS_ROW, TRAITS_LIST_ROW)

    best_total = NOT_A_WIN
    after_seven_pairs = False
    if n_melds == 0:
        if odd_kinds == 0:
            total, shifted = _seven_pairs(work, win, hog_kinds, seat_wind, round_wind, values, priority,
                                          exclusion_start, exclusion_target)
            best_total = _keep_best(work, total)
            if shifted:
                return best_total
            after_seven_pairs = True
        else:
            _start_reading(work, CONTEXT_ROW, CONTEXT_LIST_ROW)
            irregular = held == ORPHANS_MASK
            if irregular:
                _put(work, Fan.THIRTEEN_ORPHANS, 1)
            elif most == 1:
                irregular = _knitted_tiles(work, standing_kinds)
            if irregular:
                total = _finish_reading(work, 0, seat_wind, round_wind, values, priority, exclusion_start, exclusion_target)
                return _keep_best(work, total)
    if n_melds <= 1 and not after_seven_pairs:
        total = _knitted_straight(work, standing_kinds, melds, n_melds, win, seat_wind, round_wind, values, priority,
                                  exclusion_start, exclusion_target)
        if total != NOT_A_WIN:
            return _keep_best(work, total)
    if n_melds == 0 and not after_seven_pairs:
        rank = _nine_gates(work, win)
        if rank > 0:
            _start_reading(work, CONTEXT_ROW, CONTEXT_LIST_ROW)
            _put(work, Fan.NINE_GATES, 1)
            # what the best split adds to the pattern, by the rank won on
            if rank == 1 or rank == 9:
                _put(work, Fan.PURE_STRAIGHT, 1)
                _put(work, Fan.TILE_HOG, 1)
            elif rank == 2 or rank == 8 or rank == 5:
                _put(work, Fan.TWO_CONCEALED_PUNGS, 1)
                _put(work, Fan.PUNG_OF_TERMINALS_OR_HONORS, 1)
                if rank != 5:
                    _put(work, Fan.SHORT_STRAIGHT, 1)
            else:
                _put(work, Fan.SHORT_STRAIGHT, 1)
            total = _finish_reading(work, 0, seat_wind, round_wind, values, priority, exclusion_start, exclusion_target)
            return _keep_best(work, total)
    return _regular_readings(work, melds, n_melds, win, self_drawn, hog_kinds, seat_wind, round_wind, best_total,
                             after_seven_pairs, values, priority, exclusion_start, exclusion_target)


@njit(cache=True)
def _score_many(concealed, melds, n_melds, win, flags, flowers, values, priority, exclusion_start, exclusion_target,
                counts, totals):
    work = new_work()
    for hand in range(concealed.shape[0]):
        total = score_hand_all_suits(  # int64 scalars, as the engine passes them: one compiled copy serves both
            concealed[hand], melds[hand], np.int64(n_melds[hand]), np.int64(win[hand]), np.int64(flags[hand]),
            np.int64(flowers[hand]), values, priority, exclusion_start, exclusion_target, work,
        )
        totals[hand] = total
        if total != NOT_A_WIN:
            for index in range(1, work[BEST_LIST_ROW, 0] + 1):
                fan = work[BEST_LIST_ROW, index]
                counts[hand, fan] = work[BEST_ROW, fan]


# ----------------------------------------------------------------------------------------- public API


def score_many(concealed, melds, n_melds, win, flags, flowers, values, priority, exclusion_start, exclusion_target):
    """Score N winning hands of any tiles; returns (fan counts uint8 (N, N_FANS), totals without flowers
    int32 (N,)).

    concealed: (N, 34) counts without the winning tile; melds: (N, 4, 2) rows of (kind, first tile);
    n_melds, win, flags (with the wind fields), flowers: (N,). The ruleset arrays come from
    ``sim.core.ruleset.Ruleset.kernel_arrays``. A total of NOT_A_WIN (-1) marks a hand whose tiles do not
    make a complete hand. The caller checks that the hands are well formed (four copies at most, melds
    that exist); this function checks shapes and ranges.
    """
    # Writable copies: numba compiles a kernel again for a read-only array (a broadcast, a pandas column)
    concealed = np.array(concealed, dtype=np.int8)
    if concealed.ndim != 2 or concealed.shape[1] != N_KINDS:
        raise ValueError(f"concealed must be (N, {N_KINDS}) tile counts")
    count = concealed.shape[0]
    melds = np.array(melds, dtype=np.int8).reshape(count, 4, 2)
    per_hand = [np.array(np.broadcast_to(array, (count,)), dtype=dtype) for array, dtype in
                ((n_melds, np.int8), (win, np.int8), (flags, np.int32), (flowers, np.int8))]
    n_melds, win, flags, flowers = per_hand
    if count and (concealed.min() < 0 or concealed.max() > 4 or n_melds.min() < 0 or n_melds.max() > 4
                  or win.min() < 0 or win.max() >= N_KINDS):
        raise ValueError("tile counts run 0-4, melds 0-4 and the winning tile is a kind 0-33")
    counts = np.zeros((count, N_FANS), np.uint8)
    totals = np.zeros(count, np.int32)
    _score_many(concealed, melds, n_melds, win, flags, flowers, values, priority, exclusion_start, exclusion_target,
                counts, totals)
    return counts, totals

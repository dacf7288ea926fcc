"""The fan evaluator: a winning hand of 万 and honour tiles in, a fan-count vector and its total out.

It follows the official Chinese rules (MCR) the 二人 rulesets derive from (docs/rules/erren.md). The
kernel finds every way to read the hand (each standard decomposition, seven pairs, nine gates), scores
each one, and keeps the best (就高不就低). Per reading it first detects the "raw" fans the combination
principles allow (不重复, 不拆移, 不得相同, 套算一次: a set combines into each kind of fan once, a fourth
chow or pung combines at most once more), then removes the fans another counted fan excludes, using the
ruleset's exclusion lists in order of value. A fan that is itself excluded excludes nothing.

Two things are structural rather than data, as in MCR: which pungs count as 幺九刻 (a wind pung that
makes a wind fan does not), and the way sets combine into chow and pung fans. Where MCR leaves a choice
(which of several equal readings is reported) the kernel makes the one the MCR reference calculator
(PyMahjongGB) makes, so the two can be compared fan by fan.

Inputs are plain arrays: concealed tile counts without the winning tile, melds as (kind, first tile)
rows with kinds CHOW=0, PONG=1, KONG=2, CONCEALED_KONG=3 (``sim.core.notation.MeldKind``), the winning tile,
win-context bits (``kernels.fan_ids``), the flower count, and a ruleset as arrays (``sim.core.ruleset``).
"""

import numpy as np
from numba import njit

from kernels.fan_ids import (
    EARTHLY_HAND_FLAG,
    FOURTH_TILE_FLAG,
    HEAVENLY_HAND_FLAG,
    HEAVENLY_READY_FLAG,
    HUMAN_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    N_FANS,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
    Fan,
)
from kernels.fans import fan_rows
from kernels.tables import load_tables
from kernels.tiles import (
    HONOR_START,
    MELD_CHOW,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PONG,
    N_KINDS,
)

NOT_A_WIN = -1

# Rows of the int64 work array every scoring call reuses (allocated once per batch, not per hand). Hot
# code indexes work[row, column] directly: a row view per call costs reference counting.
STANDING_ROW = 0  # concealed tiles plus the winning tile
MELD_TILES_ROW = 1  # copies of each kind inside the melds
FANS_ROW = 2  # fans of the reading being scored
BEST_ROW = 3  # fans of the best reading so far
EXCLUDED_ROW = 4  # the stamp of the reading that excluded each fan
DECOMPOSITION_ROW = 5  # 万 counts left while a decomposition is walked
CONTEXT_ROW = 6  # fans that do not depend on the reading
WAIT_ROW = 7  # scratch copy of the 万 counts for the fifth-copy wait check
COMBINATION_ROW = 8  # chow middles at 0-3, two-chow fans at 4-9, their tally at 10-12
SET_ROWS = 9  # rows 9-12: one set of the reading each: kind, tile, kong (0 none, 1 exposed, 2 concealed)
# The three fan rows are sparse: a fan is non-zero only if its row's list (length at column 0, fan ids
# from column 1) names it, so a reading touches the few fans it has, not all of them.
FANS_LIST_ROW = 13
BEST_LIST_ROW = 14
CONTEXT_LIST_ROW = 15
WORK_ROWS, WORK_WIDTH = 16, max(N_FANS, N_KINDS) + 8
STAMP_COLUMN = WORK_WIDTH - 1  # in EXCLUDED_ROW: a fan is excluded when its cell equals this stamp
NOT_SINGLE = -1  # a reading that shows the hand waited on more than one kind

SET_CHOW, SET_PUNG = 0, 1
WINDS_START, DRAGONS_START = HONOR_START, HONOR_START + 4
NINE_GATES_BASE = (3, 1, 1, 1, 1, 1, 1, 1, 3)
POWERS_OF_FIVE = (1, 5, 25, 125, 625, 3125, 15625, 78125, 390625)
N_PLAYED_KINDS = 16  # 万 1-9 and the seven honours: the only kinds a 二人 hand holds


@njit(cache=True, inline="always", _nrt=False)
def _played_kind(index):
    return index if index < 9 else index + HONOR_START - 9


@njit(cache=True)
def new_work():
    """The work array `_score_hand` needs, allocated once per batch (or per engine run), not per hand."""
    return np.zeros((WORK_ROWS, WORK_WIDTH), np.int64)


# ------------------------------------------------------------------------------- sparse fan rows


@njit(cache=True, inline="always", _nrt=False)
def _put(work, fan, value):
    """Set a fan of the reading being scored to `value` (> 0), listing it if it was absent."""
    fan_rows.put(work, FANS_ROW, FANS_LIST_ROW, fan, value)


@njit(cache=True, inline="always", _nrt=False)
def _add(work, fan, amount):
    _put(work, fan, work[FANS_ROW, fan] + amount)


@njit(cache=True, _nrt=False)
def _start_reading(work):
    """Reset the reading's fans to the context fans (those that do not depend on the reading)."""
    fan_rows.copy(work, CONTEXT_ROW, CONTEXT_LIST_ROW, FANS_ROW, FANS_LIST_ROW)


# ------------------------------------------------------------------------------- chow combinations
# Chows are given by their middle rank, 2-8, as in MCR's own tables.


@njit(cache=True, inline="always", _nrt=False)
def _two_chow_fan(a, b):
    if a - b == 3 or b - a == 3:
        return Fan.SHORT_STRAIGHT
    if (a == 2 and b == 8) or (a == 8 and b == 2):
        return Fan.TWO_TERMINAL_CHOWS
    if a == b:
        return Fan.PURE_DOUBLE_CHOW
    return -1


@njit(cache=True, inline="always", _nrt=False)
def _three_chow_fan(a, b, c):
    # a <= b <= c
    if a + 3 == b and b + 3 == c:
        return Fan.PURE_STRAIGHT
    if (a + 2 == b and b + 2 == c) or (a + 1 == b and b + 1 == c):
        return Fan.PURE_SHIFTED_CHOWS
    if a == b and b == c:
        return Fan.PURE_TRIPLE_CHOW
    return -1


@njit(cache=True, inline="always", _nrt=False)
def _extra_chow_fan(a, b, c, extra):
    """The one fan a fourth chow may still add to a three-chow fan (套算一次), best first."""
    fa, fb, fc = _two_chow_fan(a, extra), _two_chow_fan(b, extra), _two_chow_fan(c, extra)
    for fan in (Fan.PURE_DOUBLE_CHOW, Fan.SHORT_STRAIGHT, Fan.TWO_TERMINAL_CHOWS):
        if fa == fan or fb == fan or fc == fan:
            return fan
    return -1


@njit(cache=True, _nrt=False)
def _limit_pair_fans(work, n_pairs, max_count):
    """Keep at most `max_count` of the two-chow fans at work[COMBINATION_ROW, 4:4+n_pairs], dropping
    repeats first and 老少副 before 连六 before 一般高 (不得相同, 套算一次)."""
    kinds = (Fan.PURE_DOUBLE_CHOW, Fan.SHORT_STRAIGHT, Fan.TWO_TERMINAL_CHOWS)
    count = 0
    for position in range(3):
        work[COMBINATION_ROW, 10 + position] = 0
    for index in range(n_pairs):
        for position in range(3):
            if work[COMBINATION_ROW, 4 + index] == kinds[position]:
                work[COMBINATION_ROW, 10 + position] += 1
                count += 1
    limit = 1
    while count > max_count and limit >= 0:
        position = 3
        while count > max_count and position > 0:
            position -= 1
            while work[COMBINATION_ROW, 10 + position] > limit and count > max_count:
                work[COMBINATION_ROW, 10 + position] -= 1
                count -= 1
        limit -= 1
    for position in range(3):
        if work[COMBINATION_ROW, 10 + position] > 0:
            _put(work, kinds[position], work[COMBINATION_ROW, 10 + position])


@njit(cache=True, _nrt=False)
def _chow_fans(work, n_chows):
    """Fans among the chows (sorted middle ranks at work[COMBINATION_ROW, 0:n_chows]), combined as
    MCR allows: a four- or three-chow fan first, then what the remaining chows may still add."""
    if n_chows == 4:
        a = work[COMBINATION_ROW, 0]
        b = work[COMBINATION_ROW, 1]
        c = work[COMBINATION_ROW, 2]
        d = work[COMBINATION_ROW, 3]
        if (a + 2 == b and b + 2 == c and c + 2 == d) or (a + 1 == b and b + 1 == c and c + 1 == d):
            _put(work, Fan.FOUR_PURE_SHIFTED_CHOWS, 1)
            return
        if a == b and b == c and c == d:
            _put(work, Fan.QUADRUPLE_CHOW, 1)
            return
        for skip in range(3, -1, -1):
            # the three chows without `skip`, in the order MCR's reference tries them: 012, 013, 023, 123
            x = b if skip == 0 else a
            y = c if skip <= 1 else b
            z = d if skip <= 2 else c
            fan = _three_chow_fan(x, y, z)
            if fan >= 0:
                _put(work, fan, 1)
                extra = _extra_chow_fan(x, y, z, work[COMBINATION_ROW, skip])
                if extra >= 0:
                    _put(work, extra, 1)
                return
        # pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3); a chow unrelated to the other three lowers the cap
        f01, f02, f03 = _two_chow_fan(a, b), _two_chow_fan(a, c), _two_chow_fan(a, d)
        f12, f13, f23 = _two_chow_fan(b, c), _two_chow_fan(b, d), _two_chow_fan(c, d)
        work[COMBINATION_ROW, 4] = f01
        work[COMBINATION_ROW, 5] = f02
        work[COMBINATION_ROW, 6] = f03
        work[COMBINATION_ROW, 7] = f12
        work[COMBINATION_ROW, 8] = f13
        work[COMBINATION_ROW, 9] = f23
        max_count = 3
        if f01 < 0 and f02 < 0 and f03 < 0:
            max_count -= 1
        if f01 < 0 and f12 < 0 and f13 < 0:
            max_count -= 1
        if f02 < 0 and f12 < 0 and f23 < 0:
            max_count -= 1
        if f03 < 0 and f13 < 0 and f23 < 0:
            max_count -= 1
        if max_count > 0:
            _limit_pair_fans(work, 6, max_count)
    elif n_chows == 3:
        a = work[COMBINATION_ROW, 0]
        b = work[COMBINATION_ROW, 1]
        c = work[COMBINATION_ROW, 2]
        fan = _three_chow_fan(a, b, c)
        if fan >= 0:
            _put(work, fan, 1)
            return
        work[COMBINATION_ROW, 4] = _two_chow_fan(a, b)
        work[COMBINATION_ROW, 5] = _two_chow_fan(a, c)
        work[COMBINATION_ROW, 6] = _two_chow_fan(b, c)
        _limit_pair_fans(work, 3, 2)
    elif n_chows == 2:
        fan = _two_chow_fan(work[COMBINATION_ROW, 0], work[COMBINATION_ROW, 1])
        if fan >= 0:
            _add(work, fan, 1)


@njit(cache=True, inline="always", _nrt=False)
def _kong_fans(concealed_pungs, melded_kongs, concealed_kongs, work):
    """Kong and concealed-pung fans, as MCR combines them (a concealed kong is also a concealed pung)."""
    kongs = melded_kongs + concealed_kongs
    hidden = concealed_pungs + concealed_kongs
    if kongs == 4:
        _put(work, Fan.FOUR_KONGS, 1)
    elif kongs == 3:
        _put(work, Fan.THREE_KONGS, 1)
    elif kongs == 2:
        if concealed_kongs == 0:
            _put(work, Fan.TWO_MELDED_KONGS, 1)
        elif concealed_kongs == 1:
            _put(work, Fan.MELDED_KONG, 1)
            _put(work, Fan.CONCEALED_KONG, 1)
        else:
            _put(work, Fan.TWO_CONCEALED_KONGS, 1)
    elif kongs == 1:
        _put(work, Fan.MELDED_KONG if melded_kongs == 1 else Fan.CONCEALED_KONG, 1)
    if hidden == 4:
        _put(work, Fan.FOUR_CONCEALED_PUNGS, 1)
    elif hidden == 3:
        _put(work, Fan.THREE_CONCEALED_PUNGS, 1)
    elif hidden == 2 and not (kongs == 2 and concealed_kongs == 2):
        # two concealed kongs are 双暗杠, which already holds the two concealed pungs
        _put(work, Fan.TWO_CONCEALED_PUNGS, 1)


# ------------------------------------------------------------------------------- waits


@njit(cache=True, _nrt=False)
def _sets_only(counts):
    """Whether 万 counts (any size, fifth copies allowed) split into sets: at the lowest rank left,
    count mod 3 chows must start there and the rest are pungs."""
    a0, a1 = np.int64(counts[0]), np.int64(counts[1])
    for rank in range(9):
        a2 = np.int64(counts[rank + 2]) if rank + 2 < 9 else np.int64(0)
        if a0 < 0:
            return False
        chows = a0 % 3
        if chows > 0:
            if rank > 6:
                return False
            a1 -= chows
            a2 -= chows
        a0, a1 = a1, a2
    return True


@njit(cache=True, _nrt=False)
def _complete_with(work, added, n_melds):
    """Whether the hand in work[STANDING_ROW] plus one tile of kind `added` is complete, reading shapes
    only, fifth copies included (the slow path of _single_wait)."""
    wan = work[WAIT_ROW]
    for rank in range(9):
        wan[rank] = work[STANDING_ROW, rank]
    if added < 9:
        wan[added] += 1
    honour_pair = False
    seven_pairs = n_melds == 0
    for rank in range(9):
        if wan[rank] % 2 == 1:
            seven_pairs = False
    standard = True
    for kind in range(HONOR_START, N_KINDS):
        count = work[STANDING_ROW, kind] + (1 if kind == added else 0)
        if count % 2 == 1:
            seven_pairs = False
        if count == 2:
            if honour_pair:
                standard = False
            honour_pair = True
        elif count != 0 and count != 3:
            standard = False
    if seven_pairs:
        return True
    if not standard:
        return False
    if honour_pair:
        return _sets_only(wan)
    for rank in range(9):
        if wan[rank] >= 2:
            wan[rank] -= 2
            complete = _sets_only(wan)
            wan[rank] += 2
            if complete:
                return True
    return False


@njit(cache=True, inline="always", _nrt=False)
def _is_invalid_honour(count):
    return count != 0 and count != 2 and count != 3


@njit(cache=True, _nrt=False)
def _single_wait(win, n_melds, suit, work):
    """Whether the hand before the winning tile waited on that one kind only (独听).

    Counts shapes, as MCR's reference does. Adding a tile changes one count, so the hand's tallies are
    taken once and each candidate adjusts them: the 万 part is looked up in the shanten suit table
    (distance 0 with exactly the right number of tiles is a complete group); a wait on a fifth copy,
    beyond the table, takes the direct check.
    """
    work[STANDING_ROW, win] -= 1
    index = 0
    wan_tiles = 0
    present = 0
    for rank in range(9):
        count = work[STANDING_ROW, rank]
        index += count * POWERS_OF_FIVE[rank]
        wan_tiles += count
        if count > 0:
            present |= 1 << rank
    near = present | (present << 1) | (present << 2) | (present >> 1) | (present >> 2)
    odd = 0
    pairs = 0
    pungs = 0
    invalid = 0
    for position in range(N_PLAYED_KINDS):
        kind = _played_kind(position)
        count = work[STANDING_ROW, kind]
        odd += count & 1
        if kind >= HONOR_START:
            pairs += count == 2
            pungs += count == 3
            invalid += _is_invalid_honour(count)
    waits = 0
    for position in range(N_PLAYED_KINDS):
        kind = _played_kind(position)
        count = work[STANDING_ROW, kind]
        if kind >= HONOR_START:
            if count == 0:
                continue
        elif (near >> kind) & 1 == 0:
            continue
        complete = False
        if n_melds == 0 and odd == 1 and count % 2 == 1:
            complete = True  # seven pairs
        elif count == 4:
            complete = _complete_with(work, kind, n_melds)
        else:
            kind_pairs, kind_pungs, kind_invalid = pairs, pungs, invalid
            row = index
            tiles = wan_tiles
            if kind >= HONOR_START:
                kind_pairs += (count == 1) - (count == 2)
                kind_pungs += (count == 2) - (count == 3)
                kind_invalid += _is_invalid_honour(count + 1) - _is_invalid_honour(count)
            else:
                row += POWERS_OF_FIVE[kind]
                tiles += 1
            if kind_invalid == 0 and kind_pairs <= 1:
                sets = 4 - n_melds - kind_pungs
                pair = 1 - kind_pairs
                if sets >= 0 and tiles == 3 * sets + 2 * pair and suit[row, 2 * sets + pair] == 0:
                    complete = True
        if complete:
            waits += 1
            if waits > 1:
                break
    work[STANDING_ROW, win] += 1
    return waits == 1


# ------------------------------------------------------------------------------- exclusions


@njit(cache=True, _nrt=False)
def _apply_exclusions(work, values, priority, exclusion_start, exclusion_target, wind_pungs):
    """Drop inactive and excluded fans of the reading; return the total of the rest, flowers aside."""
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
        if values[fan] > 0 and work[EXCLUDED_ROW, fan] != stamp:
            for target in range(exclusion_start[fan], exclusion_start[fan + 1]):
                work[EXCLUDED_ROW, exclusion_target[target]] = stamp
    total = 0
    for index in range(1, length + 1):
        fan = work[FANS_LIST_ROW, index]
        if values[fan] == 0 or work[EXCLUDED_ROW, fan] == stamp:
            work[FANS_ROW, fan] = 0
        elif fan != Fan.FLOWER_TILES:
            total += work[FANS_ROW, fan] * values[fan]
    # A wind pung that makes a counted wind fan is not also a 幺九刻.
    if wind_pungs > 0 and work[FANS_ROW, Fan.PUNG_OF_TERMINALS_OR_HONORS] > 0:
        if (
            work[FANS_ROW, Fan.BIG_FOUR_WINDS] > 0
            or work[FANS_ROW, Fan.LITTLE_FOUR_WINDS] > 0
            or work[FANS_ROW, Fan.BIG_THREE_WINDS] > 0
            or work[FANS_ROW, Fan.LITTLE_THREE_WINDS] > 0
            or work[FANS_ROW, Fan.FOUR_HONOR_PUNGS] > 0
        ):
            kept = max(0, work[FANS_ROW, Fan.PUNG_OF_TERMINALS_OR_HONORS] - wind_pungs)
            total -= (work[FANS_ROW, Fan.PUNG_OF_TERMINALS_OR_HONORS] - kept) * values[Fan.PUNG_OF_TERMINALS_OR_HONORS]
            work[FANS_ROW, Fan.PUNG_OF_TERMINALS_OR_HONORS] = kept
    return total


# ------------------------------------------------------------------------------- one reading


@njit(cache=True, _nrt=False)
def _hand_traits(work, wan_ranks, has_honour):
    """Fans that depend only on which tiles the hand holds: flushes, 字一色, 混幺九, 断幺, 大于5 / 小于5.
    `wan_ranks` has bit r set when the hand holds a 万 of rank r + 1."""
    terminals = wan_ranks & 0b100000001
    middles = wan_ranks & 0b011111110
    if wan_ranks != 0:
        _put(work, Fan.HALF_FLUSH if has_honour else Fan.FULL_FLUSH, 1)
    if terminals == 0 and not has_honour:
        _put(work, Fan.ALL_SIMPLES, 1)
    elif wan_ranks == 0:
        _put(work, Fan.ALL_HONORS, 1)
    elif middles == 0:
        _put(work, Fan.ALL_TERMINALS_AND_HONORS, 1)
    if not has_honour:
        if wan_ranks & ~0b000001111 == 0 and wan_ranks & 0b000001000:  # ranks 1-4 with a 4
            _put(work, Fan.LOWER_FOUR, 1)
        if wan_ranks & 0b000011111 == 0 and wan_ranks & 0b000100000:  # ranks 6-9 with a 6
            _put(work, Fan.UPPER_FOUR, 1)


@njit(cache=True, _nrt=False)
def _regular_fans(work, n_melds, pair, win, self_drawn, hog_kinds, n_kongs):
    """Raw fans of the standard decomposition in rows SET_ROWS.. (the first `n_melds` are melds) with
    `pair`, written to work[FANS_ROW] on top of the context fans.

    Returns (where the winning tile sat: 0 nowhere special, 1 edge, 2 closed, 3 single, NOT_SINGLE;
    the number of wind pungs).
    """
    _start_reading(work)
    n_chows = 0
    pungs = 0
    concealed_pungs = 0
    melded_kongs = 0
    concealed_kongs = 0
    dragon_pungs = 0
    wind_pungs = 0
    wan_pung_mask = 0
    outside = 0
    win_in_concealed_chow = False
    for index in range(4):
        row = SET_ROWS + index
        kind, tile, kong = work[row, 0], work[row, 1], work[row, 2]
        if kind == SET_CHOW:
            work[COMBINATION_ROW, n_chows] = tile + 2
            n_chows += 1
            if tile == 0 or tile == 6:
                outside += 1
            if index >= n_melds and tile <= win <= tile + 2:
                win_in_concealed_chow = True
        else:
            pungs += 1
            if kong == 1:
                melded_kongs += 1
            elif kong == 2:
                concealed_kongs += 1
            elif index >= n_melds:
                concealed_pungs += 1
            if tile >= DRAGONS_START:
                dragon_pungs += 1
                outside += 1
                _add(work, Fan.DRAGON_PUNG, 1)
            elif tile >= WINDS_START:
                wind_pungs += 1
                outside += 1
                _add(work, Fan.PUNG_OF_TERMINALS_OR_HONORS, 1)
            else:
                wan_pung_mask |= 1 << tile
                if tile == 0 or tile == 8:
                    outside += 1
                    _add(work, Fan.PUNG_OF_TERMINALS_OR_HONORS, 1)
    # A discarded winning tile that cannot sit in a concealed chow completed its pung in the open.
    if not self_drawn and not win_in_concealed_chow:
        for index in range(n_melds, 4):
            row = SET_ROWS + index
            if work[row, 0] == SET_PUNG and work[row, 1] == win and work[row, 2] == 0:
                concealed_pungs -= 1
    if pungs > 0:
        _kong_fans(concealed_pungs, melded_kongs, concealed_kongs, work)
        if pungs == 4:
            _put(work, Fan.ALL_PUNGS, 1)
    # pung combinations
    if dragon_pungs == 3:
        _put(work, Fan.BIG_THREE_DRAGONS, 1)
    elif dragon_pungs == 2:
        _put(work, Fan.TWO_DRAGON_PUNGS, 1)
        if pair >= DRAGONS_START:
            _put(work, Fan.LITTLE_THREE_DRAGONS, 1)
    if wind_pungs == 4:
        _put(work, Fan.BIG_FOUR_WINDS, 1)
    elif wind_pungs == 3:
        _put(work, Fan.BIG_THREE_WINDS, 1)
        if WINDS_START <= pair < DRAGONS_START:
            _put(work, Fan.LITTLE_FOUR_WINDS, 1)
    elif wind_pungs == 2 and WINDS_START <= pair < DRAGONS_START:
        _put(work, Fan.LITTLE_THREE_WINDS, 1)
    if dragon_pungs + wind_pungs == 4:
        _put(work, Fan.FOUR_HONOR_PUNGS, 1)
    if wan_pung_mask != 0:
        runs_of_three = wan_pung_mask & (wan_pung_mask >> 1) & (wan_pung_mask >> 2)
        if runs_of_three & (wan_pung_mask >> 3):
            _put(work, Fan.FOUR_PURE_SHIFTED_PUNGS, 1)
        elif runs_of_three:
            _put(work, Fan.PURE_SHIFTED_PUNGS, 1)
    # chow combinations
    terminal_chows = False
    if n_chows == 4 and pair == 4:
        ends = 0
        for index in range(4):
            if work[COMBINATION_ROW, index] == 2:
                ends += 1
            elif work[COMBINATION_ROW, index] == 8:
                ends += 16
        terminal_chows = ends == 2 + 32
    if terminal_chows:
        _put(work, Fan.PURE_TERMINAL_CHOWS, 1)
    elif n_chows >= 2:
        for index in range(1, n_chows):  # insertion sort of at most four middles
            position = index
            while position > 0 and work[COMBINATION_ROW, position - 1] > work[COMBINATION_ROW, position]:
                swap = work[COMBINATION_ROW, position]
                work[COMBINATION_ROW, position] = work[COMBINATION_ROW, position - 1]
                work[COMBINATION_ROW, position - 1] = swap
                position -= 1
        _chow_fans(work, n_chows)
    if n_chows == 4 and pair < HONOR_START:
        _put(work, Fan.ALL_CHOWS, 1)
    if pair >= HONOR_START or pair == 0 or pair == 8:
        outside += 1
    if outside == 5:
        _put(work, Fan.OUTSIDE_HAND, 1)
    if hog_kinds > n_kongs:
        _put(work, Fan.TILE_HOG, hog_kinds - n_kongs)
    # Where the winning tile sat among the concealed sets: edge beats closed beats single. A tile that
    # ends a chow open on its far side (23 waiting on 1 and 4) or completes a pung beside the pair (two
    # pairs waiting) shows the hand waited on a second kind too, whatever the reading: NOT_SINGLE.
    wait = 0
    for index in range(n_melds, 4):
        row = SET_ROWS + index
        first = work[row, 1]
        if work[row, 0] == SET_CHOW:
            if first + 1 == win:
                if wait != 1:
                    wait = 2
            elif first == win or first + 2 == win:
                if (first == win and first <= 5) or (first + 2 == win and first >= 1):
                    return NOT_SINGLE, wind_pungs
                wait = 1
        elif first == win and work[row, 2] == 0:
            return NOT_SINGLE, wind_pungs
    if wait == 0 and pair == win:
        wait = 3
    return wait, wind_pungs


# ------------------------------------------------------------------------------- the whole hand


@njit(cache=True, _nrt=False)
def _keep_best(work, total):
    fan_rows.copy(work, FANS_ROW, FANS_LIST_ROW, BEST_ROW, BEST_LIST_ROW)
    return total


@njit(cache=True, _nrt=False)
def _score_hand(concealed, melds, n_melds, win, flags, flowers, values, priority, exclusion_start, exclusion_target, suit, work):
    """Score one winning hand; the best reading's fans end in work[BEST_ROW]. Returns the total without
    flowers, or NOT_A_WIN when the tiles do not make a complete hand.

    `concealed` excludes the winning tile `win`; `melds[i] = (kind, first tile)` for i < n_melds.
    """
    for index in range(N_PLAYED_KINDS):
        kind = _played_kind(index)
        work[STANDING_ROW, kind] = concealed[kind]
        work[MELD_TILES_ROW, kind] = 0
    work[STANDING_ROW, win] += 1
    fan_rows.clear(work, FANS_ROW, FANS_LIST_ROW)
    fan_rows.clear(work, BEST_ROW, BEST_LIST_ROW)
    n_kongs = 0
    claimed = 0
    for index in range(n_melds):
        kind, first = melds[index, 0], melds[index, 1]
        if kind == MELD_CHOW:
            work[MELD_TILES_ROW, first] += 1
            work[MELD_TILES_ROW, first + 1] += 1
            work[MELD_TILES_ROW, first + 2] += 1
        else:
            work[MELD_TILES_ROW, first] += 3 if kind == MELD_PONG else 4
        if kind == MELD_KONG or kind == MELD_CONCEALED_KONG:
            n_kongs += 1
        if kind != MELD_CONCEALED_KONG:
            claimed += 1

    # The win context, made consistent with the tiles (as MCR's reference does).
    self_drawn = (flags & SELF_DRAWN_FLAG) != 0
    in_hand = work[STANDING_ROW, win]
    in_melds = work[MELD_TILES_ROW, win]
    if ((flags & FOURTH_TILE_FLAG) != 0 and in_hand == 1) or in_melds == 3:
        _put(work, Fan.LAST_TILE, 1)
    if self_drawn:
        _put(work, Fan.SELF_DRAWN, 1)
        if flags & LAST_WALL_TILE_FLAG:
            _put(work, Fan.LAST_TILE_DRAW, 1)
        if flags & KONG_REPLACEMENT_FLAG and n_kongs > 0:
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
    if flags & (READY_FLAG | HEAVENLY_READY_FLAG):
        _put(work, Fan.READY_HAND, 1)
    if flags & HEAVENLY_READY_FLAG:
        _put(work, Fan.HEAVENLY_READY, 1)
    if n_melds == 0:
        if flags & HEAVENLY_HAND_FLAG:
            _put(work, Fan.HEAVENLY_HAND, 1)
        if flags & EARTHLY_HAND_FLAG:
            _put(work, Fan.EARTHLY_HAND, 1)
        if flags & HUMAN_HAND_FLAG:
            _put(work, Fan.HUMAN_HAND, 1)
    if flowers > 0:
        _put(work, Fan.FLOWER_TILES, flowers)
    hog_kinds = 0
    odd_kinds = 0
    wan_ranks = 0  # bit r: the hand holds a 万 of rank r + 1 (concealed or in a meld)
    honours = 0
    for index in range(N_PLAYED_KINDS):
        kind = _played_kind(index)
        held = work[STANDING_ROW, kind] + work[MELD_TILES_ROW, kind]
        hog_kinds += held == 4
        odd_kinds += work[STANDING_ROW, kind] & 1
        if held > 0:
            if kind < 9:
                wan_ranks |= 1 << kind
            else:
                honours += 1
    _hand_traits(work, wan_ranks, honours > 0)
    fan_rows.copy(work, FANS_ROW, FANS_LIST_ROW, CONTEXT_ROW, CONTEXT_LIST_ROW)

    best_total = NOT_A_WIN
    seven_pairs_form = False
    if n_melds == 0 and odd_kinds == 0:
        # Seven pairs (a four-of-a-kind is two pairs).
        _start_reading(work)
        _put(work, Fan.SEVEN_PAIRS, 1)
        shifted = False
        for start in range(3):
            run = True
            for rank in range(start, start + 7):
                if work[STANDING_ROW, rank] != 2:
                    run = False
            shifted = shifted or run
        if shifted:
            _put(work, Fan.SEVEN_SHIFTED_PAIRS, 1)
        honour_pairs = 0
        dragons = 0
        for kind in range(HONOR_START, N_KINDS):
            if work[STANDING_ROW, kind] >= 2:
                honour_pairs += 1
                dragons += kind >= DRAGONS_START
        if honour_pairs == 7:
            _put(work, Fan.SEVEN_STARS, 1)
        if dragons == 3:
            _put(work, Fan.DRAGON_SEVEN_PAIRS, 1)
        if honour_pairs - dragons == 4:
            _put(work, Fan.WIND_SEVEN_PAIRS, 1)
        if hog_kinds > 0:
            _put(work, Fan.TILE_HOG, hog_kinds)
        best_total = _keep_best(work, _apply_exclusions(work, values, priority, exclusion_start, exclusion_target, 0))
        if shifted:
            return best_total  # no standard reading comes near 连七对 (MCR's reference does not look)
        seven_pairs_form = True
    elif n_melds == 0 and win < 9 and _nine_gates(concealed):
        _start_reading(work)
        _put(work, Fan.NINE_GATES, 1)
        # what the best decomposition adds to the pattern, by the rank of the winning tile
        rank = win + 1
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
        return _keep_best(work, _apply_exclusions(work, values, priority, exclusion_start, exclusion_target, 0))
    return _standard_readings(
        melds, n_melds, win, self_drawn, best_total, seven_pairs_form, hog_kinds, n_kongs,
        values, priority, exclusion_start, exclusion_target, suit, work,
    )


@njit(cache=True, _nrt=False)
def _nine_gates(concealed):
    """Whether the concealed tiles before the win are 1112345678999 of 万."""
    for index in range(N_PLAYED_KINDS):
        kind = _played_kind(index)
        if concealed[kind] != (NINE_GATES_BASE[kind] if kind < 9 else 0):
            return False
    return True


@njit(cache=True, _nrt=False)
def _reading_key(work, first, last):
    """The order in which MCR's reference meets this decomposition: its 万 sets as (rank, pung before
    chow) keys, sorted, read as one number."""
    a = b = c = d = 99
    for index in range(first, last):
        value = 2 * work[SET_ROWS + index, 1] + (1 if work[SET_ROWS + index, 0] == SET_CHOW else 0)
        # insert into the sorted a <= b <= c <= d
        if value < a:
            a, b, c, d = value, a, b, c
        elif value < b:
            b, c, d = value, b, c
        elif value < c:
            c, d = value, c
        else:
            d = value
    return ((a * 128 + b) * 128 + c) * 128 + d


@njit(cache=True, _nrt=False)
def _standard_readings(
    melds, n_melds, win, self_drawn, best_total, seven_pairs_form, hog_kinds, n_kongs,
    values, priority, exclusion_start, exclusion_target, suit, work,
):
    """Score every standard decomposition (melds, honour sets, and each way to split the 万 tiles)."""
    for index in range(n_melds):
        kind, first = melds[index, 0], melds[index, 1]
        row = SET_ROWS + index
        work[row, 0] = SET_CHOW if kind == MELD_CHOW else SET_PUNG
        work[row, 1] = first
        work[row, 2] = 1 if kind == MELD_KONG else (2 if kind == MELD_CONCEALED_KONG else 0)
    n_sets = n_melds
    honour_pair = -1
    for kind in range(HONOR_START, N_KINDS):
        count = work[STANDING_ROW, kind]
        if count == 3:
            if n_sets == 4:
                return best_total
            work[SET_ROWS + n_sets, 0] = SET_PUNG
            work[SET_ROWS + n_sets, 1] = kind
            work[SET_ROWS + n_sets, 2] = 0
            n_sets += 1
        elif count == 2:
            if honour_pair >= 0:
                return best_total
            honour_pair = kind
        elif count != 0:
            return best_total
    # The 万 tiles: the pair (unless an honour is the pair), then sets. Chows add 3r + 3 and pungs 3r to
    # the sum of rank x count, so that sum fixes the pair's rank modulo 3: at most three ranks to try.
    wan_tiles = 0
    rank_sum = 0
    for rank in range(9):
        wan_tiles += work[STANDING_ROW, rank]
        rank_sum += rank * work[STANDING_ROW, rank]
    needed = 4 - n_sets
    if wan_tiles != 3 * needed + (0 if honour_pair >= 0 else 2):
        return best_total
    first_pair_rank = (2 * rank_sum) % 3  # 2p = rank_sum (mod 3), and 2 is its own inverse mod 3

    best_key = -1
    best_has_triple = False
    best_is_standard = False
    single_wait_known = -1  # -1 not yet computed, 0 no, 1 yes
    pair_rank = -1 if honour_pair >= 0 else first_pair_rank
    while pair_rank < 9:
        if pair_rank < 0 or work[STANDING_ROW, pair_rank] >= 2:
            # Walk the ranks upwards; where three or more tiles are left, either the rest of their
            # pungs or three more chows start there (bit b of `choice` picks at the b-th such rank).
            # Chows only lower later counts, so those ranks are among the ranks holding three or more.
            branch_ranks = 0
            for rank in range(9):
                branch_ranks += work[STANDING_ROW, rank] - (2 if rank == pair_rank else 0) >= 3
            n_choices = 1 << branch_ranks
            choice = 0
            while choice < n_choices:
                for rank in range(9):
                    work[DECOMPOSITION_ROW, rank] = work[STANDING_ROW, rank]
                if pair_rank >= 0:
                    work[DECOMPOSITION_ROW, pair_rank] -= 2
                taken = n_sets
                branch = 0
                valid = True
                for rank in range(9):
                    count = work[DECOMPOSITION_ROW, rank]
                    if count < 0:
                        valid = False
                        break
                    chows = count % 3
                    if count >= 3:
                        if (choice >> branch) & 1:
                            chows += 3
                        branch += 1
                    if taken + chows + (count - chows) // 3 > 4:
                        valid = False  # more sets than the hand has room for: not this way
                        break
                    if chows > 0:
                        if rank > 6:
                            valid = False
                            break
                        work[DECOMPOSITION_ROW, rank + 1] -= chows
                        work[DECOMPOSITION_ROW, rank + 2] -= chows
                        for _ in range(chows):
                            work[SET_ROWS + taken, 0] = SET_CHOW
                            work[SET_ROWS + taken, 1] = rank
                            work[SET_ROWS + taken, 2] = 0
                            taken += 1
                    if count - chows >= 3:
                        work[SET_ROWS + taken, 0] = SET_PUNG
                        work[SET_ROWS + taken, 1] = rank
                        work[SET_ROWS + taken, 2] = 0
                        taken += 1
                if valid and (choice >> branch) == 0:  # a choice beyond this walk's branch points repeats one
                    pair = honour_pair if honour_pair >= 0 else pair_rank
                    best_total, best_key, best_has_triple, best_is_standard, single_wait_known = _score_reading(
                        n_melds, n_sets, pair, win, self_drawn, hog_kinds, n_kongs, values, priority,
                        exclusion_start, exclusion_target, suit, work, best_total, best_key, best_has_triple,
                        best_is_standard, seven_pairs_form, single_wait_known,
                    )
                choice += 1
        if pair_rank < 0:
            break
        pair_rank += 3
    return best_total


@njit(cache=True, _nrt=False)
def _score_reading(
    n_melds, n_sets, pair, win, self_drawn, hog_kinds, n_kongs, values, priority, exclusion_start,
    exclusion_target, suit, work, best_total, best_key, best_has_triple, best_is_standard, seven_pairs_form,
    single_wait_known,
):
    """Score the decomposition in rows SET_ROWS.. and keep it if it beats the best so far. Among equal
    totals, keep the one MCR's reference reports: the first it meets, unless a later one has 一色三同顺
    (then the last such), and any standard reading over an equal seven pairs (then the last it meets)."""
    wait, wind_pungs = _regular_fans(work, n_melds, pair, win, self_drawn, hog_kinds, n_kongs)
    if wait == NOT_SINGLE:
        single_wait_known = 0
    elif wait != 0:
        if single_wait_known < 0:
            single_wait_known = 1 if _single_wait(win, n_melds, suit, work) else 0
        if single_wait_known == 1:
            _put(work, Fan.EDGE_WAIT + wait - 1, 1)
    total = _apply_exclusions(work, values, priority, exclusion_start, exclusion_target, wind_pungs)
    if total >= best_total:
        has_triple = work[FANS_ROW, Fan.PURE_TRIPLE_CHOW] == 1
        key = _reading_key(work, n_sets, 4)
        if total > best_total:
            keep = True
        elif not best_is_standard:
            keep = seven_pairs_form
        elif seven_pairs_form:
            keep = key > best_key
        elif has_triple:
            keep = not best_has_triple or key > best_key
        else:
            keep = not best_has_triple and key < best_key
        if keep:
            best_total = _keep_best(work, total)
            best_key = key
            best_has_triple = has_triple
            best_is_standard = True
    return best_total, best_key, best_has_triple, best_is_standard, single_wait_known


@njit(cache=True)
def _score_many(concealed, melds, n_melds, win, flags, flowers, values, priority, exclusion_start, exclusion_target, suit, counts, totals):
    work = new_work()
    for hand in range(concealed.shape[0]):
        total = _score_hand(  # int64 scalars, as the engine passes them: one compiled copy serves both
            concealed[hand], melds[hand], np.int64(n_melds[hand]), np.int64(win[hand]), np.int64(flags[hand]),
            np.int64(flowers[hand]), values, priority, exclusion_start, exclusion_target, suit, work,
        )
        totals[hand] = total
        if total != NOT_A_WIN:
            for index in range(1, work[BEST_LIST_ROW, 0] + 1):
                fan = work[BEST_LIST_ROW, index]
                counts[hand, fan] = work[BEST_ROW, fan]


# ----------------------------------------------------------------------------------------- public API


def score_many(concealed, melds, n_melds, win, flags, flowers, values, priority, exclusion_start, exclusion_target):
    """Score N winning hands; returns (fan counts uint8 (N, N_FANS), totals without flowers int32 (N,)).

    concealed: (N, 34) counts without the winning tile; melds: (N, 4, 2) rows of (kind, first tile);
    n_melds, win, flags, flowers: (N,). The ruleset arrays come from ``sim.core.ruleset.Ruleset.kernel_arrays``.
    A total of NOT_A_WIN (-1) marks a hand whose tiles do not make a complete hand. The caller checks that
    the hands are well formed (``sim.families.scoring`` does); this function checks only shapes and ranges.
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
    if concealed[:, 9:HONOR_START].any() or ((melds[:, :, 1] >= 9) & (melds[:, :, 1] < HONOR_START)).any():
        raise ValueError("the 二人 fan evaluator takes 万 and honour tiles only")
    counts = np.zeros((count, N_FANS), np.uint8)
    totals = np.zeros(count, np.int32)
    suit = load_tables().suit
    _score_many(concealed, melds, n_melds, win, flags, flowers, values, priority, exclusion_start, exclusion_target, suit, counts, totals)
    return counts, totals

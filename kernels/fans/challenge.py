"""The fan evaluator of `erren-challenge` (seed 004's 闯关 game, docs/rules/erren-challenge.md): a winning hand
of any of the 34 kinds in, the fans of its best reading and its points out.

A hand is read every way it can be: each standard decomposition (a pair, then the concealed tiles as pungs
and chows beside the melds), seven pairs (a four-of-a-kind is two pairs) and thirteen orphans. In a
decomposition the winning tile's place matters twice: a pung completed by a discard is not concealed (三暗刻,
四暗刻), and 平和 needs the winning tile at the open end of a chow; only the best place is scored
(``_best_placement`` says why one place is best for both). Every reading gets its fans, the ruleset's
exclusions are applied in order of value (a fan that is itself excluded excludes nothing), and the reading
with the most points is kept; between equal points, the rules book's tie-break decides (``_beats_best``).

Points: f fans (花牌 included, at most `fan_cap`) score f·(f+1)·`per_fan_step`; N 役满 score N·`per_limit`,
and a reading holding any 役满 keeps only its 役满 (`is_limit` marks them). 推倒胡 is the reading with no
fan but 花牌. The win context is made consistent with the tiles as the other evaluators make it: 杠上开花
needs a kong among the melds, 抢杠 a winning kind the hand and melds do not hold; a robbed kong is then
scored as a self-draw (004: 抢杠记分按自摸计).

The decompositions are walked depth first with a stack in the work array, not by recursion (numba issue
6061): at each level the lowest kind left is a pung or the start of a chow, and a level's set is taken back
before its other option is tried.
"""

import numpy as np
from numba import njit

from kernels.fan_ids import (
    EARTHLY_HAND_FLAG,
    EXTRA_DRAW_FLAG,
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
from kernels.tiles import (
    HONOR_START,
    MELD_CHOW,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    N_KINDS,
    SOU_START,
    SUIT_SIZE,
)

NOT_A_WIN = -1
EAST, NORTH = HONOR_START, HONOR_START + 3
WINDS_END, DRAGONS_START = HONOR_START + 4, HONOR_START + 4
GREEN_DRAGON, RED_DRAGON = HONOR_START + 5, HONOR_START + 6
MILLION_STONES_SUM = 100  # 百万石: the 万 ranks of every tile add up to at least this
# The kinds 绿一色 and 红孔雀 allow, as bits of one integer: 2 3 4 6 8条 and 发; 1 5 7 9条 and 中.
# Sets of kinds as the bits of one integer (bit `kind`), so a hand's facts are a few masks of the kinds it holds.
GREEN_KINDS = sum(1 << (SOU_START + rank - 1) for rank in (2, 3, 4, 6, 8)) | 1 << GREEN_DRAGON  # 绿一色
PEACOCK_KINDS = sum(1 << (SOU_START + rank - 1) for rank in (1, 5, 7, 9)) | 1 << RED_DRAGON  # 红孔雀
HONOUR_KINDS = sum(1 << kind for kind in range(HONOR_START, N_KINDS))
TERMINAL_KINDS = sum(1 << (start + rank) for start in (0, SUIT_SIZE, 2 * SUIT_SIZE) for rank in (0, SUIT_SIZE - 1))
SIMPLE_KINDS = sum(1 << kind for kind in range(HONOR_START)) & ~TERMINAL_KINDS
ORPHAN_KINDS = TERMINAL_KINDS | HONOUR_KINDS
MAN_KINDS, PIN_KINDS, SOU_KINDS = (sum(1 << (start + rank) for rank in range(SUIT_SIZE)) for start in (0, SUIT_SIZE, SOU_START))

# Rows of the int64 work array (allocated once per batch). Columns are kinds or fan ids.
STANDING_ROW = 0  # concealed tiles plus the winning tile
ALL_TILES_ROW = 1  # standing plus every tile of the melds (a kong's four)
WALK_ROW = 2  # tiles left while a decomposition is walked
FANS_ROW = 3  # the reading being scored: counts by fan id
BEST_ROW = 4  # the best reading so far
EXCLUDED_ROW = 5  # the stamp of the reading that excluded each fan (column N_FANS: the stamp now)
SETS_ROW = 6  # the reading's sets: column 3s is the kind (0 chow, 1 pung, 2 kong), 3s+1 the first tile,
#               3s+2 whether the set is concealed (a concealed kong is); the concealed sets come first
CHOWS_ROW = 7  # chows by first tile, then pungs by kind at column N_KINDS + kind
LIST_ROW = 8  # the fans FANS_ROW holds: column 0 how many, then their ids (only these are ever non-zero)
BEST_LIST_ROW = 9  # the same for BEST_ROW
HAND_FANS_ROW = 10  # the fans of the hand whatever the reading: column 0 how many, then (fan, count) pairs
STACK_ROW = 11  # the decomposition walk: column level is the kind it starts from, 8 + level the option tried;
#                from column 17 the kinds that may be the pair
WORK_ROWS, WORK_COLUMNS = 12, max(N_FANS + 1, 2 * N_KINDS)

SET_CHOW, SET_PUNG, SET_KONG = 0, 1, 2
# The result row each scoring call fills: points, capped fan total, number of 役满, total before the cap.
POINTS, TOTAL, LIMITS, UNCAPPED = 0, 1, 2, 3
RESULT_FIELDS = 4
# What a hand is, decided once from its tiles and melds (bits of `hand_facts`).
CONCEALED = 1  # no chow, pong or exposed kong
HAS_HONOUR, HAS_TERMINAL, HAS_SIMPLE = 2, 4, 8
ONE_SUIT = 16  # at most one of the three suits
GREEN_ONLY, PEACOCK_ONLY = 32, 64  # 绿一色's and 红孔雀's tiles only
MILLION_STONES = 128  # 万 only, ranks summing to 100 or more
SELF_DRAWN_LIKE = 256  # self-drawn, or robbing a kong (scored as a self-draw)
NINE_GATES = 512  # concealed 1112345678999 of one suit before the win
BIG_WHEELS = 1024  # 2 to 8 of one suit, two each
# Readings
STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS = 0, 1, 2


@njit(cache=True)
def new_work():
    return np.zeros((WORK_ROWS, WORK_COLUMNS), np.int64)


@njit(cache=True, inline="always", _nrt=False)
def _is_terminal_or_honour(kind):
    return kind >= HONOR_START or kind % SUIT_SIZE == 0 or kind % SUIT_SIZE == SUIT_SIZE - 1


@njit(cache=True, inline="always", _nrt=False)
def _is_terminal(kind):
    return kind < HONOR_START and (kind % SUIT_SIZE == 0 or kind % SUIT_SIZE == SUIT_SIZE - 1)


@njit(cache=True, inline="always", _nrt=False)
def _set_has_terminal_or_honour(kind, first):
    if kind == SET_CHOW:
        return first % SUIT_SIZE == 0 or first % SUIT_SIZE == SUIT_SIZE - 3
    return _is_terminal_or_honour(first)


@njit(cache=True, _nrt=False)
def _hand_facts(work, held, melds, n_melds, flags):
    """The bits of what the hand is, whatever the reading (tiles in ALL_TILES_ROW), read off `held`, the kinds
    it holds as the bits of one integer."""
    facts = 0
    if held & HONOUR_KINDS:
        facts |= HAS_HONOUR
    if held & TERMINAL_KINDS:
        facts |= HAS_TERMINAL
    if held & SIMPLE_KINDS:
        facts |= HAS_SIMPLE
    if held & ~GREEN_KINDS == 0:
        facts |= GREEN_ONLY
    if held & ~PEACOCK_KINDS == 0:
        facts |= PEACOCK_ONLY
    suits = (held & MAN_KINDS != 0) | (held & PIN_KINDS != 0) << 1 | (held & SOU_KINDS != 0) << 2
    if suits == 0 or suits == 1 or suits == 2 or suits == 4:
        facts |= ONE_SUIT
    concealed = True
    for index in range(n_melds):
        concealed = concealed and melds[index, 0] == MELD_CONCEALED_KONG
    if concealed:
        facts |= CONCEALED
    if suits == 1 and not facts & HAS_HONOUR:
        man_sum = 0
        for kind in range(SUIT_SIZE):
            man_sum += (kind + 1) * work[ALL_TILES_ROW, kind]
        if man_sum >= MILLION_STONES_SUM:
            facts |= MILLION_STONES
    if flags & (SELF_DRAWN_FLAG | ROBBING_KONG_FLAG):
        facts |= SELF_DRAWN_LIKE
    if n_melds == 0 and not facts & HAS_HONOUR and (suits == 1 or suits == 2 or suits == 4):
        start = SUIT_SIZE * (suits // 2 if suits < 4 else 2)  # the one suit held
        facts |= NINE_GATES  # one concealed suit; the caller checks 1112345678999 before the win
        wheels = True
        for rank in range(SUIT_SIZE):
            wheels = wheels and work[STANDING_ROW, start + rank] == (2 if 1 <= rank <= SUIT_SIZE - 2 else 0)
        if wheels:
            facts |= BIG_WHEELS
    return facts


@njit(cache=True, inline="always", _nrt=False)
def _put(work, fan, count, values):
    """List the fan with its count, when it holds and the ruleset scores it."""
    if count > 0 and values[fan] > 0:
        work[FANS_ROW, fan] = count
        listed = work[LIST_ROW, 0] + 1
        work[LIST_ROW, 0] = listed
        work[LIST_ROW, listed] = fan


@njit(cache=True, inline="always", _nrt=False)
def _sort_listed(work, priority):
    """The listed fans by priority: value, then file order (an insertion sort: a few fans, mostly in order)."""
    for index in range(2, work[LIST_ROW, 0] + 1):
        fan = work[LIST_ROW, index]
        position = index
        while position > 1 and priority[work[LIST_ROW, position - 1]] > priority[fan]:
            work[LIST_ROW, position] = work[LIST_ROW, position - 1]
            position -= 1
        work[LIST_ROW, position] = fan


@njit(cache=True, _nrt=False)
def _hand_fans(work, facts, flags, flowers, values, priority):
    """Into HAND_FANS_ROW, the fans every reading of the hand shares: its tiles and the win's context."""
    work[LIST_ROW, 0] = 0
    concealed = facts & CONCEALED != 0
    _put(work, Fan.HEAVENLY_HAND, 1 if flags & HEAVENLY_HAND_FLAG else 0, values)
    _put(work, Fan.EARTHLY_HAND, 1 if flags & EARTHLY_HAND_FLAG else 0, values)
    _put(work, Fan.HUMAN_HAND, 1 if flags & HUMAN_HAND_FLAG else 0, values)
    _put(work, Fan.ALL_GREEN, 1 if facts & GREEN_ONLY else 0, values)
    _put(work, Fan.MILLION_STONES, 1 if facts & MILLION_STONES else 0, values)
    _put(work, Fan.BIG_WHEELS, 1 if facts & BIG_WHEELS else 0, values)
    _put(work, Fan.NINE_GATES, 1 if facts & NINE_GATES else 0, values)
    _put(work, Fan.CONCEALED_HAND, 1 if concealed else 0, values)
    _put(work, Fan.READY_HAND, 1 if concealed and flags & READY_FLAG else 0, values)
    _put(work, Fan.HEAVENLY_READY, 1 if flags & HEAVENLY_READY_FLAG else 0, values)
    _put(work, Fan.FULLY_CONCEALED_HAND, 1 if concealed and facts & SELF_DRAWN_LIKE else 0, values)
    _put(work, Fan.ALL_SIMPLES, 1 if not facts & (HAS_HONOUR | HAS_TERMINAL) else 0, values)
    one_suit = facts & ONE_SUIT != 0 and facts & (HAS_TERMINAL | HAS_SIMPLE) != 0
    _put(work, Fan.FULL_FLUSH, 1 if one_suit and not facts & HAS_HONOUR else 0, values)
    _put(work, Fan.HALF_FLUSH, 1 if one_suit and facts & HAS_HONOUR else 0, values)
    replacement = flags & KONG_REPLACEMENT_FLAG != 0
    _put(work, Fan.OUT_WITH_REPLACEMENT_TILE, 1 if replacement else 0, values)
    last = flags & LAST_WALL_TILE_FLAG != 0 and not flags & EXTRA_DRAW_FLAG
    _put(work, Fan.LAST_TILE_DRAW, 1 if last and flags & SELF_DRAWN_FLAG and not replacement else 0, values)
    _put(work, Fan.LAST_TILE_CLAIM, 1 if last and not flags & (SELF_DRAWN_FLAG | ROBBING_KONG_FLAG) else 0, values)
    _put(work, Fan.EXTRA_DRAW_WIN, 1 if flags & EXTRA_DRAW_FLAG else 0, values)
    _put(work, Fan.FLOWER_TILES, flowers, values)
    _sort_listed(work, priority)  # once here, so that a reading only sorts its own fans in among them
    listed = work[LIST_ROW, 0]
    work[HAND_FANS_ROW, 0] = listed
    for index in range(1, listed + 1):
        fan = work[LIST_ROW, index]
        work[HAND_FANS_ROW, 2 * index - 1], work[HAND_FANS_ROW, 2 * index] = fan, work[FANS_ROW, fan]
        work[FANS_ROW, fan] = 0
    work[LIST_ROW, 0] = 0


@njit(cache=True, _nrt=False)
def _reading_fans(work, reading, pair, n_sets, win, placement, facts, values, is_limit):
    """Fill FANS_ROW with the reading's fans before exclusions; return how many 役满 it holds.

    `placement` is the set (0..n_sets-1) holding the winning tile, -1 for the pair."""
    for index in range(1, work[LIST_ROW, 0] + 1):  # the previous reading's fans
        work[FANS_ROW, work[LIST_ROW, index]] = 0
    work[LIST_ROW, 0] = 0
    listed = work[HAND_FANS_ROW, 0]  # already scored fans, in priority order
    for index in range(1, listed + 1):
        fan = work[HAND_FANS_ROW, 2 * index - 1]
        work[LIST_ROW, index] = fan
        work[FANS_ROW, fan] = work[HAND_FANS_ROW, 2 * index]
    work[LIST_ROW, 0] = listed
    if reading == SEVEN_PAIRS:
        luxury = work[STANDING_ROW, win] == 4
        _put(work, Fan.LUXURY_SEVEN_PAIRS, 1 if luxury else 0, values)
        _put(work, Fan.SEVEN_PAIRS, 1, values)
    elif reading == THIRTEEN_ORPHANS:
        _put(work, Fan.THIRTEEN_ORPHANS, 1, values)
    else:
        _standard_fans(work, pair, n_sets, win, placement, facts, values)
    limits = 0
    for index in range(1, work[LIST_ROW, 0] + 1):
        fan = work[LIST_ROW, index]
        if is_limit[fan]:
            limits += values[fan] * work[FANS_ROW, fan]
    return limits


@njit(cache=True, _nrt=False)
def _standard_fans(work, pair, n_sets, win, placement, facts, values):
    """The fans of a standard reading: SETS_ROW holds its four sets (concealed ones first), `pair` its pair."""
    concealed = facts & CONCEALED != 0
    n_chows, n_pungs, n_kongs, concealed_pungs, identical_pairs = 0, 0, 0, 0, 0
    wind_pungs, dragon_pungs = 0, 0
    every_set_outside = _is_terminal_or_honour(pair)
    every_set_terminal = _is_terminal(pair)
    two_sided = False
    for index in range(4):
        kind, first, hidden = work[SETS_ROW, 3 * index], work[SETS_ROW, 3 * index + 1], work[SETS_ROW, 3 * index + 2]
        if kind == SET_CHOW:
            n_chows += 1
            work[CHOWS_ROW, first] += 1
            identical_pairs += work[CHOWS_ROW, first] % 2 == 0  # the second (or fourth) of its kind
            every_set_terminal = every_set_terminal and (first % SUIT_SIZE == 0 or first % SUIT_SIZE == SUIT_SIZE - 3)
            if index == placement:
                two_sided = _is_two_sided(first, win)
        else:
            n_pungs += 1
            n_kongs += kind == SET_KONG
            work[CHOWS_ROW, N_KINDS + first] += 1
            # a pung the winning tile completed from a discard is not concealed
            if hidden and not (index == placement and not facts & SELF_DRAWN_LIKE):
                concealed_pungs += 1
            if first >= HONOR_START:
                wind_pungs += first < WINDS_END
                dragon_pungs += first >= DRAGONS_START
            every_set_terminal = every_set_terminal and _is_terminal(first)
        every_set_outside = every_set_outside and _set_has_terminal_or_honour(kind, first)
    honour_pair = pair >= HONOR_START
    # 役满 of the standard form
    _put(work, Fan.BIG_FOUR_WINDS, 1 if wind_pungs == 4 else 0, values)
    _put(work, Fan.LITTLE_FOUR_WINDS, 1 if wind_pungs == 3 and honour_pair and pair < WINDS_END else 0, values)
    _put(work, Fan.BIG_THREE_DRAGONS, 1 if dragon_pungs == 3 else 0, values)
    _put(work, Fan.FOUR_CONCEALED_PUNGS, 1 if concealed_pungs == 4 else 0, values)
    _put(work, Fan.FOUR_KONGS, 1 if n_kongs == 4 else 0, values)
    only_honours = not facts & (HAS_TERMINAL | HAS_SIMPLE)
    _put(work, Fan.ALL_HONORS, 1 if only_honours else 0, values)
    _put(work, Fan.ALL_TERMINALS, 1 if not facts & (HAS_HONOUR | HAS_SIMPLE) else 0, values)
    _put(work, Fan.RED_PEACOCK, 1 if facts & PEACOCK_ONLY else 0, values)
    # pungs of consecutive ranks in one suit, straights and same-rank sets across suits, looked up in CHOWS_ROW
    run_of_three, run_of_four, straight, mixed_chow, triple_pung = False, False, False, False, False
    for index in range(4):
        kind, first = work[SETS_ROW, 3 * index], work[SETS_ROW, 3 * index + 1]
        rank = first % SUIT_SIZE
        if first >= HONOR_START:
            continue
        if kind == SET_CHOW:
            straight = straight or (rank == 0 and work[CHOWS_ROW, first + 3] > 0 and work[CHOWS_ROW, first + 6] > 0)
            mixed_chow = mixed_chow or (first < SUIT_SIZE and work[CHOWS_ROW, first + SUIT_SIZE] > 0
                                        and work[CHOWS_ROW, first + 2 * SUIT_SIZE] > 0)
        else:
            pungs = N_KINDS + first
            if rank <= SUIT_SIZE - 3 and work[CHOWS_ROW, pungs + 1] > 0 and work[CHOWS_ROW, pungs + 2] > 0:
                run_of_three = True
                run_of_four = run_of_four or (rank <= SUIT_SIZE - 4 and work[CHOWS_ROW, pungs + 3] > 0)
            triple_pung = triple_pung or (first < SUIT_SIZE and work[CHOWS_ROW, pungs + SUIT_SIZE] > 0
                                          and work[CHOWS_ROW, pungs + 2 * SUIT_SIZE] > 0)
    _put(work, Fan.FOUR_PURE_SHIFTED_PUNGS, 1 if run_of_four else 0, values)
    _put(work, Fan.PURE_SHIFTED_PUNGS, 1 if run_of_three and not run_of_four else 0, values)
    _put(work, Fan.PURE_STRAIGHT, 1 if straight else 0, values)
    express = straight and (
        (work[CHOWS_ROW, N_KINDS + EAST] > 0 and pair == NORTH) or (work[CHOWS_ROW, N_KINDS + NORTH] > 0 and pair == EAST)
    )
    _put(work, Fan.NORTHEAST_EXPRESS, 1 if express else 0, values)
    _put(work, Fan.MIXED_TRIPLE_CHOW, 1 if mixed_chow else 0, values)
    _put(work, Fan.TRIPLE_PUNG, 1 if triple_pung else 0, values)
    for index in range(4):  # leave CHOWS_ROW empty for the next reading
        kind, first = work[SETS_ROW, 3 * index], work[SETS_ROW, 3 * index + 1]
        work[CHOWS_ROW, first if kind == SET_CHOW else N_KINDS + first] = 0
    _put(work, Fan.TWO_PURE_DOUBLE_CHOWS, 1 if concealed and identical_pairs >= 2 else 0, values)
    _put(work, Fan.PURE_DOUBLE_CHOW, 1 if concealed and identical_pairs >= 1 else 0, values)
    _put(work, Fan.ALL_PUNGS, 1 if n_pungs == 4 else 0, values)
    _put(work, Fan.THREE_CONCEALED_PUNGS, 1 if concealed_pungs == 3 else 0, values)
    _put(work, Fan.LITTLE_THREE_DRAGONS, 1 if dragon_pungs == 2 and pair >= DRAGONS_START else 0, values)
    has_honour = facts & HAS_HONOUR != 0
    _put(work, Fan.OUTSIDE_HAND, 1 if every_set_outside and has_honour and n_chows > 0 else 0, values)
    _put(work, Fan.PURE_OUTSIDE_HAND, 1 if every_set_terminal and n_chows > 0 else 0, values)
    terminals_and_honours = n_pungs == 4 and every_set_outside and has_honour and facts & HAS_TERMINAL != 0
    _put(work, Fan.ALL_TERMINALS_AND_HONORS, 1 if terminals_and_honours else 0, values)
    _put(work, Fan.ALL_CHOWS, 1 if concealed and n_chows == 4 and not honour_pair and two_sided else 0, values)


@njit(cache=True, inline="always", _nrt=False)
def _is_two_sided(first, win):
    """The winning tile completes the chow starting at `first` at an open end: 23 waiting on 1 or 4, not 12 on 3."""
    rank = first % SUIT_SIZE
    return (win == first and rank <= SUIT_SIZE - 4) or (win == first + 2 and rank >= 1)


@njit(cache=True, _nrt=False)
def _best_placement(work, pair, n_sets, win, facts):
    """The set of the decomposition in SETS_ROW that the winning tile goes into (-1: the pair) for the most points.

    The place decides two things only, and one place is best for both: a two-sided chow gives 平和, and a place
    other than a pung keeps every pung concealed (a pung completed by a discard is not). So a two-sided chow
    beats any other chow or the pair, which beat a pung; among equals the fans are the same."""
    placement, rank = -2, -1
    if pair == win:
        placement, rank = -1, 1
    for index in range(n_sets):
        kind, first = work[SETS_ROW, 3 * index], work[SETS_ROW, 3 * index + 1]
        if kind == SET_CHOW and first <= win <= first + 2:
            place_rank = 2 if _is_two_sided(first, win) else 1
        elif kind == SET_PUNG and first == win:
            place_rank = 1 if facts & SELF_DRAWN_LIKE else 0
        else:
            continue
        if place_rank > rank:
            placement, rank = index, place_rank
    return placement


@njit(cache=True, inline="always", _nrt=False)
def _beats_best(work, points, total, values, priority, result):
    """Whether the reading in FANS_ROW beats the best so far (BEST_ROW): the most points; between readings of equal
    points, the tie-break of the rules book, a total order so that no record depends on the order readings are
    walked in: the higher total before the cap, then more fans (花牌 aside), then the higher highest fan, then the
    reading holding the first fan, in the rules book's order (``priority``), that one holds and the other does not."""
    if points != result[POINTS]:
        return points > result[POINTS]
    if total != result[UNCAPPED]:
        return total > result[UNCAPPED]
    count, best_count, highest, best_highest = 0, 0, 0, 0
    first_apart, first_is_ours = N_FANS, False
    for fan in range(N_FANS):
        ours, best = work[FANS_ROW, fan], work[BEST_ROW, fan]
        if fan != Fan.FLOWER_TILES:
            count += ours
            best_count += best
        if ours > 0 and values[fan] > highest:
            highest = values[fan]
        if best > 0 and values[fan] > best_highest:
            best_highest = values[fan]
        if (ours > 0) != (best > 0) and priority[fan] < first_apart:
            first_apart, first_is_ours = priority[fan], ours > 0
    if count != best_count:
        return count > best_count
    if highest != best_highest:
        return highest > best_highest
    return first_is_ours


@njit(cache=True, _nrt=False)
def _settle_reading(work, limits, values, priority, is_limit, exclusion_start, exclusion_target, fan_cap, per_fan_step,
                    per_limit, result):
    """Apply the exclusions to the listed fans and price them; keep them in BEST_ROW when they beat the best so far."""
    _sort_listed(work, priority)
    length = work[LIST_ROW, 0]
    stamp = work[EXCLUDED_ROW, N_FANS] + 1
    work[EXCLUDED_ROW, N_FANS] = stamp
    for index in range(1, length + 1):
        fan = work[LIST_ROW, index]
        if (limits > 0) != is_limit[fan] or work[EXCLUDED_ROW, fan] == stamp:
            work[EXCLUDED_ROW, fan] = stamp  # a 役满 hand keeps only its 役满; an excluded fan excludes nothing
            continue
        for target in range(exclusion_start[fan], exclusion_start[fan + 1]):
            work[EXCLUDED_ROW, exclusion_target[target]] = stamp
    total, others, kept = 0, 0, 0
    for index in range(1, length + 1):  # keep the fans left, in order
        fan = work[LIST_ROW, index]
        if work[EXCLUDED_ROW, fan] == stamp:
            work[FANS_ROW, fan] = 0
            continue
        kept += 1
        work[LIST_ROW, kept] = fan
        if not is_limit[fan]:
            total += work[FANS_ROW, fan] * values[fan]
            others += fan != Fan.FLOWER_TILES
    work[LIST_ROW, 0] = kept
    if limits == 0 and others == 0:
        _put(work, Fan.BASIC_WIN, 1, values)  # 推倒胡: no fan but 花牌
        total += values[Fan.BASIC_WIN]
    capped = min(total, fan_cap) if fan_cap > 0 else total
    points = limits * per_limit if limits > 0 else capped * (capped + 1) * per_fan_step
    if _beats_best(work, points, total, values, priority, result):
        result[POINTS], result[TOTAL], result[LIMITS], result[UNCAPPED] = points, 0 if limits else capped, limits, total
        for index in range(1, work[BEST_LIST_ROW, 0] + 1):
            work[BEST_ROW, work[BEST_LIST_ROW, index]] = 0
        for index in range(work[LIST_ROW, 0] + 1):
            work[BEST_LIST_ROW, index] = work[LIST_ROW, index]
        for index in range(1, work[LIST_ROW, 0] + 1):
            fan = work[LIST_ROW, index]
            work[BEST_ROW, fan] = work[FANS_ROW, fan]


@njit(cache=True, inline="always", _nrt=False)
def _next_held(work, kind):
    """The lowest kind from `kind` on with tiles left in the walk (there is one while sets are missing)."""
    while work[WALK_ROW, kind] == 0:
        kind += 1
    return kind


@njit(cache=True, inline="always", _nrt=False)
def _back_up(work, level):
    """Take back the set of `level` and move it to its next option; returns `level` (-1: the walk is over)."""
    if level >= 0:
        slot = 3 * level
        first = work[SETS_ROW, slot + 1]
        if work[SETS_ROW, slot] == SET_PUNG:
            work[WALK_ROW, first] += 3
        else:
            work[WALK_ROW, first] += 1
            work[WALK_ROW, first + 1] += 1
            work[WALK_ROW, first + 2] += 1
        work[STACK_ROW, 8 + level] += 1
    return level


@njit(cache=True, _nrt=False)
def _score_challenge(concealed, melds, n_melds, win, flags, bonus, values, priority, is_limit, exclusion_start,
                     exclusion_target, fan_cap, per_fan_step, per_limit, work, result):
    """Score one hand into BEST_ROW and `result` (POINTS is NOT_A_WIN when the tiles are not complete)."""
    result[POINTS], result[TOTAL], result[LIMITS], result[UNCAPPED] = NOT_A_WIN, 0, 0, 0
    n_standing = 1
    for kind in range(N_KINDS):
        work[STANDING_ROW, kind] = concealed[kind]
        work[ALL_TILES_ROW, kind] = concealed[kind]
        n_standing += concealed[kind]
    work[STANDING_ROW, win] += 1
    work[ALL_TILES_ROW, win] += 1
    if n_standing + 3 * n_melds != 14:
        return
    has_kong = False
    for index in range(n_melds):
        code, first = melds[index, 0], melds[index, 1]
        if code == MELD_CHOW:
            for kind in range(first, first + 3):
                work[ALL_TILES_ROW, kind] += 1
        else:
            work[ALL_TILES_ROW, first] += 4 if code == MELD_KONG or code == MELD_CONCEALED_KONG else 3
            has_kong = has_kong or code == MELD_KONG or code == MELD_CONCEALED_KONG
    # the context the tiles allow
    if not has_kong:
        flags &= ~KONG_REPLACEMENT_FLAG
    if work[ALL_TILES_ROW, win] > 1:
        flags &= ~ROBBING_KONG_FLAG
    # the kinds held (one bit each), the bonus tiles' fans and the tiles of each suit, in one pass
    held, odd_kinds, flowers, man, pin, sou, odd_honours, n_pairable = 0, 0, 0, 0, 0, 0, 0, 0
    for kind in range(N_KINDS):
        count = work[ALL_TILES_ROW, kind]
        if count == 0:
            continue
        held |= 1 << kind
        flowers += count * bonus[kind]
        standing = work[STANDING_ROW, kind]
        odd_kinds |= (standing & 1) << kind
        if standing >= 2:  # a kind that may be the pair
            n_pairable += 1
            work[STACK_ROW, 16 + n_pairable] = kind
        if kind < SUIT_SIZE:
            man += standing
        elif kind < 2 * SUIT_SIZE:
            pin += standing
        elif kind < HONOR_START:
            sou += standing
        else:
            odd_honours += standing != 0 and standing != 3
    facts = _hand_facts(work, held, melds, n_melds, flags)
    if facts & NINE_GATES:  # the pure form: 1112345678999 before the win, whatever the winning tile
        start = (win // SUIT_SIZE) * SUIT_SIZE
        for rank in range(SUIT_SIZE):
            if concealed[start + rank] != (3 if rank == 0 or rank == SUIT_SIZE - 1 else 1):
                facts &= ~NINE_GATES
    for index in range(1, work[BEST_LIST_ROW, 0] + 1):  # the previous hand's
        work[BEST_ROW, work[BEST_LIST_ROW, index]] = 0
    work[BEST_LIST_ROW, 0] = 0
    for index in range(1, work[LIST_ROW, 0] + 1):
        work[FANS_ROW, work[LIST_ROW, index]] = 0
    work[LIST_ROW, 0] = 0
    _hand_fans(work, facts, flags, flowers, values, priority)

    n_sets = 4 - n_melds
    # the melds take the last set slots: they are the same in every reading
    for index in range(n_melds):
        slot = 3 * (n_sets + index)
        code = melds[index, 0]
        work[SETS_ROW, slot] = SET_CHOW if code == MELD_CHOW else (SET_PUNG if code != MELD_KONG and code != MELD_CONCEALED_KONG else SET_KONG)
        work[SETS_ROW, slot + 1] = melds[index, 1]
        work[SETS_ROW, slot + 2] = code == MELD_CONCEALED_KONG
    # A pair leaves every suit a multiple of three tiles and every honour at 0 or 3: most kinds cannot be it.
    for kind in range(N_KINDS):  # the walk below takes back every set it makes, so one copy serves every pair
        work[WALK_ROW, kind] = work[STANDING_ROW, kind]
    for candidate in range(n_pairable):
        pair = work[STACK_ROW, 17 + candidate]
        suit = pair // SUIT_SIZE
        if (man - 2 * (suit == 0)) % 3 or (pin - 2 * (suit == 1)) % 3 or (sou - 2 * (suit == 2)) % 3:
            continue
        if odd_honours - (suit == 3 and work[STANDING_ROW, pair] == 2) > 0:
            continue
        work[WALK_ROW, pair] -= 2
        # Depth-first over the sets: at each level the lowest kind left is a pung (option 0) or starts a chow
        # (option 1); a level's set is taken back before its next option is tried.
        level = 0
        if n_sets > 0:
            work[STACK_ROW, 0], work[STACK_ROW, 8] = _next_held(work, 0), 0
        while level >= 0:
            if level == n_sets:
                placement = _best_placement(work, pair, n_sets, win, facts)
                limits = _reading_fans(work, STANDARD, pair, n_sets, win, placement, facts, values, is_limit)
                _settle_reading(work, limits, values, priority, is_limit, exclusion_start, exclusion_target, fan_cap,
                                per_fan_step, per_limit, result)
                level = _back_up(work, level - 1)
                continue
            kind, option = work[STACK_ROW, level], work[STACK_ROW, 8 + level]
            slot = 3 * level
            if option == 0 and work[WALK_ROW, kind] >= 3:
                work[WALK_ROW, kind] -= 3
                work[SETS_ROW, slot], work[SETS_ROW, slot + 1], work[SETS_ROW, slot + 2] = SET_PUNG, kind, 1
            elif (option <= 1 and kind < HONOR_START and kind % SUIT_SIZE <= SUIT_SIZE - 3
                  and work[WALK_ROW, kind + 1] > 0 and work[WALK_ROW, kind + 2] > 0):
                work[STACK_ROW, 8 + level] = 1
                work[WALK_ROW, kind] -= 1
                work[WALK_ROW, kind + 1] -= 1
                work[WALK_ROW, kind + 2] -= 1
                work[SETS_ROW, slot], work[SETS_ROW, slot + 1], work[SETS_ROW, slot + 2] = SET_CHOW, kind, 1
            else:  # no set left to try here
                level = _back_up(work, level - 1)
                continue
            level += 1
            if level < n_sets:
                work[STACK_ROW, level], work[STACK_ROW, 8 + level] = _next_held(work, kind), 0
        work[WALK_ROW, pair] += 2
    if n_melds == 0:
        # 14 concealed tiles: seven pairs when every kind is held an even number of times (a four is two
        # pairs), thirteen orphans when the kinds held are exactly the thirteen
        if odd_kinds == 0:
            limits = _reading_fans(work, SEVEN_PAIRS, -1, 0, win, -1, facts, values, is_limit)
            _settle_reading(work, limits, values, priority, is_limit, exclusion_start, exclusion_target, fan_cap,
                            per_fan_step, per_limit, result)
        if held == ORPHAN_KINDS:
            limits = _reading_fans(work, THIRTEEN_ORPHANS, -1, 0, win, -1, facts, values, is_limit)
            _settle_reading(work, limits, values, priority, is_limit, exclusion_start, exclusion_target, fan_cap,
                            per_fan_step, per_limit, result)


@njit(cache=True, _nrt=False)  # no reference counting: each hand's row views would cost two atomic operations
def _score_many(concealed, melds, n_melds, win, flags, bonus, values, priority, is_limit, exclusion_start,
                exclusion_target, fan_cap, per_fan_step, per_limit, work, counts, results):
    for hand in range(concealed.shape[0]):
        # int64 scalars, as the engine passes them: one compiled copy of the evaluator serves both
        _score_challenge(concealed[hand], melds[hand], np.int64(n_melds[hand]), np.int64(win[hand]),
                         np.int64(flags[hand]), bonus[hand], values,
                         priority, is_limit, exclusion_start, exclusion_target, fan_cap, per_fan_step, per_limit, work,
                         results[hand])
        if results[hand, POINTS] != NOT_A_WIN:
            for index in range(1, work[BEST_LIST_ROW, 0] + 1):
                fan = work[BEST_LIST_ROW, index]
                counts[hand, fan] = work[BEST_ROW, fan]


def score_many(concealed, melds, n_melds, win, flags, bonus, ruleset):
    """Score N winning hands under an `erren-challenge`-style ruleset; returns (fan counts uint8 (N, N_FANS),
    results int64 (N, RESULT_FIELDS): points, capped fan total, 役满, total before the cap).

    concealed: (N, 34) counts without the winning tile; melds: (N, 4, 2) rows of (kind, first tile);
    n_melds, win, flags: (N,); bonus: (N, 34) face-up bonus tiles by kind. Points of NOT_A_WIN (-1) mark a
    hand whose tiles are not complete. The caller checks that the hands are well formed (``sim.families.scoring``
    does); this function checks shapes and ranges only."""
    # Writable copies: numba compiles a kernel again for a read-only array (a broadcast, a pandas column)
    concealed = np.array(concealed, dtype=np.int8)
    if concealed.ndim != 2 or concealed.shape[1] != N_KINDS:
        raise ValueError(f"concealed must be (N, {N_KINDS}) tile counts")
    count = concealed.shape[0]
    melds = np.array(melds, dtype=np.int8).reshape(count, 4, 2)
    n_melds, win = (np.array(np.broadcast_to(array, (count,)), dtype=np.int8) for array in (n_melds, win))
    flags = np.array(np.broadcast_to(flags, (count,)), dtype=np.int32)
    bonus = np.array(np.broadcast_to(bonus, (count, N_KINDS)), dtype=np.int8)
    if count and (concealed.min() < 0 or concealed.max() > 4 or n_melds.min() < 0 or n_melds.max() > 4
                  or win.min() < 0 or win.max() >= N_KINDS or bonus.min() < 0 or bonus.max() > 4):
        raise ValueError("tile counts run 0-4, melds 0-4, bonus tiles 0-4 a kind, and the winning tile is a kind 0-33")
    points = ruleset.points
    counts = np.zeros((count, N_FANS), np.uint8)
    results = np.zeros((count, RESULT_FIELDS), np.int64)
    _score_many(concealed, melds, n_melds, win, flags, bonus, ruleset.values, ruleset.priority, ruleset.is_limit,
                ruleset.exclusion_start, ruleset.exclusion_target, points.fan_cap, points.per_fan_step,
                points.per_limit, new_work(), counts, results)
    return counts, results

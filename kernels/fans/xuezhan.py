"""The fan evaluator of the 血战 family (docs/rules/xuezhan-table.md): a winning hand of 筒 and 条 in, fan counts and
the raw value per payer out.

One kernel serves both rulesets; the ruleset arrays (``sim.core.ruleset``) say which fans score and what they
exclude, and `combine_multiply` says how values combine: seed 002 multiplies them (value**count per fan),
seed 003 adds them as fans and pays 2**(sum of value*count). No cap is applied here: the engine caps per payer.

A hand is read every way it can be: each standard decomposition (a pair, then the concealed tiles as pungs and
chows beside the melds) and, without melds, seven pairs (a four-of-a-kind is two pairs). Every reading gets
the fans that hold for it, the exclusions are applied in order of value as kernels/fans/mcr.py applies them (a
fan that is itself excluded excludes nothing), and the reading with the highest raw value is kept; on a tie
the first in this order: standard readings by pair kind, then by the set of concealed kinds taken as pungs
(a bitmask, counting up), then seven pairs.

Fan definitions (docs/rules/liangmen-xuezhan.md, docs/rules/sanren-liangfang.md; seeds 002, 003):
- hand-wide, the same for every reading: 清一色 one suit; 根 one per kind of which all four copies are in
  the hand (concealed and melds together); 断幺九/中张 no 1 or 9 anywhere; 门清 no pong and no exposed kong
  (concealed kongs allowed); 姊妹对 three consecutive kinds of one suit each held at least twice among the
  concealed tiles, counted once; 金钩钓 four melds and the win on the single tile left (with 将金钩钓 all
  2/5/8, 清金钩钓 one suit); 夹心五 the winning tile is a 5 and some standard reading holds the chow 4-5-6 of its suit (003: "可以摆成",
  it can be arranged so; 4556 and 45556 winning on 5 count) -- a property of the wait, so it is given to
  every reading of the hand; the win-context fans from `flags`.
- per reading: 基本胡 a standard reading; 碰碰胡/对对胡 no chow (清碰 also one suit, 将对 also all 2/5/8);
  一条龙 chows 123 456 789 of one suit; 全幺九 every set (melds included) and the pair hold a 1 or a 9
  (清幺九 also one suit); 七对 the seven-pairs reading, 豪华七对/龙七对 with a four-of-a-kind, 清七对 and
  清龙七对 in one suit, 将七对 the 龙七对 of 2/5/8 only; 卡二条 a standard reading holding the chow 1-2-3条,
  when the winning tile is 2条 and the hand before the win waited on 2条 alone (002: "胡2条且该2条需要和1、3条
  组成123": `12334s` waiting on 2s and 5s is no 卡二条). The wait is taken over the concealed tiles beside
  the fixed melds; a kind the hand already holds four of (melds included) cannot come, so it is no wait.
  The 2条 that is the middle of 1-2-3条 is in no pung, so a reading without that chow (111 222 333条) has
  no 卡二条 even when another reading of the same tiles does.

根 and the seven pairs with a four-of-a-kind (豪华七对, 龙七对, 清龙七对, 将七对): each of those patterns is
built on one four-of-a-kind (龙七对 3 = 七对 2 + 根 1, 清龙七对 5 = 清七对 4 + 根 1), so a ruleset that has it
exclude 根 means the 根 of that one four: every further four is still a 根 (docs/rules/liangmen-xuezhan.md:
"the one four that makes a 豪华七对 is not also a 根, every further four is"; 003's "不计根" read the same way,
as 003's table names the number where more go, 十八罗汉 "不计4根"; excluding every 根 would make a second
four worth nothing in seven pairs and ×2 or +1 anywhere else). So an exclusion of 根 takes away one 根; every
other fan of the family counts at most once, and an exclusion takes it away whole.

The win context is made consistent with the tiles, as the MCR evaluator does: 抢杠 needs the robbed kind
absent from the winner's hand and melds (the robbed pong and its added tile are all four copies), 杠上花 a kong
among the melds.

Kernels use loops and small local arrays only (no recursion: numba issue 6061).
"""

import numpy as np
from numba import njit

from kernels.fan_ids import (
    DISCARD_AFTER_KONG_FLAG,
    EARTHLY_HAND_FLAG,
    HEAVENLY_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    N_FANS,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
    Fan,
)
from kernels.tiles import (
    COPIES_PER_KIND,
    HONOR_START,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PONG,
    N_KINDS,
    PIN_START,
    SOU_START,
    SUIT_SIZE,
)

NOT_A_WIN = -1
FIRST_KIND, END_KIND = PIN_START, HONOR_START  # the 筒 and 条 kinds, 9..26
BAMBOO_ONE, BAMBOO_TWO = SOU_START, SOU_START + 1  # 1条, 2条 (卡二条)
# At most 7 kinds can hold the pair and at most 4 concealed kinds can be pungs: 7 * 2**4 readings, plus seven pairs.
MAX_READINGS = 7 * 16 + 1
MAX_LISTED = 40  # fans one reading can list (the family has 32)

# What a reading is, as bits: hand-level fans are decided once, these per reading.
SEVEN_PAIRS_READING = 1
NO_CHOW = 2  # standard reading whose sets are all pungs or kongs
STRAIGHT = 4  # 123 456 789 of one suit
TERMINAL_SETS = 8  # every set and the pair holds a 1 or a 9
CHOW_456_OF_WIN = 16  # a chow 4-5-6 in the suit of the winning tile
CHOW_123_BAMBOO = 32  # the chow 1-2-3条


@njit(cache=True, inline="always")
def _rank(kind):
    """0..8 for the ranks 1..9 of a 筒 or 条 kind."""
    return (kind - FIRST_KIND) % SUIT_SIZE


@njit(cache=True, inline="always")
def _is_terminal(kind):
    rank = _rank(kind)
    return rank == 0 or rank == SUIT_SIZE - 1


@njit(cache=True, inline="always")
def _list(fans, counts, n_listed, fan, count, values):
    """Append (fan, count) when the ruleset scores the fan; return the new length."""
    if count > 0 and values[fan] > 0:
        fans[n_listed] = fan
        counts[n_listed] = count
        n_listed += 1
    return n_listed


@njit(cache=True)
def _apply_exclusions(fans, counts, n_listed, values, priority, exclusion_start, exclusion_target, excluded, stamp):
    """Sort the listed fans by priority and zero the counts of the fans a counted fan excludes; an exclusion
    of 根 takes one 根 (the module docstring says why)."""
    for index in range(1, n_listed):  # insertion sort by priority (value order, then file order)
        fan = fans[index]
        count = counts[index]
        position = index
        while position > 0 and priority[fans[position - 1]] > priority[fan]:
            fans[position] = fans[position - 1]
            counts[position] = counts[position - 1]
            position -= 1
        fans[position] = fan
        counts[position] = count
    absorbed_roots = 0
    for index in range(n_listed):
        fan = fans[index]
        if fan == Fan.ROOT:  # its excluders come first: they are worth more (sim/core/ruleset.py checks)
            counts[index] = max(0, counts[index] - absorbed_roots)
        if excluded[fan] == stamp or counts[index] == 0:
            counts[index] = 0  # an excluded fan excludes nothing
            continue
        for target in range(exclusion_start[fan], exclusion_start[fan + 1]):
            if exclusion_target[target] == Fan.ROOT:
                absorbed_roots += 1
            else:
                excluded[exclusion_target[target]] = stamp


@njit(cache=True, inline="always")
def _combine(fans, counts, n_listed, values, combine_multiply):
    if combine_multiply:
        product = 1
        for index in range(n_listed):
            for _ in range(counts[index]):
                product *= values[fans[index]]
        return product
    exponent = 0
    for index in range(n_listed):
        exponent += values[fans[index]] * counts[index]
    return np.int64(1) << exponent


@njit(cache=True)
def _sets_and_a_pair(standing, work):
    """Whether the 筒 and 条 counts `standing` are sets and one pair."""
    for pair in range(FIRST_KIND, END_KIND):
        if standing[pair] < 2:
            continue
        for kind in range(FIRST_KIND, END_KIND):
            work[kind] = standing[kind]
        work[pair] -= 2
        complete = True
        for kind in range(FIRST_KIND, END_KIND):
            # the lowest kind left starts (its count mod 3) chows and the rest are pungs: three chows of one
            # start use the tiles of three pungs, so where this choice fails every other fails too
            chows = work[kind] % 3
            if chows == 0:
                continue
            if _rank(kind) > 6 or work[kind + 1] < chows or work[kind + 2] < chows:
                complete = False
                break
            work[kind + 1] -= chows
            work[kind + 2] -= chows
        if complete:
            return True
    return False


@njit(cache=True)
def _waited_on_alone(standing, held, tile, n_melds):
    """Whether the concealed tiles `standing` (the winning `tile` among them) waited on `tile` and on no
    other kind before the win. `held` counts the whole hand, melds included: a kind it holds four of
    cannot come, so it is no wait."""
    standing[tile] -= 1
    work = np.empty(N_KINDS, np.int64)
    alone = True
    for kind in range(FIRST_KIND, END_KIND):
        if kind == tile or held[kind] >= COPIES_PER_KIND:
            continue
        standing[kind] += 1
        complete = _sets_and_a_pair(standing, work)
        if not complete and n_melds == 0:
            complete = True  # seven pairs, a four-of-a-kind as two pairs
            for other in range(FIRST_KIND, END_KIND):
                if standing[other] & 1:
                    complete = False
        standing[kind] -= 1
        if complete:
            alone = False
            break
    standing[tile] += 1
    return alone


@njit(cache=True)
def _score_xuezhan(
    concealed, melds, n_melds, winning_tile, flags, values, priority, exclusion_start, exclusion_target,
    combine_multiply, fan_counts,
):
    """Raw value (int64) of the best reading and its fan counts in `fan_counts`; NOT_A_WIN (-1) when
    concealed + winning tile, beside the melds, is not four sets and a pair nor seven pairs.

    concealed: int8 (34,) without the winning tile; melds: (4, 2) rows (meld code, kind), codes MELD_PONG,
    MELD_KONG, MELD_CONCEALED_KONG; flags: kernels.fan_ids win-context bits.
    """
    for fan in range(fan_counts.shape[0]):
        fan_counts[fan] = 0
    if winning_tile < FIRST_KIND or winning_tile >= END_KIND or n_melds < 0 or n_melds > 4:
        return NOT_A_WIN
    standing = np.zeros(N_KINDS, np.int64)  # concealed tiles with the winning tile
    total = np.zeros(N_KINDS, np.int64)  # every tile of the hand, melds included
    n_standing = 0
    for kind in range(N_KINDS):
        count = concealed[kind]
        if count != 0 and (kind < FIRST_KIND or kind >= END_KIND or count < 0):
            return NOT_A_WIN
        standing[kind] = count
        total[kind] = count
        n_standing += count
    standing[winning_tile] += 1
    total[winning_tile] += 1
    n_standing += 1
    if n_standing != 14 - 3 * n_melds:
        return NOT_A_WIN
    concealed_hand = True
    meld_terminal = True  # every meld holds a 1 or a 9
    n_kongs = 0
    for meld in range(n_melds):
        code = melds[meld, 0]
        kind = melds[meld, 1]
        if kind < FIRST_KIND or kind >= END_KIND:
            return NOT_A_WIN
        if code == MELD_PONG:
            total[kind] += 3
            concealed_hand = False
        elif code == MELD_KONG:
            total[kind] += 4
            concealed_hand = False
            n_kongs += 1
        elif code == MELD_CONCEALED_KONG:
            total[kind] += 4
            n_kongs += 1
        else:
            return NOT_A_WIN  # no chows in this family
        if not _is_terminal(kind):
            meld_terminal = False

    suits = 0
    has_terminal = False
    only_258 = True
    roots = 0
    for kind in range(FIRST_KIND, END_KIND):
        count = total[kind]
        if count == 0:
            continue
        if count > COPIES_PER_KIND:
            return NOT_A_WIN
        rank = _rank(kind)
        suits |= 1 << ((kind - FIRST_KIND) // SUIT_SIZE)
        if rank == 0 or rank == 8:
            has_terminal = True
        if rank != 1 and rank != 4 and rank != 7:
            only_258 = False
        if count == COPIES_PER_KIND:
            roots += 1
    flush = suits != 3
    sister_pairs = 0
    for suit_start in (PIN_START, SOU_START):
        for kind in range(suit_start, suit_start + SUIT_SIZE - 2):
            if standing[kind] >= 2 and standing[kind + 1] >= 2 and standing[kind + 2] >= 2:
                sister_pairs = 1
    win_rank = _rank(winning_tile)
    win_suit_start = winning_tile - win_rank

    # ---- every reading, as bits
    readings = np.empty(MAX_READINGS, np.int64)
    n_readings = 0
    remaining = np.empty(N_KINDS, np.int64)
    pung_kinds = np.empty(4, np.int64)
    for pair in range(FIRST_KIND, END_KIND):
        if standing[pair] < 2:
            continue
        standing[pair] -= 2
        n_pung_kinds = 0
        for kind in range(FIRST_KIND, END_KIND):
            if standing[kind] >= 3 and n_pung_kinds < 4:
                pung_kinds[n_pung_kinds] = kind
                n_pung_kinds += 1
        for mask in range(1 << n_pung_kinds):
            for kind in range(FIRST_KIND, END_KIND):
                remaining[kind] = standing[kind]
            terminal_sets = meld_terminal and _is_terminal(pair)
            for bit in range(n_pung_kinds):
                if (mask >> bit) & 1:
                    remaining[pung_kinds[bit]] -= 3
                    if not _is_terminal(pung_kinds[bit]):
                        terminal_sets = False
            chow_starts = 0  # bit (kind - FIRST_KIND) when a chow starts at kind
            complete = True
            for kind in range(FIRST_KIND, END_KIND):
                count = remaining[kind]
                if count == 0:
                    continue
                rank = _rank(kind)
                if rank > 6 or remaining[kind + 1] < count or remaining[kind + 2] < count:
                    complete = False
                    break
                remaining[kind + 1] -= count
                remaining[kind + 2] -= count
                chow_starts |= 1 << (kind - FIRST_KIND)
                if rank != 0 and rank != 6:
                    terminal_sets = False
            if not complete:
                continue
            bits = 0
            if chow_starts == 0:
                bits |= NO_CHOW
            for suit_offset in (0, SUIT_SIZE):
                straight = (1 << suit_offset) | (1 << (suit_offset + 3)) | (1 << (suit_offset + 6))
                if chow_starts & straight == straight:
                    bits |= STRAIGHT
            if terminal_sets:
                bits |= TERMINAL_SETS
            if win_rank == 4 and (chow_starts >> (win_suit_start + 3 - FIRST_KIND)) & 1:
                bits |= CHOW_456_OF_WIN
            if (chow_starts >> (BAMBOO_ONE - FIRST_KIND)) & 1:
                bits |= CHOW_123_BAMBOO
            readings[n_readings] = bits
            n_readings += 1
        standing[pair] += 2
    n_standard = n_readings
    luxury = 0
    if n_melds == 0:
        seven_pairs = True
        for kind in range(FIRST_KIND, END_KIND):
            if standing[kind] & 1:
                seven_pairs = False
            elif standing[kind] == 4:
                luxury = 1
        if seven_pairs:
            readings[n_readings] = SEVEN_PAIRS_READING
            n_readings += 1
    if n_readings == 0:
        return NOT_A_WIN

    middle_five = 0
    chow_123_read = False
    for reading in range(n_standard):
        if readings[reading] & CHOW_456_OF_WIN:
            middle_five = 1
        if readings[reading] & CHOW_123_BAMBOO:
            chow_123_read = True
    # the wait is looked at only where 卡二条 could score (002, a win on 2条 read in 1-2-3条)
    closed_two = 0
    if winning_tile == BAMBOO_TWO and chow_123_read and values[Fan.CLOSED_TWO_BAMBOO] > 0:
        closed_two = 1 if _waited_on_alone(standing, total, winning_tile, n_melds) else 0
    robbed = (flags & ROBBING_KONG_FLAG) != 0 and total[winning_tile] == 1
    replacement = (flags & KONG_REPLACEMENT_FLAG) != 0 and n_kongs > 0

    # ---- the fans every reading shares
    common_fans = np.empty(MAX_LISTED, np.int64)
    common_counts = np.empty(MAX_LISTED, np.int64)
    n_common = 0
    self_drawn = (flags & SELF_DRAWN_FLAG) != 0
    n_common = _list(common_fans, common_counts, n_common, Fan.FULL_FLUSH, 1 if flush else 0, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.ROOT, roots, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.ALL_SIMPLES, 0 if has_terminal else 1, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.CONCEALED_HAND, 1 if concealed_hand else 0, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.SISTER_PAIRS, sister_pairs, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.MIDDLE_FIVE, middle_five, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.SELF_DRAWN, 1 if self_drawn else 0, values)
    last = (flags & LAST_WALL_TILE_FLAG) != 0
    n_common = _list(common_fans, common_counts, n_common, Fan.LAST_TILE_DRAW, 1 if last and self_drawn else 0, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.LAST_TILE_CLAIM, 1 if last and not self_drawn else 0, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.OUT_WITH_REPLACEMENT_TILE, 1 if replacement else 0, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.ROBBING_THE_KONG, 1 if robbed else 0, values)
    n_common = _list(
        common_fans, common_counts, n_common, Fan.DISCARD_AFTER_KONG, 1 if flags & DISCARD_AFTER_KONG_FLAG else 0, values
    )
    n_common = _list(common_fans, common_counts, n_common, Fan.READY_HAND, 1 if flags & READY_FLAG else 0, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.HEAVENLY_HAND, 1 if flags & HEAVENLY_HAND_FLAG else 0, values)
    n_common = _list(common_fans, common_counts, n_common, Fan.EARTHLY_HAND, 1 if flags & EARTHLY_HAND_FLAG else 0, values)

    # ---- score each reading, keep the best
    fans = np.empty(MAX_LISTED, np.int64)
    counts = np.empty(MAX_LISTED, np.int64)
    best_fans = np.empty(MAX_LISTED, np.int64)
    best_counts = np.empty(MAX_LISTED, np.int64)
    n_best = 0
    best_value = np.int64(-1)
    excluded = np.zeros(N_FANS, np.int64)
    golden_hook = 1 if n_melds == 4 else 0
    for reading in range(n_readings):
        bits = readings[reading]
        n_listed = n_common
        for index in range(n_common):
            fans[index] = common_fans[index]
            counts[index] = common_counts[index]
        if bits & SEVEN_PAIRS_READING:
            n_listed = _list(fans, counts, n_listed, Fan.SEVEN_PAIRS, 1, values)
            n_listed = _list(fans, counts, n_listed, Fan.LUXURY_SEVEN_PAIRS, luxury, values)
            n_listed = _list(fans, counts, n_listed, Fan.FULL_FLUSH_SEVEN_PAIRS, 1 if flush else 0, values)
            n_listed = _list(fans, counts, n_listed, Fan.FULL_FLUSH_LUXURY_SEVEN_PAIRS, luxury if flush else 0, values)
            n_listed = _list(fans, counts, n_listed, Fan.SEVEN_PAIRS_OF_258, luxury if only_258 else 0, values)
        else:
            no_chow = 1 if bits & NO_CHOW else 0
            terminal_sets = 1 if bits & TERMINAL_SETS else 0
            n_listed = _list(fans, counts, n_listed, Fan.BASIC_WIN, 1, values)
            n_listed = _list(fans, counts, n_listed, Fan.ALL_PUNGS, no_chow, values)
            n_listed = _list(fans, counts, n_listed, Fan.FULL_FLUSH_PUNGS, no_chow if flush else 0, values)
            n_listed = _list(fans, counts, n_listed, Fan.PUNGS_OF_258, no_chow if only_258 else 0, values)
            n_listed = _list(fans, counts, n_listed, Fan.PURE_STRAIGHT, 1 if bits & STRAIGHT else 0, values)
            n_listed = _list(fans, counts, n_listed, Fan.ALL_TERMINAL_SETS, terminal_sets, values)
            n_listed = _list(fans, counts, n_listed, Fan.FULL_FLUSH_TERMINAL_SETS, terminal_sets if flush else 0, values)
            n_listed = _list(fans, counts, n_listed, Fan.CLOSED_TWO_BAMBOO, closed_two if bits & CHOW_123_BAMBOO else 0, values)
            n_listed = _list(fans, counts, n_listed, Fan.GOLDEN_HOOK, golden_hook, values)
            n_listed = _list(fans, counts, n_listed, Fan.GOLDEN_HOOK_OF_258, golden_hook if only_258 else 0, values)
            n_listed = _list(fans, counts, n_listed, Fan.FULL_FLUSH_GOLDEN_HOOK, golden_hook if flush else 0, values)
        _apply_exclusions(fans, counts, n_listed, values, priority, exclusion_start, exclusion_target, excluded, reading + 1)
        value = _combine(fans, counts, n_listed, values, combine_multiply)
        if value > best_value:
            best_value = value
            n_best = n_listed
            for index in range(n_listed):
                best_fans[index] = fans[index]
                best_counts[index] = counts[index]
    for index in range(n_best):
        fan_counts[best_fans[index]] = best_counts[index]
    return best_value


@njit(cache=True)
def _best_discard_value(
    concealed13, melds, n_melds, flags, values, priority, exclusion_start, exclusion_target, combine_multiply, fan_counts,
):
    """The highest raw value of a ready hand over the tiles it could still receive (fewer than four copies
    in its hand and melds), each scored as a win on a discard; 0 (and no fans) when the hand is not ready.
    Used for 查叫 and 关死."""
    discard_flags = flags & ~SELF_DRAWN_FLAG
    best_value = np.int64(0)
    best_tile = -1
    for tile in range(FIRST_KIND, END_KIND):
        held = np.int64(concealed13[tile])
        for meld in range(n_melds):
            if melds[meld, 1] == tile:
                held += 3 if melds[meld, 0] == MELD_PONG else 4
        if held >= COPIES_PER_KIND:
            continue
        value = _score_xuezhan(
            concealed13, melds, n_melds, tile, discard_flags, values, priority, exclusion_start, exclusion_target,
            combine_multiply, fan_counts,
        )
        if value > best_value:
            best_value = value
            best_tile = tile
    if best_tile < 0:
        for fan in range(fan_counts.shape[0]):
            fan_counts[fan] = 0
        return np.int64(0)
    return _score_xuezhan(
        concealed13, melds, n_melds, best_tile, discard_flags, values, priority, exclusion_start, exclusion_target,
        combine_multiply, fan_counts,
    )


@njit(cache=True)
def _score_many(concealed, melds, n_melds, win, flags, values, priority, exclusion_start, exclusion_target, combine_multiply, counts, totals):
    for index in range(concealed.shape[0]):
        totals[index] = _score_xuezhan(  # int64 scalars, as the engine passes them: one compiled copy serves both
            concealed[index], melds[index], np.int64(n_melds[index]), np.int64(win[index]), np.int64(flags[index]),
            values, priority, exclusion_start, exclusion_target, combine_multiply, counts[index],
        )


def score_many(concealed, melds, n_melds, win, flags, values, priority, exclusion_start, exclusion_target, combine_multiply):
    """Score N hands of the 血战 family; returns (fan counts int64 (N, N_FANS), raw values int64 (N,), -1 where
    a hand is not complete). Inputs as `_score_xuezhan` takes them, with a leading axis of N hands."""
    # Writable copies: numba compiles a kernel again for a read-only array (a broadcast, a pandas column)
    concealed = np.array(concealed, dtype=np.int8)
    melds = np.array(melds, dtype=np.int8)
    n_melds = np.array(n_melds, dtype=np.int8)
    win = np.array(win, dtype=np.int8)
    flags = np.array(flags, dtype=np.int32)
    count = concealed.shape[0]
    if concealed.shape != (count, N_KINDS) or melds.shape != (count, 4, 2) or not (n_melds.shape == win.shape == flags.shape == (count,)):
        raise ValueError("score_many takes concealed (N, 34), melds (N, 4, 2), and n_melds, win, flags of shape (N,)")
    counts = np.zeros((count, N_FANS), np.int64)
    totals = np.zeros(count, np.int64)
    _score_many(concealed, melds, n_melds, win, flags, values, priority, exclusion_start, exclusion_target, int(combine_multiply), counts, totals)
    return counts, totals


def best_discard_value(concealed13, melds, n_melds, flags, values, priority, exclusion_start, exclusion_target, combine_multiply):
    """(highest raw value over the tiles the ready hand waits on, scored as a discard win; its fan counts).
    0 and no fans when the hand is not ready."""
    concealed13 = np.ascontiguousarray(concealed13, dtype=np.int8)
    melds = np.ascontiguousarray(melds, dtype=np.int8)
    if concealed13.shape != (N_KINDS,) or melds.shape != (4, 2):
        raise ValueError("best_discard_value takes concealed13 (34,) and melds (4, 2)")
    counts = np.zeros(N_FANS, np.int64)
    value = _best_discard_value(
        concealed13, melds, int(n_melds), int(flags), values, priority, exclusion_start, exclusion_target, int(combine_multiply), counts
    )
    return int(value), counts

"""What a discard choice weighs, for a hand of 3k+2 tiles over all four groups (万, 筒, 条, honours): the
distance (shanten + 1) after each discard, and the ukeire of each discard tied at the best distance.

The values are those of ``kernels.shanten._distances_after_discard`` and of ``_ukeire_one`` run on each hand
left (tests/kernels/test_discard_choice.py compares them with tests/kernels/naive.py), read instead off
the hand's optimal splits, at a fraction of the cost:

- a split gives each group a column of its table row (sets and pair, ``kernels/tables.py``), the columns
  adding up to the hand's sets and one pair; the hand's standard distance is the cheapest split's cost;
- taking one tile out of a group raises each of its row's costs by 0 or 1, and adding one lowers each by
  0 or 1 (one tile added or taken back). So the standard distance after discarding `kind` is the hand's
  own, if `kind` is *free* in its group's column on some cheapest split (its cost there does not rise),
  and one more otherwise; and a draw lowers the distance of the hand left exactly when it lowers its
  group's cost in the column of a cheapest split that the discard kept cheapest;
- the cheapest splits are found once, from the two pairs of groups (万 with 筒, 条 with honours) combined;
  each group's costs after each draw are read once per hand; a tied discard then costs a few bit
  operations and the draws of its own group that lower the hand's row in a free column (a draw that lowers
  the row left lowers the whole row too, as a tile added never raises a cost), where a whole ukeire would
  combine the groups again;
- costs are compared without a branch on their values, so that the reads of several rows overlap; seven
  pairs and the live tiles a discard's draws add up to are counted on masks of kinds.

Seven pairs (no melds) is counted from the pairs and singles, as the shanten kernels do. One case is left
to ``_ukeire_one``: a hand complete in the standard form, whose every discard is one tile from complete,
with splits that are not the complete hand's.

``distances_after_discard`` fills the work array that ``tied_ukeire`` then reads: call them in that order
on the same hand. Work arrays: ``scratch`` int16 (6, 10) as the shanten kernels', ``work`` int64
(WORK_SIZE,).
"""

import numpy as np
from numba import njit

from kernels.integers import bit_count, smaller
from kernels.shanten import _BIG, _combine, _seven_pairs_from_tally, _split_cost, _ukeire_one
from kernels.tables import MAX_SETS
from kernels.tiles import N_KINDS

N_COLUMNS = 2 * (MAX_SETS + 1)
GROUPS = 4
# The work array's slots. SPLITS: the hand's cheapest splits, each group's column in four bits (万 lowest);
# at most 35 ways to share four sets among four groups, times four places for the pair.
SPLITS = 0
MAX_SPLITS = 140
FREE = SPLITS + MAX_SPLITS  # + kind: the columns (bits) of the kind's group, on a cheapest split, it is free in
IMPROVING = FREE + N_KINDS  # + 10 * group + column: the kinds (bits) whose draw lowers that cost of the group
REACH = IMPROVING + GROUPS * N_COLUMNS  # + 10 * group + column: the other groups' improving draws (kinds, bits)
# over the cheapest splits where the group takes that column
ROWS = REACH + GROUPS * N_COLUMNS  # + group: the group's table row
TIGHT = ROWS + GROUPS  # + group: the columns (bits) the group takes on some cheapest split
STANDARD = TIGHT + GROUPS  # the hand's standard distance
N_SPLITS = STANDARD + 1  # how many cheapest splits
UKEIRE = N_SPLITS + 1  # + kind: tied_ukeire's answer
WORK_SIZE = UKEIRE + N_KINDS
PAIR_A, PAIR_B = 0, 1  # scratch rows: 万 with 筒, 条 with honours


def new_work() -> np.ndarray:
    return np.zeros(WORK_SIZE, np.int64)


@njit(cache=True, inline="always", _nrt=False)
def _group_start(group):
    return 9 * group


@njit(cache=True, inline="always", _nrt=False)
def _group_size(group):
    return 7 if group == 3 else 9


@njit(cache=True, inline="always", _nrt=False)
def _kept_columns(table, row, other_row, columns):
    """Of `columns` (bits), those where `other_row` costs the same as `row`. The test of a column's bit takes
    the same way for every row of a group (it is predicted); the comparison of costs is added in without a
    branch, so that the reads of several rows overlap instead of waiting on each test."""
    kept = 0
    for column in range(N_COLUMNS):
        if (columns >> column) & 1:
            kept |= np.int64(table[other_row, column] == table[row, column]) << column
    return kept


@njit(cache=True, inline="always", _nrt=False)
def _lowered_columns(table, row, other_row, columns):
    """Of `columns` (bits), those where `other_row` costs less than `row`, as ``_kept_columns``."""
    lowered = 0
    for column in range(N_COLUMNS):
        if (columns >> column) & 1:
            lowered |= np.int64(table[other_row, column] < table[row, column]) << column
    return lowered


@njit(cache=True, inline="always", _nrt=False)
def _read_rows(counts, work):
    """The four groups' rows into work[ROWS + group]; returns (pairs, singles) for seven pairs."""
    pairs, singles = 0, 0
    for group in range(GROUPS):
        start = _group_start(group)
        row, scale = 0, 1
        for rank in range(_group_size(group)):
            count = counts[start + rank]
            row += count * scale
            scale *= 5
            pairs += count >> 1
            singles += count & 1
        work[ROWS + group] = row
    return pairs, singles


@njit(cache=True, inline="always", _nrt=False)
def _find_splits(n_sets, suit, honors, scratch, work):
    """The hand's standard distance, its cheapest splits (work[SPLITS ...]) and each group's columns on them
    (work[TIGHT + group]). A cheapest split is cheapest within each pair of groups for the share of sets and
    pair that pair takes, so the pairs' combined rows list them all."""
    row_0, row_1, row_2, row_3 = work[ROWS], work[ROWS + 1], work[ROWS + 2], work[ROWS + 3]
    _combine(suit, row_0, suit, row_1, scratch, PAIR_A)
    _combine(suit, row_2, honors, row_3, scratch, PAIR_B)
    standard = _split_cost(scratch, PAIR_A, scratch, PAIR_B, n_sets)
    n_splits = 0
    tight_0, tight_1, tight_2, tight_3 = 0, 0, 0, 0
    for sets_a in range(n_sets + 1):
        for pair_a in range(2):
            column_a = 2 * sets_a + pair_a
            column_b = 2 * (n_sets - sets_a) + 1 - pair_a
            cost_a, cost_b = np.int64(scratch[PAIR_A, column_a]), np.int64(scratch[PAIR_B, column_b])
            if cost_a + cost_b != standard:
                continue
            for sets_0 in range(sets_a + 1):
                for pair_0 in range(pair_a + 1):
                    column_0 = 2 * sets_0 + pair_0
                    column_1 = column_a - column_0
                    if np.int64(suit[row_0, column_0]) + np.int64(suit[row_1, column_1]) != cost_a:
                        continue
                    for sets_2 in range(n_sets - sets_a + 1):
                        for pair_2 in range(2 - pair_a):
                            column_2 = 2 * sets_2 + pair_2
                            column_3 = column_b - column_2
                            if np.int64(suit[row_2, column_2]) + np.int64(honors[row_3, column_3]) != cost_b:
                                continue
                            work[SPLITS + n_splits] = column_0 | column_1 << 4 | column_2 << 8 | column_3 << 12
                            n_splits += 1
                            tight_0 |= 1 << column_0
                            tight_1 |= 1 << column_1
                            tight_2 |= 1 << column_2
                            tight_3 |= 1 << column_3
    work[TIGHT], work[TIGHT + 1], work[TIGHT + 2], work[TIGHT + 3] = tight_0, tight_1, tight_2, tight_3
    work[STANDARD], work[N_SPLITS] = standard, n_splits
    return standard


@njit(cache=True, _nrt=False)
def distances_after_discard(counts, n_melds, suit, honors, scratch, work, distances):
    """distances[kind] = best distance after discarding one tile of each kind held (_BIG for the others), for
    a hand of 3k+2 tiles; returns (the lowest, how many kinds reach it). Leaves in `work` what
    ``tied_ukeire`` reads."""
    n_sets = MAX_SETS - n_melds
    pairs, singles = _read_rows(counts, work)
    standard = _find_splits(n_sets, suit, honors, scratch, work)
    seven_allowed = n_melds == 0
    best, ties = _BIG, 0
    for group in range(GROUPS):
        start = _group_start(group)
        row = work[ROWS + group]
        tight = work[TIGHT + group]
        table = honors if group == 3 else suit
        scale = 1
        for rank in range(_group_size(group)):
            kind = start + rank
            count = counts[kind]
            if count == 0:
                distances[kind] = _BIG
                scale *= 5
                continue
            free = _kept_columns(table, row, row - scale, tight)
            work[FREE + kind] = free
            distance = standard if free != 0 else standard + 1
            if seven_allowed:
                if count & 1:
                    distance = smaller(distance, _seven_pairs_from_tally(pairs, singles - 1))
                else:
                    distance = smaller(distance, _seven_pairs_from_tally(pairs - 1, singles + 1))
            distances[kind] = distance
            if distance < best:
                best, ties = distance, 1
            elif distance == best:
                ties += 1
            scale *= 5
    return best, ties


@njit(cache=True, inline="always", _nrt=False)
def _improving_draws(counts, live, suit, honors, work):
    """work[IMPROVING + 10 * group + column], for the columns on a cheapest split: the kinds of the group,
    drawable (fewer than four held, a live copy), whose draw lowers that cost of the hand's row."""
    for group in range(GROUPS):
        start = _group_start(group)
        row = work[ROWS + group]
        tight = work[TIGHT + group]
        for column in range(N_COLUMNS):
            work[IMPROVING + N_COLUMNS * group + column] = 0
        table = honors if group == 3 else suit
        scale = 1
        for rank in range(_group_size(group)):
            kind = start + rank
            if counts[kind] < 4 and live[kind] > 0:
                for column in range(N_COLUMNS):
                    if (tight >> column) & 1:  # the same columns for every kind of the group: predicted
                        work[IMPROVING + N_COLUMNS * group + column] |= np.int64(
                            table[row + scale, column] < table[row, column]
                        ) << kind
            scale *= 5


@njit(cache=True, inline="always", _nrt=False)
def _reach(work):
    """work[REACH + 10 * group + column]: over the cheapest splits where the group takes that column, the
    union of the other groups' improving draws in their columns."""
    for slot in range(GROUPS * N_COLUMNS):
        work[REACH + slot] = 0
    for index in range(work[N_SPLITS]):
        packed = work[SPLITS + index]
        slot_0 = packed & 15
        slot_1 = N_COLUMNS + ((packed >> 4) & 15)
        slot_2 = 2 * N_COLUMNS + ((packed >> 8) & 15)
        slot_3 = 3 * N_COLUMNS + ((packed >> 12) & 15)
        draws_0, draws_1 = work[IMPROVING + slot_0], work[IMPROVING + slot_1]
        draws_2, draws_3 = work[IMPROVING + slot_2], work[IMPROVING + slot_3]
        work[REACH + slot_0] |= draws_1 | draws_2 | draws_3
        work[REACH + slot_1] |= draws_0 | draws_2 | draws_3
        work[REACH + slot_2] |= draws_0 | draws_1 | draws_3
        work[REACH + slot_3] |= draws_0 | draws_1 | draws_2


@njit(cache=True, _nrt=False)
def tied_ukeire(counts, n_melds, live, best, suit, honors, scratch, work, distances, ukeire_scratch):
    """work[UKEIRE + kind] = the live tiles whose draw lowers the distance of the hand left by discarding `kind`,
    for each kind with distances[kind] == best (0 for the others), after ``distances_after_discard`` on the
    same hand. `ukeire_scratch`: the int64 (34,) work array of ``_ukeire_one``."""
    seven_allowed = n_melds == 0
    pairs, singles = 0, 0
    odd_kinds, drawable = np.int64(0), np.int64(0)  # kinds (bits) held an odd number of times; drawable
    live_ones, live_twos, live_fours = np.int64(0), np.int64(0), np.int64(0)  # the bits of each kind's live copies
    for kind in range(N_KINDS):
        count, copies, bit = counts[kind], live[kind], np.int64(1) << kind
        pairs += count >> 1
        singles += count & 1
        if count & 1:
            odd_kinds |= bit
        if count < 4 and copies > 0:
            drawable |= bit
        if copies & 1:
            live_ones |= bit
        if copies & 2:
            live_twos |= bit
        if copies & 4:
            live_fours |= bit
    standard = work[STANDARD]
    _improving_draws(counts, live, suit, honors, work)
    _reach(work)
    for group in range(GROUPS):
        start = _group_start(group)
        row = work[ROWS + group]
        scale = 1
        for rank in range(_group_size(group)):
            kind = start + rank
            work[UKEIRE + kind] = 0
            if counts[kind] == 0 or distances[kind] != best:
                scale *= 5
                continue
            free = work[FREE + kind]
            lowering = np.int64(0)  # kinds (bits) whose draw lowers the distance of the hand left
            if free == 0 and standard + 1 == best:
                # the hand is complete: the hand left's cheapest splits are not the hand's
                counts[kind] -= 1
                _, work[UKEIRE + kind] = _ukeire_one(counts, n_melds, live, suit, honors, scratch, ukeire_scratch)
                counts[kind] += 1
                scale *= 5
                continue
            if free != 0 and standard == best:
                for column in range(N_COLUMNS):
                    if (free >> column) & 1:
                        lowering |= work[REACH + N_COLUMNS * group + column]
                # the group's own draws, to the row the discard left: a draw that lowers a free column's cost of
                # the row left lowers it for the whole row too (a tile added never raises a cost), so only the
                # row's improving draws in that column are read again
                candidates = np.int64(0)
                for column in range(N_COLUMNS):
                    if (free >> column) & 1:
                        candidates |= work[IMPROVING + N_COLUMNS * group + column]
                candidates &= ~(np.int64(1) << kind)
                table = honors if group == 3 else suit
                left = row - scale
                other_scale = 1
                for other_rank in range(_group_size(group)):
                    other = start + other_rank
                    if (candidates >> other) & 1 and _lowered_columns(table, row, left + other_scale, free) != 0:
                        lowering |= np.int64(1) << other
                    other_scale *= 5
            if seven_allowed:
                count = counts[kind]
                pairs_left = pairs - 1 if count % 2 == 0 else pairs
                singles_left = singles + 1 if count % 2 == 0 else singles - 1
                if _seven_pairs_from_tally(pairs_left, singles_left) == best:
                    odd_lowers = _seven_pairs_from_tally(pairs_left + 1, singles_left - 1) < best
                    even_lowers = _seven_pairs_from_tally(pairs_left, singles_left + 1) < best
                    # the hand left: `kind` held once less (so drawable if a copy is live), its parity turned
                    bit = np.int64(1) << kind
                    odd_left = odd_kinds ^ bit
                    drawable_left = drawable | bit if live[kind] > 0 else drawable
                    if odd_lowers:
                        lowering |= drawable_left & odd_left
                    if even_lowers:
                        lowering |= drawable_left & ~odd_left
            # every kind in `lowering` has 1 to 4 live copies: count them bit by bit
            total = bit_count(lowering & live_ones) + 2 * bit_count(lowering & live_twos) + 4 * bit_count(
                lowering & live_fours
            )
            work[UKEIRE + kind] = total
            scale *= 5

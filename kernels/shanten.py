"""Shanten (向听数), complete-hand check, waits and ukeire on count arrays of the 34 tile kinds.

Everything is a *distance*: the fewest tiles a hand must draw (discarding others) to become a complete
hand, where every kind is capped at four copies; shanten = distance - 1, so a complete hand is -1 and a
ready hand 0. The standard form (4 - melds sets plus a pair) reads per-suit tables (``kernels/tables.py``)
and splits the sets among the suits; seven pairs counts a four-of-a-kind as two pairs (docs/rules/erren-table.md)
and needs a hand without melds. Copies inside the player's own melds are not known to these kernels: the
four-copy cap applies to the counts they are given, and live-tile counts come from the caller.

Public functions validate and allocate; the ``_``-prefixed ``@njit(cache=True)`` kernels do the work.
Hands of 万 and honours only take a fast path that reads two tables instead of four; it returns the same
distances (the tests check this), because with at most 14 tiles there is always an unused 万 or honour
kind that serves as well as a fresh 筒 or 条 set.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from kernels.integers import smaller
from kernels.tables import MAX_SETS, load_tables
from kernels.tiles import HONOR_START, N_KINDS, PIN_START, SOU_START, TILE_SET_ALL

UNREACHABLE = 99  # the seven-pairs shanten of a hand with melds: seven pairs cannot be reached
FORMS = {"best": 0, "standard": 1, "seven_pairs": 2}
_BIG = 255


class InvalidHandError(ValueError):
    """A count array that is no legal hand: wrong shape, a count outside 0-4, or a size that does not fit."""


# ---------------------------------------------------------------------------------------------- kernels


@njit(cache=True, inline="always", _nrt=False)
def _index_and_tally(counts, start, n_ranks):
    """(table index, pairs, singles) of one group of kinds, read in one pass.

    The index reads the counts as a base-5 number, rank r as digit r; pairs and singles feed seven
    pairs, where a four-of-a-kind is two pairs and a three-of-a-kind a pair and a single.
    """
    index = 0
    scale = 1
    pairs = 0
    singles = 0
    for rank in range(n_ranks):
        count = counts[start + rank]
        index += count * scale
        scale *= 5
        pairs += count >> 1
        singles += count & 1
    return index, pairs, singles


# A group's costs are addressed as (table, row): a row of the suit or honour table, or of a 2-D scratch
# array holding groups already combined. Indexing tables directly, rather than slicing row views, keeps
# the hot loops free of reference counting.


@njit(cache=True, inline="always", _nrt=False)
def _combine(table_a, row_a, table_b, row_b, out, out_row):
    """out[out_row, 2*sets+pairs] = cheapest way two groups together hold `sets` sets and `pairs` pairs,
    for every count of sets up to MAX_SETS: loops of a fixed length unroll into straight code, which costs
    less than shorter loops of a length known only at run time. Each term indexes the tables directly: with
    the rows read first into tuples of ten, numba 0.68 indexed the tuples through a jump per read, and a
    combine took 340 ns instead of 30. No caller's output row is one of its inputs."""
    for sets in range(MAX_SETS + 1):
        for pairs in range(2):
            best = _BIG
            for sets_a in range(sets + 1):
                column_b = 2 * (sets - sets_a)
                best = smaller(best, np.int64(table_a[row_a, 2 * sets_a]) + np.int64(table_b[row_b, column_b + pairs]))
                if pairs == 1:
                    best = smaller(best, np.int64(table_a[row_a, 2 * sets_a + 1]) + np.int64(table_b[row_b, column_b]))
            out[out_row, 2 * sets + pairs] = best


@njit(cache=True, inline="always", _nrt=False)
def _split_cost(table_a, row_a, table_b, row_b, n_sets):
    """Cheapest way two groups together hold `n_sets` sets and one pair."""
    best = _BIG
    for sets_a in range(n_sets + 1):
        column_b = 2 * (n_sets - sets_a)
        cost = np.int64(table_a[row_a, 2 * sets_a]) + table_b[row_b, column_b + 1]
        best = smaller(best, cost)
        cost = np.int64(table_a[row_a, 2 * sets_a + 1]) + table_b[row_b, column_b]
        best = smaller(best, cost)
    return best


@njit(cache=True, inline="always", _nrt=False)
def _hand_groups(counts):
    """(rows of 万, 筒, 条 and honours, pairs, singles) of a hand of all 34 kinds, for the kernels that change
    one group at a time."""
    man, pairs, singles = _index_and_tally(counts, 0, 9)
    pin, pin_pairs, pin_singles = _index_and_tally(counts, PIN_START, 9)
    sou, sou_pairs, sou_singles = _index_and_tally(counts, SOU_START, 9)
    honor, honor_pairs, honor_singles = _index_and_tally(counts, HONOR_START, 7)
    pairs += pin_pairs + sou_pairs + honor_pairs
    singles += pin_singles + sou_singles + honor_singles
    return man, pin, sou, honor, pairs, singles


MAN_PIN, SOU_HONOR = 4, 5  # scratch rows; rows 0-3 hold "the other three groups" of each group


@njit(cache=True, inline="always", _nrt=False)
def _seven_pairs_from_tally(pairs, singles):
    needed = 7 - pairs
    if needed <= 0:
        return 0
    if singles >= needed:
        return needed
    return singles + 2 * (needed - singles)


@njit(cache=True, inline="always", _nrt=False)
def _hand_shanten(counts, melds, suit, honors, form, wan_honours_only, scratch):
    n_sets = MAX_SETS - melds
    man, pairs, singles = _index_and_tally(counts, 0, 9)
    honor, honor_pairs, honor_singles = _index_and_tally(counts, HONOR_START, 7)
    pairs += honor_pairs
    singles += honor_singles
    if wan_honours_only:
        standard = _split_cost(suit, man, honors, honor, n_sets)
    else:
        pin, pin_pairs, pin_singles = _index_and_tally(counts, PIN_START, 9)
        sou, sou_pairs, sou_singles = _index_and_tally(counts, SOU_START, 9)
        pairs += pin_pairs + sou_pairs
        singles += pin_singles + sou_singles
        _combine(suit, man, suit, pin, scratch, MAN_PIN)
        _combine(suit, sou, honors, honor, scratch, SOU_HONOR)
        standard = _split_cost(scratch, MAN_PIN, scratch, SOU_HONOR, n_sets)
    if form == 2:
        standard = _BIG
    seven = _BIG
    if form != 1:
        seven = _seven_pairs_from_tally(pairs, singles) if melds == 0 else UNREACHABLE + 1
    return smaller(standard, seven) - 1


@njit(cache=True)
def _shanten_many(counts, n_melds, suit, honors, form, wan_honours_only, out):
    scratch = np.empty((6, 10), np.int16)
    # Loops with a literal tile-set flag, so the test is decided at compile time, not per hand.
    # A literal 0 melds also lets LLVM unroll the split loops for the common concealed hand.
    if wan_honours_only:
        for hand in range(counts.shape[0]):
            if n_melds[hand] == 0:
                out[hand] = _hand_shanten(counts[hand], 0, suit, honors, form, True, scratch)
            else:
                out[hand] = _hand_shanten(counts[hand], n_melds[hand], suit, honors, form, True, scratch)
    else:
        for hand in range(counts.shape[0]):
            if n_melds[hand] == 0:
                out[hand] = _hand_shanten(counts[hand], 0, suit, honors, form, False, scratch)
            else:
                out[hand] = _hand_shanten(counts[hand], n_melds[hand], suit, honors, form, False, scratch)


@njit(cache=True, _nrt=False)
def _combine_others(suit, honors, man, pin, sou, honor, n_sets, scratch):
    """scratch[group] = the three groups other than `group`, combined; returns the hand's distance."""
    _combine(suit, man, suit, pin, scratch, MAN_PIN)
    _combine(suit, sou, honors, honor, scratch, SOU_HONOR)
    _combine(suit, pin, scratch, SOU_HONOR, scratch, 0)
    _combine(suit, man, scratch, SOU_HONOR, scratch, 1)
    _combine(scratch, MAN_PIN, honors, honor, scratch, 2)
    _combine(scratch, MAN_PIN, suit, sou, scratch, 3)
    return _split_cost(scratch, MAN_PIN, scratch, SOU_HONOR, n_sets)


@njit(cache=True, _nrt=False)
def _distances_after_draw(counts, n_melds, candidates, suit, honors, scratch, distances):
    """distances[kind] = best distance after drawing one tile of each kind with candidates[kind] > 0.

    Kinds held four times and other kinds get _BIG. Returns the best distance of the hand as it is.
    Only the drawn tile's group (万, 筒, 条, honours) changes, so the other three groups are combined
    once per group, and each candidate costs one table row and one split. `scratch`: int16 (6, 10).
    """
    n_sets = MAX_SETS - n_melds
    man, pin, sou, honor, pairs, singles = _hand_groups(counts)
    rows = (man, pin, sou, honor)
    only_man_and_honours = pin == 0 and sou == 0
    others_ready = False
    if only_man_and_honours:
        base = _split_cost(suit, man, honors, honor, n_sets)
    else:
        others_ready = True
        base = _combine_others(suit, honors, man, pin, sou, honor, n_sets, scratch)

    seven_allowed = n_melds == 0
    if seven_allowed:
        base = smaller(base, _seven_pairs_from_tally(pairs, singles))

    for kind in range(N_KINDS):
        count = counts[kind]
        if count >= 4 or candidates[kind] <= 0:
            distances[kind] = _BIG
            continue
        group = kind // 9

        scale = 1
        for _ in range(kind - 9 * group):
            scale *= 5
        new_row = rows[group] + scale
        if only_man_and_honours and group == 0:
            distance = _split_cost(suit, new_row, honors, honor, n_sets)
        elif only_man_and_honours and group == 3:
            distance = _split_cost(suit, man, honors, new_row, n_sets)
        else:
            if not others_ready:
                others_ready = True
                _combine_others(suit, honors, man, pin, sou, honor, n_sets, scratch)
            if group == 3:
                distance = _split_cost(honors, new_row, scratch, group, n_sets)
            else:
                distance = _split_cost(suit, new_row, scratch, group, n_sets)
        if seven_allowed:
            if count & 1:
                distance = smaller(distance, _seven_pairs_from_tally(pairs + 1, singles - 1))
            else:
                distance = smaller(distance, _seven_pairs_from_tally(pairs, singles + 1))
        distances[kind] = distance
    return base


@njit(cache=True, _nrt=False)
def _distances_after_discard(counts, n_melds, suit, honors, scratch, distances):
    """distances[kind] = best distance after discarding one tile of each kind held (_BIG for the others),
    for a hand of 3k+2 tiles; returns the lowest. As ``_distances_after_draw``, only the discarded tile's
    group changes, so each kind costs one table row and one split instead of a whole shanten."""
    n_sets = MAX_SETS - n_melds
    man, pin, sou, honor, pairs, singles = _hand_groups(counts)
    rows = (man, pin, sou, honor)
    only_man_and_honours = pin == 0 and sou == 0
    if not only_man_and_honours:
        _combine_others(suit, honors, man, pin, sou, honor, n_sets, scratch)
    seven_allowed = n_melds == 0
    best = _BIG
    for kind in range(N_KINDS):
        count = counts[kind]
        if count == 0:
            distances[kind] = _BIG
            continue
        group = kind // 9
        scale = 1
        for _ in range(kind - 9 * group):
            scale *= 5
        new_row = rows[group] - scale
        if only_man_and_honours and group == 0:
            distance = _split_cost(suit, new_row, honors, honor, n_sets)
        elif only_man_and_honours:
            distance = _split_cost(suit, man, honors, new_row, n_sets)
        elif group == 3:
            distance = _split_cost(honors, new_row, scratch, group, n_sets)
        else:
            distance = _split_cost(suit, new_row, scratch, group, n_sets)
        if seven_allowed:
            if count & 1:
                distance = smaller(distance, _seven_pairs_from_tally(pairs, singles - 1))
            else:
                distance = smaller(distance, _seven_pairs_from_tally(pairs - 1, singles + 1))
        distances[kind] = distance
        best = smaller(best, distance)
    return best


@njit(cache=True, _nrt=False)
def _may_complete(counts, candidates):
    """Candidates for a wait: a drawn tile must join a tile of its own suit (or its own honour kind)."""
    for kind in range(N_KINDS):
        candidates[kind] = 0
    for start in (0, PIN_START, SOU_START):
        for rank in range(9):
            if counts[start + rank] > 0:
                for near in range(max(0, rank - 2), min(9, rank + 3)):
                    candidates[start + near] = 1
    for kind in range(HONOR_START, N_KINDS):
        candidates[kind] = counts[kind]


@njit(cache=True)
def _waits_many(counts, n_melds, suit, honors, out):
    scratch = np.empty((6, 10), np.int16)
    distances = np.empty(N_KINDS, np.int64)
    candidates = np.empty(N_KINDS, np.int8)
    for hand in range(counts.shape[0]):
        _may_complete(counts[hand], candidates)
        _distances_after_draw(counts[hand], n_melds[hand], candidates, suit, honors, scratch, distances)
        for kind in range(N_KINDS):
            out[hand, kind] = distances[kind] == 0


@njit(cache=True, inline="always", _nrt=False)
def _best_split_columns(table, row, others, others_row, base, n_sets, columns):
    """The columns of a group's row that lie on one of the hand's best splits, each with the value it must
    fall below for the hand's distance to drop under `base`: base less the other groups' cost of the
    complementary column. They go to columns[TIGHT + i] (the column) and columns[i] (the value); returns
    how many."""
    n_tight = 0
    for sets in range(n_sets + 1):
        for pairs in range(2):
            column = 2 * sets + pairs
            below = base - others[others_row, 2 * (n_sets - sets) + 1 - pairs]
            if table[row, column] <= below:
                columns[n_tight], columns[TIGHT + n_tight] = below, column
                n_tight += 1
    return n_tight


TIGHT = 10  # _ukeire_one's work array: the values in its first 10 slots, their columns in the next 10


@njit(cache=True, _nrt=False)
def _ukeire_one(counts, n_melds, live, suit, honors, scratch, columns):
    """(distance, ukeire) of a hand of 3k+1 tiles; only kinds with live copies are tried.

    A draw changes only its own group's row, and lowers each column of it by one at most, so it lowers
    the hand's distance only through a column on one of the hand's best splits. Each group's few such
    columns are found once; a draw then compares its new row with them instead of splitting the whole
    hand again (the result is the same: tests/kernels/test_shanten.py checks it against the definition).
    `columns`: an int64 work array of at least 20 entries."""
    n_sets = MAX_SETS - n_melds
    man, pin, sou, honor, pairs, singles = _hand_groups(counts)
    rows = (man, pin, sou, honor)
    only_man_and_honours = pin == 0 and sou == 0
    others_ready = False
    if only_man_and_honours:
        base = _split_cost(suit, man, honors, honor, n_sets)
    else:
        others_ready = True
        base = _combine_others(suit, honors, man, pin, sou, honor, n_sets, scratch)
    seven_allowed = n_melds == 0
    if seven_allowed:
        base = smaller(base, _seven_pairs_from_tally(pairs, singles))
    # seven pairs after the draw of a kind held once or three times (a pair more), or held twice or not at all
    seven_odd = seven_allowed and _seven_pairs_from_tally(pairs + 1, singles - 1) < base
    seven_even = seven_allowed and _seven_pairs_from_tally(pairs, singles + 1) < base
    total = 0
    for group in range(4):
        start, size = 9 * group, 7 if group == 3 else 9
        drawable = False
        for kind in range(start, start + size):
            drawable = drawable or (counts[kind] < 4 and live[kind] > 0)
        if not drawable:
            continue
        table = honors if group == 3 else suit
        if only_man_and_honours and group == 0:
            n_tight = _best_split_columns(suit, man, honors, honor, base, n_sets, columns)
        elif only_man_and_honours and group == 3:
            n_tight = _best_split_columns(honors, honor, suit, man, base, n_sets, columns)
        else:
            if not others_ready:
                others_ready = True
                _combine_others(suit, honors, man, pin, sou, honor, n_sets, scratch)
            n_tight = _best_split_columns(table, rows[group], scratch, group, base, n_sets, columns)
        scale = 1
        for kind in range(start, start + size):
            count = counts[kind]
            if count < 4 and live[kind] > 0:
                row = rows[group] + scale
                lowers = seven_odd if count & 1 else seven_even
                for index in range(n_tight):
                    if lowers:
                        break
                    lowers = table[row, columns[TIGHT + index]] < columns[index]
                if lowers:
                    total += live[kind]
            scale *= 5
    return base, total


@njit(cache=True, _nrt=False)
def _discard_options(counts, n_melds, live, suit, honors, scratch, distances, hand, out_shanten, out_ukeire):
    """For a hand of 3k+2 tiles: shanten and ukeire after discarding each kind held (_BIG elsewhere).

    `scratch`, `distances` and `hand` (34 counts) are work arrays, so a batch allocates them once.
    """
    for kind in range(N_KINDS):
        hand[kind] = counts[kind]
    for kind in range(N_KINDS):
        if hand[kind] == 0:
            out_shanten[kind] = _BIG
            out_ukeire[kind] = 0
            continue
        hand[kind] -= 1
        base, total = _ukeire_one(hand, n_melds, live, suit, honors, scratch, distances)
        hand[kind] += 1
        out_shanten[kind] = base - 1
        out_ukeire[kind] = total


@njit(cache=True)
def _ukeire_many(counts, n_melds, live, suit, honors, out):
    scratch = np.empty((6, 10), np.int16)
    distances = np.empty(N_KINDS, np.int64)
    after_shanten = np.empty(N_KINDS, np.int64)
    after_ukeire = np.empty(N_KINDS, np.int64)
    work = np.empty(N_KINDS, counts.dtype)
    for hand in range(counts.shape[0]):
        if (counts[hand].sum() + 3 * n_melds[hand]) % 3 == 1:
            out[hand] = _ukeire_one(counts[hand], n_melds[hand], live[hand], suit, honors, scratch, distances)[1]
            continue
        _discard_options(
            counts[hand], n_melds[hand], live[hand], suit, honors, scratch, distances, work, after_shanten, after_ukeire
        )
        best_shanten = after_shanten.min()
        best = 0
        for kind in range(N_KINDS):
            if after_shanten[kind] == best_shanten and after_ukeire[kind] > best:
                best = after_ukeire[kind]
        out[hand] = best


# ----------------------------------------------------------------------------------------- public API


class Shanten(NamedTuple):
    best: int
    standard: int
    seven_pairs: int  # UNREACHABLE when the hand has melds


@njit(cache=True)
def _check_hands(hands, melds, size_a, size_b):
    """(problem, hand, kind, 万+honours only): problem 0 = fine, 1 = a count outside 0-4, 2 = a meld
    number outside 0-4, 3 = a size other than size_a or size_b (tiles + 3 per meld)."""
    wan_honours_only = True
    for hand in range(hands.shape[0]):
        if melds[hand] < 0 or melds[hand] > MAX_SETS:
            return 2, hand, 0, False
        total = 3 * np.int64(melds[hand])
        for kind in range(N_KINDS):
            count = hands[hand, kind]
            if count < 0 or count > 4:
                return 1, hand, kind, False
            total += count
            if count > 0 and PIN_START <= kind < HONOR_START:
                wan_honours_only = False
        if total != size_a and total != size_b:
            return 3, hand, 0, False
    return 0, 0, 0, wan_honours_only


def _hands(counts, sizes=(13, 14), n_melds=0):
    """Validate `counts` as (N, 34) hands of the given sizes (tiles + 3 per meld).

    Returns (hands as int8, melds as int8, whether every hand holds only 万 and honours).
    """
    array = np.asarray(counts)
    if array.ndim == 1:
        array = array[np.newaxis, :]
    if array.ndim != 2 or array.shape[1] != N_KINDS:
        raise InvalidHandError(f"hands must be an (N, {N_KINDS}) array of tile counts, got shape {np.shape(counts)}")
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidHandError(f"tile counts must be integers, got {array.dtype}")
    melds = np.asarray(n_melds)
    if not np.issubdtype(melds.dtype, np.integer) or melds.ndim > 1 or (melds.ndim == 1 and melds.size != array.shape[0]):
        raise InvalidHandError("the number of melds must be one integer or one per hand")
    melds = np.broadcast_to(melds, (array.shape[0],))
    problem, hand, kind, wan_honours_only = _check_hands(array, melds, sizes[0], sizes[-1])
    if problem == 1:
        raise InvalidHandError(f"hand {hand} holds {array[hand, kind]} copies of kind {kind}; a kind has 0 to 4 copies")
    if problem == 2:
        raise InvalidHandError(f"hand {hand} has {melds[hand]} melds; the number of melds runs from 0 to {MAX_SETS}")
    if problem == 3:
        raise InvalidHandError(
            f"hand {hand} holds {array[hand].sum()} tiles with {melds[hand]} melds; "
            f"it must hold {' or '.join(map(str, sizes))} tiles less 3 for each meld"
        )
    return np.ascontiguousarray(array, dtype=np.int8), np.ascontiguousarray(melds, dtype=np.int8), wan_honours_only


def _live(hands, visible, tile_set):
    tile_set = np.asarray(tile_set)
    if tile_set.shape != (N_KINDS,) or tile_set.min() < 0 or tile_set.max() > 4:
        raise InvalidHandError(f"a tile set gives 0 to 4 copies for each of the {N_KINDS} kinds")
    seen = np.zeros_like(hands) if visible is None else np.broadcast_to(np.asarray(visible), hands.shape)
    if not np.issubdtype(seen.dtype, np.integer) or seen.min() < 0:
        raise InvalidHandError("visible tiles must be non-negative integer counts")
    return np.ascontiguousarray(np.clip(tile_set.astype(np.int16) - hands - seen, 0, 4), dtype=np.int8)


def shanten_many(counts, n_melds=0, form="best"):
    """Shanten of each hand in an (N, 34) count array; `n_melds` is a number or one per hand.

    `form` is "best" (minimum of the standard form and seven pairs), "standard" or "seven_pairs"
    (UNREACHABLE for hands with melds). Hands hold 13 or 14 tiles less 3 per meld.
    """
    if form not in FORMS:
        raise InvalidHandError(f"unknown form {form!r}; choose one of {', '.join(FORMS)}")
    hands, melds, wan_honours_only = _hands(counts, n_melds=n_melds)
    suit, honors = load_tables()
    out = np.empty(hands.shape[0], np.int8)
    _shanten_many(hands, melds, suit, honors, FORMS[form], wan_honours_only, out)
    return out


def shanten_forms(counts, n_melds=0) -> Shanten:
    """Shanten of one hand (length-34 counts): best, standard form and seven pairs."""
    hands, melds, wan_honours_only = _hands(counts, n_melds=n_melds)
    suit, honors = load_tables()
    out = np.empty(1, np.int8)
    values = []
    for form in (0, 1, 2):
        _shanten_many(hands, melds, suit, honors, form, wan_honours_only, out)
        values.append(int(out[0]))
    return Shanten(values[0], values[1], values[2] if melds[0] == 0 else UNREACHABLE)


def is_complete_many(counts, n_melds=0):
    """Whether each hand of 14 tiles (less 3 per meld) is complete, standard form or seven pairs."""
    hands, melds, wan_honours_only = _hands(counts, sizes=(14,), n_melds=n_melds)
    suit, honors = load_tables()
    out = np.empty(hands.shape[0], np.int8)
    _shanten_many(hands, melds, suit, honors, 0, wan_honours_only, out)
    return out == -1


def waits_many(counts, n_melds=0):
    """(N, 34) mask of the kinds that complete each hand of 13 tiles (less 3 per meld).

    A kind the hand already holds four of is never a wait.
    """
    hands, melds, wan_honours_only = _hands(counts, sizes=(13,), n_melds=n_melds)
    suit, honors = load_tables()
    out = np.empty(hands.shape, np.bool_)
    _waits_many(hands, melds, suit, honors, out)
    return out


def waits(counts, n_melds=0) -> list[int]:
    """The kinds that complete one hand of 13 tiles (less 3 per meld)."""
    return [int(kind) for kind in np.flatnonzero(waits_many(counts, n_melds)[0])]


def ukeire_many(counts, n_melds=0, visible=None, tile_set=TILE_SET_ALL):
    """Live tiles that lower each hand's shanten.

    A live tile is a copy in `tile_set` (copies per kind in the wall) that is neither in the hand nor in
    `visible` (counts the player can see elsewhere: discards, every exposed meld including their own).
    A 13-tile hand counts its draws directly; a 14-tile hand counts them after its best discard (the
    largest ukeire among the discards that keep the lowest shanten).
    """
    hands, melds, wan_honours_only = _hands(counts, n_melds=n_melds)
    live = _live(hands, visible, tile_set)
    suit, honors = load_tables()
    out = np.empty(hands.shape[0], np.int64)
    _ukeire_many(hands, melds, live, suit, honors, out)
    return out


def ukeire(counts, n_melds=0, visible=None, tile_set=TILE_SET_ALL) -> int:
    return int(ukeire_many(counts, n_melds, visible, tile_set)[0])


def improving_draws(counts, n_melds=0, visible=None, tile_set=TILE_SET_ALL):
    """For one hand of 13 tiles (less 3 per meld): {kind: live copies} of the draws that lower its shanten."""
    hands, melds, wan_honours_only = _hands(counts, sizes=(13,), n_melds=n_melds)
    live = _live(hands, visible, tile_set)
    suit, honors = load_tables()
    distances = np.empty(N_KINDS, np.int64)
    base = _distances_after_draw(hands[0], melds[0], live[0], suit, honors, np.empty((6, 10), np.int16), distances)
    return {int(kind): int(live[0, kind]) for kind in range(N_KINDS) if distances[kind] < base and live[0, kind] > 0}


def discard_options(counts, n_melds=0, visible=None, tile_set=TILE_SET_ALL):
    """For one hand of 14 tiles (less 3 per meld): {kind: (shanten, ukeire)} after discarding each kind held."""
    hands, melds, wan_honours_only = _hands(counts, sizes=(14,), n_melds=n_melds)
    live = _live(hands, visible, tile_set)
    suit, honors = load_tables()
    after_shanten = np.empty(N_KINDS, np.int64)
    after_ukeire = np.empty(N_KINDS, np.int64)
    scratch, distances, work = np.empty((6, 10), np.int16), np.empty(N_KINDS, np.int64), np.empty(N_KINDS, np.int8)
    _discard_options(hands[0], melds[0], live[0], suit, honors, scratch, distances, work, after_shanten, after_ukeire)
    return {int(kind): (int(after_shanten[kind]), int(after_ukeire[kind])) for kind in np.flatnonzero(hands[0])}

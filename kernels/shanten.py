"""Shanten (向听数), complete-hand check, waits and ukeire on count arrays of the 34 tile kinds.

Everything is a *distance*: the fewest tiles a hand must draw (discarding others) to become a complete
hand, where every kind is capped at four copies; shanten = distance - 1, so a complete hand is -1 and a
ready hand 0. The standard form (4 - melds sets plus a pair) reads per-suit tables (``kernels/tables.py``)
and splits the sets among the suits; seven pairs counts a four-of-a-kind as two pairs (RULES.md section 4)
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

from kernels.tables import MAX_SETS, load_tables
from kernels.tiles import HONOR_START, N_KINDS, PIN_START, SOU_START, TILE_SET_ALL

UNREACHABLE = 99  # the seven-pairs shanten of a hand with melds: seven pairs cannot be reached
FORMS = {"best": 0, "standard": 1, "seven_pairs": 2}
_BIG = 255


class InvalidHandError(ValueError):
    """A count array that is no legal hand: wrong shape, a count outside 0-4, or a size that does not fit."""


# ---------------------------------------------------------------------------------------------- kernels


@njit(cache=True)
def _table_index(counts, start, n_ranks):
    index = 0
    scale = 1
    for rank in range(n_ranks):
        index += counts[start + rank] * scale
        scale *= 5
    return index


@njit(cache=True)
def _combine(first, second, n_sets, out):
    """out[2*sets+pairs] = cheapest way two groups of kinds together hold `sets` sets and `pairs` pairs."""
    for sets in range(n_sets + 1):
        for pairs in range(2):
            best = _BIG
            for sets_first in range(sets + 1):
                for pairs_first in range(pairs + 1):
                    cost = first[2 * sets_first + pairs_first] + second[2 * (sets - sets_first) + pairs - pairs_first]
                    if cost < best:
                        best = cost
            out[2 * sets + pairs] = best


@njit(cache=True)
def _split_cost(first, second, n_sets):
    """Cheapest way two groups of kinds together hold `n_sets` sets and one pair."""
    best = _BIG
    for sets_first in range(n_sets + 1):
        column = 2 * (n_sets - sets_first)
        cost = first[2 * sets_first] + second[column + 1]
        if cost < best:
            best = cost
        cost = first[2 * sets_first + 1] + second[column]
        if cost < best:
            best = cost
    return best


@njit(cache=True)
def _four_group_distance(man_row, pin_row, sou_row, honor_row, n_sets, scratch):
    """Standard-form distance from the four groups' table rows; scratch holds at least 20 int16."""
    _combine(man_row, pin_row, n_sets, scratch[0:10])
    _combine(sou_row, honor_row, n_sets, scratch[10:20])
    return _split_cost(scratch[0:10], scratch[10:20], n_sets)


@njit(cache=True)
def _standard_distance(counts, n_melds, suit, honors, wan_honours_only, scratch):
    n_sets = MAX_SETS - n_melds
    man_row = suit[_table_index(counts, 0, 9)]
    honor_row = honors[_table_index(counts, HONOR_START, 7)]
    if wan_honours_only:
        return _split_cost(man_row, honor_row, n_sets)
    pin_row = suit[_table_index(counts, PIN_START, 9)]
    sou_row = suit[_table_index(counts, SOU_START, 9)]
    return _four_group_distance(man_row, pin_row, sou_row, honor_row, n_sets, scratch)


@njit(cache=True)
def _seven_pairs_from_tally(pairs, singles):
    needed = 7 - pairs
    if needed <= 0:
        return 0
    if singles >= needed:
        return needed
    return singles + 2 * (needed - singles)


@njit(cache=True)
def _pair_tally(counts, wan_honours_only):
    """(pairs, singles): a four-of-a-kind is two pairs, a three-of-a-kind a pair and a single."""
    pairs = 0
    singles = 0
    for kind in range(PIN_START if wan_honours_only else HONOR_START):
        pairs += counts[kind] >> 1
        singles += counts[kind] & 1
    for kind in range(HONOR_START, N_KINDS):
        pairs += counts[kind] >> 1
        singles += counts[kind] & 1
    return pairs, singles


@njit(cache=True)
def _seven_pairs_distance(counts, n_melds, wan_honours_only):
    if n_melds > 0:
        return UNREACHABLE + 1
    pairs, singles = _pair_tally(counts, wan_honours_only)
    return _seven_pairs_from_tally(pairs, singles)


@njit(cache=True)
def _shanten_many(counts, n_melds, suit, honors, form, wan_honours_only, out):
    scratch = np.empty(20, np.int16)
    for hand in range(counts.shape[0]):
        standard = _BIG
        if form != 2:
            standard = _standard_distance(counts[hand], n_melds[hand], suit, honors, wan_honours_only, scratch)
        seven = _BIG
        if form != 1:
            seven = _seven_pairs_distance(counts[hand], n_melds[hand], wan_honours_only)
        out[hand] = min(standard, seven) - 1


@njit(cache=True)
def _combine_others(man_row, pin_row, sou_row, honor_row, n_sets, scratch):
    """scratch[10*group:10*group+10] = the other three groups combined; returns the hand's distance."""
    man_pin, sou_honor = scratch[40:50], scratch[50:60]
    _combine(man_row, pin_row, n_sets, man_pin)
    _combine(sou_row, honor_row, n_sets, sou_honor)
    _combine(pin_row, sou_honor, n_sets, scratch[0:10])
    _combine(man_row, sou_honor, n_sets, scratch[10:20])
    _combine(man_pin, honor_row, n_sets, scratch[20:30])
    _combine(man_pin, sou_row, n_sets, scratch[30:40])
    return _split_cost(man_pin, sou_honor, n_sets)


@njit(cache=True)
def _distances_after_draw(counts, n_melds, candidates, suit, honors, scratch, distances):
    """distances[kind] = best distance after drawing one tile of each kind with candidates[kind] > 0.

    Kinds held four times and other kinds get _BIG. Returns the best distance of the hand as it is.
    Only the drawn tile's group (万, 筒, 条, honours) changes, so the other three groups are combined
    once per group, and each candidate costs one table row and one split. `scratch`: 60 int16.
    """
    n_sets = MAX_SETS - n_melds
    rows = (
        _table_index(counts, 0, 9),
        _table_index(counts, PIN_START, 9),
        _table_index(counts, SOU_START, 9),
        _table_index(counts, HONOR_START, 7),
    )
    only_man_and_honours = rows[1] == 0 and rows[2] == 0
    man_row, pin_row, sou_row, honor_row = suit[rows[0]], suit[rows[1]], suit[rows[2]], honors[rows[3]]
    others = scratch[0:40]  # others[10*group:10*group+10]: the three groups other than `group`, combined
    others_ready = False
    if only_man_and_honours:
        base = _split_cost(man_row, honor_row, n_sets)
    else:
        others_ready = True
        base = _combine_others(man_row, pin_row, sou_row, honor_row, n_sets, scratch)

    seven_allowed = n_melds == 0
    pairs, singles = _pair_tally(counts, False)
    if seven_allowed:
        base = min(base, _seven_pairs_from_tally(pairs, singles))

    for kind in range(N_KINDS):
        count = counts[kind]
        if count >= 4 or candidates[kind] <= 0:
            distances[kind] = _BIG
            continue
        group = kind // 9
        scale = 1
        for _ in range(kind - 9 * group):
            scale *= 5
        table = honors if group == 3 else suit
        new_row = table[rows[group] + scale]
        if only_man_and_honours and group == 0:
            distance = _split_cost(new_row, honor_row, n_sets)
        elif only_man_and_honours and group == 3:
            distance = _split_cost(man_row, new_row, n_sets)
        else:
            if not others_ready:
                others_ready = True
                _combine_others(man_row, pin_row, sou_row, honor_row, n_sets, scratch)
            distance = _split_cost(new_row, others[10 * group : 10 * group + 10], n_sets)
        if seven_allowed:
            if count & 1:
                distance = min(distance, _seven_pairs_from_tally(pairs + 1, singles - 1))
            else:
                distance = min(distance, _seven_pairs_from_tally(pairs, singles + 1))
        distances[kind] = distance
    return base


@njit(cache=True)
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
    scratch = np.empty(60, np.int16)
    distances = np.empty(N_KINDS, np.int64)
    candidates = np.empty(N_KINDS, np.int8)
    for hand in range(counts.shape[0]):
        _may_complete(counts[hand], candidates)
        _distances_after_draw(counts[hand], n_melds[hand], candidates, suit, honors, scratch, distances)
        for kind in range(N_KINDS):
            out[hand, kind] = distances[kind] == 0


@njit(cache=True)
def _ukeire_one(counts, n_melds, live, suit, honors, scratch, distances):
    """(distance, ukeire) of a hand of 3k+1 tiles; only kinds with live copies are tried."""
    base = _distances_after_draw(counts, n_melds, live, suit, honors, scratch, distances)
    total = 0
    for kind in range(N_KINDS):
        if distances[kind] < base:
            total += live[kind]
    return base, total


@njit(cache=True)
def _discard_options(counts, n_melds, live, suit, honors, out_shanten, out_ukeire):
    """For a hand of 3k+2 tiles: shanten and ukeire after discarding each kind held (_BIG elsewhere)."""
    scratch = np.empty(60, np.int16)
    distances = np.empty(N_KINDS, np.int64)
    hand = counts.copy()
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
    scratch = np.empty(60, np.int16)
    distances = np.empty(N_KINDS, np.int64)
    after_shanten = np.empty(N_KINDS, np.int64)
    after_ukeire = np.empty(N_KINDS, np.int64)
    for hand in range(counts.shape[0]):
        if (counts[hand].sum() + 3 * n_melds[hand]) % 3 == 1:
            out[hand] = _ukeire_one(counts[hand], n_melds[hand], live[hand], suit, honors, scratch, distances)[1]
            continue
        _discard_options(counts[hand], n_melds[hand], live[hand], suit, honors, after_shanten, after_ukeire)
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


def _hands(counts, sizes=(13, 14), n_melds=0):
    """Validate `counts` as (N, 34) hands of the given sizes (tiles + 3 per meld); returns int8 arrays."""
    array = np.asarray(counts)
    if array.ndim == 1:
        array = array[np.newaxis, :]
    if array.ndim != 2 or array.shape[1] != N_KINDS:
        raise InvalidHandError(f"hands must be an (N, {N_KINDS}) array of tile counts, got shape {np.shape(counts)}")
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidHandError(f"tile counts must be integers, got {array.dtype}")
    melds = np.broadcast_to(np.asarray(n_melds), (array.shape[0],))
    if not np.issubdtype(melds.dtype, np.integer) or melds.size and (melds.min() < 0 or melds.max() > MAX_SETS):
        raise InvalidHandError(f"the number of melds must be an integer from 0 to {MAX_SETS}")
    if array.size and (array.min() < 0 or array.max() > 4):
        hand, kind = np.argwhere((array < 0) | (array > 4))[0]
        raise InvalidHandError(f"hand {hand} holds {array[hand, kind]} copies of kind {kind}; a kind has 0 to 4 copies")
    equivalent = array.sum(axis=1, dtype=np.int64) + 3 * melds
    wrong = ~np.isin(equivalent, sizes)
    if wrong.any():
        hand = int(np.argmax(wrong))
        raise InvalidHandError(
            f"hand {hand} holds {array[hand].sum()} tiles with {melds[hand]} melds; "
            f"it must hold {' or '.join(map(str, sizes))} tiles less 3 for each meld"
        )
    return np.ascontiguousarray(array, dtype=np.int8), np.ascontiguousarray(melds, dtype=np.int8)


def _wan_honours_only(hands):
    return not hands[:, PIN_START:HONOR_START].any()


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
    hands, melds = _hands(counts, n_melds=n_melds)
    suit, honors = load_tables()
    out = np.empty(hands.shape[0], np.int8)
    _shanten_many(hands, melds, suit, honors, FORMS[form], _wan_honours_only(hands), out)
    return out


def shanten_forms(counts, n_melds=0) -> Shanten:
    """Shanten of one hand (length-34 counts): best, standard form and seven pairs."""
    hands, melds = _hands(counts, n_melds=n_melds)
    suit, honors = load_tables()
    out = np.empty(1, np.int8)
    values = []
    for form in (0, 1, 2):
        _shanten_many(hands, melds, suit, honors, form, _wan_honours_only(hands), out)
        values.append(int(out[0]))
    return Shanten(values[0], values[1], values[2] if melds[0] == 0 else UNREACHABLE)


def is_complete_many(counts, n_melds=0):
    """Whether each hand of 14 tiles (less 3 per meld) is complete, standard form or seven pairs."""
    hands, melds = _hands(counts, sizes=(14,), n_melds=n_melds)
    suit, honors = load_tables()
    out = np.empty(hands.shape[0], np.int8)
    _shanten_many(hands, melds, suit, honors, 0, _wan_honours_only(hands), out)
    return out == -1


def waits_many(counts, n_melds=0):
    """(N, 34) mask of the kinds that complete each hand of 13 tiles (less 3 per meld).

    A kind the hand already holds four of is never a wait.
    """
    hands, melds = _hands(counts, sizes=(13,), n_melds=n_melds)
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
    hands, melds = _hands(counts, n_melds=n_melds)
    live = _live(hands, visible, tile_set)
    suit, honors = load_tables()
    out = np.empty(hands.shape[0], np.int64)
    _ukeire_many(hands, melds, live, suit, honors, out)
    return out


def ukeire(counts, n_melds=0, visible=None, tile_set=TILE_SET_ALL) -> int:
    return int(ukeire_many(counts, n_melds, visible, tile_set)[0])


def improving_draws(counts, n_melds=0, visible=None, tile_set=TILE_SET_ALL):
    """For one hand of 13 tiles (less 3 per meld): {kind: live copies} of the draws that lower its shanten."""
    hands, melds = _hands(counts, sizes=(13,), n_melds=n_melds)
    live = _live(hands, visible, tile_set)
    suit, honors = load_tables()
    distances = np.empty(N_KINDS, np.int64)
    base = _distances_after_draw(hands[0], melds[0], live[0], suit, honors, np.empty(60, np.int16), distances)
    return {int(kind): int(live[0, kind]) for kind in range(N_KINDS) if distances[kind] < base and live[0, kind] > 0}


def discard_options(counts, n_melds=0, visible=None, tile_set=TILE_SET_ALL):
    """For one hand of 14 tiles (less 3 per meld): {kind: (shanten, ukeire)} after discarding each kind held."""
    hands, melds = _hands(counts, sizes=(14,), n_melds=n_melds)
    live = _live(hands, visible, tile_set)
    suit, honors = load_tables()
    after_shanten = np.empty(N_KINDS, np.int64)
    after_ukeire = np.empty(N_KINDS, np.int64)
    _discard_options(hands[0], melds[0], live[0], suit, honors, after_shanten, after_ukeire)
    return {int(kind): (int(after_shanten[kind]), int(after_ukeire[kind])) for kind in np.flatnonzero(hands[0])}

"""The slow twin of kernels/fans/xuezhan.py: the 血战-family fans read straight from their definitions
(docs/rules/liangmen-xuezhan.md and docs/rules/sanren-liangfang.md, seeds 002 and 003), in plain Python
with a recursive decomposition.

`readings` lists every way to read a winning hand as (pair, sets) or seven pairs; `reading_scores` gives each
reading's counted fans and value under a ruleset; the kernel must return the best value and the fans of one of
the readings that reach it. `best_discard_value` is the 查叫 value of a ready hand; `winning_kinds` the kinds a
hand before the win waits on, tried one by one (卡二条 needs 2条 alone).
"""

from kernels.fan_ids import (
    DISCARD_AFTER_KONG_FLAG,
    EARTHLY_HAND_FLAG,
    HEAVENLY_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
    Fan,
)
from kernels.tiles import MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG

SUITED_KINDS = range(9, 27)  # 筒 1-9, 条 1-9


def rank(kind):
    return (kind - 9) % 9 + 1


def suit(kind):
    return (kind - 9) // 9


def set_decompositions(counts):
    """Every multiset of sets (("pung", kind) or ("chow", first kind)) that uses exactly `counts`."""
    kinds = [kind for kind in SUITED_KINDS if counts[kind] > 0]
    if not kinds:
        return [[]]
    lowest = kinds[0]
    found = []
    if counts[lowest] >= 3:
        rest = dict(counts)
        rest[lowest] -= 3
        found += [[("pung", lowest)] + sets for sets in set_decompositions(rest)]
    if rank(lowest) <= 7 and counts.get(lowest + 1, 0) > 0 and counts.get(lowest + 2, 0) > 0:
        rest = dict(counts)
        for kind in (lowest, lowest + 1, lowest + 2):
            rest[kind] -= 1
        found += [[("chow", lowest)] + sets for sets in set_decompositions(rest)]
    return found


def readings(standing, melds):
    """standing: {kind: count} of the concealed tiles with the winning tile; melds: [(code, kind)].
    Returns [("standard", pair, sets)] (sets include the melds, as pungs) and maybe [("seven_pairs",)]."""
    if any(kind not in SUITED_KINDS for kind, count in standing.items() if count):
        return []
    found = []
    meld_sets = [("pung", kind) for _, kind in melds]
    for pair in SUITED_KINDS:
        if standing.get(pair, 0) >= 2:
            rest = {kind: standing.get(kind, 0) for kind in SUITED_KINDS}
            rest[pair] -= 2
            for sets in set_decompositions(rest):
                found.append(("standard", pair, sets + meld_sets))
    if not melds and sum(standing.values()) == 14 and all(count % 2 == 0 for count in standing.values()):
        found.append(("seven_pairs",))
    return found


def held(concealed, melds):
    """{kind: copies in the hand}, melds included."""
    every = {kind: concealed.get(kind, 0) for kind in SUITED_KINDS}
    for code, kind in melds:
        every[kind] += 3 if code == MELD_PONG else 4
    return every


def winning_kinds(concealed, melds):
    """The kinds that complete the hand `concealed` (before the win) beside `melds`, fifth copies left out."""
    every = held(concealed, melds)
    found = set()
    for kind in SUITED_KINDS:
        if every[kind] < 4:
            standing = dict(concealed)
            standing[kind] = standing.get(kind, 0) + 1
            if readings(standing, melds):
                found.add(kind)
    return found


def hand_fans(standing, melds, win, flags, standard_readings):
    """The fans that do not depend on the reading."""
    every = held(standing, melds)
    kinds = [kind for kind in SUITED_KINDS if every[kind]]
    fans = {}
    if len({suit(kind) for kind in kinds}) == 1:
        fans[Fan.FULL_FLUSH] = 1
    fans[Fan.ROOT] = sum(1 for kind in kinds if every[kind] == 4)
    if all(rank(kind) not in (1, 9) for kind in kinds):
        fans[Fan.ALL_SIMPLES] = 1
    if all(code == MELD_CONCEALED_KONG for code, _ in melds):
        fans[Fan.CONCEALED_HAND] = 1
    for first in SUITED_KINDS:
        if rank(first) <= 7 and all(standing.get(first + step, 0) >= 2 for step in range(3)):
            fans[Fan.SISTER_PAIRS] = 1
    if rank(win) == 5 and any(("chow", win - 1) in sets for _, _, sets in standard_readings):
        fans[Fan.MIDDLE_FIVE] = 1
    self_drawn = bool(flags & SELF_DRAWN_FLAG)
    if every[win] > 1:  # the robbed pong and its added tile are all four copies
        flags &= ~ROBBING_KONG_FLAG
    if not any(code in (MELD_KONG, MELD_CONCEALED_KONG) for code, _ in melds):
        flags &= ~KONG_REPLACEMENT_FLAG
    for bit, fan in (
        (SELF_DRAWN_FLAG, Fan.SELF_DRAWN),
        (KONG_REPLACEMENT_FLAG, Fan.OUT_WITH_REPLACEMENT_TILE),
        (ROBBING_KONG_FLAG, Fan.ROBBING_THE_KONG),
        (DISCARD_AFTER_KONG_FLAG, Fan.DISCARD_AFTER_KONG),
        (READY_FLAG, Fan.READY_HAND),
        (HEAVENLY_HAND_FLAG, Fan.HEAVENLY_HAND),
        (EARTHLY_HAND_FLAG, Fan.EARTHLY_HAND),
    ):
        if flags & bit:
            fans[fan] = 1
    if flags & LAST_WALL_TILE_FLAG:
        fans[Fan.LAST_TILE_DRAW if self_drawn else Fan.LAST_TILE_CLAIM] = 1
    return fans, every


def reading_fans(reading, standing, melds, win, every, hand_level):
    fans = dict(hand_level)
    flush = Fan.FULL_FLUSH in hand_level
    only_258 = all(rank(kind) in (2, 5, 8) for kind in SUITED_KINDS if every[kind])
    if reading[0] == "seven_pairs":
        luxury = any(count == 4 for count in standing.values())
        fans[Fan.SEVEN_PAIRS] = 1
        if luxury:
            fans[Fan.LUXURY_SEVEN_PAIRS] = 1
            if only_258:
                fans[Fan.SEVEN_PAIRS_OF_258] = 1
        if flush:
            fans[Fan.FULL_FLUSH_SEVEN_PAIRS] = 1
            if luxury:
                fans[Fan.FULL_FLUSH_LUXURY_SEVEN_PAIRS] = 1
        return fans
    _, pair, sets = reading
    fans[Fan.BASIC_WIN] = 1
    if all(kind == "pung" for kind, _ in sets):
        fans[Fan.ALL_PUNGS] = 1
        if flush:
            fans[Fan.FULL_FLUSH_PUNGS] = 1
        if only_258:
            fans[Fan.PUNGS_OF_258] = 1
    chows = {first for kind, first in sets if kind == "chow"}
    if win == 19 and 18 in chows:
        before = dict(standing)
        before[win] -= 1
        if winning_kinds(before, melds) == {19}:
            fans[Fan.CLOSED_TWO_BAMBOO] = 1
    if any({start, start + 3, start + 6} <= chows for start in (9, 18)):
        fans[Fan.PURE_STRAIGHT] = 1

    def holds_terminal(kind, first):
        tiles = [first, first + 1, first + 2] if kind == "chow" else [first]
        return any(rank(tile) in (1, 9) for tile in tiles)

    if rank(pair) in (1, 9) and all(holds_terminal(kind, first) for kind, first in sets):
        fans[Fan.ALL_TERMINAL_SETS] = 1
        if flush:
            fans[Fan.FULL_FLUSH_TERMINAL_SETS] = 1
    if len(melds) == 4:
        fans[Fan.GOLDEN_HOOK] = 1
        if only_258:
            fans[Fan.GOLDEN_HOOK_OF_258] = 1
        if flush:
            fans[Fan.FULL_FLUSH_GOLDEN_HOOK] = 1
    return fans


def counted(fans, ruleset):
    """Drop fans the ruleset does not score, then apply its exclusions in order of value. The fans that
    exclude 根 are seven pairs built on one four-of-a-kind: they take that four's 根 only."""
    listed = sorted((fan for fan, count in fans.items() if count > 0 and ruleset.values[fan] > 0), key=lambda fan: ruleset.priority[fan])
    excluded = set()
    kept = {}
    for fan in listed:
        if fan in excluded:
            continue
        kept[fan] = fans[fan]
        excluded |= ruleset.excludes(fan) - {Fan.ROOT}
    roots_taken = sum(1 for fan in kept if Fan.ROOT in ruleset.excludes(fan))
    if Fan.ROOT in kept:
        kept[Fan.ROOT] -= roots_taken
        if kept[Fan.ROOT] <= 0:
            del kept[Fan.ROOT]
    return kept


def value(fans, ruleset):
    if ruleset.combine == "multiply":
        product = 1
        for fan, count in fans.items():
            product *= int(ruleset.values[fan]) ** count
        return product
    return 2 ** sum(int(ruleset.values[fan]) * count for fan, count in fans.items())


def reading_scores(concealed, melds, win, flags, ruleset):
    """[(value, {fan: count})] for every reading of the hand; [] when it is not a win.
    concealed: {kind: count} without the winning tile; melds: [(code, kind)]."""
    standing = {kind: count for kind, count in concealed.items() if count}
    standing[win] = standing.get(win, 0) + 1
    if sum(standing.values()) != 14 - 3 * len(melds) or any(code not in (MELD_PONG, MELD_KONG, MELD_CONCEALED_KONG) for code, _ in melds):
        return []
    found = readings(standing, melds)
    if not found:
        return []
    standard = [reading for reading in found if reading[0] == "standard"]
    hand_level, every = hand_fans(standing, melds, win, flags, standard)
    if any(count > 4 for count in every.values()):
        return []
    scores = []
    for reading in found:
        fans = counted(reading_fans(reading, standing, melds, win, every, hand_level), ruleset)
        scores.append((value(fans, ruleset), fans))
    return scores


def best(concealed, melds, win, flags, ruleset):
    """(best value, [the fan dicts of every reading reaching it]); (-1, []) when not a win."""
    scores = reading_scores(concealed, melds, win, flags, ruleset)
    if not scores:
        return -1, []
    top = max(score for score, _ in scores)
    return top, [fans for score, fans in scores if score == top]


def best_discard_value(concealed, melds, flags, ruleset):
    """The 查叫 value: the best win on a discard over the tiles the hand could still receive; 0 if not ready."""
    held = {kind: concealed.get(kind, 0) for kind in SUITED_KINDS}
    for code, kind in melds:
        held[kind] += 3 if code == MELD_PONG else 4
    values = [best(concealed, melds, tile, flags & ~SELF_DRAWN_FLAG, ruleset)[0] for tile in SUITED_KINDS if held[tile] < 4]
    return max([0, *values])

"""The slow, obviously correct twin of the `erren-challenge` fan evaluator (docs/rules/erren-challenge.md, RULES.md §7,
seed 004's 闯关 game), written from the specification alone, in plain Python.

It enumerates every reading of a winning hand by brute force: every partition of the concealed tiles and the
winning tile into chows, pungs and one pair (beside the declared melds), seven pairs (a four-of-a-kind counting as
two pairs) and thirteen orphans; and for each reading every set the winning tile may complete (it decides
平和's two-sided wait and whether a pung completed by a discard is concealed). Each reading is scored fan by fan
straight from §7, the exclusions of sim/rulesets/erren-challenge.toml are applied, and the reading with the most
points wins; between readings of equal points, the tie-break of the rules book (``tie_break_key``): the higher
total before the 13-fan cap, then more fans (花牌 aside), then the higher highest fan, then the fans that come first
in the rules book's order.

`score` is the entry point; `readings` and `reading_fans` are exposed so the tests can compare single readings with
the `mahjong` package (tests/erren/challenge/test_reference.py). Values, exclusions and the points formula come from the
toml file, read here with tomllib rather than the project's loader, so that the twin shares nothing but the
data with the code it checks.
"""

import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from kernels.fan_ids import (
    EARTHLY_HAND_FLAG,
    EXTRA_DRAW_FLAG,
    HEAVENLY_HAND_FLAG,
    HEAVENLY_READY_FLAG,
    HUMAN_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
)
from kernels.tiles import MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG
from sim.core.notation import parse_hand, parse_tile, parse_tiles

RULESET_PATH = Path(__file__).resolve().parents[3] / "sim" / "rulesets" / "erren-challenge.toml"
RULESET = tomllib.loads(RULESET_PATH.read_text(encoding="utf-8"))
FANS = RULESET["fans"]
LIMIT_FANS = frozenset(fan for fan, entry in FANS.items() if entry.get("limit", False))
FAN_CAP = RULESET["points"]["fan_cap"]
PER_FAN_STEP = RULESET["points"]["per_fan_step"]
PER_LIMIT = RULESET["points"]["per_limit"]

NOT_A_WIN = None  # what `score` returns for a hand that is not complete
# The rules book's order of the fans: by decreasing value, then as the file lists them.
BOOK_ORDER = sorted(FANS, key=lambda fan: (-FANS[fan]["value"], list(FANS).index(fan)))

WINDS = (27, 28, 29, 30)
EAST, NORTH = 27, 30
DRAGONS = (31, 32, 33)
GREEN_DRAGON, RED_DRAGON = 32, 33
SUITS = (0, 1, 2)  # 万, 筒, 条
GREEN_TILES = frozenset({19, 20, 21, 23, 25, GREEN_DRAGON})  # 2s 3s 4s 6s 8s 发
RED_PEACOCK_TILES = frozenset({18, 22, 24, 26, RED_DRAGON})  # 1s 5s 7s 9s 中
NINE_GATES_RANKS = (3, 1, 1, 1, 1, 1, 1, 1, 3)  # the concealed 13 before the winning tile: 1112345678999


def is_honour(kind):
    return kind >= 27


def suit_of(kind):
    return kind // 9  # 3 for honours


def rank_of(kind):
    """1-9 for suit tiles."""
    return kind % 9 + 1


def is_terminal(kind):
    return not is_honour(kind) and rank_of(kind) in (1, 9)


def is_terminal_or_honour(kind):
    return is_honour(kind) or is_terminal(kind)


@dataclass(frozen=True)
class Group:
    """One set or the pair of a reading. shape: "chow", "pung", "kong" or "pair"; first: its lowest kind;
    source: "hand" (formed from the concealed tiles), "exposed" (a claimed chow, pong or exposed kong) or
    "concealed_kong"."""

    shape: str
    first: int
    source: str = "hand"

    @property
    def tiles(self):
        if self.shape == "chow":
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * {"pair": 2, "pung": 3, "kong": 4}[self.shape]

    @property
    def is_pung_or_kong(self):
        return self.shape in ("pung", "kong")


@dataclass(frozen=True)
class Reading:
    """form: "standard" (four sets and a pair; `groups` holds the sets, the declared melds included, then the
    pair), "seven_pairs" (seven "pair" groups) or "thirteen_orphans" (no groups). `win_group` is the index in
    `groups` of the group the winning tile completes (-1 for thirteen orphans)."""

    form: str
    groups: tuple
    win_group: int

    @property
    def decomposition(self):
        """The reading without the winning tile's place: what the `mahjong` package calls a hand division."""
        return (self.form, tuple(sorted((group.shape, group.first) for group in self.groups)))

    @property
    def sets(self):
        return [group for group in self.groups if group.shape != "pair"]

    @property
    def pair(self):
        pairs = [group.first for group in self.groups if group.shape == "pair"]
        return pairs[0] if self.form == "standard" else None


@dataclass
class NaiveScore:
    fans: dict  # fan id -> count, only nonzero; only the 役满 if there is any
    total: int  # regular fans after exclusions, capped at 13; 0 for a 役满 hand
    limits: int  # number of 役满
    points: int
    reading: Reading = None  # the best reading


# ---------------------------------------------------------------------------------------------- readings
def _set_partitions(counts):
    """Every way to split exactly `counts` (a list of 34) into chows and pungs, as tuples of Groups (the same
    multiset may come more than once, e.g. 111123 as pung + chow and as chow + pung; `readings` drops repeats)."""
    kinds = [kind for kind in range(34) if counts[kind] > 0]
    if not kinds:
        return [()]
    lowest = kinds[0]  # its tiles can only be in a pung of it or a chow starting at it
    found = []
    if counts[lowest] >= 3:
        rest = list(counts)
        rest[lowest] -= 3
        found += [(Group("pung", lowest),) + sets for sets in _set_partitions(rest)]
    if not is_honour(lowest) and rank_of(lowest) <= 7 and counts[lowest + 1] > 0 and counts[lowest + 2] > 0:
        rest = list(counts)
        for kind in (lowest, lowest + 1, lowest + 2):
            rest[kind] -= 1
        found += [(Group("chow", lowest),) + sets for sets in _set_partitions(rest)]
    return found


def meld_group(code, kind):
    if code == MELD_CHOW:
        return Group("chow", kind, "exposed")
    if code == MELD_PONG:
        return Group("pung", kind, "exposed")
    if code == MELD_KONG:
        return Group("kong", kind, "exposed")
    if code == MELD_CONCEALED_KONG:
        return Group("kong", kind, "concealed_kong")
    raise ValueError(f"unknown meld code {code}")


def _with_placements(form, groups, win):
    """One Reading per distinct concealed group that holds the winning tile's kind."""
    found, seen = [], set()
    for index, group in enumerate(groups):
        if group.source == "hand" and win in group.tiles and (group.shape, group.first) not in seen:
            seen.add((group.shape, group.first))
            found.append(Reading(form, groups, index))
    return found


def readings(concealed, melds, win):
    """Every reading of the hand: `concealed` 34 counts without the winning tile, `melds` [(code, kind)]."""
    standing = [int(count) for count in concealed]
    standing[win] += 1
    meld_groups = tuple(meld_group(int(code), int(kind)) for code, kind in melds)
    if sum(standing) + 3 * len(meld_groups) != 14:
        return []
    found = []
    for pair in range(34):
        if standing[pair] >= 2:
            rest = list(standing)
            rest[pair] -= 2
            for sets in _set_partitions(rest):
                if len(sets) + len(meld_groups) == 4:
                    sets = tuple(sorted(sets, key=lambda group: (group.shape, group.first)))
                    for reading in _with_placements("standard", meld_groups + sets + (Group("pair", pair),), win):
                        if reading not in found:
                            found.append(reading)
    if not meld_groups and sum(standing) == 14 and all(count % 2 == 0 for count in standing):
        pairs = tuple(Group("pair", kind) for kind in range(34) for _ in range(standing[kind] // 2))
        found += _with_placements("seven_pairs", pairs, win)
    orphans = [kind for kind in range(34) if is_terminal_or_honour(kind)]
    if not meld_groups and all(standing[kind] >= 1 for kind in orphans) and sum(standing[k] for k in orphans) == 14:
        found.append(Reading("thirteen_orphans", (), -1))
    return found


# ------------------------------------------------------------------------------------------------ fans
def held_counts(concealed, melds, win):
    """Copies of each kind the winner holds: the concealed tiles, the winning tile and every meld (a kong's four)."""
    held = [int(count) for count in concealed]
    held[win] += 1
    for code, kind in melds:
        for tile in meld_group(int(code), int(kind)).tiles:
            held[tile] += 1
    return held


def is_concealed_hand(melds):
    """§7: "concealed" means no chow, pong or exposed kong (concealed kongs allowed)."""
    return all(int(code) == MELD_CONCEALED_KONG for code, _ in melds)


def is_self_drawn(flags):
    """A robbed kong is scored as a self-drawn win (抢杠记分按自摸计), and so is a win in the extra draws."""
    return bool(flags & (SELF_DRAWN_FLAG | ROBBING_KONG_FLAG | EXTRA_DRAW_FLAG))


def concealed_pungs(reading, flags):
    """Pungs formed in the hand and concealed kongs; a pung the winning tile completes from a discard is not
    concealed (碰牌不算)."""
    won_on_discard = not is_self_drawn(flags)
    count = 0
    for index, group in enumerate(reading.groups):
        if group.shape == "pung" and group.source == "hand":
            if not (index == reading.win_group and won_on_discard):
                count += 1
        elif group.shape == "kong" and group.source == "concealed_kong":
            count += 1
    return count


def _wait_is_two_sided(reading, win):
    """The winning tile completed a chow from two consecutive tiles open at both ends (not 12 waiting on 3, 89 on
    7, nor the middle tile)."""
    group = reading.groups[reading.win_group]
    if group.shape != "chow":
        return False
    first_rank = rank_of(group.first)
    if win == group.first:  # waited on the pair of tiles above: two-sided unless they are 8 9
        return first_rank != 7
    if win == group.first + 2:  # waited on the pair below: two-sided unless they are 1 2
        return first_rank != 1
    return False  # the middle tile: a closed wait


def _pungs_by_kind(reading):
    return {group.first for group in reading.sets if group.is_pung_or_kong}


def _chow_firsts(reading):
    return Counter(group.first for group in reading.sets if group.shape == "chow")


def _has_pure_straight(reading):
    chows = _chow_firsts(reading)
    return any(all(chows[9 * suit + start] for start in (0, 3, 6)) for suit in SUITS)


def _consecutive_pung_runs(reading, length):
    pungs = _pungs_by_kind(reading)
    for suit in SUITS:
        for start in range(9 - length + 1):
            if all(9 * suit + start + step in pungs for step in range(length)):
                return True
    return False


def regular_fans(reading, concealed, melds, win, flags, bonus):
    """The regular fans of one reading, before the exclusions and before 推倒胡 (a Counter of fan ids)."""
    held = held_counts(concealed, melds, win)
    kinds = [kind for kind in range(34) if held[kind]]
    suits = {suit_of(kind) for kind in kinds if not is_honour(kind)}
    has_honour = any(is_honour(kind) for kind in kinds)
    concealed_hand = is_concealed_hand(melds)
    self_drawn = is_self_drawn(flags)
    standard = reading.form == "standard"
    fans = Counter()

    # how and when the hand was won
    if concealed_hand:
        fans["concealed_hand"] = 1
    if flags & READY_FLAG and concealed_hand:
        fans["ready_hand"] = 1
    if flags & HEAVENLY_READY_FLAG:
        fans["heavenly_ready"] = 1
    if concealed_hand and self_drawn:
        fans["fully_concealed_hand"] = 1
    if flags & KONG_REPLACEMENT_FLAG and flags & SELF_DRAWN_FLAG:
        fans["out_with_replacement_tile"] = 1
    if flags & LAST_WALL_TILE_FLAG and flags & SELF_DRAWN_FLAG and not flags & KONG_REPLACEMENT_FLAG:
        fans["last_tile_draw"] = 1  # a kong replacement is never also 海底摸月: 杠上开花 wins then
    if flags & LAST_WALL_TILE_FLAG and not self_drawn:
        fans["last_tile_claim"] = 1  # a robbed kong's tile is no discard
    if flags & EXTRA_DRAW_FLAG:
        fans["extra_draw_win"] = 1
    flowers = sum(held[kind] * int(bonus[kind]) for kind in range(34))
    if flowers:
        fans["flower_tiles"] = flowers

    # the tiles, whatever the reading
    if all(not is_terminal_or_honour(kind) for kind in kinds):
        fans["all_simples"] = 1
    if len(suits) == 1 and has_honour:
        fans["half_flush"] = 1
    if len(suits) == 1 and not has_honour:
        fans["full_flush"] = 1

    if reading.form == "seven_pairs":
        fans["seven_pairs"] = 1
        if held[win] == 4:  # the winning tile makes the four-of-a-kind
            fans["luxury_seven_pairs"] = 1

    if standard:
        sets, pair = reading.sets, reading.pair
        chows = _chow_firsts(reading)
        pungs = _pungs_by_kind(reading)
        if concealed_hand and sum(count // 2 for count in chows.values()) >= 1:
            fans["pure_double_chow"] = 1
        if concealed_hand and sum(count // 2 for count in chows.values()) >= 2:
            fans["two_pure_double_chows"] = 1
        if (
            concealed_hand
            and all(group.shape == "chow" for group in sets)
            and not is_honour(pair)
            and _wait_is_two_sided(reading, win)
        ):
            fans["all_chows"] = 1
        if all(group.is_pung_or_kong for group in sets):
            fans["all_pungs"] = 1
        if any(all(9 * suit + start in chows for suit in SUITS) for start in range(7)):
            fans["mixed_triple_chow"] = 1
        if concealed_pungs(reading, flags) >= 3:
            fans["three_concealed_pungs"] = 1
        if _consecutive_pung_runs(reading, 3):
            fans["pure_shifted_pungs"] = 1
        if any(all(9 * suit + start in pungs for suit in SUITS) for start in range(9)):
            fans["triple_pung"] = 1
        every_group_outside = all(any(is_terminal_or_honour(tile) for tile in group.tiles) for group in reading.groups)
        every_group_terminal = all(any(is_terminal(tile) for tile in group.tiles) for group in reading.groups)
        if every_group_outside and has_honour and chows:
            fans["outside_hand"] = 1
        if every_group_terminal and not has_honour and chows:
            fans["pure_outside_hand"] = 1
        if (
            all(group.is_pung_or_kong for group in sets)
            and all(is_terminal_or_honour(kind) for kind in kinds)
            and has_honour
            and any(is_terminal(kind) for kind in kinds)
        ):
            fans["all_terminals_and_honors"] = 1
        dragon_pungs = sum(1 for kind in DRAGONS if kind in pungs)
        if dragon_pungs == 2 and pair in DRAGONS:
            fans["little_three_dragons"] = 1
        if _has_pure_straight(reading):
            fans["pure_straight"] = 1
    return fans


def limit_fans(reading, concealed, melds, win, flags, bonus):
    """The 役满 of one reading (a Counter of fan ids)."""
    held = held_counts(concealed, melds, win)
    kinds = [kind for kind in range(34) if held[kind]]
    standard = reading.form == "standard"
    fans = Counter()
    if flags & HEAVENLY_HAND_FLAG:
        fans["heavenly_hand"] = 1
    if flags & HUMAN_HAND_FLAG:
        fans["human_hand"] = 1
    if flags & EARTHLY_HAND_FLAG:
        fans["earthly_hand"] = 1
    if reading.form == "thirteen_orphans":
        fans["thirteen_orphans"] = 1
    if reading.form == "seven_pairs":
        pair_kinds = {group.first for group in reading.groups}
        if any(pair_kinds == {9 * suit + rank for rank in range(1, 8)} for suit in SUITS):
            fans["big_wheels"] = 1  # 22334455667788 of one suit: "清一色的断幺九的七对子"
    if all(kind < 9 for kind in kinds) and sum(rank_of(kind) * held[kind] for kind in kinds) >= 100:
        fans["million_stones"] = 1  # any reading: 004 names no form
    if all(kind in GREEN_TILES for kind in kinds):
        fans["all_green"] = 1  # "可以乱牌": any form, seven pairs included
    if not melds:
        for suit in SUITS:
            ranks = tuple(int(concealed[9 * suit + rank]) for rank in range(9))
            if ranks == NINE_GATES_RANKS and suit_of(win) == suit and sum(concealed) == 13:
                fans["nine_gates"] = 1  # the pure form: the 13 before the win wait on all nine
    if standard:
        sets, pair = reading.sets, reading.pair
        pungs = _pungs_by_kind(reading)
        wind_pungs = sum(1 for kind in WINDS if kind in pungs)
        if wind_pungs == 3 and pair in WINDS:
            fans["little_four_winds"] = 1
        if wind_pungs == 4:
            fans["big_four_winds"] = 1
        if all(kind in pungs for kind in DRAGONS):
            fans["big_three_dragons"] = 1
        if concealed_pungs(reading, flags) == 4:
            fans["four_concealed_pungs"] = 1
        if _consecutive_pung_runs(reading, 4):
            fans["four_pure_shifted_pungs"] = 1
        if sum(1 for group in sets if group.shape == "kong") == 4:
            fans["four_kongs"] = 1
        if all(is_honour(kind) for kind in kinds):
            fans["all_honors"] = 1  # the standard reading is the pung form
        if all(is_terminal(kind) for kind in kinds):
            fans["all_terminals"] = 1
        if all(kind in RED_PEACOCK_TILES for kind in kinds):
            fans["red_peacock"] = 1
        if _has_pure_straight(reading) and ((EAST in pungs and pair == NORTH) or (NORTH in pungs and pair == EAST)):
            fans["northeast_express"] = 1
    return fans


def apply_exclusions(fans):
    """Drop every fan a present fan excludes (sim/rulesets/erren-challenge.toml)."""
    excluded = {other for fan in fans for other in FANS[fan]["excludes"]}
    return Counter({fan: count for fan, count in fans.items() if fan not in excluded and count})


def fan_total(fans):
    return sum(FANS[fan]["value"] * count for fan, count in fans.items())


@dataclass
class ReadingScore:
    reading: Reading
    regular: Counter  # after exclusions, 推倒胡 included; what the hand scores if it has no 役满
    limits: Counter
    points: int
    uncapped: int  # the regular total before the cap

    @property
    def fans(self):
        return dict(self.limits) if self.limits else dict(self.regular)


def reading_fans(reading, concealed, melds, win, flags=0, bonus=None):
    bonus = bonus if bonus is not None else [0] * 34
    regular = apply_exclusions(regular_fans(reading, concealed, melds, win, flags, bonus))
    if not any(fan != "flower_tiles" for fan in regular):
        regular["basic_win"] = 1  # a complete hand with no other fan but 花牌
    limits = limit_fans(reading, concealed, melds, win, flags, bonus)
    uncapped = fan_total(regular)
    if limits:
        points = fan_total(limits) * PER_LIMIT
    else:
        capped = min(uncapped, FAN_CAP)
        points = capped * (capped + 1) * PER_FAN_STEP
    return ReadingScore(reading, regular, limits, points, uncapped)


def reading_scores(concealed, melds, win, flags=0, bonus=None):
    return [reading_fans(reading, concealed, melds, win, flags, bonus) for reading in readings(concealed, melds, win)]


def tie_break_key(entry):
    """What ranks a reading, the larger the better: its points; its total before the cap (a 役满 hand scores no
    regular fan, so 0); how many fans it scores, 花牌 aside; the value of its highest fan; and which fans it holds,
    in the rules book's order (the first fan one reading holds and the other does not goes to the better)."""
    fans = entry.fans
    return (entry.points, 0 if entry.limits else entry.uncapped,
            sum(count for fan, count in fans.items() if fan != "flower_tiles"),
            max(FANS[fan]["value"] for fan in fans),
            tuple(fan in fans for fan in BOOK_ORDER))


def score(concealed, melds, win, flags=0, bonus=None):
    """The best reading's score, or NOT_A_WIN. concealed: 34 counts without the winning tile; melds: [(code, kind)];
    win: the winning kind; flags: the win-context bits; bonus: 34 counts of the face-up bonus tiles."""
    scored = reading_scores(concealed, melds, win, flags, bonus)
    if not scored:
        return NOT_A_WIN
    chosen = max(scored, key=tie_break_key)
    limits = fan_total(chosen.limits)
    total = 0 if limits else min(chosen.uncapped, FAN_CAP)
    return NaiveScore(chosen.fans, total, limits, chosen.points, chosen.reading)


# ------------------------------------------------------------------------------------------ hand text
def hand_arguments(text, win_text, flags=0, bonus_text=""):
    """(concealed, melds, win, flags, bonus) of hand text holding all 14 tiles (melds in brackets); the winning
    tile is taken out of the concealed tiles once."""
    hand = parse_hand(text, sizes=(14,))
    win = parse_tile(win_text)
    concealed = list(hand.concealed)
    if concealed[win] == 0:
        raise ValueError(f"the winning tile {win_text} is not among the concealed tiles of {text!r}")
    concealed[win] -= 1
    melds = [(int(meld.kind), meld.first) for meld in hand.melds]
    bonus = [int(count) for count in parse_tiles(bonus_text)] if bonus_text else [0] * 34
    return concealed, melds, win, flags, bonus


def score_text(text, win_text, flags=0, bonus_text=""):
    """`score` of hand text, e.g. score_text("123m456p[789s](1111z)55z", "5z")."""
    return score(*hand_arguments(text, win_text, flags, bonus_text))

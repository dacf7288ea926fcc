"""The `erren-challenge` fan evaluator (kernels/fans/challenge.py) against its slow twin (tests/erren/challenge/naive_challenge.py)
on every generated hand and golden hand, and the twin against the PyPI `mahjong` package (riichi rules, 2.1.0) fan
by fan, and against the golden hands of tests/erren/challenge/challenge_hands.py for the fans riichi lacks. So the kernel agrees
with the package on every shared fan of the generated hands, through a twin that is obviously the rules.

§7 follows standard riichi wherever 004 is silent (open 断幺, 人和 a 役满, 大车轮 in every suit), so every fan the
two share must be present on exactly the same hands. Two things are not compared blindly:

- Which reading is "best" differs (riichi ranks by han and fu, §7 by 004's points), so the comparison runs one
  decomposition at a time: `HandDivider.divide_hand` is patched to hand the package a single decomposition, and the
  package's own code picks the winning tile's place within it (only 平和 depends on that place there, and both
  sides take 平和 whenever a place allows it; riichi's 三暗刻 already counts a pung as concealed when a chow could
  take the winning tile, as our best place does). The decompositions themselves must be the same on both sides.
- A few conditions deliberately differ; each is mapped narrowly in `_expected_from_package` with its §7 argument and
  pinned by a test below showing the hand and both answers.

The package is called with player_wind = round_wind = None: no wind is a value tile, so there is no wind yakuhai
(unshared anyway), the dealer checks of 天和/地和/人和 are off (the context bits say who won how), and a wind pair
gives no fu; that last point is the one place winds still differ (riichi 平和 on a wind pair, below).
"""

import time
from collections import Counter
from contextlib import contextmanager
from unittest import mock

import challenge_hands
import naive_challenge as naive
import numpy as np
import pytest
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.hand import HandCalculator

from kernels.fan_ids import (
    EARTHLY_HAND_FLAG,
    EXTRA_DRAW_FLAG,
    FAN_IDS,
    HEAVENLY_HAND_FLAG,
    HEAVENLY_READY_FLAG,
    HUMAN_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    N_FANS,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
)
from kernels.fans import challenge as challenge_kernel
from kernels.fans.challenge import LIMITS, NOT_A_WIN, POINTS, TOTAL, score_many
from kernels.tiles import MELD_CONCEALED_KONG, MELD_KONG
from sim.core.ruleset import load_ruleset
from sim.erren.challenge.hand_generator import random_challenge_hands
from sim.erren.challenge.riichi_reference import package_config, package_tiles

N_HANDS = 20_000
MIN_OCCURRENCES = 20

# The package's yaku (class names) and the fan ids they are.
SHARED_REGULAR = {
    "Pinfu": "all_chows",
    "Tanyao": "all_simples",
    "Iipeiko": "pure_double_chow",
    "Ryanpeikou": "two_pure_double_chows",
    "Chiitoitsu": "seven_pairs",
    "Toitoi": "all_pungs",
    "Sanshoku": "mixed_triple_chow",
    "Sanankou": "three_concealed_pungs",
    "SanshokuDoukou": "triple_pung",
    "Chantai": "outside_hand",
    "Junchan": "pure_outside_hand",
    "Honroto": "all_terminals_and_honors",
    "Honitsu": "half_flush",
    "Chinitsu": "full_flush",
    "Shosangen": "little_three_dragons",
    "Ittsu": "pure_straight",
    "Rinshan": "out_with_replacement_tile",
    "Haitei": "last_tile_draw",
    "Houtei": "last_tile_claim",
    "Riichi": "ready_hand",
    "DaburuRiichi": "heavenly_ready",
    "Tsumo": "fully_concealed_hand",
}
SHARED_LIMITS = {
    "Tenhou": "heavenly_hand",
    "RenhouYakuman": "human_hand",
    "Chiihou": "earthly_hand",
    "Shousuushii": "little_four_winds",
    "DaiSuushii": "big_four_winds",
    "Daisangen": "big_three_dragons",
    "Daisharin": "big_wheels",
    "Suuankou": "four_concealed_pungs",
    "SuuankouTanki": "four_concealed_pungs",
    "Suukantsu": "four_kongs",
    "Tsuuiisou": "all_honors",
    "Chinroutou": "all_terminals",
    "Ryuuiisou": "all_green",
    "DaburuChuurenPoutou": "nine_gates",  # the pure form, waiting on all nine
    "KokushiMusou": "thirteen_orphans",
    "DaburuKokushiMusou": "thirteen_orphans",
}
IMPURE_NINE_GATES = "ChuurenPoutou"  # riichi's 九莲 on a single wait: no 役满 in §7
PACKAGE_LIMIT_NAMES = set(SHARED_LIMITS) | {IMPURE_NINE_GATES}  # every yakuman these options let the package find
SHARED_FANS = set(SHARED_REGULAR.values()) | set(SHARED_LIMITS.values())


# ------------------------------------------------------------------------------------------ the package
def _block_key(block):
    if len(block) == 2:
        return ("pair", block[0])
    if len(block) == 4:
        return ("kong", block[0])
    return ("pung" if block[0] == block[1] else "chow", block[0])


def _decomposition_key(blocks):
    return ("seven_pairs" if len(blocks) == 7 else "standard", tuple(sorted(_block_key(block) for block in blocks)))


@contextmanager
def _only_decompositions(decompositions):
    """The package sees only `decompositions` of the hand (its yaku code then runs on them unchanged)."""
    with mock.patch.object(HandDivider, "divide_hand", staticmethod(lambda tiles_34, melds=None: decompositions)):
        yield


def _estimate(tiles, win_tile, package_melds, melds, flags):
    """The package's yaku class names; an empty set when it finds no yaku, None when the hand is no win to it."""
    config = package_config(melds, flags)
    response = HandCalculator.estimate_hand_value(tiles, win_tile, package_melds, config=config)
    if response.error == HandCalculator.ERR_HAND_NOT_WINNING:
        return None
    assert response.error in (None, HandCalculator.ERR_NO_YAKU), response.error  # the context must be legal to it
    names = {type(yaku).__name__ for yaku in response.yaku or []}
    unknown_limits = {type(yaku).__name__ for yaku in response.yaku or [] if yaku.is_yakuman} - PACKAGE_LIMIT_NAMES
    assert not unknown_limits, unknown_limits
    return names


def package_readings(concealed, melds, win, flags):
    """{decomposition key: the package's yaku class names on that decomposition alone}, plus the key
    "thirteen_orphans" for its 国士无双 branch, which it tries outside the decompositions."""
    tiles, package_melds, win_tile = package_tiles(concealed, melds, win)
    tiles_34 = [0] * 34
    for tile in tiles:
        tiles_34[tile // 4] += 1
    found = {}
    for blocks in HandDivider.divide_hand(tiles_34, package_melds):
        with _only_decompositions([blocks]):
            found[_decomposition_key(blocks)] = _estimate(tiles, win_tile, package_melds, melds, flags)
    with _only_decompositions([]):
        names = _estimate(tiles, win_tile, package_melds, melds, flags)
    if names is not None:
        found["thirteen_orphans"] = names
    return found


# ---------------------------------------------------------------------------------------------- the twin
def twin_readings(hand):
    """{decomposition key: the twin's best-placed reading of it}, keyed as `package_readings` keys the package's."""
    best = {}
    for entry in naive.reading_scores(*hand):
        key = "thirteen_orphans" if entry.reading.form == "thirteen_orphans" else entry.reading.decomposition
        if key not in best or (entry.points, entry.uncapped) > (best[key].points, best[key].uncapped):
            best[key] = entry
    return best


def has_four_of_a_kind_pair(key):
    """A seven-pairs reading holding a four-of-a-kind as two pairs: §7 allows it, riichi does not."""
    return key != "thirteen_orphans" and key[0] == "seven_pairs" and len(set(key[1])) < 7


def compared_fans(entry, names, hand, applied):
    """(ours, theirs): the shared fans the twin and the package find on one decomposition, the deliberate differences
    mapped. `applied` counts how often each mapping was needed."""
    reading = entry.reading
    flags = hand[3]
    package_has_limit = bool(names & PACKAGE_LIMIT_NAMES)  # then the package dropped its regular yaku
    theirs_limits = {SHARED_LIMITS[name] for name in names if name in SHARED_LIMITS}
    theirs_regular = {SHARED_REGULAR[name] for name in names if name in SHARED_REGULAR}
    if reading.form == "seven_pairs" and "Tsuuiisou" in names:
        # §7 字一色: "all honours, pung form" (004: 形式必须为碰碰胡); riichi also takes the seven honour pairs.
        theirs_limits.discard("all_honors")
        applied["字一色 needs the pung form"] += 1
    if reading.form == "standard" and "Daisharin" in names:
        # §7 大车轮 is a seven-pairs hand ("清一色的断幺九的七对子"); the package tests only the tile counts, so it
        # also finds it on 234 234 567 567 88 and on open hands.
        theirs_limits.discard("big_wheels")
        applied["大车轮 only as seven pairs"] += 1
    if IMPURE_NINE_GATES in names:
        # §7 九莲宝灯: "the pure form only", 独听9门才算; riichi also scores 1112345678999+X won on another tile.
        applied["九莲宝灯 only the pure form"] += 1
    if reading.form == "seven_pairs" and "Honroto" in names:
        # §7 混老头: "all pungs and the pair" (碰碰胡 form); riichi also takes seven pairs of terminals and honours.
        theirs_regular.discard("all_terminals_and_honors")
        applied["混老头 needs the pung form"] += 1
    if reading.form == "standard" and reading.pair in naive.WINDS and "Pinfu" in names:
        # §7 平和: "a pair that is not an honour" (004: 将牌不能为字牌); with no seat or round wind riichi accepts
        # a wind pair.
        theirs_regular.discard("all_chows")
        applied["平和 forbids a wind pair"] += 1
    if flags & ROBBING_KONG_FLAG and naive.is_concealed_hand(hand[1]) and not package_has_limit:
        # §7: a robbed kong is scored as a self-drawn win (抢杠记分按自摸计), so a concealed hand scores 门清自摸;
        # riichi's chankan is a ron.
        theirs_regular.add("fully_concealed_hand")
        applied["抢杠 scores 门清自摸"] += 1
    if not names:
        applied["riichi finds no yaku"] += 1  # §7: every complete hand wins (min_fan 0); riichi then has nothing
    ours = set(entry.limits) & SHARED_FANS
    theirs = set(theirs_limits)
    if not package_has_limit:
        ours |= set(entry.regular) & SHARED_FANS
        theirs |= theirs_regular
    return ours, theirs


def compare_with_package(n_hands, seed=2026):
    """Generated hands, twin against package decomposition by decomposition."""
    start = time.perf_counter()
    hands = random_challenge_hands(np.random.default_rng(seed), n_hands)
    disagreements, reading_mismatches, not_wins = [], [], []
    seen, applied, best_fans = Counter(), Counter(), Counter()
    compared = 0
    twin_best = []
    for index in range(n_hands):
        hand = hands.hand(index)
        best = naive.score(*hand)
        twin_best.append(best)
        if best is naive.NOT_A_WIN:
            not_wins.append(index)
            continue
        best_fans.update(best.fans.keys())
        ours = twin_readings(hand)
        theirs = package_readings(*hand[:4])
        if {key for key in ours if not has_four_of_a_kind_pair(key)} != set(theirs):
            reading_mismatches.append((index, hand, sorted(ours, key=str), sorted(theirs, key=str)))
            continue
        present = set()
        for key, names in theirs.items():
            our_fans, their_fans = compared_fans(ours[key], names, hand, applied)
            compared += 1
            if our_fans != their_fans:
                disagreements.append((index, hand, key, sorted(our_fans), sorted(their_fans), sorted(names)))
            present |= our_fans & their_fans
        seen.update(present)
    seconds = time.perf_counter() - start
    return dict(
        hands=hands,
        twin_best=twin_best,
        best_fans=best_fans,
        disagreements=disagreements,
        reading_mismatches=reading_mismatches,
        not_wins=not_wins,
        seen=seen,
        applied=applied,
        compared=compared,
        seconds=seconds,
    )


@pytest.fixture(scope="module")
def comparison():
    return compare_with_package(N_HANDS)


def test_every_generated_hand_is_a_win(comparison):
    assert comparison["not_wins"] == []


def test_generated_hands_are_valid_and_their_contexts_typed(comparison):
    hands = comparison["hands"]
    for index in range(len(hands)):
        concealed, melds, win, flags, bonus = hands.hand(index)
        held = naive.held_counts(concealed, melds, win)
        assert max(copies + face_up for copies, face_up in zip(held, bonus)) <= 4  # a face-up tile is one of the 4
        assert sum(concealed) + 3 * len(melds) == 13 and 1 <= sum(bonus) <= 2
        self_drawn = bool(flags & SELF_DRAWN_FLAG)
        if flags & ROBBING_KONG_FLAG:  # the other three copies are the pong the robbed tile was added to
            assert not self_drawn and held[win] == 1 and bonus[win] == 0
        if flags & KONG_REPLACEMENT_FLAG:
            assert self_drawn and any(code in (MELD_KONG, MELD_CONCEALED_KONG) for code, _ in melds)
        if flags & (HEAVENLY_HAND_FLAG | EARTHLY_HAND_FLAG):
            assert self_drawn and not melds
        if flags & HUMAN_HAND_FLAG:
            assert not self_drawn and not melds
        if flags & HEAVENLY_READY_FLAG:
            assert flags & READY_FLAG and naive.is_concealed_hand(melds)
        if flags & EXTRA_DRAW_FLAG:
            assert self_drawn and flags & READY_FLAG and not flags & LAST_WALL_TILE_FLAG


def test_generated_hands_show_every_fan_of_the_ruleset(comparison):
    rare = {fan: comparison["best_fans"][fan] for fan in naive.FANS if comparison["best_fans"][fan] < MIN_OCCURRENCES}
    assert rare == {}


def test_both_find_the_same_decompositions_except_seven_pairs_with_a_four_of_a_kind(comparison):
    mismatches = comparison["reading_mismatches"]
    assert mismatches == [], f"{len(mismatches)} hands, e.g. {mismatches[:2]}"


def test_every_shared_fan_is_present_exactly_when_the_riichi_package_finds_it(comparison):
    disagreements = comparison["disagreements"]
    print(f"\n{comparison['compared']} decompositions of {N_HANDS} hands in {comparison['seconds']:.1f} s")
    print("mapped differences:", dict(comparison["applied"]))
    print("rarest shared fans:", sorted(comparison["seen"].items(), key=lambda item: item[1])[:8])
    assert disagreements == [], f"{len(disagreements)} decompositions disagree, e.g. {disagreements[:3]}"


def test_every_shared_fan_occurs_at_least_20_times(comparison):
    rare = {fan: comparison["seen"][fan] for fan in SHARED_FANS if comparison["seen"][fan] < MIN_OCCURRENCES}
    assert rare == {}


def test_every_deliberate_difference_is_met_on_the_generated_hands(comparison):
    """Each mapping below is exercised by the random hands too, not only by its pin."""
    expected = {
        "字一色 needs the pung form",
        "大车轮 only as seven pairs",
        "九莲宝灯 only the pure form",
        "混老头 needs the pung form",
        "平和 forbids a wind pair",
        "抢杠 scores 门清自摸",
        "riichi finds no yaku",
    }
    assert expected <= set(comparison["applied"])


# ------------------------------------------------------------------ the deliberate differences, one hand each
def _both(text, win_text, flags=0):
    hand = naive.hand_arguments(text, win_text, flags)
    return hand, twin_readings(hand), package_readings(*hand[:4])


def _standard_key(ours):
    keys = [key for key in ours if key != "thirteen_orphans" and key[0] == "standard"]
    assert len(keys) == 1
    return keys[0]


def test_pinfu_needs_a_pair_that_is_not_an_honour_while_riichi_accepts_a_plain_wind_pair():
    hand, ours, theirs = _both("234m567p345s678s11z", "2m")
    key = _standard_key(ours)
    assert "Pinfu" in theirs[key]
    assert "all_chows" not in ours[key].regular
    assert naive.score(*hand).fans == {"concealed_hand": 1}


def test_seven_pairs_may_hold_a_four_of_a_kind_which_riichi_cannot_read_as_seven_pairs():
    hand, ours, theirs = _both("2222m55p77p33s88s66z", "5p")
    assert theirs == {}
    assert naive.score(*hand).fans == {"seven_pairs": 1, "concealed_hand": 1}


def test_all_honours_needs_the_pung_form_while_riichi_scores_the_seven_honour_pairs():
    hand, ours, theirs = _both("11223344556677z", "7z")
    (key,) = ours
    assert "Tsuuiisou" in theirs[key]
    assert naive.score(*hand).fans == {"seven_pairs": 1, "concealed_hand": 1}


def test_all_terminals_and_honours_needs_the_pung_form_while_riichi_scores_seven_pairs():
    hand, ours, theirs = _both("1199m1199p11s2233z", "2z")
    (key,) = ours
    assert {"Chiitoitsu", "Honroto"} <= theirs[key]
    assert naive.score(*hand).fans == {"seven_pairs": 1, "concealed_hand": 1}


def test_nine_gates_is_only_the_pure_form_while_riichi_also_scores_the_single_wait():
    hand, ours, theirs = _both("11123455678999m", "3m")
    assert all(names & {IMPURE_NINE_GATES} for names in theirs.values())
    assert "nine_gates" not in naive.score(*hand).fans
    pure_hand, _, pure_theirs = _both("11123455678999m", "5m")
    assert all("DaburuChuurenPoutou" in names for names in pure_theirs.values())
    assert naive.score(*pure_hand).fans == {"nine_gates": 1}


def test_big_wheels_is_a_seven_pairs_hand_while_riichi_counts_tiles_on_any_decomposition():
    hand, ours, theirs = _both("22334455667788p", "8p")
    standard = [key for key in ours if key[0] == "standard"]
    assert standard and all("Daisharin" in theirs[key] for key in standard)
    assert all("big_wheels" not in ours[key].limits for key in standard)
    assert naive.score(*hand).fans == {"big_wheels": 1}
    open_hand, open_ours, open_theirs = _both("[234p]23455667788p", "8p")
    assert all("Daisharin" in names for names in open_theirs.values())
    assert "big_wheels" not in naive.score(*open_hand).fans


def test_a_concealed_hand_robbing_a_kong_scores_fully_concealed_while_riichi_counts_it_a_ron():
    hand, ours, theirs = _both("123m456p789s234s55z", "1m", ROBBING_KONG_FLAG)
    (key,) = ours
    assert "Chankan" in theirs[key] and "Tsumo" not in theirs[key]
    assert "fully_concealed_hand" in ours[key].regular


def test_every_complete_hand_wins_while_riichi_needs_a_yaku():
    hand, ours, theirs = _both("[123m]456p789s234s11z", "4p")
    (key,) = ours
    assert theirs[key] == set()
    assert naive.score(*hand).fans == {"basic_win": 1}


# -------------------------------------------------------------------------------------------- golden hands
@pytest.mark.parametrize("rule", list(challenge_hands.GOLDEN_BY_RULE))
def test_golden_hand(rule):
    text, win_text, flags, bonus_text, fans, points = challenge_hands.GOLDEN_BY_RULE[rule]
    result = naive.score_text(text, win_text, flags, bonus_text)
    assert result is not naive.NOT_A_WIN
    assert (result.fans, result.points) == (fans, points)


def test_golden_table_covers_every_fan_riichi_lacks():
    riichi_lacks = set(naive.FANS) - SHARED_FANS
    in_table = {fan for *_, fans, _ in challenge_hands.GOLDEN for fan in fans}
    assert riichi_lacks - in_table == set()


def test_an_incomplete_hand_is_not_a_win():
    assert naive.score_text("123m456p789s234s17z", "7z") is naive.NOT_A_WIN


# -------------------------------------------------------------------------------------------- the kernel


def _kernel_fans(counts, row, ruleset):
    return {FAN_IDS[fan]: int(counts[row, fan]) for fan in range(N_FANS) if counts[row, fan]}


def test_the_kernel_scores_every_generated_hand_as_the_twin_does(comparison):
    """The same points, fan total and 役满 count, and the fans of the best reading: where readings tie on points,
    the rules book's tie-break picks one, so the fans agree exactly."""
    ruleset = load_ruleset("erren-challenge")
    hands = comparison["hands"]
    counts, results = score_many(*hands.kernel_arrays(), ruleset)
    differ = []
    for index, best in enumerate(comparison["twin_best"]):
        ours = _kernel_fans(counts, index, ruleset)
        if best is naive.NOT_A_WIN:
            if results[index, POINTS] != NOT_A_WIN:
                differ.append((index, "twin: not a win", ours))
            continue
        kernel = (int(results[index, POINTS]), int(results[index, TOTAL]), int(results[index, LIMITS]))
        if kernel != (best.points, best.total, best.limits) or ours != best.fans:
            differ.append((index, hands.hand(index), kernel, ours, (best.points, best.total, best.limits), best.fans))
    assert differ == [], f"{len(differ)} of {len(hands)} hands differ, e.g. {differ[:2]}"


# Two readings of equal points, (the reading met later, the best met before, whether the later one is kept):
# each step of the rules book's tie-break, and the steps before it tied.
TIE_BREAKS = {
    "the higher total before the cap": ({"pure_shifted_pungs": 1, "three_concealed_pungs": 1}, {"pure_double_chow": 1, "all_chows": 1}, True),
    "more fans": ({"pure_double_chow": 1, "all_chows": 1}, {"pure_shifted_pungs": 1}, True),
    # counted with 花牌, the later reading would tie on fans (3 and 3) and win on its highest fan
    "more fans, 花牌 aside": ({"pure_shifted_pungs": 1, "flower_tiles": 2},
                             {"pure_double_chow": 1, "three_concealed_pungs": 1, "concealed_hand": 1}, False),
    "the more valuable highest fan": ({"pure_shifted_pungs": 1, "concealed_hand": 1}, {"three_concealed_pungs": 1, "pure_double_chow": 1}, True),
    "the first fan in the rules book's order that one holds": (
        {"outside_hand": 1, "pure_double_chow": 1}, {"pure_shifted_pungs": 1, "three_concealed_pungs": 1}, False),
    "the same, the other way round": (
        {"pure_shifted_pungs": 1, "three_concealed_pungs": 1}, {"outside_hand": 1, "pure_double_chow": 1}, True),
}


def _reading(fans):
    return naive.ReadingScore(None, Counter(fans), Counter(), 0, naive.fan_total(fans))


@pytest.mark.parametrize("step", list(TIE_BREAKS))
def test_readings_of_equal_points_are_ranked_by_the_rules_books_tie_break(step):
    later, best, kept = TIE_BREAKS[step]
    ruleset = load_ruleset("erren-challenge")
    ids = {fan_id: index for index, fan_id in enumerate(FAN_IDS)}
    work = np.zeros((challenge_kernel.WORK_ROWS, challenge_kernel.WORK_COLUMNS), np.int64)
    for row, fans in ((challenge_kernel.FANS_ROW, later), (challenge_kernel.BEST_ROW, best)):
        for fan_id, count in fans.items():
            work[row, ids[fan_id]] = count
    points = 5_000  # the same for both: the points are not what is compared
    result = np.array([points, 0, 0, naive.fan_total(best)], np.int64)
    beats = challenge_kernel._beats_best(work, points, naive.fan_total(later), ruleset.values, ruleset.priority, result)
    assert bool(beats) == kept
    assert (naive.tie_break_key(_reading(later)) > naive.tie_break_key(_reading(best))) == kept  # the twin agrees


@pytest.mark.parametrize("rule", list(challenge_hands.GOLDEN_BY_RULE))
def test_the_kernel_scores_the_golden_hand(rule):
    text, win_text, flags, bonus_text, fans, points = challenge_hands.GOLDEN_BY_RULE[rule]
    concealed, melds, win, flags, bonus = naive.hand_arguments(text, win_text, flags, bonus_text)
    meld_rows = np.zeros((1, 4, 2), np.int8)
    for position, meld in enumerate(melds):
        meld_rows[0, position] = meld
    counts, results = score_many(np.array([concealed]), meld_rows, len(melds), win, flags, np.array([bonus]),
                                 load_ruleset("erren-challenge"))
    assert (_kernel_fans(counts, 0, None), int(results[0, POINTS])) == (fans, points)


def test_the_kernel_finds_a_hand_complete_exactly_when_the_twin_does():
    """Random 14-tile hands over all 34 kinds (almost all incomplete), and generated winning hands with one tile
    swapped for another (often incomplete, sometimes complete another way)."""
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(3_000):
        tiles = rng.choice(136, 14, replace=False) // 4
        concealed = np.bincount(tiles, minlength=34)
        win = int(tiles[0])
        concealed[win] -= 1
        rows.append((concealed, [], win))
    hands = random_challenge_hands(np.random.default_rng(8), 3_000)
    for index in range(len(hands)):
        concealed, melds, win, _, _ = hands.hand(index)
        concealed = np.array(concealed)
        held = [kind for kind in range(34) if concealed[kind]]
        if held:
            concealed[held[rng.integers(len(held))]] -= 1
            concealed[rng.integers(34)] += 1
        if concealed.max() <= 4:
            rows.append((concealed, melds, win))
    meld_rows = np.zeros((len(rows), 4, 2), np.int8)
    for row, (_, melds, _) in enumerate(rows):
        for position, meld in enumerate(melds):
            meld_rows[row, position] = meld
    _, results = score_many(np.array([row[0] for row in rows]), meld_rows, np.array([len(row[1]) for row in rows]),
                            np.array([row[2] for row in rows]), 0, np.zeros((len(rows), 34), np.int8),
                            load_ruleset("erren-challenge"))
    complete = [naive.score(concealed, melds, win) is not naive.NOT_A_WIN for concealed, melds, win in rows]
    assert complete == [bool(points != NOT_A_WIN) for points in results[:, POINTS]]
    assert 100 < sum(complete) < len(rows) - 100  # both outcomes are well represented

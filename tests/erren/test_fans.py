"""Golden hands: every example hand the seed texts give for a fan, the four places where erren-classic
differs from MCR, the 二人-only fans and their 不计 lists, and how the win context is read.

Hands are written as all fourteen tiles (melds in brackets) and the winning tile; `fans` takes the
winning tile out of the concealed tiles and scores the rest.
"""

from collections import Counter

import numpy as np
import pytest
from MahjongGB import MahjongFanCalculator

from kernels.fan_ids import Fan
from kernels.fans.mcr import NOT_A_WIN, score_many
from sim.commands.benchmark import pymahjonggb_arguments, random_hands, reference_fans
from sim.core.hand_generator import random_winning_hands
from sim.core.notation import Hand, parse_hand, parse_tile
from sim.core.ruleset import load_ruleset
from sim.families.scoring import ScoringError, WinContext, score


def scored(text, win, ruleset="erren", **context):
    full = parse_hand(text, sizes=(14,))
    tile = parse_tile(win)
    if full.concealed[tile] == 0:
        raise AssertionError(f"the winning tile {win} is not among the concealed tiles of {text}")
    concealed = list(full.concealed)
    concealed[tile] -= 1
    hand = Hand(tuple(concealed), full.melds, full.flowers)
    return score(hand, tile, WinContext(**context), load_ruleset(ruleset))


def fans(text, win, ruleset="erren", **context):
    """{seed name: count} of the fans the hand scores."""
    return scored(text, win, ruleset, **context).as_dict()["fans"]


# ---------------------------------------------------------------------------------- seed 000 examples
# (seed name, the example as printed, the same hand in MPSZ, the winning tile). Honours: 1z-4z 东南西北,
# 5z 白, 6z 发, 7z 中. Where a seed example does not show its fan, the hand is corrected and the
# comment says why; the printed hand is pinned separately below.
SEED_000_EXAMPLES = [
    ("大四喜", "东东东，西西西，南南南，北北北，11万", "111333222444z11m", "1m"),
    ("大三元", "中中中，发发发，白白白，234万，东东", "777666555z234m11z", "2m"),
    ("九莲宝灯", "111，2345678，999万 见同花色任何1张", "11123455678999m", "5m"),
    ("四杠", "东东东东，1111万，西西西西，5555万，22万", "[1111z] [1111m] [3333z] [5555m] 22m", "2m"),
    ("连七对", "11万，22万，33万，44万，55万，66万，77万", "11223344556677m", "7m"),
    # printed with a fifth 北 (北北北 and the pair 北北); the wind pair here is 南南
    ("小四喜", "东东东，西西西，北北北，123万，北北", "111333444z123m22z", "3m"),
    # printed with a wind pair (北北), which is 双箭刻; the third dragon 白白 is the pair here
    ("小三元", "中中中，发发发，123万，567万，北北", "777666z123567m55z", "1m"),
    ("字一色", "东东东，中中中，西西西，白白白，北北", "111777333555z44z", "4z"),
    ("四暗刻", "(no example)", "111333555777m99m", "9m"),
    ("一色双龙会", "123万，123万，789万，789万，55万", "12312378978955m", "5m"),
    ("一色四同顺", "123万，123万，123万，123万，东东", "123123123123m11z", "2m"),
    ("一色四节高", "111万，222万，333万，444万，东东", "111222333444m11z", "4m"),
    ("一色四步高", "123万，345万，567万，789万，东东", "123345567789m11z", "9m"),
    ("三杠", "中中中中，1111万，东东东东，345万，北北", "[7777z] [1111m] [1111z] 345m44z", "3m"),
    ("混幺九", "111万，999万，东东东，白白白，北北", "111999m111555z44z", "9m"),
    ("七对", "11万，33万，99万，中中，白白，东东，北北", "113399m77551144z", "3m"),
    ("清一色", "111万，456万，777万，999万，88万", "11145677799988m", "8m"),
    # printed concealed, where 555 666 777 (一色三节高, 三暗刻) reads higher; two chows claimed here
    ("一色三同顺", "111万，567万，567万，567万，东东", "[567m] [567m] 111567m11z", "6m"),
    ("一色三节高", "123万，555万，666万，777万，东东", "123555666777m11z", "1m"),
    ("清龙", "123万，456万，789万，789万，55万", "12345678978955m", "4m"),
    ("一色三步高", "123万，345万，567万，中中中，白白", "123345567m77755z", "7m"),
    ("三暗刻", "(no example)", "111333555m789m99m", "7m"),
    ("大于5", "678万，678万，789万，789万，66万", "67867878978966m", "9m"),
    ("小于5", "123万，123万，234万，234万，11万", "12312323423411m", "4m"),
    # printed with a wind pair (南南), which makes 小四喜 and excludes 三风刻; the pair here is 白白
    ("三风刻", "123万，东东东，西西西，北北北，南南", "123m111333444z55z", "1m"),
    ("碰碰胡", "111万，333万，西西西，北北北，东东", "111333m333444z11z", "3m"),
    # printed without honours, which is 清一色; 东东 replaces the pair 99万 here
    ("混一色", "123万，234万，555万，777万，99万", "123234555777m11z", "2m"),
    ("双箭刻", "中中中，白白白，123万，456万，东东", "777555z123456m11z", "1m"),
    # printed concealed, where seven pairs reads higher; one chow claimed here
    ("全带幺", "123万，123万，789万，789万，北北", "[123m] 123789789m44z", "2m"),
    ("箭刻", "333万，456万，567万，中中中，白白", "333456567m77755z", "4m"),
    ("平和", "123万，345万，345万，789万，88万", "12334534578988m", "5m"),
    ("四归一", "123万，222万，789万，中中中，东东", "123222789m77711z", "3m"),
    # printed with 789万, which holds a 9; 678万 here
    ("断幺", "222万，345万，555万，789万，77万", "22234555567877m", "8m"),
    ("一般高", "234万，234万，中中中，东东东，白白", "234234m77711155z", "4m"),
    ("连6", "1111万，345万，678万，东东东，北北", "[1111m] 345678m11144z", "3m"),
    ("老少副", "123万，789万，中中中，东东东，白白", "123789m77711155z", "9m"),
    ("幺九刻", "111万，234万，567万，888万，东东", "111234567888m11z", "2m"),
    ("边张", "单和123的3", "123456789m99m777z", "3m"),
    ("边张", "1233和3", "12333m777111444z", "3m"),
    ("边张", "7789和7", "77789m777111444z", "7m"),
    ("坎张", "和2张牌之间的牌", "123m79m8m456m11777z", "8m"),
    ("坎张", "4556和5", "45556m123789m777z", "5m"),
    ("单钓将", "钓单张牌作将成和", "123456789m77711z", "1z"),
]


@pytest.mark.parametrize(("name", "printed", "hand", "win"), SEED_000_EXAMPLES, ids=[f"{e[0]}-{e[3]}" for e in SEED_000_EXAMPLES])
def test_seed_000_example_scores_its_fan(name, printed, hand, win):
    assert name in fans(hand, win, "erren"), printed


@pytest.mark.parametrize(
    ("name", "printed", "hand", "win", "scores_instead"),
    [
        ("三风刻", "123万，东东东，西西西，北北北，南南", "123m111333444z22z", "1m", "小四喜"),
        ("小三元", "中中中，发发发，123万，567万，北北", "777666z123567m44z", "1m", "双箭刻"),
        ("混一色", "123万，234万，555万，777万，99万", "12323455577799m", "9m", "清一色"),
        ("一色三同顺", "111万，567万，567万，567万，东东", "111567567567m11z", "6m", "一色三节高"),
        ("全带幺", "123万，123万，789万，789万，北北", "123123789789m44z", "2m", "七对"),
        ("断幺", "222万，345万，555万，789万，77万", "22234555578977m", "8m", None),
    ],
)
def test_seed_000_examples_that_show_a_different_fan(name, printed, hand, win, scores_instead):
    """These printed examples do not make their fan under MCR, which 000 follows (docs/rules/erren.md):
    a fourth wind as the pair is 小四喜, two dragon pungs without the third dragon as pair are 双箭刻,
    万 without honours is 清一色, 789 holds a terminal, and two concealed examples read higher another
    way (就高不就低): three equal chows as three shifted pungs, four pairs of chows as seven pairs."""
    result = fans(hand, win, "erren")
    assert name not in result
    if scores_instead:
        assert scores_instead in result


def test_the_wait_fans_only_count_a_single_wait():
    # 12345 waiting 3 or 6, 56789 waiting 4 or 7, 45567 waiting 3, 6 or 8: not single waits (000, 001)
    assert not {"边张", "坎张", "单钓将"} & set(fans("12345m3m456m777z11z", "3m"))
    assert not {"边张", "坎张", "单钓将"} & set(fans("56789m7m123m777z11z", "7m"))
    assert not {"边张", "坎张", "单钓将"} & set(fans("45567m6m123m777z11z", "6m"))


@pytest.mark.parametrize(
    ("name", "context"),
    [
        ("妙手回春", {"self_drawn": True, "last_tile": True}),
        ("海底捞月", {"last_tile": True}),
        ("抢杠胡", {"robbing_kong": True}),
        ("和绝张", {"fourth_tile": True}),
        ("花牌", {"flowers": 3}),
        ("天胡", {"tianhu": True, "self_drawn": True}),
        ("地胡", {"dihu": True, "self_drawn": True}),
        ("人胡", {"renhu": True}),
        ("天听", {"tianting": True}),
    ],
)
def test_000_context_fans(name, context):
    # a concealed 混一色 with three concealed chows; won on 5m inside 456m
    result = fans("123m456m789m111z55z", "5m", "erren", **context)
    assert name in result


def test_self_drawn_is_fully_concealed_without_claims_and_self_drawn_with_them():
    assert "不求人" in fans("123m456m789m111z55z", "5m", self_drawn=True)
    result = fans("[123m] 456m789m111z55z", "5m", self_drawn=True)
    assert "自摸" in result and "不求人" not in result


def test_kong_fans_and_their_combinations():
    assert "杠上开花" in fans("[1111m] 234567m999m11z", "2m", self_drawn=True, kong_replacement=True)
    assert fans("[1111m] [2222z] 234m567m11z", "2m").keys() >= {"双明杠"}
    assert fans("(1111m) (2222z) 234m567m11z", "2m").keys() >= {"双暗杠"}
    result = fans("[1111m] (2222z) 234m567m11z", "2m")  # PyMahjongGB's 明暗杠 is 明杠 + 暗杠
    assert result["明杠"] == 1 and result["暗杠"] == 1
    assert "全求人" in fans("[123m] [456m] [789m] [111z] 22z", "2z")
    assert "不求人" in fans("123m456m789m111z22z", "2z", self_drawn=True)
    assert "门前清" in fans("123m456m789m111z22z", "2z")


def test_flowers_count_for_the_winner_but_never_toward_the_minimum():
    bare = scored("123m456m789m111z55z", "5m", "erren")
    flowered = scored("123m456m789m111z55z", "5m", "erren", flowers=4)
    assert flowered.total == bare.total + 4
    assert flowered.total_without_flowers == bare.total_without_flowers
    # 混一色 6 + 幺九刻 1 = 7 fan, one short of the minimum however many flowers it holds
    low = scored("[222m] 456m678m111z55z", "4m", "erren", flowers=8)
    assert low.total_without_flowers < 8 <= low.total
    assert not low.legal


# ---------------------------------------------------------------------------------- erren-classic (001)


def test_classic_own_fans():
    assert "七星参北斗" in fans("11223344556677z", "7z", "erren-classic")
    assert "三元七对" in fans("556677z11335577m", "1m", "erren-classic")
    assert "四喜七对" in fans("11223344z113355m", "1m", "erren-classic")
    assert "四字刻" in fans("111222777666z33m", "3m", "erren-classic")
    assert "大三风" in fans("111222333z567m99m", "5m", "erren-classic")
    assert "小三风" in fans("111222z123456m33z", "1m", "erren-classic")
    assert "报听" in fans("123m456m789m111z55z", "5m", "erren-classic", ready=True)
    assert fans("123m456m789m111z55z", "5m", "erren-classic", tianhu=True, self_drawn=True)["天胡"] == 1


def test_classic_seven_stars_excludes_its_list():
    # not 字一色, 门前清, 七对, 四喜七对, 三元七对, 单钓将, 全带幺
    assert set(fans("11223344556677z", "7z", "erren-classic")) == {"七星参北斗"}
    # nor 不求人; its list leaves 自摸 standing
    assert set(fans("11223344556677z", "7z", "erren-classic", self_drawn=True)) == {"七星参北斗", "自摸"}


def test_classic_honour_seven_pairs_exclude_seven_pairs_and_concealed_hand():
    result = fans("556677z11335577m", "1m", "erren-classic")
    assert "三元七对" in result and not {"七对", "门前清", "单钓将"} & set(result)


def test_classic_four_honour_pungs_exclude_all_pungs_and_their_winds_are_not_terminal_pungs():
    result = fans("111222777666z33m", "3m", "erren-classic")
    assert "碰碰和" not in result and "幺九刻" not in result and "双箭刻" in result


def test_classic_little_three_winds_pungs_are_not_terminal_pungs():
    assert "幺九刻" not in fans("111222z123456m33z", "1m", "erren-classic")
    assert fans("111222z123456m33z", "1m", "erren")["幺九刻"] == 2  # MCR has no 小三风


@pytest.mark.parametrize(
    ("hand", "win", "fan"),
    [
        ("111222333444z11m", "1m", "大四喜"),
        ("111222333z44z123m", "1m", "小四喜"),
        ("555666z77z123456m", "1m", "小三元"),
    ],
)
def test_override_wind_and_dragon_hands_exclude_half_flush_in_classic(hand, win, fan):
    assert {fan, "混一色"} <= set(fans(hand, win, "erren"))
    classic = fans(hand, win, "erren-classic")
    assert fan in classic and "混一色" not in classic


def test_override_nine_gates_excludes_self_drawn_in_classic():
    assert "自摸" in fans("11123455678999m", "5m", "erren", self_drawn=True)
    classic = fans("11123455678999m", "5m", "erren-classic", self_drawn=True)
    assert "九宝莲灯" in classic and "自摸" not in classic and "不求人" not in classic


@pytest.mark.parametrize(
    ("hand", "win", "fan"),
    [
        ("113399m77551144z", "3m", "七对"),
        ("111333555777m99m", "9m", "四暗刻"),
        ("11223344556677m", "7m", "连七对"),
    ],
)
def test_override_seven_pairs_four_concealed_pungs_and_shifted_pairs_score_fully_concealed_in_classic(hand, win, fan):
    erren = fans(hand, win, "erren", self_drawn=True)
    assert "不求人" not in erren and "自摸" in erren  # MCR: the fan excludes 不求人, which leaves 自摸
    classic = fans(hand, win, "erren-classic", self_drawn=True)
    assert fan in classic and "不求人" in classic and not {"自摸", "门前清"} & set(classic)


def test_override_big_three_winds_is_24_and_excludes_all_pungs_and_little_three_winds():
    erren = scored("111222333z555m11m", "5m", "erren")
    assert {"三风刻", "碰碰胡"} <= set(erren.as_dict()["fans"])
    classic = scored("111222333z555m11m", "5m", "erren-classic").as_dict()
    assert classic["values"]["大三风"] == 24
    assert "碰碰和" not in classic["fans"] and "小三风" not in classic["fans"]


# ---------------------------------------------------------------------------------- 二人-only fans


@pytest.mark.parametrize("ruleset", ["erren", "erren-classic"])
def test_heavenly_hand_excludes_waits_concealment_and_self_draw(ruleset):
    result = fans("12m3m456789m111z22z", "3m", ruleset, tianhu=True, self_drawn=True)
    assert result["天胡"] == 1
    assert not {"边张", "坎张", "单钓将", "不求人", "门前清", "自摸"} & set(result)


@pytest.mark.parametrize("ruleset", ["erren", "erren-classic"])
def test_earthly_hand_excludes_waits_self_draw_and_concealed_hand_but_not_fully_concealed(ruleset):
    result = fans("12m3m456789m111z22z", "3m", ruleset, dihu=True, self_drawn=True)
    assert result["地胡"] == 1 and "不求人" in result
    assert not {"边张", "坎张", "单钓将", "自摸", "门前清"} & set(result)


@pytest.mark.parametrize("ruleset", ["erren", "erren-classic"])
def test_human_hand_excludes_waits_and_concealed_hand(ruleset):
    result = fans("12m3m456789m111z22z", "3m", ruleset, renhu=True)
    assert result["人胡"] == 1
    assert not {"边张", "坎张", "单钓将", "门前清"} & set(result)


def test_heavenly_ready_excludes_concealed_hand_and_in_classic_the_ready_fan():
    erren = fans("123m456m789m111z55z", "5m", "erren", tianting=True)
    assert erren["天听"] == 1 and "门前清" not in erren
    classic = fans("123m456m789m111z55z", "5m", "erren-classic", tianting=True, ready=True)
    assert classic["天听"] == 1 and not {"门前清", "报听"} & set(classic)


def test_special_win_values_follow_each_seed():
    erren, classic = load_ruleset("erren"), load_ruleset("erren-classic")
    names = {"天胡": (48, 88), "地胡": (32, 88), "人胡": (24, 88), "天听": (16, 32)}
    for name, (value_000, value_001) in names.items():
        assert {erren.values[f] for f, n in erren.fan_names.items() if n == name} == {value_000}
        assert {classic.values[f] for f, n in classic.fan_names.items() if n == name} == {value_001}


# ---------------------------------------------------------------------------------- reading the context


def test_fourth_tile_is_cleared_when_the_winner_holds_another_copy_and_forced_by_own_melds():
    assert "和绝张" not in fans("123m456m789m111z55z", "5z", fourth_tile=True)  # the pair holds another 5z
    assert "和绝张" in fans("[567m] [567m] [567m] 345m 11z", "5m")  # the melds hold the other three


def test_robbing_a_kong_excludes_fourth_tile_and_needs_the_only_copy():
    result = fans("123m456m789m111z55z", "5m", robbing_kong=True, fourth_tile=True)
    assert "抢杠胡" in result and "和绝张" not in result
    assert "抢杠胡" not in fans("123m345m789m111z55m", "5m", robbing_kong=True)  # another 5m is in hand


def test_kong_replacement_needs_a_kong():
    assert "杠上开花" not in fans("123m456m789m111z55z", "5m", self_drawn=True, kong_replacement=True)


def test_a_discarded_winning_tile_completes_its_pung_in_the_open():
    # 555m finished by a discard is not concealed: two concealed pungs, not three
    discard = fans("111m333m555m789m11z", "5m")
    assert "双暗刻" in discard and "三暗刻" not in discard
    assert "三暗刻" in fans("111m333m555m789m11z", "5m", self_drawn=True)


def test_highest_reading_wins_seven_pairs_against_standard():
    # 112233m 445566m 77z: seven pairs (24 + ...) or 123 123 456 456 + 77z pair; the higher counts
    result = scored("112233445566m77z", "7z")
    assert "七对" in result.as_dict()["fans"]


@pytest.mark.parametrize(
    ("context", "message"),
    [
        ({"robbing_kong": True, "self_drawn": True}, "not a self-draw"),
        ({"kong_replacement": True}, "self-drawn win"),
        ({"tianhu": True, "dihu": True, "self_drawn": True}, "at most one"),
        ({"tianhu": True}, "self-drawn"),
        ({"renhu": True, "self_drawn": True}, "not a self-draw"),
        ({"flowers": 9}, "0 to 8"),
    ],
)
def test_contradictory_contexts_are_rejected(context, message):
    with pytest.raises(ScoringError, match=message):
        scored("123m456m789m111z55z", "5m", **context)


def test_hands_outside_the_rules_are_rejected():
    with pytest.raises(ScoringError, match="not in the erren wall"):
        scored("123p456m789m111z55z", "5m")
    with pytest.raises(ScoringError, match="without flowers"):
        scored("123m456m789m111z55z", "5m", "erren-classic", flowers=1)
    with pytest.raises(ScoringError, match="without melds"):
        scored("[123m] 456m789m111z55z", "5m", tianhu=True, self_drawn=True)
    with pytest.raises(ScoringError, match="not a winning hand"):
        scored("123m456m789m111z56z", "5m")
    with pytest.raises(ScoringError, match="only 4 copies"):
        score(parse_hand("1111m234m567m789m", sizes=(13,)), parse_tile("1m"), WinContext(), load_ruleset("erren"))


@pytest.mark.parametrize("win", ["1m", "9m"])
def test_classic_nine_gates_won_on_one_or_nine_also_scores_pure_straight_and_tile_hog(win):
    # 001: 九宝莲灯 ... 若胡1或9，可计清龙，四归一
    hand = "1112345678999m" + win
    result = fans(hand, win, "erren-classic")
    assert {"九宝莲灯", "清龙", "四归一"} <= set(result)
    assert not {"清一色", "门前清", "幺九刻"} & set(result)


# ----------------------------------------------------------------------------------------------------
# `erren` against the independent MCR calculator PyMahjongGB, fan by fan and in total, and the
# evaluator's completeness and single-wait judgements against the naive twins.
#
# The only mappings are those of docs/rules/erren.md: PyMahjongGB's 明暗杠 is 明杠 + 暗杠, a few names
# differ, and both sides clear the context flags the tiles make impossible. PyMahjongGB is called with
# seatWind = prevalentWind = 4 (no wind), so a wind pung is a plain 幺九刻.


N_HANDS = 25_000
MIN_OCCURRENCES = 20
ERREN_ONLY = {Fan.HEAVENLY_HAND, Fan.EARTHLY_HAND, Fan.HUMAN_HAND, Fan.HEAVENLY_READY}


@pytest.fixture(scope="module")
def comparison():
    ruleset = load_ruleset("erren")
    by_name = {name: fan for fan, name in ruleset.fan_names.items()}
    hands = random_winning_hands(np.random.default_rng(2026), N_HANDS)
    counts, totals = score_many(*hands.kernel_arrays(), *ruleset.kernel_arrays())
    values = ruleset.values
    disagreements, seen = [], Counter()
    for index in range(N_HANDS):
        reference = reference_fans(MahjongFanCalculator(**pymahjonggb_arguments(hands, index)), by_name)
        ours = Counter({Fan(fan): int(count) for fan, count in enumerate(counts[index]) if count})
        reference_total = sum(values[fan] * count for fan, count in reference.items())
        our_total = int(totals[index]) + int(counts[index, Fan.FLOWER_TILES]) * int(values[Fan.FLOWER_TILES])
        seen.update(ours)
        if reference != ours or reference_total != our_total:
            disagreements.append((index, dict(reference), dict(ours)))
    return hands, counts, totals, disagreements, seen


def test_erren_equals_pymahjonggb_fan_by_fan_and_in_total(comparison):
    _, _, totals, disagreements, _ = comparison
    assert (totals != NOT_A_WIN).all()
    assert disagreements == [], f"{len(disagreements)} of {N_HANDS} hands disagree, e.g. {disagreements[:3]}"


def test_every_fan_shared_with_mcr_occurs_at_least_20_times(comparison):
    seen = comparison[4]
    shared = [fan for fan in load_ruleset("erren").fans if fan not in ERREN_ONLY]
    rare = {fan.name: seen[fan] for fan in shared if seen[fan] < MIN_OCCURRENCES}
    assert rare == {}


def test_a_hand_is_scored_exactly_when_the_naive_check_finds_it_complete(compiled_naive):
    """Random 14-tile hands of 万 and honours (almost all incomplete) and generated winning hands."""
    ruleset = load_ruleset("erren")
    rng = np.random.default_rng(7)
    kinds = np.r_[0:9, 27:34]
    full = random_hands(rng, 20_000, kinds, 14)
    winning = random_winning_hands(np.random.default_rng(8), 2_000)
    with_win = winning.concealed.astype(np.int64)
    with_win[np.arange(len(winning)), winning.win] += 1
    concealed = np.concatenate([full, winning.concealed])
    melds = np.concatenate([np.zeros((len(full), 4, 2), np.int8), winning.melds])
    n_melds = np.concatenate([np.zeros(len(full), np.int8), winning.n_melds])
    win = np.concatenate([np.array([rng.choice(np.flatnonzero(hand)) for hand in full]), winning.win]).astype(np.int8)
    concealed[np.arange(len(full)), win[: len(full)]] -= 1
    standing = np.concatenate([full, with_win]).astype(np.int64)
    _, totals = score_many(concealed, melds, n_melds, win, 0, 0, *ruleset.kernel_arrays())
    expected = np.array([compiled_naive.is_complete(standing[i], int(n_melds[i])) for i in range(len(standing))])
    assert expected[len(full) :].all()
    assert ((totals != NOT_A_WIN) == expected).all()
    assert 0 < expected[: len(full)].sum() < len(full)  # some random hands are complete, most are not


def test_wait_fans_only_when_the_shape_waits_on_one_kind(comparison, compiled_naive):
    """边张, 坎张 and 单钓将 need a single wait, read on shapes (a fifth copy counts as a wait)."""
    hands, counts, *_ = comparison
    wait_fans = [Fan.EDGE_WAIT, Fan.CLOSED_WAIT, Fan.SINGLE_WAIT]
    checked = 0
    for index in np.flatnonzero(counts[:, wait_fans].sum(axis=1) > 0)[:3_000]:
        hand = hands.concealed[index].astype(np.int64)
        waits = []
        for kind in [*range(9), *range(27, 34)]:
            hand[kind] += 1
            if compiled_naive.is_complete(hand, int(hands.n_melds[index])):
                waits.append(kind)
            hand[kind] -= 1
        assert waits == [int(hands.win[index])]
        checked += 1
    assert checked > 1_000

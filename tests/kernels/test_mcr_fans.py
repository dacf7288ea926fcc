"""Golden hands of the three-suit MCR evaluator: one or more for every fan of the 2006 rules, each scoring
the fan it shows and, fan for fan, what the MCR reference calculator PyMahjongGB scores; and the rules
the evaluator keeps structural (the 幺九刻 inside wind fans, the reference's tie-breaks, 明暗杠).

Hands are written as all fourteen tiles (melds in brackets, a concealed kong in parentheses) and the
winning tile; honours 1z-7z are 东南西北白发中, flowers 1f-8f.
"""

from collections import Counter

import numpy as np
import pytest
from MahjongGB import MahjongFanCalculator
from numba import njit

from kernels.fan_ids import ROUND_WIND_SHIFT, SEAT_WIND_SHIFT, WIND_NAMES, Fan
from kernels.fans import mcr_all_suits
from kernels.fans.mcr_all_suits import NOT_A_WIN, score_many
from kernels.tiles import N_KINDS
from sim.commands.benchmark import (
    mcr_reference_fans,
    pymahjonggb_arguments,
)
from sim.core.hand_generator import WinningHands
from sim.core.notation import parse_hand, parse_tile
from sim.core.ruleset import load_ruleset
from sim.core.win_context import WinContext


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("mcr")


def one_hand(text, win, **context):
    """The hand as the evaluator's arrays (one row), the winning tile taken out of the concealed tiles."""
    full = parse_hand(text, sizes=(14,))
    tile = parse_tile(win)
    concealed = np.array(full.concealed, np.int8)
    if concealed[tile] == 0:
        raise AssertionError(f"the winning tile {win} is not among the concealed tiles of {text}")
    concealed[tile] -= 1
    melds = np.zeros((1, 4, 2), np.int8)
    for index, meld in enumerate(full.melds):
        melds[0, index] = (int(meld.kind), meld.first)
    flowers = context.pop("flowers", len(full.flowers))
    return WinningHands(concealed[None], melds, np.array([len(full.melds)], np.int8), np.array([tile], np.int8),
                        np.array([WinContext(**context).flags], np.int32), np.array([flowers], np.int8))


def scored(ruleset, text, win, **context):
    """({name: count} of our fans, of PyMahjongGB's, our total with flowers)."""
    hands = one_hand(text, win, **context)
    counts, totals = score_many(*hands.kernel_arrays(), *ruleset.kernel_arrays())
    assert totals[0] != NOT_A_WIN, f"{text} with {win} is not a win"
    ours = {ruleset.fan_names[Fan(fan)]: int(count) for fan, count in enumerate(counts[0]) if count}
    by_name = {name: fan for fan, name in ruleset.fan_names.items()}
    answer = MahjongFanCalculator(**pymahjonggb_arguments(hands, 0, winds=True))
    reference = {ruleset.fan_names[fan]: count for fan, count in mcr_reference_fans(answer, by_name).items()}
    return ours, reference, int(totals[0]) + int(counts[0, Fan.FLOWER_TILES])


# (the fan shown, hand, winning tile, context)
GOLDEN = [
    # 88
    ("大四喜", "111222333444z55m", "5m", {}),
    ("大三元", "555666777z11z123m", "1m", {}),
    ("绿一色", "22334466688822s", "8s", {}),  # 234s 234s 666s 888s, pair 22s: 发 is not needed
    ("绿一色", "234s234s666s888s66z", "8s", {}),
    ("九莲宝灯", "11123455678999p", "5p", {}),
    ("九莲宝灯", "11112345678999s", "1s", {"self_drawn": True}),
    ("四杠", "[1111m] [2222p] (3333s) [4444z] 55z", "5z", {}),
    ("连七对", "22334455667788s", "8s", {}),
    ("十三幺", "19m19p19s12345677z", "7z", {"self_drawn": True}),
    # 64
    ("清幺九", "111999m111p11999s", "1p", {}),
    ("小四喜", "111222333z44z789m", "7m", {}),
    ("小三元", "555666z77z123456m", "4m", {}),
    ("字一色", "11122233355566z", "6z", {}),
    ("四暗刻", "111m222p333s44455z", "5z", {"self_drawn": True}),
    ("一色双龙会", "12312378978955m", "5m", {}),
    # 48
    ("一色四同顺", "123123123123p11z", "2p", {}),
    ("一色四节高", "111222333444s11z", "4s", {}),
    # 32
    ("一色四步高", "123234345456m11z", "6m", {}),
    ("一色四步高", "123345567789p55z", "9p", {}),
    ("三杠", "[1111m] [2222p] (3333s) 456m77z", "7z", {}),
    ("混幺九", "111m999p111s11122z", "2z", {}),
    # 24
    ("七对", "1155m2288p3399s11z", "1z", {}),
    ("七星不靠", "147m25p36s1234567z", "7z", {}),
    ("全双刻", "222888m22444p666s", "6s", {}),
    ("清一色", "12345678923455m", "5m", {}),
    ("一色三同顺", "[234s] 234234s567m11z", "2s", {}),
    ("一色三节高", "[555p] 666777p123m99s", "9s", {}),
    ("全大", "777789m99m789p789s", "8p", {}),
    ("全中", "456m456p456s44455m", "6s", {}),
    ("全小", "123m123p123s11122m", "3s", {}),
    # 16
    ("清龙", "[123m] 456789m234p55s", "4p", {}),
    ("三色双龙会", "123789m123789s55p", "5p", {}),
    ("一色三步高", "[123p] 234p345p789m11z", "3p", {}),
    ("全带五", "[345m] 456p567s555p55m", "5m", {}),
    ("三同刻", "[222m] 222p222s456m77z", "4m", {}),
    ("三暗刻", "[123m] 444p555s666z77z", "7z", {}),
    # 12
    ("全不靠", "147m25p369s123456z", "1z", {}),
    ("全不靠", "147m258p369s12345z", "5z", {}),  # with its nine numbered tiles also 组合龙
    ("组合龙", "147m258p369s123m11z", "1z", {}),
    ("组合龙", "[123m] 147m258p369s11z", "1z", {}),
    ("大于五", "678m678p678s66699m", "9m", {}),
    ("小于五", "234m234p234s11144m", "1m", {}),
    ("三风刻", "111222333z123m55m", "5m", {}),
    # 8
    ("花龙", "123m456p789s234m11z", "2m", {}),
    ("推不倒", "[123p] 345p456s888s55z", "5z", {}),
    ("三色三同顺", "345m345p345s789m11z", "1z", {}),
    ("三色三节高", "[333m] 444p555s789m11z", "7m", {}),
    ("无番和", "[234m] 678m345p567s11z", "5p", {}),
    ("妙手回春", "[234m] 678m345p567s11z", "5p", {"self_drawn": True, "last_tile": True}),
    ("海底捞月", "[234m] 678m345p567s11z", "5p", {"last_tile": True}),
    ("杠上开花", "[2222m] 678m345p567s11z", "5p", {"self_drawn": True, "kong_replacement": True}),
    ("抢杠和", "[234m] 678m345p567s11z", "5p", {"robbing_kong": True}),
    # 6
    ("碰碰和", "[111m] 333p555s777m99s", "9s", {}),
    ("混一色", "123456789m11122z", "2z", {}),
    ("三色三步高", "234m345p456s789m11z", "1z", {}),
    ("五门齐", "123m456p789s11155z", "5z", {}),
    ("全求人", "[123m] [456p] [789s] [111z] 55z", "5z", {}),
    ("双暗杠", "(1111m) (2222p) 345s678s99m", "9m", {}),
    ("双箭刻", "[555z] 666z123m456p99s", "9s", {}),
    # 4
    ("全带幺", "[123m] 789p111s999m11z", "1z", {}),
    ("不求人", "123m456p789s234s55s", "2s", {"self_drawn": True}),
    ("双明杠", "[1111m] [2222p] 345s678s99m", "9m", {}),
    ("和绝张", "[234m] 678m345p567s11z", "8m", {"fourth_tile": True}),
    # 2
    ("箭刻", "[555z] 123m345p678s11s", "1s", {}),
    ("圈风刻", "[222z] 123m345p678s11s", "1s", {"round_wind": "south"}),
    ("门风刻", "[333z] 123m345p678s11s", "1s", {"seat_wind": "west"}),
    ("门前清", "123m345p678s234s55m", "2s", {}),
    ("平和", "[123m] 345p678s234s55m", "2s", {}),
    ("四归一", "[234m] 222m567p789s11s", "1s", {}),
    ("双同刻", "[333m] 333p567s789s11z", "1z", {}),
    ("双暗刻", "[123m] 444p555s678s11z", "1z", {}),
    ("暗杠", "(1111m) 234p567s789s22z", "2z", {}),
    ("断幺", "234m345p678s22255p", "3m", {}),
    # 1
    ("一般高", "[123m] 123m456p789s11z", "1z", {}),
    ("喜相逢", "[123m] 123p456s789m11z", "1z", {}),
    ("连六", "[123m] 456m345p678s11z", "1z", {}),
    ("老少副", "[123m] 789m345p678s11z", "1z", {}),
    ("幺九刻", "[111m] 234p567s789s22z", "2z", {}),
    ("明杠", "[1111m] 234p567s789s22z", "2z", {}),
    ("缺一门", "[123m] 456m345p678p11z", "1z", {}),
    ("无字", "[111m] 456p789s345m22s", "2s", {}),
    ("边张", "[123m] [456p] 789s11z123s", "3s", {}),
    ("嵌张", "[123m] [456p] 789s11z123s", "2s", {}),
    ("单钓将", "[123m] [456p] [789s] 234s11z", "1z", {}),
    ("自摸", "[234m] 678m345p567s11z", "5p", {"self_drawn": True}),
    ("花牌", "[234m] 678m345p567s11z 1f3f", "5p", {}),
]


def test_the_golden_hands_show_every_fan(ruleset):
    assert {name for name, *_ in GOLDEN} == set(ruleset.fan_names.values())


@pytest.mark.parametrize(("name", "hand", "win", "context"), GOLDEN, ids=[f"{row[0]}-{row[1]}" for row in GOLDEN])
def test_a_golden_hand_scores_its_fan_as_pymahjonggb_does(ruleset, name, hand, win, context):
    ours, reference, _ = scored(ruleset, hand, win, **dict(context))
    assert name in ours
    assert ours == reference


# ---------------------------------------------------------------------------------- structural rules


def test_wind_pungs_inside_big_three_winds_are_not_terminal_pungs_and_the_seat_wind_still_counts(ruleset):
    """东南西 pungs (三风刻) with a 999m pung: one 幺九刻 (the 9s), 门风刻 and 圈风刻 for 东 on top."""
    ours, reference, _ = scored(ruleset, "111222333z999m55m", "5m")
    assert ours["三风刻"] == 1 and ours["幺九刻"] == 1
    assert ours["圈风刻"] == 1 and ours["门风刻"] == 1
    assert ours == reference


def test_a_wind_pung_that_scores_a_wind_fan_is_not_also_a_terminal_pung(ruleset):
    plain, _, _ = scored(ruleset, "[222z] 123m345p678s11s", "1s")  # 南 is no one's wind here
    round_wind, _, _ = scored(ruleset, "[222z] 123m345p678s11s", "1s", round_wind="south")
    both, _, _ = scored(ruleset, "[222z] 123m345p678s11s", "1s", round_wind="south", seat_wind="south")
    assert plain.get("幺九刻") == 1 and "圈风刻" not in plain
    assert round_wind.get("圈风刻") == 1 and "幺九刻" not in round_wind
    assert both.get("圈风刻") == 1 and both.get("门风刻") == 1 and "幺九刻" not in both


def test_an_exposed_and_a_concealed_kong_are_melded_kong_and_concealed_kong(ruleset):
    ours, reference, _ = scored(ruleset, "[1111m] (2222p) 345s678s99m", "9m")
    assert ours["明杠"] == 1 and ours["暗杠"] == 1  # PyMahjongGB's 明暗杠, mapped
    assert ours == reference


def test_seven_pairs_give_way_to_an_equal_regular_reading(ruleset):
    """112233m 112233p 55s: 七对 (24) + ... against 一般高 x2 and 喜相逢 readings of equal or higher value:
    the reference keeps the regular reading whenever it is at least as high."""
    ours, reference, _ = scored(ruleset, "112233m112233p55s", "5s")
    assert ours == reference


def test_flowers_count_but_never_toward_the_total_the_minimum_reads(ruleset):
    hands = one_hand("[234m] 678m345p567s11z", "5p", flowers=3)
    counts, totals = score_many(*hands.kernel_arrays(), *ruleset.kernel_arrays())
    assert counts[0, Fan.FLOWER_TILES] == 3
    assert totals[0] == 8  # 无番和 alone: the total leaves the flowers out


def test_wind_fields_name_the_winds_in_order(ruleset):
    assert WIND_NAMES == ("east", "south", "west", "north")
    flags = WinContext(seat_wind="north", round_wind="south").flags
    assert (flags >> SEAT_WIND_SHIFT) & 3 == 3 and (flags >> ROUND_WIND_SHIFT) & 3 == 1


def test_tiles_that_make_no_hand_are_not_a_win(ruleset):
    hands = one_hand("123m456p789s12345z", "1z")
    _, totals = score_many(*hands.kernel_arrays(), *ruleset.kernel_arrays())
    assert totals[0] == NOT_A_WIN


def test_score_many_refuses_arrays_of_the_wrong_shape(ruleset):
    with pytest.raises(ValueError, match="concealed must be"):
        score_many(np.zeros((1, 33), np.int8), np.zeros((1, 4, 2)), 0, 0, 0, 0, *ruleset.kernel_arrays())
    with pytest.raises(ValueError, match="tile counts run 0-4"):
        score_many(np.full((1, N_KINDS), 5), np.zeros((1, 4, 2)), 0, 0, 0, 0, *ruleset.kernel_arrays())


def test_the_evaluator_scores_a_hand_the_same_in_a_batch_and_alone(ruleset):
    rows = [one_hand(hand, win, **dict(context)) for _, hand, win, context in GOLDEN[:20]]
    batch = WinningHands(*(np.concatenate([getattr(row, field) for row in rows]) for field in
                           ("concealed", "melds", "n_melds", "win", "flags", "flowers")))
    counts, totals = score_many(*batch.kernel_arrays(), *ruleset.kernel_arrays())
    for index, row in enumerate(rows):
        alone_counts, alone_totals = score_many(*row.kernel_arrays(), *ruleset.kernel_arrays())
        assert totals[index] == alone_totals[0] and (counts[index] == alone_counts[0]).all()
    assert Counter(int(total) for total in totals)  # not all empty


@njit
def _most_splits(work):
    """The most ways any suit of 1-14 tiles (a size of 0 or 2 mod 3) splits into sets and at most a pair."""
    most = 0
    for index in range(5**9):
        rest, tiles, rank_sum = index, 0, 0
        for rank in range(9):
            work[mcr_all_suits.STANDING_ROW, rank] = rest % 5
            tiles += rest % 5
            rank_sum += rank * (rest % 5)
            rest //= 5
        if 0 < tiles <= 14 and tiles % 3 != 1:
            most = max(most, mcr_all_suits._suit_splits(work, 0, 2, tiles, rank_sum))
    return most


def test_no_suit_splits_more_ways_than_the_work_array_holds():
    assert _most_splits(mcr_all_suits.new_work()) == mcr_all_suits.MAX_SPLITS

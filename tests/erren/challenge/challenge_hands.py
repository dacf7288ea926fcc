"""Golden hands for `erren-challenge` (RULES.md §7, seed 004's 闯关 game): the fans the riichi reference cannot
check, and the points rules, each pinned by a hand built from §7's wording (and 004's text where it helps).

Each entry is (hand text, winning tile, context bits, face-up bonus tiles, expected fans, expected points). The hand
text holds all 14 tiles (melds in brackets, a kong counting as 3); the winning tile is taken out of the concealed
tiles once. Context bits are those of kernels/fan_ids.py plus EXTRA_DRAW_FLAG; 0 means won on a discard. The
expected fans are those of the best reading (only its 役满 when it has any). `GOLDEN_BY_RULE` names each entry by
the rule it pins; `GOLDEN` is the plain list both the slow twin and the kernel are run against.
"""

from kernels.fan_ids import (
    EXTRA_DRAW_FLAG,
    HEAVENLY_READY_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
)

SELF = SELF_DRAWN_FLAG
DISCARD = 0

GOLDEN_BY_RULE = {
    # ---- 门清 and 推倒胡
    "门清 is 1 fan for a concealed hand won on a discard": (
        "123m456p789s567s11z", "6s", DISCARD, "", {"concealed_hand": 1}, 100,
    ),
    "门清 allows a concealed kong": (
        "123m456p(1111s)567s99m", "6s", DISCARD, "", {"concealed_hand": 1}, 100,
    ),
    "an exposed kong is not 门清 and the hand is 推倒胡": (
        "123m456p[1111s]567s99m", "6s", DISCARD, "", {"basic_win": 1}, 100,
    ),
    "推倒胡 is 1 fan for a complete hand with no other fan": (
        "[123m]456p789s234s11z", "4p", DISCARD, "", {"basic_win": 1}, 100,
    ),
    # ---- 花牌: one fan per tile of the winner matching a face-up bonus tile
    "花牌 counts 1 for a held tile matching the bonus tile and 推倒胡 still scores": (
        "[123m]456p789s234s11z", "4p", DISCARD, "5p", {"basic_win": 1, "flower_tiles": 1}, 300,
    ),
    "花牌 counts 2 for a tile matching two face-up copies": (
        "[123m]456p789s234s11z", "4p", DISCARD, "55p", {"basic_win": 1, "flower_tiles": 2}, 600,
    ),
    "花牌 counts every copy in the pair": (
        "[123m]456p789s234s11z", "4p", DISCARD, "1z", {"basic_win": 1, "flower_tiles": 2}, 600,
    ),
    "花牌 counts every tile of a meld": (
        "[123m]456p789s[222s]11z", "4p", DISCARD, "2s", {"basic_win": 1, "flower_tiles": 3}, 1_000,
    ),
    "花牌 counts one copy in each of two kinds": (
        "[123m]456p789s234s11z", "4p", DISCARD, "2m8s", {"basic_win": 1, "flower_tiles": 2}, 600,
    ),
    "a bonus tile the winner does not hold is worth nothing": (
        "[123m]456p789s234s11z", "4p", DISCARD, "7z", {"basic_win": 1}, 100,
    ),
    # ---- 七对 and 豪华七对
    "豪华七对 is seven pairs whose winning tile makes the four-of-a-kind, excluding 七对": (
        "2222m55p77p33s88s66z", "2m", DISCARD, "", {"luxury_seven_pairs": 1, "concealed_hand": 1}, 2_800,
    ),
    "seven pairs holding a four-of-a-kind the winning tile did not make is plain 七对": (
        "2222m55p77p33s88s66z", "5p", DISCARD, "", {"seven_pairs": 1, "concealed_hand": 1}, 1_000,
    ),
    # ---- 三连刻 and 四连刻
    "三连刻 is three pungs of one suit in consecutive ranks, open allowed": (
        "[222p][333p]444p567m99s", "9s", DISCARD, "", {"pure_shifted_pungs": 1}, 600,
    ),
    "三连刻 counts kongs": (
        "[2222p][333p]444p567m99s", "9s", DISCARD, "", {"pure_shifted_pungs": 1}, 600,
    ),
    "四连刻 is a 役满": (
        "[222p][333p]444p555p99s", "9s", DISCARD, "", {"four_pure_shifted_pungs": 1}, 10_000,
    ),
    # ---- 百万石: 清一色 of 万 whose ranks, every tile counted, sum to at least 100
    "百万石 at exactly 100": (
        "[999m][888m]678m567m55m", "5m", DISCARD, "", {"million_stones": 1}, 10_000,
    ),
    "百万石 counts a kong's four tiles (101, not 92)": (
        "[9999m][888m]567m456m44m", "4m", DISCARD, "", {"million_stones": 1}, 10_000,
    ),
    "just below 100 (99) is no 百万石 but 清一色": (
        "[999m][888m]678m456m66m", "4m", DISCARD, "", {"full_flush": 1}, 1_500,
    ),
    # ---- 红孔雀: only 中, 1s, 5s, 7s, 9s, pung form
    "红孔雀 is a 役满": (
        "[111s][555s]777s999s77z", "7z", DISCARD, "", {"red_peacock": 1}, 10_000,
    ),
    # ---- 东北新干线: 一条龙 with a pung of 东 and a pair of 北, or the reverse
    "东北新干线 with a pung of 东 and a pair of 北": (
        "123456789m111z44z", "5m", DISCARD, "", {"northeast_express": 1}, 10_000,
    ),
    "东北新干线 with a pung of 北, open, and a pair of 东": (
        "[123p]456p789p[444z]11z", "1z", DISCARD, "", {"northeast_express": 1}, 10_000,
    ),
    "一条龙 with a pung of 南 is no 东北新干线": (
        "[123p]456p789p[222z]11z", "1z", DISCARD, "", {"pure_straight": 1, "half_flush": 1}, 1_500,
    ),
    # ---- how and when the hand was won
    "海底捞月 is a self-drawn win in the extra draws after the wall": (
        "123m456p789s567s11z", "6s", SELF | EXTRA_DRAW_FLAG | READY_FLAG, "",
        {"concealed_hand": 1, "fully_concealed_hand": 1, "ready_hand": 1, "extra_draw_win": 1}, 1_000,
    ),
    "杠上开花 wins over 海底摸月 on the last tile": (
        "123m456p[1111s]567s99m", "6s", SELF | KONG_REPLACEMENT_FLAG | LAST_WALL_TILE_FLAG, "",
        {"out_with_replacement_tile": 1}, 300,
    ),
    "a concealed hand robbing a kong scores 门清自摸": (
        "123m456p789s567s11z", "1m", ROBBING_KONG_FLAG, "",
        {"concealed_hand": 1, "fully_concealed_hand": 1}, 300,
    ),
    "报听 needs a concealed hand": (
        "[123m]456p789s234s11z", "4p", READY_FLAG, "", {"basic_win": 1}, 100,
    ),
    "天听 excludes 报听": (
        "123m456p789s567s11z", "6s", READY_FLAG | HEAVENLY_READY_FLAG, "",
        {"concealed_hand": 1, "heavenly_ready": 1}, 600,
    ),
    # ---- where §7 deliberately differs from riichi (tests/erren/challenge/test_reference.py pins the riichi side)
    "平和 needs a pair that is not an honour: a wind pair gives none": (
        "234m567p345s678s11z", "2m", DISCARD, "", {"concealed_hand": 1}, 100,
    ),
    "平和 with a suit pair, won on a two-sided wait": (
        "234m567p345s678s55m", "2m", DISCARD, "", {"concealed_hand": 1, "all_simples": 1, "all_chows": 1}, 600,
    ),
    "字一色 needs the pung form: the seven honour pairs are 七对": (
        "11223344556677z", "7z", DISCARD, "", {"seven_pairs": 1, "concealed_hand": 1}, 1_000,
    ),
    "混老头 needs the pung form: seven pairs of terminals and honours are 七对": (
        "1199m1199p11s2233z", "2z", DISCARD, "", {"seven_pairs": 1, "concealed_hand": 1}, 1_000,
    ),
    "九莲宝灯 is the pure form, the 13 before the win waiting on all nine": (
        "11123455678999m", "5m", DISCARD, "", {"nine_gates": 1}, 10_000,
    ),
    "1112345678999 plus a tile won on a single wait is no 九莲宝灯": (
        "11123455678999m", "3m", DISCARD, "", {"concealed_hand": 1, "full_flush": 1}, 2_100,
    ),
    "大车轮 is seven pairs 2 to 8 of one suit": (
        "22334455667788p", "8p", DISCARD, "", {"big_wheels": 1}, 10_000,
    ),
    "the 大车轮 tiles with an exposed chow are no seven pairs and no 大车轮": (
        "[234p]23455667788p", "8p", DISCARD, "", {"all_simples": 1, "full_flush": 1}, 2_100,
    ),
    # ---- points
    "the total, 花牌 included, is capped at 13 fans: 9,100 points": (
        "112233456789m55m", "4m", SELF | READY_FLAG | HEAVENLY_READY_FLAG, "5m",
        {
            "full_flush": 1,
            "pure_straight": 1,
            "pure_double_chow": 1,
            "concealed_hand": 1,
            "fully_concealed_hand": 1,
            "all_chows": 1,
            "heavenly_ready": 1,
            "flower_tiles": 3,
        },
        9_100,
    ),
    "two 役满 add up to 20,000": (
        "[111z]222z333z444z55z", "5z", DISCARD, "", {"big_four_winds": 1, "all_honors": 1}, 20_000,
    ),
    "a 役满 hand reports its 役满 and no regular fan, 花牌 included": (
        "555z666z777z123m99m", "2m", SELF, "5z", {"big_three_dragons": 1}, 10_000,
    ),
    "between readings of equal points the higher total before the cap wins": (
        "11223344556677p", "7p", SELF | READY_FLAG | HEAVENLY_READY_FLAG, "1p",
        {
            "full_flush": 1,
            "two_pure_double_chows": 1,
            "concealed_hand": 1,
            "fully_concealed_hand": 1,
            "all_chows": 1,
            "heavenly_ready": 1,
            "flower_tiles": 2,
        },
        9_100,
    ),
    "between readings of equal points and totals the one with more fans wins": (  # 三连刻 is 3 fans in one
        "345p44455566677s", "4s", DISCARD, "",
        {"concealed_hand": 1, "all_simples": 1, "pure_double_chow": 1, "all_chows": 1}, 1_500,
    ),
    "between readings alike in points, total, fans and highest fan the rules book's order decides": (
        # 三连刻 + 三暗刻 against 一色二顺 + 混全带幺: 三连刻 comes before 混全带幺 in the fan table
        "789m777888999s22z", "7s", SELF, "",
        {"concealed_hand": 1, "fully_concealed_hand": 1, "three_concealed_pungs": 1, "pure_shifted_pungs": 1}, 2_800,
    ),
}

GOLDEN = list(GOLDEN_BY_RULE.values())

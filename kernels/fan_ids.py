"""The stable fan enum: one integer id per fan any ruleset can score (二人, the 血战 family, 004's 闯关 game,
four-player MCR).

The evaluator kernel writes a count vector indexed by these ids; a ruleset file (``sim/rulesets/*.toml``)
gives each id its seed name, value and exclusion list. A fan a ruleset does not list has value 0 there
and is never counted. Ids are append-only: records written by earlier versions keep their meaning.
The ASCII name of an id is its lower-case enum name (``Fan.SEVEN_PAIRS`` -> ``seven_pairs``).
"""

import enum


class Fan(enum.IntEnum):
    # hand patterns
    SEVEN_STARS = 0  # 七星参北斗: the seven honour pairs
    BIG_FOUR_WINDS = 1  # 大四喜
    BIG_THREE_DRAGONS = 2  # 大三元
    NINE_GATES = 3  # 九莲宝灯
    FOUR_KONGS = 4  # 四杠
    SEVEN_SHIFTED_PAIRS = 5  # 连七对
    LITTLE_FOUR_WINDS = 6  # 小四喜
    LITTLE_THREE_DRAGONS = 7  # 小三元
    ALL_HONORS = 8  # 字一色
    FOUR_CONCEALED_PUNGS = 9  # 四暗刻
    PURE_TERMINAL_CHOWS = 10  # 一色双龙会
    QUADRUPLE_CHOW = 11  # 一色四同顺
    FOUR_PURE_SHIFTED_PUNGS = 12  # 一色四节高
    DRAGON_SEVEN_PAIRS = 13  # 三元七对
    WIND_SEVEN_PAIRS = 14  # 四喜七对
    FOUR_PURE_SHIFTED_CHOWS = 15  # 一色四步高
    THREE_KONGS = 16  # 三杠
    ALL_TERMINALS_AND_HONORS = 17  # 混幺九
    SEVEN_PAIRS = 18  # 七对
    FULL_FLUSH = 19  # 清一色
    PURE_TRIPLE_CHOW = 20  # 一色三同顺
    PURE_SHIFTED_PUNGS = 21  # 一色三节高
    FOUR_HONOR_PUNGS = 22  # 四字刻
    PURE_STRAIGHT = 23  # 清龙
    PURE_SHIFTED_CHOWS = 24  # 一色三步高
    THREE_CONCEALED_PUNGS = 25  # 三暗刻
    UPPER_FOUR = 26  # 大于5
    LOWER_FOUR = 27  # 小于5
    BIG_THREE_WINDS = 28  # 三风刻 (000) / 大三风 (001)
    ALL_PUNGS = 29  # 碰碰和
    HALF_FLUSH = 30  # 混一色
    MELDED_HAND = 31  # 全求人
    TWO_CONCEALED_KONGS = 32  # 双暗杠
    TWO_DRAGON_PUNGS = 33  # 双箭刻
    LITTLE_THREE_WINDS = 34  # 小三风
    OUTSIDE_HAND = 35  # 全带幺
    FULLY_CONCEALED_HAND = 36  # 不求人
    TWO_MELDED_KONGS = 37  # 双明杠
    DRAGON_PUNG = 38  # 箭刻
    CONCEALED_HAND = 39  # 门前清
    ALL_CHOWS = 40  # 平和
    TILE_HOG = 41  # 四归一
    TWO_CONCEALED_PUNGS = 42  # 双暗刻
    CONCEALED_KONG = 43  # 暗杠
    ALL_SIMPLES = 44  # 断幺
    PURE_DOUBLE_CHOW = 45  # 一般高
    SHORT_STRAIGHT = 46  # 连六
    TWO_TERMINAL_CHOWS = 47  # 老少副
    PUNG_OF_TERMINALS_OR_HONORS = 48  # 幺九刻
    MELDED_KONG = 49  # 明杠
    # how the hand waited
    EDGE_WAIT = 50  # 边张
    CLOSED_WAIT = 51  # 坎张
    SINGLE_WAIT = 52  # 单钓将
    # how and when the hand won
    HEAVENLY_HAND = 53  # 天胡
    EARTHLY_HAND = 54  # 地胡
    HUMAN_HAND = 55  # 人胡
    HEAVENLY_READY = 56  # 天听
    LAST_TILE_DRAW = 57  # 妙手回春
    LAST_TILE_CLAIM = 58  # 海底捞月
    OUT_WITH_REPLACEMENT_TILE = 59  # 杠上开花
    ROBBING_THE_KONG = 60  # 抢杠胡
    LAST_TILE = 61  # 和绝张
    READY_HAND = 62  # 报听
    SELF_DRAWN = 63  # 自摸
    FLOWER_TILES = 64  # 花牌: one per flower, never part of the minimum
    # the 血战 family (002 liangmen-xuezhan, 003 sanren-liangfang); kernels/fans/xuezhan.py scores them
    BASIC_WIN = 65  # 基本胡: four sets and a pair
    FULL_FLUSH_PUNGS = 66  # 清碰 / 清对
    LUXURY_SEVEN_PAIRS = 67  # 豪华七对 / 龙七对: seven pairs holding a four-of-a-kind
    FULL_FLUSH_SEVEN_PAIRS = 68  # 清七对
    FULL_FLUSH_LUXURY_SEVEN_PAIRS = 69  # 清龙七对
    CLOSED_TWO_BAMBOO = 70  # 卡二条: a single wait on 2条, read as the middle of 1-2-3条
    DISCARD_AFTER_KONG = 71  # 杠上炮
    ROOT = 72  # 根: one per kind held four times
    SISTER_PAIRS = 73  # 姊妹对
    PUNGS_OF_258 = 74  # 将对
    SEVEN_PAIRS_OF_258 = 75  # 将七对
    GOLDEN_HOOK = 76  # 金钩钓
    GOLDEN_HOOK_OF_258 = 77  # 将金钩钓
    FULL_FLUSH_GOLDEN_HOOK = 78  # 清金钩钓
    ALL_TERMINAL_SETS = 79  # 全幺九
    FULL_FLUSH_TERMINAL_SETS = 80  # 清幺九
    MIDDLE_FIVE = 81  # 夹心五
    # erren-challenge (004's 闯关 game); kernels/fans/challenge.py scores them
    TWO_PURE_DOUBLE_CHOWS = 82  # 两对一色二顺: two pairs of identical chows
    MIXED_TRIPLE_CHOW = 83  # 三色同顺
    TRIPLE_PUNG = 84  # 三色同刻
    PURE_OUTSIDE_HAND = 85  # 纯全带幺: a terminal in every set and the pair, no honour
    EXTRA_DRAW_WIN = 86  # 海底捞月 (004): won in the extra draws after an exhausted wall
    BIG_WHEELS = 87  # 大车轮: 22334455667788 of one suit
    MILLION_STONES = 88  # 百万石: 清一色 of 万 whose ranks sum to 100 or more
    ALL_GREEN = 89  # 绿一色
    RED_PEACOCK = 90  # 红孔雀
    THIRTEEN_ORPHANS = 91  # 十三幺
    NORTHEAST_EXPRESS = 92  # 东北新干线: 一条龙 with a pung of 东 and a pair of 北, or the other way round
    ALL_TERMINALS = 93  # 清老头 (004) / 清幺九 (MCR): every tile a terminal
    # four-player MCR (国标, 2006), the fans no earlier ruleset scores; kernels/fans/mcr_all_suits.py scores
    # them with the MCR fans above (MCR reuses an earlier id where the fan is the same: 绿一色, 十三幺, 清幺九,
    # 三同刻 = TRIPLE_PUNG, 三色三同顺 = MIXED_TRIPLE_CHOW)
    GREATER_HONORS_AND_KNITTED_TILES = 94  # 七星不靠
    ALL_EVEN_PUNGS = 95  # 全双刻
    UPPER_TILES = 96  # 全大: only 7, 8, 9
    MIDDLE_TILES = 97  # 全中: only 4, 5, 6
    LOWER_TILES = 98  # 全小: only 1, 2, 3
    THREE_SUITED_TERMINAL_CHOWS = 99  # 三色双龙会
    ALL_FIVE = 100  # 全带五
    LESSER_HONORS_AND_KNITTED_TILES = 101  # 全不靠
    KNITTED_STRAIGHT = 102  # 组合龙
    MIXED_STRAIGHT = 103  # 花龙
    REVERSIBLE_TILES = 104  # 推不倒
    MIXED_SHIFTED_PUNGS = 105  # 三色三节高
    CHICKEN_HAND = 106  # 无番和
    MIXED_SHIFTED_CHOWS = 107  # 三色三步高
    ALL_TYPES = 108  # 五门齐
    PREVALENT_WIND = 109  # 圈风刻
    SEAT_WIND = 110  # 门风刻
    DOUBLE_PUNG = 111  # 双同刻
    MIXED_DOUBLE_CHOW = 112  # 喜相逢
    ONE_VOIDED_SUIT = 113  # 缺一门
    NO_HONORS = 114  # 无字


N_FANS = len(Fan)
FAN_IDS = tuple(fan.name.lower() for fan in Fan)

# Win-context bits of the evaluator's `flags` argument.
SELF_DRAWN_FLAG = 1  # 自摸; otherwise the tile was discarded (or added to a kong, with ROBBING_KONG_FLAG)
LAST_WALL_TILE_FLAG = 2  # the win came on the last wall tile or the discard after it (妙手回春 / 海底捞月)
KONG_REPLACEMENT_FLAG = 4  # self-drawn on a kong replacement (杠上开花)
ROBBING_KONG_FLAG = 8  # won on a tile added to a pong (抢杠胡)
FOURTH_TILE_FLAG = 16  # the other three copies are visible on the table (和绝张)
READY_FLAG = 32  # the winner had declared ready (报听)
HEAVENLY_READY_FLAG = 64  # the ready declaration was a 天听
HEAVENLY_HAND_FLAG = 128  # 天胡
EARTHLY_HAND_FLAG = 256  # 地胡
HUMAN_HAND_FLAG = 512  # 人胡
DISCARD_AFTER_KONG_FLAG = 1024  # 杠上炮: won on the discard a player made right after its kong
EXTRA_DRAW_FLAG = 2048  # won in the extra draws after an exhausted wall (erren-challenge's 海底捞月)
# Two 2-bit fields, not bits: the winner's seat wind and the round's (prevalent) wind, 0 east, 1 south,
# 2 west, 3 north, for MCR's 门风刻 and 圈风刻. Both 0 (east) when not given; evaluators without wind fans
# ignore them.
SEAT_WIND_SHIFT = 12
ROUND_WIND_SHIFT = 14
WIND_FIELD_MASK = 3
WIND_NAMES = ("east", "south", "west", "north")

# The WinContext field (sim.families.scoring) behind each bit.
CONTEXT_FLAG_BITS = {
    "self_drawn": SELF_DRAWN_FLAG,
    "last_tile": LAST_WALL_TILE_FLAG,
    "kong_replacement": KONG_REPLACEMENT_FLAG,
    "robbing_kong": ROBBING_KONG_FLAG,
    "fourth_tile": FOURTH_TILE_FLAG,
    "ready": READY_FLAG,
    "tianting": HEAVENLY_READY_FLAG,
    "tianhu": HEAVENLY_HAND_FLAG,
    "dihu": EARTHLY_HAND_FLAG,
    "renhu": HUMAN_HAND_FLAG,
    "discard_after_kong": DISCARD_AFTER_KONG_FLAG,
    "extra_draw": EXTRA_DRAW_FLAG,
}

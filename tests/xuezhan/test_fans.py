"""The 血战-family fans (seeds 002 and 003, docs/rules/liangmen-xuezhan.md and docs/rules/sanren-liangfang.md):
a golden hand for every fan of both rulesets, every exclusion of both ruleset files, 卡二条 and 夹心五 both ways,
which four of a 豪华七对 is a 根, the win contexts the tiles or the rules rule out, the 32 cap, 003's table
options; then the kernel against its slow twin (tests/xuezhan/naive_xuezhan.py) on random hands, and the 查叫 value on
random ready hands.

Hands are written as all fourteen tiles (melds in brackets) and the winning tile, as in tests/erren/test_fans.py.
"""

import random
import tomllib

import naive_xuezhan as naive
import numpy as np
import pytest

from kernels.fan_ids import (
    DISCARD_AFTER_KONG_FLAG,
    EARTHLY_HAND_FLAG,
    FAN_IDS,
    HEAVENLY_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    N_FANS,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
    Fan,
)
from kernels.fans.xuezhan import NOT_A_WIN, _score_xuezhan, best_discard_value
from kernels.tiles import MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_KINDS
from sim.core.notation import Hand, parse_hand, parse_tile
from sim.core.ruleset import RULESET_DIR, load_ruleset, parse_ruleset
from sim.families.scoring import ScoringError, WinContext, score

XUEZHAN = "liangmen-xuezhan"
SANREN = "sanren-liangfang"


def _ruleset(ruleset):
    return load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset


def scored(text, win, ruleset=XUEZHAN, **context):
    full = parse_hand(text, sizes=(14,))
    tile = parse_tile(win)
    assert full.concealed[tile] > 0, f"the winning tile {win} is not among the concealed tiles of {text}"
    concealed = list(full.concealed)
    concealed[tile] -= 1
    return score(Hand(tuple(concealed), full.melds, full.flowers), tile, WinContext(**context), _ruleset(ruleset))


def fans(text, win, ruleset=XUEZHAN, **context):
    return scored(text, win, ruleset, **context).as_dict()["fans"]


def variant(ruleset_id, switches=None, drop_exclusion=None):
    """A shipped ruleset with some [ruleset] switches changed, or one (fan, target) exclusion removed."""
    data = tomllib.loads((RULESET_DIR / f"{ruleset_id}.toml").read_text(encoding="utf-8"))
    data["ruleset"].update(switches or {})
    if drop_exclusion:
        fan, target = drop_exclusion
        data["fans"][fan]["excludes"].remove(target)
    return parse_ruleset(data, where="variant")


# ------------------------------------------------------------------------------------- golden hands
# (ruleset, fourteen tiles, winning tile, context, expected {seed name: count}, expected raw value)
GOLDEN = [
    # ---- 002 patterns (番型)
    (XUEZHAN, "[111p] 456p789p123s55s", "3s", {}, {"基本胡": 1}, 1),
    (XUEZHAN, "[111p] 234p456p789p55p", "5p", {}, {"清一色": 1}, 4),
    (XUEZHAN, "[111p] 222s333p999s55p", "5p", {}, {"碰碰胡": 1}, 4),
    (XUEZHAN, "1133557799p2244s", "9p", {}, {"七对": 1, "门清": 1}, 8),
    (XUEZHAN, "11335555p224466s", "1p", {}, {"豪华七对": 1, "门清": 1}, 16),
    (XUEZHAN, "[111p] [999p] 222p555p88p", "8p", {}, {"清碰": 1}, 16),
    (XUEZHAN, "11335577992244p", "9p", {}, {"清七对": 1, "门清": 1}, 32),
    # a flush seven pairs with a four-of-a-kind is 清七对 with its 根 (002 has no 清豪华七对); 64, capped at 32
    (XUEZHAN, "11113355779922p", "2p", {}, {"清七对": 1, "根": 1, "门清": 1}, 64),
    # 卡二条: 13条 waited on 2条 alone, and the winning 2条 is read in 1-2-3条 ...
    (XUEZHAN, "[555p] 123s789s678p22p", "2s", {}, {"卡二条": 1, "基本胡": 1}, 2),
    # ... but 1113444条 waited on 2条, 3条 and 5条: no 卡二条 (more in test_kaerertiao_...)
    (XUEZHAN, "[999p] 11123444s456p", "2s", {}, {"基本胡": 1}, 1),
    # ---- 002 manners (操作) and extras (另加番)
    (XUEZHAN, "[111p] 456p789p123s55s", "3s", {"self_drawn": True}, {"自摸": 1, "基本胡": 1}, 2),
    (XUEZHAN, "[111p] 456p789p123s55s", "3s", {"robbing_kong": True}, {"抢杠": 1, "基本胡": 1}, 2),
    (XUEZHAN, "[111p] 456p789p123s55s", "3s", {"discard_after_kong": True}, {"杠上炮": 1, "基本胡": 1}, 2),
    (XUEZHAN, "[1111p] 456p789p123s55s", "3s", {"self_drawn": True, "kong_replacement": True},
     {"自摸": 1, "杠上花": 1, "根": 1, "基本胡": 1}, 8),
    (XUEZHAN, "456p789p123s55s111p", "3s", {"dihu": True}, {"地胡": 1, "门清": 1, "基本胡": 1}, 4),
    (XUEZHAN, "456p789p123s55s111p", "3s", {"tianhu": True, "self_drawn": True},
     {"天胡": 1, "自摸": 1, "门清": 1, "基本胡": 1}, 16),
    (XUEZHAN, "[111p] 456p789p123s55s", "3s", {"ready": True}, {"报叫": 1, "基本胡": 1}, 16),
    (XUEZHAN, "[2222p] 345p678s999s11s", "1s", {}, {"根": 1, "基本胡": 1}, 2),
    # 根 counts the four copies across a pong and the concealed tiles; no 1 or 9: 断幺九
    (XUEZHAN, "[555p] 456p234s678s22s", "2s", {}, {"根": 1, "断幺九": 1, "基本胡": 1}, 4),
    # a concealed kong keeps 门清
    (XUEZHAN, "(1111p) 234p567s789s55s", "5s", {}, {"根": 1, "门清": 1, "基本胡": 1}, 4),
    # ---- 003 (sums of fans; the value is 2**fans)
    (SANREN, "[111p] 333s555p777s99s", "9s", {}, {"对对胡": 1}, 2),
    (SANREN, "123p456p789s234s55s", "1p", {}, {"门清": 1}, 2),
    (SANREN, "[111p] 234p456p789s55s", "2p", {"self_drawn": True}, {"自摸": 1}, 2),
    (SANREN, "112233p456s789s55s", "9s", {}, {"姊妹对": 1, "门清": 1}, 4),
    (SANREN, "[555s] 123p456p789p22s", "1p", {}, {"一条龙": 1}, 2),
    (SANREN, "[111p] 234p567p888p99p", "9p", {}, {"清一色": 1}, 4),
    (SANREN, "1133p22445577s99s", "1p", {}, {"七对": 1, "门清": 1}, 8),
    (SANREN, "[111p] [333p] 555p777p99p", "9p", {}, {"清对": 1}, 8),
    (SANREN, "[222p] [555s] 888p222s55p", "5p", {}, {"将对": 1}, 8),
    (SANREN, "1111p22p3355s7799s", "3s", {}, {"龙七对": 1, "门清": 1}, 16),
    (SANREN, "11335577992244p", "9p", {}, {"清七对": 1, "姊妹对": 1, "门清": 1}, 64),
    (SANREN, "11113355779922p", "2p", {}, {"清龙七对": 1, "姊妹对": 1, "门清": 1}, 128),
    (SANREN, "2222p5588p225588s", "8s", {}, {"将七对": 1, "门清": 1}, 32),
    (SANREN, "[111p] [333s] [555p] [777s] 99s", "9s", {}, {"金钩钓": 1, "对对胡": 1}, 4),
    # 将金钩钓 is also 将对 (which replaces 对对胡): 003 "不计金钩钓（不计对对胡，因为将对本身就不计对对胡）"
    (SANREN, "[222p] [555s] [888p] [222s] 55p", "5p", {}, {"将金钩钓": 1, "将对": 1}, 128),
    (SANREN, "[111p] [333p] [555p] [777p] 99p", "9p", {}, {"清金钩钓": 1, "对对胡": 1}, 32),
    (SANREN, "123p789p111s999s99p", "1p", {}, {"全幺九": 1, "门清": 1}, 16),
    (SANREN, "[111p] 123p789p789p99p", "2p", {}, {"清幺九": 1, "根": 2, "姊妹对": 1}, 128),
    (SANREN, "[2222s] 345p678p111s99s", "9s", {}, {"根": 1}, 2),
    # 夹心五: 4556 winning on 5 (456 and the pair 55) and 45556 winning on 5 (456 and 555)
    (SANREN, "45556s [111p] [999p] 789s", "5s", {}, {"夹心五": 1}, 2),
    (SANREN, "455556s [111p] 789p 11s", "5s", {}, {"夹心五": 1, "根": 1}, 4),
    # a 5 won at the edge of 345 (or as 567): no 夹心五
    (SANREN, "345s567s123p[999p]11s", "5s", {}, {}, 1),
    (SANREN, "123p456p789s234s55s", "1p", {"tianhu": True, "self_drawn": True}, {"天胡": 1, "自摸": 1, "门清": 1}, 32),
    (SANREN, "123p456p789s234s55s", "1p", {"dihu": True}, {"地胡": 1, "门清": 1}, 8),
    (SANREN, "[1111p] 234p456p789s55s", "2p", {"self_drawn": True, "kong_replacement": True},
     {"杠上开花": 1, "自摸": 1, "根": 1}, 8),
    (SANREN, "[111p] 234p456p789s55s", "2p", {"discard_after_kong": True}, {"杠上炮": 1}, 2),
    (SANREN, "[111p] 234p456p789s55s", "2p", {"robbing_kong": True}, {"抢杠胡": 1}, 2),
    (SANREN, "[111p] 234p456p789s55s", "2p", {"self_drawn": True, "last_tile": True}, {"扫底胡": 1, "自摸": 1}, 4),
    (SANREN, "[111p] 234p456p789s55s", "2p", {"last_tile": True}, {"海底炮": 1}, 2),
    # 中张 is off by default (003: it needs the option 门清中张)
    (SANREN, "234p456p678s345s22s", "2p", {}, {"门清": 1}, 2),
]


@pytest.mark.parametrize(("ruleset", "text", "win", "context", "expected", "value"), GOLDEN)
def test_every_fan_scores_on_a_hand_built_for_it(ruleset, text, win, context, expected, value):
    result = scored(text, win, ruleset, **context)
    assert result.as_dict()["fans"] == expected
    assert result.value == value


def test_every_fan_of_both_rulesets_has_a_golden_hand():
    for ruleset_id in (XUEZHAN, SANREN):
        rules = load_ruleset(ruleset_id)
        shown = {name for ruleset, *_, expected, _ in GOLDEN if ruleset == ruleset_id for name in expected}
        assert {rules.fan_names[fan] for fan in rules.fans} - shown == set()


# (fourteen tiles, winning tile, expected fans, value): docs/rules/liangmen-xuezhan.md, 002 "玩家有1、3条，胡2条且
# 该2条需要和1、3条组成123的一手牌"
KAERTIAO = [
    # 1223条 before the win waits on 2条 alone, and the 2条 is the middle of 123
    ("12223s456p789p678s", "2s", {"卡二条": 1, "门清": 1, "基本胡": 1}, 4),
    # 12334条 waited on 2条 and 5条: a 2条 read as 123 is no 卡二条 on a two-sided wait
    ("122334s678s999p55p", "2s", {"门清": 1, "基本胡": 1}, 2),
    # a single wait on 2条 as the pair (单钓) is no 卡二条: the 2条 is not in 1-2-3
    ("456p789p567s999s22s", "2s", {"门清": 1, "基本胡": 1}, 2),
    # melds are fixed sets: the wait is the concealed tiles' (a pong, a concealed kong beside 1223条)
    ("[999p] 12223s456p678s", "2s", {"卡二条": 1, "基本胡": 1}, 2),
    ("(1111p) 12223s456p678s", "2s", {"卡二条": 1, "根": 1, "门清": 1, "基本胡": 1}, 8),
    # 1113条 would wait on 3条 too, but the pong and the 3条 in hand are all four 3条: 2条 alone can come
    ("[333s] 11123s456p789p", "2s", {"卡二条": 1, "根": 1, "基本胡": 1}, 4),
    # 1123344条 waits on 2条 and 5条, and all four 5条 are in the kong: 卡二条, read 44 123 123
    # (the other reading, 11 234 234, has no 1-2-3条)
    ("[5555s] 11223344s888s", "2s", {"清一色": 1, "卡二条": 1, "根": 1}, 16),
]


@pytest.mark.parametrize(("text", "win", "expected", "value"), KAERTIAO)
def test_kaerertiao_needs_a_single_wait_on_2s_read_as_the_middle_of_123s(text, win, expected, value):
    result = scored(text, win, XUEZHAN)
    assert result.as_dict()["fans"] == expected
    assert result.value == value


# (ruleset, fourteen tiles, winning tile, expected fans, value). 豪华七对 is 七对 ×2 for its four-of-a-kind, so
# that four is not also a 根, but a second four is one (docs/rules/liangmen-xuezhan.md). 003 reads the same way:
# its values are sums, 龙七对 3 = 七对 2 + 根 1 and 清龙七对 5 = 清七对 4 + 根 1, so "龙七对 不计七对、根" is the 根 of
# the four the pattern is built on; where 003 means more than one 根 it says so (十八罗汉 "不计4根"). Taking every
# 根 would make a second four worth nothing in seven pairs and +1 in every other hand. 将七对 (a 龙七对 of
# 2/5/8) and 清龙七对 absorb their one four likewise (docs/rules/sanren-liangfang.md).
LUXURY_ROOTS = [
    (XUEZHAN, "11335555p224466s", "1p", {"豪华七对": 1, "门清": 1}, 16),
    (XUEZHAN, "1111p33p55p2222s77s", "7s", {"豪华七对": 1, "根": 1, "门清": 1}, 32),
    # 清七对 takes the place of 豪华七对, which then absorbs nothing: both fours are 根
    (XUEZHAN, "11112222p335577p", "7p", {"清七对": 1, "根": 2, "门清": 1}, 128),
    (SANREN, "1111p22p3355s7799s", "3s", {"龙七对": 1, "门清": 1}, 16),
    (SANREN, "1111p33p55p2222s77s", "7s", {"龙七对": 1, "根": 1, "门清": 1}, 32),
    (SANREN, "11112222335577p", "7p", {"清龙七对": 1, "根": 1, "姊妹对": 1, "门清": 1}, 256),
    (SANREN, "2222p88p2222s55s88s", "8s", {"将七对": 1, "根": 1, "门清": 1}, 64),
]


@pytest.mark.parametrize(("ruleset", "text", "win", "expected", "value"), LUXURY_ROOTS)
def test_the_four_that_makes_a_luxury_seven_pairs_is_no_root_but_every_further_four_is(ruleset, text, win, expected, value):
    result = scored(text, win, ruleset)
    assert result.as_dict()["fans"] == expected
    assert result.value == value


def test_all_simples_counts_for_003_only_with_the_option_menqing_zhongzhang():
    rules = variant(SANREN, {"all_simples_scored": True})
    assert fans("234p456p678s345s22s", "2p", rules) == {"门清": 1, "中张": 1}
    assert Fan.ALL_SIMPLES not in load_ruleset(SANREN).fans


def test_self_drawn_bonus_unit_adds_a_unit_instead_of_the_self_drawn_fan():
    rules = variant(SANREN, {"self_drawn_bonus": "unit"})
    result = scored("[111p] 234p456p789s55s", "2p", rules, self_drawn=True)
    assert result.as_dict()["fans"] == {} and result.value == 1 and result.self_drawn_unit == 1
    assert scored("[111p] 234p456p789s55s", "2p", SANREN, self_drawn=True).self_drawn_unit == 0


def test_each_payer_pays_at_most_32_in_liangmen_xuezhan():
    result = scored("11113355779922p", "2p", XUEZHAN, self_drawn=True)
    assert (result.value, result.capped_value) == (128, 32)
    assert result.as_dict()["capped_value"] == 32
    uncapped = scored("11113355779922p", "2p", SANREN)
    assert uncapped.capped_value == uncapped.value == 128  # 003 has no cap


# ------------------------------------------------------------------------------------- exclusions
# (ruleset, excluding fan id, the excluded fan ids, a hand where all of them would count, winning tile)
EXCLUSIONS = [
    (XUEZHAN, "full_flush_pungs", ["full_flush", "all_pungs", "basic_win"], "[111p] [999p] 222p555p88p", "8p"),
    (XUEZHAN, "full_flush_seven_pairs", ["full_flush", "seven_pairs", "luxury_seven_pairs"], "11113355779922p", "2p"),
    (XUEZHAN, "luxury_seven_pairs", ["seven_pairs", "root"], "11335555p224466s", "1p"),
    (XUEZHAN, "full_flush", ["basic_win"], "[111p] 234p456p789p55p", "5p"),
    (XUEZHAN, "all_pungs", ["basic_win"], "[111p] 222s333p999s55p", "5p"),
    (SANREN, "full_flush_luxury_seven_pairs", ["full_flush", "luxury_seven_pairs", "seven_pairs", "root", "full_flush_seven_pairs"],
     "11113355779922p", "2p"),
    (SANREN, "full_flush_seven_pairs", ["full_flush", "seven_pairs"], "11335577992244p", "9p"),
    (SANREN, "seven_pairs_of_258", ["seven_pairs", "luxury_seven_pairs", "root"], "2222p5588p225588s", "8s"),
    (SANREN, "golden_hook_of_258", ["golden_hook"], "[222p] [555s] [888p] [222s] 55p", "5p"),
    (SANREN, "full_flush_golden_hook", ["full_flush", "golden_hook", "full_flush_pungs"], "[111p] [333p] [555p] [777p] 99p", "9p"),
    (SANREN, "full_flush_terminal_sets", ["full_flush", "all_terminal_sets"], "[111p] 123p789p789p99p", "2p"),
    (SANREN, "full_flush_pungs", ["full_flush", "all_pungs"], "[111p] [333p] 555p777p99p", "9p"),
    (SANREN, "pungs_of_258", ["all_pungs"], "[222p] [555s] 888p222s55p", "5p"),
    (SANREN, "luxury_seven_pairs", ["seven_pairs", "root"], "1111p22p3355s7799s", "3s"),
]
EXCLUSION_CASES = [(ruleset, fan, target, text, win) for ruleset, fan, targets, text, win in EXCLUSIONS for target in targets]


@pytest.mark.parametrize(("ruleset", "fan", "target", "text", "win"), EXCLUSION_CASES)
def test_an_excluding_fan_removes_a_fan_that_would_otherwise_count(ruleset, fan, target, text, win):
    rules = load_ruleset(ruleset)
    name, target_name = rules.fan_names[Fan[fan.upper()]], rules.fan_names[Fan[target.upper()]]
    found = fans(text, win, rules)
    assert name in found and target_name not in found
    assert target_name in fans(text, win, variant(ruleset, drop_exclusion=(fan, target)))


def test_every_exclusion_of_both_ruleset_files_is_pinned():
    pinned = {(ruleset, fan, target) for ruleset, fan, target, _, _ in EXCLUSION_CASES}
    for ruleset_id in (XUEZHAN, SANREN):
        rules = load_ruleset(ruleset_id)
        listed = {(ruleset_id, FAN_IDS[fan], FAN_IDS[target]) for fan in rules.fans for target in rules.excludes(fan)}
        assert listed == {case for case in pinned if case[0] == ruleset_id}


# ------------------------------------------------------------------------------------- the Python entry point
def test_tiles_outside_tong_and_tiao_are_one_clear_error():
    with pytest.raises(ScoringError, match="1m is not in the liangmen-xuezhan wall"):
        scored("[111p] 456p789p123s11m", "1m", XUEZHAN)
    with pytest.raises(ScoringError, match="no chows"):
        score(parse_hand("456p789p123s55s [123p]", sizes=None), parse_tile("5s"), WinContext(), load_ruleset(SANREN))


def test_an_incomplete_hand_is_not_a_win():
    with pytest.raises(ScoringError, match="not a winning hand"):
        scored("[111p] 456p789p124s55s", "4s", XUEZHAN)


def test_the_context_must_fit_the_family():
    with pytest.raises(ScoringError, match="报叫"):
        scored("[111p] 456p789p123s55s", "3s", SANREN, ready=True)
    with pytest.raises(ScoringError, match="杠上炮"):
        scored("[111p] 456p789p123s55s", "3s", XUEZHAN, discard_after_kong=True, self_drawn=True)
    with pytest.raises(ScoringError, match="杠上炮"):
        scored("12312378978955m", "5m", "erren", discard_after_kong=True)


@pytest.mark.parametrize("ruleset", [XUEZHAN, SANREN])
def test_robbing_a_kong_of_a_kind_the_winner_holds_is_cleared_as_the_erren_scorer_clears_it(ruleset):
    # the robbed pong and its added tile are all four copies: a winner holding another cannot have robbed it
    robbing = "抢杠" if ruleset == XUEZHAN else "抢杠胡"
    assert robbing in fans("[111p] 456p789p123s55s", "3s", ruleset, robbing_kong=True)
    for text in ("[111p] 456p789p123s33s", "[333s] 123p456p234s55s"):  # another 3条 concealed, or a pong of them
        assert fans(text, "3s", ruleset, robbing_kong=True) == fans(text, "3s", ruleset)


@pytest.mark.parametrize("ruleset", [XUEZHAN, SANREN])
def test_kong_replacement_without_a_kong_among_the_melds_is_cleared_as_the_erren_scorer_clears_it(ruleset):
    replacement = "杠上花" if ruleset == XUEZHAN else "杠上开花"
    assert replacement in fans("(1111p) 456p789p123s55s", "3s", ruleset, self_drawn=True, kong_replacement=True)
    assert replacement in fans("[1111p] 456p789p123s55s", "3s", ruleset, self_drawn=True, kong_replacement=True)
    no_kong = "[111p] 456p789p123s55s"
    assert fans(no_kong, "3s", ruleset, self_drawn=True, kong_replacement=True) == fans(no_kong, "3s", ruleset, self_drawn=True)


def test_dihu_in_liangmen_xuezhan_is_a_win_on_the_dealers_first_discard_never_a_self_draw():
    with pytest.raises(ScoringError, match="地胡 in liangmen-xuezhan is a win on the dealer's first discard"):
        scored("456p789p123s55s111p", "3s", XUEZHAN, dihu=True, self_drawn=True)
    assert "地胡" in fans("456p789p123s55s111p", "3s", XUEZHAN, dihu=True)
    # 003's 地胡 is also the non-dealer's self-draw on its first draw
    assert fans("123p456p789s234s55s", "1p", SANREN, dihu=True, self_drawn=True) == {"地胡": 1, "自摸": 1, "门清": 1}


@pytest.mark.parametrize("ruleset", [XUEZHAN, SANREN])
@pytest.mark.parametrize("after_a_kong", ["robbing_kong", "discard_after_kong"])
def test_dihu_is_void_after_any_pong_or_kong_so_never_on_a_robbed_kong_or_a_discard_after_a_kong(ruleset, after_a_kong):
    with pytest.raises(ScoringError, match="地胡 is void after any pong or kong"):
        scored("456p789p123s55s111p", "3s", ruleset, dihu=True, **{after_a_kong: True})


def test_the_score_command_takes_a_xuezhan_ruleset(mjsim):
    status, out, _ = mjsim("score", "1133557799224p", "--win", "4p", "--ruleset", XUEZHAN, "--self-drawn", "--json")
    assert status == 0
    assert '"清七对": 1' in out and '"value": 64' in out and '"capped_value": 32' in out


# ------------------------------------------------------------------------------------- kernel vs twin
def _kernel(concealed, melds, win, flags, rules):
    concealed_array = np.zeros(N_KINDS, np.int8)
    for kind, count in concealed.items():
        concealed_array[kind] = count
    meld_array = np.zeros((4, 2), np.int8)
    for index, (code, kind) in enumerate(melds):
        meld_array[index] = (code, kind)
    counts = np.zeros(N_FANS, np.int64)
    value = _score_xuezhan(concealed_array, meld_array, len(melds), win, flags, *rules.kernel_arrays(),
                           1 if rules.combine == "multiply" else 0, counts)
    return int(value), {Fan(fan): int(counts[fan]) for fan in np.flatnonzero(counts)}


ALL_FLAGS = (SELF_DRAWN_FLAG, LAST_WALL_TILE_FLAG, KONG_REPLACEMENT_FLAG, ROBBING_KONG_FLAG, DISCARD_AFTER_KONG_FLAG,
             READY_FLAG, HEAVENLY_HAND_FLAG, EARTHLY_HAND_FLAG)
# Kind pools that make the rare fans frequent: any tile, one suit, 2/5/8 only, terminals and their chows.
POOLS = [list(range(9, 27)), list(range(9, 18)), list(range(18, 27)), [10, 13, 16, 19, 22, 25],
         [9, 10, 11, 15, 16, 17, 18, 19, 20, 24, 25, 26], [12, 13, 14, 21, 22, 23, 11, 15, 20, 24]]


TERMINAL_KINDS, TERMINAL_CHOWS = [9, 17, 18, 26], [9, 15, 18, 24]  # 1 and 9; the chows 123 and 789


def random_complete_hand(rng):
    """(concealed without the winning tile, melds, winning tile) of a random complete hand, or None."""
    pool = rng.choice(POOLS)
    chow_starts = [kind for kind in pool if naive.rank(kind) <= 7]
    pung_kinds = pair_kinds = pool
    terminal = rng.random() < 0.15  # every set and the pair with a 1 or a 9 (全幺九)
    if terminal:
        chow_starts, pung_kinds, pair_kinds = TERMINAL_CHOWS, TERMINAL_KINDS, TERMINAL_KINDS
        if rng.random() < 0.5:  # 清幺九
            suit = rng.choice([0, 1])
            chow_starts = [kind for kind in TERMINAL_CHOWS if naive.suit(kind) == suit]
            pung_kinds = pair_kinds = [kind for kind in TERMINAL_KINDS if naive.suit(kind) == suit]
    used = dict.fromkeys(range(9, 27), 0)
    if rng.random() < 0.2:  # seven pairs
        kinds = [rng.choice(pool) for _ in range(7)]
        for kind in kinds:
            used[kind] += 2
        if max(used.values()) > 4:
            return None
        standing, melds = dict(used), []
    else:
        n_melds = rng.choice([0, 0, 1, 2, 3, 4])
        melds = []
        for _ in range(n_melds):
            kind = rng.choice(pung_kinds)
            code = rng.choice([MELD_PONG, MELD_KONG, MELD_CONCEALED_KONG])
            used[kind] += 3 if code == MELD_PONG else 4
            melds.append((code, kind))
        standing = dict.fromkeys(range(9, 27), 0)
        standing[rng.choice(pair_kinds)] += 2
        sets = 4 - n_melds
        if sets >= 3 and rng.random() < 0.1:  # 一条龙: 123 456 789 of one suit
            start = rng.choice([9, 18])
            for first in (start, start + 3, start + 6):
                for step in range(3):
                    standing[first + step] += 1
            sets -= 3
        for _ in range(sets):
            if chow_starts and rng.random() < 0.5:
                first = rng.choice(chow_starts)
                for step in range(3):
                    standing[first + step] += 1
            else:
                standing[rng.choice(pung_kinds)] += 3
        if any(used[kind] + standing[kind] > 4 for kind in used):
            return None
    win = rng.choice([kind for kind, count in standing.items() if count])
    standing[win] -= 1
    return standing, melds, win


def random_flags(rng):
    flags = 0
    for bit in ALL_FLAGS:
        if rng.random() < 0.15:
            flags |= bit
    return flags


@pytest.mark.parametrize("ruleset_id", [XUEZHAN, SANREN, "sanren-with-options"])
def test_kernel_matches_the_slow_twin_on_random_complete_hands(ruleset_id):
    rules = variant(SANREN, {"all_simples_scored": True}) if ruleset_id == "sanren-with-options" else load_ruleset(ruleset_id)
    rng = random.Random(20240602)
    checked = 0
    while checked < 3000:
        hand = random_complete_hand(rng)
        if hand is None:
            continue
        concealed, melds, win = hand
        flags = random_flags(rng)
        expected_value, expected_fans = naive.best(concealed, melds, win, flags, rules)
        value, found = _kernel(concealed, melds, win, flags, rules)
        assert value == expected_value, (concealed, melds, win, flags)
        assert found in expected_fans, (concealed, melds, win, flags, found, expected_fans)
        checked += 1


def test_kernel_and_twin_agree_that_random_hands_are_not_wins():
    rules = load_ruleset(SANREN)
    rng = random.Random(7)
    for _ in range(2000):
        concealed = dict.fromkeys(range(9, 27), 0)
        for kind in rng.sample([kind for kind in range(9, 27) for _ in range(4)], 13):
            concealed[kind] += 1
        win = rng.choice([kind for kind in range(9, 27) if concealed[kind] < 4])
        expected_value, _ = naive.best(concealed, [], win, 0, rules)
        assert _kernel(concealed, [], win, 0, rules)[0] == expected_value
        assert expected_value == NOT_A_WIN or expected_value >= 1


@pytest.mark.parametrize("ruleset_id", [XUEZHAN, SANREN])
def test_best_discard_value_matches_the_twin_on_random_ready_hands(ruleset_id):
    rules = load_ruleset(ruleset_id)
    rng = random.Random(99)
    checked = 0
    while checked < 500:
        hand = random_complete_hand(rng)
        if hand is None:
            continue
        concealed, melds, _ = hand
        # take out one more tile and put in a random one: ready or not, the two must agree
        present = [kind for kind, count in concealed.items() if count]
        concealed = dict(concealed)
        concealed[rng.choice(present)] -= 1
        if rng.random() < 0.3:
            concealed[rng.randrange(9, 27)] += 1
        else:
            concealed[rng.choice(present)] += 1
        if any(count > 4 for count in concealed.values()):
            continue
        flags = random_flags(rng) & ~SELF_DRAWN_FLAG & ~KONG_REPLACEMENT_FLAG
        concealed_array = np.zeros(N_KINDS, np.int8)
        for kind, count in concealed.items():
            concealed_array[kind] = count
        meld_array = np.zeros((4, 2), np.int8)
        for index, (code, kind) in enumerate(melds):
            meld_array[index] = (code, kind)
        value, counts = best_discard_value(concealed_array, meld_array, len(melds), flags, *rules.kernel_arrays(),
                                           rules.combine == "multiply")
        assert value == naive.best_discard_value(concealed, melds, flags, rules)
        assert value > 0 or not counts.any()  # not ready: no fans (a ready 003 hand may have none, worth 2**0)
        checked += 1


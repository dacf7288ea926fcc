"""Rulesets are data: the shipped files carry the seeds' values, erren-classic differs from erren only
where docs/rules/erren-classic.md says 001 differs, a new ruleset is one new file, and a bad file gets one clear message."""

import tomllib

import pytest

from kernels.fan_ids import FAN_IDS, Fan
from sim.core.notation import parse_hand, parse_tile
from sim.core.ruleset import RULESET_DIR, RulesetError, available, load_ruleset, parse_ruleset
from sim.families.scoring import WinContext, score

# The seeds' tables, as printed (000: 二人麻将游戏说明; 001: ClassicTwo).
SEED_000_VALUES = {
    88: "大四喜 大三元 九莲宝灯 四杠 连七对",
    64: "小四喜 小三元 字一色 四暗刻 一色双龙会",
    48: "一色四同顺 一色四节高 天胡",
    32: "一色四步高 三杠 混幺九 地胡",
    24: "七对 清一色 一色三同顺 一色三节高 人胡",
    16: "清龙 一色三步高 三暗刻 天听",
    12: "大于5 小于5 三风刻",
    8: "妙手回春 海底捞月 杠上开花 抢杠胡",
    6: "碰碰胡 混一色 全求人 双暗杠 双箭刻",
    4: "全带幺 不求人 双明杠 和绝张",
    2: "箭刻 门前清 平和 四归一 双暗刻 暗杠 断幺",
    1: "一般高 连6 老少副 幺九刻 明杠 边张 坎张 单钓将 花牌 自摸",
}
SEED_001_VALUES = {
    168: "七星参北斗",
    88: "大四喜 大三元 九宝莲灯 四杠子 连七对 天胡 地胡 人胡",
    64: "小四喜 小三元 四暗刻 一色双龙会 字一色",
    48: "一色四同顺 一色四节高 三元七对 四喜七对",
    32: "一色四步高 混幺九 三杠 天听",
    24: "四字刻 大三风 一色三同顺 七对 一色三节高 清一色",
    16: "清龙 一色三步高 三暗刻",
    12: "大于五 小于五",
    8: "妙手回春 海底捞月 杠上开花 抢杠胡",
    6: "小三风 双箭刻 双暗杠 碰碰和 混一色 全求人",
    4: "全带幺 双明杠 不求人 和绝张",
    2: "箭刻 平和 四归一 断幺 双暗刻 暗杠 门前清",
    1: "一般高 连六 老少副 幺九刻 明杠 边张 坎张 单钓将 报听 自摸",
}


@pytest.mark.parametrize(("ruleset", "table"), [("erren", SEED_000_VALUES), ("erren-classic", SEED_001_VALUES)])
def test_ruleset_values_are_the_seed_tables(ruleset, table):
    rules = load_ruleset(ruleset)
    expected = {name: value for value, names in table.items() for name in names.split()}
    found = {rules.fan_names[fan]: int(rules.values[fan]) for fan in rules.fans}
    assert found == expected


def test_shipped_rulesets_and_their_switches():
    assert {"erren", "erren-classic"} <= set(available())
    erren, classic = load_ruleset("erren"), load_ruleset("erren-classic")
    assert (erren.min_fan, erren.flowers, erren.max_doubles, erren.ready_requires_concealed) == (8, True, None, False)
    assert (classic.min_fan, classic.flowers) == (8, False)
    assert erren.tile_set == classic.tile_set == "wan-honours"


def test_classic_differs_from_mcr_only_at_the_rules_md_overrides():
    """Exclusions among the fans both rulesets score: 001 adds and removes exactly the rules book's list."""
    erren, classic = load_ruleset("erren"), load_ruleset("erren-classic")
    shared = set(erren.fans) & set(classic.fans)
    added, removed = {}, {}
    for fan in shared:
        ours, theirs = erren.excludes(fan) & shared, classic.excludes(fan) & shared
        if theirs - ours:
            added[fan] = theirs - ours
        if ours - theirs:
            removed[fan] = ours - theirs
    # 大三风 also excludes 小三风, a fan erren does not score
    assert added == {
        Fan.BIG_FOUR_WINDS: {Fan.HALF_FLUSH},
        Fan.LITTLE_FOUR_WINDS: {Fan.HALF_FLUSH},
        Fan.LITTLE_THREE_DRAGONS: {Fan.HALF_FLUSH},
        Fan.NINE_GATES: {Fan.SELF_DRAWN},
        Fan.BIG_THREE_WINDS: {Fan.ALL_PUNGS},
    }
    assert removed == {fan: {Fan.FULLY_CONCEALED_HAND} for fan in (Fan.SEVEN_PAIRS, Fan.FOUR_CONCEALED_PUNGS, Fan.SEVEN_SHIFTED_PAIRS)}
    assert Fan.LITTLE_THREE_WINDS in classic.excludes(Fan.BIG_THREE_WINDS)
    assert erren.values[Fan.BIG_THREE_WINDS] == 12 and classic.values[Fan.BIG_THREE_WINDS] == 24


def test_a_new_ruleset_is_one_data_file(tmp_path):
    text = (RULESET_DIR / "erren.toml").read_text(encoding="utf-8")
    text = text.replace('id = "erren"', 'id = "erren-rich-flush"')
    text = text.replace('name = "清一色"\nvalue = 24', 'name = "清一色"\nvalue = 30')
    path = tmp_path / "erren-rich-flush.toml"
    path.write_text(text, encoding="utf-8")
    rules = load_ruleset(path)
    result = score(parse_hand("12345678m12355m", sizes=(13,)), parse_tile("9m"), WinContext(), rules)
    assert result.as_dict()["fans"]["清一色"] == 1 and result.as_dict()["values"]["清一色"] == 30


def _erren_data():
    return tomllib.loads((RULESET_DIR / "erren.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data.pop("ruleset"), "missing the \\[ruleset\\] table"),
        (lambda data: data["ruleset"].pop("min_fan"), "lacks 'min_fan'"),
        (lambda data: data["ruleset"].update(min_fan="eight"), "min_fan = 'eight' has the wrong type"),
        (lambda data: data["ruleset"].update(max_doubles="lots"), "max_doubles is a number of doubles or 'unlimited'"),
        (lambda data: data["ruleset"].update(tile_set="bamboo"), "tile_set 'bamboo'"),
        (lambda data: data["ruleset"].update(colour="red"), "unknown switch 'colour'"),
        (lambda data: data["fans"].update(thirteen_wonders={"name": "十三不靠", "value": 88, "excludes": []}), "unknown fan id 'thirteen_wonders'"),
        (lambda data: data["fans"]["full_flush"].update(value=0), "value must be a positive integer"),
        (lambda data: data["fans"]["full_flush"].update(excludes=["no_honours"]), "excludes unknown fan id 'no_honours'"),
        (lambda data: data["fans"]["full_flush"].update(excludes=["full_flush"]), "excludes itself"),
        (lambda data: data["fans"]["full_flush"].update(excludes=["ready_hand"]), "which this ruleset does not score"),
        (lambda data: data["fans"]["self_drawn"].update(excludes=["full_flush"]), "excludes the more valuable 'full_flush'"),
        (lambda data: data["fans"].pop("flower_tiles"), r"flowers = true \(or bonus_tiles\) needs"),
        (lambda data: data["fans"]["full_flush"].pop("name"), "exactly the keys name, value and excludes"),
    ],
)
def test_a_malformed_ruleset_is_rejected_with_one_clear_message(change, message):
    data = _erren_data()
    change(data)
    with pytest.raises(RulesetError, match=message):
        parse_ruleset(data, where="test.toml")


def test_unknown_or_unreadable_rulesets_are_rejected(tmp_path):
    with pytest.raises(RulesetError, match="unknown ruleset 'erren-plus'; choose one of"):
        load_ruleset("erren-plus")
    with pytest.raises(RulesetError, match="does not exist"):
        load_ruleset(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[ruleset\nid = ", encoding="utf-8")
    with pytest.raises(RulesetError, match="not valid TOML"):
        load_ruleset(broken)


def test_fan_ids_are_stable_ascii_names():
    assert all(fan_id.isascii() and fan_id == fan_id.lower() for fan_id in FAN_IDS)
    assert FAN_IDS[Fan.SEVEN_PAIRS] == "seven_pairs" and len(set(FAN_IDS)) == len(FAN_IDS)


# ---------------------------------------------------------------------------------- the 血战 family
# The seeds' values, as the rules book prints them (002: multipliers; 003: fans). 003's 中张 is listed but off by default.
RULES_MD_002_VALUES = {
    "基本胡": 1, "清一色": 4, "碰碰胡": 4, "七对": 4, "豪华七对": 8, "清碰": 16, "清七对": 16, "卡二条": 2,
    "自摸": 2, "抢杠": 2, "杠上炮": 2, "杠上花": 2, "地胡": 2, "天胡": 4,
    "根": 2, "断幺九": 2, "门清": 2, "报叫": 16,
}
RULES_MD_003_VALUES = {
    "自摸": 1, "门清": 1, "对对胡": 1, "姊妹对": 1, "一条龙": 1, "清一色": 2, "七对": 2, "清对": 3, "将对": 3,
    "龙七对": 3, "清七对": 4, "清龙七对": 5, "将七对": 4, "金钩钓": 1, "将金钩钓": 4, "清金钩钓": 4, "全幺九": 3,
    "清幺九": 4, "根": 1, "夹心五": 1, "天胡": 3, "地胡": 2, "杠上开花": 1, "杠上炮": 1, "抢杠胡": 1, "扫底胡": 1,
    "海底炮": 1,
}


@pytest.mark.parametrize(("ruleset", "table"), [("liangmen-xuezhan", RULES_MD_002_VALUES), ("sanren-liangfang", RULES_MD_003_VALUES)])
def test_xuezhan_values_are_rules_md_section_6(ruleset, table):
    rules = load_ruleset(ruleset)
    assert {rules.fan_names[fan]: int(rules.values[fan]) for fan in rules.fans} == table


def test_xuezhan_rulesets_and_their_switches():
    liangmen, sanren = load_ruleset("liangmen-xuezhan"), load_ruleset("sanren-liangfang")
    assert {"liangmen-xuezhan", "sanren-liangfang"} <= set(available())
    assert (liangmen.family, liangmen.players, liangmen.combine, liangmen.cap) == ("xuezhan", (4,), "multiply", 32)
    assert (sanren.family, sanren.players, sanren.combine, sanren.cap) == ("xuezhan", (3, 2), "power_of_two", 0)
    assert liangmen.tile_set == sanren.tile_set == "tong-tiao"
    for rules in (liangmen, sanren):
        assert (rules.min_fan, rules.flowers, rules.max_doubles, rules.ready_requires_concealed) == (0, False, 0, False)
    assert (liangmen.xuezhan.declared_ready, liangmen.xuezhan.pass_pong_lock, liangmen.xuezhan.pass_win_lock) == (True, True, True)
    assert (liangmen.xuezhan.exposed_discarder, liangmen.xuezhan.exposed_others) == (2, 1)  # 擦挂
    assert (liangmen.xuezhan.added_others, liangmen.xuezhan.concealed_others) == (1, 2)
    assert sanren.xuezhan.exposed_others == 0 and sanren.xuezhan.kong_units_in_win and sanren.xuezhan.missed_win_lock
    assert not sanren.xuezhan.passed_kong_pays and not sanren.xuezhan.last_tile_kong and sanren.xuezhan.chajiao_voids_kong_money
    assert (sanren.xuezhan.self_drawn_bonus, sanren.xuezhan.exchange_three, sanren.xuezhan.void_suit) == ("fan", False, False)
    assert (liangmen.xuezhan.exchange_three, liangmen.xuezhan.void_suit) == (False, False)
    # 地胡 by a non-dealer's first self-draw: 003 ("闲摸第一张形成胡牌") only
    assert sanren.xuezhan.earthly_hand_self_drawn and not liangmen.xuezhan.earthly_hand_self_drawn
    # 中张 is in the file but only scored with the option 门清中张
    assert not sanren.xuezhan.all_simples_scored and Fan.ALL_SIMPLES not in sanren.fans
    assert load_ruleset("erren").family == "erren" and load_ruleset("erren").xuezhan is None
    assert (load_ruleset("erren").players, load_ruleset("erren").combine) == ((2,), "add")


def _sanren_data():
    return tomllib.loads((RULESET_DIR / "sanren-liangfang.toml").read_text(encoding="utf-8"))


def test_sanren_options_drop_the_fans_they_switch_off():
    data = _sanren_data()
    data["ruleset"].update(self_drawn_bonus="unit", all_simples_scored=True)
    rules = parse_ruleset(data, where="test.toml")
    assert Fan.SELF_DRAWN not in rules.fans and Fan.ALL_SIMPLES in rules.fans
    assert rules.values[Fan.SELF_DRAWN] == 0 and Fan.SELF_DRAWN not in rules.fan_names


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data["ruleset"].update(family="riichi"), "family = 'riichi' is not one of"),
        (lambda data: data["ruleset"].update(players=[5]), "players = \\[5\\] must list distinct seat counts"),
        (lambda data: data["ruleset"].update(players=[]), "players = \\[\\] must list"),
        (lambda data: data["ruleset"].update(players=4), "players = 4 has the wrong type"),
        (lambda data: data["ruleset"].update(combine="add"), "combine = 'add' is not one of multiply, power_of_two"),
        (lambda data: data["ruleset"].update(cap=-1), "cap must be 0"),
        (lambda data: data["ruleset"].update(cap=True), "cap = True has the wrong type"),
        (lambda data: data["ruleset"].update(self_drawn_bonus="both"), "self_drawn_bonus = 'both' is not one of fan, unit"),
        (lambda data: data["ruleset"].update(pass_win_lock="yes"), "pass_win_lock = 'yes' has the wrong type"),
        (lambda data: data["ruleset"].pop("missed_win_lock"), "lacks 'missed_win_lock'"),
        (lambda data: data["ruleset"].pop("earthly_hand_self_drawn"), "lacks 'earthly_hand_self_drawn'"),
        (lambda data: data["ruleset"].update(earthly_hand_self_drawn=1), "earthly_hand_self_drawn = 1 has the wrong type"),
        (lambda data: data["ruleset"].update(void_suit="on"), "void_suit = 'on' has the wrong type"),
        (lambda data: data["ruleset"].update(min_fan=8), "'min_fan' is a switch of the erren family"),
        (lambda data: data["ruleset"].update(colour="red"), "unknown switch 'colour'"),
        (lambda data: data.pop("kong_money"), "needs a \\[kong_money\\] table"),
        (lambda data: data["kong_money"].update(exposed_others=-1), "exposed_others = -1 must be a whole number"),
        (lambda data: data["kong_money"].pop("added_others"), "lacks 'added_others'"),
        (lambda data: data["kong_money"].update(robbed=1), "unknown key 'robbed'"),
        (lambda data: data["ruleset"].update(tile_set="bamboo"), "tile_set 'bamboo'"),
        (lambda data: data["fans"].update(flower_tiles={"name": "花牌", "value": 1, "excludes": []}), "which this ruleset does not deal: remove"),
        (lambda data: data["fans"]["root"].update(excludes=["full_flush"]), "excludes the more valuable 'full_flush'"),
        (lambda data: data["fans"]["self_drawn"].update(excludes=["root"]), "excludes 'root' and must be worth more"),
    ],
)
def test_a_malformed_xuezhan_ruleset_is_rejected_with_one_clear_message(change, message):
    data = _sanren_data()
    change(data)
    with pytest.raises(RulesetError, match=message):
        parse_ruleset(data, where="test.toml")


def test_an_erren_file_may_not_carry_xuezhan_switches():
    data = _erren_data()
    data["ruleset"]["cap"] = 32
    with pytest.raises(RulesetError, match="'cap' is a switch of the xuezhan family"):
        parse_ruleset(data, where="test.toml")
    data = _erren_data()
    data["kong_money"] = {"exposed_discarder": 2}
    with pytest.raises(RulesetError, match="unknown top-level table 'kong_money'"):
        parse_ruleset(data, where="test.toml")
    data = _erren_data()
    data["ruleset"]["family"] = "erren"  # the default, allowed explicitly
    assert parse_ruleset(data, where="test.toml").family == "erren"


def test_a_changed_copy_that_keeps_a_shipped_id_is_refused_and_an_unchanged_copy_is_the_shipped_ruleset(tmp_path):
    text = (RULESET_DIR / "erren.toml").read_text(encoding="utf-8")
    same = tmp_path / "same.toml"
    same.write_text(text, encoding="utf-8")
    assert load_ruleset(str(same)).id == "erren"
    changed = tmp_path / "changed.toml"
    changed.write_text(text.replace("min_fan = 8", "min_fan = 6"), encoding="utf-8")
    with pytest.raises(RulesetError, match="id = 'erren' is the id of a shipped ruleset.*give your variant an id of its own"):
        load_ruleset(str(changed))
    changed.write_text(text.replace("min_fan = 8", "min_fan = 6").replace('id = "erren"', 'id = "erren-six"'), encoding="utf-8")
    assert load_ruleset(str(changed)).min_fan == 6


@pytest.mark.parametrize("change, advice", [
    (("flowers = true", "flowers = false"), "remove the [fans.flower_tiles] table"),
    (("min_fan = 8", 'min_fan = "8"'), "write a whole number"),
    (("min_fan = 8 ", "# min_fan = 8 "), "lacks 'min_fan': add it"),
    (("flowers = true", "flowers = true\nmax_double = 1"), "unknown switch 'max_double': remove it, or correct its name"),
    (('value = 24\nexcludes = ["fully', 'value = 90\nexcludes = ["fully'), "raise its value, lower"),
])
def test_a_ruleset_error_says_what_to_change(tmp_path, change, advice):
    text = (RULESET_DIR / "erren.toml").read_text(encoding="utf-8").replace('id = "erren"', 'id = "mine"')
    assert change[0] in text
    path = tmp_path / "mine.toml"
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(str(path))
    assert advice in str(raised.value)


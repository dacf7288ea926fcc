"""Rulesets are data: the shipped files carry the seeds' values, erren-classic differs from erren only
where RULES.md says 001 differs, a new ruleset is one new file, and a bad file gets one clear message."""

import tomllib

import pytest

from kernels.fan_ids import FAN_IDS, Fan
from sim.notation import parse_hand, parse_tile
from sim.ruleset import RULESET_DIR, RulesetError, available, load_ruleset, parse_ruleset
from sim.scoring import WinContext, score

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
    """Exclusions among the fans both rulesets score: 001 adds and removes exactly RULES.md's list."""
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
        (lambda data: data["fans"].update(thirteen_orphans={"name": "十三幺", "value": 88, "excludes": []}), "unknown fan id 'thirteen_orphans'"),
        (lambda data: data["fans"]["full_flush"].update(value=0), "value must be a positive integer"),
        (lambda data: data["fans"]["full_flush"].update(excludes=["no_honours"]), "excludes unknown fan id 'no_honours'"),
        (lambda data: data["fans"]["full_flush"].update(excludes=["full_flush"]), "excludes itself"),
        (lambda data: data["fans"]["full_flush"].update(excludes=["ready_hand"]), "which this ruleset does not score"),
        (lambda data: data["fans"]["self_drawn"].update(excludes=["full_flush"]), "excludes the more valuable 'full_flush'"),
        (lambda data: data["fans"].pop("flower_tiles"), "flowers = true needs"),
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

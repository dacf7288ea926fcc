"""`erren-challenge` (004's 闯关 game): its ruleset file, `mjsim score` on it, and the pricing of a win.

The fan evaluator's fans are pinned hand by hand in tests/erren/challenge/test_reference.py; this file covers what
surrounds it: the loader's checks of the new switches, the points, the command's output and its errors."""

import json

import pytest

from kernels.fan_ids import Fan
from sim.core.ruleset import RULESET_DIR, RulesetError, load_ruleset
from sim.families.scoring import ScoringError, WinContext, bonus_kinds, parse_scoring_input, score

CHALLENGE = "erren-challenge"


def scored(hand, win, **context):
    tiles, winning = parse_scoring_input(hand, win)
    return score(tiles, winning, WinContext(**context), load_ruleset(CHALLENGE))


def _edited(tmp_path, old, new):
    text = (RULESET_DIR / f"{CHALLENGE}.toml").read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "edited.toml"
    path.write_text(text.replace(old, new).replace(f'id = "{CHALLENGE}"', 'id = "edited"', 1), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------- the ruleset file


def test_the_ruleset_plays_all_136_tiles_71_a_deal_with_a_bonus_tile_and_three_extra_draws():
    ruleset = load_ruleset(CHALLENGE)
    assert (ruleset.family, ruleset.tile_set, ruleset.scoring) == ("erren", "all", "challenge")
    assert (ruleset.tiles_in_play, ruleset.bonus_tiles, ruleset.extra_draws) == (71, 1, 3)
    assert (ruleset.min_fan, ruleset.max_doubles, ruleset.ready_requires_concealed) == (0, 0, False)


def test_every_limit_hand_of_the_seed_is_a_limit_and_no_regular_fan_is():
    ruleset = load_ruleset(CHALLENGE)
    limits = {ruleset.fan_names[fan] for fan in ruleset.fans if ruleset.is_limit[fan]}
    assert limits == {
        "天和", "人和", "地和", "小四喜", "大四喜", "大三元", "大车轮", "四暗刻", "四连刻", "四杠子", "百万石", "字一色",
        "清老头", "绿一色", "红孔雀", "九莲宝灯", "十三幺", "东北新干线",
    }
    assert all(ruleset.values[fan] == 1 for fan in ruleset.fans if ruleset.is_limit[fan])
    assert len(ruleset.fans) - len(limits) == 28


@pytest.mark.parametrize(("fans", "points"), [(1, 100), (2, 300), (3, 600), (12, 7_800), (13, 9_100), (20, 9_100)])
def test_f_fans_score_f_times_f_plus_one_times_50_points_capped_at_13_fans(fans, points):
    assert load_ruleset(CHALLENGE).points.of(fans, 0) == points


@pytest.mark.parametrize("limits", [1, 2, 3])
def test_n_limit_hands_score_n_times_10000_points(limits):
    assert load_ruleset(CHALLENGE).points.of(0, limits) == limits * 10_000


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('scoring = "challenge"', 'scoring = "mcr"', "[points] belongs to a scoring = 'challenge' ruleset"),
        ('scoring = "challenge"', 'scoring = "riichi"', "scoring = 'riichi' is not one of mcr, challenge"),
        ("tiles_in_play = 71", "tiles_in_play = 137", "tiles_in_play = 137 must be 0 (all) or 40-136"),
        ("extra_draws = 3 ", "extra_draws = -1 ", "extra_draws = -1 must be 0-10"),
        ("per_limit = 10_000", "per_limit = 0", "[points] per_limit = 0 must be a positive whole number"),
        ("per_fan_step = 50", "per_fan_step = 50\nbonus = 1", "[points] has an unknown key 'bonus'"),
        ('name = "天和"\nvalue = 1\nlimit = true', 'name = "天和"\nvalue = 1\nlimit = false', "limit must be true"),
        ('name = "七对"\nvalue = 3\n', 'name = "七对"\nvalue = 3\nlimit = true\n',
         "excludes across 役满 and regular fans"),
    ],
)
def test_the_loader_names_the_first_problem_of_a_challenge_file(tmp_path, old, new, message):
    with pytest.raises(RulesetError) as raised:
        load_ruleset(_edited(tmp_path, old, new))
    assert message in str(raised.value)


def test_limit_hands_and_points_belong_to_challenge_scoring_only(tmp_path):
    text = (RULESET_DIR / "erren.toml").read_text(encoding="utf-8")
    path = tmp_path / "erren-with-limit.toml"
    path.write_text(text.replace('name = "大四喜"\nvalue = 88\n', 'name = "大四喜"\nvalue = 88\nlimit = true\n', 1))
    with pytest.raises(RulesetError, match="only a scoring = 'challenge' ruleset has 役满"):
        load_ruleset(path)
    path.write_text(text + "\n[points]\nfan_cap = 13\n")
    with pytest.raises(RulesetError, match=r"\[points\] belongs to a scoring = 'challenge' ruleset"):
        load_ruleset(path)
    path.write_text(text.replace('tile_set = "wan-honours"', 'tile_set = "all"'))
    with pytest.raises(RulesetError, match="tile_set 'all' needs scoring = 'challenge'"):
        load_ruleset(path)


# ------------------------------------------------------------------------------------- scoring a hand


def test_a_concealed_hand_won_on_a_discard_with_no_other_fan_is_one_fan_of_menqing_and_100_points():
    result = scored("123m456p789s234s5m", "5m")
    assert {fan: count for fan, count in result.counts.items()} == {Fan.CONCEALED_HAND: 1}
    assert (result.total, result.limits, result.points) == (1, 0, 100)


def test_an_open_hand_with_no_fan_is_tuidaohu():
    result = scored("456p789s234s5m [123m]", "5m")
    assert result.counts == {Fan.BASIC_WIN: 1} and result.points == 100


def test_bonus_tiles_count_one_fan_per_matching_tile_and_two_when_two_are_face_up(tmp_path):
    one = scored("456p789s234s5m [111m]", "5m", bonus=bonus_kinds("1m"))
    assert one.counts == {Fan.BASIC_WIN: 1, Fan.FLOWER_TILES: 3} and one.points == 4 * 5 * 50  # 推倒胡 beside 花牌
    with pytest.raises(ScoringError, match="2 face-up bonus tiles; erren-challenge turns 1"):
        scored("456p789s234s5m [111m]", "5m", bonus=bonus_kinds("4p4p"))
    two_turned = load_ruleset(_edited(tmp_path, "bonus_tiles = 1 ", "bonus_tiles = 2 "))
    tiles, winning = parse_scoring_input("456p789s234s5m [111m]", "5m")
    two = score(tiles, winning, WinContext(bonus=bonus_kinds("4p5m")), two_turned)
    assert two.counts == {Fan.BASIC_WIN: 1, Fan.FLOWER_TILES: 3}  # one 4p, two 5m
    kong = score(*parse_scoring_input("456p789s234s5m (1111m)", "5m"), WinContext(bonus=bonus_kinds("5m")), two_turned)
    assert kong.counts[Fan.FLOWER_TILES] == 2
    with pytest.raises(ScoringError, match="there are only 4 copies"):
        score(*parse_scoring_input("456p789s234s5m (1111m)", "5m"), WinContext(bonus=bonus_kinds("1m")), two_turned)


def test_a_hand_over_13_fans_scores_9100_points_and_reports_its_total_before_the_cap():
    # 清一色 5 + 两对一色二顺 4 + 平和, 门清, 门清自摸, 报听 and 海底摸月 1 each = 14
    result = scored("1122334455667m", "7m", self_drawn=True, ready=True, last_tile=True)
    assert result.total_before_cap == 14
    assert (result.total, result.points) == (13, 9_100)


def test_limit_hands_add_up_and_replace_every_other_fan():
    result = scored("1112223334445z", "5z", self_drawn=True, ready=True)
    assert set(result.counts) == {Fan.BIG_FOUR_WINDS, Fan.ALL_HONORS, Fan.FOUR_CONCEALED_PUNGS}
    assert (result.limits, result.total, result.points) == (3, 0, 30_000)


# ------------------------------------------------------------------------------------- the command


def test_score_prints_the_fans_the_total_and_the_points(mjsim):
    code, out, _ = mjsim("score", "1122334455667m", "--win", "7m", "--ruleset", CHALLENGE)
    assert code == 0
    assert "  清一色          5 × 1 =   5 fan\n" in out
    assert "total 11 fan: 6,600 points (11·12·50)" in out


def test_score_json_of_a_limit_hand_gives_limits_and_points(mjsim):
    code, out, _ = mjsim("score", "19m19p19s1234567z", "--win", "7z", "--ruleset", CHALLENGE, "--json")
    assert code == 0
    assert json.loads(out) == {"fans": {"十三幺": 1}, "values": {"十三幺": 1}, "total": 0, "total_before_cap": 0,
                               "limits": 1, "points": 10_000}


def test_score_batch_takes_bonus_tiles_and_extra_draws(mjsim, tmp_path):
    batch = tmp_path / "hands.jsonl"
    batch.write_text(
        '{"hand": "456p789s234s5m [111m]", "win": "5m", "bonus": "1m"}\n'
        '{"hand": "123m456p789s234s5m", "win": "5m", "self_drawn": true, "extra_draw": true}\n'
        '{"hand": "123m456p789s234s5m", "win": "5m", "bonus": 3}\n'
    )
    code, out, _ = mjsim("score", "--ruleset", CHALLENGE, "--batch", str(batch))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert lines[0]["fans"] == {"推倒胡": 1, "花牌": 3} and lines[0]["points"] == 1_000
    assert lines[1]["fans"] == {"门清": 1, "门清自摸": 1, "海底捞月": 1}
    assert "bonus" in lines[2]["error"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--flowers", "2"], "has no flower tiles; its 花牌 are the face-up bonus tiles"),
        (["--fourth-tile"], "和绝张 is not part of erren-challenge"),
        (["--extra-draw"], "海底捞月 (an extra draw after the wall) is a self-drawn win"),
        (["--bonus", "5m5m5m5m"], "turns 1"),
        (["--bonus", "5m", "--self-drawn", "--robbing-kong"], "抢杠"),
        (["--tianhu", "--renhu", "--self-drawn"], "a win is at most one of 天和, 地和 and 人和"),  # 004's names
    ],
)
def test_score_refuses_a_context_the_challenge_game_cannot_have(mjsim, arguments, message):
    code, _, err = mjsim("score", "123m456p789s234s5m", "--win", "5m", "--ruleset", CHALLENGE, *arguments)
    assert code == 2 and message in err and "Traceback" not in err


def test_bonus_tiles_and_extra_draws_are_refused_by_the_other_rulesets(mjsim):
    code, _, err = mjsim("score", "123456789m1235m", "--win", "5m", "--bonus", "1m")
    assert code == 2 and "part of erren-challenge, not of erren" in err



"""The `mjsim` command line: output for good input, one `error:` line and exit 2 for bad input."""

import io
import json
import sys

import numpy as np
import pandas as pd
import pytest

from sim.core.result_files import read_metadata


def test_shanten_prints_forms_waits_with_copies_left_and_ukeire(mjsim):
    code, out, _ = mjsim("shanten", "123456789m1122z", "--visible", "1z")
    assert code == 0
    assert "shanten   0 (ready); standard 0, seven pairs 4" in out
    assert "waits     1z ×1, 2z ×2  (3 left)" in out
    assert "ukeire    3 tiles in 2 kinds" in out


def test_shanten_json_has_every_field(mjsim):
    code, out, _ = mjsim("shanten", "[123m] 456m789m1122z", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["tiles"] == "456789m1122z [123m]"
    assert (report["shanten"], report["shanten_standard"], report["shanten_seven_pairs"]) == (0, 0, None)
    assert report["waits"] == ["1z", "2z"] and report["waits_remaining"] == {"1z": 2, "2z": 2}
    assert report["ukeire"] == 4


def test_fourteen_tile_hands_list_every_discard(mjsim):
    code, out, _ = mjsim("shanten", "123456789m11223z", "--json")
    report = json.loads(out)
    assert code == 0 and report["shanten"] == 0
    discards = {option["discard"]: option for option in report["discards"]}
    assert discards["3z"]["waits"] == ["1z", "2z"] and discards["3z"]["ukeire"] == 4
    assert discards["1z"]["shanten"] == 1
    assert report["waits"] == ["1z", "2z"]  # only discarding 3z leaves the hand ready


def test_a_wait_on_a_kind_whose_copies_are_all_in_own_melds_is_no_wait(mjsim):
    code, out, _ = mjsim("shanten", "5m123p456p789p [555m]", "--json")
    assert code == 0 and json.loads(out)["waits"] == []


def test_batch_writes_one_line_per_input_line_and_reports_bad_lines(mjsim, tmp_path):
    batch = tmp_path / "hands.jsonl"
    batch.write_text(
        "\n".join(['{"tiles": "123456789m1122z"}', "not json", '{"tiles": "12x"}', '{"tiles": "19m19p19s1234567z"}', ""]) + "\n"
    )
    code, out, _ = mjsim("shanten", "--batch", str(batch))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 5
    assert lines[0] == {"tiles": "123456789m1122z", "shanten": 0, "shanten_standard": 0, "shanten_seven_pairs": 4, "waits": ["1z", "2z"]}
    assert "error" in lines[1] and "line 2" in lines[1]["error"]
    assert "unknown token '12x'" in lines[2]["error"]
    assert lines[3]["shanten"] == 6 and lines[3]["waits"] == []
    assert lines[4] == {"error": "line 5: empty line"}


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["shanten", "123456789m1122y"], "unknown token '1122y'"),
        (["shanten", "11111m23456789m11z"], "1m appears 5 times"),
        (["shanten", "123m"], "3 concealed tiles with 0 melds"),
        (["shanten", "--batch", "no/such/file.jsonl"], "batch file not found"),
        (["shanten", "123456789m1122z", "--tile-set", "mahjong"], "unknown tile set 'mahjong'"),
        (["shanten"], "give either a HAND or --batch FILE"),
        (["bench", "--hands", "0"], "must be positive"),
        (["replay", "--players", "greedy,cheater"], "unknown heuristic 'cheater'"),
        (["replay", "--players", "greedy:speed=2,greedy"], "greedy: unknown parameter"),
        (["replay", "--ruleset", "mahjong-solitaire"], "mahjong-solitaire"),
        (["replay", "--deal", "-1"], "--deal must be from 0 to"),
    ],
)
def test_bad_input_gets_one_error_line_and_exit_2(mjsim, arguments, message):
    code, out, err = mjsim(*arguments)
    assert code == 2
    assert err.startswith("error: ") and message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_demo_writes_a_table_with_its_configuration_and_versions(mjsim, tmp_path):
    code, out, _ = mjsim("demo", "--deals", "3000", "--seed", "4", "--out", str(tmp_path / "demo"))
    path = tmp_path / "demo" / "initial_shanten.parquet"
    assert code == 0 and str(path) in out
    table = pd.read_parquet(path)
    assert table.groupby("seat")["deals"].sum().tolist() == [3000, 3000]
    meta = read_metadata(path)
    assert meta["config"] == {"command": "demo", "deals": 3000, "seed": 4, "tile_set": "wan-honours"}
    assert {"mjsim", "numba", "numpy"} <= set(meta["versions"])


def test_demo_refuses_an_output_path_that_is_a_file_and_leaves_it_alone(mjsim, tmp_path):
    occupied = tmp_path / "taken"
    occupied.write_text("keep me")
    code, _, err = mjsim("demo", "--deals", "10", "--out", str(occupied))
    assert code == 2 and "not a directory" in err
    assert occupied.read_text() == "keep me"


def test_bench_json_reports_rates_and_ratios(mjsim):
    # --deals 50: every table, user player and environment rate is still measured (Python's FirstLegal on a
    # fifth, 10 deals; the external bot on its floor of 100), each > 0 as asserted; 500 only cost seconds.
    code, out, _ = mjsim("bench", "--hands", "2000", "--reference-hands", "200", "--fan-hands", "500",
                       "--deals", "50", "--json")
    results = json.loads(out)
    assert code == 0
    deals = results["deals"]["rulesets"]
    assert set(deals) == {"erren", "erren-classic", "erren-challenge", "liangmen-xuezhan", "sanren-liangfang (3 seats)",
                          "sanren-liangfang (2 seats)", "mcr"}
    assert all(rate > 0 for rates in deals.values() for rate in rates.values())
    assert set(deals["erren"]) == {"random,random", "greedy,greedy", "value,value", "defensive,defensive", "ev,greedy"}
    # each table plays the heuristics its family offers: MCR seats random and greedy only
    assert set(deals["mcr"]) == {"random,random,random,random", "greedy,greedy,greedy,greedy", "ev,greedy,greedy,greedy"}
    assert {"greedy,greedy,greedy,greedy", "ev,greedy,greedy,greedy"} <= set(deals["liangmen-xuezhan"])
    users = results["deals"]["user_players"]
    assert set(users) == {"greedy v greedy", "Python FirstLegal v greedy", "ev v greedy (built-in, numba interface)",
                          "numba example v greedy", "exec example v greedy"}
    assert all(measured["rate"] > 0 for measured in users.values()) and users["greedy v greedy"]["ratio"] == 1
    steps = results["deals"]["environment"]
    assert steps["single"] > 0 and steps["aec"] > 0
    assert all(steps[f"batched_{observation}_{threads}"] > 0 for observation in ("none", "seat") for threads in (1, 2))
    row = results["sets"]["wan+honours 13"]
    assert row["shanten_kernel"] > 0 and row["ukeire_kernel"] > 0 and row["waits_kernel"] > 0
    assert row["references"]["mahjong"]["kernel_ratio"] > 1
    assert row["references"]["PyMahjongGB"]["kernel_ratio"] > 1


def test_usage_errors_exit_non_zero_without_a_traceback(mjsim):
    code, _, err = mjsim("bench", "--hands", "many")
    assert code == 2 and "Traceback" not in err and "Invalid value for '--hands'" in err


@pytest.mark.parametrize("arguments", [
    ("nosuch",), ("--bogus",), ("score", "--flowers", "x"), ("duel",), ("run", "--deals"), ("score", "1m", "--json=true"),
    ("rules",), ("shanten", "-5m"), ("league", "greedy", "--deals", "ten"),
])
def test_every_usage_error_is_one_lower_case_error_line(mjsim, arguments):
    code, out, err = mjsim(*arguments)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "Error:" not in err


def test_mjsim_alone_prints_its_help_not_an_error(mjsim):
    code, out, err = mjsim()
    assert code == 2 and "Usage: mjsim" in out + err and "error" not in (out + err).lower()
    assert "two to four seats" in out + err  # not "two-player": 血战 tables seat three and four


@pytest.mark.parametrize("command", ["score", "run", "economics", "rules", "league", "challenge"])
def test_help_shows_on_off_flags_without_a_value_and_keeps_square_brackets(mjsim, command):
    code, out, _ = mjsim(command, "--help")
    assert code == 0 and "<bool>" not in out
    if command == "economics":
        assert "pip install 'mjsim[plot]'" in " ".join(out.split())


# ---------------------------------------------------------------------------------- mjsim score


def test_score_prints_fans_with_seed_names_values_counts_and_the_verdict(mjsim):
    code, out, _ = mjsim("score", "45m66z777z (2222m) [6666m]", "--win", "3m", "--self-drawn",
                       "--kong-replacement", "--flowers", "2")
    assert code == 0
    assert "杠上开花    8 × 1 =   8" in out
    assert "花牌        1 × 2 =   2" in out
    assert "total 23 fan (21 without flowers); reaches the minimum of 8" in out


def test_score_json_is_a_batch_output_line(mjsim):
    code, out, _ = mjsim("score", "123456789m1235m", "--win", "5m", "--json", "--ruleset", "erren-classic")
    assert code == 0
    assert json.loads(out) == {
        "fans": {"清一色": 1, "清龙": 1, "门前清": 1, "平和": 1, "一般高": 1, "坎张": 1},
        "values": {"清一色": 24, "清龙": 16, "门前清": 2, "平和": 2, "一般高": 1, "坎张": 1},
        "total": 46,
        "total_without_flowers": 46,
        "legal": True,
    }


def test_score_batch_scores_good_lines_and_reports_bad_ones_in_place(mjsim, tmp_path):
    batch = tmp_path / "wins.jsonl"
    lines = [
        {"hand": "45m66z777z", "melds": ["(2222m)", "[6666m]"], "win": "3m", "self_drawn": True},
        {"hand": "12456789m99m777z", "win": "3m", "flowers": 3, "fourth_tile": True},
        {"hand": "123456789m1236m", "win": "5m"},
        {"hand": "123456789m1235m", "win": "5m", "colour": "red"},
        {"hand": "123456789m1235m", "win": "5m", "self_drawn": "yes"},
    ]
    batch.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\nnot json\n", encoding="utf-8")
    out_path = tmp_path / "scores.jsonl"
    code, out, _ = mjsim("score", "--batch", str(batch), "--out", str(out_path))
    assert code == 0 and out == ""
    results = [json.loads(line) for line in out_path.read_text(encoding="utf-8").splitlines()]
    assert len(results) == 6
    assert results[0]["fans"]["暗杠"] == 1 and results[0]["legal"] is True
    assert results[1]["fans"]["花牌"] == 3 and results[1]["fans"]["和绝张"] == 1
    assert results[1]["total"] == results[1]["total_without_flowers"] + 3
    assert results[2] == {"error": "line 3: not a winning hand: 1122334566789m with 5m is not four sets and a pair, nor seven pairs"}
    assert results[3]["error"].startswith("line 4: unknown key 'colour'")
    assert results[4]["error"] == 'line 5: "self_drawn" must be true or false'
    assert results[5]["error"].startswith("line 6: not valid JSON")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["score", "123456789m1235m"], "give a HAND and its winning tile with --win"),
        (["score", "123456789m1235m", "--win", "5m", "--ruleset", "erren-plus"], "unknown ruleset 'erren-plus'"),
        (["score", "123456789m1235m", "--win", "5p"], "5p is not in the erren wall"),
        (["score", "123456789m123m", "--win", "5m"], "12 concealed tiles with 0 melds; expected 13"),
        (["score", "123456789m12355m", "--win", "5m"], "give the hand without its winning tile"),
        (["score", "123456789m1235m", "--win", "5m", "--robbing-kong", "--self-drawn"], "not a self-draw"),
        (["score", "123456789m1235m", "--win", "5m", "--ruleset", "erren-classic", "--flowers", "2"], "without flowers"),
        (["score", "--batch", "no/such/file.jsonl"], "batch file not found"),
        (["score", "123456789m1235m", "--win", "5m", "--ruleset", "no/such/rules.toml"], "does not exist"),
    ],
)
def test_score_bad_input_gets_one_error_line_and_exit_2(mjsim, arguments, message):
    code, out, err = mjsim(*arguments)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_a_failed_batch_leaves_an_existing_output_file_alone(mjsim, tmp_path):
    out_path = tmp_path / "scores.jsonl"
    out_path.write_text("earlier results\n", encoding="utf-8")
    code, _, err = mjsim("score", "--batch", str(tmp_path / "missing.jsonl"), "--out", str(out_path))
    assert code == 2 and "batch file not found" in err
    assert out_path.read_text(encoding="utf-8") == "earlier results\n"


def test_replay_tells_a_deal_from_the_deal_to_the_scoring(mjsim):
    from sim.core.ruleset import load_ruleset
    from sim.erren import engine

    code, out, _ = mjsim("replay", "--seed", "1", "--deal", "5", "--players", "greedy,random")
    assert code == 0
    log = engine.replay(load_ruleset("erren"), engine.Players.parse("greedy,random"), 1, 5)
    lines = out.splitlines()
    assert lines[0] == "erren (二人麻将), seed 1, deal 5"
    discards = [line for line in lines if " discards " in line]
    assert len(discards) == (log.events[:, 0] == engine.EV_DISCARD).sum()
    assert any(line.startswith("dealt:") for line in lines)
    result = next(line for line in lines if line.startswith("result: "))
    assert f"seat {log.record['winner']} wins" in result
    assert f"fan total {log.record['fan_total']} " in out


def test_replay_of_a_draw_says_so(mjsim):
    from sim.core.ruleset import load_ruleset
    from sim.erren import engine

    records = engine.play(load_ruleset("erren-classic"), engine.Players.parse("random,random"), seed=3, n_deals=50)
    deal = int(np.flatnonzero(records.columns["winner"] < 0)[0])
    code, out, _ = mjsim("replay", "--ruleset", "erren-classic", "--seed", "3", "--deal", str(deal),
                       "--players", "random,random")
    assert code == 0 and "the wall is empty" in out and "result: draw." in out


def test_version_prints_the_installed_version(mjsim):
    from importlib import metadata

    code, out, _ = mjsim("--version")
    assert code == 0 and out.strip() == f"mjsim {metadata.version('mjsim')}"


@pytest.mark.parametrize("command", ["shanten", "score"])
def test_batch_dash_reads_standard_input(mjsim, monkeypatch, tmp_path, command):
    line = {"tiles": "123456789m1122z"} if command == "shanten" else {"hand": "123456789m1122z", "win": "1z"}
    text = json.dumps(line) + "\n" + json.dumps(line) + "\n"
    batch = tmp_path / "in.jsonl"
    batch.write_text(text, encoding="utf-8")
    _, from_file, _ = mjsim(command, "--batch", str(batch))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    code, from_stdin, _ = mjsim(command, "--batch", "-")
    assert code == 0 and from_stdin == from_file and len(from_stdin.splitlines()) == 2


def test_score_treats_an_impossible_xuezhan_context_as_the_erren_scorer_does_also_in_a_batch(mjsim, tmp_path):
    # the tiles rule the flag out: cleared, as erren clears 抢杠胡 on a 5万 when it holds another 5万
    code, out, _ = mjsim("score", "12345678m11z222z", "--win", "9m", "--robbing-kong", "--json")
    assert code == 0 and "抢杠胡" in json.loads(out)["fans"]
    code, out, _ = mjsim("score", "123456789m1235m", "--win", "5m", "--robbing-kong", "--json")
    assert code == 0 and "抢杠胡" not in json.loads(out)["fans"]
    cleared = {"hand": "456p789p12s33s [111p]", "win": "3s", "robbing_kong": True}  # 3条 held: not the robbed kind
    no_kong = {"hand": "456p789p12s55s [111p]", "win": "3s", "self_drawn": True, "kong_replacement": True}
    # the rules rule it out: an error, as erren rejects 人胡 on a self-draw
    self_drawn_dihu = {"hand": "456p789p12s55s111p", "win": "3s", "dihu": True, "self_drawn": True}
    batch = tmp_path / "wins.jsonl"
    batch.write_text("\n".join(json.dumps(line) for line in (cleared, no_kong, self_drawn_dihu)) + "\n", encoding="utf-8")
    code, out, _ = mjsim("score", "--batch", str(batch), "--ruleset", "liangmen-xuezhan")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert results[0]["fans"] == {"基本胡": 1}
    assert results[1]["fans"] == {"自摸": 1, "基本胡": 1}
    assert results[2] == {"error": "line 3: 地胡 in liangmen-xuezhan is a win on the dealer's first discard, not a self-draw"}
    code, out, err = mjsim("score", "456p789p12s55s111p", "--win", "3s", "--ruleset", "liangmen-xuezhan", "--dihu", "--self-drawn")
    assert code == 2 and out == "" and "地胡 in liangmen-xuezhan is a win on the dealer's first discard" in err
    # 003's 地胡 includes the non-dealer's self-draw on its first draw
    code, out, _ = mjsim("score", "456p789p12s55s111p", "--win", "3s", "--ruleset", "sanren-liangfang", "--dihu", "--self-drawn", "--json")
    assert code == 0 and json.loads(out)["fans"]["地胡"] == 1

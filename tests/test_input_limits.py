"""Hostile and oversized input as a specification: every case is one `error:` line and exit status 2 (or, in
a batch, one error line in place while the other lines are answered), never a traceback, a wrapped count,
an overflowing total, or memory grown toward all the machine has."""

import json
import os
import re
from pathlib import Path

import pytest

from analysis.rooms import RoomsError, load_rooms
from sim.ruleset import RulesetError, load_ruleset

RULESETS = Path(__file__).resolve().parent.parent / "sim" / "rulesets"
ERREN = (RULESETS / "erren.toml").read_text(encoding="utf-8")
LIANGMEN = (RULESETS / "liangmen-xuezhan.toml").read_text(encoding="utf-8")


def _one_error_line(code, out, err):
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("error: ")
    return err


@pytest.mark.parametrize("arguments, message", [
    (["shanten", "1" * 257 + "23456789m1122z"], "1m appears 257 times"),  # once read as 123456789m1122z
    (["shanten", "1" * 130 + "m"], "1m appears 130 times"),  # once "1m appears -126 times"
    (["shanten", "\u0661\u0662\u0663m456m789m1122z"], "unknown token"),  # Arabic-Indic digits are not tiles
    (["shanten", "123m\u00a0456m789m1122z"], "unknown token"),  # a no-break space is not a separator
    (["shanten", "1111m23456789m11z", "--visible", "1m1m1m"], "1m: 4 in the hand and melds and 3 seen elsewhere"),
    (["shanten", "-5m"], "a hand cannot start with '-'; put -- before it"),
    (["run", "--deals", str(10**15)], "--deals must be from 1 to"),
    (["run", "--deals", str(10**8), "--shard-size", "1"], "more than 100,000 shards"),
    (["run", "--seed", str(2**64)], "--seed must be from 0 to"),
    (["replay", "--session-length", str(10**9)], "--session-length must be from 0 to 100,000"),
    (["replay", "--deal", str(2**64)], "--deal must be from 0 to"),
    (["demo", "--seed", "-1"], "--seed must be from 0 to"),
    (["duel", "greedy", "value", "--seed", str(2**70)], "--seed must be from 0 to"),
    (["run", "--players", "greedy:claim=abc,greedy", "--deals", "10"], "greedy: parameter claim needs a number, not 'abc'"),
])
def test_bad_input_is_one_error_line(mjsim, tmp_path, arguments, message):
    if arguments[0] == "run":
        arguments = [*arguments, "--out", str(tmp_path / "run")]
    err = _one_error_line(*mjsim(*arguments))
    assert message in err
    assert not (tmp_path / "run" / "run.json").exists()


def test_a_long_input_is_not_echoed_whole(mjsim):
    err = _one_error_line(*mjsim("shanten", "x" * 100_000))
    assert len(err) < 200 and "100,000 characters" in err


def test_economics_refuses_a_simulation_larger_than_memory(mjsim, tmp_path):
    directory = tmp_path / "run"
    assert mjsim("run", "--deals", "200", "--shard-size", "100", "--workers", "1", "--out", str(directory))[0] == 0
    err = _one_error_line(*mjsim("economics", str(directory), "--horizon", str(10**12)))
    assert "--horizon times --players must be" in err
    err = _one_error_line(*mjsim("economics", str(directory), "--stake", str(2**62), "--fee", "0"))
    assert "--stake must be from 1 to" in err


SEPARATORS = ["\u0085", "\u2028", "\u2029", "\u001c", "\u001d", "\u001e", "\x0b", "\x0c"]


@pytest.mark.parametrize("command", ["shanten", "score"])
def test_batch_lines_are_split_on_newlines_only(mjsim, tmp_path, command):
    good = {"tiles": "123456789m1122z"} if command == "shanten" else {"hand": "123456789m1122z", "win": "1z"}
    lines = [json.dumps(good)] + [json.dumps({**good, "note": f"a{separator}b"}, ensure_ascii=False) for separator in SEPARATORS]
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join(lines) + "\r\n", encoding="utf-8")
    code, out, _ = mjsim(command, "--batch", str(batch))
    answers = [json.loads(line) for line in out.split("\n")[:-1]]
    assert code == 0 and len(answers) == len(lines)
    assert "error" not in answers[0]
    if command == "shanten":  # extra keys are ignored: every line is answered as the first
        assert all(answer == answers[0] for answer in answers)
    else:  # extra keys are refused, each on its own line
        assert all(answer["error"] == f"line {number}: unknown key 'note'" + answers[1]["error"].split("'note'")[1]
                   for number, answer in enumerate(answers[1:], 2))


HOSTILE = [
    ("[" * 1000 + "]" * 1000, "nested more than"),
    ('{"tiles": ' + "7" * 4300 + "}", "a number of 4,300 characters"),
    ('{"tiles": NaN}', "NaN is not a JSON value"),
    ('{"tiles": "' + "1" * 20_000 + '"}', "characters; at most 10,000"),
    ('{"tiles": ', "not valid JSON"),
]


@pytest.mark.parametrize("command", ["shanten", "score"])
def test_a_hostile_json_line_is_one_error_line_and_the_batch_goes_on(mjsim, tmp_path, command):
    good = {"tiles": "123456789m1122z"} if command == "shanten" else {"hand": "123456789m1122z", "win": "1z"}
    lines = [json.dumps(good)]
    for hostile, _ in HOSTILE:
        lines += [hostile if command == "shanten" else hostile.replace('"tiles"', '"hand"'), json.dumps(good)]
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = mjsim(command, "--batch", str(batch))
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and "Traceback" not in err and len(answers) == len(lines)
    assert all("error" not in answers[index] for index in range(0, len(lines), 2))
    for index, (_, message) in enumerate(HOSTILE):
        assert answers[2 * index + 1]["error"].startswith(f"line {2 * index + 2}: ") and message in answers[2 * index + 1]["error"]


def test_a_batch_file_that_is_not_utf8_is_one_error_line(mjsim, tmp_path):
    batch = tmp_path / "in.jsonl"
    batch.write_bytes(b'{"tiles": "123456789m1122z"}\n\xff\xfe\n')
    assert "is not UTF-8 text (byte 0xff at offset 29)" in _one_error_line(*mjsim("shanten", "--batch", str(batch)))


def _ruleset(tmp_path, text, name="mine.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("change, message", [
    (("value = 24\nexcludes = [\"fully", f"value = {2**30}\nexcludes = [\"fully"), "is more than 10,000, the most a fan may be worth"),
    (("value = 24\nexcludes = [\"fully", f"value = {2**70}\nexcludes = [\"fully"), "is more than 10,000"),
    (('tile_set = "wan-honours"', 'tile_set = "tong-tiao"'), "is not played by the erren family (it plays wan-honours, all)"),
    (("min_fan = ", f"min_fan = {2**40}  # "), "min_fan = 1099511627776 is more than 1,000,000"),
])
def test_erren_ruleset_values_the_records_cannot_hold_are_refused(tmp_path, change, message):
    assert change[0] in ERREN
    with pytest.raises(RulesetError, match=re.escape(message)):
        load_ruleset(_ruleset(tmp_path, ERREN.replace(change[0], change[1], 1)))


@pytest.mark.parametrize("change, message", [
    (("exposed_discarder = 2", "exposed_discarder = 3000000000"), "[kong_money] exposed_discarder = 3000000000 is more than"),
    (('tile_set = "tong-tiao"', 'tile_set = "all"'), "is not played by the xuezhan family (it plays tong-tiao)"),
    (("cap = 32", "cap = 0"), None),  # no cap is allowed: each multiplier is bounded instead
    (("cap = 32", f"cap = {2**62}"), "cap = 4611686018427387904 is more than 1,000,000"),
])
def test_xuezhan_ruleset_values_the_records_cannot_hold_are_refused(tmp_path, change, message):
    assert change[0] in LIANGMEN
    path = _ruleset(tmp_path, LIANGMEN.replace(change[0], change[1], 1))
    if message is None:
        assert load_ruleset(path).cap == 0
        return
    with pytest.raises(RulesetError, match=re.escape(message)):
        load_ruleset(path)


def test_ruleset_and_rooms_files_that_are_not_utf8_are_one_error(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_bytes(ERREN.encode("utf-8") + b"\n# \xff\n")
    with pytest.raises(RulesetError, match="is not UTF-8 text"):
        load_ruleset(path)
    with pytest.raises(RoomsError, match="is not UTF-8 text"):
        load_rooms(path, path)


def test_a_stake_the_money_arithmetic_cannot_hold_is_refused(tmp_path):
    path = tmp_path / "rooms.toml"
    path.write_text(f'[rooms.big]\nstake = {2**62}\nfee = 0\nmin_entry = 0\nmax_entry = 0\n', encoding="utf-8")
    with pytest.raises(RoomsError, match="stake = 4611686018427387904 is more than 1,000,000,000"):
        load_rooms(path, path)


def test_output_goes_through_a_symlink_to_its_target(mjsim, tmp_path):
    batch = tmp_path / "in.jsonl"
    batch.write_text('{"tiles": "123456789m1122z"}\n', encoding="utf-8")
    target = tmp_path / "target.jsonl"
    target.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert mjsim("shanten", "--batch", str(batch), "--out", str(link))[0] == 0
    assert link.is_symlink() and json.loads(target.read_text())["shanten"] == 0


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_output_to_something_not_a_regular_file_is_refused_and_left_alone(mjsim, tmp_path, kind):
    batch = tmp_path / "in.jsonl"
    batch.write_text('{"tiles": "123456789m1122z"}\n', encoding="utf-8")
    out = tmp_path / "out"
    os.mkfifo(out) if kind == "fifo" else out.mkdir()
    err = _one_error_line(*mjsim("shanten", "--batch", str(batch), "--out", str(out)))
    assert "exists and is not a regular file" in err
    assert (out.is_fifo() if kind == "fifo" else out.is_dir())


def test_a_run_with_a_relative_ruleset_path_is_analysed_from_another_directory(mjsim, tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    _ruleset(tmp_path / "rules", ERREN, "mine.toml")
    monkeypatch.chdir(tmp_path / "rules")
    code, _, err = mjsim("run", "--ruleset", "mine.toml", "--deals", "100", "--shard-size", "100", "--workers", "1",
                         "--out", str(tmp_path / "run"))
    assert code == 0, err
    monkeypatch.chdir(tmp_path)
    code, out, err = mjsim("analyze", str(tmp_path / "run"))
    assert code == 0 and "outcomes" in out, err


def test_a_damaged_run_file_is_one_error_line(mjsim, tmp_path):
    directory = tmp_path / "run"
    assert mjsim("run", "--deals", "100", "--shard-size", "100", "--workers", "1", "--out", str(directory))[0] == 0
    (directory / "run.json").write_text('{"ruleset": "erren", "deals": ')
    assert "run.json is damaged" in _one_error_line(*mjsim("analyze", str(directory)))
    assert "run.json is damaged" in _one_error_line(*mjsim("run", "--deals", "100", "--shard-size", "100", "--workers", "1",
                                                           "--out", str(directory), "--resume"))

"""Hostile and oversized input as a specification: every case is one `error:` line and exit status 2 (or, in
a batch, one error line in place while the other lines are answered), never a traceback, a wrapped count,
an overflowing total, or memory grown toward all the machine has."""

import contextlib
import json
import os
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core.rooms import RoomsError, load_rooms
from sim.core.ruleset import RulesetError, load_ruleset

RULESETS = Path(__file__).resolve().parents[2] / "sim" / "rulesets"
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
    """The text as a ruleset file, its id made its own (a variant may not take a shipped ruleset's id)."""
    path = tmp_path / name
    path.write_text(re.sub(r'^id = "([^"]*)"', r'id = "\1-mine"', text, count=1, flags=re.MULTILINE), encoding="utf-8")
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


# ------------------------------------------------------------------------------ TOML files: one reader, with limits

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_LEVELS = ROOT / "sim" / "erren" / "challenge" / "levels.toml"
# Each loader of TOML files, through the command that reads it before it plays anything.
TOML_COMMANDS = {
    "ruleset": lambda path: ["rules", str(path)],
    "rooms": lambda path: ["duel", "greedy", "random", "--deals", "2", "--rooms", str(path)],
    "levels": lambda path: ["challenge", "--levels", str(path), "--runs", "1"],
}
HOSTILE_TOML = [
    ("arrays nested 500 deep", "x = " + "[" * 500 + "]" * 500 + "\n", "nests arrays or inline tables more than 32 levels deep"),
    ("inline tables nested 500 deep", "x = " + "{a = " * 500 + "1" + "}" * 500 + "\n", "nests arrays or inline tables more than 32"),
    ("a dotted key 5,000 deep", "a" + ".a" * 5000 + " = 1\n", "nests tables more than 32 levels deep"),
    ("table headers 5,000 deep", "[a" + ".a" * 5000 + "]\n", "nests tables more than 32 levels deep"),
    ("an integer of 5,000 digits", "x = " + "9" * 5000 + "\n", "has a number of 5,000 characters; at most 64"),
    ("a float of 5,000 digits", "x = 0." + "3" * 4998 + "\n", "has a number of 5,000 characters"),
    ("a hexadecimal integer of 5,000 digits", "x = 0x" + "f" * 4998 + "\n", "has a number of 5,000 characters"),
    ("not UTF-8", b"x = 1\n# \xff\n", "is not UTF-8 text (byte offset 8)"),
    ("more than 1 MB", "# " + "x" * (1 << 20) + "\n", "is larger than 1 MB"),
    ("not TOML", "[x\n", "is not a readable TOML file (not valid TOML"),
]


@pytest.mark.parametrize("loader", TOML_COMMANDS)
@pytest.mark.parametrize("text, message", [case[1:] for case in HOSTILE_TOML], ids=[case[0] for case in HOSTILE_TOML])
def test_a_hostile_toml_file_is_one_error_line_naming_it(mjsim, tmp_path, loader, text, message):
    path = tmp_path / "hostile.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    err = _one_error_line(*mjsim(*TOML_COMMANDS[loader](path)))
    assert str(path) in err and message in err


def test_a_ruleset_nested_500_deep_is_one_error_line(tmp_path):
    with pytest.raises(RulesetError, match="nests arrays or inline tables more than 32 levels deep"):
        load_ruleset(_ruleset(tmp_path, ERREN + "\n[ruleset.deep]\nx = " + "[" * 500 + "]" * 500 + "\n"))


def test_brackets_in_strings_and_comments_are_not_nesting(tmp_path):
    strings = ('a = "' + "[" * 100 + '"\nb = \'' + "{" * 100 + "'\n" + 'c = """\n' + "[" * 100 + '\n"""\n'
               + "d = '''" + "{" * 100 + "'''\n# " + "[" * 100 + "\n")
    with pytest.raises(RulesetError, match="unknown top-level table 'a'"):  # read, then refused by the loader
        load_ruleset(_ruleset(tmp_path, strings + ERREN))


@pytest.mark.parametrize("loader", TOML_COMMANDS)
@pytest.mark.parametrize("kind", ["fifo", "directory", "/dev/zero"])
def test_a_toml_file_that_is_not_a_regular_file_is_refused_unread(mjsim, tmp_path, loader, kind):
    path = Path(kind) if kind.startswith("/") else tmp_path / "rules.toml"
    if kind == "fifo":
        os.mkfifo(path)  # reading it would wait for a writer for ever
    elif kind == "directory":
        path.mkdir()
    err = _one_error_line(*mjsim(*TOML_COMMANDS[loader](path)))
    assert str(path) in err and "not a regular file" in err


LEVELS_START = "[campaign]\nstart_score = 10\nmax_deals_per_level = 5\n"


@pytest.mark.parametrize("loader, text, message", [
    ("levels", "levels = [1, 2]\n" + LEVELS_START, "level 1: 1 should be a [[levels]] table"),
    ("levels", "campaign = [1]\n", "needs a [campaign] table"),
    ("levels", LEVELS_START.replace("10", '"10"'), "start_score = '10' should be a whole number"),
    ("levels", LEVELS_START + "[[levels]]\nname = 3\nbet = 1\npass_score = 9\n", "name = 3 should be str"),
    ("ruleset", ERREN.replace("[ruleset]\n", "[ruleset]\nfamily = [1]\n", 1), "family = [1] is not one of"),
    ("ruleset", ERREN.replace('excludes = ["', 'excludes = [[1], "', 1), "excludes unknown fan id [1]"),
    ("ruleset", ERREN.replace("[ruleset]", "ruleset = [1, 2]\n[x]", 1), "missing the [ruleset] table"),
    ("ruleset", LIANGMEN.replace("players = [", "players = [[4], ", 1), "players = [[4], "),
    ("rooms", "rooms = [1, 2]\n", "has no [rooms.<name>] tables"),
    ("rooms", "[rooms.a]\nstake = '1'\nfee = 0\nmin_entry = 0\nmax_entry = 0\n", "stake must be a non-negative integer"),
    ("rooms", "[rooms.a]\nstake = 1\nfee = 0\nmin_entry = 0\nmax_entry = [0]\n", "max_entry must be a non-negative integer"),
    ("rooms", "".join(f"[rooms.r{room}]\nstake = 1\nfee = 0\nmin_entry = 0\nmax_entry = 0\n" for room in range(101)),
     "has 101 rooms; at most 100"),
])
def test_a_field_of_the_wrong_type_is_the_loaders_error_naming_it(mjsim, tmp_path, loader, text, message):
    path = tmp_path / "wrong.toml"
    path.write_text(text, encoding="utf-8")
    err = _one_error_line(*mjsim(*TOML_COMMANDS[loader](path)))
    assert message in err


SHIPPED_TOML = {
    "ruleset": sorted(RULESETS.glob("*.toml")),
    "rooms": sorted([*ROOT.glob("sim/*/rooms.toml"), *ROOT.glob("sim/*/*_rooms.toml")]),
    "levels": [SHIPPED_LEVELS],
}
# Text that TOML gives a meaning to, and some that it does not.
MUTATION_TEXT = st.lists(st.sampled_from(list("[]{}\"'=.,#\n\\ 0123456789-+_:eExo") + [
    "true", "false", "inf", "nan", "\u00e9", "\U0001f004", "\x00", "\r"]), max_size=12).map("".join)


# Values of every TOML type, for a field that expects another.
TYPED_VALUES = ["[1, 2]", "{a = 1}", '"x"', "''", "true", "1.5", "-3", "0", "[[1]]", "[]", "{}", "inf", "nan",
                '["x", ["y"]]', '[["x"]]', "[{}]", "[true]", "1979-05-27", "9223372036854775808", "-0x1", '{excludes = []}']


@st.composite
def mutations(draw, texts):
    """Which shipped file, and one to three changes: a slice (start, end) replaced by random text or by the
    slice repeated (or cut), or the value of an assignment (its line from `= `) replaced by a value of
    another type."""
    index = draw(st.integers(0, len(texts) - 1))
    assignments = [match.end() for match in re.finditer(r"= ", texts[index])]
    changes = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            start = draw(st.sampled_from(assignments))
            end = texts[index].find("\n", start)
            changes.append((start, end if end >= 0 else len(texts[index]), draw(st.sampled_from(TYPED_VALUES))))
            continue
        start = draw(st.integers(0, len(texts[index])))
        end = draw(st.integers(start, start + 40))
        changes.append((start, end, draw(st.one_of(MUTATION_TEXT, st.integers(0, 50)))))
    return index, changes


def _mutated(text: str, changes) -> str:
    """The changes applied from the last to the first, so that each slice is where it was drawn."""
    for start, end, replacement in sorted(changes, key=lambda change: change[:2], reverse=True):
        text = text[:start] + (text[start:end] * replacement if isinstance(replacement, int) else replacement) + text[end:]
    return text


def _loaded(loader: str, text: str, directory: Path):
    """What the loader makes of `text`: its result, or its own error (anything else fails the test)."""
    from sim.core.ruleset import parse_ruleset_text
    from sim.erren.challenge.levels import LevelsError, load_levels

    if loader == "ruleset":
        errors, load = RulesetError, lambda: parse_ruleset_text(text, "fuzzed.toml")
    else:
        path = directory / "fuzzed.toml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        errors = RoomsError if loader == "rooms" else LevelsError
        load = (lambda: load_rooms(path, path)) if loader == "rooms" else (lambda: load_levels(path))
    try:
        return load()
    except errors as error:
        assert "\n" not in str(error).strip()
        return error


# Enough to find, for one, an exclusion list holding a list (which once failed unhashable); rooms and levels
# files are small, and their loaders read few fields.
FUZZ_EXAMPLES = {"ruleset": 400, "rooms": 150, "levels": 150}


@pytest.mark.parametrize("loader", SHIPPED_TOML)
def test_mutated_shipped_files_give_the_loaders_answer_or_its_error(loader, tmp_path_factory):
    directory = tmp_path_factory.mktemp(f"fuzz-{loader}")
    texts = [path.read_text(encoding="utf-8") for path in SHIPPED_TOML[loader]]
    assert all(not isinstance(_loaded(loader, text, directory), Exception) for text in texts)

    @settings(max_examples=FUZZ_EXAMPLES[loader], deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(mutations(texts))
    def check(mutation):
        index, changes = mutation
        _loaded(loader, _mutated(texts[index], changes), directory)

    check()


# ------------------------------------------------------------------------------ sizes that cannot fit in memory

@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    directory = tmp_path_factory.mktemp("small") / "run"
    from sim.runs.runner import RunConfig, run

    run(RunConfig("erren", ("greedy", "greedy"), deals=200, seed=1, shard_size=100), directory, workers=1)
    return directory


@pytest.fixture
def eight_gb_machine(monkeypatch):
    """A machine of 8 GB, wherever the tests run: the budget is half of it."""
    from sim.core import size_limits

    monkeypatch.setattr(size_limits, "physical_memory", lambda: 8 << 30)


@pytest.mark.parametrize("arguments, message", [
    (["economics", "{run}", "--players", "1000000", "--horizon", "1000", "--solve", "fee", "--target",
      "median_deals_to_ruin>=500"], "simulating 1,000,000 players over 1,000 deals with 4 purses would need about 30.3 GB"),
    (["economics", "{run}", "--players", "100000000", "--horizon", "10", "--block", "1"],
     "simulating 100,000,000 players over 10 deals with 4 purses would need about 44.9 GB"),
    (["duel", "greedy", "random", "--deals", str(10**8)], "a duel of 100,000,000 walls would need about 37.3 GB"),
    (["league", "greedy", "random", "--deals", str(10**8)], "a league of 100,000,000 walls per pair would need about"),
    (["challenge", "--runs", str(10**7)], "10,000,000 runs of 4 levels in 6 variants would need about 57"),
    (["run", "--deals", str(10**10), "--shard-size", str(10**6), "--out", "{new}"],
     "making the tables of 10,000,000,000 deals would need about"),
    (["run", "--deals", str(10**8), "--shard-size", str(10**6), "--workers", "8", "--logs", "--out", "{new}"],
     "making the tables of 100,000,000 deals would need about"),
])
def test_a_size_that_cannot_fit_in_memory_is_refused_up_front(mjsim, small_run, tmp_path, eight_gb_machine, arguments, message):
    arguments = [argument.format(run=small_run, new=tmp_path / "new") for argument in arguments]
    err = _one_error_line(*mjsim(*arguments))
    assert message in err and "more than the 4 GB mjsim allows itself (half of this machine's 8 GB)" in err
    assert not (tmp_path / "new").exists()


def test_shards_that_cannot_fit_in_memory_are_refused_before_any_is_played(mjsim, tmp_path, monkeypatch):
    from sim.core import size_limits

    monkeypatch.setattr(size_limits, "physical_memory", lambda: 400 << 20)
    err = _one_error_line(*mjsim("run", "--deals", "200000", "--shard-size", "100000", "--workers", "2", "--logs",
                                 "--out", str(tmp_path / "run")))
    assert "2 workers each playing a shard of 100,000 deals would need about" in err and "--shard-size" in err
    assert not (tmp_path / "run").exists()


def test_a_run_too_large_to_read_is_refused_by_analyze(mjsim, small_run, monkeypatch):
    from sim.core import size_limits

    monkeypatch.setattr(size_limits, "physical_memory", lambda: 64 << 10)
    assert f"reading the 200 deals of {small_run} would need about" in _one_error_line(*mjsim("analyze", str(small_run)))


def test_ruin_simulated_a_chunk_of_players_at_a_time_is_the_same(monkeypatch):
    from analysis import ruin

    changes = np.random.default_rng(4).normal(0, 10, (500, 2))
    whole = ruin.ruin_deals(ruin.simulated_curves(changes, [60.0], 300, 250, 7, seed=3)[0], 0)
    monkeypatch.setattr(ruin, "PLAYERS_PER_CHUNK_ELEMENTS", 300 * 9)  # nine players at a time, the last chunk short
    assert np.array_equal(ruin.ruin_deals(ruin.simulated_curves(changes, [60.0], 300, 250, 7, seed=3)[0], 0), whole)
    assert np.isfinite(whole).any() and np.isinf(whole).any()


def test_a_duel_played_a_chunk_at_a_time_is_the_same(monkeypatch):
    from sim.core.rooms import Room
    from sim.runs import duel

    ruleset = load_ruleset("erren")
    room = Room("r", 1, 2, 0, 0)
    whole = duel.duel(ruleset, "greedy", "random", 60, 3, room)
    monkeypatch.setattr(duel, "CHUNK", 7)
    chunked = duel.duel(ruleset, "greedy", "random", 60, 3, room)
    assert (chunked.difference, chunked.z) == (whole.difference, whole.z)
    assert np.array_equal(chunked.win_rate, whole.win_rate) and np.array_equal(chunked.mean_beans, whole.mean_beans)


# ------------------------------------------------------------------------------ smaller promises

@pytest.mark.parametrize("arguments", [
    ["duel", "greedy", "greedy", "--ruleset", "liangmen-xuezhan", "--rooms", "app", "--deals", "2"],
    ["league", "greedy", "random", "--ruleset", "sanren-liangfang", "--rooms", "app", "--deals", "2"],
    ["run", "--ruleset", "liangmen-xuezhan", "--rooms", "app", "--deals", "4", "--out", "{new}"],
])
def test_the_app_rooms_of_the_erren_family_are_refused_by_name_for_a_xuezhan_table(mjsim, tmp_path, arguments):
    err = _one_error_line(*mjsim(*[argument.format(new=tmp_path / "new") for argument in arguments]))
    assert "'app' names a rooms file of the 二人 family only (app_rooms.toml)" in err and "血战 family" in err
    assert not (tmp_path / "new").exists()


def _league_shaped(path: Path, config: dict, columns=("a",)) -> Path:
    import pandas as pd

    from sim.core.result_files import write_table

    return write_table(pd.DataFrame({column: [1] for column in columns}), path, config)


@pytest.mark.parametrize("make, message", [
    (lambda tmp_path: Path("/dev/null"), "/dev/null is neither a run directory nor a league table (it is not a regular file)"),
    (lambda tmp_path: _league_shaped(tmp_path / "t.parquet", {"command": "league"}),
     "says it is a league table but lacks its columns beans_difference, high, low"),
    (lambda tmp_path: _league_shaped(tmp_path / "t.parquet", {"command": "demo"}), "is neither a run directory nor a league table"),
    (lambda tmp_path: _league_shaped(tmp_path / "t.parquet", ["command", "league"]), "is neither a run directory nor a league table"),
    (lambda tmp_path: (tmp_path / "t.parquet").write_text("not parquet") and tmp_path / "t.parquet", "is neither a run directory"),
])
def test_report_of_something_that_is_no_run_or_league_table_is_one_error_line(mjsim, tmp_path, make, message):
    assert message in _one_error_line(*mjsim("report", str(make(tmp_path))))


@pytest.mark.parametrize("config, message", [
    ({"command": "league"}, "beans.parquet was written by mjsim league, not by a run"),
    ({"command": ["x"]}, "beans.parquet was written by mjsim ['x'], not by a run"),
    ([1, 2], "beans.parquet carries no run configuration"),
])
def test_report_of_a_run_holding_a_table_of_another_command_is_one_error_line(mjsim, small_run, tmp_path, config, message):
    directory = tmp_path / "run"
    shutil.copytree(small_run, directory)
    _league_shaped(directory / "beans.parquet", config)
    assert message in _one_error_line(*mjsim("report", str(directory)))
    assert not (directory / "report.html").exists()


@pytest.mark.parametrize("make", [os.mkfifo, os.mkdir], ids=["a named pipe", "a directory"])
def test_report_of_a_run_whose_table_is_not_a_regular_file_is_one_error_line_not_a_wait(mjsim, small_run, tmp_path, make):
    """Reading a pipe put where a table should be would wait for its writer for ever."""
    directory = tmp_path / "run"
    shutil.copytree(small_run, directory)
    (directory / "seats.parquet").unlink()
    make(directory / "seats.parquet")
    assert "seats.parquet is not a regular file" in _one_error_line(*mjsim("report", str(directory)))
    assert not (directory / "report.html").exists()


# ------------------------------------------------------------------------------ Dask addresses and hostile listeners

@pytest.mark.parametrize("address, message", [
    ("nonsense", "is not a Dask scheduler's address like tcp://10.0.0.1:8786 (missing port number"),
    ("tcp://[::1", "is not a Dask scheduler's address"),
    ("tcp://host:99999", "(port 99999 is not from 1 to 65535)"),
    ("tcp://:8786", "(no host)"),
])
def test_a_bad_dask_address_is_one_error_line(mjsim, tmp_path, address, message):
    err = _one_error_line(*mjsim("run", "--deals", "10", "--backend", "dask", "--scheduler", address, "--out", str(tmp_path / "run")))
    assert message in err and not (tmp_path / "run").exists()


@contextlib.contextmanager
def _listener(answer: bytes | None):
    """A TCP server on loopback, in a thread, that accepts every connection and sends `answer` and keeps it
    open (None: says nothing; b"": hangs up at once). It is ready once its port is bound and listening,
    which is before this yields the port."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted = []

    def serve():
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # shut down: the test is over
                return
            accepted.append(connection)
            with contextlib.suppress(OSError):
                if answer == b"":
                    connection.close()
                elif answer is not None:
                    connection.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        server.shutdown(socket.SHUT_RDWR)  # wakes the accept
        server.close()
        for connection in accepted:
            connection.close()
        thread.join(5)


@pytest.mark.parametrize("answer, message", [
    (b"\xff" * 100_000 + b"garbage\n" * 1000, "it does not answer as a Dask scheduler"),
    (None, "no answer as a Dask scheduler within 2 s"),
    (b"", "cannot reach the Dask scheduler"),
])
def test_a_listener_that_is_no_dask_scheduler_is_one_error_line_within_the_timeout(mjsim, tmp_path, monkeypatch, answer, message):
    monkeypatch.setenv("MJSIM_DASK_TIMEOUT", "2")
    with _listener(answer) as port:
        started = time.monotonic()
        err = _one_error_line(*mjsim("run", "--deals", "10", "--backend", "dask", "--scheduler", f"tcp://127.0.0.1:{port}",
                                     "--out", str(tmp_path / "run")))
        waited = time.monotonic() - started
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: " in err and message in err
    assert waited < 20 and not (tmp_path / "run").exists()

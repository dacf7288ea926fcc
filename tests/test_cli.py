"""The `mjsim` command line: output for good input, one `error:` line and exit 2 for bad input."""

import json
import sys

import pandas as pd
import pytest

from analysis.tables import read_metadata
from sim import cli


def run(monkeypatch, capsys, *arguments):
    monkeypatch.setattr(sys, "argv", ["mjsim", *arguments])
    code = 0
    try:
        cli.main()
    except SystemExit as exit:
        code = exit.code or 0
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_shanten_prints_forms_waits_with_copies_left_and_ukeire(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, "shanten", "123456789m1122z", "--visible", "1z")
    assert code == 0
    assert "shanten   0 (ready); standard 0, seven pairs 4" in out
    assert "waits     1z ×1, 2z ×2  (3 left)" in out
    assert "ukeire    3 tiles in 2 kinds" in out


def test_shanten_json_has_every_field(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, "shanten", "[123m] 456m789m1122z", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["tiles"] == "456789m1122z [123m]"
    assert (report["shanten"], report["shanten_standard"], report["shanten_seven_pairs"]) == (0, 0, None)
    assert report["waits"] == ["1z", "2z"] and report["waits_remaining"] == {"1z": 2, "2z": 2}
    assert report["ukeire"] == 4


def test_fourteen_tile_hands_list_every_discard(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, "shanten", "123456789m11223z", "--json")
    report = json.loads(out)
    assert code == 0 and report["shanten"] == 0
    discards = {option["discard"]: option for option in report["discards"]}
    assert discards["3z"]["waits"] == ["1z", "2z"] and discards["3z"]["ukeire"] == 4
    assert discards["1z"]["shanten"] == 1
    assert report["waits"] == ["1z", "2z"]  # only discarding 3z leaves the hand ready


def test_a_wait_on_a_kind_whose_copies_are_all_in_own_melds_is_no_wait(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, "shanten", "5m123p456p789p [555m]", "--json")
    assert code == 0 and json.loads(out)["waits"] == []


def test_batch_writes_one_line_per_input_line_and_reports_bad_lines(monkeypatch, capsys, tmp_path):
    batch = tmp_path / "hands.jsonl"
    batch.write_text(
        "\n".join(['{"tiles": "123456789m1122z"}', "not json", '{"tiles": "12x"}', '{"tiles": "19m19p19s1234567z"}', ""]) + "\n"
    )
    code, out, _ = run(monkeypatch, capsys, "shanten", "--batch", str(batch))
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
    ],
)
def test_bad_input_gets_one_error_line_and_exit_2(monkeypatch, capsys, arguments, message):
    code, out, err = run(monkeypatch, capsys, *arguments)
    assert code == 2
    assert err.startswith("error: ") and message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_demo_writes_a_table_with_its_configuration_and_versions(monkeypatch, capsys, tmp_path):
    code, out, _ = run(monkeypatch, capsys, "demo", "--deals", "3000", "--seed", "4", "--out", str(tmp_path / "demo"))
    path = tmp_path / "demo" / "initial_shanten.parquet"
    assert code == 0 and str(path) in out
    table = pd.read_parquet(path)
    assert table.groupby("seat")["deals"].sum().tolist() == [3000, 3000]
    meta = read_metadata(path)
    assert meta["config"] == {"command": "demo", "deals": 3000, "seed": 4, "tile_set": "wan-honours"}
    assert {"mjsim", "numba", "numpy"} <= set(meta["versions"])


def test_demo_refuses_an_output_path_that_is_a_file_and_leaves_it_alone(monkeypatch, capsys, tmp_path):
    occupied = tmp_path / "taken"
    occupied.write_text("keep me")
    code, _, err = run(monkeypatch, capsys, "demo", "--deals", "10", "--out", str(occupied))
    assert code == 2 and "not a directory" in err
    assert occupied.read_text() == "keep me"


def test_bench_json_reports_rates_and_ratios(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, "bench", "--hands", "2000", "--reference-hands", "200", "--json")
    results = json.loads(out)
    assert code == 0
    row = results["sets"]["wan+honours 13"]
    assert row["shanten_kernel"] > 0 and row["ukeire_kernel"] > 0 and row["waits_kernel"] > 0
    assert row["references"]["mahjong"]["kernel_ratio"] > 1
    assert row["references"]["PyMahjongGB"]["kernel_ratio"] > 1


def test_usage_errors_exit_non_zero_without_a_traceback(monkeypatch, capsys):
    code, _, err = run(monkeypatch, capsys, "bench", "--hands", "many")
    assert code == 2 and "Traceback" not in err and "Invalid value for '--hands'" in err

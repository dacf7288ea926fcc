"""`mjsim tune` as a user meets it: each bad --param named in one error line before any deal, an existing file
that is not a trace left alone, and tiny real runs end to end, for a built-in player in 二人 and in 血战 and a
user's Python player with a key=value parameter, each writing its trace with its configuration."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.core.result_files import read_metadata

EXAMPLES = Path(__file__).parent.parent.parent / "examples" / "players"


@pytest.mark.parametrize("param, message", [
    ("double_wall", "--param is written NAME=LO..HI, or NAME=LO..HI:int for whole numbers, not 'double_wall'"),
    ("double_wall=a..5", "--param double_wall: LO and HI are numbers, not 'a' and '5'"),
    ("double_wall=20..5", "--param double_wall: a range needs finite LO < HI, not 20..5"),
    ("double_wall=3..3", "--param double_wall: a range needs finite LO < HI, not 3..3"),
    ("double_wall=0.5..5:int", "--param double_wall: an integer parameter's range has whole ends, not 0.5..5"),
    ("double_wall=0..5:float", "--param double_wall: the only kind after the range is ':int', not ':float'"),
    ("speed=0..5", "--param speed: greedy takes claim, ready, double_below, double_wall"),
    ("double_wall=-5..5", "--param double_wall=-5..5: greedy: parameter double_wall must be a non-negative number"),
])
def test_a_bad_param_is_named_in_one_line_and_nothing_is_written(mjsim, tmp_path, param, message):
    out = tmp_path / "trace.parquet"
    code, printed, error = mjsim("tune", "greedy", "--param", param, "--out", str(out))
    assert code == 2 and printed == "" and error == f"error: {message}\n"
    assert not out.exists()


def test_a_user_player_is_tuned_only_on_the_parameters_its_text_writes(mjsim):
    player = f"{EXAMPLES / 'simple.py'}:Coin"
    code, _, error = mjsim("tune", player, "--param", "win=0..1")
    assert code == 2 and "does not write it; a user's player is tuned on the parameters its text writes" in error


def test_a_range_outside_what_a_builtin_numba_player_accepts_is_refused(mjsim):
    code, _, error = mjsim("tune", "ev", "--param", "depth=0..5:int")
    assert code == 2 and error == "error: --param depth=0..5: ev:depth=5: parameter depth is from 0 to 2, not 5\n"


def test_a_file_that_is_not_a_trace_is_left_alone(mjsim, tmp_path):
    out = tmp_path / "mine.parquet"
    pd.DataFrame({"x": [1, 2]}).to_parquet(out)
    before = out.read_bytes()
    code, _, error = mjsim("tune", "greedy", "--param", "double_wall=0..20", "--out", str(out), "--iterations", "2",
                           "--walls-per-step", "10", "--confirm-walls", "10")
    assert code == 2 and "is not a trace written by mjsim tune" in error
    assert out.read_bytes() == before


def _run(mjsim, out, *arguments):
    code, printed, error = mjsim("tune", *arguments, "--out", str(out))
    assert code == 0, error
    return printed, pd.read_parquet(out), read_metadata(out)


def test_greedy_tuned_in_erren_end_to_end(mjsim, tmp_path):
    out = tmp_path / "erren.parquet"
    printed, trace, metadata = _run(mjsim, out, "greedy", "--param", "double_below=8..40:int", "--param",
                                    "double_wall=0..20", "--iterations", "3", "--walls-per-step", "30",
                                    "--confirm-walls", "60", "--seed", "4")
    assert printed.startswith("tuned greedy against greedy on erren: 3 iterations of 30 walls (walls 0 to 89)")
    assert "confirmation on 60 fresh walls (90 to 149), tuned less as given" in printed
    assert len(trace) == 3 and list(trace["first_wall"]) == [0, 30, 60]
    assert (trace["plus_double_below"] % 1 == 0).all() and trace["plus_double_below"].between(8, 40).all()
    config = metadata["config"]
    assert config["command"] == "tune" and config["seed"] == 4 and config["iterations"] == 3
    assert config["parameters"][0] == {"name": "double_below", "low": 8.0, "high": 40.0, "integer": True}
    assert config["tuned"] in printed and config["tuned"].startswith("greedy:double_below=")
    assert metadata["versions"]["mjsim"]
    # the same seed, the same trace
    again = tmp_path / "again.parquet"
    _, repeated, _ = _run(mjsim, again, "greedy", "--param", "double_below=8..40:int", "--param", "double_wall=0..20",
                          "--iterations", "3", "--walls-per-step", "30", "--confirm-walls", "60", "--seed", "4")
    assert repeated.equals(trace)


def test_greedy_tuned_in_a_xuezhan_ruleset_end_to_end(mjsim, tmp_path):
    out = tmp_path / "xuezhan.parquet"
    printed, trace, metadata = _run(mjsim, out, "greedy", "--param", "claim=0..1:int", "--ruleset", "sanren-liangfang",
                                    "--iterations", "2", "--walls-per-step", "10", "--confirm-walls", "20", "--json")
    result = json.loads(printed)
    assert result["ruleset"] == "sanren-liangfang" and result["tuned"].startswith("greedy:claim=")
    assert result["tuned_values"]["claim"] in (0, 1) and result["start"] == {"claim": 1.0}
    assert result["confirmation"]["walls"] == 20 and result["confirmation"]["first_wall"] == 20
    assert metadata["config"]["seats"] == 3 and len(trace) == 2


def test_a_python_players_key_value_parameter_tuned_end_to_end(mjsim, tmp_path):
    out = tmp_path / "coin.parquet"
    player = f"{EXAMPLES / 'simple.py'}:Coin:win=0.9"
    printed, trace, _ = _run(mjsim, out, player, "--param", "win=0.5..1", "--opponent", "greedy", "--iterations", "2",
                             "--walls-per-step", "8", "--confirm-walls", "8")
    assert f"tuned {player} against greedy" in printed
    assert trace["plus_win"].between(0.5, 1).all() and not np.array_equal(trace["plus_win"], trace["minus_win"])
    assert f"tuned player: {EXAMPLES / 'simple.py'}:Coin:win=" in printed

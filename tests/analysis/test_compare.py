"""`mjsim compare` as a specification: two runs of one seed are paired deal by deal, a change of rules shows in
the rows it touches and nowhere else, the interval is the delta method's (checked against its textbook form
and by simulation), runs that do not deal the same walls are refused unless compared unpaired, and bad input
is one error line."""

import json
import math
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import NAIVE_PATH

from analysis import compare
from sim.core.result_files import read_metadata
from sim.core.run_records import load_run, read_win_chances
from sim.core.statistics import Z_95
from sim.core.terminal_text import display_width
from sim.runs.runner import RunConfig, run

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "sim" / "rulesets"


def _variant(source: str, replacements: dict, path: Path) -> Path:
    """A copy of a shipped ruleset file with some lines changed (each must be there)."""
    text = (RULESETS / source).read_text(encoding="utf-8")
    for old, new in replacements.items():
        assert old in text, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def runs(tmp_path_factory):
    """Small runs: erren greedy v greedy under its own rules and with 清一色 worth 32 (flowers unchanged), the
    same at another seed and under erren-classic (other walls), ev v greedy under both erren rulesets (and in
    sessions of 50 deals), and liangmen-xuezhan at four greedy seats with its cap at 32 and at 64."""
    root = tmp_path_factory.mktemp("compare")
    flush = _variant("erren.toml", {'id = "erren"': 'id = "erren-flush32"',
                                    'name = "清一色"\nvalue = 24': 'name = "清一色"\nvalue = 32'}, root / "erren-flush32.toml")
    cap = _variant("liangmen-xuezhan.toml", {'id = "liangmen-xuezhan"': 'id = "liangmen-cap64"', "cap = 32 ": "cap = 64 "},
                   root / "liangmen-cap64.toml")
    greedy, four = ("greedy", "greedy"), ("greedy",) * 4
    plan = {
        "erren": RunConfig("erren", greedy, 2000, 1, shard_size=1000),
        "flush32": RunConfig(str(flush), greedy, 2000, 1, shard_size=1000),
        "flush32_short": RunConfig(str(flush), greedy, 1000, 1, shard_size=1000),
        "seed2": RunConfig("erren", greedy, 500, 2),
        "classic": RunConfig("erren-classic", greedy, 500, 1),
        "ev": RunConfig("erren", ("ev", "greedy"), 300, 1),
        "ev_flush32": RunConfig(str(flush), ("ev", "greedy"), 300, 1),
        "ev_sessions": RunConfig("erren", ("ev", "greedy"), 300, 1, shard_size=300, session_length=50),
        "ev_flush32_sessions": RunConfig(str(flush), ("ev", "greedy"), 300, 1, shard_size=300, session_length=50),
        "xuezhan": RunConfig("liangmen-xuezhan", four, 500, 1),
        "cap64": RunConfig(str(cap), four, 500, 1),
    }
    return {name: run(config, root / name, workers=1) for name, config in plan.items()}


def _side(runs, name):
    return compare.load_side(runs[name].directory)


def _rows(comparison):
    return comparison.rows.set_index("statistic")


# ------------------------------------------------------------------------------------- the interval maths


def _naive():
    import importlib.util

    spec = importlib.util.spec_from_file_location("naive_plain", NAIVE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _clustered_sample(rng, deals, shift):
    """Deals of a 血战-like game: 0 to 3 wins a deal, each worth 5 + 2u + noise, u the deal's own luck shared
    by its wins; run B plays the same deals with every win worth `shift` more (and noise of its own). The
    true difference of the mean per win is `shift`."""
    luck = rng.normal(size=deals)
    wins = rng.binomial(3, 0.5, size=deals)
    deal_of_win = np.repeat(np.arange(deals), wins)
    value = 5 + 2 * luck[deal_of_win] + rng.normal(size=deal_of_win.size)
    value_b = value + shift + rng.normal(scale=0.5, size=deal_of_win.size)
    xa = np.bincount(deal_of_win, weights=value, minlength=deals)
    xb = np.bincount(deal_of_win, weights=value_b, minlength=deals)
    return xa, wins.astype(float), xb, wins.astype(float)


@pytest.mark.parametrize("paired", [True, False])
def test_the_interval_is_the_textbook_delta_method(paired):
    naive = _naive()
    rng = np.random.default_rng(11)
    for _ in range(20):
        xa, wa, xb, wb = _clustered_sample(rng, int(rng.integers(5, 60)), rng.normal())
        if not paired:  # independent samples of different sizes
            xb, wb = xb[: len(xb) // 2 + 2], wb[: len(wb) // 2 + 2]
        if wa.sum() == 0 or wb.sum() == 0:
            continue
        fast = compare.difference_interval(xa, wa, xb, wb, paired)
        slow = naive.ratio_difference(list(zip(xa, wa)), list(zip(xb, wb)), paired, Z_95)
        assert fast == pytest.approx(slow, rel=1e-9, abs=1e-12)


def test_a_mean_per_deal_is_the_ratio_with_one_deal_each_and_its_interval_the_t_free_paired_one():
    rng = np.random.default_rng(3)
    first = rng.normal(size=400)
    second = first + 0.2 + rng.normal(scale=0.3, size=400)
    ones = np.ones(400)
    _, _, difference, low, high = compare.difference_interval(first, ones, second, ones, paired=True)
    differences = second - first
    half = Z_95 * differences.std(ddof=1) / np.sqrt(400)
    assert (difference, low, high) == pytest.approx((differences.mean(), differences.mean() - half, differences.mean() + half))


@pytest.mark.parametrize("statistic", ["mean per win, clustered", "share of deals"])
def test_the_paired_interval_covers_a_known_difference_95_times_in_100(statistic):
    rng = np.random.default_rng(2024)
    covered, replications = 0, 1000
    for _ in range(replications):
        if statistic == "share of deals":  # B wins where the deal's luck is above -0.1, A above 0
            luck = rng.normal(size=300)
            xa, xb, wa = (luck > 0).astype(float), (luck > -0.1).astype(float), np.ones(300)
            wb, truth = wa, 0.5 * math.erf(0.1 / math.sqrt(2))  # P(-0.1 < luck < 0)
        else:
            xa, wa, xb, wb = _clustered_sample(rng, 300, 1.0)
            truth = 1.0
        _, _, _, low, high = compare.difference_interval(xa, wa, xb, wb, paired=True)
        covered += low <= truth <= high
    assert 0.93 <= covered / replications <= 0.97


def test_pairing_narrows_the_interval_of_correlated_runs():
    xa, wa, xb, wb = _clustered_sample(np.random.default_rng(5), 2000, 1.0)
    _, _, _, low, high = compare.difference_interval(xa, wa, xb, wb, paired=True)
    _, _, _, unpaired_low, unpaired_high = compare.difference_interval(xa, wa, xb, wb, paired=False)
    assert low < 1.0 < high
    assert high - low < 0.4 * (unpaired_high - unpaired_low)


def test_a_side_without_a_win_has_no_share_of_wins_and_no_interval():
    figures = compare.difference_interval(np.zeros(5), np.zeros(5), np.ones(5), np.ones(5), paired=True)
    assert np.isnan(figures[0]) and figures[1] == 1.0 and all(np.isnan(value) for value in figures[2:])


# ------------------------------------------------------------------------------------- runs, paired


def test_a_run_compared_with_itself_differs_by_nothing(runs):
    side = _side(runs, "erren")
    rows = compare.compare(side, side).rows
    assert (rows["difference"].dropna() == 0).all() and (rows["low"].dropna() == 0).all() and (rows["high"].dropna() == 0).all()
    assert (rows["count_a"] == rows["count_b"]).all()


def test_a_dearer_full_flush_shows_in_the_value_of_a_win_and_each_side_is_its_runs_own_table(runs):
    comparison = compare.compare(_side(runs, "erren"), _side(runs, "flush32"))
    assert comparison.pairing.paired and comparison.pairing.deals_a == 2000 and not comparison.pairing.notes
    rows = _rows(comparison)
    for side, name in (("a", "erren"), ("b", "flush32")):
        outcomes = runs[name].outcomes.set_index("statistic")["value"]
        for statistic in ("win_share", "draw_share", "self_drawn_share_of_wins", "mean_fan_total", "mean_paid_per_win"):
            assert rows.loc[statistic, side] == pytest.approx(outcomes[statistic])
        fans = runs[name].fan_table.set_index("fan")
        assert rows.loc["fan.full_flush", side] == pytest.approx(fans.loc["full_flush", "per_win"])
        assert rows.loc["fan.full_flush", f"count_{side}"] == fans.loc["full_flush", "wins_scored"]
        assert rows.loc["mean_fan_total", f"count_{side}"] == outcomes["wins"]
    assert rows.loc["fan.full_flush", "label"] == "清一色 (24 → 32)" and rows.loc["fan.half_flush", "label"] == "混一色 (6)"
    for statistic in ("mean_fan_total", "mean_paid_per_win", "money.体验场.winner"):
        assert 0 < rows.loc[statistic, "low"] < rows.loc[statistic, "difference"] < rows.loc[statistic, "high"]
    assert rows.loc["fan.flower_tiles", "difference"] == pytest.approx(0.0, abs=0.02)  # flowers unchanged


def test_paired_runs_get_a_narrower_interval_than_the_same_runs_unpaired(runs):
    first, second = _side(runs, "erren"), _side(runs, "flush32")
    paired, unpaired = _rows(compare.compare(first, second)), _rows(compare.compare(first, second, unpaired=True))
    width = (paired["high"] - paired["low"])["mean_fan_total"]
    assert width < 0.5 * (unpaired["high"] - unpaired["low"])["mean_fan_total"]
    assert paired.loc["mean_fan_total", "difference"] == pytest.approx(unpaired.loc["mean_fan_total", "difference"])


def test_runs_of_different_lengths_are_compared_on_their_common_deals_and_say_so(runs):
    comparison = compare.compare(_side(runs, "erren"), _side(runs, "flush32_short"))
    assert comparison.pairing.paired and comparison.pairing.deals_a == comparison.pairing.deals_b == 1000
    assert "A's deals beyond the first 1,000 are left out" in compare.format_comparison(comparison)
    won = (runs["erren"].records["winner"].to_numpy()[:1000] >= 0)
    assert _rows(comparison).loc["win_share", "a"] == pytest.approx(won.mean())


def test_a_xuezhan_cap_raised_to_64_pays_more_per_win_for_the_same_wins(runs):
    rows = _rows(compare.compare(_side(runs, "xuezhan"), _side(runs, "cap64")))
    outcomes = runs["xuezhan"].outcomes.set_index("statistic")["value"]
    assert rows.loc["wins_per_deal", "a"] == pytest.approx(outcomes["wins_per_deal"])
    assert rows.loc["mean_paid_per_win", "count_a"] == outcomes["wins"]  # every win of a deal counted
    assert rows.loc["mean_paid_per_win", "a"] == pytest.approx(outcomes["mean_paid_per_win"])
    assert rows.loc["mean_paid_per_win", "low"] > 0
    assert rows.loc["money.练习场.moved", "difference"] > 0
    assert {"money.练习场.seat_3", "money.练习场.non_dealer", "fan.ready_hand"} <= set(rows.index)


def test_reported_chances_of_winning_are_compared_per_reporting_seat(runs):
    rows = _rows(compare.compare(_side(runs, "ev"), _side(runs, "ev_flush32")))
    chances = rows.loc["win_chance.seat_0"]
    reported = read_win_chances(runs["ev"].directory, *load_run(runs["ev"].directory))
    assert chances["count_a"] == len(reported) and chances["a"] == pytest.approx(reported["chance"].mean())
    assert chances["low"] < chances["difference"] < chances["high"]
    assert chances["label"] == "seat 0's mean report (ev)" and "win_chance.seat_1" not in rows.index  # greedy reports nothing


# ------------------------------------------------------------------------------------- refusals and unpaired


@pytest.mark.parametrize(("other", "reason"), [("seed2", "different seeds (A 1, B 2)"),
                                               ("classic", "different walls (erren deals 72 tiles"),
                                               ("xuezhan", "is a 二人 run and B (liangmen-xuezhan) a 血战 run")])
def test_runs_that_do_not_deal_the_same_walls_are_refused_with_the_reason(runs, mjsim, other, reason):
    code, out, err = mjsim("compare", str(runs["erren"].directory), str(runs[other].directory))
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: ") and reason in err


def test_runs_in_sessions_whose_dealers_part_ways_are_refused_at_the_first_deal_they_differ(runs):
    # ev plays for the money: with 清一色 dearer some deal ends otherwise, and its session's next dealer with it
    first, second = _side(runs, "ev_sessions"), _side(runs, "ev_flush32_sessions")
    dealers = first.records["dealer"].to_numpy(), second.records["dealer"].to_numpy()
    differing = np.flatnonzero(dealers[0] != dealers[1])
    assert differing.size and differing[0] % 50 != 0  # within a session, not at its start
    with pytest.raises(compare.CompareError, match=f"the deals start differently \\(dealer of deal {differing[0]}:.*"
                                                   "with sessions the dealer follows the previous deal's result"):
        compare.compare(first, second)
    assert not compare.compare(first, second, unpaired=True).pairing.paired


def test_unpaired_compares_independent_samples_and_says_so_everywhere(runs, mjsim, tmp_path):
    path = tmp_path / "unpaired.parquet"
    code, out, err = mjsim("compare", str(runs["erren"].directory), str(runs["seed2"].directory), "--unpaired",
                           "--out", str(path))
    assert code == 0, err
    assert "unpaired: 2,000 deals of A and 500 of B as independent samples (different seeds" in out
    pairing = read_metadata(path)["config"]["pairing"]
    assert pairing["paired"] is False and pairing["deals_b"] == 500 and "different seeds" in pairing["reason"]
    code, out, _ = mjsim("compare", str(runs["erren"].directory), str(runs["seed2"].directory), "--unpaired", "--json")
    document = json.loads(out)
    assert document["pairing"]["paired"] is False and document["seeds"] == [1, 2]
    rows = {row["statistic"]: row for row in document["rows"]}
    assert rows["win_share"]["low"] < rows["win_share"]["difference"] < rows["win_share"]["high"]


# ------------------------------------------------------------------------------------- outputs


def test_the_text_table_names_both_runs_and_pads_chinese_names(runs, mjsim):
    code, out, err = mjsim("compare", str(runs["erren"].directory), str(runs["flush32"].directory))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"A: {runs['erren'].directory}: erren, greedy v greedy, 2,000 deals, seed 1"
    assert lines[1].startswith(f"B: {runs['flush32'].directory}: erren-flush32, greedy v greedy")
    assert lines[2].startswith("paired deal by deal on 2,000 common deals")
    # the columns line up whatever the width of the names: every interval opens in one column
    rows = [line for line in lines if line.startswith("  ") and "[" in line]
    assert any("清一色" in line for line in rows) and any("seat 0" in line for line in rows)
    assert len({display_width(line[: line.index("[")]) for line in rows}) == 1
    assert re.search(r"robbing a kong, share of wins .* 0 +0  !$", out, re.MULTILINE)


def test_json_holds_both_configurations_the_pairing_and_every_row(runs, mjsim):
    code, out, err = mjsim("compare", str(runs["erren"].directory), str(runs["flush32"].directory), "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["a"]["ruleset"] == "erren" and document["b"]["ruleset_id"] == "erren-flush32"
    assert "value = 32" in document["b"]["ruleset_source"] and document["a"]["players_label"] == "greedy v greedy"
    assert document["pairing"]["paired"] is True and document["fewest"] == compare.FEWEST
    rows = {row["statistic"]: row for row in document["rows"]}
    assert rows["fan.full_flush"]["kind"] == "share of wins" and set(rows["fan.full_flush"]) == set(compare.COLUMNS)
    unscored = [row for row in document["rows"] if row["group"] == "fans" and row["count_a"] + row["count_b"] == 0]
    assert unscored and all(row["a"] == row["difference"] == 0 and row["low"] is None and row["too_few"] for row in unscored)


def test_the_parquet_output_carries_both_configurations_and_an_error_leaves_an_old_one_alone(runs, mjsim, tmp_path):
    path = tmp_path / "comparison.parquet"
    code, out, err = mjsim("compare", str(runs["erren"].directory), str(runs["flush32"].directory), "--out", str(path))
    assert code == 0, err and out.endswith(f"wrote {path}\n")
    table, config = pd.read_parquet(path), read_metadata(path)["config"]
    assert list(table.columns) == list(compare.COLUMNS) and len(table) > 100
    assert config["a"]["seed"] == config["b"]["seed"] == 1 and config["seeds"] == [1, 1]
    assert "numba" in read_metadata(path)["versions"] and config["a"]["source_hash"]
    before = path.read_bytes()
    code, _, err = mjsim("compare", str(runs["erren"].directory), str(runs["seed2"].directory), "--out", str(path))
    assert code == 2 and "different seeds" in err and path.read_bytes() == before
    assert not list(tmp_path.glob(".comparison.parquet.*"))


def test_report_with_compare_adds_a_comparison_section_to_the_first_runs_page(runs, mjsim, tmp_path):
    directory = Path(shutil.copytree(runs["erren"].directory, tmp_path / "a"))
    code, _, err = mjsim("report", str(directory), "--compare", str(runs["flush32"].directory))
    assert code == 0, err
    page = (directory / "report.html").read_text(encoding="utf-8")
    section = page[page.index('<section id="comparison">'):]
    assert "<h2>Comparison</h2>" in section and "erren-flush32, greedy v greedy" in section
    assert "清一色 (24 → 32)" in section and "paired deal by deal" in section
    assert section.count("<svg") == 1
    code, _, err = mjsim("report", str(directory), "--compare", str(runs["seed2"].directory))
    assert code == 2 and "different seeds" in err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["{erren}", "{root}/no-such-run"], "no-such-run does not exist"),
        (["{erren}", "{root}"], "holds no run (run.json is missing)"),
        (["{erren}", "{erren}/run.json"], "is not a run directory"),
        (["{erren}", "{flush32}", "--rooms", "{root}/no-rooms.toml"], "cannot read rooms file"),
        (["{erren}", "{flush32}", "--out", "{erren}/comparison.parquet"], "is in the run directory"),
        (["{erren}"], "Missing argument"),
    ],
)
def test_bad_input_is_one_error_line(runs, mjsim, tmp_path, arguments, message):
    names = {"erren": runs["erren"].directory, "flush32": runs["flush32"].directory, "root": tmp_path}
    code, out, err = mjsim("compare", *[argument.format(**names) for argument in arguments])
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1 and message in err

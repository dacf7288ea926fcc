"""`mjsim economics` as a user meets it (docs/economics.md): the purse stated and chosen, each scenario in a
file of its own, plain numbers with their intervals and a legend, JSON and CSV, charts in every mode, and a
solved fee that `--fee` checks on the same simulated players."""

import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from sim.core.result_files import read_metadata, write_table
from sim.runs.runner import RunConfig, run

SMALL = ("--horizon", "200", "--players", "100")


@pytest.fixture(scope="module")
def greedy_run(tmp_path_factory):
    directory = tmp_path_factory.mktemp("economics") / "run"
    run(RunConfig("erren", ("greedy", "greedy"), deals=1000, seed=3, shard_size=1000), directory, workers=1)
    return directory


def fresh_copy(directory: Path, tmp_path: Path) -> Path:
    """The run without the scenarios other tests wrote into it."""
    return Path(shutil.copytree(directory, tmp_path / "run", ignore=shutil.ignore_patterns("economics")))


def scenario_files(directory: Path) -> list[str]:
    return sorted(path.name for path in (directory / "economics").glob("*.parquet"))


def test_without_bankroll_every_room_is_priced_for_the_documented_purses_and_says_so(mjsim, greedy_run):
    code, out, _ = mjsim("economics", str(greedy_run), "--rooms", "app", "--fee", "100", *SMALL)
    assert code == 0
    assert "each simulated player enters with 100, 300, 1,000 or 3,000 stakes" in out
    table = pd.read_parquet(greedy_run / "economics" / "app-fee100-horizon200-players100.parquet")
    assert table["room"].drop_duplicates().tolist() == ["新手场", "普通场", "初级场", "中级场", "高级场"]
    assert table["purse_stakes"].tolist() == [100, 300, 1000, 3000] * 5
    assert (table["start_beans"] == table["purse_stakes"] * table["stake"]).all() and (table["fee"] == 100).all()
    assert (table["house_take_per_bankroll"] == 100 * table["mean_deals_played"]).all()


def test_bankroll_picks_the_purses(mjsim, greedy_run):
    code, out, _ = mjsim("economics", str(greedy_run), "--bankroll", "50", "--bankroll", "700", *SMALL, "--json")
    rows = json.loads(out)["tables"]["rooms"]
    assert code == 0 and sorted({row["purse_stakes"] for row in rows}) == [50, 700]
    assert json.loads(out)["scenario"] == "rooms-purse50,700-horizon200-players100"


def test_each_scenario_has_its_own_file_and_writing_one_again_replaces_only_itself(mjsim, tmp_path, greedy_run):
    directory = fresh_copy(greedy_run, tmp_path)
    assert mjsim("economics", str(directory), "--stake", "10", "--fee", "0", "--fee", "5", *SMALL)[0] == 0
    assert mjsim("economics", str(directory), "--rooms", "app", "--bankroll", "1000", "--solve", "fee", "--target",
                 "house_share<=0.05", *SMALL, "--replicates", "3")[0] == 0
    assert mjsim("economics", str(directory), "--stake", "10", "--fee", "0", *SMALL, "--name", "mine")[0] == 0
    assert scenario_files(directory) == ["app-solve-house_share-le-0.05-purse1000-horizon200-players100-replicates3.parquet",
                                         "grid-stake10-fee0,5-horizon200-players100.parquet", "mine.parquet"]
    grid = directory / "economics" / "grid-stake10-fee0,5-horizon200-players100.parquet"
    before = {name: (directory / "economics" / name).read_bytes() for name in scenario_files(directory)}
    code, out, _ = mjsim("economics", str(directory), "--stake", "10", "--fee", "0", "--fee", "5", *SMALL, "--seed", "4")
    assert code == 0 and "grid-stake10-fee0,5-horizon200-players100-seed4" in out  # another seed, another scenario
    assert all((directory / "economics" / name).read_bytes() == content for name, content in before.items())
    assert read_metadata(grid)["config"]["economics_scenario"] == grid.stem
    assert read_metadata(grid)["config"]["purses_stakes"] == [100, 300, 1000, 3000]
    assert not (directory / "economics.parquet").exists() and not (directory / "fee_solution.parquet").exists()


def test_printed_tables_are_plain_numbers_with_intervals_and_a_legend(mjsim, greedy_run):
    code, out, _ = mjsim("economics", str(greedy_run), *SMALL)
    assert code == 0 and not re.search(r"\d[eE][+-]?\d", out)  # never 1.074e+04
    assert "625,000" in out  # 宗师场 at 100 stakes: thousands separated
    drift = re.search(r"宗师场.*?([+-][\d,]+) \[([+-][\d,]+), ([+-][\d,]+)\]", out)  # seat 0's drift and interval
    value, low, high = (int(text.replace(",", "")) for text in drift.groups())
    assert low < value < high and value % 10 == 0  # rounded to the interval's precision, not printed to the bean
    for term in ("house share:", "drift:", "volatility:", "ruined:", "median deals to ruin:", "mean deals played:",
                 "house take per bankroll:", "purse:", "beans moved:"):
        assert term in out


def test_json_and_csv_carry_the_tables(mjsim, tmp_path, greedy_run):
    csv = tmp_path / "rooms.csv"
    code, out, _ = mjsim("economics", str(greedy_run), "--bankroll", "300", *SMALL, "--json", "--csv", str(csv))
    data = json.loads(out)
    assert code == 0 and data["settings"]["purses_stakes"] == [300]
    table = pd.read_csv(csv, comment="#")
    assert table["room"].tolist() == [row["room"] for row in data["tables"]["rooms"]]
    assert table["ruin_probability"].tolist() == pytest.approx([row["ruin_probability"] for row in data["tables"]["rooms"]])
    assert json.loads(csv.read_text().splitlines()[0].removeprefix("# mjsim.config: "))["resampling_seed"] == 0


def test_csv_replaces_its_own_table_and_refuses_any_other_file(mjsim, tmp_path, greedy_run):
    """--csv writes over a table an earlier --csv wrote, and over nothing else: a user's file is left as it was."""
    csv = tmp_path / "rooms.csv"
    for _ in range(2):
        code, _, err = mjsim("economics", str(greedy_run), "--bankroll", "300", *SMALL, "--csv", str(csv))
        assert code == 0, err
    precious = tmp_path / "precious.csv"
    precious.write_text("room,beans\n新手场,1\n", encoding="utf-8")
    code, out, err = mjsim("economics", str(greedy_run), "--bankroll", "300", *SMALL, "--csv", str(precious))
    assert code == 2 and "is not a table written by mjsim economics --csv" in err and out == ""
    assert precious.read_text(encoding="utf-8") == "room,beans\n新手场,1\n"


def test_the_solved_fee_checks_out_at_the_printed_seed_and_one_bean_more_does_not(mjsim, greedy_run):
    """What a user does to check a solved fee: the same purse and seed, --fee F, in the one room."""
    code, out, _ = mjsim("economics", str(greedy_run), "--rooms", "app", "--bankroll", "1000", "--solve", "fee", "--target",
                         "median_deals_to_ruin>=100", *SMALL, "--replicates", "5", "--seed", "6", "--json")
    solution = json.loads(out)["tables"]["fee_solution"]
    assert code == 0 and len(solution) == 5
    for row in solution:
        assert row["fee_low"] <= row["fee"] <= row["fee_high"] or not row["fee_in_interval"]
    for row in solution[:3]:
        fee = int(row["fee"])
        medians = []
        for tried in (fee, fee + 1):
            code, out, _ = mjsim("economics", str(greedy_run), "--rooms", "app", "--fee", str(tried), "--bankroll", "1000",
                                 "--seed", "6", *SMALL, "--json")
            at = next(line for line in json.loads(out)["tables"]["rooms"] if line["room"] == row["room"])
            medians.append(at["median_deals_to_ruin"])
        assert medians[0] >= 100 > medians[1], row["room"]
        assert medians[0] == row["median_deals_to_ruin"]


def test_plot_works_when_solving_and_draws_the_metrics_against_the_fee(mjsim, tmp_path, greedy_run):
    pytest.importorskip("matplotlib")
    directory = fresh_copy(greedy_run, tmp_path)
    code, out, _ = mjsim("economics", str(directory), "--solve", "fee", "--target", "median_deals_to_ruin>=20",
                         "--bankroll", "100", "--bankroll", "300", *SMALL, "--replicates", "2", "--plot")
    assert code == 0
    pictures = sorted(path.name for path in (directory / "economics").glob("*.png"))
    stem = "rooms-solve-median_deals_to_ruin-ge-20-purse100,300-horizon200-players100-replicates2"
    assert pictures == [f"{stem}.beans.png", f"{stem}.fee-curves-purse100.png", f"{stem}.fee-curves-purse300.png"]
    for name in pictures:
        assert (directory / "economics" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and name in out


def test_plot_of_rooms_draws_the_bean_distribution_and_a_fee_sweep_per_purse(mjsim, tmp_path, greedy_run):
    pytest.importorskip("matplotlib")
    directory = fresh_copy(greedy_run, tmp_path)
    code, out, _ = mjsim("economics", str(directory), "--bankroll", "100", *SMALL, "--plot")
    stem = "rooms-purse100-horizon200-players100"
    assert code == 0 and sorted(path.name for path in (directory / "economics").glob("*.png")) == [
        f"{stem}.beans.png", f"{stem}.fee-curves-purse100.png"]


def test_plot_without_matplotlib_is_one_error_line(mjsim, greedy_run, monkeypatch):
    import analysis.plots

    def missing():
        raise RuntimeError("--plot needs matplotlib: pip install 'mjsim[plot]'")

    monkeypatch.setattr(analysis.plots, "_pyplot", missing)
    code, _, err = mjsim("economics", str(greedy_run), *SMALL, "--plot")
    assert code == 2 and err == "error: --plot needs matplotlib: pip install 'mjsim[plot]'\n"


def test_the_fee_curves_sweep_the_fee_on_the_players_of_fee_mode(greedy_run):
    """The charts' data: every metric at many fees (not one point per room), monotone in the fee, and at a
    fee of the sweep the same median as --fee gives."""
    from analysis.economics import room_economics
    from sim.commands.economics import Study, economics_of_run, fee_curves

    study = Study(None, None, None, (300,), 200, 100, 50, 2)
    run_study = economics_of_run(greedy_run, study)
    curves = fee_curves(run_study, study, {})
    room = run_study.rooms[1]
    line = curves[curves["room"] == room.name]
    assert len(line) > 10 and line["fee"].is_monotonic_increasing
    assert line["ruin_probability"].is_monotonic_increasing and line["median_deals_to_ruin"].is_monotonic_decreasing
    assert line["house_share"].is_monotonic_increasing
    fee = line["fee"].iloc[len(line) // 2]
    checked = room_economics(run_study.records, [room.__class__(room.name, room.stake, int(fee), 0, 0)], (300,), 200, 100,
                             50, 2, money=run_study.money).iloc[0]
    assert checked["median_deals_to_ruin"] == line["median_deals_to_ruin"].iloc[len(line) // 2]


def test_a_run_of_two_players_gets_each_players_economics(mjsim, tmp_path):
    directory = tmp_path / "run"
    run(RunConfig("erren", ("random", "greedy"), deals=300, seed=3, shard_size=300), directory, workers=1)
    code, out, _ = mjsim("economics", str(directory), "--horizon", "100", "--players", "50", "--bankroll", "100")
    table = pd.read_parquet(directory / "economics" / "rooms-purse100-horizon100-players50.by-player.parquet")
    assert code == 0 and "per player" in out and len(table) == 2 * 6
    greedy = table[table["player"].str.startswith("greedy")]
    random = table[table["player"].str.startswith("random")]
    assert (greedy["drift"].to_numpy() > random["drift"].to_numpy()).all()
    assert (table["drift_low"] <= table["drift"]).all() and (table["drift"] <= table["drift_high"]).all()


def test_the_report_has_a_subsection_per_scenario_and_still_reads_an_older_economics_parquet(mjsim, tmp_path, greedy_run):
    from analysis.report import write_report

    directory = fresh_copy(greedy_run, tmp_path)
    assert mjsim("economics", str(directory), "--stake", "10", "--fee", "0", "--fee", "20", *SMALL, "--bankroll", "100")[0] == 0
    assert mjsim("economics", str(directory), "--solve", "fee", "--target", "house_share<=0.1", *SMALL,
                 "--bankroll", "1000", "--replicates", "2")[0] == 0
    older = pd.DataFrame([{"room": "old room", "stake": 10, "fee": 20, "start_beans": 1000, "house_share_of_moved": 0.17,
                           "winning_but_losing_share": 0.0, "drift_seat_0": -19.0, "drift_seat_1": -21.0, "volatility": 225.0,
                           "ruin_probability": 1.0, "ruin_low": 0.99, "ruin_high": 1.0, "median_deals_to_ruin": 28.0,
                           "mean_deals_played": 57.0, "house_take_per_bankroll": 1140.0, "horizon": 2000}])
    write_table(older, directory / "economics.parquet", {"horizon": 2000, "players_simulated": 2000, "block": 50,
                                                          "resampling_seed": 0})
    page = write_report(directory).read_text(encoding="utf-8")
    assert "Scenario grid-stake10-fee0,20-purse100-horizon200-players100" in page
    assert "Scenario rooms-solve-house_share-le-0.1-purse1000-horizon200-players100-replicates2" in page
    assert "Scenario economics.parquet (an older mjsim&#x27;s)" in page or "Scenario economics.parquet (an older mjsim's)" in page
    assert page.count("Each simulated player enters with 100 stakes") == 2  # the grid's and the older table's purse
    assert "Each simulated player enters with 1,000 stakes" in page and "old room" in page


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--fee", "1", "--fee", "2"], "give one --fee"),
        (["--solve", "fee"], "--solve fee and --target together"),
        (["--solve", "fee", "--target", "deals>=3"], "unknown metric"),
        (["--solve", "fee", "--target", "house_share<=0.2", "--stake", "1", "--fee", "1"], "not a grid"),
        (["--stake", "10"], "--stake and --fee together"),
        (["--horizon", "0"], "must be positive"),
        (["--stake", "0", "--fee", "1"], "--stake must be from 1 to"),
        (["--bankroll", "0"], "--bankroll must be from 1 to"),
        (["--bankroll", "5", "--bankroll", "5"], "give each --bankroll once"),
        (["--name", "../elsewhere"], "--name"),
    ],
)
def test_economics_bad_input_is_one_error_line(mjsim, greedy_run, arguments, message):
    code, _, err = mjsim("economics", str(greedy_run), *arguments)
    assert code == 2 and err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1


def test_the_docs_define_every_term_the_legend_prints():
    from sim.commands.economics_text import LEGEND

    page = (Path(__file__).parents[2] / "docs" / "economics.md").read_text(encoding="utf-8")
    definitions = page[page.index("## Definitions"):page.index("## The purse")]
    for term in LEGEND:
        assert f"**{term}**" in definitions, term


def test_the_rules_book_and_the_economics_page_agree_that_the_app_rooms_are_shipped():
    root = Path(__file__).parents[2]
    assert (root / "sim" / "erren" / "app_rooms.toml").is_file()
    for page in ("docs/rules/README.md", "docs/economics.md"):
        text = " ".join((root / page).read_text(encoding="utf-8").split())
        assert "sim/erren/app_rooms.toml" in text and "not shipped" not in text, page

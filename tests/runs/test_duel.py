"""Duels and leagues on duplicate deals: the same walls played twice with the seats swapped."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.leagues import league_matrix
from sim.core.control_variates import cross_fitted
from sim.core.draw_luck import FEATURES
from sim.core.result_files import read_metadata
from sim.core.rooms import Room
from sim.core.ruleset import load_ruleset
from sim.erren import engine
from sim.runs.duel import duel, league, seating

FANS = Room("fans", stake=1, fee=0, min_entry=0, max_entry=0)


def test_swapping_the_seats_keeps_the_walls_and_the_dealer():
    rules = load_ruleset("erren")
    straight = engine.play(rules, engine.Players.parse("greedy,random"), seed=4, n_deals=500).columns
    swapped = engine.play(rules, engine.Players.parse("random,greedy"), seed=4, n_deals=500).columns
    for column in ("dealer", "initial_shanten_0", "initial_shanten_1"):
        assert np.array_equal(straight[column], swapped[column])


def test_a_player_against_itself_differs_by_exactly_nothing():
    result = duel(load_ruleset("erren"), "value", "value", 1000, 2, FANS)
    assert result.difference == 0 and result.z == 0 and not result.significant
    assert result.mean_beans[0] == result.mean_beans[1] == 0


def test_greedy_beats_random_significantly():
    result = duel(load_ruleset("erren-classic"), "greedy", "random", 2000, 2, FANS)
    assert result.significant and result.difference > 10
    assert result.mean_beans[0] > 0 > result.mean_beans[1]
    low, high = result.mean_beans_interval[0]
    assert low < result.mean_beans[0] < high
    assert result.win_rate[0] > 0.9 and result.table()["deals"].tolist() == [4000, 4000]


def test_a_fee_costs_both_players_the_same():
    rules = load_ruleset("erren")
    free = duel(rules, "greedy", "defensive", 1000, 3, FANS)
    taxed = duel(rules, "greedy", "defensive", 1000, 3, Room("taxed", stake=1, fee=5, min_entry=0, max_entry=0))
    assert taxed.mean_beans == pytest.approx(free.mean_beans - 5)
    assert taxed.difference == pytest.approx(free.difference)


def test_league_matrix_is_antisymmetric_and_written_with_its_configuration(mjsim, tmp_path):
    out = tmp_path / "league.parquet"
    code, printed, _ = mjsim("league", "random", "greedy", "defensive", "--deals", "500", "--out", str(out))
    assert code == 0 and "greedy beats random" in printed
    table = pd.read_parquet(out)
    matrix = league_matrix(table)
    assert np.allclose(matrix.to_numpy(), -matrix.to_numpy().T)
    assert list(matrix.index) == ["random", "greedy", "defensive"]
    assert read_metadata(out)["config"]["players"] == ["random", "greedy", "defensive"]


def test_duel_command_reports_both_players_and_the_verdict(mjsim):
    code, printed, _ = mjsim("duel", "greedy", "random", "--deals", "500", "--room", "初级场")
    assert code == 0
    assert "初级场 (stake 10, fee 20)" in printed and "significant at 5%" in printed
    assert printed.count("mean beans per deal") == 2


def _printed_verdict(values) -> str:
    error = values.std(ddof=1) / np.sqrt(len(values))
    low, high = values.mean() - 1.959964 * error, values.mean() + 1.959964 * error
    return (f"difference (first - second): {values.mean():+.3f} beans per deal [{low:+.3f}, {high:+.3f}], "
            f"z = {values.mean() / error:.2f}")


def test_duel_out_holds_every_wall_and_recomputes_the_printed_verdict(mjsim, tmp_path):
    """From the file alone: the adjusted difference from the plain one and the luck, the mean, its 95% interval
    and z as printed, and each player's wins."""
    out = tmp_path / "duel.parquet"
    code, printed, _ = mjsim("duel", "greedy", "random", "--deals", "300", "--room", "初级场", "--out", str(out))
    walls = pd.read_parquet(out)
    assert code == 0 and f"wrote {out}" in printed and walls["wall"].tolist() == list(range(300))
    per_seat = (walls["first_money_seating_0"] + walls["first_money_seating_1"]) / 2
    assert walls["first_per_seat"].to_numpy() == pytest.approx(per_seat.to_numpy())
    difference = walls["first_per_seat"] - walls["second_per_seat"]
    assert walls["difference"].to_numpy() == pytest.approx(difference.to_numpy())
    luck = walls[[f"luck_{feature}" for feature in FEATURES]].to_numpy()
    adjusted = cross_fitted(difference.to_numpy(), luck, 2)
    assert walls["adjusted_difference"].to_numpy() == pytest.approx(adjusted)
    assert _printed_verdict(walls["adjusted_difference"]) in printed
    plain_error = difference.std(ddof=1) / np.sqrt(len(difference))
    assert f"standard error {plain_error:.3f} -> " in printed and f"without: {difference.mean():+.3f}" in printed
    wins = (walls["first_wins_seating_0"].sum() + walls["first_wins_seating_1"].sum()) / 600
    assert f"wins {wins:.2%}" in printed
    config = read_metadata(out)["config"]
    assert (config["command"], config["seed"], config["room"], config["seats"]) == ("duel", 1, "初级场", 2)
    assert config["variance_reduction"] is True


def test_no_variance_reduction_gives_the_plain_verdict_and_no_luck_columns(mjsim, tmp_path):
    out = tmp_path / "duel.parquet"
    code, printed, _ = mjsim("duel", "greedy", "random", "--deals", "300", "--room", "初级场", "--out", str(out),
                             "--no-variance-reduction")
    walls = pd.read_parquet(out)
    assert code == 0 and _printed_verdict(walls["difference"]) in printed and "luck of the draws" not in printed
    assert not [column for column in walls.columns if column.startswith("luck_") or column == "adjusted_difference"]
    assert read_metadata(out)["config"]["variance_reduction"] is False


def test_duel_out_replaces_a_duel_table_but_never_another_file(mjsim, tmp_path):
    out = tmp_path / "duel.parquet"
    assert mjsim("duel", "greedy", "random", "--deals", "50", "--out", str(out))[0] == 0
    assert mjsim("duel", "greedy", "value", "--deals", "60", "--out", str(out))[0] == 0
    assert len(pd.read_parquet(out)) == 60
    league_table = tmp_path / "league.parquet"
    assert mjsim("league", "greedy", "random", "--deals", "50", "--out", str(league_table))[0] == 0
    before = league_table.read_bytes()
    code, _, err = mjsim("duel", "greedy", "random", "--deals", "50", "--out", str(league_table))
    assert code == 2 and "is not a duel table" in err and league_table.read_bytes() == before


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["duel", "greedy", "oracle"], "unknown heuristic 'oracle'"),
        (["duel", "greedy", "random", "--room", "casino"], "unknown room 'casino'"),
        (["duel", "greedy", "random", "--deals", "1"], "--deals must be from 2 to"),
        (["league", "greedy"], "two or more different players"),
        (["league", "greedy", "greedy:speed=1"], "unknown parameter"),
    ],
)
def test_bad_duel_input_is_one_error_line(mjsim, arguments, message):
    code, _, err = mjsim(*arguments)
    assert code == 2 and err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1


def test_league_lists_every_pair_both_ways():
    table = league(load_ruleset("erren"), ["random", "greedy", "value"], 200, 1, FANS)
    assert len(table) == 6
    assert set(zip(table["player"], table["opponent"], strict=True)) == {
        (a, b) for a in ("random", "greedy", "value") for b in ("random", "greedy", "value") if a != b
    }


def test_headline_writes_the_results_readme_from_its_runs(mjsim, tmp_path):
    code, out, _ = mjsim("headline", "--deals", "1000", "--league-walls", "50", "--ev-walls", "0", "--results", str(tmp_path))
    text = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert code == 0 and str(tmp_path / "README.md") in out
    for heading in ("Fan frequencies: `erren`", "Fan frequencies: `erren-classic`", "Fan frequencies: `erren-challenge`",
                    "富贵豆 per deal", "League of the four"):
        assert heading in text
    assert "points on average" in text  # erren-challenge's wins are priced in points
    assert "| greedy |" in text and "mjsim headline" in text
    assert (tmp_path / "headline-erren" / "fan_frequency.parquet").is_file()
    # MCR's section: its fans, the distribution of winning fan totals, and the comparison with human play
    assert "## `mcr`, 4 x greedy, 1,000 deals" in text and "Beside human play" in text and "Wins by fan total" in text


def test_the_fan_total_distribution_puts_every_win_in_one_range_from_the_minimum_up():
    from sim.commands.headline import fan_total_distribution

    totals = np.array([8, 8, 9, 10, 11, 12, 15, 16, 23, 24, 31, 32, 47, 48, 63, 64, 87, 88, 200])
    table = fan_total_distribution(totals)
    assert list(table["fan_total"]) == ["8", "9", "10-11", "12-15", "16-23", "24-31", "32-47", "48-63", "64-87", "88 and more"]
    assert list(table["wins"]) == [2, 1, 2, 2, 2, 2, 2, 2, 2, 2]
    assert np.allclose(table["at_most"], np.cumsum(table["wins"]) / len(totals))
    assert ((table["share_low"] <= table["share"]) & (table["share"] <= table["share_high"])).all()


def test_a_duel_played_in_chunks_is_the_duel_played_at_once(monkeypatch):
    from sim.core.rooms import load_rooms
    from sim.core.ruleset import load_ruleset
    from sim.families import family_of
    from sim.runs import duel as duels

    ruleset = load_ruleset("erren")
    room = load_rooms(None, family_of(ruleset).rooms_file)[1]
    whole = duels.duel(ruleset, "greedy", "value", 60, 4, room)
    monkeypatch.setattr(duels, "CHUNK", 7)  # 60 walls in nine calls, the last one short
    chunked = duels.duel(ruleset, "greedy", "value", 60, 4, room)
    assert chunked.table().equals(whole.table())
    assert np.array_equal(chunked.luck, whole.luck) and np.array_equal(chunked.adjusted, whole.adjusted)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_lineup_one_seats_the_first_player_alone_in_every_seat_in_turn(seats):
    seatings = [seating(seats, rotation, "one") for rotation in range(seats)]
    for rotation, sitting in enumerate(seatings):
        assert sitting.count(0) == 1 and sitting[rotation] == 0


def test_a_player_alone_against_itself_differs_by_exactly_nothing():
    result = duel(load_ruleset("liangmen-xuezhan"), "value", "value", 300, 2, FANS, lineup="one")
    assert result.difference == 0 and result.z == 0
    assert list(result.seat_deals) == [4 * 300, 12 * 300]  # one seat per rotation against three


def test_a_ruleset_whose_assists_choose_the_tiles_takes_no_variance_reduction(mjsim, tmp_path):
    """搓牌 picks the player's draws, so they are not uniform over the wall: the luck of the draws would not
    have mean zero, and the duel refuses it before any deal, but plays the plain duel."""
    source = (Path(__file__).resolve().parents[2] / "sim" / "rulesets" / "erren-challenge.toml").read_text(encoding="utf-8")
    assisted = tmp_path / "assisted.toml"
    source = source.replace('id = "erren-challenge"', 'id = "erren-challenge-assisted"', 1)
    source = source.replace('name = "二人麻将闯关"', 'name = "二人麻将闯关, assisted"', 1)
    assisted.write_text(source.replace("pick_chance = 0.0 ", "pick_chance = 0.5 ", 1), encoding="utf-8")
    code, _, err = mjsim("duel", "greedy", "value", "--deals", "20", "--ruleset", str(assisted))
    assert code == 2 and err.startswith("error: ") and "--no-variance-reduction" in err and len(err.strip().splitlines()) == 1
    code, printed, _ = mjsim("duel", "greedy", "value", "--deals", "20", "--ruleset", str(assisted), "--no-variance-reduction")
    assert code == 0 and "significant" in printed

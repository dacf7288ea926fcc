"""Rating lists on the command line: `mjsim league --ratings` and `mjsim rate` over saved duels and leagues,
as text, JSON and Parquet, and the files `mjsim rate` refuses."""

import json

import numpy as np
import pandas as pd
import pytest

from analysis.rating_inputs import league_pairings
from analysis.ratings import Pairing, rate
from sim.commands import headline
from sim.core.control_variates import cross_fitted
from sim.core.result_files import read_metadata, write_table
from sim.core.rooms import Room
from sim.core.ruleset import load_ruleset
from sim.runs import duel as duels
from sim.runs.duel import Walls, league, league_table

FANS = Room("fans", stake=1, fee=0, min_entry=0, max_entry=0)
GREEDY = "greedy:claim=1,ready=1,double_below=0,double_wall=10"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A league of three heuristics and a duel on the same seed, saved as `mjsim league --out` and `mjsim duel
    --out` would (the commands in-process, once for the module)."""
    from sim import cli

    folder = tmp_path_factory.mktemp("rated")
    for arguments in (["league", "random", "greedy", "defensive", "--deals", "120", "--out", str(folder / "league.parquet")],
                      ["duel", "value", "defensive", "--deals", "200", "--out", str(folder / "duel.parquet")]):
        try:
            cli.app(arguments, standalone_mode=False)
        except SystemExit as exit:
            assert not exit.code
    return folder


def _ratings(out: str) -> dict:
    """player -> (rating, low, high, walls) from the printed list."""
    rows = {}
    for line in out.splitlines():
        parts = line.replace("[", " ").replace("]", " ").replace(",", " ").split()
        if len(parts) >= 5 and parts[1][:1] in "+-" and parts[0] != "difference":
            rows[parts[0]] = (float(parts[1]), float(parts[2]), float(parts[3]), int("".join(parts[4:])))
    return rows


def test_league_ratings_follow_the_matrix_and_anchor_on_greedy(mjsim, saved):
    code, out, err = mjsim("league", "random", "greedy", "defensive", "--deals", "120", "--ratings")
    assert (code, err) == (0, "")
    assert "ratings in beans per deal (体验场), greedy = 0: least squares over 3 pairings" in out
    rows = _ratings(out.split("ratings in")[1])
    assert list(rows) == ["greedy", "defensive", "random"]  # best first
    assert rows["greedy"] == (0.0, 0.0, 0.0, 240)
    table = pd.read_parquet(saved / "league.parquet")
    matrix = table.set_index(["player", "opponent"])["beans_difference"]
    # a round robin on equal walls: a rating is its row's mean less the anchor's row's mean, over all players
    players = ["random", "greedy", "defensive"]
    row_mean = {player: sum(matrix.get((player, other), 0.0) for other in players) / len(players) for player in players}
    for player in ("random", "defensive"):
        assert rows[player][0] == pytest.approx(row_mean[player] - row_mean["greedy"], abs=5e-4)
        assert rows[player][1] < rows[player][0] < rows[player][2]


def test_league_anchor_must_be_a_player_and_goes_with_ratings(mjsim):
    code, out, err = mjsim("league", "random", "greedy", "--deals", "20", "--ratings", "--anchor", "value")
    assert code == 2 and out == "" and err == "error: --anchor value is not one of the rated players: random, greedy\n"
    code, _, err = mjsim("league", "random", "greedy", "--deals", "20", "--anchor", "greedy")
    assert code == 2 and err == "error: --anchor goes with --ratings\n"


def test_the_league_file_keeps_each_pairs_walls_both_ways(saved):
    table = pd.read_parquet(saved / "league.parquet")
    assert {"difference_by_wall", "mean_beans", "mean_beans_low", "mean_beans_high"} <= set(table.columns)
    for row in table.itertuples():  # the verdict is on the luck-adjusted differences, as a duel's is
        walls, adjusted = np.asarray(row.difference_by_wall), np.asarray(row.adjusted_difference_by_wall)
        assert len(walls) == len(adjusted) == 120 and adjusted.mean() == pytest.approx(row.beans_difference, abs=1e-12)
        other = table[(table["player"] == row.opponent) & (table["opponent"] == row.player)].iloc[0]
        assert np.array_equal(-walls, np.asarray(other["difference_by_wall"]))
        assert np.array_equal(-adjusted, np.asarray(other["adjusted_difference_by_wall"]))
    config = read_metadata(saved / "league.parquet")["config"]
    assert config["seats"] == 2 and config["player_names"][1] == GREEDY


def test_rate_joins_duels_and_leagues_and_rates_on_the_walls_of_each(mjsim, saved):
    code, out, err = mjsim("rate", str(saved / "league.parquet"), str(saved / "duel.parquet"), "--anchor", "defensive")
    assert (code, err) == (0, ""), err
    rows = _ratings(out)
    assert set(rows) == {"random", "greedy", "defensive", "value"} and rows["defensive"][:3] == (0.0, 0.0, 0.0)
    assert rows["value"][3] == 200 and rows["defensive"][3] == 2 * 120 + 200
    # value met only defensive: its rating is the duel's mean difference
    duel = pd.read_parquet(saved / "duel.parquet")
    assert rows["value"][0] == pytest.approx(duel["adjusted_difference"].mean(), abs=5e-4)


def test_rate_prints_json_and_writes_parquet_with_its_configuration(mjsim, saved, tmp_path):
    out_path = tmp_path / "ratings.parquet"
    code, out, err = mjsim("rate", str(saved / "league.parquet"), "--json", "--out", str(out_path), "--resamples", "200", "--seed", "3")
    assert (code, err) == (0, "")
    listed = json.loads(out)
    assert listed["anchor"] == GREEDY and listed["resamples"] == 200 and listed["seed"] == 3
    assert [row["label"] for row in listed["ratings"]] == ["greedy", "defensive", "random"]
    assert len(listed["pairings"]) == 3
    written = pd.read_parquet(out_path)
    assert written["rating"].tolist() == [row["rating"] for row in listed["ratings"]]
    metadata = read_metadata(out_path)
    assert metadata["config"]["command"] == "rate" and metadata["config"]["seed"] == 3 and "numpy" in metadata["versions"]
    code, again, _ = mjsim("rate", str(saved / "league.parquet"), "--json", "--out", str(out_path), "--resamples", "200", "--seed", "3")
    assert code == 0 and again == out  # a pure function of the files and the seed; its own table is replaced


def test_rate_refuses_files_it_cannot_rate_in_one_line(mjsim, saved, tmp_path):
    league_path, duel_path = saved / "league.parquet", saved / "duel.parquet"
    table, metadata = pd.read_parquet(league_path), read_metadata(league_path)

    def variant(name, frame, **changes):
        path = tmp_path / name
        write_table(frame, path, {**metadata["config"], **changes})
        return str(path)

    classic = variant("classic.parquet", table, ruleset="erren-classic", ruleset_source=load_ruleset("erren-classic").source)
    room = variant("room.parquet", table, room="新手场", stake=100)
    old = variant("old.parquet", table.drop(columns=["difference_by_wall"]))
    renamed = {"random": "value", "greedy": "ev", "defensive": "ev:depth=2"}
    apart = variant("apart.parquet", table.assign(player=table["player"].map(renamed), opponent=table["opponent"].map(renamed)),
                    players=["value", "ev", "ev:depth=2"], player_names=["value", "ev", "ev:depth=2"])
    duel_metadata = read_metadata(duel_path)
    words = tmp_path / "words.parquet"
    write_table(pd.read_parquet(duel_path).assign(wall="a wall"), words, duel_metadata["config"])
    run_table = tmp_path / "run.parquet"
    write_table(pd.DataFrame({"x": [1]}), run_table, {"command": "economics"})
    before = duel_path.read_bytes()
    cases = [
        ([str(run_table)], "was written by mjsim economics, not by mjsim duel --out or mjsim league --out"),
        ([str(league_path), classic], "a rating list compares players at one table"),
        ([str(league_path), room], "a rating list compares players at one table"),
        ([old], "holds no per-wall differences"),
        ([str(league_path), apart], "played no pairing linked to the anchor"),
        ([str(league_path), "--out", str(duel_path)], "is not a rating table written by mjsim rate --out"),
        ([str(tmp_path / "missing.parquet")], "is missing"),
        ([str(words)], "its walls are missing, repeated or not numbers"),
    ]
    for arguments, message in cases:
        code, out, err = mjsim("rate", *arguments)
        assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1 and message in err, err
    assert duel_path.read_bytes() == before


def test_a_league_with_measured_luck_stores_and_rates_the_adjusted_differences(monkeypatch):
    # a fake luck array, one feature that explains most of each wall
    generator = np.random.default_rng(4)
    played = {}

    def walls_with_luck(ruleset, first, second, seed, start, count, room, seats=None, lineup="alternate", luck=False):
        luck = generator.normal(0, 5, (count, 1))
        money = np.zeros((2, 2, count))
        money[0, 0] = luck[:, 0] + generator.normal(0.3, 1, count) + (first == "greedy")
        played[(first, second)] = Walls(start, money, np.zeros((2, 2, count), dtype=np.int8), np.ones(2), luck)
        return played[(first, second)]

    monkeypatch.setattr(duels, "play_walls", walls_with_luck)
    table = league(load_ruleset("erren"), ["random", "greedy", "value"], 400, 1, FANS)
    assert "adjusted_difference_by_wall" in table.columns
    for (first, second), walls in played.items():
        row = table[(table["player"] == first) & (table["opponent"] == second)].iloc[0]
        expected = cross_fitted(walls.difference(), walls.luck)
        assert np.array_equal(np.asarray(row["adjusted_difference_by_wall"]), expected)
        assert np.array_equal(np.asarray(row["difference_by_wall"]), walls.difference())
        assert np.std(expected) < np.std(walls.difference()) / 3
    config = {"players": ["random", "greedy", "value"], "player_names": ["random", "greedy", "value"], "seed": 1}
    pairings, adjusted = league_pairings(table, config, "the league")
    assert adjusted == 3
    assert np.array_equal(pairings[0].differences, np.asarray(table.iloc[0]["adjusted_difference_by_wall"]))
    plain = league_table(((first, second, Walls(walls.start, walls.money, walls.wins, walls.slots))
                          for (first, second), walls in played.items()))
    assert "adjusted_difference_by_wall" not in plain.columns
    assert league_pairings(plain, config, "the league")[1] == 0


def test_a_player_entered_twice_rates_equal(mjsim, tmp_path):
    # greedy and greedy with its defaults spelt out are one player: one rating list entry, measured 0 apart
    code, out, err = mjsim("league", "greedy", GREEDY, "random", "--deals", "60", "--ratings", "--out", str(tmp_path / "l.parquet"))
    assert (code, err) == (0, "")
    rows = _ratings(out.split("ratings in")[1])
    assert list(rows) == ["greedy", "random"]
    table = pd.read_parquet(tmp_path / "l.parquet")
    same = table[(table["player"] == "greedy") & (table["opponent"] == GREEDY)].iloc[0]
    assert not np.asarray(same["difference_by_wall"]).any()
    pairing = Pairing("a", "b", np.asarray(same["difference_by_wall"]), np.arange(60), 1)
    assert rate([pairing], anchor="a", resamples=10).rating.tolist() == [0.0, 0.0]


def test_the_headline_rating_lists_rate_every_player_of_every_table_against_greedy():
    leagues = {("erren", 2, "alternate"): league(load_ruleset("erren"), ["random", "greedy", "value"], 40, 1, FANS),
               ("sanren-liangfang", 3, "one"): league(load_ruleset("sanren-liangfang"), ["random", "greedy", "defensive"],
                                                      20, 1, FANS, 3, "one")}
    section = headline.ratings_section(leagues, 40, 1)
    assert section.startswith("## Rating lists of the shipped players at every table, 40 walls per pair (seed 1)")
    assert "### `erren` at 2 seats\n" in section and "### `sanren-liangfang` at 3 seats (one player alone)\n" in section
    for part, players in zip(section.split("### ")[1:], (["random", "greedy", "value"], ["random", "greedy", "defensive"])):
        rows = [line.split(" | ") for line in part.splitlines() if line.startswith("| ") and "---" not in line][1:]
        assert sorted(row[0].strip("| ") for row in rows) == sorted(players)
        assert [row for row in rows if row[0] == "| greedy"][0][1:4] == ["+0.000", "+0.000", "+0.000"]
        ratings = [float(row[1]) for row in rows]
        assert ratings == sorted(ratings, reverse=True)


def test_the_headline_round_robins_play_every_pair_of_every_table_on_worker_processes():
    tables = (("erren", 2, "alternate"),)
    extra = [("erren", "greedy", "random", 30, 2, 2, "alternate")]
    leagues, duels_played = headline.round_robins(30, 2, tables, ("random", "greedy", "value"), extra)
    expected = league(load_ruleset("erren"), ["random", "greedy", "value"], 30, 2, headline._room_of(load_ruleset("erren")))
    found = leagues[tables[0]].set_index(["player", "opponent"]).sort_index()
    expected = expected.set_index(["player", "opponent"]).sort_index()
    assert np.array_equal(found["beans_difference"], expected["beans_difference"])
    assert duels_played[0].names[0].startswith("greedy") and duels_played[0].deals == 30

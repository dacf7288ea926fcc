"""富贵豆 settlement (docs/rules/erren-table.md) and the rooms file, as a specification."""

import pandas as pd
import pytest
from conftest import deal_records

from analysis.rooms import Room, RoomsError, load_rooms
from analysis.tables import read_metadata
from sim.erren.money import bean_distribution, outcome_summary, seat_changes, seat_results, winning_fans
from sim.families import FAMILIES
from sim.runner import RunConfig, run

ROOM = Room("test", stake=10, fee=20, min_entry=0, max_entry=0)


def test_winner_gets_fans_times_stake_less_the_fee_and_the_loser_pays_both():
    # seat 0 wins 10 fans + 2 flowers, doubled once: F = 24; seat 1 wins 8 fans + 1 flower: F = 9; a draw.
    records = deal_records([(0, 0, 10, 2, 5, 1, 3), (1, 0, 8, 0, 1, 0, 0), (-1, 1, 0, 3, 3, 2, 2)])
    assert winning_fans(records).tolist() == [24.0, 9.0, 0.0]
    changes = seat_changes(records, ROOM)
    assert changes.tolist() == [[220.0, -260.0], [-110.0, 70.0], [-20.0, -20.0]]
    assert (changes.sum(axis=1) == -2 * ROOM.fee).all()  # the house takes 2f every deal


def test_paid_per_win_is_the_fans_with_the_winners_flowers_doubled_and_the_fan_total_leaves_them_out():
    # F = (10 + 2) x 2 = 24 and (8 + 1) x 1 = 9; the draw is no win; the fan totals are 10 and 8
    records = deal_records([(0, 0, 10, 2, 5, 1, 3), (1, 0, 8, 0, 1, 0, 0), (-1, 1, 0, 3, 3, 2, 2)]).assign(win_type=[1, 2, 0])
    summary = outcome_summary(records).set_index("statistic")["value"]
    assert summary["mean_fan_total"] == pytest.approx(9.0)
    assert summary["mean_paid_per_win"] == pytest.approx((24 + 9) / 2)
    assert summary["paid_per_win_q10"] < summary["paid_per_win_q90"]


def test_bean_tables_by_role_and_by_seat():
    records = deal_records([(0, 0, 10, 0, 0, 0, 0)] * 3 + [(1, 1, 20, 0, 0, 0, 0)] + [(-1, 0, 0, 0, 0, 0, 0)])
    table = bean_distribution(records, [ROOM]).set_index("role")
    assert table.loc["winner", "count"] == 4 and table.loc["draw", "count"] == 2
    assert table.loc["winner", "mean"] == pytest.approx((3 * 80 + 180) / 4)
    assert table.loc["loser", "mean"] == pytest.approx(-(3 * 120 + 220) / 4)
    assert table.loc["draw", "mean"] == -20
    moved = (3 * 10 + 20) * 10
    assert table.loc["winner", "house_share_of_moved"] == pytest.approx(200 / (200 + moved))
    seats = seat_results(records, [ROOM]).set_index("group")
    assert seats.loc["seat 0", "win_rate"] == pytest.approx(3 / 5)
    assert seats.loc["dealer", "win_rate"] == pytest.approx(4 / 5)  # seat 1 dealt the deal it won
    assert seats.loc["seat 0", "mean_beans"] == pytest.approx((3 * 80 - 220 - 20) / 5)
    assert seats.loc["seat 0", "mean_beans_low"] < seats.loc["seat 0", "mean_beans"] < seats.loc["seat 0", "mean_beans_high"]


def test_shipped_rooms_are_the_six_rooms_of_the_seeds():
    rooms = load_rooms(None, FAMILIES["erren"].rooms_file)
    assert [room.name for room in rooms] == ["体验场", "初级场", "中级场", "高级场", "大侠场", "宗师场"]
    assert all(room.stake > 0 for room in rooms)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rooms = 3", "no \\[rooms.<name>\\] tables"),
        ('[rooms.a]\nstake = 1\nfee = 0\nmin_entry = 0', "needs exactly the keys"),
        ('[rooms.a]\nstake = 0\nfee = 0\nmin_entry = 0\nmax_entry = 0', "stake must be positive"),
        ('[rooms.a]\nstake = 1\nfee = -2\nmin_entry = 0\nmax_entry = 0', "non-negative integer"),
        ('[rooms.a]\nstake = 1\nfee = 1\nmin_entry = 9\nmax_entry = 3', "below min_entry"),
        ("[rooms", "not valid TOML"),
    ],
)
def test_a_malformed_rooms_file_is_one_clear_error(tmp_path, text, message):
    path = tmp_path / "rooms.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RoomsError, match=message):
        load_rooms(path, FAMILIES["erren"].rooms_file)


def test_analyze_rewrites_and_prints_every_table_for_other_rooms(mjsim, tmp_path):
    directory = tmp_path / "run"
    run(RunConfig("erren", ("greedy", "greedy"), deals=2000, seed=3, shard_size=1000), directory, workers=1)
    rooms = tmp_path / "rooms.toml"
    rooms.write_text('[rooms."my room"]\nstake = 3\nfee = 7\nmin_entry = 100\nmax_entry = 0\n', encoding="utf-8")
    code, out, _ = mjsim("analyze", str(directory), "--rooms", str(rooms))
    assert code == 0
    for heading in ("outcomes", "fans", "富贵豆 change per deal", "house take", "per seat"):
        assert heading in out
    beans = pd.read_parquet(directory / "beans.parquet")
    assert set(beans["room"]) == {"my room"} and (beans["fee"] == 7).all()
    assert read_metadata(directory / "beans.parquet")["config"]["rooms"][0]["stake"] == 3
    draws = beans.set_index("role").loc["draw"]
    assert draws["count"] == 0 or draws["mean"] == -7


@pytest.mark.parametrize(("make", "message"), [("nothing", "holds no run"), ("bad rooms", "not valid TOML")])
def test_analyze_bad_input_is_one_error_line(mjsim, tmp_path, make, message):
    directory = tmp_path / "run"
    arguments = ["analyze", str(directory)]
    if make == "nothing":
        directory.mkdir()
    else:
        run(RunConfig("erren", ("random", "random"), deals=200, seed=3, shard_size=100), directory, workers=1)
        (tmp_path / "bad.toml").write_text("[rooms", encoding="utf-8")
        arguments += ["--rooms", str(tmp_path / "bad.toml")]
    code, _, err = mjsim(*arguments)
    assert code == 2 and err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1

"""Runs of the 二人 family: a deal is a pure function of (seed, deal index), however the work is split, and the
富贵豆 settlement of a run's deals in the rooms of its rooms file."""

import numpy as np
import pandas as pd
import pytest
from conftest import deal_records

from sim.commands.demo import deal_initial_hands, initial_shanten_table
from sim.core.result_files import read_metadata, write_table
from sim.core.rooms import Room, RoomsError, load_rooms
from sim.erren.money import bean_distribution, outcome_summary, seat_changes, seat_results, winning_fans
from sim.families import FAMILIES
from sim.runs.runner import RunConfig, run


def test_a_deal_depends_only_on_seed_and_deal_index():
    dealer, other = deal_initial_hands(seed=9, n_deals=500)
    dealer_tail, other_tail = deal_initial_hands(seed=9, n_deals=100, first_deal=400)
    np.testing.assert_array_equal(dealer[400:], dealer_tail)
    np.testing.assert_array_equal(other[400:], other_tail)
    other_seed, _ = deal_initial_hands(seed=10, n_deals=500)
    assert (other_seed != dealer).any()


def test_deals_are_legal_hands_of_the_wan_honours_wall():
    dealer, other = deal_initial_hands(seed=1, n_deals=2000)
    assert (dealer.sum(axis=1) == 14).all() and (other.sum(axis=1) == 13).all()
    assert ((dealer + other) <= 4).all()
    assert not (dealer + other)[:, 9:27].any()


def test_every_kind_is_dealt_equally_often():
    dealer, _ = deal_initial_hands(seed=2, n_deals=20_000)
    per_kind = dealer.sum(axis=0)[np.r_[0:9, 27:34]]
    expected = 20_000 * 14 / 16
    # Binomial spread around 17,500 per kind is about 125; 5 standard deviations would be a real bias.
    assert np.abs(per_kind - expected).max() < 5 * np.sqrt(expected)


def test_the_table_does_not_depend_on_chunking():
    whole = initial_shanten_table(seed=3, n_deals=3000, chunk=3000)
    pieces = initial_shanten_table(seed=3, n_deals=3000, chunk=700)
    assert whole.equals(pieces)


def test_tables_carry_configuration_and_versions(tmp_path):
    import pandas as pd

    path = write_table(pd.DataFrame({"a": [1, 2]}), tmp_path / "t.parquet", {"seed": 5})
    meta = read_metadata(path)
    assert meta["config"] == {"seed": 5} and "numba" in meta["versions"]
    assert not list(tmp_path.glob("*.tmp"))


# ----------------------------------------------------------------------------------------------------
# 富贵豆 settlement (docs/rules/erren-table.md) and the rooms file, as a specification.


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

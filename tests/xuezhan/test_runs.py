"""The run tooling on the 血战 family : `mjsim run`, `analyze`, `economics`, `duel`, `league` and
`replay` with `--ruleset liangmen-xuezhan` (four seats) and `sanren-liangfang` (three or two), their tables
checked against the per-deal records they come from, and the seat rotation of duplicate duels."""

import numpy as np
import pandas as pd
import pytest

from analysis.economics import room_economics
from sim.core.result_files import read_metadata
from sim.core.rooms import Room, load_rooms
from sim.core.ruleset import load_ruleset
from sim.families import FAMILIES, family_of
from sim.runs.duel import duel, seating
from sim.runs.runner import RunConfig, run, shard_path
from sim.xuezhan import money

UNITS = Room("units", stake=1, fee=0, min_entry=0, max_entry=0)
SOURCES = ["win_money", "kong_money", "chajiao_money", "guansi_money"]


@pytest.fixture(scope="module")
def four_seats(tmp_path_factory):
    config = RunConfig("liangmen-xuezhan", ("greedy", "value", "defensive", "random"), deals=3000, seed=2, shard_size=1000)
    return run(config, tmp_path_factory.mktemp("liangmen") / "run", workers=1)


@pytest.fixture(scope="module")
def three_seats(tmp_path_factory):
    config = RunConfig("sanren-liangfang", ("greedy", "greedy", "value"), deals=3000, seed=2, shard_size=1000)
    return run(config, tmp_path_factory.mktemp("sanren") / "run", workers=1)


@pytest.mark.parametrize("result", ["four_seats", "three_seats"])
def test_records_have_a_column_group_per_seat_and_the_money_balances(result, request):
    result = request.getfixturevalue(result)
    records = result.records
    seats = money.seat_count(records)
    assert seats == len(read_metadata(shard_path(result.directory, 0))["config"]["players"])
    total = sum(records[f"money_{seat}"] for seat in range(seats))
    assert (total == 0).all()
    for seat in range(seats):
        parts = sum(records[f"{source}_{seat}"] for source in SOURCES)
        assert (records[f"money_{seat}"] == parts).all()
    assert (records["violation"] == 0).all()


@pytest.mark.parametrize("result", ["four_seats", "three_seats"])
def test_fan_table_counts_every_win_of_a_deal(result, request):
    result = request.getfixturevalue(result)
    records, table = result.records, result.fan_table.set_index("fan")
    seats = money.seat_count(records)
    wins = sum(int((records[f"win_order_{seat}"] > 0).sum()) for seat in range(seats))
    assert wins > len(records)  # 血战: more wins than deals
    for fan in ("concealed_hand", "root"):
        scored = np.column_stack([records[f"fan_{fan}_{seat}"] > 0 for seat in range(seats)])
        assert table.loc[fan, "wins_scored"] == scored.sum()
        assert table.loc[fan, "deals_scored"] == scored.any(axis=1).sum()
        assert table.loc[fan, "per_win"] == pytest.approx(scored.sum() / wins)
    assert (table["per_win_low"] <= table["per_win"]).all() and (table["per_win"] <= table["per_win_high"]).all()


def test_outcomes_count_wins_draws_and_several_winners(four_seats):
    records = four_seats.records
    outcomes = four_seats.outcomes.set_index("statistic")["value"]
    assert outcomes["deals"] == 3000
    assert outcomes["wins"] == records["winners"].sum()
    assert outcomes["draw_share"] == pytest.approx(records["draw"].mean())
    assert outcomes["multiple_winners_on_one_discard_share"] == pytest.approx(records["multi_win"].mean())
    shares = sum(outcomes[f"{name}_share_of_wins"] for name in ("self_drawn", "discard", "robbed_kong"))
    assert shares == pytest.approx(1.0)


def test_paid_per_win_is_what_the_payers_of_each_win_paid_for_it(four_seats):
    records = four_seats.records
    outcomes = four_seats.outcomes.set_index("statistic")["value"]
    won = money.per_seat(records, "win_order") > 0
    income = money.per_seat(records, "win_income")
    assert outcomes["mean_paid_per_win"] == pytest.approx(income[won].mean())
    assert outcomes["mean_paid_per_win"] > outcomes["mean_win_value"]  # most wins have several payers


def test_money_tables_split_win_kong_chajiao_and_guansi(four_seats):
    records, tables = four_seats.records, four_seats.money
    assert set(tables) == {"money", "wins", "seats"}
    assert all((four_seats.directory / f"{name}.parquet").is_file() for name in tables)
    first = tables["money"][tables["money"]["room"] == "练习场"].set_index("source")
    for source in ("win", "kong", "chajiao", "guansi"):
        values = np.concatenate([records[f"{source}_money_{seat}"] for seat in range(4)])
        assert first.loc[source, "mean"] == pytest.approx(values.mean(), abs=1e-12)
        assert first.loc[source, "std"] == pytest.approx(values.std(ddof=1))
    assert first.loc["all", "mean"] == pytest.approx(0.0, abs=1e-12)  # every payment is a transfer
    assert (first.loc["kong", "std"] > 0) and (first.loc["chajiao", "std"] > 0)
    seats = tables["seats"][tables["seats"]["room"] == "练习场"].set_index("group")
    assert seats.loc["seat 0", "mean_money"] == pytest.approx(records["money_0"].mean())
    dealer_money = records.apply(lambda row: row[f"money_{row['dealer']}"], axis=1)
    assert seats.loc["dealer", "mean_money"] == pytest.approx(dealer_money.mean())
    assert seats.loc["dealer", "deals"] == 3000 and seats.loc["non-dealer", "deals"] == 9000
    wins = tables["wins"].set_index("win_type")
    assert wins.loc["all", "count"] == records["winners"].sum()
    assert wins.loc["self_drawn", "mean_payers"] > wins.loc["discard", "mean_payers"] == 1


def test_a_win_is_paid_by_its_payers_within_the_cap(four_seats, three_seats):
    wins = money.win_rows(four_seats.records, [])
    assert (wins["income"] >= wins["payers"]).all() and (wins["income"] <= 32 * wins["payers"]).all()
    capped = np.minimum(wins["value"], 32) * wins["payers"]
    assert (wins["income"] == capped).mean() > 0.9  # all but where a 报叫 declarer dealt in (x16)
    wins = money.win_rows(three_seats.records, [])  # 003: 2**fans plus the winner's kong units, no cap
    assert (wins["income"] >= wins["value"] * wins["payers"]).all()
    assert (wins["income"] > wins["value"] * wins["payers"]).any()


def test_a_room_prices_units_and_charges_its_fee(four_seats):
    records = four_seats.records
    changes = money.seat_changes(records, Room("r", stake=20, fee=3, min_entry=0, max_entry=0))
    assert changes.shape == (3000, 4)
    assert np.array_equal(changes[:, 2], records["money_2"].to_numpy() * 20 - 3)


def test_economics_has_a_drift_per_seat_and_a_house_share(four_seats):
    rooms = [UNITS, Room("fee", stake=1, fee=1, min_entry=100, max_entry=0)]
    table = room_economics(four_seats.records, rooms, (100,), horizon=200, players=100, money=money).set_index("room")
    assert [f"drift_seat_{seat}" for seat in range(4)] == [column for column in table.columns
                                                            if column.startswith("drift") and column.count("_") == 2]
    assert table.loc["units", "house_share_of_moved"] == 0 and table.loc["fee", "house_share_of_moved"] > 0
    assert table.loc["fee", "drift_seat_0"] == pytest.approx(table.loc["units", "drift_seat_0"] - 1)
    assert 0 <= table.loc["units", "winning_but_losing_share"] <= 1


def test_each_family_prices_in_its_own_rooms():
    assert load_rooms(None, FAMILIES["xuezhan"].rooms_file)[0].name == "练习场"
    assert family_of(load_ruleset("sanren-liangfang")) is FAMILIES["xuezhan"]
    assert family_of(load_ruleset("erren")) is FAMILIES["erren"]


def test_seat_rotation_gives_each_heuristic_every_seat():
    for seats in (2, 3, 4):
        rotations = np.array([seating(seats, rotation) for rotation in range(seats)])
        assert (rotations.sum(axis=0) == rotations.sum(axis=0)[0]).all()  # each seat holds B equally often
        assert set(rotations[0]) == {0, 1}
    assert seating(2, 1) == [1, 0]


@pytest.mark.parametrize(("ruleset", "seats"), [("liangmen-xuezhan", 4), ("sanren-liangfang", 3), ("sanren-liangfang", 2)])
def test_a_player_against_itself_differs_by_exactly_zero(ruleset, seats):
    result = duel(load_ruleset(ruleset), "greedy", "greedy", 300, 4, UNITS, seats)
    assert result.difference == 0 and result.z == 0
    assert result.seat_deals.sum() == seats * seats * 300


def test_greedy_beats_random_at_four_seats():
    result = duel(load_ruleset("liangmen-xuezhan"), "greedy", "random", 500, 1, UNITS)
    assert result.mean_beans[0] > 0 > result.mean_beans[1] and result.significant
    assert result.win_rate[0] > 0.4 and result.win_rate[1] < 0.1


def test_run_analyze_economics_duel_league_and_replay_commands(mjsim, tmp_path):
    out = tmp_path / "sanren"
    code, printed, _ = mjsim("run", "--ruleset", "sanren-liangfang", "--players", "greedy,value", "--deals", "1000",
                             "--workers", "1", "--out", str(out))
    assert code == 0 and "1,000 deals" in printed and "a deal, wall run out" in printed
    assert len(pd.read_parquet(shard_path(out, 0))) == 1000
    code, printed, _ = mjsim("analyze", str(out))
    assert code == 0 and "by room and source" in printed and "by way of winning" in printed
    code, printed, _ = mjsim("economics", str(out), "--stake", "1", "--stake", "10", "--fee", "0", "--fee", "2")
    assert code == 0 and "drift seat 1" in printed and "drift seat 2" not in printed  # two seats at this table
    code, printed, _ = mjsim("duel", "greedy", "random", "--ruleset", "liangmen-xuezhan", "--deals", "100")
    assert code == 0 and "4 times with the seats rotated" in printed and "练习场" in printed
    code, printed, _ = mjsim("league", "greedy", "random", "value", "--ruleset", "sanren-liangfang", "--seats", "2",
                             "--deals", "100")
    assert code == 0 and "played twice" in printed
    code, printed, _ = mjsim("replay", "--ruleset", "liangmen-xuezhan", "--deal", "3")
    assert code == 0 and printed.count("seat 3") > 3 and "money" in printed


def test_replay_money_lines_agree_with_the_payments_printed(mjsim):
    code, printed, _ = mjsim("replay", "--ruleset", "sanren-liangfang", "--deal", "5", "--players", "random,random,random")
    assert code == 0
    paid = np.zeros(3, int)
    for line in printed.splitlines():
        words = line.split()
        if len(words) > 5 and words[2] == "pays" and words[0] == "seat":
            amount, payer, payee = int(words[5]), int(words[1]), int(words[4])
            paid[payer] -= amount
            paid[payee] += amount
    for seat in range(3):
        line = next(line for line in printed.splitlines() if line.strip().startswith(f"seat {seat}:") and "money" in line)
        assert f"money {paid[seat]:+d}" in line


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["run", "--ruleset", "liangmen-xuezhan", "--players", "greedy,greedy", "--deals", "10"], "played by 4 players, not 2"),
        (["run", "--ruleset", "sanren-liangfang", "--players", "greedy:ready=1,greedy,greedy", "--deals", "10"], "unknown parameter"),
        (["duel", "greedy", "random", "--ruleset", "sanren-liangfang", "--seats", "4"], "played by 3 or 2 players"),
        (["duel", "greedy", "random", "--ruleset", "liangmen-xuezhan", "--room", "体验场"], "unknown room '体验场'"),
        (["replay", "--ruleset", "liangmen-xuezhan", "--players", "greedy,greedy,greedy"], "not 3"),
    ],
)
def test_bad_xuezhan_input_is_one_error_line(mjsim, tmp_path, arguments, message):
    if arguments[0] == "run":
        arguments = [*arguments, "--out", str(tmp_path / "x")]
    code, _, err = mjsim(*arguments)
    assert code == 2 and err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1

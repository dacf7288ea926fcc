"""Replaying 国标 deals: `engine.replay` gives the deal of the run, `mjsim replay` tells it so that it reads
(its money lines are its payments, a robbed kong leaves the robbed seat its pong), and a run's event logs
replay to the run's events and records (docs/event-logs.md#the-round-trip): every seat answers as its log
says, which needs the turn counter recounted from the log's rows. A flower drawn in play, or the
replacements of the flowers dealt, do not move that counter, so they have rows of their own."""

import json

import numpy as np
import pandas as pd
import pytest

from sim.core import run_records
from sim.core.notation import Meld, MeldKind, tile_name
from sim.core.ruleset import load_ruleset
from sim.mcr import engine, event_log, replay_report
from sim.runs import runner
from sim.runs.log_replay import check_round_trip

SEED = 21


def logged_run(directory, players, deals, seed=SEED):
    rules = load_ruleset("mcr")
    seats = runner.seated_players(rules, players)
    config = runner.RunConfig("mcr", seats.names, deals, seed, max(1, deals // 2))
    return runner.run(config, directory, workers=1, logs=True)


# Lineups whose decisions differ in kind (random passes, declines and claims oddly; greedy plans), thousands
# of deals in all: chows overruled by a pong, wins declined, flowers drawn in play and dealt.
ROUND_TRIPS = [("greedy,greedy,greedy,greedy", 2000), ("random,greedy,random,greedy", 1500),
               ("greedy,random,random,random", 800)]


@pytest.mark.parametrize(("players", "deals"), ROUND_TRIPS)
def test_a_runs_logs_replay_to_its_events_and_records(tmp_path, players, deals):
    logged_run(tmp_path / "run", players, deals)
    trip = check_round_trip(tmp_path / "run")  # LogMismatch at the first difference
    assert trip.deals == deals and trip.events == len(run_records.read_logs(tmp_path / "run"))


def test_the_turn_counter_is_the_count_of_the_rows_that_move_it(tmp_path):
    """Every deal's record of turns is 1 (the dealer's first) plus its rows in TURN_EVENTS: a flower drawn in
    play and 补花 at the deal have rows apart, and there are many of both."""
    result = logged_run(tmp_path / "run", "random,greedy,random,greedy", 600)
    events = run_records.read_logs(tmp_path / "run")
    moving = events[events["event"].isin(event_log.TURN_EVENTS)].groupby("deal").size()
    turns = result.records.set_index("deal")["turns"]
    assert (turns == 1 + moving.reindex(turns.index, fill_value=0)).all()
    counts = events["event"].value_counts()
    assert counts["flower_draw"] > 100 and counts["flower_replacement"] > 20 and counts["deal_replacement"] > 1000
    flowers = events[events["event"].isin(["flower_draw", "flower_replacement"])]
    assert flowers["tile"].astype(str).str.endswith("f").all()  # a flower's own rows hold flowers only
    suit_draws = events[events["event"].isin(["draw", "replacement"])]
    assert not suit_draws["tile"].astype(str).str.endswith("f").any()


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory):
    directory = tmp_path_factory.mktemp("mixed") / "run"
    return directory, logged_run(directory, "greedy,random,greedy,random", 300)


@pytest.mark.parametrize("deal", [0, 5, 13, 250])
def test_replay_gives_the_deal_of_the_run(mixed_run, deal):
    directory, result = mixed_run
    ruleset = load_ruleset("mcr")
    log = engine.replay(ruleset, "greedy,random,greedy,random", SEED, deal)
    row = result.records.set_index("deal").loc[deal]
    for name, value in log.record.items():
        if name != "deal":
            assert value == row[name], name
    table = event_log.deal_table(log).to_pandas()
    logged = run_records.read_logs(directory, deals=[deal])
    for column in ("seat", "to_seat", "money"):
        assert table[column].tolist() == logged[column].tolist(), column
    assert table["event"].astype(str).tolist() == logged["event"].astype(str).tolist()
    assert table["tile"].astype(str).tolist() == logged["tile"].astype(str).tolist()


# ------------------------------------------------------------------------------------- the report


def test_replay_money_lines_agree_with_the_payments_printed(mjsim):
    for deal in range(30):
        code, printed, _ = mjsim("replay", "--ruleset", "mcr", "--deal", str(deal), "--seed", "4")
        assert code == 0
        if "wins" in printed.split("result: ")[-1]:
            break
    else:
        pytest.fail("no won deal among the first 30 of seed 4")
    paid = np.zeros(4, int)
    for line in printed.splitlines():
        words = line.split()
        if len(words) == 6 and words[0] == "seat" and words[2] == "pays":
            payer, payee, amount = int(words[1]), int(words[4]), int(words[5])
            paid[payer] -= amount
            paid[payee] += amount
    assert paid.any()
    for seat in range(4):
        line = next(line for line in printed.splitlines() if line.strip().startswith(f"seat {seat}: ")
                    and "flowers)" in line)
        assert f"seat {seat}: {paid[seat]:+d} " in line


def test_replay_tells_every_flower_set_aside(mjsim):
    """Each flower drawn after the deal (in play, or replacing a dealt flower) is a line of its own."""
    for deal in range(20):
        code, printed, _ = mjsim("replay", "--ruleset", "mcr", "--deal", str(deal), "--seed", "4", "--json")
        assert code == 0
        rows = [json.loads(line) for line in printed.splitlines()]
        flowers = [row for row in rows if row["event"] in ("flower_draw", "flower_replacement", "deal_replacement")
                   and (row["tile"] or "").endswith("f")]
        if flowers:
            break
    else:
        pytest.fail("no flower drawn after the deal in the first 20 deals of seed 4")
    code, text, _ = mjsim("replay", "--ruleset", "mcr", "--deal", str(deal), "--seed", "4")
    assert code == 0 and text.count("(a flower: set aside)") == len(flowers)
    for row in flowers:
        how = "draws" if row["event"] == "flower_draw" else "draws from the back"
        assert f"seat {row['seat']} {how} {row['tile']} (a flower: set aside)" in text


def robbed_kong_deal():
    """(ruleset, players, deal) of the first deal of seed SEED with a win on a robbed added kong (at a
    minimum of 0, where every complete hand wins, robberies come often enough to find)."""
    import dataclasses

    ruleset = dataclasses.replace(load_ruleset("mcr"), min_fan=0)
    players = engine.Players.parse("greedy,greedy,greedy,greedy")
    records = engine.play(ruleset, players, SEED, 4000)
    robbed = np.flatnonzero(records.columns["win_type"] == engine.ROBBED_KONG)
    assert len(robbed) > 0, "no robbed kong in 4,000 deals: search more deals"
    return ruleset, players, int(robbed[0])


def test_a_robbed_added_kong_leaves_the_robbed_seat_its_pong_in_the_replay():
    ruleset, players, deal = robbed_kong_deal()
    log = engine.replay(ruleset, players, SEED, deal)
    codes = log.events[:, 0].tolist()
    robbing = codes.index(engine.EV_WIN_ROBBED_KONG)
    added = robbing - 1
    while codes[added] == engine.EV_PASS:  # those who let the rob go
        added -= 1
    assert codes[added] == engine.EV_ADDED_KONG
    _, robbed_seat, tile = log.events[added].tolist()
    assert log.record["discarder"] == robbed_seat  # the robbed konger pays as a discarder
    pong, kong = str(Meld(MeldKind.PONG, tile)), str(Meld(MeldKind.KONG, tile))
    lines = replay_report.format_deal(log, ruleset, players, SEED).splitlines()
    robbed_at = next(index for index, line in enumerate(lines) if " robs the kong: " in line)
    added_at = robbed_at - 1
    while " passes " in lines[added_at]:
        added_at -= 1
    assert lines[added_at] == f"seat {robbed_seat} adds {tile_name(tile)} to its pong"
    assert lines[robbed_at + 1] == f"seat {robbed_seat}'s kong fails: it keeps its pong"
    assert f"robs the kong: wins on {tile_name(tile)}" in lines[robbed_at]
    before = [line for line in lines[:added_at] if line.startswith(f"seat {robbed_seat} discards")]
    assert before and pong in before[-1] and kong not in before[-1]  # it held the pong it added to


def test_replay_json_lines_are_the_schema_rows_of_the_run(mjsim, tmp_path):
    logged_run(tmp_path / "run", "greedy,greedy,greedy,greedy", 10, seed=4)
    code, printed, _ = mjsim("replay", "--ruleset", "mcr", "--deal", "7", "--seed", "4", "--json")
    assert code == 0
    rows = pd.DataFrame([json.loads(line) for line in printed.splitlines()])
    logged = run_records.read_logs(tmp_path / "run", deals=[7])
    assert rows["event"].tolist() == logged["event"].astype(str).tolist()
    assert rows["money"].tolist() == logged["money"].tolist()

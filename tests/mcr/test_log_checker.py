"""A 国标 run's event logs witness every deal: the independent checker (tests/mcr/mcr_log_checker.py), which
reads only the logs, the ruleset and (to compare) the records, finds no disagreement in runs of several
lineups, without flowers and at a minimum of 0 too; and it reports each fault planted in a log: a wall tile,
a draw, a flower's replacement, a discard, a pass, a declined win, a chow from the wrong seat, a win that is
not one, a payment, the last tile's place."""

import numpy as np
import pandas as pd
import pytest
from mcr_log_checker import check_events, check_run, is_complete

from sim.core import run_records
from sim.core.notation import parse_tiles
from sim.core.ruleset import RULESET_DIR, load_ruleset
from sim.runs import runner

SEED = 3


def logged_run(directory, ruleset, players, deals):
    rules = load_ruleset(str(ruleset))
    seats = runner.seated_players(rules, players)
    config = runner.RunConfig(str(ruleset), seats.names, deals, SEED, deals)
    runner.run(config, directory, workers=1, logs=True)
    return directory


def variant_file(directory, flowers: bool, min_fan: int):
    """A copy of mcr.toml under its own id with other settings (without flowers, the file has no 花牌 fan)."""
    text = (RULESET_DIR / "mcr.toml").read_text(encoding="utf-8")
    ruleset_id = f"mcr-{'flowers' if flowers else 'no-flowers'}-min-{min_fan}"
    for old, new in (('id = "mcr"', f'id = "{ruleset_id}"'), ("\nmin_fan = 8 ", f"\nmin_fan = {min_fan} "),
                     ("\nflowers = true ", f"\nflowers = {str(flowers).lower()} ")):
        assert old in text
        text = text.replace(old, new)
    if not flowers:
        start = text.index("[fans.flower_tiles]")
        end = text.find("\n[", start + 1)
        text = text[:start] + (text[end + 1 :] if end >= 0 else "")
    path = directory / f"{ruleset_id}.toml"
    path.write_text(text, encoding="utf-8")
    return path


# Several lineups (random passes, claims and declines oddly; greedy plans), some 3,400 deals in all.
RUNS = [
    ("greedy,greedy,greedy,greedy", 1200),
    ("random,greedy,random,greedy", 1000),
    ("greedy,random,random,random", 600),
]
VARIANTS = [(False, 8, "greedy,random,greedy,greedy", 600), (True, 0, "random,greedy,greedy,random", 600)]


@pytest.mark.parametrize(("players", "deals"), RUNS)
def test_every_logged_deal_agrees_with_the_rules_and_the_records(tmp_path, players, deals):
    run = logged_run(tmp_path / "run", "mcr", players, deals)
    assert check_run(run) == []


@pytest.mark.parametrize(("flowers", "min_fan", "players", "deals"), VARIANTS)
def test_deals_without_flowers_or_a_minimum_agree_with_the_rules_and_the_records(tmp_path, flowers, min_fan, players,
                                                                                   deals):
    run = logged_run(tmp_path / "run", variant_file(tmp_path, flowers, min_fan), players, deals)
    assert check_run(run) == []


@pytest.mark.parametrize(("text", "complete"), [
    ("123m 456p 789s 111z 55z", True),  # four sets and a pair
    ("11m 22m 33p 44p 55s 66s 77z", True),  # seven pairs
    ("11m 11m 33p 44p 55s 66s 77z", True),  # a four counts as two pairs
    ("19m 19p 19s 1234567z 1m", True),  # thirteen orphans
    ("147m 258p 369s 12345z", True),  # 全不靠: knitted tiles and honours, 14 singles
    ("147m 258p 369s 123m 55z", True),  # 组合龙: the knitted straight, a set and a pair
    ("147m 258p 36s 12345z 7z", True),  # 全不靠 need not hold the whole knitted straight
    ("147m 258p 369s 1234z 4z", False),  # a pair among knitted tiles: neither 全不靠 nor 组合龙
    ("147m 258s 369s 12345z", False),  # two classes of one suit
    ("123m 456p 789s 111z 56z", False),
])
def test_the_checkers_complete_hand_knows_every_mcr_shape(text, complete):
    hand = list(parse_tiles(text.replace(" ", "")))
    assert sum(hand) == 14
    assert is_complete(hand, 0) == complete


# ------------------------------------------------------------------------------------- planted faults


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """(events as plain columns, ruleset, records) of a run whose players pass, decline and claim."""
    directory = logged_run(tmp_path_factory.mktemp("planted") / "run", "mcr", "random,greedy,random,greedy", 400)
    config, ruleset = run_records.load_run(directory)
    events = run_records.read_logs(directory).astype({"event": object, "tile": object})
    records = run_records.read_records(directory, config, ruleset)
    assert check_events(events, ruleset, records) == []
    return events, ruleset, records


def planted(logged, row, **changes):
    """The problems the checker reports once row `row` of the logs is changed (or, with drop=True, removed)."""
    events, ruleset, records = logged
    events = events.copy()
    if changes.pop("drop", False):
        events = events.drop(index=row).reset_index(drop=True)
    for column, value in changes.items():
        events.loc[row, column] = value
    return check_events(events, ruleset, records)


def rows_of(events, event):
    return np.flatnonzero(events["event"].to_numpy() == event)


def another_tile(tile):
    return "5p" if tile != "5p" else "6s"


def _plant(logged, row, **change):
    """Plant `change` at event row `row` and require one problem, naming that row's deal."""
    problems, deal = planted(logged, row, **change), logged[0].loc[row, "deal"]
    assert len(problems) == 1 and problems[0].startswith(f"deal {deal}"), problems
    return problems[0]


def test_a_wall_tile_changed_is_caught(logged):
    row = rows_of(logged[0], "wall")[144 * 3 + 70]
    assert "not the 144 of the ruleset" in _plant(logged, row, tile=another_tile(logged[0].loc[row, "tile"]))


@pytest.mark.parametrize("event", ["deal", "draw", "replacement", "flower_draw", "flower_replacement", "deal_replacement"])
def test_a_tile_from_the_wall_changed_is_caught(logged, event):
    rows = rows_of(logged[0], event)
    assert len(rows) > 3, f"no {event} in the run: plant in a longer run"
    row = rows[len(rows) // 2]
    assert "was due" in _plant(logged, row, tile=another_tile(logged[0].loc[row, "tile"]))


def test_a_flower_kept_in_hand_is_caught(logged):
    """A flower drawn in play logged as an ordinary draw: the flower is set aside at once, never held."""
    row = rows_of(logged[0], "flower_draw")[0]
    _plant(logged, row, event="draw")


def test_a_flower_left_unreplaced_is_caught(logged):
    row = rows_of(logged[0], "deal_replacement")[0]
    _plant(logged, row, drop=True)


def test_a_discard_of_a_tile_not_held_is_caught(logged):
    """The dealer's first discard changed to a kind it was neither dealt nor given by 补花."""
    events = logged[0]
    deal = 5
    rows = events[events["deal"] == deal]
    dealer = rows[rows["event"] == "deal"]["seat"].iloc[0]
    received = set(rows[rows["event"].isin(["deal", "deal_replacement"]) & (rows["seat"] == dealer)]["tile"])
    row = rows.index[rows["event"] == "discard"][0]
    assert events.loc[row, "seat"] == dealer
    absent = next(tile for tile in ("1m", "5p", "9s", "1z", "7z", "3m", "6p") if tile not in received)
    assert "which it does not hold" in _plant(logged, row, tile=absent)


def test_a_discard_changed_is_caught(logged):
    row = rows_of(logged[0], "discard")[200]
    _plant(logged, row, tile=another_tile(logged[0].loc[row, "tile"]))


def test_a_dropped_pass_is_caught(logged):
    """A pass on a discard nobody won or claimed: without it the seat left its choice unanswered."""
    events = logged[0]
    names = events["event"].to_numpy()
    passes = [row for row in rows_of(events, "pass") if names[row + 1] in ("draw", "flower_draw")]
    assert passes, "no pass followed by the next draw: plant in a longer run"
    _plant(logged, passes[0], drop=True)


def test_an_invented_pass_is_caught(logged):
    """A pass by a seat that could neither win nor claim the discard."""
    events, ruleset, records = logged
    names, seats = events["event"].to_numpy(), events["seat"].to_numpy()
    for row in rows_of(events, "discard")[50:]:
        if names[row + 1] == "draw":
            discarder, drawer = seats[row], seats[row + 1]
            other = next(seat for seat in range(4) if seat not in (discarder, drawer))
            extra = events.loc[[row]].assign(event="pass", seat=other)
            changed = pd.concat([events.loc[:row], extra, events.loc[row + 1 :]], ignore_index=True)
            problems = check_events(changed, ruleset, records)
            assert len(problems) == 1 and "without a choice" in problems[0], problems
            return
    pytest.fail("no discard followed by the next draw")


@pytest.fixture(scope="module")
def declining(tmp_path_factory):
    """(events, ruleset, records) of random players at a minimum of 0: they decline most wins they could take
    (at 8 fans their hands are seldom worth a win)."""
    directory = tmp_path_factory.mktemp("declining")
    run = logged_run(directory / "run", variant_file(directory, True, 0), "random,random,random,random", 150)
    config, ruleset = run_records.load_run(run)
    events = run_records.read_logs(run).astype({"event": object, "tile": object})
    records = run_records.read_records(run, config, ruleset)
    assert check_events(events, ruleset, records) == []
    return events, ruleset, records


def test_a_declined_win_dropped_is_caught(declining):
    declines = rows_of(declining[0], "decline_win")
    assert len(declines) > 0, "no declined win in the run: plant in a longer run"
    assert "was due" in _plant(declining, declines[len(declines) // 2], drop=True)


def test_an_invented_declined_win_is_caught(declining):
    """A decline_win row where the seat's hand could not win on the tile it drew."""
    events, ruleset, records = declining
    names = events["event"].to_numpy()
    row = next(row for row in rows_of(events, "discard")[20:] if names[row - 1] == "draw")
    extra = events.loc[[row - 1]].assign(event="decline_win", step=events.loc[row, "step"])
    changed = pd.concat([events.loc[: row - 1], extra, events.loc[row:]], ignore_index=True)
    problems = check_events(changed, ruleset, records)
    assert len(problems) == 1 and problems[0].startswith(f"deal {events.loc[row, 'deal']}"), problems


def test_a_chow_by_a_seat_not_after_the_discarder_is_caught(logged):
    events = logged[0]
    row = rows_of(events, "chow")[10]
    seat = events.loc[row, "seat"]
    _plant(logged, row, seat=(seat + 1) % 4)


def test_a_win_by_another_seat_is_caught(logged):
    events = logged[0]
    row = rows_of(events, "win_discard")[3]
    winner = events.loc[row, "seat"]
    _plant(logged, row, seat=(winner + 2) % 4)


def test_a_self_drawn_win_on_an_incomplete_hand_is_caught(logged):
    """A discard turned into a self-drawn win on the tile: its hand was not complete (or it would have won)."""
    events = logged[0]
    names = events["event"].to_numpy()
    row = next(row for row in rows_of(events, "discard")[100:] if names[row - 1] == "draw"
               and events.loc[row - 1, "tile"] != events.loc[row, "tile"])
    deal = events.loc[row, "deal"]
    changed = events.drop(index=events.index[(events["deal"] == deal) & (events.index > row)])
    changed.loc[row, ["event", "tile"]] = ["win_self_drawn", events.loc[row - 1, "tile"]]
    problems = check_events(changed, logged[1], logged[2])
    assert len(problems) == 1 and problems[0].startswith(f"deal {deal}"), problems
    assert "not a complete hand" in problems[0] or "below the minimum" in problems[0], problems


@pytest.mark.parametrize(("column", "change"), [("money", 1), ("to_seat", 1)])
def test_a_payment_changed_is_caught(logged, column, change):
    events = logged[0]
    row = rows_of(events, "pay_win")[5]
    value = events.loc[row, column] + change if column == "money" else (events.loc[row, "to_seat"] + 1) % 4
    assert "the rules price it" in _plant(logged, row, **{column: value})


def test_the_last_tile_dropped_is_caught(logged):
    row = rows_of(logged[0], "last_tile")[0]
    _plant(logged, row, drop=True)


def test_the_checker_compares_each_deal_with_its_record(logged):
    events, ruleset, records = logged
    changed = records.copy()
    changed.loc[7, "money_2"] += 1
    changed.loc[9, "turns"] += 1
    won = int(np.flatnonzero(changed["winner"].to_numpy() >= 0)[0])
    changed.loc[won, "fan_flower_tiles"] = changed.loc[won, "fan_flower_tiles"] + 1
    problems = check_events(events, ruleset, changed)
    expected = sorted({7, 9, won})
    assert [problem.split(":")[0] for problem in problems] == [f"deal {deal}" for deal in expected], problems


def test_a_deal_missing_from_the_logs_is_caught(logged):
    events, ruleset, records = logged
    problems = check_events(events[events["deal"] != 11], ruleset, records)
    assert problems == ["deal 11: the logs do not have it"]


def test_every_event_the_plants_change_occurs_in_the_run(logged):
    """The plants above would prove nothing if the run had none of the rows they change."""
    names = set(pd.unique(logged[0]["event"]))
    assert {"wall", "deal", "draw", "replacement", "flower_draw", "flower_replacement", "deal_replacement",
            "last_tile", "pass", "chow", "pong", "win_discard", "win_self_drawn", "pay_win"} <= names

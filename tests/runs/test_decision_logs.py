"""Decision logs (sim.core.decision_logs) and datasets (`mjsim run --decisions`, sim.rl.decisions): the rows the
engine keeps are those the step environment shows when the same deals are replayed with the same answers
(the slow twin), every kind of player is recorded, keeping them changes no record, and reading a damaged or
incomplete dataset is one clear error."""

import sys
from pathlib import Path

import numpy as np
import pytest

from sim.core import decision_logs
from sim.core.actions import ACTION_BASE, DECISION_CLAIM, DECISION_ROB, DECISION_TURN, DISCARD, DISCARD_READY, N_ACTIONS
from sim.core.ruleset import load_ruleset
from sim.core.run_directory import RunError
from sim.erren import encoding, engine
from sim.families import family_of
from sim.families.environment import make_environment
from sim.rl.decisions import read_decisions
from sim.runs.runner import RunConfig, run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "players"
SEED = 11


def _play(players, deals, seats=(0, 1), ruleset="erren"):
    return engine.play(load_ruleset(ruleset), engine.Players.parse(players), SEED, deals, decision_seats=seats)


def _columns_equal(first, second):
    return all(np.array_equal(first.columns[name], second.columns[name]) for name in first.columns)


def test_keeping_decisions_changes_no_record():
    ruleset, players = load_ruleset("erren"), engine.Players.parse("greedy,random")
    plain = engine.play(ruleset, players, SEED, 200)
    kept = engine.play(ruleset, players, SEED, 200, decision_seats=(0, 1))
    assert _columns_equal(plain, kept) and np.array_equal(plain.fans, kept.fans)
    assert plain.decisions is None and len(kept.decisions.rows) > 200


SLOW_TWIN_TABLES = [  # (ruleset, seats, deals)
    ("erren", 2, 12), ("erren-challenge", 2, 12),
    ("liangmen-xuezhan", 4, 8), ("sanren-liangfang", 3, 8), ("sanren-liangfang", 2, 8), ("mcr", 4, 8),
]
TWIN_PLAYERS = {"mcr": ["greedy", "random", "greedy", "random"]}  # MCR has no value or defensive player


@pytest.mark.parametrize("ruleset,seats,deals", SLOW_TWIN_TABLES)
def test_rows_match_the_step_environment_replaying_the_same_answers(ruleset, seats, deals):
    """The slow twin: each deal replayed in the step environment (every seat an agent), answered with the
    recorded actions; every decision it asks must be the next row, with the same seat, kind, encoding and
    legal actions, and no row may be left over. Every seat is kept."""
    rules = load_ruleset(ruleset)
    family = family_of(rules)
    players = family.parse_players(TWIN_PLAYERS.get(ruleset, ["greedy", "value", "defensive", "greedy"])[:seats], seats)
    kept = family.engine.play(rules, players, SEED, deals, decision_seats=tuple(range(seats))).decisions
    environment = make_environment(rules, n_seats=seats)
    masks = decision_logs.unpack_masks(kept.masks)
    index = 0
    for deal in range(deals):
        environment.reset(SEED, deal)
        while not environment.terminated:
            seat = environment.agent_selection
            assert kept.rows[index] == deal and kept.seats[index] == seat
            assert kept.decisions[index] == environment.state.table[environment.DECISION]
            assert np.array_equal(kept.observations[index], environment.encode(seat))
            assert np.array_equal(masks[index], environment.legal_mask)
            environment.step(int(kept.actions[index]))
            index += 1
    assert index == len(kept.rows) > deals * 5


def test_only_the_chosen_seats_and_real_choices_are_kept():
    kept = _play("greedy,greedy", 100, seats=(1,)).decisions
    masks = decision_logs.unpack_masks(kept.masks)
    assert set(kept.seats.tolist()) == {1}
    assert (masks.sum(axis=1) >= 2).all()
    assert masks[np.arange(len(masks)), kept.actions].all()  # the action taken was legal
    assert np.isnan(kept.chances).all()  # greedy reports no chance of winning


@pytest.mark.parametrize("player", [
    "ev",
    f"{EXAMPLES / 'numba_greedy.py'}:act",
    f"{EXAMPLES / 'simple.py'}:Coin:win=0.9",
    f"exec:{sys.executable} {EXAMPLES / 'json_bot.py'}",
])
def test_every_kind_of_player_is_recorded_and_plays_as_without_the_log(player):
    ruleset, players = load_ruleset("erren"), engine.Players.parse([player, "greedy"])
    try:
        plain = engine.play(ruleset, players, SEED, 20)
        kept = engine.play(ruleset, players, SEED, 20, decision_seats=(0, 1))
    finally:
        players.close()
    assert _columns_equal(plain, kept)
    decisions = kept.decisions
    assert set(decisions.seats.tolist()) == {0, 1}
    masks = decision_logs.unpack_masks(decisions.masks)
    assert masks[np.arange(len(masks)), decisions.actions].all()
    reported = ~np.isnan(decisions.chances)
    codes = decisions.actions // ACTION_BASE
    assert not reported[(codes != DISCARD) & (codes != DISCARD_READY)].any()  # chances are read with discards
    if player == "ev":  # ev reports a chance with every discard; greedy never does
        assert reported[(decisions.seats == 0) & ((codes == DISCARD) | (codes == DISCARD_READY))].all()
        assert not reported[decisions.seats == 1].any()


@pytest.mark.parametrize("player", [
    "ev",
    f"{EXAMPLES / 'simple.py'}:Coin:win=0.9",
    f"exec:{sys.executable} {EXAMPLES / 'json_bot.py'}",
])
def test_every_kind_of_player_is_recorded_at_the_mcr_table_and_plays_as_without_the_log(player):
    """ev sits through the loop that takes numba functions, Coin through Python, json_bot through exec:."""
    from sim.mcr import engine as mcr_engine

    ruleset, players = load_ruleset("mcr"), mcr_engine.Players.parse([player, "greedy", "random", "greedy"])
    try:
        plain = mcr_engine.play(ruleset, players, SEED, 12)
        kept = mcr_engine.play(ruleset, players, SEED, 12, decision_seats=(0, 2))
    finally:
        players.close()
    assert _columns_equal(plain, kept) and np.array_equal(plain.fans, kept.fans)
    decisions = kept.decisions
    assert set(decisions.seats.tolist()) == {0, 2}
    masks = decision_logs.unpack_masks(decisions.masks)
    assert (masks.sum(axis=1) >= 2).all() and masks[np.arange(len(masks)), decisions.actions].all()
    codes = decisions.actions // ACTION_BASE
    assert np.isin(codes, (DISCARD, DISCARD_READY))[~np.isnan(decisions.chances)].all()  # chances come with discards
    if player == "ev":  # ev reports a chance with every discard; greedy never does
        assert not np.isnan(decisions.chances[(decisions.seats == 0) & (codes == DISCARD)]).any()
        assert np.isnan(decisions.chances[decisions.seats == 2]).all()


def test_the_bound_holds_at_the_mcr_table_term_by_term():
    """sim.mcr.engine.new_decision_log's argument, checked on every deal and seat of 3,000 deals of greedy
    and random (random claims whatever it may, so more turns come from claims): the seat's turns number at
    most the tiles it received from the wall (flowers and their replacements counted) and the discards it
    claimed, plus the dealer's opening; its claims at most the others' discards; its robs at most the
    others' added kongs; and the sum stays within decisions_bound."""
    from sim.mcr import engine as mcr_engine

    ruleset = load_ruleset("mcr")
    deals = 3000
    played = mcr_engine.play(ruleset, "random,greedy,random,greedy", SEED, deals, keep_log=True,
                             decision_seats=(0, 1, 2, 3))
    names = mcr_engine.EVENT_NAMES
    codes, seats = played.log.rows[:, 0], played.log.rows[:, 1]
    deal_of_row = np.repeat(np.arange(deals), np.diff(np.concatenate([[0], played.log.ends])))

    def per_seat(events):
        chosen = np.isin(codes, [names.index(name) for name in events])
        counts = np.zeros((deals, 4), np.int64)
        np.add.at(counts, (deal_of_row[chosen], seats[chosen]), 1)
        return counts

    def others(counts):
        return counts.sum(axis=1, keepdims=True) - counts

    kept = played.decisions
    kinds = {name: np.zeros((deals, 4), np.int64) for name in ("turn", "claim", "rob")}
    for name, kind in (("turn", DECISION_TURN), ("claim", DECISION_CLAIM), ("rob", DECISION_ROB)):
        chosen = kept.decisions == kind
        np.add.at(kinds[name], (kept.rows[chosen], kept.seats[chosen]), 1)
    dealer = np.zeros((deals, 4), np.int64)
    dealer[np.arange(deals), played.columns["dealer"]] = 1
    received = per_seat(("draw", "replacement", "chow", "pong", "kong"))
    assert (kinds["turn"] <= received + dealer).all()
    assert (kinds["claim"] <= others(per_seat(("discard",)))).all()
    assert (kinds["rob"] <= others(per_seat(("added kong",)))).all()
    log = mcr_engine.new_decision_log(ruleset, (0,), 1)
    bound = len(log.rows)  # one deal, one seat: the bound itself
    total = kinds["turn"] + kinds["claim"] + kinds["rob"]
    assert total.sum() == len(kept.rows) and total.max() <= bound
    assert (kinds["claim"] > 0).any() and total.max() > 20  # the deals do test it


def test_a_log_too_small_is_a_loud_error():
    ruleset, players = load_ruleset("erren"), engine.Players.parse("greedy,greedy")
    log = decision_logs.new_log((0,), 1, 3, encoding.SIZE)  # room for three decisions in all
    rules, template = engine.kernel_rules(ruleset)
    records = np.zeros((5, len(engine.RECORD_COLUMNS)), np.int32)
    fans = np.zeros((5, engine.N_FANS), np.uint8)
    events = np.zeros((engine.MAX_EVENTS, engine.EVENT_COLUMNS), np.int64)
    engine._play_batch(ruleset, players, SEED, 0, 0, template, rules, engine.new_work(), False, records, fans, events,
                       template.copy(), engine.event_logs.no_batch_log(engine.EVENT_COLUMNS, np.int64), log)
    assert log.count[0] == 3 and log.overflow[0] > 0
    with pytest.raises(RuntimeError, match="no room"):
        decision_logs.trimmed(log)


@pytest.fixture(scope="module")
def dataset_run(tmp_path_factory):
    directory = tmp_path_factory.mktemp("decisions") / "run"
    config = RunConfig("erren", ("greedy", "random"), 60, SEED, shard_size=25)
    result = run(config, directory, workers=1, decision_seats=(0,))
    return directory, result


def test_a_run_writes_and_reads_back_its_decisions(dataset_run):
    directory, result = dataset_run
    data = read_decisions(directory)
    expected = engine.play(load_ruleset("erren"), engine.Players.parse("greedy,random"), SEED, 60, decision_seats=(0,))
    assert np.array_equal(data.observations, expected.decisions.observations)
    assert np.array_equal(data.masks, decision_logs.unpack_masks(expected.decisions.masks))
    assert np.array_equal(data.actions, expected.decisions.actions)
    assert data.masks.shape == (len(data), N_ACTIONS) and data.observations.shape[1] == encoding.SIZE
    assert np.array_equal(data.deals, expected.decisions.rows) and (data.seats == 0).all()
    # the money: the 富贵豆 settlement at stake 1 and no fee, F = (fans + the winner's flowers) x 2^its doubles,
    # to the winner from the loser (docs/rules/erren-table.md)
    records = result.records.iloc[data.deals]
    winner = records["winner"].to_numpy()
    flowers = np.where(winner == 0, records["flowers_0"], records["flowers_1"])
    doubles = np.where(winner == 0, records["doubles_0"], records["doubles_1"])
    moved = (records["fan_total"].to_numpy() + flowers) * 2.0 ** doubles
    assert np.array_equal(data.money, np.where(winner == 0, moved, np.where(winner == 1, -moved, 0.0)))
    assert (data.money != 0).any()


def test_a_missing_or_damaged_decision_file_is_one_error(dataset_run, tmp_path):
    import shutil

    directory = tmp_path / "copy"
    shutil.copytree(dataset_run[0], directory)
    path = directory / "decisions" / "shard-000001.parquet"
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(RunError, match="shard-000001.parquet: its bytes differ"):
        read_decisions(directory)
    path.unlink()
    with pytest.raises(RunError, match="missing the decisions decisions/shard-000001.parquet"):
        read_decisions(directory)


def test_a_run_without_decisions_is_one_error(tmp_path):
    directory = tmp_path / "plain"
    run(RunConfig("erren", ("greedy", "greedy"), 10, SEED, shard_size=10), directory, workers=1)
    with pytest.raises(RunError, match="holds no decisions"):
        read_decisions(directory)
    with pytest.raises(RunError, match="started without --decisions"):
        run(RunConfig("erren", ("greedy", "greedy"), 10, SEED, shard_size=10), directory, workers=1, resume=True,
            decision_seats=(0,))


def test_a_resume_keeps_the_seats_it_began_with(dataset_run):
    directory, _ = dataset_run
    with pytest.raises(RunError, match="keeps the decisions of seat 0, not 1"):
        run(RunConfig("erren", ("greedy", "random"), 60, SEED, shard_size=25), directory, workers=1, resume=True,
            decision_seats=(1,))

"""User players at an MCR table: the state machine's decisions played step by step, and Python and ``exec:``
players seated among the heuristics (sim.mcr.engine, sim.mcr.observation, sim.players.user_players)."""

import json
from pathlib import Path

import numpy as np
import pytest

from kernels.fan_ids import N_FANS
from sim.core.actions import ACTION_BASE, PASS, PONG, WIN, encode
from sim.core.notation import parse_tiles
from sim.core.ruleset import load_ruleset
from sim.core.worker_processes import players_in_this_process
from sim.mcr import engine as E
from sim.mcr import table as T
from sim.players.user_players import PlayerFailure

ROOT = Path(__file__).resolve().parents[2]
SIMPLE = ROOT / "examples" / "players" / "simple.py"
JSON_BOT = ROOT / "examples" / "players" / "json_bot.py"
RULESET = load_ruleset("mcr")


def assert_no_violation(records):
    violations = records.columns["violation"]
    assert (violations == 0).all(), [E.VIOLATIONS[v] for v in np.unique(violations) if v]


def step_through(players, seed, deal, check):
    """Play one deal through the state machine's entry points, answering with the built-in players and calling
    check(state, rules, work) at every decision; returns the record row and fans."""
    players = E.Players.parse(players)
    rules, template = E.kernel_rules(RULESET)
    state, work = T.new_state(), T.new_work()
    record = np.zeros(E.RECORD_WIDTH, np.int32)
    fans = np.zeros(N_FANS, np.uint8)
    events = np.zeros((E.MAX_EVENTS, 4), np.int32)
    wall = template.copy()
    E._lay_out(deal, np.uint64(seed), template, wall)
    pending = E.start_wall(deal, np.uint64(seed), wall, rules, state, work, events, record, fans, True)
    while pending:
        check(state, rules, work)
        action = E.builtin_action(players.kinds, players.parameters, state, rules, work)
        assert E.is_legal(action, state, rules, work)
        pending = E.apply(action, wall, rules, state, work, events, record, fans, True)
    assert state.table[T.STEP] == E.STEP_OVER
    return record, fans


def test_every_decision_stepped_offers_its_legal_actions_once_in_order_and_replays_the_batch():
    """At every decision of real deals: ``legal_actions`` lists each action once, in its fixed order (on
    another seat's tile: pass first, then win, then the claims), a claim is offered only to a seat that may
    do more than pass, and the deal played decision by decision gives the batch loop's record and fans."""
    lineup = "random,greedy,random,greedy"
    batch = E.play(RULESET, lineup, seed=31, n_deals=12)
    seen = set()

    def check(state, rules, work):
        decision = int(state.table[T.DECISION])
        seen.add(decision)
        count = T.legal_actions(state, rules, work, work.legal)
        listed = work.legal[:count].tolist()
        assert len(set(listed)) == count
        if decision != E.DECISION_TURN:
            codes = [action // ACTION_BASE for action in listed]
            assert codes[0] == PASS and count >= 2  # a seat with nothing but pass is not asked
            assert (WIN in codes) == (state.table[T.WIN_ALLOWED] != 0)

    for deal in range(12):
        record, fans = step_through(lineup, 31, deal, check)
        columns = E._columns_of(record)
        for column, value in columns.items():
            assert value == batch.columns[column][deal], (deal, column)
        assert np.array_equal(fans, batch.fans[deal])
    assert {E.DECISION_TURN, E.DECISION_CLAIM} <= seen


# ------------------------------------------------------------------------------ user players


class Recorder:
    """Plays like examples/players/simple.py:Isolated and keeps every observation's JSON, checking the tiles
    it is shown as it goes."""

    def __init__(self):
        from sim.players.user_players import load_user_player

        self.inner = load_user_player(f"{SIMPLE}:Isolated").player
        self.seen = []

    def act(self, observation):
        shown = json.loads(json.dumps(observation.to_json()))
        self.seen.append(shown)
        tiles = int(observation.hand.sum()) + 3 * observation.n_melds[observation.seat]
        assert tiles == (14 if observation.decision == "turn" else 13)
        assert np.array_equal(parse_tiles(shown["hand"]), observation.hand)
        if observation.win_fans is not None:
            assert observation.win_fans >= observation.min_fan == RULESET.min_fan
            assert any(action.text == "win" for action in observation.legal_actions)
        return self.inner.act(observation)


class Illegal:
    """Answers a pong of a tile never on offer."""

    def act(self, observation):
        return encode(PONG, 0)


class Raises:
    """Gives up at its first decision."""

    def act(self, observation):
        raise RuntimeError("the test player gives up")


@pytest.mark.parametrize("player", ["Isolated", "Coin:win=0.8"])
def test_a_python_player_among_three_greedy_plays_without_violation_and_replays_exactly(player):
    players = E.Players.parse([f"{SIMPLE}:{player}", "greedy", "greedy", "greedy"])
    assert players.has_users and players.names[0] == f"{SIMPLE}:{player}"
    records = E.play(RULESET, players, seed=8, n_deals=200, validate=True)
    assert_no_violation(records)
    again = E.play(RULESET, players, seed=8, n_deals=200, validate=True)  # a seeded player replays exactly
    for column, values in records.columns.items():
        assert np.array_equal(values, again.columns[column]), column
    assert (records.columns["winner"] >= 0).any()


def test_a_user_player_sees_its_own_tiles_the_public_table_and_nothing_else():
    with players_in_this_process():  # to read what the recorder saw
        players = E.Players.parse(["greedy", f"{__file__}:Recorder", "random", "greedy"])
        assert players.kinds[1] == E.USER
        recorder = players.users[1].player
        records = E.play(RULESET, players, seed=3, n_deals=40, validate=True)
    assert_no_violation(records)
    decisions = {seen["decision"] for seen in recorder.seen}
    assert {"turn", "claim"} <= decisions
    keys = set(recorder.seen[0])
    assert {"hand", "melds", "discards", "flowers", "round_wind", "seat_wind", "win_fans", "tiles_left"} <= keys
    assert not {"wall", "hands", "opponent_hand"} & keys
    # seat 1's wind follows the match: deal d's dealer is seat d % 4, and the dealer is east
    winds = {seen["deal"]: seen["seat_wind"] for seen in recorder.seen}
    assert all(wind == ("east", "south", "west", "north")[(1 - deal % 4) % 4] for deal, wind in winds.items())
    # the round wind changes every four deals of the 16-deal match: east for deals 0-3, south for 4-7, ...
    assert all(seen["round_wind"] == ("east", "south", "west", "north")[seen["deal"] % 16 // 4] for seen in recorder.seen)


def test_an_exec_player_plays_through_the_json_protocol():
    players = E.Players.parse(f"exec:python3 {JSON_BOT},greedy,random,greedy")
    try:
        records = E.play(RULESET, players, seed=4, n_deals=20, validate=True)
    finally:
        players.close()
    assert_no_violation(records)
    assert (records.columns["faulted_0"] == 0).all()


def test_an_illegal_answer_stops_the_run_naming_the_deal_and_the_decision():
    players = E.Players.parse(["greedy", f"{__file__}:Illegal", "greedy", "greedy"])
    with pytest.raises(PlayerFailure, match=r"answered \d+, not a legal action, at deal 5, seat 1, decision '(turn|claim|rob)'"):
        E.play(RULESET, players, seed=2, n_deals=3, first_deal=5)


def test_a_python_player_that_raises_stops_the_run_naming_the_error():
    players = E.Players.parse(["greedy", "greedy", f"{__file__}:Raises", "greedy"])
    with pytest.raises(PlayerFailure, match=r"Raises raised at deal 0, seat 2, decision '(turn|claim|rob)': RuntimeError: the test player gives up"):
        E.play(RULESET, players, seed=2, n_deals=3)

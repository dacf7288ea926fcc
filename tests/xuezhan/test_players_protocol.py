"""User players at a 血战 table: the state machine's decisions, their legal actions, and Python and ``exec:``
players seated among the heuristics (sim.xuezhan.engine, sim.xuezhan.observation, sim.players.user_players)."""

import dataclasses
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from kernels.fan_ids import N_FANS
from sim.core.actions import (
    ACTION_BASE,
    ADDED_KONG,
    CONCEALED_KONG,
    DECISION_CLAIM,
    DECISION_EXCHANGE,
    DECISION_NAMES,
    DECISION_OPENING_READY,
    DECISION_ROB,
    DECISION_TURN,
    DECISION_VOID,
    DECLARE_READY,
    DISCARD,
    DISCARD_READY,
    EXCHANGE,
    KONG,
    NO_TILE,
    PASS,
    PONG,
    VOID,
    WIN,
    encode,
)
from sim.core.ruleset import load_ruleset
from sim.core.worker_processes import players_in_this_process
from sim.players.user_players import PlayerFailure
from sim.xuezhan import engine as E
from sim.xuezhan import table as T

ROOT = Path(__file__).resolve().parents[2]
SIMPLE = ROOT / "examples" / "players" / "simple.py"
JSON_BOT = ROOT / "examples" / "players" / "json_bot.py"
SUITED = range(T.FIRST_KIND, T.LAST_KIND + 1)


def with_switches(ruleset, **changes):
    return dataclasses.replace(ruleset, xuezhan=dataclasses.replace(ruleset.xuezhan, **changes))


def assert_no_violation(records):
    violations = records.columns["violation"]
    assert (violations == 0).all(), [E.VIOLATIONS[v] for v in np.unique(violations) if v]


# ------------------------------------------------------------------------------ legal actions


def legal_exchange_triples(seat, state):
    """Every multiset of three suited kinds ``is_legal_exchange`` accepts for the seat."""
    return [
        triple for triple in itertools.combinations_with_replacement(SUITED, 3)
        if T.is_legal_exchange(seat, np.array(triple, np.int64), state)
    ]


def accepted_actions(state, rules, work, triples):
    """The actions the legality functions of sim.xuezhan.table accept for the pending decision, found by trying
    every candidate: each action code with every tile (WIN, PASS and DECLARE_READY without one; a claim's
    PONG and KONG name the tile on offer, which the claim functions take as the tile)."""
    table = state.table
    seat, decision = int(table[T.ACTOR]), int(table[T.DECISION])
    win_allowed, drawn, tile = table[T.WIN_ALLOWED] != 0, int(table[T.DRAWN]), int(table[T.OFFER])
    if decision == DECISION_TURN:
        win = encode(WIN, NO_TILE)
        accepted = {win} if T.is_legal_turn_action(win, seat, win_allowed, drawn, False, state, rules, work) else set()
        codes = (DISCARD, DISCARD_READY, CONCEALED_KONG, ADDED_KONG, PASS, PONG)
        for code, kind in itertools.product(codes, range(34)):
            ready = code == DISCARD_READY and T.ready_after_discard(seat, kind, state, rules)
            if T.is_legal_turn_action(encode(code, kind), seat, win_allowed, drawn, ready, state, rules, work):
                accepted.add(encode(code, kind))
        return accepted
    if decision in (DECISION_CLAIM, DECISION_ROB):
        may_claim = decision == DECISION_CLAIM
        candidates = [encode(PASS, NO_TILE), encode(WIN, NO_TILE), encode(PONG, tile), encode(KONG, tile)]
        return {
            action for action in candidates
            if T.is_legal_claim(action, seat, tile, win_allowed, may_claim, state, rules, work)
        }
    if decision == DECISION_EXCHANGE:
        picked = list(work.exchange_choices[seat, : table[T.PICKED]])
        accepted = set()
        for triple in triples:
            rest = list(triple)
            if all(kind in rest and not rest.remove(kind) for kind in picked):
                accepted.update(encode(EXCHANGE, kind) for kind in rest)
        return accepted
    if decision == DECISION_VOID:  # the validating mode accepts either suit
        return {encode(VOID, T.PIN_START), encode(VOID, T.SOU_START)}
    assert decision == DECISION_OPENING_READY
    return {encode(PASS, NO_TILE), encode(DECLARE_READY, NO_TILE)}


def step_through(ruleset, players, seed, deal, dealer, check=None):
    """Play one deal through the state machine's entry points, answering with the built-in players and
    calling check(state, rules, work) at every decision; returns the record row and fans."""
    players = E.Players.parse(players)
    n = len(players.names)
    rules, template = E.kernel_rules(ruleset)
    state, work = T.new_state(), T.new_work()
    record = np.zeros(E.RECORD_WIDTH, np.int32)
    fans = np.zeros((T.MAX_SEATS, N_FANS), np.uint8)
    events = np.zeros((E.MAX_EVENTS, 4), np.int32)
    wall = template.copy()
    E.start_deal(deal, dealer, n, np.uint64(seed), template, wall, rules, state, work, events, record, fans, True)
    while state.table[T.STEP] == E.STEP_DECIDE:
        if check is not None:
            check(state, rules, work)
        action = E.builtin_action(players.kinds, players.parameters, state, rules, work)
        assert E.is_legal(action, state, rules, work)
        E.apply(action, wall, rules, state, work, events, record, fans, True)
    assert state.table[T.STEP] == E.STEP_OVER
    return record, fans


GAMES = [
    ("liangmen-xuezhan", 4, {}), ("liangmen-xuezhan", 4, {"exchange_three": True, "void_suit": True}),
    ("sanren-liangfang", 3, {}), ("sanren-liangfang", 2, {"exchange_three": True, "void_suit": True}),
]


@pytest.mark.parametrize("name,n,switches", GAMES, ids=lambda value: str(value))
def test_legal_actions_are_exactly_what_the_legality_functions_accept(name, n, switches):
    """At every decision of real deals: ``legal_actions`` lists each accepted action once, in its fixed order
    (pass, win, then by tile), and the built-in players' answers are among them; the deal played step by
    step gives the batch loop's record and fans."""
    ruleset = with_switches(load_ruleset(name), **switches)
    mix = ",".join(("random", "greedy", "defensive", "value")[:n])
    batch = E.play(ruleset, mix, seed=31, n_deals=12)
    seen = set()
    triples = {}

    def check(state, rules, work):
        table = state.table
        decision, seat = int(table[T.DECISION]), int(table[T.ACTOR])
        name = DECISION_NAMES[decision]
        seen.add(name)
        if decision == DECISION_EXCHANGE and table[T.PICKED] == 0:
            triples[seat] = legal_exchange_triples(seat, state)
        count = T.legal_actions(state, rules, work, work.legal)
        listed = work.legal[:count].tolist()
        assert len(set(listed)) == count
        assert set(listed) == accepted_actions(state, rules, work, triples.get(seat, ())), (name, listed)
        if decision in (DECISION_TURN, DECISION_CLAIM, DECISION_ROB):
            codes = [action // ACTION_BASE for action in listed]
            order = [(code != PASS, code != WIN, action % ACTION_BASE) for code, action in zip(codes, listed)]
            assert order == sorted(order)

    for deal in range(12):
        record, fans = step_through(ruleset, mix, 31, deal, int(batch.columns["dealer"][deal]), check)
        columns = E._columns_of(record, n)
        for column, value in columns.items():
            assert value == batch.columns[column][deal], (deal, column)
        assert np.array_equal(fans[:n], batch.fans[deal])
    assert {"turn", "claim"} <= seen
    if switches:
        assert {"exchange", "void"} <= seen


# ------------------------------------------------------------------------------ user players


class Recorder:
    """Plays like examples/players/simple.py:Isolated and keeps every observation's JSON."""

    def __init__(self):
        from sim.players.user_players import load_user_player

        self.inner = load_user_player(f"{SIMPLE}:Isolated").player
        self.seen = []

    def act(self, observation):
        self.seen.append(json.loads(json.dumps(observation.to_json())))
        assert observation.hand.sum() % 3 == (2 if observation.decision == "turn" else 1) or observation.decision in (
            "exchange", "void", "opening ready")
        return self.inner.act(observation)


class Illegal:
    """Answers a pong of a tile never on offer."""

    def act(self, observation):
        return encode(PONG, 0)


@pytest.mark.parametrize("player", ["Isolated", "Coin:win=0.8"])
def test_a_python_player_among_three_greedy_plays_without_violation(player):
    ruleset = load_ruleset("liangmen-xuezhan")
    players = E.Players.parse([f"{SIMPLE}:{player}", "greedy", "greedy", "greedy"])
    assert players.has_users and players.kinds[0] == E.USER and players.names[0] == f"{SIMPLE}:{player}"
    records = E.play(ruleset, players, seed=8, n_deals=300, validate=True)
    assert_no_violation(records)
    assert records.columns["win_order_0"].astype(bool).sum() > 0
    again = E.play(ruleset, players, seed=8, n_deals=300, validate=True)  # a seeded player replays exactly
    for column, values in records.columns.items():
        assert np.array_equal(values, again.columns[column]), column


def test_a_user_player_answers_every_decision_of_the_opening_and_sees_only_its_own_tiles():
    ruleset = with_switches(load_ruleset("liangmen-xuezhan"), exchange_three=True, void_suit=True)
    with players_in_this_process():  # to read what the recorder saw
        players = E.Players.parse([f"{__file__}:Recorder", "greedy", "random", "greedy"])
        recorder = players.users[0].player
        records = E.play(ruleset, players, seed=3, n_deals=60, validate=True)
    assert_no_violation(records)
    decisions = {seen["decision"] for seen in recorder.seen}
    assert {"turn", "claim", "exchange", "void"} <= decisions
    picks = [len(seen["picked"]) for seen in recorder.seen if seen["decision"] == "exchange"]
    assert picks.count(0) == 60 and set(picks) == {0, 1, 2}  # a pick with one legal tile is not asked
    assert sum(seen["decision"] == "void" for seen in recorder.seen) == 60
    keys = set(recorder.seen[0])
    assert {"hand", "melds", "discards", "voids", "won", "money", "ready", "waits", "tiles_left"} <= keys
    assert not {"wall", "hands", "opponent_hand"} & keys
    assert all(len(seen["voids"]) == 4 for seen in recorder.seen)
    assert any(seen["voids"][0] in ("p", "s") for seen in recorder.seen if seen["decision"] == "turn")


def test_an_exec_player_plays_through_the_json_protocol():
    ruleset = with_switches(load_ruleset("sanren-liangfang"), exchange_three=True, void_suit=True)
    players = E.Players.parse(f"exec:python3 {JSON_BOT},greedy,value")
    try:
        records = E.play(ruleset, players, seed=4, n_deals=25, validate=True)
    finally:
        players.users[0].close()
    assert_no_violation(records)


def test_an_illegal_answer_stops_the_run_naming_the_deal_and_the_decision():
    players = E.Players.parse(["greedy", f"{__file__}:Illegal", "greedy", "greedy"])
    with pytest.raises(PlayerFailure, match=r"at deal 5, seat 1, decision '(turn|claim|rob|opening ready)'"):
        E.play(load_ruleset("liangmen-xuezhan"), players, seed=2, n_deals=3, first_deal=5)

"""Numba players at 血战 tables as a specification: seated by the same texts as Python players, called inside
the compiled loop with the 血战 numba observation (which shows what the Python observation shows, and no
more), replaying exactly, and stopped with the deal, seat and decision when they fail
(sim.xuezhan.engine, sim.xuezhan.observation, sim.players.numba_players)."""

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from kernels.fan_ids import N_FANS, SELF_DRAWN_FLAG
from kernels.tiles import MELD_CONCEALED_KONG
from sim.core.actions import DECISION_TURN
from sim.core.ruleset import load_ruleset
from sim.core.worker_processes import players_in_this_process
from sim.players.numba_players import MAX_NUMBA_PARAMETERS, numba_player, shanten, ukeire
from sim.players.player_text import PlayerError
from sim.players.player_view import new_player_view
from sim.players.user_players import PlayerFailure
from sim.xuezhan import engine as E
from sim.xuezhan import table as T
from sim.xuezhan.numba_helpers import xuezhan_win_value
from sim.xuezhan.win_value import score_win
from sim.xuezhan.observation import HIDDEN, Observation, numba_observation

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = f"{ROOT}/examples/players/numba_xuezhan.py:act"
GAMES = [  # every ruleset at every seat count, the optional opening switched on for one of each
    ("liangmen-xuezhan", 4, {}), ("liangmen-xuezhan", 4, {"exchange_three": True, "void_suit": True}),
    ("sanren-liangfang", 3, {"exchange_three": True, "void_suit": True}), ("sanren-liangfang", 2, {}),
]


def game(name, switches):
    ruleset = load_ruleset(name)
    return dataclasses.replace(ruleset, xuezhan=dataclasses.replace(ruleset.xuezhan, **switches))


def assert_no_violation(records):
    violations = records.columns["violation"]
    assert (violations == 0).all(), [E.VIOLATIONS[v] for v in np.unique(violations) if v]


@numba_player(fail=0.0)
@njit
def faulty(observation, parameters, rng):
    """Plays the first legal action, but on its turns answers illegally (fail=1) or raises (fail=2)."""
    if parameters[0] == 1 and observation.decision == DECISION_TURN:
        return -7, rng
    if parameters[0] == 2 and observation.decision == DECISION_TURN:
        raise ValueError("the test player gives up")
    return observation.legal[0], rng


@pytest.mark.parametrize("name,n,switches", GAMES, ids=str)
def test_the_example_numba_player_plays_every_game_legally_and_replays_exactly(name, n, switches):
    ruleset = game(name, switches)
    with players_in_this_process():  # only here does the parent load the player and know its kind
        assert E.Players.parse([EXAMPLE] + ["greedy"] * (n - 1)).kinds[0] == E.NUMBA
    players = E.Players.parse([EXAMPLE] + ["greedy"] * (n - 1))
    assert players.names[0] == EXAMPLE
    records = E.play(ruleset, players, seed=6, n_deals=150, validate=True)
    assert_no_violation(records)
    assert records.columns["win_order_0"].astype(bool).sum() > 0
    again = E.play(ruleset, players, seed=6, n_deals=150, validate=True)
    for column, values in records.columns.items():
        assert np.array_equal(values, again.columns[column]), column


def test_a_numba_player_seats_anywhere_among_python_players_and_heuristics():
    ruleset = game("liangmen-xuezhan", {"exchange_three": True, "void_suit": True})
    texts = ["greedy", f"{ROOT}/examples/players/simple.py:Isolated", EXAMPLE, EXAMPLE]
    with players_in_this_process():
        assert list(E.Players.parse(texts).kinds[1:]) == [E.USER, E.NUMBA, E.NUMBA]
    players = E.Players.parse(texts)
    records = E.play(ruleset, players, seed=2, n_deals=40, validate=True)
    assert_no_violation(records)


@njit
def _observe(seat, n_legal, state, rules, work, view, out_tables, out_melds):
    """The numba observation's arrays, copied out (a test cannot keep the views)."""
    observation = numba_observation(seat, n_legal, state, rules, work, view, np.zeros(1))
    out_melds[:] = observation.melds
    out_tables[0, :] = observation.voids
    out_tables[1, :] = observation.won
    out_tables[2, :] = observation.declared
    out_tables[3, :] = observation.money
    return (observation.seat, observation.n_seats, observation.decision, observation.tile, observation.win_value,
            observation.n_melds, observation.legal.copy(), observation.hand.copy(), observation.unseen.copy(),
            observation.picked.copy())


@pytest.mark.parametrize("name,n,switches", GAMES[1:3], ids=str)
def test_the_numba_observation_shows_what_the_python_observation_shows(name, n, switches):
    """At every decision of real deals (the loop's own order: built-in answers), field by field; other
    seats' concealed kongs without their kind."""
    ruleset = game(name, switches)
    players = E.Players.parse(",".join(("greedy", "value", "defensive", "random")[:n]))
    rules, template = E.kernel_rules(ruleset)
    state, work = T.new_state(), T.new_work()
    view = new_player_view(T.new_state(), T.new_work(), rules, MAX_NUMBA_PARAMETERS)
    record = np.zeros(E.RECORD_WIDTH, np.int32)
    fans = np.zeros((T.MAX_SEATS, N_FANS), np.uint8)
    events = np.zeros((E.MAX_EVENTS, 4), np.int32)
    wall = template.copy()
    tables, melds = np.zeros((4, T.MAX_SEATS), np.int64), np.zeros((T.MAX_SEATS, 4, 2), np.int8)
    decisions, hidden_kongs = 0, 0
    for deal in range(30):
        E.start_deal(deal, deal % n, n, np.uint64(9), template, wall, rules, state, work, events, record, fans, False)
        while state.table[T.STEP] == E.STEP_DECIDE:
            count = T.legal_actions(state, rules, work, work.legal)
            money = tuple(int(record[E.R_WIN_MONEY + s] + record[E.R_KONG_MONEY + s]) for s in range(n))
            python = Observation(state, work, money, tuple(work.legal[:count].tolist()), deal, ruleset)
            E.seat_money(record, n, work.money)
            seat, seats, decision, tile, value, n_melds, legal, hand, unseen, picked = _observe(
                python.seat, count, state, rules, work, view, tables, melds)
            assert (seat, seats, n_melds) == (python.seat, n, python.n_melds[seat])
            assert tuple(legal) == python.legal_codes and np.array_equal(hand, python.hand)
            assert decision == python._decision and tuple(picked) == python.picked
            assert tile == (python.tile if python.tile is not None else python.drawn if python.drawn is not None else -1)
            assert value == (-1 if python.win_value is None else python.win_value)
            assert np.array_equal(melds[:n], python.melds)
            hidden_kongs += int((melds[:n, :, 1] == HIDDEN).sum())
            voids = tuple(None if start < 0 else "p" if start == T.PIN_START else "s" for start in tables[0, :n])
            assert voids == python.voids and tuple(tables[1, :n]) == python.won
            assert tuple(tables[2, :n].astype(bool)) == python.ready and tuple(tables[3, :n]) == python.money
            own_kongs = np.zeros(34, np.int8)
            for code, kind in python.melds[seat, : python.n_melds[seat]]:
                own_kongs[kind] += 4 if code == MELD_CONCEALED_KONG else 0
            assert np.array_equal(unseen, rules.tile_set - python.hand - python.visible - own_kongs)
            decisions += 1
            E.apply(E.builtin_action(players.kinds, players.parameters, state, rules, work), wall, rules, state, work,
                    events, record, fans, False)
    assert decisions > 30 * 20


def test_the_shared_shanten_and_ukeire_helpers_agree_with_the_two_suit_measures():
    rules, _ = E.kernel_rules(load_ruleset("sanren-liangfang"))
    scratch, distances = np.zeros((6, 10), np.int16), np.zeros(34, np.int64)
    rng = np.random.default_rng(3)
    wall = np.repeat(np.arange(T.FIRST_KIND, T.LAST_KIND + 1), 4)
    for size, n_melds in ((13, 0), (14, 0), (10, 1), (7, 2), (4, 3)):
        for _ in range(300):
            hand = np.bincount(rng.choice(wall, size, replace=False), minlength=34).astype(np.int8)
            assert shanten(hand, n_melds, rules, scratch) == T.shanten(hand, n_melds, rules.suit_table)
            if size % 3 == 1:
                live = (4 - hand).astype(np.int8)
                live[: T.FIRST_KIND] = 0
                live[T.LAST_KIND + 1 :] = 0
                expected = T.ukeire(hand, n_melds, live, rules.suit_table)[1]
                assert ukeire(hand, n_melds, live, rules, scratch, distances) == expected


def test_the_win_value_helper_gives_the_engines_value_of_a_win():
    ruleset = load_ruleset("liangmen-xuezhan")
    rules, _ = E.kernel_rules(ruleset)
    counts = np.zeros(N_FANS, np.int64)
    seat_melds = np.zeros((4, 2), np.int8)
    hand = np.bincount([9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 18, 18, 20], minlength=34).astype(np.int8)  # 1-9筒 111条 3条
    value = xuezhan_win_value(hand, seat_melds, 0, 20, SELF_DRAWN_FLAG, rules, counts)
    expected = score_win(hand, seat_melds, 0, 20, SELF_DRAWN_FLAG, rules, counts)
    assert value == expected > 0
    assert xuezhan_win_value(hand, seat_melds, 0, 21, SELF_DRAWN_FLAG, rules, counts) == -1
    assert hand.sum() == 13  # the hand is put back


@pytest.mark.parametrize("fail,what", [(1, "answered -7, not a legal action,"), (2, "raised ValueError: the test player gives up")])
def test_a_failing_numba_player_stops_the_run_naming_player_deal_seat_and_decision(fail, what):
    text = f"{__file__}:faulty:fail={fail}"
    players = E.Players.parse(["greedy", "greedy", text])
    with pytest.raises(PlayerFailure, match=rf"player {re.escape(text)} {what} at deal 3, seat 2, decision 'turn'"):
        E.play(load_ruleset("sanren-liangfang"), players, seed=1, n_deals=2, first_deal=3)


@njit
def erren_only(observation, parameters, rng):
    """Reads a field only the 二人 observation has."""
    return observation.legal[observation.opponent_hand[0]], rng


def test_a_numba_player_written_for_another_table_is_one_clear_error():
    players = E.Players.parse([f"{__file__}:erren_only", "greedy", "greedy"])
    with pytest.raises(PlayerError, match="erren_only: does not compile against the 血战 observation"):
        E.play(load_ruleset("sanren-liangfang"), players, seed=1, n_deals=2)


def test_run_duel_league_and_replay_seat_a_numba_player(mjsim, tmp_path):
    code, out, err = mjsim("run", "--ruleset", "liangmen-xuezhan", "--deals", "60", "--workers", "1",
                           "--players", f"{EXAMPLE},greedy,greedy,greedy", "--out", str(tmp_path / "run"))
    assert code == 0, err
    assert "60 deals" in out
    code, out, err = mjsim("duel", "--ruleset", "sanren-liangfang", EXAMPLE, "greedy", "--deals", "60")
    assert code == 0, err
    assert EXAMPLE in out
    code, out, err = mjsim("league", "--ruleset", "sanren-liangfang", "--seats", "2", EXAMPLE, "greedy", "value",
                           "--deals", "30")
    assert code == 0, err
    assert "numba_xuezhan" in out
    code, out, err = mjsim("replay", "--ruleset", "sanren-liangfang", "--deal", "2", "--players", f"{EXAMPLE},greedy")
    assert code == 0, err
    assert "result" in out and EXAMPLE in out

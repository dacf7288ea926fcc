"""Numba players at the MCR table as a specification: seated by the same texts as Python players, called inside
the compiled loop with the MCR numba observation (which shows what the Python observation shows, and no
more), replaying exactly, and stopped with the deal, seat and decision when they fail (sim.mcr.engine,
sim.mcr.observation, sim.mcr.numba_helpers, sim.players.numba_players)."""

import re

import numpy as np
import pytest
from numba import njit

from kernels.fan_ids import N_FANS, ROUND_WIND_SHIFT, SEAT_WIND_SHIFT, SELF_DRAWN_FLAG
from kernels.tiles import MELD_CONCEALED_KONG
from sim.core.actions import ACTION_BASE, DECISION_TURN, DISCARD, PASS, WIN
from sim.core.ruleset import load_ruleset
from sim.core.worker_processes import players_in_this_process
from sim.mcr import engine as E
from sim.mcr import table as T
from sim.mcr.numba_helpers import mcr_win_fans
from sim.mcr.observation import HIDDEN, Observation, new_seen_work, numba_observation
from sim.mcr.win_value import new_fan_work, score_win
from sim.players.numba_players import MAX_NUMBA_PARAMETERS, numba_player, shanten
from sim.players.player_text import PlayerError
from sim.players.player_view import new_player_view
from sim.players.user_players import PlayerFailure

RULESET = load_ruleset("mcr")
PLAYER = f"{__file__}:lowest_shanten"


def assert_no_violation(records):
    violations = records.columns["violation"]
    assert (violations == 0).all(), [E.VIOLATIONS[v] for v in np.unique(violations) if v]


@njit
def lowest_shanten(observation, parameters, rng):
    """Wins when offered; passes every claim; on a turn discards the first tile leaving the lowest shanten."""
    legal = observation.legal
    for action in legal:
        if action // ACTION_BASE == WIN:
            return action, rng
    if observation.decision != DECISION_TURN:
        for action in legal:
            if action // ACTION_BASE == PASS:
                return action, rng
        return legal[0], rng
    hand, work = observation.hand, observation.work
    chosen, best = legal[0], 99
    for action in legal:
        if action // ACTION_BASE != DISCARD:
            continue
        kind = action % ACTION_BASE
        hand[kind] -= 1
        after = shanten(hand, observation.n_melds, observation.rules, work.shanten_scratch)
        hand[kind] += 1
        if after < best:
            chosen, best = action, after
    return chosen, rng


@numba_player(fail=0.0)
@njit
def faulty(observation, parameters, rng):
    """Plays the first legal action, but on its turns answers illegally (fail=1) or raises (fail=2)."""
    if parameters[0] == 1 and observation.decision == DECISION_TURN:
        return -7, rng
    if parameters[0] == 2 and observation.decision == DECISION_TURN:
        raise ValueError("the test player gives up")
    return observation.legal[0], rng


@njit
def erren_only(observation, parameters, rng):
    """Reads a field only the 二人 observation has."""
    return observation.legal[observation.opponent_hand[0]], rng


def test_a_numba_player_plays_legally_among_python_players_and_heuristics_and_replays_exactly():
    texts = ["greedy", f"{E.__file__.rsplit('/sim/', 1)[0]}/examples/players/simple.py:Isolated", PLAYER, "random"]
    with players_in_this_process():  # only here does the parent load the players and know their kinds
        assert list(E.Players.parse(texts).kinds[1:3]) == [E.USER, E.NUMBA]
    players = E.Players.parse(texts)
    assert players.names[2] == PLAYER
    records = E.play(RULESET, players, seed=6, n_deals=120, validate=True)
    assert_no_violation(records)
    assert (records.columns["winner"] == 2).any()
    again = E.play(RULESET, players, seed=6, n_deals=120, validate=True)
    for column, values in records.columns.items():
        assert np.array_equal(values, again.columns[column]), column


@njit
def _observe(seat, n_legal, state, rules, work, view, out_flowers, out_melds):
    """The numba observation's arrays, copied out (a test cannot keep the views)."""
    observation = numba_observation(seat, n_legal, state, rules, work, view, np.zeros(1))
    out_melds[:] = observation.melds
    out_flowers[:] = observation.flowers
    return (observation.seat, observation.decision, observation.tile, observation.win_fans, observation.n_melds,
            observation.round_wind, observation.seat_wind, observation.min_fan, observation.legal.copy(),
            observation.hand.copy(), observation.unseen.copy(), observation.table[T.CLAIMER])


def test_the_numba_observation_shows_what_the_python_observation_shows():
    """At every decision of real deals (the built-in players answering), field by field; other seats'
    concealed kongs without their kind, and the answers others gave to the tile on offer hidden."""
    players = E.Players.parse("greedy,random,greedy,random")
    rules, template = E.kernel_rules(RULESET)
    state, work = T.new_state(), T.new_work()
    view = new_player_view(T.new_state(), new_seen_work(), rules, MAX_NUMBA_PARAMETERS)
    record = np.zeros(E.RECORD_WIDTH, np.int32)
    fans = np.zeros(N_FANS, np.uint8)
    events = np.zeros((E.MAX_EVENTS, 4), np.int32)
    wall = template.copy()
    flowers, melds = np.zeros(T.SEATS, np.int64), np.zeros((T.SEATS, 4, 2), np.int8)
    decisions, offered_wins = 0, 0
    for deal in range(24):
        E._lay_out(deal, np.uint64(9), template, wall)
        pending = E.start_wall(deal, np.uint64(9), wall, rules, state, work, events, record, fans, False)
        while pending:
            count = T.legal_actions(state, rules, work, work.legal)
            python = Observation(state, tuple(work.legal[:count].tolist()), deal, RULESET)
            seat, decision, tile, win_fans, n_melds, round_wind, seat_wind, min_fan, legal, hand, unseen, claimer = _observe(
                python.seat, count, state, rules, work, view, flowers, melds)
            assert (seat, n_melds, min_fan) == (python.seat, python.n_melds[seat], python.min_fan)
            assert tuple(legal) == python.legal_codes and np.array_equal(hand, python.hand)
            assert tile == (python.tile if python.tile is not None else python.drawn if python.drawn is not None else -1)
            assert win_fans == (-1 if python.win_fans is None else python.win_fans)
            offered_wins += win_fans >= 0
            assert (round_wind, seat_wind) == (python.round_wind, python.seat_wind) == (deal % 16 // 4, (seat - deal % 4) % 4)
            assert np.array_equal(melds, python.melds) and tuple(flowers) == python.flowers
            assert claimer == -1
            own_kongs = np.zeros(34, np.int8)
            for code, kind in python.melds[seat, : python.n_melds[seat]]:
                own_kongs[kind] += 4 if code == MELD_CONCEALED_KONG else 0
            assert np.array_equal(unseen, rules.tile_set - python.hand - python.visible - own_kongs)
            for other in range(T.SEATS):  # another seat's concealed kong shows no kind
                for index in range(python.n_melds[other]):
                    if other != seat and state.melds[other, index, 0] == MELD_CONCEALED_KONG:
                        assert melds[other, index, 1] == HIDDEN
            decisions += 1
            pending = E.apply(E.builtin_action(players.kinds, players.parameters, state, rules, work), wall, rules,
                              state, work, events, record, fans, False)
    assert decisions > 24 * 20 and offered_wins > 0


def test_the_win_fans_helper_gives_the_engines_fan_total_of_a_win():
    rules, _ = E.kernel_rules(RULESET)
    work = new_seen_work()
    melds = np.zeros((4, 2), np.int8)
    # 123m 456m 789m 123p + 5z pair, winning on the second 5z, self-drawn as the south seat in the east round
    hand = np.bincount([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 31], minlength=34).astype(np.int8)
    flags = SELF_DRAWN_FLAG | (1 << SEAT_WIND_SHIFT) | (0 << ROUND_WIND_SHIFT)
    total = mcr_win_fans(hand, melds, 0, 31, flags, rules, work)
    assert total == score_win(hand, melds, 0, 31, flags, 0, rules, new_fan_work()) >= 16  # 清龙 16 at least
    assert mcr_win_fans(hand, melds, 0, 30, flags, rules, work) == -1  # 4z does not complete it
    assert hand.sum() == 13  # the hand is put back


@pytest.mark.parametrize("fail,what", [(1, "answered -7, not a legal action,"), (2, "raised ValueError: the test player gives up")])
def test_a_failing_numba_player_stops_the_run_naming_player_deal_seat_and_decision(fail, what):
    text = f"{__file__}:faulty:fail={fail}"
    players = E.Players.parse(["greedy", "greedy", text, "greedy"])
    with pytest.raises(PlayerFailure) as failure:
        E.play(RULESET, players, seed=1, n_deals=2, first_deal=3)
    message = str(failure.value)
    assert message.startswith(f"player {text}") and "at deal 3, seat 2, decision 'turn'" in message
    assert re.search(re.escape(what), message)


def test_a_numba_player_written_for_another_table_is_one_clear_error():
    players = E.Players.parse([f"{__file__}:erren_only", "greedy", "greedy", "greedy"])
    with pytest.raises(PlayerError, match="erren_only: does not compile against the MCR observation"):
        E.play(RULESET, players, seed=1, n_deals=2)

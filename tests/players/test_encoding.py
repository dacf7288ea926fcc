"""The numeric observation (sim/<family>/encoding.py, docs/learning.md#the-observation): it equals its slow twin
(tests/naive_encoding.py) for every seat at every decision and at the end of the deal, stays within its declared
bounds, and shows a seat nothing it may not see: changing the hidden tiles (the other hands, another seat's
concealed kongs, the wall) and another seat's private fields leaves it unchanged, while the oracle's vector
sees the change."""

import dataclasses
import importlib

import numpy as np
import pytest
from naive_encoding import naive_vector

from kernels.tiles import MELD_CONCEALED_KONG, N_KINDS
from sim.core.ruleset import load_ruleset
from sim.families.environment import make_batch_environment, make_environment
from sim.players.encoding import Block, Layout

XUEZHAN_OPENINGS = {"exchange_three": True, "void_suit": True}
TABLES = [  # (ruleset, seats, 血战 switches)
    ("erren", None, {}), ("erren-classic", None, {}), ("erren-challenge", None, {}),
    ("liangmen-xuezhan", 4, {}), ("sanren-liangfang", 3, {}), ("sanren-liangfang", 2, {}),
    ("liangmen-xuezhan", 4, XUEZHAN_OPENINGS), ("sanren-liangfang", 3, XUEZHAN_OPENINGS), ("mcr", 4, {}),
]
DEALS = 6


def _environment(name, seats, switches):
    ruleset = load_ruleset(name)
    if switches:
        ruleset = dataclasses.replace(ruleset, xuezhan=dataclasses.replace(ruleset.xuezhan, **switches))
    return make_environment(ruleset) if seats is None else make_environment(ruleset, n_seats=seats)


def _moments(env, deals=DEALS, seed=11):
    """Every decision of `deals` greedy deals, and each deal's end: yields with the table at that moment."""
    for deal in range(deals):
        env.reset(seed, deal)
        while True:
            yield
            if env.terminated:
                break
            env.step(env.builtin_action("greedy"))


def _table_id(table):
    name, seats, switches = table
    return f"{name}-{seats or 2}{'-openings' if switches else ''}"


@pytest.mark.parametrize("table", TABLES, ids=_table_id)
def test_the_encoding_equals_its_slow_twin_for_every_seat_at_every_decision_and_the_end(table):
    env = _environment(*table)
    low, high = env.encoding_bounds(oracle=True)
    moments = 0
    for _ in _moments(env):
        moments += 1
        for seat in range(env.n_seats):
            vector, oracle = env.encode(seat), env.encode(seat, oracle=True)
            np.testing.assert_array_equal(vector, naive_vector(env, seat), err_msg=f"seat {seat}")
            np.testing.assert_array_equal(oracle, naive_vector(env, seat, oracle=True), err_msg=f"seat {seat}, oracle")
            assert ((oracle >= low) & (oracle <= high)).all(), np.flatnonzero((oracle < low) | (oracle > high))
            np.testing.assert_array_equal(oracle[: vector.shape[0]], vector)  # the oracle's vector extends the seat's
    assert moments > DEALS * 5


def _hidden_from(seat, env, rng):
    """Copies of the state, work and wall with what `seat` cannot see changed: the tiles of the hands it cannot
    see and of the wall dealt again among them (each hand keeping its size), other seats' concealed kongs of
    another kind, and, when the seat is not deciding, the decision's private fields and other seats' locks."""
    family = env.ruleset.family
    table_module = importlib.import_module(f"sim.{family}.table")
    state = type(env.state)(*(array.copy() for array in env.state))
    work = type(env.work)(*(array.copy() for array in env.work))
    wall = env.wall.copy()
    table = state.table
    n = env.n_seats
    shows_opponent = family == "erren" and table[table_module.READY + seat] == 1  # a ready 二人 seat sees the other hand
    hidden = [other for other in range(n) if other != seat and not shows_opponent]
    front, back = table[table_module.WALL_FRONT], table[table_module.WALL_BACK]
    positions = [position for position in range(front, back + 1) if wall[position] < N_KINDS]  # flowers stay put
    pool = [int(wall[position]) for position in positions]
    for other in hidden:
        pool += [kind for kind in range(N_KINDS) for _ in range(state.hands[other, kind])]
    rng.shuffle(pool)
    for other in hidden:
        size = int(state.hands[other].sum())
        state.hands[other] = np.bincount(np.array(pool[:size], np.int64), minlength=N_KINDS)
        pool = pool[size:]
        for index in range(table[table_module.N_MELDS + other]):
            if state.melds[other, index, 0] == MELD_CONCEALED_KONG:
                state.melds[other, index, 1] = rng.integers(N_KINDS)
    wall[positions] = pool
    if seat != env.agent_selection:
        for field in ("DRAWN", "WIN_TOTAL", "WIN_POINTS", "CAN_DOUBLE", "WIN_VALUE", "WIN_ALLOWED", "PICKED", "OFFER"):
            if hasattr(table_module, field):
                table[getattr(table_module, field)] = rng.integers(0, 3)
        if family == "xuezhan":
            work.exchange_choices[:] = rng.integers(0, N_KINDS, work.exchange_choices.shape)
    if family == "mcr":  # which claims the seats made of the tile on offer: no seat's to see, the decider's neither
        table[table_module.CLAIMER], table[table_module.CLAIM] = rng.integers(0, n), rng.integers(0, 1 << 10)
        if seat != env.agent_selection:
            table[table_module.OFFERED_BY], table[table_module.WIN_FLAGS] = rng.integers(0, n), rng.integers(0, 1 << 20)
    if family == "xuezhan":
        for other in range(n):
            if other != seat:
                for field in ("PONG_LOCK", "WIN_LOCK", "MISSED_VALUE", "PASSED_KONG"):
                    table[getattr(table_module, field) + other] = rng.integers(0, 1 << 20)
    return state, work, wall


def _encode(env, seat, state, work, wall, oracle):
    size = env.encoding.ORACLE_SIZE if oracle else env.encoding.SIZE
    out = np.zeros(size, np.int16)
    if env.ruleset.family == "xuezhan":  # the money so far, which the 血战 encoding reads from the work arrays
        importlib.import_module("sim.xuezhan.engine").seat_money(env.record, env.n_seats, work.money)
    env.encoding.encode(seat, seat == env.agent_selection, state, work, wall, env.record, env.rules, out)
    return out


@pytest.mark.parametrize("table", TABLES, ids=_table_id)
def test_changing_what_a_seat_cannot_see_leaves_its_encoding_unchanged(table):
    env = _environment(*table)
    rng = np.random.default_rng(5)
    changed = compared = 0
    for _ in _moments(env):
        for seat in range(env.n_seats):
            hidden = _hidden_from(seat, env, rng)
            compared += 1
            np.testing.assert_array_equal(_encode(env, seat, *hidden, False), env.encode(seat), err_msg=f"seat {seat}")
            changed += not np.array_equal(_encode(env, seat, *hidden, True), env.encode(seat, oracle=True))
    assert compared > DEALS * 10
    assert changed > compared / 2  # the change was real: the oracle, which sees it, mostly differs


@pytest.mark.parametrize("table", TABLES[:1] + TABLES[3:4] + TABLES[-1:], ids=_table_id)
def test_a_seat_that_is_not_deciding_sees_no_detail_of_the_decision(table):
    env = _environment(*table)
    for _ in _moments(env, deals=2):
        if env.terminated:
            continue
        actor = env.agent_selection
        for seat in range(env.n_seats):
            vector = env.encode(seat)
            decision = env.encoding.LAYOUT.start("decision")
            assert vector[decision : decision + 6].sum() == (seat == actor)


def test_a_layout_lays_its_blocks_end_to_end_with_their_bounds():
    layout = Layout((Block("a", 3, 0, 4, "three"), Block("b", 2, -1, 1, "two per seat", 2)))
    assert (layout.size, layout.start("a"), layout.start("b")) == (7, 0, 3)
    low, high = layout.bounds()
    assert low.tolist() == [0, 0, 0, -1, -1, -1, -1] and high.tolist() == [4, 4, 4, 1, 1, 1, 1]
    with pytest.raises(ValueError, match="two blocks named a"):
        Layout((Block("a", 1, 0, 1, ""), Block("a", 1, 0, 1, "")))


def test_encoding_a_seat_the_table_does_not_have_or_before_a_deal_is_one_clear_error():
    env = make_environment("erren")
    with pytest.raises(ValueError, match="reset the environment"):
        env.encode(0)
    env.reset(1)
    with pytest.raises(ValueError, match="seat"):
        env.encode(2)
    with pytest.raises(TypeError, match="seat"):
        env.encode(0.0)


BATCHED = [("erren", None, 1, "seat"), ("erren-challenge", None, 2, "oracle"), ("liangmen-xuezhan", 4, 2, "seat"),
           ("sanren-liangfang", 2, 1, "oracle"), ("mcr", 4, 2, "oracle")]


@pytest.mark.parametrize("ruleset,seats,threads,observation", BATCHED)
def test_the_batched_form_returns_the_encodings_a_single_table_gives(ruleset, seats, threads, observation):
    """Each table's observations, decision by decision, and every seat's final observation of each deal it
    ends (same-step autoreset: the step that ends a deal returns the next deal's first decision)."""
    n_tables, seed, oracle = 6, 3, observation == "oracle"
    options = {} if seats is None else {"n_seats": seats}
    batch = make_batch_environment(n_tables, ruleset, seed=seed, threads=threads, observation=observation, **options)
    low, high = batch.observation_bounds()
    batch.reset()
    assert batch.AUTORESET_MODE == "same-step" and not batch.terminated.any()
    deals = {table: [[]] for table in range(n_tables)}  # each deal's observations, in order
    finals = {table: [] for table in range(n_tables)}
    for _ in range(250):
        assert ((batch.observations >= low) & (batch.observations <= high)).all()
        for table in range(n_tables):
            deals[table][-1].append(batch.observations[table].copy())
        batch.step(batch.masks.argmax(axis=1))  # the lowest legal code: deterministic
        assert (batch.deals_ended == batch.terminated).all()  # every deal here has a decision: one ends at a time
        for table in np.flatnonzero(batch.terminated):
            finals[table].append(batch.final_observations[table].copy())
            deals[table].append([])
    single = make_environment(ruleset, **options)
    for table in range(n_tables):
        assert len(finals[table]) >= 2
        for played, final in enumerate(finals[table]):
            single.reset(seed, table + n_tables * played)
            expected = []
            while not single.terminated:
                expected.append(single.encode(single.agent_selection, oracle))
                single.step(min(single.observation.legal_codes))
            np.testing.assert_array_equal(np.array(deals[table][played]), np.array(expected))
            np.testing.assert_array_equal(final, [single.encode(seat, oracle) for seat in range(single.n_seats)])


def test_a_batch_that_encodes_nothing_has_empty_observations_and_refuses_an_unknown_kind():
    batch = make_batch_environment(2, "erren", observation="none")
    batch.reset()
    assert batch.observations.shape == (2, 0) and batch.final_observations.shape == (2, 2, 0)
    with pytest.raises(ValueError, match="observation must be one of seat, oracle, none"):
        make_batch_environment(2, "erren", observation="hands")


@pytest.mark.parametrize("family", ["erren", "xuezhan", "mcr"])
def test_the_docs_list_each_family_s_blocks_as_its_layout_has_them(family):
    from pathlib import Path

    from sim.rl.observations import layout_table

    encoding = importlib.import_module(f"sim.{family}.encoding")
    page = (Path(__file__).resolve().parents[2] / "docs" / "learning.md").read_text(encoding="utf-8")
    assert layout_table(encoding.ORACLE_LAYOUT) in page
    assert f"{encoding.SIZE} entries, {encoding.ORACLE_SIZE} with the oracle's" in page

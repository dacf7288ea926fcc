"""The step environments refuse a bad argument in Python, with a TypeError or ValueError that names it,
before it reaches numba (where a dealer seat the table lacks is read out of bounds, and a float is
truncated), and leave the table as it was; in every family, single and batched (sim.families.environment)."""

import math

import numpy as np
import pytest

from sim.core.actions import N_ACTIONS
from sim.families.environment import make_batch_environment, make_environment
from sim.players.environment import MAX_DEAL, MAX_SEED
from sim.players.user_players import Action, PlayerFailure

# (ruleset, seats at the table)
TABLES = [("erren", 2), ("erren-challenge", 2), ("liangmen-xuezhan", 4), ("sanren-liangfang", 3), ("sanren-liangfang", 2),
          ("mcr", 4)]


def environment(ruleset, seats, **options):
    if ruleset.startswith("erren"):
        return make_environment(ruleset, **options)
    return make_environment(ruleset, n_seats=seats, **options)


def snapshot(table):
    return ([array.copy() for array in table.state], table.seed, table.deal, table.observation.legal_codes)


def unchanged(table, before) -> bool:
    arrays, seed, deal, legal = before
    same = all(np.array_equal(now, then) for now, then in zip(table.state, arrays, strict=True))
    return same and (table.seed, table.deal, table.observation.legal_codes) == (seed, deal, legal)


@pytest.mark.parametrize(("ruleset", "seats"), TABLES)
@pytest.mark.parametrize("dealer", ["seats", "seats + 5", -1])
def test_reset_refuses_a_dealer_seat_the_table_does_not_have(ruleset, seats, dealer):
    table = environment(ruleset, seats)
    table.reset(seed=3, deal=1)
    before = snapshot(table)
    bad = {"seats": seats, "seats + 5": seats + 5}.get(dealer, dealer)
    with pytest.raises(ValueError, match=f"dealer.*not {bad}"):
        table.reset(seed=3, deal=2, dealer=bad)
    assert unchanged(table, before)


@pytest.mark.parametrize(("ruleset", "seats"), TABLES[::2])
@pytest.mark.parametrize("dealer", [1.0, 0.9, True, "1", math.nan])
def test_reset_refuses_a_dealer_that_is_not_a_whole_number(ruleset, seats, dealer):
    table = environment(ruleset, seats)
    table.reset(seed=3)
    before = snapshot(table)
    with pytest.raises(TypeError, match="dealer.*whole number"):
        table.reset(seed=3, deal=2, dealer=dealer)
    assert unchanged(table, before)


@pytest.mark.parametrize(("ruleset", "seats"), TABLES[::2])
@pytest.mark.parametrize(("argument", "value", "error"), [
    ("seed", -1, ValueError), ("seed", MAX_SEED + 1, ValueError), ("seed", 1.5, TypeError), ("seed", 2.0, TypeError),
    ("seed", True, TypeError), ("seed", "7", TypeError), ("seed", None, TypeError),
    ("deal", -1, ValueError), ("deal", MAX_DEAL + 1, ValueError), ("deal", 0.5, TypeError), ("deal", False, TypeError),
    ("deal", math.inf, TypeError),
])
def test_reset_refuses_a_seed_or_deal_out_of_range_or_not_a_whole_number(ruleset, seats, argument, value, error):
    table = environment(ruleset, seats)
    table.reset(seed=3)
    before = snapshot(table)
    with pytest.raises(error, match=argument):
        table.reset(**{"seed": 3, "deal": 1, argument: value})
    assert unchanged(table, before)


@pytest.mark.parametrize(("ruleset", "seats"), TABLES[::2])
def test_reset_takes_numpy_integers_and_the_largest_seed_and_deal(ruleset, seats):
    table = environment(ruleset, seats)
    table.reset(seed=np.uint64(MAX_SEED), deal=np.int64(MAX_DEAL), dealer=np.int8(seats - 1))
    assert (table.seed, table.deal, table.state.table[type(table).ACTOR] >= 0) == (MAX_SEED, MAX_DEAL, True)
    by_numpy = table.reset(seed=np.int32(4), deal=np.uint16(9), dealer=np.int64(1)).legal_codes
    assert table.reset(seed=4, deal=9, dealer=1).legal_codes == by_numpy


@pytest.mark.parametrize(("ruleset", "seats"), TABLES[::2])
@pytest.mark.parametrize("action", [2.9, 2.0, math.nan, "3", None, True, np.float32(1), [1]])
def test_step_refuses_a_value_that_is_not_an_action(ruleset, seats, action):
    table = environment(ruleset, seats)
    table.reset(seed=3)
    before = snapshot(table)
    with pytest.raises(TypeError, match="Action or its integer code"):
        table.step(action)
    assert unchanged(table, before)


@pytest.mark.parametrize(("ruleset", "seats"), TABLES[::2])
@pytest.mark.parametrize("code", [-1, N_ACTIONS, 2**70])
def test_step_refuses_a_code_that_is_no_legal_action(ruleset, seats, code):
    table = environment(ruleset, seats)
    table.reset(seed=3)
    before = snapshot(table)
    with pytest.raises(PlayerFailure, match="not a legal action"):
        table.step(code)
    assert unchanged(table, before)


@pytest.mark.parametrize(("ruleset", "seats"), TABLES[::2])
def test_step_takes_an_action_its_code_or_a_numpy_integer_alike(ruleset, seats):
    results = []
    for kind in (Action, int, np.int16, np.uint64):
        table = environment(ruleset, seats)
        observation = table.reset(seed=5, deal=3)
        for _ in range(6):
            if observation is None:
                break
            action = observation.legal_actions[-1]
            observation = table.step(action if kind is Action else kind(action.code))
        results.append([array.copy() for array in table.state])
    for other in results[1:]:
        assert all(np.array_equal(a, b) for a, b in zip(results[0], other, strict=True))


BATCHES = [("erren", 2), ("liangmen-xuezhan", 4), ("sanren-liangfang", 2), ("mcr", 4)]


def batch(ruleset, seats, n_tables=3, **options):
    if not ruleset.startswith("erren"):
        options["n_seats"] = seats
    return make_batch_environment(n_tables, ruleset, **{"seed": 2, **options})


def batch_state(tables):
    return [getattr(tables, name).copy() for name in ("tables", "masks", "actors", "hands", "next_deal")]


@pytest.mark.parametrize(("ruleset", "seats"), BATCHES)
@pytest.mark.parametrize(("actions", "error", "message"), [
    ("legal as floats", TypeError, "integer action codes, not an array of float64"),
    ("legal plus a half", TypeError, "integer action codes"),
    ("nan", TypeError, "integer action codes"),
    ("as text", TypeError, "integer action codes"),
    ("bools", TypeError, "integer action codes"),
    ("one short", ValueError, r"shape \(3,\), not \(2,\)"),
    ("a column", ValueError, r"shape \(3,\), not \(3, 1\)"),
    ("negative", ValueError, "table 1: action -1 is not an action code"),
    ("past the last code", ValueError, f"table 1: action {N_ACTIONS} is not an action code"),
    ("huge unsigned", ValueError, f"table 1: action {2**64 - 1} is not an action code"),
])
def test_a_batched_step_refuses_an_array_that_is_not_one_action_code_per_table(ruleset, seats, actions, error, message):
    tables = batch(ruleset, seats)
    tables.reset()
    legal = tables.masks.argmax(axis=1)
    given = {
        "legal as floats": legal.astype(float), "legal plus a half": legal + 0.5,
        "nan": np.where(np.arange(3) == 1, np.nan, legal), "as text": legal.astype(str), "bools": np.ones(3, bool),
        "one short": legal[:2], "a column": legal[:, None], "negative": np.where(np.arange(3) == 1, -1, legal),
        "past the last code": np.where(np.arange(3) == 1, N_ACTIONS, legal),
        "huge unsigned": np.where(np.arange(3) == 1, np.uint64(2**64 - 1), legal.astype(np.uint64)),
    }[actions]
    before = batch_state(tables)
    with pytest.raises(error, match=message):
        tables.step(given)
    assert all(np.array_equal(now, then) for now, then in zip(batch_state(tables), before, strict=True))
    tables.step(legal.astype(np.int16))  # any integer dtype will do
    assert tables.decisions == 3


@pytest.mark.parametrize(("ruleset", "seats"), BATCHES)
@pytest.mark.parametrize(("options", "error", "match"), [
    ({"n_tables": 0}, ValueError, "n_tables"), ({"n_tables": 2.0}, TypeError, "n_tables"),
    ({"n_tables": True}, TypeError, "n_tables"), ({"threads": 4}, ValueError, "threads"),
    ({"threads": 1.5}, TypeError, "threads"), ({"seed": -1}, ValueError, "seed"),
    ({"seed": MAX_SEED + 1}, ValueError, "seed"), ({"seed": 0.5}, TypeError, "seed"),
])
def test_a_batch_environment_refuses_a_table_count_thread_count_or_seed_it_cannot_use(ruleset, seats, options, error,
                                                                                     match):
    options = dict(options)  # the parameters are shared between the rulesets' cases
    n_tables = options.pop("n_tables", 3)
    with pytest.raises(error, match=match):
        batch(ruleset, seats, n_tables, **options)


@pytest.mark.parametrize(("ruleset", "seats"), BATCHES)
@pytest.mark.parametrize(("options", "error", "match"), [
    ({"stake": math.nan}, ValueError, "stake"), ({"stake": 0}, ValueError, "stake"),
    ({"stake": "1"}, TypeError, "stake"), ({"stake": True}, TypeError, "stake"),
    ({"fee": -1}, ValueError, "fee"), ({"fee": math.inf}, ValueError, "fee"),
    ({"opponents": {"a seat too many": "greedy"}}, ValueError, "opponent's seat"),
    ({"opponents": {1.0: "greedy"}}, TypeError, "opponent's seat"),
    ({"opponents": {1: 3}}, TypeError, "player's text"), ({"opponents": ["greedy"]}, TypeError, "opponents"),
])
def test_an_environment_refuses_money_or_opponents_it_cannot_use(ruleset, seats, options, error, match):
    if "opponents" in options and "a seat too many" in options["opponents"]:
        options = {"opponents": {seats: "greedy"}}
    with pytest.raises(error, match=match):
        environment(ruleset, seats, **options)
    with pytest.raises(error, match=match):
        batch(ruleset, seats, **options)


@pytest.mark.parametrize(("ruleset", "seats"), BATCHES)
def test_an_environment_leaves_at_least_one_seat_to_the_agent(ruleset, seats):
    # opponents at every seat would never ask the agent: a batch would loop for ever inside numba
    everyone = {seat: "random" for seat in range(seats)}
    with pytest.raises(ValueError, match=f"fill all {seats} seats"):
        environment(ruleset, seats, opponents=everyone)
    with pytest.raises(ValueError, match=f"fill all {seats} seats"):
        batch(ruleset, seats, opponents=everyone)
    all_but_one = {seat: "random" for seat in range(1, seats)}
    tables = batch(ruleset, seats, opponents=all_but_one)
    tables.reset()
    assert (tables.actors == 0).all()  # every table waits on the one seat left to the agent


@pytest.mark.parametrize("n_seats", [2.5, True, 4, 9])
def test_a_xuezhan_environment_refuses_a_seat_count_the_ruleset_does_not_play(n_seats):
    with pytest.raises((TypeError, ValueError), match="n_seats|players, not"):
        make_environment("sanren-liangfang", n_seats=n_seats)
    with pytest.raises((TypeError, ValueError), match="n_seats|players, not"):
        make_batch_environment(2, "sanren-liangfang", n_seats=n_seats)


def test_an_environment_refuses_a_ruleset_of_another_family_or_not_a_ruleset():
    from sim.erren.environment import BatchEnvironment as ErrenBatch
    from sim.erren.environment import Environment as ErrenEnvironment
    from sim.xuezhan.environment import Environment as XuezhanEnvironment

    with pytest.raises(ValueError, match="family-erren rulesets, not liangmen-xuezhan"):
        ErrenEnvironment("liangmen-xuezhan")
    with pytest.raises(ValueError, match="family-erren rulesets, not sanren-liangfang"):
        ErrenBatch(2, "sanren-liangfang")
    with pytest.raises(ValueError, match="family-xuezhan rulesets, not erren-classic"):
        XuezhanEnvironment("erren-classic")
    with pytest.raises(TypeError, match="a ruleset is a name"):
        make_environment(42)

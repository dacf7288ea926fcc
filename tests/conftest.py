"""Shared test helpers: the naive references compiled by numba, random hands from fixed seeds, the command
line run in-process, and small hand-made deal records."""

import importlib.util
import inspect
import os
import sys
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

from kernels.tiles import N_KINDS
from sim import cli
from sim.commands.benchmark import random_hands  # noqa: F401  (shared with the tests)

NAIVE_PATH = Path(__file__).parent / "kernels" / "naive.py"


def _compiled_naive():
    """A second copy of tests/kernels/naive.py with every function compiled by numba (the same source)."""
    spec = importlib.util.spec_from_file_location("naive_compiled", NAIVE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, function in inspect.getmembers(module, inspect.isfunction):
        if function.__module__ == module.__name__:
            setattr(module, name, numba.njit(function))
    return module


# On a cold numba cache most of the suite's time is the two engines compiling (minutes each, on one core).
# pytest-xdist hands the files out largest first, so both workers may start on erren files and compile the
# erren engine side by side while nobody compiles the 血战 one. In a run of the suite on two or more workers,
# the first worker brings in the erren engine and the second the 血战 engine before their first test, so the
# two compile at once; each then finds the other's in the cache (or the parts of it already written). The
# calls are the tests' own (same types: nothing extra is compiled); on a warm cache they only load.
def _erren_engine():
    from sim.core.ruleset import load_ruleset
    from sim.erren import engine

    engine.play(load_ruleset("erren"), engine.Players.parse("greedy,greedy"), seed=1, n_deals=2)


def _xuezhan_engine():
    from sim.core.ruleset import load_ruleset
    from sim.families import family_of

    ruleset = load_ruleset("liangmen-xuezhan")
    family = family_of(ruleset)
    family.engine.play(ruleset, family.parse_players(["greedy"] * 4, 4), 1, 2)


ENGINE_OF_WORKER = {"gw0": _erren_engine, "gw1": _xuezhan_engine}


@pytest.fixture(scope="session", autouse=True)
def _engines_compiled_on_different_workers(request):
    bring_in = ENGINE_OF_WORKER.get(os.environ.get("PYTEST_XDIST_WORKER", ""))
    if bring_in is not None and len({item.path for item in request.session.items}) >= 10:
        try:
            bring_in()
        except Exception:  # noqa: BLE001  (the tests that play it report the failure)
            pass


@pytest.fixture(scope="session")
def compiled_naive():
    return _compiled_naive()


@pytest.fixture
def mjsim(monkeypatch, capsys):
    """The command line run in-process: mjsim("run", "--deals", "10") -> (exit status, stdout, stderr)."""

    def run(*arguments):
        monkeypatch.setattr(sys, "argv", ["mjsim", *arguments])
        code = 0
        try:
            cli.main()
        except SystemExit as exit:
            code = exit.code or 0
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def deal_records(rows):
    """A records frame with just the columns settlement reads, one (winner, dealer, fan_total, flowers_0,
    flowers_1, doubles_0, doubles_1) tuple per deal."""
    columns = ["winner", "dealer", "fan_total", "flowers_0", "flowers_1", "doubles_0", "doubles_1"]
    return pd.DataFrame(rows, columns=columns)


def near_complete_hands(rng, n_hands, kinds, n_melds, n_tiles):
    """Hands close to complete: a random complete shape of 4 - n_melds sets and a pair (four copies at
    most), then tiles swapped for random ones and trimmed to `n_tiles`, so ready and one-away hands are common."""
    kinds = np.asarray(kinds)
    suited = kinds[kinds < 27]
    chow_starts = suited[(suited % 9 <= 6) & np.isin(suited + 1, kinds) & np.isin(suited + 2, kinds)]
    hands = np.zeros((n_hands, N_KINDS), np.int8)
    for hand in hands:
        while True:
            hand[:] = 0
            for _ in range(4 - n_melds):
                if chow_starts.size and rng.random() < 0.5:
                    start = rng.choice(chow_starts)
                    hand[start : start + 3] += 1
                else:
                    hand[rng.choice(kinds)] += 3
            hand[rng.choice(kinds)] += 2
            if hand.max() <= 4:
                break
        for _ in range(rng.integers(0, 3)):
            held = np.flatnonzero(hand)
            hand[rng.choice(held)] -= 1
            free = kinds[hand[kinds] < 4]
            hand[rng.choice(free)] += 1
        while hand.sum() > n_tiles:
            hand[rng.choice(np.flatnonzero(hand))] -= 1
    return hands

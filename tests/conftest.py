"""Shared test helpers: the naive references compiled by numba, random hands from fixed seeds, the command
line run in-process, and small hand-made deal records."""

import importlib.util
import inspect
import sys
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

from kernels.tiles import N_KINDS
from sim import cli
from sim.benchmark import random_hands  # noqa: F401  (shared with the tests)

NAIVE_PATH = Path(__file__).with_name("naive.py")


def _compiled_naive():
    """A second copy of tests/naive.py with every function compiled by numba (the same source)."""
    spec = importlib.util.spec_from_file_location("naive_compiled", NAIVE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, function in inspect.getmembers(module, inspect.isfunction):
        if function.__module__ == module.__name__:
            setattr(module, name, numba.njit(function))
    return module


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

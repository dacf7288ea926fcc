"""``mjsim warmup``: compile ahead of time, into the cache every later process loads, what the everyday commands
of some rulesets use: a run of each (its players' deal loop, records and tables), ``mjsim score`` of each,
and ``mjsim shanten``. A machine or a container image pays the compiling once, and its first real command
starts playing at once (kernels/compile_cache.py says how the cache is keyed)."""

import tempfile
import time
from pathlib import Path

import numpy as np

from kernels.tiles import SUIT_LETTERS, SUIT_SIZE, TILE_SETS
from sim.commands.hand_report import analyse
from sim.core.notation import parse_hand
from sim.core.ruleset import load_ruleset
from sim.families import default_texts
from sim.families.scoring import WinContext, parse_scoring_input, score
from sim.players.player_text import players_label
from sim.runs import runner


def seven_pairs_text(tile_set: str) -> tuple[str, str]:
    """A winning hand every shipped ruleset scores (seven pairs of the first suit of its wall), with its
    winning tile: ('1122334455667m', '7m')."""
    first = int(np.flatnonzero(np.asarray(TILE_SETS[tile_set]) > 0)[0])
    suit = SUIT_LETTERS[first // SUIT_SIZE]
    return f"1122334455667{suit}", f"7{suit}"


def warm(rulesets: list[str], players=None, progress=None) -> list[tuple[str, float]]:
    """Compile (or load) what each ruleset's run and score use, then the shanten report; (what, seconds)
    for each step. `players`: the run's player texts (default the run's own default)."""
    steps = []
    with tempfile.TemporaryDirectory(prefix="mjsim-warmup-") as work:
        for index, ruleset_id in enumerate(rulesets):
            ruleset = load_ruleset(ruleset_id)
            started = time.perf_counter()
            seats = runner.seated_players(ruleset, players)
            config = runner.RunConfig(ruleset_id, seats.names, 2, 1)
            runner.run(config, Path(work) / str(index), workers=1)  # two files may share an id
            hand_text, win_text = seven_pairs_text(ruleset.tile_set)
            hand, win = parse_scoring_input(hand_text, win_text)
            score(hand, win, WinContext(), ruleset)
            label = players_label(seats.names, default_texts(ruleset))
            steps.append((f"{ruleset.id}: a run of {label}, and score", time.perf_counter() - started))
            if progress is not None:
                progress()
    started = time.perf_counter()
    analyse(parse_hand("123456789m1357z"))
    steps.append(("shanten", time.perf_counter() - started))
    if progress is not None:
        progress()
    return steps

"""``mjsim calibrate-ev``'s fitting runs: ev reporting its search's chances against an opponent at each table,
played as resumable runs, and every report with whether its seat went on to win (``sim.players.ev_calibration``
fits the curves from them).
"""

import json
from pathlib import Path

import numpy as np

from kernels.compile_cache import source_key
from sim.core.ruleset import load_ruleset
from sim.core.run_directory import RunError
from sim.core.run_records import RunConfig, load_run, read_win_chances
from sim.families import calibration_tables, family_of
from sim.players.ev_calibration import DEFAULT_OPPONENT, FITTING_PLAYER, N_ESTIMATES, decode
from sim.runs.runner import run


def fitting_runs(deals: int, seed: int, directory: Path, tables=None, workers: int = 0, progress=None,
                 opponent: str = DEFAULT_OPPONENT) -> dict:
    """ev (report=2) against `opponent` in every other seat at each of `tables` (indices into
    ``sim.families.calibration_tables()``; default all), `deals` deals each, as runs in directory/<table>, resumed where one was cut short; a run
    played by other code or another lineup is refused (its reports would fit another ev). Returns (table,
    estimate) -> (the search's chances, won) of every report."""
    reports = {}
    every = calibration_tables()
    for table in tables if tables is not None else range(len(every)):
        name, ruleset_id, seats = every[table]
        place = Path(directory) / name
        started = (place / "run.json").is_file()
        players = (FITTING_PLAYER,) + (opponent,) * (seats - 1)
        if started:
            stored = json.loads((place / "run.json").read_text(encoding="utf-8"))
            if stored.get("source_hash") != source_key():
                raise RunError(f"{place} was played by other code than this; remove it to fit on new runs")
            wanted = list(family_of(load_ruleset(ruleset_id)).engine.Players.parse(list(players), seats).names)
            if stored.get("players") != wanted:
                raise RunError(f"{place} holds another lineup ({' v '.join(stored.get('players') or [])}); "
                               "remove it or fit elsewhere (--out)")
        records = run(RunConfig(ruleset_id, players, deals, seed), place, workers, resume=started,
                      progress=progress).records
        config, ruleset = load_run(place)
        chances = read_win_chances(place, config, ruleset)
        won = family_of(ruleset).money.seat_wins(records)
        rows = np.searchsorted(records["deal"].to_numpy(), chances["deal"].to_numpy())
        outcome = won[rows, chances["seat"].to_numpy().astype(np.int64)]
        estimate, chance = decode(chances["chance"].to_numpy().astype(np.float64))
        for index in range(N_ESTIMATES):
            mine = estimate == index
            reports[(table, index)] = (chance[mine], outcome[mine].astype(np.float64))
    return reports

"""``mjsim calibrate-ev``: its options checked, its fitting runs (ev reporting its search's chances against an
opponent at each table, played as resumable runs, and every report with whether its seat went on to win), and
the curves ``sim.players.ev_calibration`` fits from them written as its table, with where they came from.
"""

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kernels.compile_cache import source_key
from sim.commands.options import UserError, within
from sim.core.result_files import versions
from sim.core.ruleset import load_ruleset
from sim.core.run_directory import RunError
from sim.core.run_records import RunConfig, load_run, read_win_chances
from sim.core.size_limits import LARGEST_DEALS, LARGEST_SEED
from sim.families import calibration_tables, family_of
from sim.players import ev_calibration
from sim.players.ev_calibration import DEFAULT_OPPONENT, FITTING_PLAYER, N_ESTIMATES, decode
from sim.runs.runner import run


@dataclass(frozen=True)
class Plan:
    """A refit, its options checked: the tables' names (of ``calibration_tables()``), their runs' directory."""

    deals: int
    seed: int
    tables: list[str]
    opponent: str
    directory: Path


def _one_opponent(text: str, ruleset_ids: list[str]) -> str:
    """The --opponents text, checked as a built-in player of every ruleset to fit (a user's player is not:
    the curves ship with mjsim)."""
    text = text.strip()
    for ruleset_id in dict.fromkeys(ruleset_ids):
        family = family_of(load_ruleset(ruleset_id))
        name = text.partition(":")[0].strip()
        if name not in family.players.NAMES and name not in family.players.NUMBA_PLAYERS:
            raise UserError(f"--opponents {text!r}: not a built-in player of {ruleset_id} "
                            f"({', '.join([*family.players.NAMES, *family.players.NUMBA_PLAYERS])})")
        seats = load_ruleset(ruleset_id).players[0]  # the ruleset's own seat count (MCR's Players refuse two)
        family.engine.Players.parse([text] * seats, seats)  # a malformed parameter raises PlayerError: one line
    return text


def _file_part(text: str) -> str:
    """A player text as part of a directory name."""
    return "".join(character if character.isalnum() or character in "-_." else "_" for character in text)


def plan(deals: int, seed: int, tables: str | None, out: Path | None, opponents: str) -> Plan:
    """The refit `mjsim calibrate-ev` asked for: `tables` comma-separated (None: all), the runs under `out`
    (default results/ev-calibration-seed<seed>, with the opponent where it is not the default)."""
    within("--deals", deals, 1, LARGEST_DEALS)
    within("--seed", seed, 0, LARGEST_SEED)
    every = calibration_tables()
    names = [name for name, _, _ in every]
    chosen = names if tables is None else [name.strip() for name in tables.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in names]
    if unknown or not chosen:
        raise UserError(f"unknown table {unknown[0] if unknown else tables!r}; the tables are {', '.join(names)}")
    opponent = _one_opponent(opponents, [every[names.index(name)][1] for name in chosen])
    against = "" if opponent == DEFAULT_OPPONENT else f"-{_file_part(opponent)}"
    return Plan(deals, seed, chosen, opponent, out or Path("results") / f"ev-calibration-seed{seed}{against}")


def refit(plan: Plan, workers: int = 0, progress=None) -> str:
    """Play the fitting runs, fit the chosen tables' curves and write sim/players/ev_calibration_table.py (the
    others' curves kept); what `mjsim calibrate-ev` prints: each curve's largest gap, and the file written."""
    every = calibration_tables()
    names = [name for name, _, _ in every]
    reports = fitting_runs(plan.deals, plan.seed, plan.directory, [names.index(name) for name in plan.tables], workers,
                           progress=progress, opponent=plan.opponent)
    path = Path(ev_calibration.__file__).with_name("ev_calibration_table.py")
    provenance = {"last refitted": f"{', '.join(plan.tables)}, on {plan.deals:,} deals of ev against {plan.opponent} each, "
                                   f"seed {plan.seed}",
                  "versions": ", ".join(f"{name} {value}" for name, value in versions().items())}
    curves = ev_calibration.write_table(reports, path, provenance, f"{plan.deals:,} deals, seed {plan.seed}", plan.opponent, every)
    lines = [f"{table:20} {estimate:16} {count:>10,} reports, largest gap of a tenth {worst:.1f} standard errors"
             for table, estimate, count, worst in ev_calibration.gaps(curves, reports, every)]
    return "".join(line + "\n" for line in lines) + f"wrote {path}\n"


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

"""What ``ev`` says its chance of winning is: its search's chance, calibrated by a fitted table.

ev's search gives a chance of winning the deal with every discard (``sim.erren.ev``, ``sim.xuezhan.ev``), by
one of four estimates: the race of a ready hand (0), the search one draw ahead of a hand one tile from
ready (1), two draws ahead (2, at depth 2), or the walk of a hand further away (3). Its models of the
opponents are simple, so these chances are only roughly right. The chance ev reports is the search's
chance passed through a table fitted on ev's own games against greedy: for each table ev plays at and each
estimate, a non-decreasing step curve from the search's chance to the share of such reports made in deals
ev went on to win (the reports binned, each bin's won share, made non-decreasing: ``fit_curve``). A report
takes the value of its bin, so reports that fall in a bin come true as often as that bin's did, and the
curve is calibrated for the lineup it was fitted on by construction; the run's calibration table
(analysis.calibration) checks it on other deals. Each table's curves hold for one lineup (``LINEUPS``: ev at
its default parameters against greedy, unless refitted with ``--opponents``); a run that seats ev in any other
lineup gets one line saying its chances are uncalibrated for that lineup and how to fit them
(``sim.runs.calibration_lineups.lineup_note``).

``mjsim calibrate-ev`` plays the fitting runs (``sim.commands.calibrate_ev``) (``ev:report=2``, which reports the search's chance and its
estimate coded together, against ``--opponents``, greedy by default; kept in
``results/ev-calibration-seed<seed>/``, where a run cut short is resumed and one played by other code or
another lineup refused) and writes ``sim/players/ev_calibration_table.py``; ``calibrated`` reads it
inside numba. The fitting runs play at ev's default depth, 1, so the two-draw estimate of depth 2 has no
curve of its own and is read with the one-draw curve.
The tables: ``TABLES``, one per shipped ruleset and seat count (``sim.families.calibration_tables``, read
from the families' registry when they are fitted); a ruleset file of one's own is read with the table of the
nearest shipped one (sim.erren.ev.table_key, sim.xuezhan.ev.table_key).
"""

import math
from pathlib import Path

import numpy as np
from numba import njit

from sim.core.result_files import write_text_atomically
from sim.players import ev_calibration_table as fitted

ESTIMATES = ("ready race", "one draw ahead", "two draws ahead", "walk from far")
N_ESTIMATES = len(ESTIMATES)
READY_RACE, ONE_DRAW, TWO_DRAWS, WALK_FROM_FAR = range(N_ESTIMATES)
# What ev reports (its parameter `report`): the search's chance, the calibrated chance, or both coded for fitting.
REPORT_SEARCH, REPORT_CALIBRATED, REPORT_CODED = 0, 1, 2
CODED_SCALE = 0.999  # coded = (estimate + CODED_SCALE x chance) / N_ESTIMATES: every estimate its own quarter
TABLES = fitted.TABLES  # (name, ruleset, seats): the families' tables when last fitted (sim.families.calibration_tables)
MAX_KNOTS = 48
MIN_REPORTS_PER_KNOT = 2_000
FITTING_PLAYER = "ev:report=2"  # the fitting runs' ev: default parameters, its reports coded
DEFAULT_OPPONENT = "greedy"


@njit(cache=True, _nrt=False)
def calibrated(chance, estimate, table):
    """The calibrated chance of the search's `chance` made by `estimate` at `table`: the value of the first
    step of the fitted curve whose upper end it does not pass (the last step's beyond them all; the search's
    chance itself where no curve was fitted; the one-draw curve for the two-draw estimate without its own)."""
    if estimate == TWO_DRAWS and fitted.COUNTS[table, estimate] == 0:
        estimate = ONE_DRAW
    knots = fitted.KNOTS[table, estimate]
    count = fitted.COUNTS[table, estimate]
    if count == 0:
        return chance
    for index in range(count - 1):
        if chance <= knots[index, 0]:
            return knots[index, 1]
    return knots[count - 1, 1]


@njit(cache=True, _nrt=False)
def report(chance, estimate, table, mode):
    """What ev writes to observation.win_chance under its parameter `report` (module text)."""
    chance = min(1.0, max(0.0, chance))
    if mode == REPORT_SEARCH:
        return chance
    if mode == REPORT_CODED:
        return (estimate + CODED_SCALE * chance) / N_ESTIMATES
    return min(1.0, max(0.0, calibrated(chance, estimate, table)))


def decode(coded: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(estimate, the search's chance) of reports made with ``report=2``."""
    estimate = np.minimum((coded * N_ESTIMATES).astype(np.int64), N_ESTIMATES - 1)
    return estimate, np.clip((coded * N_ESTIMATES - estimate) / CODED_SCALE, 0.0, 1.0)


def table_named(name: str) -> int:
    """The index of the fitted table `name` (``TABLES``): the number ev's numba code reads its curves by."""
    names = [table[0] for table in TABLES]
    if name not in names:
        raise KeyError(f"ev's calibration has no table {name!r} (it has {', '.join(names)}); fit it with mjsim calibrate-ev")
    return names.index(name)


def isotonic(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The non-decreasing sequence closest to `values` in weighted least squares (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [weighted sum, weight, count]
    for value, weight in zip(values, weights, strict=True):
        blocks.append([value * weight, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, mass, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += mass
            blocks[-1][2] += count
    return np.concatenate([np.full(count, total / mass) for total, mass, count in blocks])


def fit_curve(chances: np.ndarray, won: np.ndarray, knots: int = MAX_KNOTS,
              min_reports: int = MIN_REPORTS_PER_KNOT) -> np.ndarray:
    """The steps (upper end of the search's chances, calibrated chance), at most `knots` of them, of the
    non-decreasing curve from the search's chances to the outcomes: the reports split into bins, each bin's
    won share, made non-decreasing (weighted by the bins' sizes). A bin ends at every 1/(knots/2) of the
    chances and at every (knots/2)-quantile, so that the curve follows both where the reports crowd and
    where they are sparse; neighbours are merged until each holds `min_reports`. A step's upper end lies
    halfway between its bin's highest chance and the next bin's lowest (the last's is 1). Empty with too
    few reports."""
    if len(chances) < min_reports:
        return np.zeros((0, 2))
    order = np.argsort(chances, kind="stable")
    ordered, outcome = chances[order], won[order]
    half = max(knots // 2, 1)
    edges = np.union1d(np.linspace(0.0, 1.0, half + 1)[1:-1], np.quantile(ordered, np.linspace(0, 1, half + 1)[1:-1]))
    cuts = np.unique(np.searchsorted(ordered, edges, side="right"))
    bounds = [0]
    for cut in cuts:  # merge from the left: each bin at least min_reports
        if cut - bounds[-1] >= min_reports and len(ordered) - cut >= min_reports:
            bounds.append(int(cut))
    bounds.append(len(ordered))
    while len(bounds) - 1 > knots:  # too many bins: merge the smallest with its smaller neighbour
        sizes = np.diff(bounds)
        smallest = int(np.argmin(sizes))
        neighbour = smallest - 1 if smallest == len(sizes) - 1 or (smallest > 0 and sizes[smallest - 1] < sizes[smallest + 1]) else smallest + 1
        del bounds[max(smallest, neighbour)]
    ends = np.array([(ordered[cut - 1] + ordered[cut]) / 2 for cut in bounds[1:-1]] + [1.0])
    shares = np.array([outcome[low:high].mean() for low, high in zip(bounds[:-1], bounds[1:], strict=True)])
    sizes = np.diff(bounds).astype(np.float64)
    return np.column_stack([ends, isotonic(shares, sizes)])


def table_text(curves: dict, provenance: dict, fitted_on: dict, lineups: dict | None = None, tables=TABLES) -> str:
    """The module sim/players/ev_calibration_table.py holding `tables` ((name, ruleset, seats) each), `curves`
    ((index into `tables`, estimate) -> knots), what each table was fitted on (`fitted_on`: table name ->
    text) and the lineup of its fitting runs (`lineups`: table name -> (ev's text, its opponents' text))."""
    knots = np.zeros((len(tables), N_ESTIMATES, MAX_KNOTS, 2))
    counts = np.zeros((len(tables), N_ESTIMATES), np.int64)
    for (table, estimate), curve in curves.items():
        counts[table, estimate] = len(curve)
        knots[table, estimate, : len(curve)] = curve
    rows = []
    for table in range(len(tables)):
        rows.append(f"    [  # {tables[table][0]}")
        for estimate in range(N_ESTIMATES):
            rows.append(f"        [  # {ESTIMATES[estimate]}")
            pairs = [f"({x:.6f}, {y:.6f})," for x, y in knots[table, estimate]]
            rows.extend("            " + " ".join(pairs[start:start + 5]) for start in range(0, len(pairs), 5))
            rows.append("        ],")
        rows.append("    ],")
    lines = [
        '"""ev\'s calibration curves (sim.players.ev_calibration), generated by `mjsim calibrate-ev`: do not edit.',
        "",
        *(f"{key}: {value}" for key, value in provenance.items()),
        '"""',
        "",
        "import numpy as np",
        "",
        "# (name, ruleset, seats) of each table, in the order of KNOTS' first axis",
        "TABLES = (",
        *(f"    {tuple(table)!r}," for table in tables),
        ")",
        "# (table, estimate, step, 2): (the upper end of the search's chances, the calibrated chance); COUNTS steps",
        "KNOTS = np.array([",
        *rows,
        "])",
        f"COUNTS = np.array({counts.tolist()}, dtype=np.int64)",
        "# the fitting runs of each table",
        "FITTED_ON = {",
        *(f"    {name!r}: {fitted_on[name]!r}," for name, _, _ in tables if name in fitted_on),
        "}",
        "# the lineup of each table's fitting runs: (ev, every other seat)",
        "LINEUPS = {",
        *(f"    {name!r}: {tuple(lineups[name])!r}," for name, _, _ in tables if name in (lineups or {})),
        "}",
        "",
    ]
    return "\n".join(lines)


def write_table(reports: dict, path: Path, provenance: dict, fitted_on: str = "",
                opponent: str = DEFAULT_OPPONENT, tables=TABLES) -> dict:
    """Fit every (table, estimate) of `reports` (a table by its index into `tables`) and write the table module
    of `tables` to `path`, keeping, by name, the curves of the tables `reports` does not hold as they are (and
    what and which lineup they were fitted on); `fitted_on` says what the tables refitted now were fitted on,
    `opponent` against whom. Returns the curves fitted now."""
    names = [name for name, _, _ in tables]
    refitted = {names[table] for table, _ in reports}
    kept = {(names.index(name), estimate): fitted.KNOTS[old, estimate, : fitted.COUNTS[old, estimate]]
            for old, (name, _, _) in enumerate(TABLES) if name in names and name not in refitted
            for estimate in range(N_ESTIMATES) if fitted.COUNTS[old, estimate] > 0}
    curves = {}
    for key, (chances, won) in reports.items():
        curve = fit_curve(chances, won)
        if len(curve):
            curves[key] = curve
    sources = {name: text for name, text in getattr(fitted, "FITTED_ON", {}).items() if name in names and name not in refitted}
    sources.update({name: fitted_on for name in refitted})
    lineups = {name: getattr(fitted, "LINEUPS", {}).get(name, (FITTING_PLAYER, DEFAULT_OPPONENT)) for name in names}
    lineups.update({name: (FITTING_PLAYER, opponent) for name in refitted})
    write_text_atomically(path, table_text({**kept, **curves}, provenance, sources, lineups, tables))
    return curves


def gaps(curves: dict, reports: dict, tables=TABLES) -> list[tuple[str, str, int, float]]:
    """For each fitted curve: (table, estimate, reports, the largest gap between a bin's won share and its
    calibrated chance in units of the bin's standard error), to print after fitting."""
    rows = []
    for (table, estimate), curve in curves.items():
        chances, won = reports[(table, estimate)]
        predicted = curve[np.minimum(np.searchsorted(curve[:, 0], chances), len(curve) - 1), 1]
        order = np.argsort(predicted)
        worst = 0.0
        for part in np.array_split(order, min(10, max(1, len(order) // MIN_REPORTS_PER_KNOT))):
            share, mean = won[part].mean(), predicted[part].mean()
            error = math.sqrt(max(share * (1 - share), 1e-9) / len(part))
            worst = max(worst, abs(share - mean) / error)
        rows.append((tables[table][0], ESTIMATES[estimate], len(chances), worst))
    return rows

"""`mjsim economics`: the room economics of a run's deals, in the rooms of a rooms file or on a stake x fee grid,
per room, purse and player (analysis.economics), or each room's largest fee that meets a target for each purse
(analysis.fee_solver); each scenario's tables written under the run's ``economics/`` directory by its own name
(``scenario_name``), with the run's configuration and the study's settings.
"""

import json
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.economics import DEFAULT_PURSES, grid_rooms, player_economics, room_economics, ruin_memory
from analysis.fee_solver import TargetError, metric_curves, parse_target, solve_fee, solve_memory
from sim.commands.options import UserError, within
from sim.core.result_files import write_table
from sim.core.rooms import Room, load_rooms
from sim.core.run_records import RunConfig, load_run, read_records
from sim.core.size_limits import LARGEST_SEED, LARGEST_SIMULATED, check_memory
from sim.families import family_of, rooms_path

SCENARIO_DIRECTORY = "economics"  # under the run directory
DEFAULTS = {"horizon": 2000, "players": 2000, "block": 50, "seed": 0, "replicates": 40}  # the command's option defaults
NAME_FORM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.,+=-]{0,99}$")
CURVE_POINTS = 41  # fees per chart line


@dataclass(frozen=True)
class Study:
    """What `mjsim economics` was asked: the rooms (a rooms file, `app`, or a grid), the purses and the
    resampling's settings; with `target`, the fee solver's question."""

    rooms: str | None  # the --rooms text (None: the family's default)
    stakes: tuple[int, ...] | None
    fees: tuple[int, ...] | None
    purses: tuple[int, ...] | None  # --bankroll, in stakes (None: DEFAULT_PURSES)
    horizon: int
    players: int
    block: int
    seed: int
    target: str | None = None
    replicates: int = 40

    @property
    def chosen_purses(self) -> tuple[int, ...]:
        return self.purses or DEFAULT_PURSES

    def settings(self) -> dict:
        return {"horizon": self.horizon, "players_simulated": self.players, "block": self.block,
                "resampling_seed": self.seed, "purses_stakes": list(self.chosen_purses),
                **({"target": self.target, "replicates": self.replicates} if self.target else {})}


def scenario_name(study: Study) -> str:
    """The file name a scenario's tables go by (docs/economics.md#where-the-tables-go): the rooms, the grid or the
    fee, the solver's target, the purses when given, and every setting that differs from its default, so that
    two scenarios never share a file and the same scenario written again replaces only itself."""
    if study.stakes is not None:
        parts = [f"grid-stake{','.join(map(str, study.stakes))}-fee{','.join(map(str, study.fees))}"]
    else:
        parts = ["rooms" if study.rooms is None else _safe(Path(study.rooms).stem if study.rooms != "app" else "app")]
        if study.fees is not None:
            parts.append(f"fee{study.fees[0]}")
    if study.target is not None:
        target = parse_target(study.target)
        parts.append(f"solve-{target.metric}-{'ge' if target.direction == '>=' else 'le'}-{target.bound:g}")
    if study.purses is not None:
        parts.append(f"purse{','.join(map(str, study.purses))}")
    values = {"horizon": study.horizon, "players": study.players, "block": study.block, "seed": study.seed}
    if study.target is not None:
        values["replicates"] = study.replicates
    parts += [f"{name}{value}" for name, value in values.items() if value != DEFAULTS[name]]
    return "-".join(parts)


def _safe(text: str) -> str:
    """A rooms file's name as a file name: letters (any script), digits and _.,+=- kept, anything else _."""
    return re.sub(r"[^\w.,+=-]", "_", text) or "rooms"


def check_name(name: str | None) -> None:
    if name is not None and not NAME_FORM.match(name):
        raise UserError(f"--name {name!r}: give 1 to 100 letters, digits and _.,+=- (not starting with one of those signs)")


@dataclass(frozen=True)
class RunStudy:
    """A run's records and the rooms they are priced in."""

    directory: Path
    config: RunConfig
    ruleset: object
    records: pd.DataFrame
    rooms: list[Room]

    @property
    def money(self):
        return family_of(self.ruleset).money

    @property
    def currency(self) -> str:
        return family_of(self.ruleset).currency_for(self.ruleset)

    def metadata(self, study: Study, scenario: str, table: str) -> dict:
        return {**self.config.metadata(self.ruleset.source), "rooms": [asdict(room) for room in self.rooms],
                "economics_scenario": scenario, "economics_table": table, **study.settings()}


def economics_of_run(directory: Path, study: Study) -> RunStudy:
    """The run in `directory` with its rooms: the grid of the study's stakes x fees, or without stakes those of
    its rooms file (a path or a shipped name; None: the family's default), each charging its one fee if given."""
    config, ruleset = load_run(directory)
    if study.stakes is not None:
        room_list = grid_rooms(list(study.stakes), list(study.fees))
    else:
        room_list = load_rooms(rooms_path(ruleset, study.rooms), family_of(ruleset).rooms_file_for(ruleset))
        if study.fees is not None:
            room_list = [replace(room, fee=study.fees[0]) for room in room_list]
    return RunStudy(Path(directory), config, ruleset, read_records(directory, config, ruleset), room_list)


def scenario_path(directory: Path, scenario: str, suffix: str = ".parquet") -> Path:
    return Path(directory) / SCENARIO_DIRECTORY / f"{scenario}{suffix}"


def room_tables(run: RunStudy, study: Study, scenario: str, progress=None) -> dict:
    """The economics of each room and purse (``rooms``) and, where different players sit at the table, of a
    bankroll that always plays as each (``by_player``): name -> (table, the Parquet file written)."""
    purses = study.chosen_purses
    table = room_economics(run.records, run.rooms, purses, study.horizon, study.players, study.block, study.seed,
                           money=run.money, progress=progress)
    path = write_table(table, scenario_path(run.directory, scenario), run.metadata(study, scenario, "rooms"))
    tables = {"rooms": (table, path)}
    if len(set(run.config.players)) > 1:  # a stronger and a weaker player at one table: each one's own bankroll
        by_player = player_economics(run.records, run.rooms, list(run.config.players), purses, study.horizon,
                                     study.players, study.block, study.seed, money=run.money)
        path = write_table(by_player, scenario_path(run.directory, scenario, ".by-player.parquet"),
                           run.metadata(study, scenario, "by_player"))
        tables["by_player"] = (by_player, path)
    return tables


def solve_fees(run: RunStudy, study: Study, scenario: str, progress=None) -> tuple[pd.DataFrame, Path]:
    """Each room's largest whole fee meeting the study's target for each purse, with its bootstrap interval and
    the room's figures at that fee (as ``mjsim economics --fee`` gives them, on the same simulated players).
    Written to the scenario's file; returns the table and its path."""
    target = parse_target(study.target)
    money = run.money
    purses = study.chosen_purses
    rows = []
    for room in run.rooms:
        free = replace(room, fee=0)
        starts = [purse * room.stake for purse in purses]
        solved = solve_fee(money.seat_changes(run.records, free), money.units_moved(run.records) * float(room.stake),
                           starts, target, study.horizon, study.players, study.block, study.seed, study.replicates,
                           progress)
        for purse, start, answer in zip(purses, starts, solved):
            row = {"room": room.name, "stake": room.stake, "purse_stakes": purse, "start_beans": start,
                   "target": str(target), **answer,
                   "fee_in_interval": bool(answer["fee_low"] <= answer["fee"] <= answer["fee_high"])}
            if np.isfinite(answer["fee"]):  # the room at that fee, on the same simulated players
                at = room_economics(run.records, [replace(room, fee=int(answer["fee"]))], (purse,), study.horizon,
                                    study.players, study.block, study.seed, money=money).iloc[0]
                row.update({key: at[key] for key in AT_THE_FEE})
            rows.append(row)
    table = pd.DataFrame(rows)
    path = write_table(table, scenario_path(run.directory, scenario), run.metadata(study, scenario, "fee_solution"))
    return table, path


AT_THE_FEE = ("house_share_of_moved", "house_share_low", "house_share_high", "ruin_probability", "ruin_low", "ruin_high",
              "median_deals_to_ruin", "median_low", "median_high", "mean_deals_played", "mean_deals_low",
              "mean_deals_high", "house_take_per_bankroll", "house_take_low", "house_take_high")


def fee_curves(run: RunStudy, study: Study, largest_fees: dict[str, float]) -> pd.DataFrame:
    """Every target metric against the fee in each room and purse (the charts' data), on the players the
    solver and ``--fee`` draw: fees from 0 to twice the largest of the rooms' fees (or of the solved fees
    `largest_fees`, room -> beans), in stakes; without any, to a fee that would take a purse in 20 deals."""
    money = run.money
    fee_stakes = [fee / room.stake for room in run.rooms for fee in (room.fee, largest_fees.get(room.name, 0.0))
                  if np.isfinite(fee)]
    rows = []
    for room in run.rooms:
        starts = [purse * room.stake for purse in study.chosen_purses]
        top = 2 * max(fee_stakes, default=0.0) or min(study.chosen_purses) / 20
        fees = np.unique(np.round(np.linspace(0, top * room.stake, CURVE_POINTS)))
        curves = metric_curves(money.seat_changes(run.records, replace(room, fee=0)),
                               money.units_moved(run.records) * float(room.stake), starts, fees, study.horizon,
                               study.players, study.block, study.seed)
        for purse, points in zip(study.chosen_purses, curves):
            rows += [{"room": room.name, "stake": room.stake, "purse_stakes": purse, **point} for point in points]
    return pd.DataFrame(rows)


def progress_total(run: RunStudy, study: Study) -> int:
    """The steps `progress` is told of: rooms x purses x (the run and each replicate) when solving, else rooms."""
    if study.target is None:
        return len(run.rooms)
    return len(run.rooms) * len(study.chosen_purses) * (study.replicates + 1)


def check_options(study: Study, solve: str | None, name: str | None) -> None:
    """`mjsim economics`'s options, checked before any record is read: one UserError for the first problem."""
    rooms, stakes, fees, target = study.rooms, study.stakes, study.fees, study.target
    horizon, players, block, seed = study.horizon, study.players, study.block, study.seed
    if horizon < 1 or players < 1 or block < 1 or seed < 0:
        raise UserError("--horizon, --players and --block must be positive and --seed not negative")
    within("--seed", seed, 0, LARGEST_SEED)
    within("--horizon times --players", horizon * players, 1, LARGEST_SIMULATED)
    for value in study.purses or []:
        within("--bankroll", value, 1, 10**6)
    if study.purses is not None and len(set(study.purses)) != len(study.purses):
        raise UserError("give each --bankroll once")
    purses = len(study.chosen_purses)
    simulated = f"simulating {players:,} players over {horizon:,} deals with {purses} purses"
    # the solver holds one set of players' curves at a time, as the room figures do: one check serves both
    memory = solve_memory(players, horizon, block, purses) if solve is not None else ruin_memory(players, horizon, block, purses)
    check_memory(memory, simulated, "give fewer --players, a shorter --horizon or fewer --bankroll", UserError)
    for value in stakes or []:
        within("--stake", value, 1, 10**9)
    for value in fees or []:
        within("--fee", value, 0, 10**15)
    if stakes is not None and fees is None:
        raise UserError("give --stake and --fee together, stakes positive and fees not negative")
    if stakes is None and fees is not None and len(fees) != 1:
        raise UserError("without --stake, give one --fee: the fee charged in every room")
    if stakes is not None and rooms is not None:
        raise UserError("give either --rooms or a --stake/--fee grid")
    if (solve is None) != (target is None) or solve not in (None, "fee"):
        raise UserError("give --solve fee and --target together (--target median_deals_to_ruin>=500, for one)")
    if solve is not None and (stakes is not None or fees is not None):
        raise UserError("--solve finds the fee of each room of a rooms file; give --rooms (or none), not a grid or a --fee")
    within("--replicates", study.replicates, 1, 10_000)
    if target is not None:
        try:
            parse_target(target)
        except TargetError as error:
            raise UserError(str(error)) from None
    check_name(name)


def parsed_target(target: str | None):
    """The solver's target (one `error:` line if it does not parse); None without one."""
    if target is None:
        return None
    try:
        return parse_target(target)
    except TargetError as error:
        raise UserError(str(error)) from None


def csv_paths(csv: Path) -> tuple[Path, Path]:
    """`--csv FILE`: the main table's file and the per-player table's beside it."""
    return csv, csv.with_name(f"{csv.stem}.by-player.csv")


def check_csv_output(csv: Path) -> None:
    """`--csv FILE`: a new file, or one `--csv` wrote before (replaced); anything else there is refused before any
    work, so that economics never writes over a file that is not its own table."""
    for path in csv_paths(csv):
        if path.is_dir():
            raise UserError(f"--csv {csv}: {path} is a directory; give a file path")
        if not path.exists():
            continue
        try:
            with path.open(encoding="utf-8") as file:
                first = file.readline()
            config = json.loads(first.removeprefix("# mjsim.config:")) if first.startswith("# mjsim.config:") else {}
        except (OSError, UnicodeDecodeError, ValueError):
            config = {}
        if not isinstance(config, dict) or "economics_scenario" not in config:
            raise UserError(f"--csv {csv}: {path} exists and is not a table written by mjsim economics --csv; give another path")


def run_economics(run_dir: Path, study: Study, solve: str | None, name: str | None, plot: bool, as_json: bool,
                  csv: Path | None) -> str:
    """What `mjsim economics` does and prints: the scenario's tables (or the fee solution) written under the run's
    economics directory, with `csv` a CSV copy and with `plot` the charts; its text or JSON returned."""
    from sim.commands import economics_text as text
    from sim.core.progress import progress_bar

    check_options(study, solve, name)
    if csv is not None:
        check_csv_output(csv)
    if plot:  # matplotlib missing: one error line before any work
        from analysis.plots import check_plotting

        try:
            check_plotting()
        except RuntimeError as error:
            raise UserError(str(error)) from None
    scenario = name or scenario_name(study)
    run = economics_of_run(run_dir, study)
    currency = run.currency
    with progress_bar(f"economics {scenario}", progress_total(run, study)) as advance:
        if solve is not None:
            solution, path = solve_fees(run, study, scenario, progress=advance)
            tables = {"fee_solution": (solution, path)}
        else:
            tables = room_tables(run, study, scenario, progress=advance)
    written = [path for _, path in tables.values()]
    main_name = next(iter(tables))
    if csv is not None:
        main_csv, player_csv = csv_paths(csv)
        written.append(text.write_csv(tables[main_name][0], main_csv, run.metadata(study, scenario, main_name)))
        if "by_player" in tables:
            written.append(text.write_csv(tables["by_player"][0], player_csv, run.metadata(study, scenario, "by_player")))
    if plot:
        from analysis.plots import plot_beans, plot_fee_curves

        largest = {}
        if solve is not None:  # the charts reach twice each room's largest solved fee
            largest = tables["fee_solution"][0].groupby("room")["fee"].max().to_dict()
        curves = fee_curves(run, study, largest)
        written += plot_fee_curves(curves, parsed_target(study.target), scenario_path(run_dir, scenario, ""), currency)
        written.append(plot_beans(run.records, run.rooms, scenario_path(run_dir, scenario, ".beans.png"), run.money))
    if as_json:
        return text.as_json(scenario, study.settings(), {key: table for key, (table, _) in tables.items()}, written) + "\n"
    lines = [f"scenario {scenario} of {run_dir}",
             text.purse_line(study.chosen_purses, study.horizon, study.players, study.block, study.seed, currency)]
    if solve is not None:
        lines += [f"the largest whole fee (beans a deal, each player) meeting {parsed_target(study.target)} in each room and "
                  f"purse, and the room at that fee",
                  text.solution_text(tables["fee_solution"][0], study.horizon),
                  text.legend(["purse", "house share", "ruined", "median deals to ruin", "mean deals played",
                               "house take per bankroll"], text.SOLVER_LEGEND)]
    else:
        lines.append(text.rooms_text(tables["rooms"][0], currency))
        if "by_player" in tables:
            lines.append("\nper player: a bankroll that always plays as that player (blocks from its seats only)")
            table = tables["by_player"][0]
            short = {player: player.split(":")[0] for player in run.config.players}
            if len(set(short.values())) == len(short):
                table = table.assign(player=table["player"].map(short))
            lines.append(text.players_text(table, currency))
        lines.append(text.legend(["beans moved", "house share", "wins losing money", "drift", "volatility", "purse", "ruined",
                                  "median deals to ruin", "mean deals played", "house take per bankroll"]))
    lines.append("wrote " + ", ".join(str(path) for path in written))
    return "".join(line + "\n" for line in lines)

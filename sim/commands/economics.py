"""`mjsim economics`: the room economics of a run's deals, in the rooms of a rooms file or on a stake x fee grid,
per room and per player (analysis.economics), or each room's largest fee that meets a target (analysis.fee_solver);
the tables written beside the run's records, with its configuration and the resampling's settings."""

import math
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import pandas as pd

from analysis.economics import grid_rooms, player_economics, room_economics, ruin_memory, starting_beans
from analysis.fee_solver import parse_target, solve_fee, solve_memory
from sim.commands.options import UserError, within
from sim.core.result_files import write_table
from sim.core.rooms import Room, load_rooms
from sim.core.run_records import RunConfig, load_run, read_records
from sim.core.size_limits import LARGEST_SEED, LARGEST_SIMULATED, check_memory
from sim.families import family_of, rooms_path


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

    def metadata(self, **settings) -> dict:
        return {**self.config.metadata(self.ruleset.source), "rooms": [asdict(room) for room in self.rooms], **settings}


def economics_of_run(directory: Path, rooms: Path | None = None, stakes=None, fees=None) -> RunStudy:
    """The run in `directory` with its rooms: the grid of `stakes` x `fees`, or without stakes those of `rooms`
    (a path or a shipped name; None: the family's default), each charging the one fee of `fees` if given."""
    config, ruleset = load_run(directory)
    if stakes is not None:
        room_list = grid_rooms(stakes, fees)
    else:
        room_list = load_rooms(rooms_path(ruleset, rooms), family_of(ruleset).rooms_file_for(ruleset))
        if fees is not None:
            room_list = [replace(room, fee=fees[0]) for room in room_list]
    return RunStudy(Path(directory), config, ruleset, read_records(directory, config, ruleset), room_list)


def room_tables(study: RunStudy, horizon: int, players: int, block: int, seed: int, bankroll=None) -> dict:
    """The economics of each room (``rooms``) and, where different players sit at the table, of a bankroll
    that always plays as each (``by_player``): name -> (table, the Parquet file written)."""
    table = room_economics(study.records, study.rooms, horizon, players, block, seed, money=study.money, bankroll=bankroll)
    metadata = study.metadata(horizon=horizon, players_simulated=players, block=block, resampling_seed=seed)
    tables = {"rooms": (table, write_table(table, study.directory / "economics.parquet", metadata))}
    if len(set(study.config.players)) > 1:  # a stronger and a weaker player at one table: each one's own bankroll
        by_player = player_economics(study.records, study.rooms, list(study.config.players), horizon, players, block, seed,
                                     money=study.money, bankroll=bankroll)
        tables["by_player"] = (by_player, write_table(by_player, study.directory / "economics_by_player.parquet", metadata))
    return tables


def solve_fees(study: RunStudy, target_text: str, horizon: int, players: int, block: int, seed: int, replicates: int,
               bankroll=None) -> tuple[pd.DataFrame, Path, object]:
    """Each room's largest whole fee meeting the target (`target_text`, analysis.fee_solver.parse_target: a
    TargetError if it does not parse), with its bootstrap interval and the room's figures at that fee; room k
    resampled with seed + k. Written to fee_solution.parquet; returns the table, its path and the target."""
    target = parse_target(target_text)
    money = study.money
    rows = []
    for index, room in enumerate(study.rooms):
        free = replace(room, fee=0)
        solved = solve_fee(money.seat_changes(study.records, free), money.units_moved(study.records) * float(room.stake),
                           starting_beans(room, bankroll), target, horizon, players, block, seed + index, replicates)
        row = {"room": room.name, "stake": room.stake, "start_beans": starting_beans(room, bankroll), "target": str(target),
               **solved}
        if math.isfinite(solved["fee"]):  # the room at that fee, on the same resampling
            at = room_economics(study.records, [replace(room, fee=int(solved["fee"]))], horizon, players, block,
                                seed + index, money=money, bankroll=bankroll).iloc[0]
            row.update({key: at[key] for key in ("house_share_of_moved", "ruin_probability", "median_deals_to_ruin",
                                                 "mean_deals_played", "house_take_per_bankroll")})
        rows.append(row)
    table = pd.DataFrame(rows)
    metadata = study.metadata(target=str(target), horizon=horizon, players_simulated=players, block=block,
                              resampling_seed=seed, replicates=replicates, bankroll_stakes=bankroll)
    return table, write_table(table, study.directory / "fee_solution.parquet", metadata), target


def check_options(rooms, stakes, fees, solve, target, replicates, bankroll, horizon, players, block, seed) -> None:
    """`mjsim economics`'s options, checked before any record is read: one UserError for the first problem."""
    if horizon < 1 or players < 1 or block < 1 or seed < 0:
        raise UserError("--horizon, --players and --block must be positive and --seed not negative")
    within("--seed", seed, 0, LARGEST_SEED)
    within("--horizon times --players", horizon * players, 1, LARGEST_SIMULATED)
    simulated = f"simulating {players:,} players over {horizon:,} deals"
    check_memory(ruin_memory(players, horizon, block), simulated, "give fewer --players or a shorter --horizon", UserError)
    if solve is not None:  # the fee solver keeps every player's path for its bisection
        check_memory(solve_memory(players, horizon, block), f"--solve fee {simulated}",
                     "give fewer --players or a shorter --horizon", UserError)
    for value in stakes or []:
        within("--stake", value, 1, 10**9)
    for value in fees or []:
        within("--fee", value, 0, 10**15)
    if stakes is not None and fees is None or any(value < 0 for value in (stakes or []) + (fees or [])) or 0 in (stakes or []):
        raise UserError("give --stake and --fee together, stakes positive and fees not negative")
    if stakes is None and fees is not None and len(fees) != 1:
        raise UserError("without --stake, give one --fee: the fee charged in every room")
    if stakes is not None and rooms is not None:
        raise UserError("give either --rooms or a --stake/--fee grid")
    if (solve is None) != (target is None) or solve not in (None, "fee"):
        raise UserError("give --solve fee and --target together (--target median_deals_to_ruin>=500, for one)")
    if solve is not None and stakes is not None:
        raise UserError("--solve finds the fee of each room of a rooms file; give --rooms (or none), not a grid")
    within("--replicates", replicates, 1, 10_000)
    if bankroll is not None:
        within("--bankroll", bankroll, 1, 10**6)

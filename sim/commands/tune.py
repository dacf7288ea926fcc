"""`mjsim tune`: the `--param NAME=LO..HI[:int]` options read and checked against the player before any deal,
the tuning (``sim.runs.tune``) run with a progress bar, its trace written with the configuration, the tuned
player confirmed on fresh walls, and what is printed."""

import functools
import json
import math
import re
import time
from pathlib import Path

from sim.commands.duels import check_luck_measurable, chosen_room
from sim.commands.options import UserError, check_own_output, within
from sim.core import spsa
from sim.core.progress import progress_bar
from sim.core.result_files import write_table
from sim.core.ruleset import load_ruleset
from sim.core.size_limits import LARGEST_DUEL, LARGEST_SEED, check_memory
from sim.families import family_of
from sim.players.player_parameters import number_text, parameter_values, with_values
from sim.players.player_text import PlayerError
from sim.players.user_players import check_user_player, is_user_player, user_player_label
from sim.runs import duel as duels
from sim.runs import runner
from sim.runs import tune as tuning

LARGEST_ITERATIONS = 1_000_000
PARAMETER = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^:]*?)\s*\.\.\s*([^:]*?)\s*(?::\s*(\w*)\s*)?$")
SPEC = "NAME=LO..HI, or NAME=LO..HI:int for whole numbers"


def parse_parameter(text: str) -> spsa.Parameter:
    """`NAME=LO..HI` or `NAME=LO..HI:int` as a Parameter; a UserError for anything else."""
    found = PARAMETER.match(text)
    if found is None:
        raise UserError(f"--param is written {SPEC}, not {text!r}")
    name, low_text, high_text, kind = found.groups()
    if kind not in (None, "int"):
        raise UserError(f"--param {name}: the only kind after the range is ':int', not ':{kind}'")
    try:
        low, high = float(low_text), float(high_text)
    except ValueError:
        raise UserError(f"--param {name}: LO and HI are numbers, not {low_text!r} and {high_text!r}") from None
    try:
        return spsa.Parameter(name, low, high, kind == "int")
    except ValueError as error:
        raise UserError(f"--param {error}") from None


def tunable(family, player: str, texts: list[str]) -> list[spsa.Parameter]:
    """The parameters of `texts`, each one `player` takes, its range's ends both a value it accepts."""
    if not texts:
        raise UserError(f"give at least one --param ({SPEC})")
    parameters = [parse_parameter(text) for text in texts]
    names = [parameter.name for parameter in parameters]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise UserError(f"--param {repeated[0]} is given twice")
    takes = parameter_values(family, player)
    for parameter in parameters:
        if parameter.name not in takes:
            if is_user_player(player, family.players.NAMES):
                where = ("an exec: command's key=value arguments" if player.strip().startswith("exec:")
                         else "key=value after its second colon")
                raise UserError(f"--param {parameter.name}: {player} does not write it; a user's player is tuned on the "
                                f"parameters its text writes ({where}), here {', '.join(takes) or 'none'}")
            raise UserError(f"--param {parameter.name}: {family.player_name(player).partition(':')[0]} takes "
                            f"{', '.join(takes) or 'no parameters'}")
        for end in (parameter.low, parameter.high):
            try:
                family.player_name(with_values(family, player, {parameter.name: end}))
            except PlayerError as error:
                raise UserError(f"--param {parameter.name}={number_text(parameter.low)}..{number_text(parameter.high)}: "
                                f"{error}") from None
    return parameters


def check_player(family, text: str, option: str) -> None:
    """What can be checked of a player before any deal: a built-in one parsed, a user's file and syntax."""
    if not text.strip():
        raise UserError(f"{option} is empty; give a player, e.g. greedy")
    if is_user_player(text, family.players.NAMES):
        check_user_player(text)
    else:
        family.player_name(text)


def default_out(ruleset_text: str, player: str, family, seed: int) -> Path:
    name = (user_player_label(player) if is_user_player(player, family.players.NAMES)
            else player.strip().partition(":")[0])
    return Path("results") / f"tune-{Path(ruleset_text).stem}-{name}-seed{seed}.parquet"




def tune_command(player: str, parameter_texts: list[str], opponent: str | None, iterations: int, walls_per_step: int,
                 ruleset_text: str, seats: int | None, lineup: str, room: str | None, rooms: Path | None, seed: int,
                 confirm_walls: int, out: Path | None, variance_reduction: bool, step_size: float,
                 perturbation: float, as_json: bool) -> str:
    """Everything `mjsim tune` does after parsing; returns what it prints."""
    within("--iterations", iterations, 1, LARGEST_ITERATIONS)
    within("--walls-per-step", walls_per_step, 2, LARGEST_DUEL)
    within("--confirm-walls", confirm_walls, 2, LARGEST_DUEL)
    within("--seed", seed, 0, LARGEST_SEED)
    for name, value in (("--step-size", step_size), ("--perturbation", perturbation)):
        if not (math.isfinite(value) and value > 0):
            raise UserError(f"{name} must be a positive number, not {value:g}")
    if perturbation > 0.5:
        raise UserError(f"--perturbation is a share of each range, at most 0.5, not {perturbation:g}")
    ruleset = load_ruleset(ruleset_text)
    family = family_of(ruleset)
    if seats is not None:
        runner.check_seats(ruleset, seats)
    if lineup not in duels.LINEUPS:
        raise UserError(f"--lineup is one of {', '.join(duels.LINEUPS)}, not {lineup!r}")
    opponent = player if opponent is None else opponent
    check_player(family, player, "PLAYER")
    check_player(family, opponent, "--opponent")
    parameters = tunable(family, player, parameter_texts)
    chosen = chosen_room(rooms, room, ruleset)
    check_luck_measurable(ruleset, ruleset_text, variance_reduction)
    largest = max(walls_per_step, confirm_walls)
    check_memory(duels.duel_memory(largest) * 2, f"{largest:,} walls at once",
                 "give fewer --walls-per-step or --confirm-walls", UserError)
    out = out if out is not None else default_out(ruleset_text, player, family, seed)
    check_own_output(out, "tune", "a trace written by mjsim tune")

    play = functools.partial(_play, ruleset, seed, chosen, seats, lineup, variance_reduction)
    gains = spsa.Gains(step_size, perturbation, 0.1 * iterations)
    started = time.perf_counter()
    with progress_bar("iterations", iterations) as advance:
        result = tuning.tune(family, player, opponent, parameters, iterations, walls_per_step, seed, play, gains,
                             variance_reduction, advance)
    confirmation = tuning.confirm(family, result.tuned_text, player, result.walls_used, confirm_walls, play,
                                  variance_reduction)
    seconds = time.perf_counter() - started
    seat_count = seats or ruleset.players[0]
    config = {"command": "tune", "ruleset": ruleset_text, "ruleset_source": ruleset.source, "player": player,
              "opponent": opponent, "parameters": [vars(parameter) for parameter in parameters],
              "iterations": iterations, "walls_per_step": walls_per_step, "seed": seed, "room": chosen.name,
              "stake": chosen.stake, "fee": chosen.fee, "seats": seat_count, "lineup": lineup,
              "variance_reduction": variance_reduction, "step_size": step_size, "perturbation": perturbation,
              "stability": gains.stability, "alpha": spsa.ALPHA, "gamma": spsa.GAMMA, "confirm_walls": confirm_walls,
              "tuned": result.tuned_text, "confirmation": _confirmation_data(confirmation)}
    written = write_table(result.trace, out, config)
    if as_json:
        return json.dumps({**{key: config[key] for key in ("ruleset", "player", "opponent", "seed", "tuned", "confirmation")},
                           "start": result.start, "tuned_values": result.tuned, "trace": str(written)},
                          ensure_ascii=False) + "\n"
    currency = family.currency_for(ruleset)
    per = "per deal" if seat_count == 2 else "per seat and deal"
    how = "twice with the seats swapped" if seat_count == 2 else f"{seat_count} times with the seats rotated"
    lines = [f"tuned {player} against {opponent} on {ruleset_text}: {iterations:,} iterations of {walls_per_step:,} walls "
             f"(walls 0 to {result.walls_used - 1:,}), each played {how}; {currency} in {chosen.name}"]
    for parameter in parameters:
        given = result.start[parameter.name]
        notes = [f"range {number_text(parameter.low)}..{number_text(parameter.high)}"]
        if parameter.integer:
            notes.append("whole numbers")
        if not parameter.low <= given <= parameter.high:
            notes.append(f"started at {number_text(min(max(given, parameter.low), parameter.high))}")
        lines.append(f"  {parameter.name:<14} {number_text(given):>8} -> {number_text(result.tuned[parameter.name]):<8} "
                     f"({', '.join(notes)})")
    lines.append(f"tuned player: {result.tuned_text}")
    lines.append(_confirmation_line(confirmation, currency, per))
    deals = _deals_played(result, confirmation, seat_count)
    lines.append(f"{deals:,} deals in {seconds:.1f} s ({deals / max(seconds, 1e-9):,.0f} deals/s, compiling included)")
    lines.append(f"wrote {written}")
    return "".join(line + "\n" for line in lines)


def _play(ruleset, seed, room, seats, lineup, luck, first, second, start, count):
    return duels.play_walls(ruleset, first, second, seed, start, count, room, seats, lineup, luck=luck)


def _confirmation_data(confirmation: tuning.Confirmation) -> dict:
    low, high = confirmation.interval
    return {"first_wall": confirmation.first_wall, "walls": confirmation.walls, "difference": confirmation.difference,
            "standard_error": confirmation.standard_error, "low": low, "high": high, "z": confirmation.z,
            "p_value": confirmation.p_value, "variance_reduced": confirmation.variance_reduced, "played": confirmation.played}


def _confirmation_line(confirmation: tuning.Confirmation, currency: str, per: str) -> str:
    last = confirmation.first_wall + confirmation.walls - 1
    head = f"confirmation on {confirmation.walls:,} fresh walls ({confirmation.first_wall:,} to {last:,}), tuned less as given: "
    if not confirmation.played:
        return head + "the tuned player is the player as given (nothing to play)"
    low, high = confirmation.interval
    verdict = "significant" if confirmation.p_value < 0.05 else "not significant"
    reduced = ", luck adjusted" if confirmation.variance_reduced else ""
    return (head + f"{confirmation.difference:+.3f} {currency} {per} [{low:+.3f}, {high:+.3f}], z = {confirmation.z:.2f}, "
            f"p = {confirmation.p_value:.3g}: {verdict} at 5%{reduced}")


def _deals_played(result: tuning.Tuning, confirmation: tuning.Confirmation, seats: int) -> int:
    """Deals played: two players a wall in each iteration whose points differ, and the confirmation's."""
    plus = result.trace[[f"plus_{parameter.name}" for parameter in result.parameters]].to_numpy()
    minus = result.trace[[f"minus_{parameter.name}" for parameter in result.parameters]].to_numpy()
    played_iterations = int((plus != minus).any(axis=1).sum())
    confirmed = confirmation.walls if confirmation.played else 0
    return (2 * played_iterations * int(result.trace["walls"].iloc[0]) + confirmed) * seats

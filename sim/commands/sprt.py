"""`mjsim sprt`: the sequential test of two players on duplicate walls (``sim.runs.sprt``), every option
checked before any deal is played; the running LLR on a terminal, then the verdict as text or JSON."""

import json
import math
import time
from pathlib import Path

from sim.commands.duels import check_luck_measurable, chosen_room
from sim.commands.options import UserError, within
from sim.core.progress import progress_lines
from sim.core.result_files import versions
from sim.core.ruleset import load_ruleset
from sim.core.sequential_test import LARGEST_ELO, SequentialTest, score_of_elo
from sim.core.size_limits import LARGEST_DUEL, LARGEST_SEED, check_memory
from sim.families import family_of
from sim.runs import duel as duels
from sim.runs import runner
from sim.runs import sprt as sequential

DEFAULT_ELO = (0.0, 10.0)  # the bounds when none are given: no better than equal, against 10 Elo better


def bounds(money0: float | None, money1: float | None, elo0: float | None, elo1: float | None) -> tuple[str, float, float]:
    """(units, low, high) of the one kind of bounds given: Elo [0, 10] when none are."""
    money_given, elo_given = (money0, money1) != (None, None), (elo0, elo1) != (None, None)
    if money_given and elo_given:
        raise UserError("give bounds in money (--money0, --money1) or in Elo (--elo0, --elo1), not both")
    units, low, high, names = ((sequential.MONEY, money0, money1, "--money0 and --money1") if money_given
                               else (sequential.ELO, elo0, elo1, "--elo0 and --elo1"))
    if not (money_given or elo_given):
        return sequential.ELO, *DEFAULT_ELO
    if low is None or high is None:
        raise UserError(f"give both {names}")
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise UserError(f"{names} must be numbers with the first below the second, not {low} and {high}")
    if units == sequential.ELO and max(abs(low), abs(high)) > LARGEST_ELO:
        raise UserError(f"{names} must be from {-LARGEST_ELO:,.0f} to {LARGEST_ELO:,.0f}, not {low} and {high}")
    return units, low, high


def error_rate(name: str, value: float) -> float:
    if not (math.isfinite(value) and 0 < value < 0.5):
        raise UserError(f"{name} must be above 0 and below 0.5, not {value}")
    return value


def sprt_text(first: str, second: str, money0: float | None, money1: float | None, elo0: float | None,
              elo1: float | None, alpha: float, beta: float, batch: int, max_walls: int, ruleset_text: str, seed: int,
              room: str | None, rooms: Path | None, seats: int | None, lineup: str, variance_reduction: bool,
              as_json: bool) -> str:
    """What `mjsim sprt` prints: the test's verdict, the walls it took and the estimate, as text or JSON."""
    units, low, high = bounds(money0, money1, elo0, elo1)
    alpha, beta = error_rate("--alpha", alpha), error_rate("--beta", beta)
    test = (SequentialTest(float(score_of_elo(low)), float(score_of_elo(high)), alpha, beta) if units == sequential.ELO
            else SequentialTest(low, high, alpha, beta))
    within("--max-walls", max_walls, test.first_look, LARGEST_DUEL)
    within("--batch", batch, 1, max_walls)
    within("--seed", seed, 0, LARGEST_SEED)
    check_memory(max_walls * sequential.BYTES_PER_WALL + duels.duel_memory(batch), f"a test of up to {max_walls:,} walls",
                 "give fewer --max-walls", UserError)
    if lineup not in duels.LINEUPS:
        raise UserError(f"--lineup is one of {', '.join(duels.LINEUPS)}, not {lineup!r}")
    ruleset = load_ruleset(ruleset_text)
    family = family_of(ruleset)
    names = tuple(family.player_name(player) for player in (first, second))  # both checked before any deal
    if seats is not None:
        runner.check_seats(ruleset, seats)
    chosen = chosen_room(rooms, room, ruleset)
    check_luck_measurable(ruleset, ruleset_text, variance_reduction)
    currency = family.currency_for(ruleset)
    per = "per deal" if (seats or ruleset.players[0]) == 2 else "per seat and deal"
    line = progress_lines()
    started = time.perf_counter()
    result = sequential.sprt(
        ruleset, first, second, test, units, seed, batch, max_walls, chosen, seats, lineup, variance_reduction, names,
        report=lambda look: line(f"{look.walls:,} walls: LLR {look.llr:+.2f} in [{test.lower:+.2f}, {test.upper:+.2f}]"),
    )
    seconds = time.perf_counter() - started
    config = {"command": "sprt", "players": [first, second], "player_names": list(names), "ruleset": ruleset_text,
              "units": units, "low": low, "high": high, "alpha": alpha, "beta": beta, "batch": batch,
              "max_walls": max_walls, "seed": seed, "room": chosen.name, "stake": chosen.stake, "fee": chosen.fee,
              "seats": result.seats, "lineup": lineup, "variance_reduction": variance_reduction}
    if as_json:
        return json.dumps(as_data(result, config), ensure_ascii=False) + "\n"
    return format_result(result, config, f"{currency} {per}") + f"{result.walls * result.seats:,} deals in {seconds:.1f} s\n"


def _number(value: float) -> float | str:
    """A JSON number, or "inf" / "-inf": JSON has no infinity, and a stream without spread has an infinite LLR
    (a player against itself), a player winning every wall an infinite Elo."""
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


def as_data(result: sequential.SprtResult, config: dict) -> dict:
    estimate, low, high = (_number(value) for value in result.estimate())
    return {
        "config": config, "versions": versions(), "verdict": result.verdict, "walls": result.walls,
        "deals": result.walls * result.seats, "llr": _number(result.llr), "lower": result.test.lower,
        "upper": result.test.upper, "estimate": estimate, "estimate_low": low, "estimate_high": high,
        "deviation": result.deviation, "fixed_length_walls": math.ceil(result.fixed_length()), "adjusted": result.adjusted,
        "looks": [{"walls": look.walls, "llr": _number(look.llr)} for look in result.looks],
    }


def format_result(result: sequential.SprtResult, config: dict, money_units: str) -> str:
    test = result.test
    what = "Elo" if result.units == sequential.ELO else f"difference ({money_units})"
    how = "each played twice with the seats swapped" if result.seats == 2 else f"each played {result.seats} times with the seats rotated"
    if result.lineup == "one" and result.seats > 2:
        how += f", the first player alone at a table of the second's {result.seats - 1}"
    lines = [
        f"{result.names[0]} v {result.names[1]} on {config['ruleset']}, walls in batches of {config['batch']:,} "
        f"({how}; seed {config['seed']}, {config['room']})",
        f"H0: {what} <= {config['low']:g}, H1: {what} >= {config['high']:g}; alpha {test.alpha:g}, beta {test.beta:g}; "
        f"LLR bounds [{test.lower:+.2f}, {test.upper:+.2f}], first look at {test.first_look:,} walls",
    ]
    verdict = {"H0": "H0 accepted", "H1": "H1 accepted"}.get(result.verdict, "inconclusive: --max-walls reached")
    lines.append(f"{verdict} after {result.walls:,} walls: LLR {result.llr:+.2f}")
    estimate, low, high = result.estimate()
    if result.units == sequential.ELO:
        mean = float(result.values.mean())
        lines.append(f"Elo {estimate:+.1f} [{low:+.1f}, {high:+.1f}] (the first player's mean score a wall {mean:.3f}: "
                     f"1 for a wall it won more on, 0.5 equal, 0 less)")
    else:
        lines.append(f"difference (first - second): {estimate:+.3f} {money_units} [{low:+.3f}, {high:+.3f}]")
    if result.adjusted:
        lines.append("luck measured on the walls taken out (control variates fitted on earlier batches)")
    deviation = result.deviation
    if deviation > 0:
        lines.append(f"a fixed-length test of the same error rates would need {math.ceil(result.fixed_length()):,} walls "
                     f"(at the standard deviation a wall measured here, {deviation:.3g})")
    return "".join(line + "\n" for line in lines)

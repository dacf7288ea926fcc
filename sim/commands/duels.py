"""`mjsim duel` and `mjsim league`: players on duplicate walls (``sim.runs.duel``) priced in a room, checked
before any deal is played; a league's table written with its configuration, and its page of charts."""

import time
from pathlib import Path

from analysis.leagues import league_matrix
from analysis.rating_inputs import Table
from sim.commands.options import UserError, check_own_output, within
from sim.commands.ratings import league_anchor, league_ratings_text
from sim.core.result_files import write_table
from sim.core.rooms import load_rooms
from sim.core.ruleset import load_ruleset
from sim.core.size_limits import LARGEST_DUEL, LARGEST_SEED, check_memory
from sim.families import family_of, rooms_path
from sim.runs import duel as duels
from sim.runs import runner


def chosen_room(rooms: Path | None, name: str | None, ruleset):
    """The named room of the rooms file (default: the ruleset's family's own), or its first room."""
    found = {room.name: room for room in load_rooms(rooms_path(ruleset, rooms), family_of(ruleset).rooms_file_for(ruleset))}
    if name is None:
        return next(iter(found.values()))
    if name not in found:
        raise UserError(f"unknown room {name!r}; the rooms file has {', '.join(found)}")
    return found[name]


def _ruleset(ruleset_text: str, deals: int, seed: int, what: str):
    within("--deals", deals, 2, LARGEST_DUEL)
    within("--seed", seed, 0, LARGEST_SEED)
    check_memory(duels.duel_memory(deals), what, "give fewer --deals", UserError)
    return load_ruleset(ruleset_text)


def check_luck_measurable(ruleset, ruleset_text: str, variance_reduction: bool) -> None:
    """Variance reduction needs the luck of the draws, which a ruleset's assists (erren-challenge's levels) would
    bias by choosing the player's tiles: such a ruleset plays only with --no-variance-reduction."""
    if variance_reduction and (ruleset.start_exchange or ruleset.pick_chance or ruleset.pung_offer_chance):
        raise UserError(f"{ruleset_text}'s assists choose the player's tiles, so the luck of its draws is not measured: "
                        "give --no-variance-reduction")
    if variance_reduction and not getattr(family_of(ruleset).engine, "MEASURES_LUCK", True):
        raise UserError(f"the {family_of(ruleset).title} engine ({ruleset_text}) does not measure the luck of the draws "
                        "yet: give --no-variance-reduction")




def duel_text(ruleset_text: str, first: str, second: str, deals: int, seed: int, room: str | None,
              rooms: Path | None, seats: int | None, lineup: str, out: Path | None = None,
              variance_reduction: bool = True) -> str:
    """Two players on `deals` duplicate walls: what `mjsim duel` prints; with `out`, the per-wall results
    written there as Parquet (``DuelResult.walls_table``) with the duel's configuration. With
    `variance_reduction`, the verdict has the luck of the draws taken out (``sim.runs.duel.duel``)."""
    if out is not None:
        check_own_output(out, "duel", "a duel table written by mjsim duel --out")
    ruleset = _ruleset(ruleset_text, deals, seed, f"a duel of {deals:,} walls")
    if seats is not None:
        runner.check_seats(ruleset, seats)
    chosen = chosen_room(rooms, room, ruleset)
    if lineup not in duels.LINEUPS:
        raise UserError(f"--lineup is one of {', '.join(duels.LINEUPS)}, not {lineup!r}")
    start = time.perf_counter()
    check_luck_measurable(ruleset, ruleset_text, variance_reduction)
    result = duels.duel(ruleset, first, second, deals, seed, chosen, seats, lineup, variance_reduction)
    seconds = time.perf_counter() - start
    played = deals * result.seats  # every wall once per seating
    text = (duels.format_duel(result, chosen, family_of(ruleset).currency_for(ruleset))
            + f"{played:,} deals in {seconds:.1f} s ({played / max(seconds, 1e-9):,.0f} deals/s, compiling included)\n")
    if out is not None:
        config = {"command": "duel", "ruleset": ruleset_text, "players": [first, second], "player_names": list(result.names),
                  "deals": deals, "seed": seed, "room": chosen.name, "stake": chosen.stake, "fee": chosen.fee,
                  "seats": result.seats, "lineup": lineup, "variance_reduction": variance_reduction,
                  "ruleset_source": ruleset.source}
        text += f"wrote {write_table(result.walls_table(), out, config)}\n"
    return text


def league_text(ruleset_text: str, players: list[str], deals: int, seed: int, room: str | None, rooms: Path | None,
                out: Path | None, seats: int | None, report: bool, ratings: bool = False, anchor: str | None = None,
                variance_reduction: bool = True) -> str:
    """A round robin of duels: what `mjsim league` prints (with `ratings`, the rating list after the matrix,
    anchored on `anchor`); its table written to `out` (with `report`, by default under results/) with the
    league's configuration, and its page of charts beside it."""
    if len(players) < 2 or len(set(players)) != len(players):
        raise UserError("a league needs two or more different players")
    if anchor is not None and not ratings:
        raise UserError("--anchor goes with --ratings")
    ruleset = _ruleset(ruleset_text, deals, seed, f"a league of {deals:,} walls per pair")
    check_memory(duels.league_memory(deals, len(players)), f"a league of {len(players)} players and {deals:,} walls per pair",
                 "give fewer --deals", UserError)
    family = family_of(ruleset)
    names = [family.player_name(player) for player in players]  # every player checked before any deal is played
    if seats is not None:
        runner.check_seats(ruleset, seats)
    chosen = chosen_room(rooms, room, ruleset)
    anchored = league_anchor(ruleset, players, anchor) if ratings else None
    check_luck_measurable(ruleset, ruleset_text, variance_reduction)
    table = duels.league(ruleset, players, deals, seed, chosen, seats, variance_reduction=variance_reduction)
    if report and out is None:
        out = Path("results") / f"league-{Path(ruleset_text).stem}-seed{seed}.parquet"
    config = {"command": "league", "ruleset": ruleset_text, "players": players, "player_names": names, "deals": deals,
              "seed": seed, "room": chosen.name, "stake": chosen.stake, "fee": chosen.fee,
              "seats": seats or ruleset.players[0], "variance_reduction": variance_reduction, "ruleset_source": ruleset.source}
    if out is not None:
        write_table(table, out, config)
    currency = family.currency_for(ruleset)
    played, per = ("played twice", "per deal") if (seats or ruleset.players[0]) == 2 else ("the seats rotated", "per seat and deal")
    lines = [f"the row player's mean {currency} {per} less the column player's ({deals:,} walls per pair, {played}; {chosen.name})",
             league_matrix(table).to_string(float_format=lambda value: f"{value:+.3f}")]
    significant = table[(table["beans_difference"] > 0) & table["significant"]]
    lines += [f"{row.player} beats {row.opponent}: z = {row.z:.1f}" for row in significant.itertuples()]
    text = "".join(line + "\n" for line in lines)
    if ratings:
        text += league_ratings_text(table, config, Table(ruleset_text, ruleset.source, config["seats"], chosen.name,
                                                         chosen.stake, chosen.fee), anchored)
    if report:
        from analysis.report import write_league_report

        text += f"wrote {write_league_report(out)}\n"
    return text

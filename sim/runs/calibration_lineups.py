"""The lineups ev's calibration curves hold for (``sim.players.ev_calibration``): the lineup each table's curves
were fitted on, and the note a run gets when it seats ev reporting calibrated chances in another lineup.
"""

from sim.core.ruleset import load_ruleset
from sim.families import family_of
from sim.players.ev_calibration import DEFAULT_OPPONENT, FITTING_PLAYER, TABLES, fitted
from sim.players.player_text import player_settings


def _without_report(text: str) -> str:
    """A canonical player text without its ``report`` parameter, which changes what ev says, not its play."""
    kept = [f"{key}={value}" for key, value in (player_settings(text) or {}).items() if key != "report"]
    return text.partition(":")[0] + (":" + ",".join(kept) if kept else "")


def fitted_lineup(table: int) -> tuple[str, str]:
    """(ev's canonical text, its opponents' canonical text) of the runs `table`'s curves were fitted on,
    ``report`` left out; tables fitted before lineups were recorded were fitted against greedy."""
    name, ruleset_id, seats = TABLES[table]
    family = family_of(load_ruleset(ruleset_id))
    ev_text, opponent = getattr(fitted, "LINEUPS", {}).get(name, (FITTING_PLAYER, DEFAULT_OPPONENT))
    # parsed at the table's own seat count: MCR's Players refuse two
    canonical = family.engine.Players.parse([ev_text] + [opponent] * (seats - 1), seats).names
    return _without_report(canonical[0]), _without_report(canonical[1])


def lineup_note(ruleset, players) -> str | None:
    """One line when a run seats ev reporting calibrated chances in a lineup its table's curves were not
    fitted on (other opponents, or ev with other parameters), saying so and how to fit them; None when the
    lineup is the fitted one or no seat reports calibrated chances. `players`: the seats' canonical texts."""
    calibrated_seats = [seat for seat, text in enumerate(players)
                        if text.partition(":")[0] == "ev" and (player_settings(text) or {}).get("report") in ("1", "1.0")]
    if not calibrated_seats:
        return None
    table = family_of(ruleset).ev.calibration_table(ruleset, len(players))
    ev_text, opponent = fitted_lineup(table)
    seats = [_without_report(text) for text in players]
    if all(seats[seat] == ev_text and all(text == opponent for other, text in enumerate(seats) if other != seat)
           for seat in calibrated_seats):
        return None
    short = [text.partition(":")[0] for text in players]
    others = {text for seat, text in enumerate(seats) if seat != calibrated_seats[0]}
    suggested = others.pop() if len(others) == 1 else "PLAYER"
    if suggested == ev_text:
        suggested = "ev"
    return (f"ev's reported chances are uncalibrated for this lineup ({' v '.join(short)}): table "
            f"{TABLES[table][0]} was fitted on {ev_text.partition(':')[0]} v {opponent.partition(':')[0]}; fit it "
            f"with `mjsim calibrate-ev --tables {TABLES[table][0]} --opponents {suggested}`")

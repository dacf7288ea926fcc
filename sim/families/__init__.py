"""The registry: the families of games mjsim plays, by the name a ruleset file gives in its `family` key.

This is the one place where code asks which family a ruleset belongs to (``family_of``: the runner, the
analysis, the duels and the replay), and the one list of the shipped rulesets and the tables they are played
at (``ruleset_ids``, ``tables``: the commands, the benchmark, ev's calibration and the README read them
here). What a family provides is ``sim.players.family``; adding one is adding its package and one line to
``FAMILIES`` (docs/layout.md#adding-a-family).
"""

from functools import cache
from pathlib import Path

from sim import erren, mcr, xuezhan
from sim.core.rooms import RoomsError
from sim.core.ruleset import load_ruleset
from sim.players.family import Family

FAMILIES: dict[str, Family] = {family.name: family for family in (
    erren.FAMILY,
    xuezhan.FAMILY,
    mcr.FAMILY,
)}


def ruleset_ids() -> tuple[str, ...]:
    """The id of every shipped ruleset, family by family in the registry's order."""
    return tuple(ruleset_id for family in FAMILIES.values() for ruleset_id in family.rulesets)


@cache
def tables() -> tuple[tuple[str, int], ...]:
    """(ruleset id, seats) of every table the shipped rulesets are played at: each ruleset at each seat count
    its file allows, its default first."""
    return tuple((ruleset_id, seats) for ruleset_id in ruleset_ids() for seats in load_ruleset(ruleset_id).players)


def calibration_tables() -> tuple[tuple[str, str, int], ...]:
    """(name, ruleset id, seats) of each table ev's chances are calibrated at (sim.players.ev_calibration):
    every table of ``tables``, named by its ruleset, and by its seats too where the ruleset allows several."""
    counts = {ruleset_id: sum(1 for other, _ in tables() if other == ruleset_id) for ruleset_id, _ in tables()}
    return tuple((ruleset_id if counts[ruleset_id] == 1 else f"{ruleset_id}-{seats}", ruleset_id, seats)
                 for ruleset_id, seats in tables())


def family_of(ruleset) -> Family:
    return FAMILIES[ruleset.family]


def rooms_path(ruleset, rooms: Path | None) -> Path:
    """The rooms file `--rooms` names for `ruleset` (None: the family's default; a path; or the name of a
    rooms file the family ships, ``Family.named_rooms``). The name of another family's shipped file is one
    RoomsError saying whose it is, rather than a file not found."""
    family = family_of(ruleset)
    if rooms is not None and not Path(rooms).exists() and str(rooms) not in family.named_rooms:
        owners = [other for other in FAMILIES.values() if str(rooms) in other.named_rooms]
        if owners:
            raise RoomsError(f"--rooms {rooms}: {str(rooms)!r} names a rooms file of the {owners[0].title} family only "
                             f"({owners[0].named_rooms[str(rooms)].name}), and {ruleset.id} is of the {family.title} "
                             f"family; leave --rooms out for its own rooms, or give a rooms file by its path")
    return family.rooms_path(Path(rooms) if rooms is not None else None, ruleset)


def default_texts(ruleset) -> dict[str, str]:
    """Each built-in player of the ruleset's family by name: its canonical text with no parameter given
    (what ``sim.players.player_text.players_label`` leaves out of a table's name)."""
    family = family_of(ruleset)
    names = [*family.players.NAMES, *family.players.NUMBA_PLAYERS]
    seats = ruleset.players[0]  # a table the ruleset is played at: MCR seats four only
    return {name: family.engine.Players.parse([name] * seats, seats).names[0] for name in names}

"""The families of games mjsim plays, by the name a ruleset file gives in its `family` key.

This is the one place where code asks which family a ruleset belongs to; the runner, the analysis
commands, the duels and the replay go through ``family_of``. What a family provides is ``sim.family``.
"""

from pathlib import Path

from analysis.rooms import RoomsError
from sim import erren, xuezhan
from sim.family import Family

FAMILIES: dict[str, Family] = {family.name: family for family in (erren.FAMILY, xuezhan.FAMILY)}


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
    (what ``sim.player_text.players_label`` leaves out of a table's name)."""
    family = family_of(ruleset)
    names = [*family.players.NAMES, *family.players.NUMBA_PLAYERS]
    return {name: family.engine.Players.parse([name, name], 2).names[0] for name in names}

"""Rooms: the stake, table fee (台费) and entry range of each room, read from a TOML data file.

Each family ships its rooms beside its code (``sim/erren/rooms.toml`` for 富贵豆, ``sim/xuezhan/rooms.toml``);
their figures are illustrative, since the seeds give none (docs/rules/). A user's own file has the same layout. A malformed file gets one RoomsError naming the file
and the problem.
"""

from dataclasses import dataclass
from pathlib import Path

from sim.core.input_limits import read_toml

KEYS = {"stake": int, "fee": int, "min_entry": int, "max_entry": int}
# Money is reckoned in 64-bit integers: a deal's largest movement (a 32-bit record times the stake) must
# fit, summed over a session of deals, with room to spare.
LARGEST_STAKE = 10**9
LARGEST_AMOUNT = 10**15  # fee and entry bounds
LARGEST_ROOMS = 100  # each room is a simulation of its own in `mjsim economics`


class RoomsError(ValueError):
    """A rooms file that cannot be read or does not describe rooms."""


@dataclass(frozen=True)
class Room:
    name: str
    stake: int  # beans per fan (二人麻将), or the base stake per unit (血战)
    fee: int  # 台费, paid by each player every deal
    min_entry: int
    max_entry: int  # 0: no upper limit


def load_rooms(path: Path | str | None, default: Path) -> list[Room]:
    """The rooms of `path`, or of the `default` file (a family's rooms, ``Family.rooms_file``)."""
    path = Path(path) if path is not None else default
    data, _ = read_toml(path, RoomsError, "rooms file")
    rooms = data.get("rooms")
    if not isinstance(rooms, dict) or not rooms:
        raise RoomsError(f"rooms file {path} has no [rooms.<name>] tables")
    if len(rooms) > LARGEST_ROOMS:
        raise RoomsError(f"rooms file {path} has {len(rooms):,} rooms; at most {LARGEST_ROOMS}")
    unknown = set(data) - {"rooms"}
    if unknown:
        raise RoomsError(f"rooms file {path}: unknown table {min(unknown)!r}; a rooms file has [rooms.<name>] tables only")
    found = []
    for name, table in rooms.items():
        if not isinstance(table, dict) or set(table) != set(KEYS):
            raise RoomsError(f"rooms file {path}: room {name!r} needs exactly the keys {', '.join(KEYS)}")
        for key in KEYS:
            if type(table[key]) is not int or table[key] < 0:
                raise RoomsError(f"rooms file {path}: room {name!r}: {key} must be a non-negative integer")
        if table["stake"] == 0:
            raise RoomsError(f"rooms file {path}: room {name!r}: stake must be positive")
        for key in KEYS:
            largest = LARGEST_STAKE if key == "stake" else LARGEST_AMOUNT
            if table[key] > largest:
                raise RoomsError(f"rooms file {path}: room {name!r}: {key} = {table[key]} is more than {largest:,}")
        if table["max_entry"] and table["max_entry"] < table["min_entry"]:
            raise RoomsError(f"rooms file {path}: room {name!r}: max_entry is below min_entry")
        found.append(Room(name, **table))
    return found

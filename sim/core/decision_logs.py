"""Decision logs: for chosen seats, one row per decision that offered a choice, as a dataset to learn from
(docs/learning.md#decision-datasets).

A row holds the deal, the seat, the decision's kind (``sim.core.actions.DECISION_NAMES``), the seat's numeric
observation at the decision (the family's ``encode`` with ``deciding=True``), the legal actions as a packed bit
mask over the ``N_ACTIONS`` codes, the action taken, the chance of winning the player reported with it (NaN
when none: reports are read with discards, as ``sim.core.win_chances`` keeps them) and the deal's final money
for the seat (filled after the deal, from its record).

An engine keeps the rows when its ``DecisionLog`` has room (``new_log``): a runtime switch like the luck of the
draws, so the engine has one compiled copy whether it keeps them or not. The deal loops set the batch row
(``begin_deal``); at each recorded seat's decision with two or more legal actions the engine takes a row
(``take_row``), encodes the seat into it and fills the rest (``fill_row``). A row past the log's room is
counted, not written, and ``check_room`` turns any such count into an error: a log is sized from a bound on a
deal's decisions, so it never happens, and would be loud if it did.

The run writes one Parquet file per shard beside the records (``decisions/shard-NNNNNN.parquet``);
``sim.rl.decisions`` reads them back.
"""

from pathlib import Path
from typing import NamedTuple

import numpy as np
import pyarrow as pa
from numba import njit

from sim.core.actions import ACTION_BASE, DISCARD, DISCARD_READY, N_ACTIONS
from sim.core.run_directory import DECISIONS
from sim.core.win_chances import NO_REPORT

MASK_BYTES = (N_ACTIONS + 7) // 8  # 104: the legal actions, one bit per code, little bit first in each byte
MAX_SEATS = 4
CHUNK_DEALS = 200  # deals played per batch when a run keeps decisions (the log's room, reserved not zeroed, is per batch)
ROW_COLUMNS = ("deal", "seat", "decision", "action", "win_chance", "money")


class DecisionLog(NamedTuple):
    recorded: np.ndarray  # int8 (MAX_SEATS,): 1 for each seat whose decisions are kept
    current: np.ndarray  # int64 (1,): the batch row (deal) being played
    count: np.ndarray  # int64 (1,): rows kept
    overflow: np.ndarray  # int64 (1,): rows that found no room (never, with a log sized by `decisions_bound`)
    rows: np.ndarray  # int32 (capacity,): the batch row of each
    seats: np.ndarray  # int8 (capacity,)
    decisions: np.ndarray  # int8 (capacity,): the decision's kind
    actions: np.ndarray  # int16 (capacity,): the action code taken
    chances: np.ndarray  # float32 (capacity,): the reported chance of winning, NaN when none
    observations: np.ndarray  # int16 (capacity, size): the seat's encoding at the decision
    masks: np.ndarray  # uint8 (capacity, MASK_BYTES): the legal actions, packed


def decisions_bound(discards_per_deal: int, kongs_per_deal: int) -> int:
    """The most decisions with a choice one seat can meet in a deal with at most `discards_per_deal` discards
    and `kongs_per_deal` kongs. ``win_chances.discards_bound`` counts every draw from the wall, claim and the
    opening, and each of a seat's turns starts with one of them, so it bounds the seat's turns too; the seat
    is asked at most once about each other seat's discard (a claim) and kong (a rob). Doubling (二人's
    challenge) answers a turn or a claim and may ask the seat once more, so each counts twice. The opening
    adds at most five: three tiles to exchange (换三张), a void suit (定缺) and an opening ready."""
    return 2 * (discards_per_deal + kongs_per_deal + 1) + 5


def new_log(seats, n_deals: int, per_deal: int, size: int) -> DecisionLog:
    """A log keeping the decisions of `seats` (seat numbers) over `n_deals` deals, `per_deal` rows a deal and
    seat (``decisions_bound``), observations of `size` entries. Its arrays are zeroed on demand by the system,
    so the room only reserved costs no memory."""
    recorded = np.zeros(MAX_SEATS, np.int8)
    for seat in seats:
        recorded[seat] = 1
    capacity = n_deals * per_deal * len(set(seats))
    return DecisionLog(recorded, np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
                       np.zeros(capacity, np.int32), np.zeros(capacity, np.int8), np.zeros(capacity, np.int8),
                       np.zeros(capacity, np.int16), np.zeros(capacity, np.float32), np.zeros((capacity, size), np.int16),
                       np.zeros((capacity, MASK_BYTES), np.uint8))


def no_log(size: int) -> DecisionLog:
    """The log of a batch that keeps no decisions: room for nothing (the loops pay one branch a decision)."""
    return new_log((), 0, 0, size)


@njit(cache=True, inline="always", _nrt=False)
def keeping(log):
    return log.rows.shape[0] > 0


@njit(cache=True, inline="always", _nrt=False)
def begin_deal(log, row):
    log.current[0] = row


@njit(cache=True, inline="always", _nrt=False)
def take_row(log, seat):
    """The row for `seat`'s decision now pending, or -1 when its decisions are not kept or there is no room
    left (then counted in `overflow`)."""
    if log.rows.shape[0] == 0 or log.recorded[seat] == 0:
        return -1
    index = log.count[0]
    if index >= log.rows.shape[0]:
        log.overflow[0] += 1
        return -1
    log.count[0] = index + 1
    return index


@njit(cache=True, inline="always", _nrt=False)
def fill_row(log, index, seat, decision, legal, n_legal, action, chance):
    """Row `index` (its observation already encoded): the batch row, seat, decision kind, the `n_legal`
    legal actions in `legal` as bits, the action and the chance reported (NO_REPORT: none)."""
    log.rows[index], log.seats[index], log.decisions[index] = log.current[0], seat, decision
    log.actions[index] = action
    log.chances[index] = np.nan if chance == NO_REPORT else chance
    mask = log.masks[index]
    for byte in range(mask.shape[0]):
        mask[byte] = 0
    for position in range(n_legal):
        code = legal[position]
        mask[code >> 3] |= np.uint8(1 << (code & 7))


@njit(cache=True, inline="always", _nrt=False)
def reported(chance, action):
    """The chance a player reported with `action` as the records keep it: read with discards only, a number
    from 0 to 1; NO_REPORT otherwise."""
    code = action // ACTION_BASE
    if (code == DISCARD or code == DISCARD_READY) and 0.0 <= chance <= 1.0:
        return chance
    return NO_REPORT


def check_room(log: DecisionLog) -> None:
    """RuntimeError if any decision found no room: the bound the log was sized by is wrong."""
    if log.overflow[0]:
        raise RuntimeError(f"the decision log had no room for {int(log.overflow[0])} decisions: "
                           "sim.core.decision_logs.decisions_bound is too small")


class KeptDecisions(NamedTuple):
    """A batch's decisions without the log's unused room; ``rows`` are batch rows (deal = first deal + row)."""

    rows: np.ndarray
    seats: np.ndarray
    decisions: np.ndarray
    actions: np.ndarray
    chances: np.ndarray
    observations: np.ndarray
    masks: np.ndarray


def trimmed(log: DecisionLog) -> KeptDecisions:
    """The rows kept (copied: the log's room is released); RuntimeError after an overflow."""
    check_room(log)
    used = int(log.count[0])
    return KeptDecisions(log.rows[:used].copy(), log.seats[:used].copy(), log.decisions[:used].copy(),
                         log.actions[:used].copy(), log.chances[:used].copy(), log.observations[:used].copy(),
                         log.masks[:used].copy())


# The Parquet file, column by column: its Arrow type and what it holds (docs/learning.md repeats it).
COLUMNS = {
    "deal": (pa.int64(), "the deal's number in the run"),
    "seat": (pa.int8(), "the deciding seat"),
    "decision": (pa.int8(), "the decision's kind: its index in sim.core.actions.DECISION_NAMES"),
    "action": (pa.int16(), "the action code taken (code x 64 + tile, sim.core.actions)"),
    "win_chance": (pa.float32(), "the chance of winning the player reported with the action; NaN when none"),
    "money": (pa.float64(), "the deal's final money for the seat at stake 1 and no fee, in the family's units"),
    "observation": (None, "the seat's encoding at the decision: a fixed-size list of int16 (the family's SIZE)"),
    "mask": (pa.binary(MASK_BYTES), f"the legal actions, {MASK_BYTES} bytes: bit c % 8 of byte c // 8 is action code c"),
}


def table_of(kept: KeptDecisions, first_deal: int, seat_money: np.ndarray) -> pa.Table:
    """The file's table of a batch's decisions, `seat_money` (deals, seats) the money of each deal's seats."""
    n, size = kept.observations.shape
    observation_type = pa.list_(pa.int16(), size)
    columns = {
        "deal": pa.array(first_deal + kept.rows.astype(np.int64)),
        "seat": pa.array(kept.seats),
        "decision": pa.array(kept.decisions),
        "action": pa.array(kept.actions),
        "win_chance": pa.array(kept.chances),
        "money": pa.array(np.asarray(seat_money, np.float64)[kept.rows, kept.seats] if n else np.zeros(0)),
        "observation": pa.FixedSizeListArray.from_arrays(pa.array(kept.observations.reshape(-1)), size),
        "mask": pa.FixedSizeBinaryArray.from_buffers(pa.binary(MASK_BYTES), n,
                                                     [None, pa.py_buffer(np.ascontiguousarray(kept.masks).tobytes())]),
    }
    schema = pa.schema([pa.field(name, observation_type if name == "observation" else kind)
                        for name, (kind, _) in COLUMNS.items()])
    return pa.table(columns, schema=schema)


def unpack_masks(packed: np.ndarray) -> np.ndarray:
    """bool (n, N_ACTIONS) from packed masks (n, MASK_BYTES)."""
    return np.unpackbits(packed, axis=1, bitorder="little", count=N_ACTIONS).astype(bool)


def decisions_path(directory: Path, index: int) -> Path:
    return Path(directory) / DECISIONS / f"shard-{index:06d}.parquet"


def file_metadata(seats) -> dict:
    """What a shard's decision file adds to the shard's metadata: whose decisions it holds."""
    return {"decision_seats": sorted(int(seat) for seat in seats)}


def parse_seats(text: str, seats: int) -> tuple[int, ...]:
    """Seat numbers from `0` or `0,1` (each from 0 to `seats` - 1, none twice); ValueError naming the fault."""
    parts = [part.strip() for part in str(text).split(",")]
    chosen = []
    for part in parts:
        if not part.isdigit() or not 0 <= int(part) < seats:
            raise ValueError(f"--decisions takes seat numbers from 0 to {seats - 1}, comma-separated, not {text!r}")
        if int(part) in chosen:
            raise ValueError(f"--decisions names seat {part} twice")
        chosen.append(int(part))
    return tuple(sorted(chosen))

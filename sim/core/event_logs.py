"""Event logs as data: every event of every deal, one row each, in Parquet (docs/event-logs.md).

The engines keep one deal's events in a small array they reuse (``events``: row 0 holds the count). A run
with ``--logs`` hands the deal loop a ``BatchLog`` as well, and the loop appends each finished deal's events
to it (``keep_events``); a batch without logs passes ``no_batch_log()`` and pays one branch a deal.

The family's ``event_log`` module turns those integer rows into the columns of the one schema below, and
this module writes them, one file per shard beside the records (``logs/shard-NNNNNN.parquet``), and reads
them back. ``mjsim replay --json`` prints one deal in the same schema, as JSON lines.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pyarrow as pa
from numba import njit

from kernels.tiles import FIRST_FLOWER, N_FLOWERS, N_KINDS
from sim.core.notation import tile_name
from sim.core.run_directory import LOGS  # the run directory's folder of event logs

LOG_CHUNK_DEALS = 2_000  # deals played per batch when logging: a batch's log has room for MAX_EVENTS a deal

# The schema, column by column: its Arrow type and what it holds (docs/event-logs.md repeats it).
COLUMNS = {
    "deal": (pa.int64(), "the deal's number in the run"),
    "step": (pa.int16(), "the event's place in the deal, from 0"),
    "seat": (pa.int8(), "the seat that acts (draws, discards, claims, declares, wins, pays); -1 for the table's own events"),
    "event": (pa.dictionary(pa.int8(), pa.string()), "what happened: one of the family's event names"),
    "tile": (pa.dictionary(pa.int8(), pa.string()), "the tile in MPSZ notation (a chow: its lowest tile); null where there is none"),
    "to_seat": (pa.int8(), "the seat that receives: the money of a payment, the tiles of 换三张; -1 otherwise"),
    "money": (pa.int64(), "a payment's amount, from `seat` to `to_seat`, in the ruleset's units (points, 血战 units); 0 otherwise"),
}
NO_SEAT = -1
# Tile ids as the engines log them: 0-33 the kinds, then the flowers; anything else is no tile.
TILE_TEXTS = [tile_name(kind) for kind in range(N_KINDS)] + [f"{flower + 1}f" for flower in range(N_FLOWERS)]
assert len(TILE_TEXTS) == FIRST_FLOWER + N_FLOWERS
TILE_IDS = {text: tile for tile, text in enumerate(TILE_TEXTS)}


@dataclass
class DealLog:
    """Everything about one deal, as an engine's ``replay`` gives it: its record, its fans (N_FANS, or
    n_seats x N_FANS where a deal has several wins), the shuffled wall, the event log (n, 3: code, seat,
    tile) and, in a family whose events move money, each event's amount (payments; a win's raw value)."""

    record: dict
    fans: np.ndarray
    wall: np.ndarray
    events: np.ndarray
    amounts: np.ndarray | None = None


class BatchLog(NamedTuple):
    """The events of a batch's deals, flat: deal `row`'s are rows[ends[row - 1] : ends[row]]."""

    rows: np.ndarray  # (capacity, width), the engine's event dtype and columns without the count row
    ends: np.ndarray  # int64 (deals,): where each deal's events end; empty when no log is kept


def new_batch_log(n_deals: int, max_events: int, width: int, dtype) -> BatchLog:
    return BatchLog(np.zeros((n_deals * max_events, width), dtype), np.zeros(n_deals, np.int64))


def no_batch_log(width: int, dtype) -> BatchLog:
    """A log that keeps nothing: the loop skips it."""
    return BatchLog(np.zeros((0, width), dtype), np.zeros(0, np.int64))


@njit(cache=True, inline="always", _nrt=False)
def keep_events(events, log, row):
    """Append the deal just played (its events, row 0 their count) to the batch log, if one is kept."""
    if log.ends.shape[0] == 0:
        return
    start = log.ends[row - 1] if row > 0 else 0
    count = events[0, 0]
    for index in range(count):
        for column in range(events.shape[1]):
            log.rows[start + index, column] = events[1 + index, column]
    log.ends[row] = start + count


def trimmed(log: BatchLog) -> BatchLog:
    """The log without its unused room."""
    used = int(log.ends[-1]) if log.ends.shape[0] else 0
    return BatchLog(log.rows[:used].copy(), log.ends.copy())


def chunks(first: int, count: int, session_length: int, size: int = LOG_CHUNK_DEALS) -> list[tuple[int, int]]:
    """(first deal, deals) of the batches a logged shard is played in: `size` or so each, every one starting
    a session, so that each plays exactly as within one batch."""
    if session_length:
        size = max(1, -(-size // session_length)) * session_length
    return [(start, min(size, first + count - start)) for start in range(first, first + count, size)]


def tile_column(tiles: np.ndarray) -> pa.DictionaryArray:
    """MPSZ texts of engine tile ids; null for an id that is not a tile (the engines' NO_TILE)."""
    tiles = np.asarray(tiles, np.int64)
    valid = (tiles >= 0) & (tiles < len(TILE_TEXTS))
    indices = pa.array(np.where(valid, tiles, 0).astype(np.int8), mask=~valid)
    return pa.DictionaryArray.from_arrays(indices, pa.array(TILE_TEXTS))


def event_column(codes: np.ndarray, names: tuple[str, ...]) -> pa.DictionaryArray:
    return pa.DictionaryArray.from_arrays(pa.array(np.asarray(codes, np.int8)), pa.array(list(names)))


def table_of(deals: np.ndarray, ends: np.ndarray, columns: dict) -> pa.Table:
    """The schema's table: the rows of deal deals[i] end at ends[i], which give the `deal` and `step`
    columns; `columns` holds the others (numpy, or Arrow for the dictionary columns)."""
    counts = np.diff(np.concatenate([[0], ends])).astype(np.int64)
    columns = {
        "deal": np.repeat(np.asarray(deals, np.int64), counts),
        "step": (np.arange(int(counts.sum())) - np.repeat(ends - counts, counts)).astype(np.int16),
        **columns,
    }
    schema = pa.schema([pa.field(name, kind) for name, (kind, _) in COLUMNS.items()])
    return pa.table({name: columns[name] for name in COLUMNS}, schema=schema)


def log_path(directory: Path, index: int) -> Path:
    return directory / LOGS / f"shard-{index:06d}.parquet"


def json_lines(table: pa.Table) -> str:
    """One JSON object per event, in the schema's columns (null for no tile)."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in table.to_pylist())

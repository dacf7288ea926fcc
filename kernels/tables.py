"""Per-suit lookup tables behind the standard-form shanten kernels: how they are built, cached and loaded.

For one suit the hand's counts of its ranks, read as a base-5 number (rank r is digit r, least significant
first), index a row. Column ``2 * sets + pairs`` (sets 0-4, pairs 0-1) holds the fewest tiles that must be
added to the suit so that it contains ``sets`` sets and ``pairs`` pairs, every kind capped at four copies.
Because that cost is a sum over kinds, the cost of a whole hand is the best way to split the sets and the
pair among the suits: see ``kernels/shanten.py``. Number suits have 9 ranks and chows; honours have 7
kinds and no chows.

The tables are built here by a plain dynamic programme (about a second) and cached on disk as ``.npy``
files under ``$MJSIM_CACHE_DIR`` (default ``~/.cache/mjsim``), each beside a ``.sha256`` file holding the
SHA-256 of its contents; later loads read them back in milliseconds, and a table whose contents do not
match its checksum (a damaged disk, an edited file) is rebuilt instead of trusted.
"""

import functools
import hashlib
import os
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from kernels.compile_cache import cache_dir

MAX_SETS = 4
N_COLUMNS = 2 * (MAX_SETS + 1)
SUIT_RANKS = 9
HONOR_RANKS = 7
TABLE_FORMAT = 1  # bump when the layout or meaning of a table changes, so stale caches are rebuilt


class ShantenTables(NamedTuple):
    suit: np.ndarray  # (5**9, N_COLUMNS) uint8
    honors: np.ndarray  # (5**7, N_COLUMNS) uint8


@njit(cache=True)
def _digits(n_ranks):
    n_rows = 5**n_ranks
    digits = np.empty((n_rows, n_ranks), np.int8)
    for index in range(n_rows):
        rest = index
        for rank in range(n_ranks):
            digits[index, rank] = rest % 5
            rest //= 5
    return digits


@njit(cache=True)
def _build_table(n_ranks, allow_chows, out):
    n_rows = 5**n_ranks
    power = np.empty(n_ranks, np.int64)
    for rank in range(n_ranks):
        power[rank] = 5**rank
    digits = _digits(n_ranks)

    # is_target[column, index]: the counts are exactly `sets` sets plus `pairs` pairs.
    is_target = np.zeros((N_COLUMNS, n_rows), np.bool_)
    is_target[0, 0] = True
    for rank in range(n_ranks):
        is_target[1, 2 * power[rank]] = True
    for pairs in range(2):
        for sets in range(1, MAX_SETS + 1):
            source = 2 * (sets - 1) + pairs
            destination = 2 * sets + pairs
            for index in range(n_rows):
                if not is_target[source, index]:
                    continue
                for rank in range(n_ranks):
                    if digits[index, rank] <= 1:
                        is_target[destination, index + 3 * power[rank]] = True
                if allow_chows:
                    for rank in range(n_ranks - 2):
                        if digits[index, rank] <= 3 and digits[index, rank + 1] <= 3 and digits[index, rank + 2] <= 3:
                            is_target[destination, index + power[rank] + power[rank + 1] + power[rank + 2]] = True

    contains_target = np.empty(n_rows, np.bool_)
    for column in range(N_COLUMNS):
        # Removing a tile lowers the index, so ascending order sees every sub-multiset first.
        for index in range(n_rows):
            found = is_target[column, index]
            rank = 0
            while not found and rank < n_ranks:
                if digits[index, rank] > 0 and contains_target[index - power[rank]]:
                    found = True
                rank += 1
            contains_target[index] = found
        # Adding a tile raises the index; one added tile lowers the distance by at most one.
        for index in range(n_rows - 1, -1, -1):
            if contains_target[index]:
                out[index, column] = 0
                continue
            best = 255
            for rank in range(n_ranks):
                if digits[index, rank] < 4:
                    best = min(best, out[index + power[rank], column])
            out[index, column] = best + 1


def build_tables() -> ShantenTables:
    """Build both tables from scratch (deterministic)."""
    suit = np.empty((5**SUIT_RANKS, N_COLUMNS), np.uint8)
    honors = np.empty((5**HONOR_RANKS, N_COLUMNS), np.uint8)
    _build_table(SUIT_RANKS, True, suit)
    _build_table(HONOR_RANKS, False, honors)
    return ShantenTables(suit, honors)



def _cache_paths() -> tuple[Path, Path]:
    directory = cache_dir()
    return (directory / f"shanten-suit-v{TABLE_FORMAT}.npy", directory / f"shanten-honors-v{TABLE_FORMAT}.npy")


def _checksum(table: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(table).tobytes()).hexdigest()


def _checksum_path(path: Path) -> Path:
    return path.with_suffix(".sha256")


def _load_cached() -> ShantenTables | None:
    suit_path, honors_path = _cache_paths()
    try:
        suit = np.load(suit_path, allow_pickle=False)
        honors = np.load(honors_path, allow_pickle=False)
        stored = {path: _checksum_path(path).read_text(encoding="ascii").strip() for path in (suit_path, honors_path)}
    except (OSError, ValueError):
        return None
    expected = {suit_path: (suit, 5**SUIT_RANKS), honors_path: (honors, 5**HONOR_RANKS)}
    for path, (table, n_rows) in expected.items():
        if table.dtype != np.uint8 or table.shape != (n_rows, N_COLUMNS) or _checksum(table) != stored[path]:
            return None
    return ShantenTables(suit, honors)


def _save_atomically(path: Path, table: np.ndarray) -> None:
    """The table, then its checksum (a table without a matching checksum is never trusted)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for target, write in ((path, lambda stream: np.save(stream, table, allow_pickle=False)),
                          (_checksum_path(path), lambda stream: stream.write(_checksum(table).encode("ascii")))):
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                write(stream)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


@functools.cache
def load_tables() -> ShantenTables:
    """The tables, from the disk cache when it is there and sound, else built and cached."""
    tables = _load_cached()
    if tables is not None:
        return tables
    tables = build_tables()
    try:
        for path, table in zip(_cache_paths(), tables):
            _save_atomically(path, table)
    except OSError:
        pass  # a read-only home still works: the tables are rebuilt at every start instead
    return tables

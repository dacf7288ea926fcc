"""The chances of winning that players report: from the seat, through the engine's loop, into the records.

A user player (numba, Python or ``exec:``) may say, when it discards, how likely it thinks it is to win the
deal: a number from 0 to 1 (docs/write-a-player.md#reporting-your-chance-of-winning). The built-in ``ev``
player always does. The engine keeps each report made with a discard, in order, and the run writes them as
one list column per seat, ``win_chances_<seat>`` (float32), beside the deal's record; the analysis compares
them with the deals' outcomes (``analysis.calibration``).

``WinChanceLog`` is the loop's side: one slot the asked seat writes (``chance``, reset before every
question), and the reports kept so far in the batch, flat, in the order they were made.
"""

from typing import NamedTuple

import numpy as np
import pyarrow as pa
from numba import njit

from sim.core.actions import ACTION_BASE, DISCARD, DISCARD_READY

NO_REPORT = -1.0  # what the slot holds until the player writes to it
COLUMN_PREFIX = "win_chances_"
MELDS_PER_SEAT = 4  # each claim gives a seat one discard more than its draws


class WinChanceLog(NamedTuple):
    chance: np.ndarray  # float64 (1,): the asked seat's report at this decision, NO_REPORT when none
    values: np.ndarray  # float32 (capacity,): the reports kept, in the order they were made
    rows: np.ndarray  # int32 (capacity,): the batch row (deal) of each
    seats: np.ndarray  # int8 (capacity,): the seat of each
    count: np.ndarray  # int64 (1,): how many are kept


def new_log(n_deals: int, discards_per_deal: int) -> WinChanceLog:
    """A log with room for every discard of `n_deals` deals (`discards_per_deal`: ``discards_bound``)."""
    capacity = n_deals * discards_per_deal
    return WinChanceLog(np.full(1, NO_REPORT), np.zeros(capacity, np.float32), np.zeros(capacity, np.int32),
                        np.zeros(capacity, np.int8), np.zeros(1, np.int64))


def no_log() -> WinChanceLog:
    """The log of a batch whose seats cannot report (built-in heuristics only): room for nothing."""
    return new_log(0, 0)


def discards_bound(drawable_tiles: int, seats: int) -> int:
    """The most discards one deal can have: every discard follows a draw from the wall, a claim (at most
    four a seat) or the dealer's opening."""
    return drawable_tiles + MELDS_PER_SEAT * seats + 1


# What `keep` answers: the report was kept (or there was none to keep), or it is not a chance.
KEPT, NOT_A_CHANCE = 0, 1


@njit(cache=True, inline="always", _nrt=False)
def ask(log):
    """Before a seat is asked: nothing reported yet."""
    log.chance[0] = NO_REPORT


@njit(cache=True, inline="always", _nrt=False)
def keep(log, row, seat, action):
    """After the seat answered `action`: keep its report if the action is a discard and it made one.
    NOT_A_CHANCE when the report is not a number from 0 to 1 (NaN included)."""
    chance = log.chance[0]
    if chance == NO_REPORT:
        return KEPT
    code = action // ACTION_BASE
    if code != DISCARD and code != DISCARD_READY:
        return KEPT  # reports are read at discards only
    if not (0.0 <= chance <= 1.0):
        return NOT_A_CHANCE
    index = log.count[0]
    if index < log.values.shape[0]:  # always true: the log is sized by `discards_bound`
        log.values[index], log.rows[index], log.seats[index] = chance, row, seat
        log.count[0] = index + 1
    return KEPT


def columns(log: WinChanceLog, n_deals: int, seats) -> dict:
    """``win_chances_<seat>`` for each of `seats`: a list per deal of the seat's reports, in order."""
    count = int(log.count[0])
    values, rows, reporters = log.values[:count], log.rows[:count], log.seats[:count]
    result = {}
    for seat in seats:
        mine = reporters == seat
        offsets = np.zeros(n_deals + 1, np.int32)
        np.cumsum(np.bincount(rows[mine], minlength=n_deals), out=offsets[1:])
        result[f"{COLUMN_PREFIX}{seat}"] = pa.ListArray.from_arrays(pa.array(offsets), pa.array(values[mine]))
    return result


def chance_of(value, who: str) -> float | None:
    """A Python or exec: player's report as a float (None when it made none); ValueError when it is not a
    number from 0 to 1."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not 0 <= value <= 1:
        raise ValueError(f"{who} reported a win chance of {value!r}, not a number from 0 to 1")
    return float(value)

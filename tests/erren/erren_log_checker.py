"""The 二人 log checker: a run's deals rebuilt from their event logs alone (docs/event-logs.md#what-a-log-witnesses).

``check_logged_run(directory)`` reads a logged 二人 run's logs as any reader of the Parquet files would (event
names, MPSZ tiles, seats, payees and amounts), turns each deal's rows back into the documented vocabulary, and
walks them on the slow twin of the table procedure (tests/erren/naive_game.py): the wall is the one the log
shows, every tile dealt or drawn must come from its front or back, every action must be legal when taken, a
pass or a declined win must be logged exactly where the seat had that choice, every declaration must list the
hand's true waits, the last tile in play and the extra draws must be marked where they happen, every win is
scored again and its payment priced again from the rules. The run's records are read only to compare: each
deal's record fields and fans must be what the twin derived from the log.
"""

from pathlib import Path

import numpy as np
from naive_game import CODE_NAMES, PAY_WIN, check_deal

from kernels.fan_ids import N_FANS, Fan
from sim.core.event_logs import TILE_IDS, DealLog
from sim.core.run_records import load_run, read_logs, read_records

# The documented event names (docs/event-logs.md, 二人 events) in the twin's order of codes.
LOGGED_NAMES = (
    "deal", "draw", "replacement", "discard", "ready", "heavenly_ready", "chow", "pong", "kong", "concealed_kong",
    "added_kong", "double", "win_self_drawn", "win_discard", "win_robbed_kong", "wall_empty", "bonus_tile",
    "extra_draw", "exchange_gives", "exchange_takes", "pick", "pung_offer", "pung_gives",
    "wall", "out_of_play", "last_tile", "extra_draws", "pass", "decline_win", "wait", "chow_lowest", "pay_win",
)
assert len(LOGGED_NAMES) == len(CODE_NAMES)
CODES = {name: code for code, name in enumerate(LOGGED_NAMES)}
FAN_PREFIX = "fan_"


def logged_rows(events) -> np.ndarray:
    """The logged events (read_logs) as rows (code, seat, tile, amount), a payment's payee in the tile column."""
    codes = events["event"].astype(str).map(CODES).to_numpy(np.int64)
    tiles = events["tile"].astype(object).map(lambda tile: -1 if tile is None or tile != tile else TILE_IDS[tile])
    paying = codes == PAY_WIN
    tiles = np.where(paying, events["to_seat"].to_numpy(np.int64), tiles.to_numpy(np.int64))
    return np.column_stack([codes, events["seat"].to_numpy(np.int64), tiles, events["money"].to_numpy(np.int64)])


def record_of(row) -> tuple[dict, np.ndarray]:
    """A records row as the twin compares it: the record's fields, and the fans by Fan id."""
    fans = np.zeros(N_FANS, np.int64)
    record = {}
    for name, value in row.items():
        if name.startswith(FAN_PREFIX) and name[len(FAN_PREFIX):].upper() in Fan.__members__:  # not fan_total
            fans[Fan[name[len(FAN_PREFIX):].upper()]] = int(value)
        else:
            record[name] = int(value)
    return record, fans


def check_logged_run(directory: Path) -> int:
    """Rebuild every deal of the logged 二人 run in `directory` from its logs; AssertionError at the first deal the
    log does not witness, naming it. Returns the number of deals checked."""
    config, ruleset = load_run(directory)
    records = read_records(directory, config, ruleset)
    events = read_logs(directory)  # in deal and step order
    rows, deals = logged_rows(events), events["deal"].to_numpy(np.int64)
    numbers, starts = np.unique(deals, return_index=True)
    assert numbers.tolist() == sorted(records["deal"].tolist()), "the logs and the records hold different deals"
    spans = dict(zip(numbers.tolist(), zip(starts.tolist(), [*starts[1:].tolist(), len(deals)])))
    for row in records.to_dict("records"):
        record, fans = record_of(row)
        start, end = spans[record["deal"]]
        check_deal(ruleset, DealLog(record, fans, np.zeros(0, np.int64), rows[start:end]))
    return len(records)

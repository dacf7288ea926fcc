"""The 二人 family's event logs as data (sim.core.event_logs): the name of each engine event code, and a batch's
events as rows of the shared schema.

The engine logs no payment: in a 二人 deal the only money is the win's, F = (fan total + the winner's
flowers) x 2^(its doubles), or the win's points where the ruleset prices wins in points, which the loser
pays the winner. Each won deal's rows therefore end with one ``pay_win`` row added here, right after the win
(always the deal's last event): seat = the loser, to_seat = the winner, money = F. A room's beans are F x its
stake (sim.erren.money).
"""

import numpy as np
import pyarrow as pa

from sim.core import event_logs
from sim.core.run_directory import RunError
from sim.erren import engine

# The engine's codes in order (sim.erren.engine.EVENT_NAMES, then the assists'), as data names.
EVENT_NAMES = (
    "deal", "draw", "replacement", "discard", "ready", "heavenly_ready", "chow", "pong", "kong", "concealed_kong",
    "added_kong", "double", "win_self_drawn", "win_discard", "win_robbed_kong", "wall_empty", "bonus_tile",
    "extra_draw", "exchange_gives", "exchange_takes", "pick", "pung_offer", "pung_gives",
    "pay_win",  # added from the record, not logged by the engine
)
PAY_WIN = len(engine.EVENT_NAMES)
assert len(EVENT_NAMES) == PAY_WIN + 1
MAX_DOUBLES_LOGGED = 52  # F x 2^doubles stays an exact int64 up to here; beyond, logging refuses the deal
# The events after which the engine's turn counter has moved on (a decision's observation.turn): a draw from
# the wall, an extra draw, and a claim. sim.runs.log_replay recounts it to find a decision in the log.
TURN_EVENTS = frozenset({"draw", "extra_draw", "chow", "pong", "kong"})


def win_money(columns: dict) -> np.ndarray:
    """F per deal (0 for a draw), exactly, as int64."""
    winner = np.asarray(columns["winner"])
    seat = np.maximum(winner, 0)
    flowers = np.where(seat == 0, columns["flowers_0"], columns["flowers_1"]).astype(np.int64)
    doubles = np.where(seat == 0, columns["doubles_0"], columns["doubles_1"]).astype(np.int64)
    if (doubles[winner >= 0] > MAX_DOUBLES_LOGGED).any():
        raise RunError(f"a win doubled more than {MAX_DOUBLES_LOGGED} times cannot be logged exactly; run without --logs")
    fans = (np.asarray(columns["fan_total"], np.int64) + flowers) << np.minimum(doubles, MAX_DOUBLES_LOGGED)
    points = np.asarray(columns["points"], np.int64)
    return np.where(winner >= 0, np.where(points > 0, points, fans), 0)


def log_table(log: event_logs.BatchLog, columns: dict) -> pa.Table:
    """The batch's events (``log``) as rows of sim.core.event_logs' schema; `columns`: the batch's records."""
    rows, ends = log.rows, log.ends
    winner = np.asarray(columns["winner"])
    won = winner >= 0
    at = ends[won]  # a won deal's win is its last event: its payment goes right after it
    codes = np.insert(rows[:, 0].astype(np.int64), at, PAY_WIN)
    seats = np.insert(rows[:, 1].astype(np.int64), at, 1 - winner[won])
    tiles = np.insert(rows[:, 2].astype(np.int64), at, -1)
    to_seat = np.insert(np.full(len(rows), event_logs.NO_SEAT), at, winner[won])
    money = np.insert(np.zeros(len(rows), np.int64), at, win_money(columns)[won])
    return event_logs.table_of(columns["deal"], ends + np.cumsum(won), {
        "seat": seats.astype(np.int8),
        "event": event_logs.event_column(codes, EVENT_NAMES),
        "tile": event_logs.tile_column(tiles),
        "to_seat": to_seat.astype(np.int8),
        "money": money,
    })


def deal_table(log: engine.DealLog) -> pa.Table:
    """One replayed deal's events (``engine.replay``) as rows of the schema, as a run logs them."""
    batch = event_logs.BatchLog(log.events, np.array([len(log.events)], np.int64))
    return log_table(batch, {name: np.array([value]) for name, value in log.record.items()})

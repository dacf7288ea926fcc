"""The 二人 family's event logs as data (sim.core.event_logs): the name of each engine event code, and a batch's
events as rows of the shared schema.

The engine logs the one payment of a 二人 deal as it prices it: right after the win, ``pay_win`` with the loser
as its seat, the winner in its tile slot and the amount in the fourth column, F = (fan total + the winner's
flowers) x 2^(its doubles), or the win's points where the ruleset prices wins in points. Here the winner goes
to ``to_seat`` and the amount to ``money``. A room's beans are F x its stake (sim.erren.money).
"""

import numpy as np
import pyarrow as pa

from sim.core import event_logs
from sim.core.run_directory import RunError
from sim.erren import engine

# The engine's codes in order (sim.erren.engine.EVENT_NAMES: its own, the assists', then the witnesses'), as data names.
EVENT_NAMES = (
    "deal", "draw", "replacement", "discard", "ready", "heavenly_ready", "chow", "pong", "kong", "concealed_kong",
    "added_kong", "double", "win_self_drawn", "win_discard", "win_robbed_kong", "wall_empty", "bonus_tile",
    "extra_draw", "exchange_gives", "exchange_takes", "pick", "pung_offer", "pung_gives",
    "wall", "out_of_play", "last_tile", "extra_draws", "pass", "decline_win", "wait", "chow_lowest", "pay_win",
)
assert len(EVENT_NAMES) == len(engine.EVENT_NAMES) and EVENT_NAMES[engine.EV_PAY_WIN] == "pay_win"
# The events after which the engine's turn counter has moved on (a decision's observation.turn): a draw from
# the wall, an extra draw, and a claim. sim.runs.log_replay recounts it to find a decision in the log.
TURN_EVENTS = frozenset({"draw", "extra_draw", "chow", "pong", "kong"})


def log_table(log: event_logs.BatchLog, columns: dict) -> pa.Table:
    """The batch's events (``log``) as rows of sim.core.event_logs' schema; `columns`: the batch's records."""
    rows, ends = log.rows.astype(np.int64), log.ends
    codes, seats, tiles, amounts = rows.T
    paying = codes == engine.EV_PAY_WIN
    if (amounts[paying] == engine.UNPRICED).any():
        raise RunError(f"a win doubled more than {engine.MAX_DOUBLES_PRICED} times cannot be logged exactly; "
                       "run without --logs")
    return event_logs.table_of(columns["deal"], ends, {
        "seat": seats.astype(np.int8),
        "event": event_logs.event_column(codes, EVENT_NAMES),
        "tile": event_logs.tile_column(np.where(paying, -1, tiles)),
        "to_seat": np.where(paying, tiles, event_logs.NO_SEAT).astype(np.int8),
        "money": np.where(paying, amounts, 0),
    })


def deal_table(log: engine.DealLog) -> pa.Table:
    """One replayed deal's events (``engine.replay``) as rows of the schema, as a run logs them."""
    batch = event_logs.BatchLog(log.events, np.array([len(log.events)], np.int64))
    return log_table(batch, {name: np.array([value]) for name, value in log.record.items()})

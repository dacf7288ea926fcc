"""The 血战 family's event logs as data (sim.core.event_logs): the name of each engine event code, and a batch's
events as rows of the shared schema.

The engine logs every payment as it happens (wins, kong money, 查叫, 关死, kong money returned) with the
payer as its seat and the payee in its tile slot: here the payee goes to ``to_seat`` and the amount to
``money``. A win's own row carries no money; the payments after it do. 换三张 is logged as one event per
seat with its three tiles packed; here it is three ``exchange`` rows, one per tile, to_seat the receiver.
A void suit (定缺) shows the suit's first kind (1p or 1s).

What the log witnesses beyond the moves (docs/event-logs.md): the deal's wall (`wall`, the 72 tiles in the order
the engine uses them, before the deal), the draw that takes its last tile (`last_tile`), every choice a seat
let go (`pass` on a discard or a robbed kong, `decline_win` on its own draw) and a 报叫's waits (`wait`).
"""

import numpy as np
import pyarrow as pa

from sim.core import event_logs
from sim.xuezhan import engine

EVENT_NAMES = (
    "deal", "draw", "replacement", "discard", "declare_ready", "pong", "kong", "concealed_kong", "added_kong",
    "win_self_drawn", "win_discard", "win_robbed_kong", "wall_empty", "deal_over", "pay_win", "pay_kong",
    "pay_chajiao", "pay_guansi", "refund_kong", "exchange", "void_suit", "wall", "last_tile", "pass", "decline_win",
    "wait",
)
assert len(EVENT_NAMES) == len(engine.EVENT_NAMES)
PAYMENTS = (engine.EV_PAY_WIN, engine.EV_PAY_KONG, engine.EV_PAY_CHAJIAO, engine.EV_PAY_GUANSI, engine.EV_REFUND_KONG)
TILES_EXCHANGED = 3
# The events after which the engine's turn counter has moved on (a decision's observation.turn): any draw,
# from the front or the back, and a claim. sim.runs.log_replay recounts it to find a decision in the log.
TURN_EVENTS = frozenset({"draw", "replacement", "pong", "kong"})


def log_table(log: event_logs.BatchLog, columns: dict) -> pa.Table:
    """The batch's events (``log``) as rows of sim.core.event_logs' schema; `columns`: the batch's records."""
    rows, ends = log.rows.astype(np.int64), log.ends
    codes, seats, tiles, amounts = rows.T
    paying = np.isin(codes, PAYMENTS)
    exchange = codes == engine.EV_EXCHANGE
    to_seat = np.where(paying | exchange, tiles, event_logs.NO_SEAT)
    money = np.where(paying, amounts, 0)
    tiles = np.where(paying, -1, tiles)
    # each exchange row becomes three, one per tile given
    copies = np.where(exchange, TILES_EXCHANGED, 1)
    expanded = np.repeat(np.arange(len(rows)), copies)
    tiles = tiles[expanded]
    starts = (np.cumsum(copies) - copies)[exchange]
    for offset, given in enumerate(engine.exchanged_tiles(amounts[exchange])):  # works on arrays as on ints
        tiles[starts + offset] = given
    row_ends = np.concatenate([[0], np.cumsum(copies)])[ends]
    return event_logs.table_of(columns["deal"], row_ends, {
        "seat": seats[expanded].astype(np.int8),
        "event": event_logs.event_column(codes[expanded], EVENT_NAMES),
        "tile": event_logs.tile_column(tiles),
        "to_seat": to_seat[expanded].astype(np.int8),
        "money": money[expanded],
    })


def deal_table(log: engine.DealLog) -> pa.Table:
    """One replayed deal's events (``engine.replay``) as rows of the schema, as a run logs them."""
    batch = event_logs.BatchLog(np.column_stack([log.events, log.amounts]), np.array([len(log.events)], np.int64))
    return log_table(batch, {name: np.array([value]) for name, value in log.record.items()})

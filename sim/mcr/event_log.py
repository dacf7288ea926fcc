"""The MCR family's event logs as data (sim.core.event_logs): the name of each engine event code, and a batch's
events as rows of the shared schema.

The engine (``sim.mcr.engine``) logs the payments of a win right after it, one ``pay_win`` per paying seat
with the payer as its seat, the winner in its tile slot and the amount in the fourth column: base + F from
the discarder (or the robbed konger) and from each payer of a self-draw, base from the others. Here the
winner goes to ``to_seat`` and the amount to ``money``. A chow's row holds its lowest kind (the discard it
took is in the engine's amount column, which the schema does not keep: the discard row before it names it).
Flowers appear as the tiles ``1f`` .. ``8f`` where they are dealt or drawn; they are set aside at once. A
tile from the wall in play is a ``draw`` (front) or a ``replacement`` (back), a flower a ``flower_draw`` or a
``flower_replacement``; the tiles replacing the deal's flowers before the first turn are ``deal_replacement``
rows, flowers among them.

What the log witnesses beyond the moves (docs/event-logs.md): the shuffled wall (`wall`, one row per tile in
the order the deal and the draws take it, replacements from the back), the draw that takes its last tile
(`last_tile`), and every choice a seat let go (`pass` on a discard or a robbable kong, `decline_win` on its
own draw).
"""

import numpy as np
import pyarrow as pa

from sim.core import event_logs
from sim.mcr import engine

# The engine's codes in order (sim.mcr.engine.EVENT_NAMES), as data names.
EVENT_NAMES = (
    "wall", "deal", "draw", "replacement", "discard", "chow", "pong", "kong", "concealed_kong", "added_kong",
    "win_self_drawn", "win_discard", "win_robbed_kong", "wall_empty", "pay_win", "last_tile", "pass", "decline_win",
    "flower_draw", "flower_replacement", "deal_replacement",
)
assert len(EVENT_NAMES) == len(engine.EVENT_NAMES) and EVENT_NAMES[engine.EV_PAY_WIN] == "pay_win"
assert EVENT_NAMES[engine.EV_DEAL_REPLACEMENT] == "deal_replacement"
# The events after which the engine's turn counter has moved on (a decision's observation.turn): a suit or
# honour tile drawn in play from the front or the back, and a claim. A flower drawn in play (`flower_draw`,
# `flower_replacement`) does not move it, nor does any tile replacing the deal's flowers (`deal_replacement`):
# the counter starts at 1 on the dealer's first turn.
TURN_EVENTS = frozenset({"draw", "replacement", "chow", "pong", "kong"})


def log_table(log: event_logs.BatchLog, columns: dict) -> pa.Table:
    """The batch's events (``log``) as rows of sim.core.event_logs' schema; `columns`: the batch's records."""
    rows, ends = log.rows.astype(np.int64), log.ends
    codes, seats, tiles, amounts = rows.T
    paying = codes == engine.EV_PAY_WIN
    return event_logs.table_of(columns["deal"], ends, {
        "seat": seats.astype(np.int8),
        "event": event_logs.event_column(codes, EVENT_NAMES),
        "tile": event_logs.tile_column(np.where(paying, -1, tiles)),
        "to_seat": np.where(paying, tiles, event_logs.NO_SEAT).astype(np.int8),
        "money": np.where(paying, amounts, 0),
    })


def deal_table(log: engine.DealLog) -> pa.Table:
    """One replayed deal's events (``engine.replay``) as rows of the schema, as a run logs them."""
    batch = event_logs.BatchLog(np.column_stack([log.events, log.amounts]), np.array([len(log.events)], np.int64))
    return log_table(batch, {name: np.array([value]) for name, value in log.record.items()})

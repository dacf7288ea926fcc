"""Room economics from a run's deal outcomes: the house's share, wins that still lose money, each seat's
drift and volatility per deal, and the ruin of a player who enters a room with a given purse.

The purse is an assumption of the study, never read from the room: a simulated player enters with `K`
stakes for each purse K asked for (``DEFAULT_PURSES`` when none is), one row per room and purse. Ruin is
estimated on the resampled players of ``analysis.ruin`` (the same players, drawn at the study's seed, for
every room and purse); the result is a pure function of the run, the rooms, the purses and that seed.

Every figure comes with a 95% interval: the drift and the house share from batch means over blocks of
`block` consecutive deals of the run (a session's deals share a dealer rotation, so they are not
independent), the ruin figures over the simulated players (``analysis.ruin.ruin_figures``).
"""

import numpy as np
import pandas as pd

from analysis.ruin import curves_memory, ruin_deals, ruin_figures, simulated_curves
from sim.core.rooms import Room
from sim.core.statistics import batch_means_interval

DEFAULT_PURSES = (100, 300, 1000, 3000)  # stakes a simulated player enters with, when no --bankroll is given


def ruin_memory(players: int, horizon: int, block: int, purses: int = len(DEFAULT_PURSES)) -> int:
    """Bytes the ruin figures of one room hold at most (``analysis.ruin.curves_memory``)."""
    return curves_memory(players, horizon, block, purses)


def _without_fee(room: Room) -> Room:
    return Room(room.name, room.stake, 0, room.min_entry, room.max_entry)


def _house_share(records: pd.DataFrame, room: Room, seats: int, block: int, money) -> tuple[float, float, float]:
    """The fees' share of the fees and the beans won together, with its interval: the fees per deal are fixed,
    so the interval is that of the beans moved per deal (batch means), carried through the share."""
    house = float(room.fee) * seats
    moved, moved_low, moved_high = batch_means_interval(money.units_moved(records) * float(room.stake), block)

    def share(beans):
        return house / (house + beans) if house + beans > 0 else np.nan

    return share(moved), share(moved_high), share(moved_low)


def room_economics(records: pd.DataFrame, rooms: list[Room], purses=DEFAULT_PURSES, horizon: int = 2000,
                   players: int = 2000, block: int = 50, seed: int = 0, *, money, progress=None) -> pd.DataFrame:
    """One row per room and purse: house share of all money moved, share of wins that still lose the winner
    money (二人: F*s < f), each seat's drift per deal and the volatility of a deal, and the ruin figures
    (``analysis.ruin.ruin_figures``) of simulated players entering with `purse` stakes, each figure with its
    interval. `money` is the family's money module (``sim.erren.money`` or ``sim.xuezhan.money``);
    `progress(n)` is told of each room done."""
    wins = money.seat_wins(records)
    rows = []
    for room in rooms:
        free = money.seat_changes(records, _without_fee(room))
        changes = free - float(room.fee)
        seats = changes.shape[1]
        share, share_low, share_high = _house_share(records, room, seats, block, money)
        room_row = {
            "room": room.name, "stake": room.stake, "fee": room.fee,
            "house_share_of_moved": share, "house_share_low": share_low, "house_share_high": share_high,
            "winning_but_losing_share": int((changes[wins] < 0).sum()) / wins.sum() if wins.any() else np.nan,
        }
        for seat in range(seats):
            mean, low, high = batch_means_interval(changes[:, seat], block)
            room_row.update({f"drift_seat_{seat}": mean, f"drift_seat_{seat}_low": low, f"drift_seat_{seat}_high": high})
        room_row["volatility"] = changes.std(ddof=1)
        starts = [purse * room.stake for purse in purses]
        curves = simulated_curves(free, starts, horizon, players, block, seed)
        for purse, start, curve in zip(purses, starts, curves):
            rows.append({**room_row, "purse_stakes": purse, "start_beans": start,
                         **ruin_figures(ruin_deals(curve, room.fee), horizon, room.fee), "horizon": horizon})
        if progress is not None:
            progress(1)
    return pd.DataFrame(rows)


def player_economics(records: pd.DataFrame, rooms: list[Room], seat_players: list[str], purses=DEFAULT_PURSES,
                     horizon: int = 2000, players: int = 2000, block: int = 50, seed: int = 0, *, money) -> pd.DataFrame:
    """One row per room, player and purse of a run whose seats hold different players (a stronger and a
    weaker one, say): the player's drift per deal (with its batch-means interval) and volatility, and the
    ruin of a bankroll that always plays as that player (its blocks drawn from that player's seats only), as
    in ``room_economics``."""
    rows = []
    names = list(dict.fromkeys(seat_players))
    for room in rooms:
        free = money.seat_changes(records, _without_fee(room))
        for name in names:
            own = free[:, [seat for seat, seated in enumerate(seat_players) if seated == name]]
            # the player's drift over its seats: the mean of its seats' changes in each deal
            drift, low, high = batch_means_interval(own.mean(axis=1) - float(room.fee), block)
            starts = [purse * room.stake for purse in purses]
            curves = simulated_curves(own, starts, horizon, players, block, seed)
            for purse, start, curve in zip(purses, starts, curves):
                rows.append({
                    "room": room.name, "stake": room.stake, "fee": room.fee, "player": name, "seats": own.shape[1],
                    "purse_stakes": purse, "start_beans": start, "drift": drift, "drift_low": low, "drift_high": high,
                    "volatility": (own - float(room.fee)).std(ddof=1),
                    **ruin_figures(ruin_deals(curve, room.fee), horizon, room.fee), "horizon": horizon,
                })
    return pd.DataFrame(rows)


def grid_rooms(stakes: list[int], fees: list[int]) -> list[Room]:
    """Rooms for every stake and fee (no entry limits: the purse is the study's)."""
    return [Room(f"s={stake} f={fee}", stake, fee, 0, 0) for stake in stakes for fee in fees]

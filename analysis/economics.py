"""Room economics from a run's deal outcomes: the house's share, wins that still lose money, each seat's
drift and volatility per deal, and the risk of ruin for a player who enters a room at its minimum.

Ruin is estimated by resampling: a simulated player's bean changes are blocks of consecutive deals drawn
from the run (each block from one seat, chosen at random), so whatever structure consecutive deals have
(dealer rotation in a session run) is kept inside a block. The player starts with the room's minimum
entry (100 stakes when the minimum is 0) and is broke when its beans reach 0. The resampling has its
own seed; the result is a pure function of the run, the rooms and that seed.
"""

import numpy as np
import pandas as pd

from sim.core.rooms import Room
from sim.core.statistics import wilson_interval

STAKES_WHEN_NO_MINIMUM = 100


def starting_beans(room: Room, bankroll: int | None = None) -> int:
    """A simulated player's beans on entering: `bankroll` stakes when given, else the room's minimum entry
    (100 stakes when it has none)."""
    if bankroll is not None:
        return bankroll * room.stake
    return room.min_entry or STAKES_WHEN_NO_MINIMUM * room.stake


PLAYERS_PER_CHUNK_ELEMENTS = 1 << 24  # player-deals resampled at once (about 0.6 GB of temporaries)
BYTES_PER_BLOCK = 16  # each simulated player's block starts and seats, drawn up front (int64 each)


def ruin_memory(players: int, horizon: int, block: int) -> int:
    """Bytes ``deals_until_ruin`` holds at most: the draws of every player, one chunk's paths (about 41 bytes
    a player-deal: rows, columns, the changes and their running total, 8 bytes each, and a flag) and the result."""
    chunk = max(1, PLAYERS_PER_CHUNK_ELEMENTS // horizon)
    return players * (-(-horizon // block) * BYTES_PER_BLOCK + 8) + min(players, chunk) * horizon * 41


def deals_until_ruin(changes: np.ndarray, start: float, horizon: int, players: int, block: int, seed: int) -> np.ndarray:
    """For each simulated player, the number of deals after which its beans first reach 0 (inf if they
    do not within `horizon` deals). `changes`: (deals, seats) bean changes of each seat. Every draw is made
    up front; the paths are then walked a chunk of players at a time, so that memory stays bounded
    (``ruin_memory``) and the result is the same as in one piece."""
    rng = np.random.default_rng(seed)
    deals = changes.shape[0]
    block = min(block, deals)
    n_blocks = -(-horizon // block)
    starts = rng.integers(0, deals - block + 1, size=(players, n_blocks))
    seats = rng.integers(0, changes.shape[1], size=(players, n_blocks))
    offsets = np.arange(block)
    first = np.empty(players)
    chunk = max(1, PLAYERS_PER_CHUNK_ELEMENTS // horizon)
    for low in range(0, players, chunk):
        high = min(players, low + chunk)
        rows = (starts[low:high, :, None] + offsets).reshape(high - low, -1)[:, :horizon]
        columns = np.repeat(seats[low:high], block, axis=1)[:, :horizon]
        balance = start + np.cumsum(changes[rows, columns], axis=1)
        broke = balance <= 0
        first[low:high] = np.where(broke.any(axis=1), broke.argmax(axis=1) + 1, np.inf)
    return first


def room_economics(records: pd.DataFrame, rooms: list[Room], horizon: int = 2000, players: int = 2000,
                   block: int = 50, seed: int = 0, *, money, bankroll: int | None = None) -> pd.DataFrame:
    """One row per room: house share of all money moved, share of wins that still lose the winner money
    (二人: F*s < f), drift and volatility per deal of each seat, and the ruin probability within `horizon`
    deals (Wilson interval) with the median number of deals until ruin (inf when most players outlast the
    horizon), the mean number of deals a bankroll lasts (the horizon for those that outlast it) and the fees
    the house takes from one bankroll over them. `bankroll`: the players' starting stakes (``starting_beans``).
    `money` is the family's money module (``sim.erren.money`` or ``sim.xuezhan.money``)."""
    wins = money.seat_wins(records)
    moved_units = money.units_moved(records).sum()
    rows = []
    for room in rooms:
        changes = money.seat_changes(records, room)
        moved = moved_units * room.stake
        house = float(room.fee) * changes.shape[1] * len(records)
        losing_wins = int((changes[wins] < 0).sum())
        start = starting_beans(room, bankroll)
        ruin = deals_until_ruin(changes, start, horizon, players, block, seed)
        ruined = int(np.isfinite(ruin).sum())
        low, high = wilson_interval(ruined, players)
        row = {
            "room": room.name, "stake": room.stake, "fee": room.fee, "start_beans": start,
            "house_share_of_moved": house / (house + moved) if house + moved else np.nan,
            "winning_but_losing_share": losing_wins / wins.sum() if wins.any() else np.nan,
        }
        row.update({f"drift_seat_{seat}": changes[:, seat].mean() for seat in range(changes.shape[1])})
        row.update({
            "volatility": changes.std(ddof=1),
            "ruin_probability": ruined / players, "ruin_low": float(low), "ruin_high": float(high),
            "median_deals_to_ruin": float(np.median(ruin)),
            # how long a bankroll lasts (at most the horizon), and what the house takes from it meanwhile
            "mean_deals_played": float(np.minimum(ruin, horizon).mean()),
            "house_take_per_bankroll": float(room.fee * np.minimum(ruin, horizon).mean()),
            "horizon": horizon,
        })
        rows.append(row)
    return pd.DataFrame(rows)


def player_economics(records: pd.DataFrame, rooms: list[Room], seat_players: list[str], horizon: int = 2000,
                     players: int = 2000, block: int = 50, seed: int = 0, *, money,
                     bankroll: int | None = None) -> pd.DataFrame:
    """One row per room and player of a run whose seats hold different players (a stronger and a weaker
    one, say): the player's drift and volatility per deal, and the ruin of a bankroll that always plays as
    that player (its blocks drawn from that player's seats only), as in ``room_economics``."""
    rows = []
    names = list(dict.fromkeys(seat_players))
    for room in rooms:
        changes = money.seat_changes(records, room)
        start = starting_beans(room, bankroll)
        for name in names:
            own = changes[:, [seat for seat, seated in enumerate(seat_players) if seated == name]]
            ruin = deals_until_ruin(own, start, horizon, players, block, seed)
            ruined = int(np.isfinite(ruin).sum())
            low, high = wilson_interval(ruined, players)
            rows.append({
                "room": room.name, "stake": room.stake, "fee": room.fee, "player": name, "seats": own.shape[1],
                "start_beans": start, "drift": own.mean(), "volatility": own.std(ddof=1),
                "ruin_probability": ruined / players, "ruin_low": float(low), "ruin_high": float(high),
                "median_deals_to_ruin": float(np.median(ruin)),
                "mean_deals_played": float(np.minimum(ruin, horizon).mean()),
                "house_take_per_bankroll": float(room.fee * np.minimum(ruin, horizon).mean()),
                "horizon": horizon,
            })
    return pd.DataFrame(rows)


def grid_rooms(stakes: list[int], fees: list[int], entry_stakes: int = STAKES_WHEN_NO_MINIMUM) -> list[Room]:
    """Rooms for every stake and fee, entered with `entry_stakes` stakes."""
    return [Room(f"s={stake} f={fee}", stake, fee, entry_stakes * stake, 0) for stake in stakes for fee in fees]

"""`mjsim replay` for the MCR family: one deal told event by event in MPSZ notation, flowers and payments
included.

The engine's event log (``sim.core.event_logs.DealLog``) says what happened and who paid whom; this module
follows the tiles along to print each seat's hand after the deal and after each of its discards, every
flower set aside and replaced, every claim and kong, the win with its payments, and ends with the winner's
fans as the ruleset values them and the money of every seat.
"""

import numpy as np

from kernels.fan_ids import Fan
from kernels.tiles import FIRST_FLOWER, N_KINDS
from sim.core.notation import Hand, Meld, MeldKind, format_hand, tile_name
from sim.core.ruleset import Ruleset
from sim.mcr import engine

WINS = {
    engine.EV_WIN_SELF_DRAWN: "wins by self-draw on",
    engine.EV_WIN_DISCARD: "wins on the discard",
    engine.EV_WIN_ROBBED_KONG: "robs the kong: wins on",
}
WIND_NAMES = ("东", "南", "西", "北")
# Every event that gives a seat a tile from the wall after the deal, flowers and the deal's replacements included.
DRAWS = (engine.EV_DRAW, engine.EV_REPLACEMENT, engine.EV_FLOWER_DRAW, engine.EV_FLOWER_REPLACEMENT,
         engine.EV_DEAL_REPLACEMENT)


class _Table:
    """Every seat's tiles and flowers, followed event by event."""

    def __init__(self):
        self.hands = np.zeros((engine.SEATS, N_KINDS), np.int8)
        self.melds: list[list[Meld]] = [[] for _ in range(engine.SEATS)]
        self.flowers: list[list[int]] = [[] for _ in range(engine.SEATS)]

    def hand(self, seat: int) -> str:
        return format_hand(Hand(tuple(self.hands[seat].tolist()), tuple(self.melds[seat]), tuple(sorted(self.flowers[seat]))))

    def receive(self, seat: int, tile: int) -> None:
        if tile >= FIRST_FLOWER:
            self.flowers[seat].append(tile)
        else:
            self.hands[seat, tile] += 1

    def meld(self, seat: int, kind: MeldKind, low: int, taken: int) -> None:
        """The seat melds `kind` from `low`, the discard `taken` among its tiles (-1: all from its hand)."""
        meld = Meld(kind, low)
        for tile in meld.tiles:
            if tile == taken:
                taken = -1
            else:
                self.hands[seat, tile] -= 1
        self.melds[seat].append(meld)

    def add_to_pong(self, seat: int, tile: int) -> None:
        self.hands[seat, tile] -= 1
        for index, meld in enumerate(self.melds[seat]):
            if meld.kind == MeldKind.PONG and meld.first == tile:
                self.melds[seat][index] = Meld(MeldKind.KONG, tile)

    def robbed(self, seat: int, tile: int) -> None:
        """The added kong of `tile` was robbed: the seat keeps its pong, the tile went to the winner."""
        for index, meld in enumerate(self.melds[seat]):
            if meld.kind == MeldKind.KONG and meld.first == tile:
                self.melds[seat][index] = Meld(MeldKind.PONG, tile)


def format_deal(log: engine.DealLog, ruleset: Ruleset, players, seed: int, pending: str | None = None) -> str:
    """The deal as `mjsim replay` prints it; `pending`, for a deal still under way, stands where its result would."""
    record = log.record
    dealer = record["dealer"]
    names = [f"seat {seat} ({WIND_NAMES[(seat - dealer) % engine.SEATS]}{', dealer' if seat == dealer else ''})"
             for seat in range(engine.SEATS)]
    lines = [f"{ruleset.id} ({ruleset.name}), seed {seed}, deal {record['deal']}, "
             f"round wind {WIND_NAMES[record['round_wind']]}"]
    lines += [f"seat {seat}: {name}" for seat, name in enumerate(players.names)]
    lines.append("wall: " + " ".join(tile_name(tile) for tile in log.wall))
    table = _Table()
    dealt = False
    added_kong = None  # (seat, tile) of the last added kong: a robbing win comes right after it and its passes
    for (code, seat, tile), amount in zip(log.events.tolist(), log.amounts.tolist(), strict=True):
        if code == engine.EV_WALL:  # the wall is printed whole above
            continue
        if code == engine.EV_DEAL:
            table.receive(seat, tile)
            continue
        if not dealt:
            dealt = True
            order = [(dealer + step) % engine.SEATS for step in range(engine.SEATS)]
            lines += ["", "dealt:"] + [f"  {names[s]}: {table.hand(s)}" for s in order] + [""]
        who = f"seat {seat}"
        if code in DRAWS:
            table.receive(seat, tile)
            how = "draws" if code in (engine.EV_DRAW, engine.EV_FLOWER_DRAW) else "draws from the back"
            lines.append(f"{who} {how} {tile_name(tile)}{' (a flower: set aside)' if tile >= FIRST_FLOWER else ''}")
        elif code == engine.EV_DISCARD:
            table.hands[seat, tile] -= 1
            lines.append(f"{who} discards {tile_name(tile)}    hand: {table.hand(seat)}")
        elif code == engine.EV_CHOW:
            table.meld(seat, MeldKind.CHOW, tile, amount)
            lines.append(f"{who} chows {tile_name(amount)}: {table.melds[seat][-1]}")
        elif code == engine.EV_PONG:
            table.meld(seat, MeldKind.PONG, tile, tile)
            lines.append(f"{who} pongs {tile_name(tile)}: {table.melds[seat][-1]}")
        elif code == engine.EV_KONG:
            table.meld(seat, MeldKind.KONG, tile, tile)
            lines.append(f"{who} kongs {tile_name(tile)}: {table.melds[seat][-1]}")
        elif code == engine.EV_CONCEALED_KONG:
            table.meld(seat, MeldKind.CONCEALED_KONG, tile, -1)
            lines.append(f"{who} declares a concealed kong of {tile_name(tile)}")
        elif code == engine.EV_ADDED_KONG:
            table.add_to_pong(seat, tile)
            added_kong = (seat, tile)
            lines.append(f"{who} adds {tile_name(tile)} to its pong")
        elif code == engine.EV_PASS:
            lines.append(f"{who} passes {tile_name(tile)}")
        elif code == engine.EV_DECLINE_WIN:
            lines.append(f"{who} declines the self-drawn win on {tile_name(tile)}")
        elif code == engine.EV_LAST_TILE:
            lines.append(f"the last tile of the wall is drawn: {tile_name(tile)}")
        elif code in WINS:
            if code != engine.EV_WIN_SELF_DRAWN:
                table.hands[seat, tile] += 1
            lines.append(f"{who} {WINS[code]} {tile_name(tile)} ({amount} fans): {table.hand(seat)}")
            if code == engine.EV_WIN_ROBBED_KONG and added_kong is not None:
                table.robbed(*added_kong)
                lines.append(f"seat {added_kong[0]}'s kong fails: it keeps its pong")
        elif code == engine.EV_PAY_WIN:
            lines.append(f"    seat {seat} pays seat {tile} {amount}")
        elif code == engine.EV_EXHAUSTED:
            lines.append("the wall is empty: nobody pays (荒庄)")
    lines += ["", _outcome(log, ruleset) if pending is None else pending]
    return "\n".join(lines) + "\n"


def _outcome(log: engine.DealLog, ruleset: Ruleset) -> str:
    record = log.record
    winner = record["winner"]
    if winner < 0:
        head = f"result: exhausted (荒庄); turns {record['turns']}"
    else:
        way = engine.WIN_TYPES[record["win_type"]].replace("_", "-")
        fans = [f"{ruleset.fan_names[Fan(fan)]} {int(ruleset.values[fan])}{f' x{count}' if count > 1 else ''}"
                for fan in ruleset.fans if (count := int(log.fans[fan]))]
        paid_by = f", seat {record['discarder']} paying base + F" if record["discarder"] >= 0 else ", every other seat paying base + F"
        head = (f"result: seat {winner} wins ({way}), {record['fan_total']} fans + {record['winner_flowers']} flowers"
                f"{paid_by}; turns {record['turns']}, tiles left {record['tiles_left']}\n  fans: " + ", ".join(fans))
    money = [f"  seat {seat}: {record[f'money_{seat}']:+d} ({record[f'flowers_{seat}']} flowers)" for seat in range(engine.SEATS)]
    return "\n".join([head, *money])

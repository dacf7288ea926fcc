"""`mjsim replay`: one deal told event by event in MPSZ notation, so that anyone can check it by hand.

The engine's event log (``sim.core.event_logs.DealLog``) says what happened; this module follows the tiles along
(hands, melds, flowers) to print each seat's hand after the deal and after each of its discards, and
ends with the record and the winning hand's fans as the ruleset values them.
"""

import numpy as np

from kernels.fan_ids import Fan
from kernels.tiles import (
    FIRST_FLOWER,
    MELD_CHOW,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PONG,
    N_KINDS,
)
from sim.core.notation import Hand, Meld, MeldKind, format_hand, tile_name
from sim.core.ruleset import Ruleset
from sim.erren import engine
from sim.erren.challenge import assists

SEAT_ROLES = ("dealer", "non-dealer")


def _tile(tile: int) -> str:
    return f"{tile - FIRST_FLOWER + 1}f" if tile >= FIRST_FLOWER else tile_name(tile)


class _Table:
    """The two seats' tiles, followed event by event."""

    def __init__(self):
        self.hands = np.zeros((2, N_KINDS), np.int8)
        self.melds: list[list[Meld]] = [[], []]
        self.flowers: list[list[int]] = [[], []]
        self.last_discard = -1

    def receive(self, seat: int, tile: int) -> None:
        if tile >= FIRST_FLOWER:
            self.flowers[seat].append(tile)
        else:
            self.hands[seat, tile] += 1

    def hand(self, seat: int) -> str:
        return format_hand(Hand(tuple(self.hands[seat].tolist()), tuple(self.melds[seat]), tuple(sorted(self.flowers[seat]))))

    def meld(self, seat: int, kind: int, low: int, claimed: int) -> None:
        tiles = [low, low + 1, low + 2] if kind == MELD_CHOW else [low] * (3 if kind == MELD_PONG else 4)
        if claimed >= 0:
            tiles.remove(claimed)  # the claimed discard was never in the hand
        for tile in tiles:
            self.hands[seat, tile] -= 1
        self.melds[seat].append(Meld(MeldKind(kind), low))


def format_deal(log: engine.DealLog, ruleset: Ruleset, players: engine.Players, seed: int,
                pending: str | None = None) -> str:
    """The deal as `mjsim replay` prints it; `pending`, for a deal still under way, stands where its result would."""
    record = log.record
    dealer = record["dealer"]
    names = [f"seat {seat} ({SEAT_ROLES[seat != dealer]})" for seat in range(2)]
    lines = [
        f"{ruleset.id} ({ruleset.name}), seed {seed}, deal {record['deal']}",
        f"seat 0: {players.names[0]}",
        f"seat 1: {players.names[1]}",
    ]
    codes, tiles = log.events[:, 0], log.events[:, 2]
    in_play, out_of_play = tiles[codes == engine.EV_WALL], tiles[codes == engine.EV_OUT_OF_PLAY]
    if len(out_of_play):
        lines.append(f"wall as shuffled ({len(in_play)} in play): " + " ".join(_tile(tile) for tile in in_play))
        lines.append("out of play, in order: " + " ".join(_tile(tile) for tile in out_of_play))
    else:
        lines.append("wall as shuffled: " + " ".join(_tile(tile) for tile in in_play))
    table = _Table()
    dealt = False
    for code, seat, tile, amount in log.events.tolist():
        if code in (engine.EV_WALL, engine.EV_OUT_OF_PLAY):
            continue
        if code == engine.EV_DEAL:
            table.receive(seat, tile)
            continue
        if not dealt:
            dealt = True
            lines += ["", "dealt:"] + [f"  {names[s]}: {table.hand(s)}" for s in (dealer, 1 - dealer)]
            lines.append("")
        who = f"seat {seat}"
        if code == engine.EV_BONUS:
            lines.append(f"bonus tile turned face up: {_tile(tile)} (花牌: 1 fan for each {_tile(tile)} the winner holds)")
        elif code in (engine.EV_DRAW, engine.EV_REPLACEMENT):
            table.receive(seat, tile)
            source = "draws" if code == engine.EV_DRAW else "draws from the back"
            note = "  (a flower: set aside)" if tile >= FIRST_FLOWER else ""
            lines.append(f"{who} {source} {_tile(tile)}{note}")
        elif code == engine.EV_DISCARD:
            table.hands[seat, tile] -= 1
            table.last_discard = tile
            lines.append(f"{who} discards {_tile(tile)}    hand: {table.hand(seat)}")
        elif code in (engine.EV_READY, engine.EV_HEAVENLY_READY):
            lines.append(f"{who} declares ready{' (天听)' if code == engine.EV_HEAVENLY_READY else ' (报听)'}, waiting on")
        elif code == engine.EV_WAIT:
            lines[-1] += f" {_tile(tile)}"
        elif code == engine.EV_CHOW:
            continue  # the meld is told with its lowest tile, the next row
        elif code in (engine.EV_CHOW_LOWEST, engine.EV_PONG, engine.EV_KONG):
            kind = {engine.EV_CHOW_LOWEST: MELD_CHOW, engine.EV_PONG: MELD_PONG, engine.EV_KONG: MELD_KONG}[code]
            table.meld(seat, kind, tile, table.last_discard)
            word = {engine.EV_CHOW_LOWEST: "chows", engine.EV_PONG: "pongs", engine.EV_KONG: "kongs"}[code]
            lines.append(f"{who} {word} {_tile(table.last_discard)}: {table.melds[seat][-1]}")
        elif code == engine.EV_PASS:
            lines.append(f"{who} lets {_tile(tile)} go (it could claim or win on it)")
        elif code == engine.EV_DECLINE_WIN:
            lines.append(f"{who} could win by self-draw on {_tile(tile)} but plays on")
        elif code == engine.EV_LAST_TILE:
            lines.append("that was the last tile in play")
        elif code == engine.EV_EXTRA_DRAWS:
            lines.append(f"{who} declared ready first: it draws the out-of-play tiles in order")
        elif code == engine.EV_PAY_WIN:
            continue  # the result below prices the win
        elif code == engine.EV_CONCEALED_KONG:
            table.meld(seat, MELD_CONCEALED_KONG, tile, -1)
            lines.append(f"{who} declares a concealed kong of {_tile(tile)}")
        elif code == engine.EV_ADDED_KONG:
            table.hands[seat, tile] -= 1
            for index, meld in enumerate(table.melds[seat]):
                if meld.kind == MeldKind.PONG and meld.first == tile:
                    table.melds[seat][index] = Meld(MeldKind.KONG, tile)
            lines.append(f"{who} adds {_tile(tile)} to its pong")
        elif code == engine.EV_DOUBLE:
            lines.append(f"{who} could win on {_tile(tile)} but declares 加倍 (doubles)")
        elif code == engine.EV_WIN_SELF_DRAWN:
            lines.append(f"{who} wins by self-draw on {_tile(tile)}")
        elif code == engine.EV_WIN_DISCARD:
            table.hands[seat, tile] += 1
            lines.append(f"{who} wins on the discard {_tile(tile)}")
        elif code == engine.EV_WIN_ROBBED_KONG:
            table.hands[seat, tile] += 1
            lines.append(f"{who} robs the kong: wins on {_tile(tile)}")
        elif code == engine.EV_EXTRA_DRAW:
            table.receive(seat, tile)
            lines.append(f"{who} draws {_tile(tile)} from the out-of-play tiles (extra draw)")
        elif code == engine.EV_EXHAUSTED:
            lines.append("the wall is empty: a draw (流局)")
        elif code == assists.EV_EXCHANGE_GIVES:
            table.hands[seat, tile] -= 1
            given = tile
        elif code == assists.EV_EXCHANGE_TAKES:
            table.receive(seat, tile)
            lines.append(f"{who} exchanges {_tile(given)} for {_tile(tile)} (起始换牌)    hand: {table.hand(seat)}")
        elif code == assists.EV_PICK:
            lines.append(f"{who} picks its next draw, {_tile(tile)} (搓牌)")
        elif code == assists.EV_PUNG_OFFER:
            offered = tile
            lines.append(f"{who} is offered three {_tile(tile)} (换刻子)")
        elif code == assists.EV_PUNG_GIVES:
            table.hands[seat, tile] -= 1
            table.hands[seat, offered] += 1
            lines.append(f"{who} gives {_tile(tile)} for a {_tile(offered)}    hand: {table.hand(seat)}")
    lines += ["", _outcome(log, ruleset, table) if pending is None else pending]
    return "\n".join(lines) + "\n"


def _outcome(log: engine.DealLog, ruleset: Ruleset, table: _Table) -> str:
    record = log.record
    winner = record["winner"]
    summary = (
        f"turns {record['turns']}, tiles left {record['tiles_left']}, initial shanten "
        f"{record['initial_shanten_0']}/{record['initial_shanten_1']}, ready turn "
        f"{record['ready_turn_0']}/{record['ready_turn_1']}, doubles {record['doubles_0']}/{record['doubles_1']}"
    )
    if winner < 0:
        return f"result: draw. {summary}"
    lines = [f"result: seat {winner} wins ({engine.WIN_TYPES[record['win_type']].replace('_', '-')}) with {table.hand(winner)}"]
    for fan in ruleset.fans:
        count = int(log.fans[fan])
        if count:
            value = int(ruleset.values[fan])
            times = f" x{count}" if count > 1 else ""
            lines.append(f"  {ruleset.fan_names[Fan(fan)]} {value}{times}")
    if ruleset.points is not None:
        limits = record["limits"]
        price = f"{limits} 役满" if limits else f"{record['fan_total']} fans (花牌 included, at most {ruleset.points.fan_cap})"
        lines += [f"{price}: {record['points']} points", summary]
        return "\n".join(lines)
    doubles = record[f"doubles_{winner}"]
    flowers = record[f"flowers_{winner}"]
    lines.append(
        f"fan total {record['fan_total']} (flowers aside, minimum {ruleset.min_fan}), flowers {flowers}, "
        f"doubles {doubles}: ({record['fan_total']} + {flowers}) x {2 ** doubles} = {(record['fan_total'] + flowers) * 2 ** doubles}"
    )
    lines.append(summary)
    return "\n".join(lines)

"""`mjsim replay` for the 血战 family: one deal told event by event in MPSZ notation, payments included.

The engine's event log (``sim.core.event_logs.DealLog``) says what happened and who paid whom; this module
follows the tiles along to print each seat's hand after the deal and after each of its discards, every
payment (wins, kong money, 查叫, 关死) as it happens, and ends with each winner's fans as the ruleset values
them and the money of every seat.
"""

import numpy as np

from kernels.fan_ids import Fan
from kernels.tiles import MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_KINDS, SOU_START
from sim.core.notation import Hand, Meld, MeldKind, format_hand, tile_name
from sim.core.ruleset import Ruleset
from sim.xuezhan import engine

PAYMENTS = {
    engine.EV_PAY_WIN: "for the win",
    engine.EV_PAY_KONG: "kong money",
    engine.EV_PAY_CHAJIAO: "查叫",
    engine.EV_PAY_GUANSI: "关死",
    engine.EV_REFUND_KONG: "returns kong money (查叫)",
}
WINS = {
    engine.EV_WIN_SELF_DRAWN: "wins by self-draw on",
    engine.EV_WIN_DISCARD: "wins on the discard",
    engine.EV_WIN_ROBBED_KONG: "robs the kong: wins on",
}


class _Table:
    """Every seat's tiles, followed event by event."""

    def __init__(self, seats: int):
        self.hands = np.zeros((seats, N_KINDS), np.int8)
        self.melds: list[list[Meld]] = [[] for _ in range(seats)]
        self.last_discard = -1

    def hand(self, seat: int) -> str:
        return format_hand(Hand(tuple(self.hands[seat].tolist()), tuple(self.melds[seat]), ()))

    def meld(self, seat: int, kind: int, tile: int, claimed: bool) -> None:
        self.hands[seat, tile] -= (3 if kind == MELD_PONG else 4) - int(claimed)
        self.melds[seat].append(Meld(MeldKind(kind), tile))

    def turn_pong(self, seat: int, tile: int, into: MeldKind) -> None:
        """The seat's pong of `tile` becomes `into` (an added kong), or its kong of `tile` a pong again."""
        was = MeldKind.PONG if into == MeldKind.KONG else MeldKind.KONG
        for index, meld in enumerate(self.melds[seat]):
            if meld.kind == was and meld.first == tile:
                self.melds[seat][index] = Meld(into, tile)


def format_deal(log: engine.DealLog, ruleset: Ruleset, players, seed: int,
                pending: str | None = None) -> str:
    """The deal as `mjsim replay` prints it; `pending`, for a deal still under way, stands where its result would."""
    record = log.record
    seats = record["n_seats"]
    dealer = record["dealer"]
    names = [f"seat {seat}{' (dealer)' if seat == dealer else ''}" for seat in range(seats)]
    lines = [f"{ruleset.id} ({ruleset.name}), seed {seed}, deal {record['deal']}"]
    lines += [f"seat {seat}: {name}" for seat, name in enumerate(players.names)]
    lines.append("wall: " + " ".join(tile_name(tile) for tile in log.wall))
    table = _Table(seats)
    dealt = False
    added_kong = None  # (seat, tile) when the event before was an added kong: a robbing win comes right after it
    for (code, seat, tile), amount in zip(log.events.tolist(), log.amounts.tolist(), strict=True):
        if code == engine.EV_WALL:  # the wall is printed whole above
            continue
        if code == engine.EV_DEAL:
            table.hands[seat, tile] += 1
            continue
        if not dealt:
            dealt = True
            order = [(dealer + step) % seats for step in range(seats)]
            lines += ["", "dealt:"] + [f"  {names[s]}: {table.hand(s)}" for s in order] + [""]
        who = f"seat {seat}"
        robbed = added_kong if code == engine.EV_WIN_ROBBED_KONG else None  # the first robber of the kong only
        if code not in (engine.EV_ADDED_KONG, engine.EV_PASS):  # the robbers win after the passes
            added_kong = None
        if code in (engine.EV_DRAW, engine.EV_REPLACEMENT):
            table.hands[seat, tile] += 1
            lines.append(f"{who} {'draws' if code == engine.EV_DRAW else 'draws from the back'} {tile_name(tile)}")
        elif code == engine.EV_DISCARD:
            table.hands[seat, tile] -= 1
            table.last_discard = tile
            lines.append(f"{who} discards {tile_name(tile)}    hand: {table.hand(seat)}")
        elif code == engine.EV_EXCHANGE:
            given = engine.exchanged_tiles(amount)
            for kind in given:
                table.hands[seat, kind] -= 1
                table.hands[tile, kind] += 1
            lines.append(f"{who} gives {' '.join(tile_name(kind) for kind in given)} to seat {tile} (换三张)")
        elif code == engine.EV_VOID_SUIT:
            lines.append(f"{who} declares {'筒' if tile < SOU_START else '条'} void (定缺): {table.hand(seat)}")
        elif code == engine.EV_DECLARE:
            lines.append(f"{who} declares 报叫 (ready, waits public): {table.hand(seat)}    waits:")
        elif code == engine.EV_WAIT:
            lines[-1] += f" {tile_name(tile)}"
        elif code == engine.EV_PASS:
            lines.append(f"{who} passes {tile_name(tile)}")
        elif code == engine.EV_DECLINE_WIN:
            lines.append(f"{who} declines the self-drawn win on {tile_name(tile)}")
        elif code == engine.EV_LAST_TILE:
            lines.append(f"the last tile of the wall is drawn: {tile_name(tile)} (海底)")
        elif code in (engine.EV_PONG, engine.EV_KONG):
            table.meld(seat, MELD_PONG if code == engine.EV_PONG else MELD_KONG, tile, claimed=True)
            lines.append(f"{who} {'pongs' if code == engine.EV_PONG else 'kongs'} {tile_name(tile)}: {table.melds[seat][-1]}")
        elif code == engine.EV_CONCEALED_KONG:
            table.meld(seat, MELD_CONCEALED_KONG, tile, claimed=False)
            lines.append(f"{who} declares a concealed kong of {tile_name(tile)}")
        elif code == engine.EV_ADDED_KONG:
            table.hands[seat, tile] -= 1
            table.turn_pong(seat, tile, MeldKind.KONG)
            added_kong = (seat, tile)
            lines.append(f"{who} adds {tile_name(tile)} to its pong")
        elif code in WINS:
            if code != engine.EV_WIN_SELF_DRAWN:
                table.hands[seat, tile] += 1
            lines.append(f"{who} {WINS[code]} {tile_name(tile)} (value {amount}): {table.hand(seat)}")
            table.hands[seat, tile] -= int(code != engine.EV_WIN_SELF_DRAWN)
            if robbed is not None:
                # 抢杠: the kong fails, so the robbed seat keeps its pong (the added tile went to the robbers)
                table.turn_pong(robbed[0], robbed[1], MeldKind.PONG)
                lines.append(f"seat {robbed[0]}'s kong fails: it keeps its pong    hand: {table.hand(robbed[0])}")
        elif code in PAYMENTS:
            lines.append(f"    seat {seat} pays seat {tile} {amount} ({PAYMENTS[code]})")
        elif code == engine.EV_EXHAUSTED:
            lines.append("the wall is empty: 查叫 and 关死 settle the ready hands")
        elif code == engine.EV_END:
            lines.append("the deal is over")
    lines += ["", _outcome(log, ruleset) if pending is None else pending]
    return "\n".join(lines) + "\n"


def _outcome(log: engine.DealLog, ruleset: Ruleset) -> str:
    record = log.record
    seats = record["n_seats"]
    ending = "drawn (wall empty)" if record["draw"] else "over"
    lines = [(f"result: {record['winners']} winner(s), {ending}; turns {record['turns']}, "
              f"tiles left {record['tiles_left']}, next dealer seat {record['next_dealer']}")]
    for seat in range(seats):
        order = record[f"win_order_{seat}"]
        if order:
            way = engine.WIN_TYPES[record[f"win_type_{seat}"]].replace("_", "-")
            fans = [f"{ruleset.fan_names[Fan(fan)]} {int(ruleset.values[fan])}{f' x{count}' if count > 1 else ''}"
                    for fan in ruleset.fans if (count := int(log.fans[seat, fan]))]
            status = f"winner #{order} ({way}), value {record[f'fan_value_{seat}']} paid by {record[f'payers_{seat}']}: " + ", ".join(fans)
        else:
            status = "ready" if record[f"ready_{seat}"] else "not ready"
            status += ", declared 报叫" if record[f"declared_{seat}"] else ""
        money = ", ".join(f"{source} {record[f'{source}_money_{seat}']:+d}" for source in ("win", "kong", "chajiao", "guansi"))
        lines.append(f"  seat {seat}: {status}; money {record[f'money_{seat}']:+d} ({money})")
    return "\n".join(lines)

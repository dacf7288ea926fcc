"""An independent checker of the 血战 family's event logs (docs/event-logs.md): it plays every deal again from
its logged events alone, by the rules as the rules book states them (docs/rules/xuezhan-table.md,
liangmen-xuezhan.md, sanren-liangfang.md), and reports every place where the log is not a possible deal
of the ruleset or disagrees with the run's records.

For each deal it rebuilds the wall from the `wall` rows and checks that every `deal`, `draw` and
`replacement` tile is the next one from the wall's front or back and that `last_tile` follows the draw that
empties it; it follows every seat's concealed tiles and melds, the locks (过手碰, 过水胡, 漏胡, 过手杠), 换三张,
定缺 and 报叫 (with its `wait` rows), and checks each move's legality, that every seat with a choice on a
discard or a robbed kong answered it (a `pass`, a win, a claim, or a claim overruled by a win), that every
declined self-drawn win is a `decline_win`, and every win's hand. It scores every win with the slow
reference evaluator (tests/xuezhan/naive_xuezhan.py), recomputes every payment (wins, kong money, 查叫, 关死,
kong money returned) and compares each with the logged amount, and finally compares each deal's outcome
with the run's records: winners, ways of winning, fans, values, and money per seat and source.

It shares nothing with the engine but the tile numbering and the rulesets' data: it imports no engine,
table, scoring or money code of sim.xuezhan. ``check_run(directory)`` checks a run directory;
``check_events(events, ruleset, seats, records)`` checks a frame of events (as ``read_logs`` returns them),
which is how the tests plant faults. Each disagreement is one line naming the deal and the step.
"""

import functools
import sys
from pathlib import Path

import naive_xuezhan as naive
import numpy as np
import pandas as pd

from kernels.fan_ids import (
    DISCARD_AFTER_KONG_FLAG,
    EARTHLY_HAND_FLAG,
    HEAVENLY_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
    Fan,
)
from kernels.tiles import MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, PIN_START, SOU_START
from sim.core.event_logs import TILE_IDS
from sim.core.run_records import fan_column, load_run, read_logs, read_records

KINDS = range(PIN_START, SOU_START + 9)  # the 18 kinds of 筒 and 条
WALL_SIZE = 72
DEALT, DEALT_TO_DEALER = 13, 14
FROM_DEAL, FROM_WALL, FROM_KONG, FROM_CLAIM = "deal", "wall", "kong", "claim"
WIN_EVENTS = ("win_self_drawn", "win_discard", "win_robbed_kong")
WIN_TYPE = {"win_self_drawn": 1, "win_discard": 2, "win_robbed_kong": 3}  # the records' win_type codes
PAYMENTS = ("pay_win", "pay_kong", "pay_chajiao", "pay_guansi", "refund_kong")


class Disagreement(Exception):
    """The first place a deal's log breaks a rule or differs from its record; the checker moves on to the
    next deal."""


# ------------------------------------------------------------------------------------- hands


@functools.lru_cache(maxsize=None)
def _suit_splits(counts: tuple) -> tuple[bool, bool]:
    """(the nine counts of one suit split into sets only, into sets and one pair)."""

    def sets_only(rest):
        rest = list(rest)
        for rank in range(9):  # the lowest tile left is in a pung of it or starts chows
            if rest[rank] >= 3:
                rest[rank] -= 3
            chows = rest[rank]
            if chows:
                if rank > 6 or rest[rank + 1] < chows or rest[rank + 2] < chows:
                    return False
                rest[rank + 1] -= chows
                rest[rank + 2] -= chows
        return True

    with_pair = False
    for rank in range(9):
        if counts[rank] >= 2:
            rest = list(counts)
            rest[rank] -= 2
            if sets_only(rest):
                with_pair = True
                break
    return sets_only(counts), with_pair


def is_complete(hand: list, n_melds: int) -> bool:
    """Whether the concealed tiles (3k+2 of them, beside n_melds melds) are four sets and a pair, or seven
    pairs (no melds; a four counts as two pairs)."""
    pin, sou = tuple(hand[PIN_START : PIN_START + 9]), tuple(hand[SOU_START : SOU_START + 9])
    if n_melds == 0 and sum(pin) + sum(sou) == 14 and all(count % 2 == 0 for count in pin + sou):
        return True
    pin_sets, pin_pair = _suit_splits(pin)
    sou_sets, sou_pair = _suit_splits(sou)
    return (pin_sets and sou_pair) or (pin_pair and sou_sets)


def completes(hand: list, n_melds: int, tile: int) -> bool:
    hand[tile] += 1
    complete = is_complete(hand, n_melds)
    hand[tile] -= 1
    return complete


def concealed(hand: list) -> dict:
    return {kind: hand[kind] for kind in KINDS if hand[kind]}


def suit_start(kind: int) -> int:
    return PIN_START if kind < SOU_START else SOU_START


# ------------------------------------------------------------------------------------- one deal


class Deal:
    """One deal followed row by row: `rows` are (step, seat, event, tile, to_seat, money) with tiles as
    engine ids (-1 for none)."""

    def __init__(self, deal: int, rows: list, ruleset, seats: int):
        self.deal, self.rows, self.ruleset, self.n = deal, rows, ruleset, seats
        self.switches = ruleset.xuezhan
        self.at = 0  # the next row
        self.hands = [[0] * 34 for _ in range(seats)]
        self.melds = [[] for _ in range(seats)]  # [(meld code, kind)]
        self.won = [0] * seats  # win order, 0 while in
        self.win_order = 0
        self.declared = [False] * seats
        self.declared_waits = {}  # seat -> the waits its 报叫 made public
        self.voids = [-1] * seats
        self.pong_lock = [set() for _ in range(seats)]
        self.win_lock = [False] * seats
        self.missed = [-1] * seats
        self.passed_kong = [set() for _ in range(seats)]
        self.kong_units = [0] * seats
        self.kong_paid = [[0] * seats for _ in range(seats)]  # [payer][payee]
        self.money = {source: [0] * seats for source in ("win", "kong", "chajiao", "guansi")}
        self.front_draws = [0] * seats
        self.any_meld = False
        self.dealer_discards = 0
        self.outcome = [{} for _ in range(seats)]  # per seat: win_type, fan_value, fans, payers, income
        self.winners = 0
        self.first_winner = -1
        self.multi_win = 0
        self.draw = 0
        self.ready = [0] * seats

    # -------------------------------------------------------------- reading rows

    def fail(self, text: str):
        step = self.rows[self.at][0] if self.at < len(self.rows) else "end"
        raise Disagreement(f"deal {self.deal}, step {step}: {text}")

    def peek(self):
        return self.rows[self.at] if self.at < len(self.rows) else None

    def next_is(self, event: str, seat: int | None = None) -> bool:
        row = self.peek()
        return row is not None and row[2] == event and (seat is None or row[1] == seat)

    def take(self, event: str, seat: int | None = None, tile: int | None = None) -> tuple:
        """The next row, which must be `event` (of `seat`, on `tile`, where given)."""
        row = self.peek()
        if row is None:
            self.fail(f"the log ends where {event} of seat {seat} was due")
        _, row_seat, name, row_tile, _, _ = row
        if name != event or (seat is not None and row_seat != seat) or (tile is not None and row_tile != tile):
            want = f"{event}" + (f" of seat {seat}" if seat is not None else "") + (f" {_tile(tile)}" if tile is not None else "")
            self.fail(f"the log has {_row_text(row)} where {want} was due")
        self.at += 1
        return row

    # -------------------------------------------------------------- the wall

    def wall_left(self) -> int:
        return self.back - self.front + 1

    def draw_from(self, seat: int, back: bool) -> int:
        """The seat's draw: the next tile from the front (or the back), and `last_tile` after the last one."""
        event = "replacement" if back else "draw"
        expected = self.wall[self.back if back else self.front]
        self.take(event, seat, expected)
        if back:
            self.back -= 1
        else:
            self.front += 1
            self.front_draws[seat] += 1
        self.hands[seat][expected] += 1
        if self.wall_left() == 0:
            self.take("last_tile", -1, expected)
        return expected

    # -------------------------------------------------------------- the opening

    def open(self):
        wall = []
        while self.next_is("wall"):
            wall.append(self.take("wall", -1)[3])
        if len(wall) != WALL_SIZE or sorted(wall) != sorted(list(KINDS) * 4):
            self.fail(f"the wall rows are {len(wall)} tiles, not the 72 筒 and 条 tiles, four of each")
        self.wall, self.front, self.back = wall, 0, WALL_SIZE - 1
        first = self.peek()
        if first is None or first[2] != "deal":
            self.fail("no deal row after the wall")
        self.dealer = first[1]
        if not 0 <= self.dealer < self.n:
            self.fail(f"the dealer {self.dealer} is not a seat")
        for step in range(self.n):
            seat = (self.dealer + step) % self.n
            for _ in range(DEALT_TO_DEALER if step == 0 else DEALT):
                tile = self.wall[self.front]
                self.take("deal", seat, tile)
                self.hands[seat][tile] += 1
                self.front += 1
        drawn = self.wall[DEALT_TO_DEALER - 1]
        if self.switches.exchange_three:
            drawn = self.exchange(drawn)
        if self.switches.void_suit:
            for step in range(self.n):
                seat = (self.dealer + step) % self.n
                tile = self.take("void_suit", seat)[3]
                if tile not in (PIN_START, SOU_START):
                    self.fail(f"seat {seat} declares {_tile(tile)} void, not 1p or 1s")
                self.voids[seat] = tile
        if self.switches.declared_ready:
            for step in range(1, self.n):
                seat = (self.dealer + step) % self.n
                if self.next_is("declare_ready", seat):
                    if not self.structurally_ready(seat) or self.void_held(seat):
                        self.fail(f"seat {seat} declares 报叫 at the deal with a hand that is not ready")
                    self.take("declare_ready", seat)
                    self.declare(seat)
        return drawn

    def exchange(self, drawn: int) -> int:
        """换三张: three rows per seat, in turn order from the dealer, tiles ascending, one suit, all given in
        one direction; the dealer's 天胡 tile becomes the last tile it received if it gave its 14th away."""
        given, offsets = {}, set()
        for step in range(self.n):
            seat = (self.dealer + step) % self.n
            rows = [self.take("exchange", seat) for _ in range(3)]
            tiles = [row[3] for row in rows]
            receivers = {row[4] for row in rows}
            if len(receivers) != 1 or receivers == {seat}:
                self.fail(f"seat {seat}'s 换三张 goes to seats {sorted(receivers)}")
            if tiles != sorted(tiles) or len({suit_start(tile) for tile in tiles}) != 1:
                self.fail(f"seat {seat} gives {' '.join(map(_tile, tiles))}: not three tiles of one suit, ascending")
            if any(tiles.count(tile) > self.hands[seat][tile] for tile in tiles):
                self.fail(f"seat {seat} gives {' '.join(map(_tile, tiles))}, which it does not hold")
            receiver = receivers.pop()
            offsets.add((receiver - seat) % self.n)
            given[seat] = (receiver, tiles)
        allowed = {2: {1}, 3: {1, 2}, 4: {1, 2, 3}}[self.n]
        if len(offsets) != 1 or not offsets <= allowed:
            self.fail(f"the 换三张 directions are {sorted(offsets)}, not one direction")
        for seat, (_, tiles) in given.items():
            for tile in tiles:
                self.hands[seat][tile] -= 1
        for seat, (receiver, tiles) in given.items():
            for tile in tiles:
                self.hands[receiver][tile] += 1
        if self.hands[self.dealer][drawn] == 0:
            giver = next(seat for seat, (receiver, _) in given.items() if receiver == self.dealer)
            drawn = given[giver][1][-1]
        return drawn

    # -------------------------------------------------------------- what a seat may do

    def void_held(self, seat: int, extra: int = -1) -> int:
        start = self.voids[seat]
        if start < 0:
            return 0
        return sum(self.hands[seat][start : start + 9]) + int(start <= extra < start + 9)

    def is_void(self, seat: int, kind: int) -> bool:
        return self.voids[seat] >= 0 and self.voids[seat] <= kind < self.voids[seat] + 9

    def structurally_ready(self, seat: int) -> bool:
        """Some tile (a fifth copy included) completes the 3k+1 concealed tiles: shanten 0."""
        return any(completes(self.hands[seat], len(self.melds[seat]), kind) for kind in KINDS)

    def true_waits(self, seat: int) -> list:
        """The kinds that complete the hand, kinds it already holds all four of left out (the slow twin's)."""
        return sorted(naive.winning_kinds(concealed(self.hands[seat]), self.melds[seat]))

    def declare(self, seat: int):
        """報叫: the seat's `wait` rows, ascending, must be its hand's waits; its hand is then locked."""
        logged = []
        while self.next_is("wait", seat):
            logged.append(self.take("wait", seat)[3])
        waits = self.true_waits(seat)
        if logged != waits:
            self.fail(f"seat {seat}'s wait rows are {' '.join(map(_tile, logged)) or 'none'}, its waits "
                      f"{' '.join(map(_tile, waits)) or 'none'}")
        self.declared[seat] = True
        self.declared_waits[seat] = waits

    def keeps_waits(self, seat: int, kind: int, removed: int, meld_code: int) -> bool:
        """A declarer's kong must leave its waits as declared."""
        if not self.declared[seat]:
            return True
        hand = self.hands[seat]
        hand[kind] -= removed
        melds = self.melds[seat]
        after = [(meld_code if (code, low) == (MELD_PONG, kind) and removed == 1 else code, low) for code, low in melds]
        if removed != 1:
            after = melds + [(meld_code, kind)]
        waits = sorted(naive.winning_kinds(concealed(hand), after))
        hand[kind] += removed
        return waits == self.declared_waits[seat]

    def kong_room(self, seat: int) -> bool:
        return self.wall_left() > 0 and len(self.melds[seat]) < 4

    def pong_legal(self, seat: int, kind: int) -> bool:
        return (self.hands[seat][kind] >= 2 and len(self.melds[seat]) < 4 and not self.declared[seat]
                and kind not in self.pong_lock[seat] and not self.is_void(seat, kind))

    def exposed_kong_legal(self, seat: int, kind: int) -> bool:
        return (self.kong_room(seat) and self.hands[seat][kind] == 3 and not self.is_void(seat, kind)
                and self.keeps_waits(seat, kind, 3, MELD_KONG))

    def win_value(self, seat: int, tile: int, flags: int, in_hand: bool) -> tuple[int, list]:
        """(the raw value of the seat's win on `tile`, the fan readings reaching it), (-1, []) when it is no
        win (incomplete, or holding its void suit)."""
        hand = self.hands[seat]
        if not in_hand:
            hand[tile] += 1
        ok = is_complete(hand, len(self.melds[seat])) and self.void_held(seat) == 0
        hand[tile] -= 1
        result = naive.best(concealed(hand), self.melds[seat], tile, flags, self.ruleset) if ok else (-1, [])
        if in_hand:
            hand[tile] += 1
        return result

    def may_win(self, seat: int, raw: int, on_discard: bool) -> bool:
        if raw < 0 or (on_discard and self.win_lock[seat]):
            return False
        return not (self.missed[seat] >= 0 and raw <= self.missed[seat])

    def passed_win(self, seat: int, raw: int):
        if self.switches.pass_win_lock:
            self.win_lock[seat] = True
        if self.switches.missed_win_lock and raw > self.missed[seat]:
            self.missed[seat] = raw

    def hand_changed(self, seat: int):
        self.pong_lock[seat] = set()
        self.win_lock[seat] = False
        self.missed[seat] = -1

    def still_in(self) -> list:
        return [seat for seat in range(self.n) if not self.won[seat]]

    def next_in(self, seat: int) -> int:
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if not self.won[other]:
                return other
        return seat

    # -------------------------------------------------------------- money

    def pay(self, event: str, payer: int, payee: int, amount: int, source: str):
        row = self.take(event, payer)
        if row[4] != payee or row[5] != amount:
            self.fail(f"{event}: seat {payer} pays seat {row[4]} {row[5]}; the rules make it {amount} to seat {payee}")
        self.money[source][payer] -= amount
        self.money[source][payee] += amount

    def amount(self, raw: int, payee: int, payer: int, self_drawn: bool, dealt_in: bool) -> int:
        """What a payer pays for a win (or 查叫, 关死) of raw value `raw`: 002's ×16 when a declarer deals in or is
        robbed; 003's kong units of the payee and 加底; then the cap."""
        values = self.ruleset.values
        amount = raw
        if self.ruleset.combine == "multiply":
            if dealt_in and self.declared[payer] and values[Fan.READY_HAND] > 0:
                amount *= int(values[Fan.READY_HAND])
        else:
            if self.switches.kong_units_in_win:
                amount += max(0, self.kong_units[payee])
            if self.switches.self_drawn_bonus == "unit" and self_drawn:
                amount += 1
        if self.ruleset.cap > 0:
            amount = min(amount, self.ruleset.cap)
        return amount

    def kong_money(self, seat: int, kind_of_kong: str, discarder: int):
        switches = self.switches
        for payer in range(self.n):
            if payer == seat or self.won[payer]:
                continue
            if kind_of_kong == "exposed":
                amount = switches.exposed_discarder if payer == discarder else switches.exposed_others
            elif kind_of_kong == "added":
                amount = switches.added_others
            else:
                amount = switches.concealed_others
            if amount > 0:
                self.pay("pay_kong", payer, seat, amount, "kong")
                self.kong_units[payer] -= amount
                self.kong_units[seat] += amount
                self.kong_paid[payer][seat] += amount

    def win(self, seat: int, tile: int, flags: int, event: str, payer: int, order: int):
        """A win row and its payments: the hand must be complete; its value is the slow evaluator's."""
        self.take(event, seat, tile)
        self_drawn = event == "win_self_drawn"
        raw, readings = self.win_value(seat, tile, flags, in_hand=self_drawn)
        if raw < 0:
            self.fail(f"seat {seat} wins on {_tile(tile)} with a hand that is not complete (or holds its void suit)")
        payers = [other for other in range(self.n)
                  if other != seat and not self.won[other] and (payer < 0 or other == payer)]
        income = 0
        for other in payers:
            amount = self.amount(raw, seat, other, self_drawn, payer >= 0)
            self.pay("pay_win", other, seat, amount, "win")
            income += amount
        self.outcome[seat] = {"win_order": order, "win_type": WIN_TYPE[event], "fan_value": raw,
                              "readings": readings, "payers": len(payers), "win_income": income}
        if self.winners == 0:
            self.first_winner = seat
        self.winners += 1

    # -------------------------------------------------------------- play

    def play(self):
        drawn = self.open()
        self.initial_ready = [self.structurally_ready(seat) for seat in range(self.n)]
        self.turn(self.dealer, drawn, FROM_DEAL)
        if self.at != len(self.rows):
            self.fail(f"the log goes on after the deal's end: {_row_text(self.rows[self.at])}")

    def turn(self, seat: int, drawn: int, source: str):
        """The seat's turns, and every turn after it, to the end of the deal (a loop, not recursion)."""
        while seat is not None:
            seat, drawn, source = self.one_turn(seat, drawn, source)

    def self_draw_flags(self, seat: int, source: str) -> int:
        flags = SELF_DRAWN_FLAG | (READY_FLAG if self.declared[seat] else 0)
        if source != FROM_DEAL and self.wall_left() == 0:
            flags |= LAST_WALL_TILE_FLAG
        if source == FROM_KONG:
            flags |= KONG_REPLACEMENT_FLAG
        if source == FROM_DEAL:
            flags |= HEAVENLY_HAND_FLAG
        elif (self.switches.earthly_hand_self_drawn and seat != self.dealer and source == FROM_WALL
              and self.front_draws[seat] == 1 and not self.any_meld):
            flags |= EARTHLY_HAND_FLAG
        return flags

    def one_turn(self, seat: int, drawn: int, source: str):
        """One turn of `seat` holding 3k+2 tiles; returns the next turn (seat, drawn, source), or None at the end."""
        raw, flags = -1, 0
        if drawn >= 0:
            flags = self.self_draw_flags(seat, source)
            raw, _ = self.win_value(seat, drawn, flags, in_hand=True)
        allowed = self.may_win(seat, raw, on_discard=False)
        if self.declared[seat] and allowed:  # a declarer wins at the first chance, unasked
            return self.self_drawn_win(seat, drawn, flags)
        if self.next_is("decline_win", seat):
            if not allowed:
                self.fail(f"seat {seat} declines a win on {_tile(drawn)} it could not make")
            self.take("decline_win", seat, drawn)
            self.passed_win(seat, raw)
        elif allowed and not self.next_is("win_self_drawn", seat):
            self.fail(f"seat {seat} could win on {_tile(drawn)} and neither won nor logged decline_win")
        row = self.peek()
        if row is None or row[1] != seat:
            self.fail(f"seat {seat}'s turn has no action: {_row_text(row) if row else 'the log ends'}")
        _, _, event, tile, _, _ = row
        hand = self.hands[seat]
        if event == "win_self_drawn":
            if not allowed:
                self.fail(f"seat {seat} wins by self-draw on {_tile(tile)}, which it may not")
            return self.self_drawn_win(seat, drawn, flags)
        if event == "concealed_kong":
            if not (self.kong_room(seat) and hand[tile] == 4 and not self.is_void(seat, tile)
                    and self.keeps_waits(seat, tile, 4, MELD_CONCEALED_KONG)):
                self.fail(f"seat {seat}'s concealed kong of {_tile(tile)} is not legal")
            self.take(event, seat)
            hand[tile] -= 4
            self.melds[seat].append((MELD_CONCEALED_KONG, tile))
            self.any_meld = True
            self.kong_money(seat, "concealed", -1)
            self.missed[seat] = -1
            return seat, self.draw_from(seat, back=True), FROM_KONG
        if event == "added_kong":
            if not (self.kong_room(seat) and hand[tile] >= 1 and (MELD_PONG, tile) in self.melds[seat]
                    and not self.is_void(seat, tile) and self.keeps_waits(seat, tile, 1, MELD_KONG)):
                self.fail(f"seat {seat}'s added kong of {_tile(tile)} is not legal")
            self.take(event, seat)
            hand[tile] -= 1
            return self.rob_round(seat, tile)
        if event == "discard":
            if self.declared[seat] and tile != drawn:
                self.fail(f"seat {seat} declared 报叫 and discards {_tile(tile)}, not the tile it drew")
            if hand[tile] == 0:
                self.fail(f"seat {seat} discards {_tile(tile)}, which it does not hold")
            if self.void_held(seat) and not self.is_void(seat, tile):
                self.fail(f"seat {seat} discards {_tile(tile)} while it holds its void suit")
            self.take(event, seat)
            hand[tile] -= 1
            first_dealer_discard = seat == self.dealer and self.dealer_discards == 0
            if seat == self.dealer:
                self.dealer_discards += 1
            self.hand_changed(seat)
            if self.next_is("declare_ready", seat):
                if not (self.switches.declared_ready and first_dealer_discard and not self.declared[seat]
                        and self.structurally_ready(seat) and self.void_held(seat) == 0):
                    self.fail(f"seat {seat} declares 报叫 with a discard it may not declare with")
                self.take("declare_ready", seat)
                self.declare(seat)
            return self.claim_round(seat, tile, source)
        self.fail(f"seat {seat}'s turn: {_row_text(row)} is not a turn's action")

    def self_drawn_win(self, seat: int, drawn: int, flags: int):
        self.win_order += 1
        self.win(seat, drawn, flags, "win_self_drawn", -1, self.win_order)
        self.won[seat] = self.win_order
        return self.after_wins(seat)

    def answers(self, tile: int, candidates: list) -> list:
        """The round's `pass` rows, which must come from candidates (the seats with a choice), in turn
        order, each on the tile on offer: the seats that passed."""
        passers = []
        while self.next_is("pass"):
            row = self.peek()
            seat = row[1]
            if seat not in candidates or (passers and candidates.index(seat) <= candidates.index(passers[-1])):
                self.fail(f"seat {seat} passes {_tile(row[3])} without a choice to make (or out of turn)")
            self.take("pass", seat, tile)
            passers.append(seat)
        return passers

    def rob_round(self, seat: int, tile: int):
        """抢杠: each other seat still in that may win on the added tile robs it or passes."""
        choosers, robbers_unasked, raws, flags_of = [], [], {}, {}
        for step in range(1, self.n):
            other = (seat + step) % self.n
            if self.won[other]:
                continue
            flags = ROBBING_KONG_FLAG | (READY_FLAG if self.declared[other] else 0)
            raw, _ = self.win_value(other, tile, flags, in_hand=False)
            if not self.may_win(other, raw, on_discard=True):
                continue
            raws[other], flags_of[other] = raw, flags
            (robbers_unasked if self.declared[other] else choosers).append(other)
        passers = self.answers(tile, choosers)
        robbers = [other for other in choosers + robbers_unasked if other not in passers]
        robbers.sort(key=lambda other: (other - seat) % self.n)
        for other in passers:
            self.passed_win(other, raws[other])
        if robbers:
            self.win_order += 1
            for other in robbers:
                self.win(other, tile, flags_of[other], "win_robbed_kong", seat, self.win_order)
            for other in robbers:
                self.won[other] = self.win_order
            if len(robbers) > 1:
                self.multi_win = 1
            self.hand_changed(seat)
            return self.after_wins(robbers[-1])
        melds = self.melds[seat]
        melds[melds.index((MELD_PONG, tile))] = (MELD_KONG, tile)
        self.any_meld = True
        if self.switches.passed_kong_pays or tile not in self.passed_kong[seat]:
            self.kong_money(seat, "added", -1)
        self.missed[seat] = -1
        return seat, self.draw_from(seat, back=True), FROM_KONG

    def claim_round(self, seat: int, tile: int, source: str):
        """The others answer a discard: every seat with a choice wins, passes or claims; a declarer that
        may win wins unasked; every win beats a claim (一炮多响), a claim beats the next draw."""
        flags = LAST_WALL_TILE_FLAG if self.wall_left() == 0 else 0
        if source == FROM_KONG:
            flags |= DISCARD_AFTER_KONG_FLAG
        if seat == self.dealer and self.dealer_discards == 1 and not self.any_meld:
            flags |= EARTHLY_HAND_FLAG
        order = [(seat + step) % self.n for step in range(1, self.n) if not self.won[(seat + step) % self.n]]
        choosers, unasked, raws, flags_of, can_claim = [], [], {}, {}, {}
        for other in order:
            other_flags = flags | (READY_FLAG if self.declared[other] else 0)
            raw, _ = self.win_value(other, tile, other_flags, in_hand=False)
            allowed = self.may_win(other, raw, on_discard=True)
            raws[other] = raw if allowed else None
            flags_of[other] = other_flags
            if self.declared[other] and allowed:
                unasked.append(other)
                continue
            claims = [event for event, legal in (("pong", self.pong_legal(other, tile)),
                                                  ("kong", self.exposed_kong_legal(other, tile))) if legal]
            can_claim[other] = claims
            if allowed or claims:
                choosers.append(other)
        passers = self.answers(tile, choosers)
        winners = []
        while self.peek() is not None and self.peek()[2] == "win_discard":
            winner = self.peek()[1]
            if winner not in choosers + unasked or winner in passers or raws.get(winner) is None:
                self.fail(f"seat {winner} wins on {_tile(tile)}, which it may not")
            if winners and order.index(winner) <= order.index(winners[-1]):
                self.fail(f"seat {winner}'s win on {_tile(tile)} is out of turn order")
            winners.append(winner)
            if not winners[1:]:
                self.win_order += 1
            self.win(winner, tile, flags_of[winner], "win_discard", seat, self.win_order)
        missing = [other for other in unasked if other not in winners]
        if missing:
            self.fail(f"seat {missing[0]} declared 报叫 and could win on {_tile(tile)}, but did not")
        for other in passers:
            if raws[other] is not None:
                self.passed_win(other, raws[other])
            if self.switches.pass_pong_lock and self.pong_legal(other, tile):
                self.pong_lock[other].add(tile)
        silent = [other for other in choosers if other not in passers and other not in winners]
        if winners:
            for other in silent:  # a claim a win overruled: the seat let its win (if any) go too
                if not can_claim[other]:
                    self.fail(f"seat {other} had a choice on {_tile(tile)} and the log has no answer of it")
                if raws[other] is not None:
                    self.passed_win(other, raws[other])
            for other in winners:
                self.won[other] = self.win_order
            if len(winners) > 1:
                self.multi_win = 1
            return self.after_wins(winners[-1])
        if len(silent) > 1 or (silent and not (self.next_is("pong", silent[0]) or self.next_is("kong", silent[0]))):
            self.fail(f"seat {silent[0]} had a choice on {_tile(tile)} and the log has no answer of it")
        if silent:
            claimer = silent[0]
            event = self.peek()[2]
            if event not in can_claim[claimer]:
                self.fail(f"seat {claimer}'s {event} of {_tile(tile)} is not legal")
            self.take(event, claimer, tile)
            if raws[claimer] is not None:
                self.passed_win(claimer, raws[claimer])
            hand = self.hands[claimer]
            self.hand_changed(claimer)
            self.any_meld = True
            if event == "pong":
                hand[tile] -= 2
                if hand[tile] == 1 and self.wall_left() > 0:
                    self.passed_kong[claimer].add(tile)
                self.melds[claimer].append((MELD_PONG, tile))
                return claimer, -1, FROM_CLAIM
            hand[tile] -= 3
            self.melds[claimer].append((MELD_KONG, tile))
            self.kong_money(claimer, "exposed", seat)
            return claimer, self.draw_from(claimer, back=True), FROM_KONG
        return self.draw_next(self.next_in(seat))

    def draw_next(self, seat: int):
        if self.wall_left() == 0:
            self.end(exhausted=True)
            return None, None, None
        return seat, self.draw_from(seat, back=False), FROM_WALL

    def after_wins(self, last_winner: int):
        if len(self.still_in()) <= 1:
            self.end(exhausted=False)
            return None, None, None
        return self.draw_next(self.next_in(last_winner))

    # -------------------------------------------------------------- the end

    def end(self, exhausted: bool):
        """查叫 (at an exhaustive draw with two or more still in), the 003 refund, then 关死."""
        best = [0] * self.n
        for seat in self.still_in():
            if self.void_held(seat) == 0:
                flags = READY_FLAG if self.declared[seat] else 0
                best[seat] = naive.best_discard_value(concealed(self.hands[seat]), self.melds[seat], flags, self.ruleset)
            self.ready[seat] = int(best[seat] > 0)
        still_in = self.still_in()
        if exhausted and len(still_in) >= 2:
            self.draw = 1
            self.take("wall_empty", -1)
            paid = set()
            for payer in still_in:
                if best[payer] > 0:
                    continue
                for payee in still_in:
                    if best[payee] > 0:
                        self.pay("pay_chajiao", payer, payee, self.amount(best[payee], payee, payer, False, False), "chajiao")
                        paid.add(payer)
            if self.switches.chajiao_voids_kong_money:
                for payer in still_in:
                    if payer in paid:
                        for other in range(self.n):
                            if self.kong_paid[other][payer] > 0:
                                self.pay("refund_kong", payer, other, self.kong_paid[other][payer], "kong")
                                self.kong_paid[other][payer] = 0
        else:
            self.take("deal_over", -1)
        for payer in still_in:
            if not self.declared[payer]:
                continue
            for payee in still_in:
                if payee != payer and best[payee] > 0:
                    self.pay("pay_guansi", payer, payee, self.amount(best[payee], payee, payer, False, False), "guansi")

    # -------------------------------------------------------------- the record

    def compare(self, record: dict, fan_ids: list):
        """The deal's outcome against its record row."""
        expected = {"dealer": self.dealer, "winners": self.winners, "first_winner": self.first_winner,
                    "multi_win": self.multi_win, "draw": self.draw, "tiles_left": self.wall_left()}
        for seat in range(self.n):
            outcome = self.outcome[seat]
            money = {source: self.money[source][seat] for source in self.money}
            expected.update({
                f"win_order_{seat}": outcome.get("win_order", 0), f"win_type_{seat}": outcome.get("win_type", -1),
                f"payers_{seat}": outcome.get("payers", 0), f"fan_value_{seat}": outcome.get("fan_value", 0),
                f"win_income_{seat}": outcome.get("win_income", 0), f"money_{seat}": sum(money.values()),
                f"declared_{seat}": int(self.declared[seat]), f"melds_{seat}": len(self.melds[seat]),
                f"ready_{seat}": 0 if self.won[seat] else self.ready[seat],
                **{f"{source}_money_{seat}": amount for source, amount in money.items()},
            })
        for column, value in expected.items():
            if int(record[column]) != value:
                raise Disagreement(f"deal {self.deal}: the record's {column} is {int(record[column])}, the log's {value}")
        for seat in range(self.n):
            logged = {fan: int(record[f"{column}_{seat}"]) for fan, column in fan_ids if int(record[f"{column}_{seat}"])}
            readings = self.outcome[seat].get("readings", [{}])
            if logged not in [{fan: count for fan, count in reading.items() if count} for reading in readings]:
                names = {fan: column for fan, column in fan_ids}
                raise Disagreement(f"deal {self.deal}: seat {seat}'s fans in the record ({_fans(logged, names)}) are "
                                   f"not those of a best reading of its win ({_fans(readings[0], names)})")


def _tile(tile) -> str:
    return TILE_TEXTS[tile] if tile is not None and 0 <= tile < len(TILE_TEXTS) else "no tile"


def _fans(fans: dict, names: dict) -> str:
    return ", ".join(f"{names.get(fan, fan)} x{count}" for fan, count in fans.items() if count) or "none"


def _row_text(row) -> str:
    _, seat, event, tile, to_seat, money = row
    text = f"seat {seat} {event}" + (f" {_tile(tile)}" if tile >= 0 else "")
    return text + (f" {money} to seat {to_seat}" if money else (f" to seat {to_seat}" if to_seat >= 0 else ""))


TILE_TEXTS = {tile: text for text, tile in TILE_IDS.items()}


# ------------------------------------------------------------------------------------- runs


def check_events(events: pd.DataFrame, ruleset, seats: int, records: pd.DataFrame | None = None) -> list[str]:
    """Every deal of `events` (the schema's columns, as ``read_logs`` gives them) checked; with `records` (the
    run's, by deal), each deal's outcome compared with its record. One line per deal that disagrees."""
    tiles = events["tile"].astype(object).map(TILE_IDS).fillna(-1).astype(np.int64).to_numpy()
    columns = [events["step"].to_numpy(np.int64), events["seat"].to_numpy(np.int64), events["event"].astype(str).to_numpy(),
               tiles, events["to_seat"].to_numpy(np.int64), events["money"].to_numpy(np.int64)]
    rows = list(zip(*(column.tolist() for column in columns)))
    deals = events["deal"].to_numpy(np.int64)
    starts = np.flatnonzero(np.r_[True, deals[1:] != deals[:-1]]) if len(deals) else np.array([], np.int64)
    ends = np.r_[starts[1:], len(deals)]
    by_deal = records.set_index("deal") if records is not None else None
    fan_ids = [(fan, fan_column(fan)) for fan in ruleset.fans]
    problems = []
    for start, end in zip(starts.tolist(), ends.tolist()):
        deal = int(deals[start])
        checker = Deal(deal, rows[start:end], ruleset, seats)
        try:
            checker.play()
            if by_deal is not None:
                if deal not in by_deal.index:
                    raise Disagreement(f"deal {deal}: the run has no record of it")
                checker.compare(by_deal.loc[deal], fan_ids)
        except Disagreement as problem:
            problems.append(str(problem))
    if by_deal is not None:
        missing = sorted(set(by_deal.index.tolist()) - set(deals.tolist()))
        problems += [f"deal {deal}: the logs do not have it" for deal in missing]
    return problems


def check_run(directory: Path) -> list[str]:
    """Every deal of the run in `directory` (logged with ``mjsim run --logs``) checked against its rules and
    its records."""
    config, ruleset = load_run(Path(directory))
    if ruleset.family != "xuezhan":
        raise ValueError(f"{directory}: a run of {ruleset.id}, not of the 血战 family")
    events = read_logs(Path(directory))
    records = read_records(Path(directory), config, ruleset)
    return check_events(events, ruleset, len(config.players), records)


def main(argv=None) -> int:
    """`python tests/xuezhan/xuezhan_log_checker.py RUN_DIR`: every disagreement, one a line; status 1 if any."""
    arguments = sys.argv[1:] if argv is None else argv
    if len(arguments) != 1:
        print("usage: python tests/xuezhan/xuezhan_log_checker.py RUN_DIR", file=sys.stderr)
        return 2
    problems = check_run(Path(arguments[0]))
    for problem in problems:
        print(problem)
    print(f"{arguments[0]}: {len(problems)} disagreement(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

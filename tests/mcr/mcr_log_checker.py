"""An independent checker of the 国标 (MCR) family's event logs: it plays every deal again from its logged
events alone, by the rules as docs/rules/mcr-table.md states them, and reports every place where the log is
not a possible deal of the ruleset or disagrees with the run's records.

For each deal it rebuilds the wall from the `wall` rows (144 tiles, or the 136 without flowers) and checks
that the dealer and the round wind are the match's, that every tile dealt, drawn or replaced is the next one
from the wall's front or back, that every flower is set aside at once and replaced from the back (补花: at the
deal seat by seat from the dealer, `deal_replacement` rows; in play `flower_draw` and `flower_replacement`),
and that `last_tile` follows the draw that empties the wall. It follows every seat's concealed tiles, melds and
flowers and checks each move: a discard of a tile held, a concealed or added kong only with a tile left to
replace it, a chow only by the seat after the discarder, no claim of the last discard; that every seat with a
choice on a discard (a win, a pong, a kong, a chow) or on an added kong (a rob) answered it in turn order, a
`pass` or a claim, that a win ends the round at the first winner in turn order, that a pong or kong beats a
chow (the only claim another can overrule), that every self-drawn win declined is a `decline_win`. Every win
must reach the minimum: its hand must be complete in an MCR shape (checked here, slowly: four sets and a pair,
seven pairs, thirteen orphans, 全不靠, 组合龙) and is scored by the MCR evaluator
(``kernels.fans.mcr_all_suits.score_many``) in the context the log shows: self-drawn, the seat and round
winds, the last tile, a kong's replacement, a robbed kong and 和绝张 (the other three copies in discards and
exposed melds). Every payment is priced again: F = fans + the winner's flowers, base + F from the discarder
(or the robbed konger) and base from the others, base + F from each payer of a self-draw. Finally each deal's
outcome is compared with its record: dealer, round wind, winner, payer, way of winning, fans, flowers, melds,
turns, tiles left and money per seat. (The records' initial shanten is a measure of the engine's, not a rule:
it is not compared.)

It shares nothing with the engine but the tile numbering, the evaluator and the ruleset's data: it imports no
engine, table, scoring or money code of sim.mcr. ``check_run(directory)`` checks a run directory;
``check_events(events, ruleset, records)`` checks a frame of events (as ``read_logs`` returns them), which is
how the tests plant faults. Each disagreement is one line naming the deal and the step.
"""

import functools
import itertools
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from kernels.fan_ids import (
    FOURTH_TILE_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    N_FANS,
    ROBBING_KONG_FLAG,
    ROUND_WIND_SHIFT,
    SEAT_WIND_SHIFT,
    SELF_DRAWN_FLAG,
)
from kernels.fans.mcr_all_suits import NOT_A_WIN, score_many
from kernels.tiles import FIRST_FLOWER, HONOR_START, MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_FLOWERS
from sim.core.event_logs import TILE_IDS, TILE_TEXTS
from sim.core.run_records import fan_column, load_run, read_logs, read_records

SEATS = 4
KINDS = 34
DEALT, DEALT_TO_DEALER = 13, 14
FROM_DEAL, FROM_WALL, FROM_FLOWER, FROM_KONG, FROM_CLAIM = "deal", "wall", "flower", "kong", "claim"
WIN_EVENTS = {"win_self_drawn": 1, "win_discard": 2, "win_robbed_kong": 3}  # the records' win_type codes
CLAIM_RANK = {"chow": 1, "pong": 2, "kong": 2}  # a win beats a pong or kong, which beats a chow
ORPHANS = (0, 8, 9, 17, 18, 26, *range(HONOR_START, KINDS))
# 全不靠 and 组合龙: ranks 1-4-7, 2-5-8 and 3-6-9 (residues 0, 1, 2), one class to each suit
KNITTED_ORDERS = tuple(itertools.permutations(range(3)))


class Disagreement(Exception):
    """The first place a deal's log breaks a rule or differs from its record."""


# ------------------------------------------------------------------------------------- complete hands


@functools.lru_cache(maxsize=None)
def _suit_splits(counts: tuple) -> tuple[bool, bool]:
    """(the nine counts of one suit split into sets only, into sets and one pair)."""

    def sets_only(rest):
        rest = list(rest)
        for rank in range(9):  # the lowest tile left is in a pong of it or starts chows
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


def _sets_and_a_pair(hand: list) -> bool:
    """Whether the tiles split into sets and exactly one pair (the tile count is the caller's)."""
    groups = [_suit_splits(tuple(hand[start : start + 9])) for start in (0, 9, 18)]
    honours = hand[HONOR_START:KINDS]
    groups.append((all(count in (0, 3) for count in honours),
                   sorted(count for count in honours if count not in (0, 3)) == [2]))
    for paired in range(4):
        if groups[paired][1] and all(groups[other][0] for other in range(4) if other != paired):
            return True
    return False


def _knitted_tiles(order) -> list:
    return [suit * 9 + rank for suit in range(3) for rank in range(order[suit], 9, 3)]


def is_complete(hand: list, n_melds: int) -> bool:
    """Whether the concealed tiles (3k+2 of them, beside n_melds melds) are complete in an MCR shape."""
    if sum(hand) != 14 - 3 * n_melds:
        return False
    if _sets_and_a_pair(hand):
        return True
    if n_melds == 0:
        if all(count % 2 == 0 for count in hand):  # seven pairs, a four counting as two
            return True
        if all(hand[kind] >= 1 for kind in ORPHANS) and sum(hand[kind] for kind in ORPHANS) == 14:
            return True
    if n_melds > 1:
        return False
    for order in KNITTED_ORDERS:
        straight = _knitted_tiles(order)
        allowed = set(straight) | set(range(HONOR_START, KINDS))
        if n_melds == 0 and max(hand) <= 1 and all(hand[kind] == 0 for kind in range(KINDS) if kind not in allowed):
            return True  # 全不靠: 14 single tiles of one knitted order and the honours
        if all(hand[kind] >= 1 for kind in straight):  # 组合龙: the straight, then sets and a pair
            rest = list(hand)
            for kind in straight:
                rest[kind] -= 1
            if _sets_and_a_pair(rest):
                return True
    return False


# ------------------------------------------------------------------------------------- one deal


class Deal:
    """One deal followed row by row: `rows` are (step, seat, event, tile, to_seat, money) with tiles as engine
    ids (-1 for none)."""

    def __init__(self, deal: int, rows: list, ruleset):
        self.deal, self.rows, self.ruleset = deal, rows, ruleset
        self.switches = ruleset.family_switches
        self.fan_arrays = ruleset.kernel_arrays()
        self.at = 0
        self.hands = [[0] * KINDS for _ in range(SEATS)]
        self.melds = [[] for _ in range(SEATS)]  # [(meld code, lowest kind)]
        self.flowers = [0] * SEATS
        self.visible = [0] * KINDS  # discards (claimed or not) and the tiles of exposed melds
        self.money = [0] * SEATS
        self.turns = 0
        self.outcome = {"winner": -1, "discarder": -1, "win_type": -1, "fan_total": 0, "winner_flowers": 0}
        self.fans = np.zeros(N_FANS, np.int64)

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
        want = f"{event}" + (f" of seat {seat}" if seat is not None else "") + (f" {_tile(tile)}" if tile is not None else "")
        if row is None:
            self.fail(f"the log ends where {want} was due")
        _, row_seat, name, row_tile, _, _ = row
        if name != event or (seat is not None and row_seat != seat) or (tile is not None and row_tile != tile):
            self.fail(f"the log has {_row_text(row)} where {want} was due")
        self.at += 1
        return row

    # -------------------------------------------------------------- the wall

    def wall_left(self) -> int:
        return self.back - self.front + 1

    def draw(self, seat: int, back: bool, dealing: bool = False) -> tuple[int, str]:
        """The seat's draw from the front (or the back), each flower set aside and replaced from the back,
        until a suit or honour tile stays in hand: (that tile, where it came from), or (-1, ...) once the wall
        is empty."""
        source = FROM_KONG if back else FROM_WALL
        while True:
            if self.wall_left() == 0:
                return -1, source
            tile = self.wall[self.back if back else self.front]
            flower = tile >= FIRST_FLOWER
            if dealing:
                event = "deal_replacement"
            elif back:
                event = "flower_replacement" if flower else "replacement"
            else:
                event = "flower_draw" if flower else "draw"
            self.take(event, seat, tile)
            if back:
                self.back -= 1
            else:
                self.front += 1
            if self.wall_left() == 0:
                self.take("last_tile", -1, tile)
            if not flower:
                self.hands[seat][tile] += 1
                if not dealing:
                    self.turns += 1  # a turn begins with each tile received in play
                return tile, source
            self.flowers[seat] += 1
            back = True
            if source == FROM_WALL:
                source = FROM_FLOWER

    # -------------------------------------------------------------- the deal

    def open(self) -> int:
        """The wall, the deal and 补花; returns the tile the dealer's first turn is on (its last received)."""
        wall = []
        while self.next_is("wall"):
            wall.append(self.take("wall", -1)[3])
        expected = sorted(list(range(KINDS)) * 4 + (list(range(FIRST_FLOWER, FIRST_FLOWER + N_FLOWERS))
                                                     if self.ruleset.flowers else []))
        if sorted(wall) != expected:
            self.fail(f"the wall rows are {len(wall)} tiles, not the {len(expected)} of the ruleset, each once")
        self.wall, self.front, self.back = wall, 0, len(wall) - 1
        position = self.deal % self.switches.match_deals
        self.dealer = position % SEATS
        self.round_wind = position // (self.switches.match_deals // 4) % 4
        first = self.peek()
        if first is None or first[2] != "deal" or first[1] != self.dealer:
            self.fail(f"the deal does not begin with the dealer of deal {self.deal} of the match, seat {self.dealer}")
        last_received = -1
        for step in range(SEATS):
            seat = (self.dealer + step) % SEATS
            for _ in range(DEALT_TO_DEALER if step == 0 else DEALT):
                tile = self.wall[self.front]
                self.take("deal", seat, tile)
                self.front += 1
                if tile >= FIRST_FLOWER:
                    self.flowers[seat] += 1
                else:
                    self.hands[seat][tile] += 1
                    if step == 0:
                        last_received = tile
        for step in range(SEATS):
            seat = (self.dealer + step) % SEATS
            for _ in range(self.flowers[seat]):  # each dealt flower is replaced, the replacements' own too
                tile, _ = self.draw(seat, back=True, dealing=True)
                if step == 0:
                    last_received = tile
        self.turns = 1
        return last_received

    def play(self):
        """Walk the whole deal; Disagreement at the first row that breaks a rule."""
        drawn = self.open()
        seat, source = self.dealer, FROM_DEAL
        while seat is not None:
            seat, drawn, source = self.turn(seat, drawn, source)
        if self.peek() is not None:
            self.fail(f"the log goes on after the end of the deal: {_row_text(self.peek())}")

    # -------------------------------------------------------------- what a seat may do

    def winds(self, seat: int) -> int:
        return ((seat - self.dealer) % SEATS << SEAT_WIND_SHIFT) | (self.round_wind << ROUND_WIND_SHIFT)

    def score(self, seat: int, tile: int, flags: int, in_hand: bool):
        """(fan total without flowers, fan counts) of the seat's win on `tile`, or (None, None) when the hand
        is not complete; the evaluator takes the concealed tiles without the winning tile."""
        hand = list(self.hands[seat])
        if not in_hand:
            hand[tile] += 1
        if not is_complete(hand, len(self.melds[seat])):
            return None, None
        hand[tile] -= 1
        melds = np.zeros((1, 4, 2), np.int8)
        for index, meld in enumerate(self.melds[seat]):
            melds[0, index] = meld
        counts, totals = score_many(np.array([hand], np.int8), melds, np.array([len(self.melds[seat])], np.int8),
                                    np.array([tile], np.int8), np.array([flags], np.int32),
                                    np.array([self.flowers[seat]], np.int8), *self.fan_arrays)
        if totals[0] == NOT_A_WIN:
            self.fail(f"seat {seat}'s hand with {_tile(tile)} is complete, but the evaluator finds no reading of it")
        return int(totals[0]), counts[0].astype(np.int64)

    def may_win(self, total) -> bool:
        return total is not None and total >= self.ruleset.min_fan

    def kong_room(self, seat: int) -> bool:
        return self.wall_left() > 0 and len(self.melds[seat]) < 4

    def claims(self, seat: int, discarder: int, tile: int) -> dict:
        """The claims the seat may make on the discard: {event: [lowest kind of each way]}."""
        hand = self.hands[seat]
        if self.wall_left() == 0 or len(self.melds[seat]) >= 4:
            return {}  # the last discard is not claimed
        found = {}
        if hand[tile] >= 2:
            found["pong"] = [tile]
        if hand[tile] == 3:
            found["kong"] = [tile]
        if seat == (discarder + 1) % SEATS and tile < HONOR_START:
            lows = [low for low in range(tile - 2, tile + 1)
                    if low >= 0 and low // 9 == tile // 9 and low % 9 <= 6
                    and all(hand[kind] > 0 for kind in range(low, low + 3) if kind != tile)]
            if lows:
                found["chow"] = lows
        return found

    # -------------------------------------------------------------- a turn

    def turn(self, seat: int, drawn: int, source: str):
        """The seat's turn with 3k+2 tiles, `drawn` the tile just received (-1 after a claim); returns the
        next turn (seat, drawn, source), or Nones once the deal is over."""
        if drawn >= 0:
            flags = SELF_DRAWN_FLAG | self.winds(seat)
            if source != FROM_DEAL and self.wall_left() == 0:
                flags |= LAST_WALL_TILE_FLAG  # 妙手回春
            if source == FROM_KONG:
                flags |= KONG_REPLACEMENT_FLAG  # 杠上开花
            if self.visible[drawn] == 3:
                flags |= FOURTH_TILE_FLAG  # 和绝张
            total, fans = self.score(seat, drawn, flags, in_hand=True)
            if self.next_is("win_self_drawn"):
                self.take("win_self_drawn", seat, drawn)
                if not self.may_win(total):
                    self.fail(f"seat {seat} wins on {_tile(drawn)}, which is {_worth(total)}")
                return self.win(seat, drawn, total, fans, "win_self_drawn", -1)
            if self.may_win(total):
                self.take("decline_win", seat, drawn)
        row = self.peek()
        if row is None or row[1] != seat or row[2] not in ("discard", "concealed_kong", "added_kong"):
            self.fail(f"the log has {_row_text(row) if row else 'no row'} where seat {seat}'s move was due")
        _, _, event, tile, _, _ = self.take(row[2], seat)
        hand = self.hands[seat]
        if event == "discard":
            if hand[tile] == 0:
                self.fail(f"seat {seat} discards {_tile(tile)}, which it does not hold")
            hand[tile] -= 1
            self.visible[tile] += 1
            return self.claim_round(seat, tile)
        if event == "concealed_kong":
            if hand[tile] != 4 or not self.kong_room(seat):
                self.fail(f"seat {seat}'s concealed kong of {_tile(tile)} is not legal")
            hand[tile] -= 4
            self.melds[seat].append((MELD_CONCEALED_KONG, tile))
            return self.replacement(seat)
        if hand[tile] == 0 or (MELD_PONG, tile) not in self.melds[seat] or not self.kong_room(seat):
            self.fail(f"seat {seat}'s added kong of {_tile(tile)} is not legal")
        hand[tile] -= 1
        return self.rob_round(seat, tile)

    def replacement(self, seat: int):
        drawn, source = self.draw(seat, back=True)
        if drawn < 0:
            return self.exhausted()
        return seat, drawn, source

    def exhausted(self):
        self.take("wall_empty", -1)  # 荒庄: nobody pays
        return None, None, None

    def answers(self, tile: int, choosers: list) -> list:
        """The round's `pass` rows, which must come from seats with a choice, in turn order, each on the tile
        on offer: the seats that passed."""
        passers = []
        while self.next_is("pass"):
            row = self.peek()
            seat = row[1]
            if seat not in choosers or (passers and choosers.index(seat) <= choosers.index(passers[-1])):
                self.fail(f"seat {seat} passes {_tile(row[3])} without a choice to make (or out of turn)")
            self.take("pass", seat, tile)
            passers.append(seat)
        return passers

    def rob_round(self, seat: int, tile: int):
        """抢杠和: each other seat that may win on the added tile robs it or passes, in turn order; the first
        that robs wins and the pong stays; if none does, the kong stands and its replacement is drawn."""
        order = [(seat + step) % SEATS for step in range(1, SEATS)]
        choosers, scores = [], {}
        for other in order:
            flags = ROBBING_KONG_FLAG | self.winds(other) | (FOURTH_TILE_FLAG if self.visible[tile] == 3 else 0)
            total, fans = self.score(other, tile, flags, in_hand=False)
            if self.may_win(total):
                choosers.append(other)
                scores[other] = (total, fans)
        passers = self.answers(tile, choosers)
        if self.next_is("win_robbed_kong"):
            robber = self.peek()[1]
            if robber not in choosers or robber in passers:
                self.fail(f"seat {robber} robs the kong of {_tile(tile)}, which it may not")
            skipped = [other for other in choosers[: choosers.index(robber)] if other not in passers]
            if skipped:
                self.fail(f"seat {skipped[0]} could rob the kong of {_tile(tile)} before seat {robber} and did not answer")
            self.take("win_robbed_kong", robber, tile)
            return self.win(robber, tile, *scores[robber], "win_robbed_kong", seat)
        if passers != choosers:
            missing = next(other for other in choosers if other not in passers)
            self.fail(f"seat {missing} could rob the kong of {_tile(tile)} and the log has no answer of it")
        melds = self.melds[seat]
        melds[melds.index((MELD_PONG, tile))] = (MELD_KONG, tile)
        self.visible[tile] += 1
        return self.replacement(seat)

    def claim_round(self, discarder: int, tile: int):
        """The others answer a discard in turn order: the first that wins takes it (截和); otherwise the
        highest claim is made (a pong or kong beats the chow of the next seat), else the next seat draws."""
        order = [(discarder + step) % SEATS for step in range(1, SEATS)]
        flags_all = (LAST_WALL_TILE_FLAG if self.wall_left() == 0 else 0) | (
            FOURTH_TILE_FLAG if self.visible[tile] == 4 else 0)  # 海底捞月; 和绝张 counting the discard
        choosers, scores, claims = [], {}, {}
        for other in order:
            total, fans = self.score(other, tile, flags_all | self.winds(other), in_hand=False)
            claims[other] = self.claims(other, discarder, tile)
            if self.may_win(total):
                scores[other] = (total, fans)
            if other in scores or claims[other]:
                choosers.append(other)
        passers = self.answers(tile, choosers)
        if self.next_is("win_discard"):
            winner = self.peek()[1]
            if winner not in scores or winner in passers:
                self.fail(f"seat {winner} wins on {_tile(tile)}, which it may not")
            for other in choosers[: choosers.index(winner)]:
                if other not in passers and not claims[other]:
                    self.fail(f"seat {other} could win on {_tile(tile)} before seat {winner} and did not answer")
            self.take("win_discard", winner, tile)
            return self.win(winner, tile, *scores[winner], "win_discard", discarder)
        silent = [other for other in choosers if other not in passers]  # they claimed
        for other in silent:
            if not claims[other]:
                self.fail(f"seat {other} could win on {_tile(tile)} and the log has no answer of it")
        if not silent:
            drawn, source = self.draw(order[0], back=False)
            if drawn < 0:
                return self.exhausted()
            return order[0], drawn, source
        row = self.peek()
        if row is None or row[2] not in CLAIM_RANK or row[1] not in silent:
            self.fail(f"the log has {_row_text(row) if row else 'no row'} where the claim of seat "
                      f"{' or '.join(map(str, silent))} on {_tile(tile)} was due")
        _, claimer, event, low, _, _ = row
        if low not in claims[claimer].get(event, []):
            self.fail(f"seat {claimer}'s {event} of {_tile(tile)} is not legal")
        for other in silent:  # the others' claims were overruled: lower than the one made
            if other != claimer and max(CLAIM_RANK[claim] for claim in claims[other]) >= CLAIM_RANK[event]:
                self.fail(f"seat {claimer}'s {event} of {_tile(tile)} is made over seat {other}'s claim, which "
                          "ranks as high")
        self.take(event, claimer, low)
        self.turns += 1
        hand = self.hands[claimer]
        if event == "chow":
            for kind in range(low, low + 3):
                if kind != tile:
                    hand[kind] -= 1
                    self.visible[kind] += 1
            self.melds[claimer].append((MELD_CHOW, low))
            return claimer, -1, FROM_CLAIM
        taken = 2 if event == "pong" else 3
        hand[tile] -= taken
        self.visible[tile] += taken
        self.melds[claimer].append((MELD_PONG if event == "pong" else MELD_KONG, tile))
        if event == "pong":
            return claimer, -1, FROM_CLAIM
        return self.replacement(claimer)

    # -------------------------------------------------------------- the win

    def win(self, winner: int, tile: int, total: int, fans, event: str, payer: int):
        """Pay the win (F = fans + the winner's flowers): the payer base + F and each other seat base, or
        every other seat base + F for a self-draw, one `pay_win` row each in seat order; the deal is over."""
        price = total + self.flowers[winner]
        base = self.switches.base
        for other in range(SEATS):
            if other == winner:
                continue
            amount = base + (price if payer < 0 or other == payer else 0)
            row = self.take("pay_win", other)
            if row[4] != winner or row[5] != amount:
                self.fail(f"seat {other} pays {row[5]} to seat {row[4]}: the rules price it {amount} to seat {winner}")
            self.money[other] -= amount
            self.money[winner] += amount
        self.outcome = {"winner": winner, "discarder": payer, "win_type": WIN_EVENTS[event], "fan_total": total,
                        "winner_flowers": self.flowers[winner]}
        self.fans = fans
        return None, None, None

    # -------------------------------------------------------------- the record

    def compare(self, record, fan_ids: list):
        """The deal's outcome against its record row."""
        expected = {"dealer": self.dealer, "round_wind": self.round_wind, **self.outcome, "turns": self.turns,
                    "tiles_left": self.wall_left(), "violation": 0}
        for seat in range(SEATS):
            expected.update({f"money_{seat}": self.money[seat], f"flowers_{seat}": self.flowers[seat],
                             f"melds_{seat}": len(self.melds[seat])})
        for column, value in expected.items():
            if int(record[column]) != value:
                raise Disagreement(f"deal {self.deal}: the record's {column} is {int(record[column])}, the log's {value}")
        logged = {column: int(record[column]) for fan, column in fan_ids if int(record[column])}
        scored = {column: int(self.fans[fan]) for fan, column in fan_ids if int(self.fans[fan])}
        if logged != scored:
            raise Disagreement(f"deal {self.deal}: the record's fans ({_fans(logged)}) are not the evaluator's for "
                               f"the logged win ({_fans(scored)})")


def _tile(tile) -> str:
    return TILE_TEXTS[tile] if tile is not None and 0 <= tile < len(TILE_TEXTS) else "no tile"


def _worth(total) -> str:
    return "not a complete hand" if total is None else f"worth {total} fans, below the minimum"


def _fans(fans: dict) -> str:
    return ", ".join(f"{column} x{count}" for column, count in fans.items()) or "none"


def _row_text(row) -> str:
    _, seat, event, tile, to_seat, money = row
    text = f"seat {seat} {event}" + (f" {_tile(tile)}" if tile >= 0 else "")
    return text + (f" {money} to seat {to_seat}" if money else (f" to seat {to_seat}" if to_seat >= 0 else ""))


# ------------------------------------------------------------------------------------- runs


def check_events(events: pd.DataFrame, ruleset, records: pd.DataFrame | None = None) -> list[str]:
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
        checker = Deal(deal, rows[start:end], ruleset)
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
    if ruleset.family != "mcr":
        raise ValueError(f"{directory}: a run of {ruleset.id}, not of the 国标 family")
    events = read_logs(Path(directory))
    records = read_records(Path(directory), config, ruleset)
    return check_events(events, ruleset, records)


def main(argv=None) -> int:
    """`python tests/mcr/mcr_log_checker.py RUN_DIR`: every disagreement, one a line; status 1 if any."""
    arguments = sys.argv[1:] if argv is None else argv
    if len(arguments) != 1:
        print("usage: python tests/mcr/mcr_log_checker.py RUN_DIR", file=sys.stderr)
        return 2
    problems = check_run(Path(arguments[0]))
    for problem in problems:
        print(problem)
    print(f"{arguments[0]}: {len(problems)} disagreement(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

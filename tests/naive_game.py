"""A slow, obviously correct twin of the 二人麻将 table procedure (docs/rules/erren-table.md) that replays a deal.

``check_deal(ruleset, log)`` walks the engine's event log of one deal (``sim.erren.engine.replay``) against the
shuffled wall and re-derives everything from the rules book alone: where every tile comes from (front or back of
the wall), whether every action was legal when it was taken, that no tile is created or lost, every win's
context (天胡, 地胡, 人胡, 天听, 妙手回春, 海底捞月, 杠上开花, 抢杠胡, 和绝张, flowers, 报听) and its fans
(through the public scorer ``sim.scoring.score``), and finally every field of the deal's record. The first
disagreement raises AssertionError naming the deal, the event and what is wrong.

Nothing here comes from the engine, its heuristics, its action rules or its table state: the twin reads the
log as a sequence of (code, seat, tile) rows and keeps its own table in plain Python lists. Completeness and
readiness come from the slow references of ``tests/naive.py``; only the initial shanten (a record field
defined by the kernel) uses ``kernels.shanten_many``.
"""

from dataclasses import dataclass, field

import naive
import numpy as np

from kernels import shanten_many
from kernels.fan_ids import N_FANS, Fan
from sim.notation import Hand, Meld, MeldKind, format_hand, tile_name
from sim.scoring import ScoringError, WinContext, score

# Event codes of the log, as documented by the engine (sim.erren.engine.EV_*): the log's vocabulary, not its logic.
(
    DEAL, DRAW, REPLACEMENT, DISCARD, READY, HEAVENLY_READY, CHOW, PONG, KONG, CONCEALED_KONG, ADDED_KONG,
    DOUBLE, WIN_SELF_DRAWN, WIN_DISCARD, WIN_ROBBED_KONG, EXHAUSTED,
) = range(16)
CODE_NAMES = (
    "DEAL", "DRAW", "REPLACEMENT", "DISCARD", "READY", "HEAVENLY_READY", "CHOW", "PONG", "KONG",
    "CONCEALED_KONG", "ADDED_KONG", "DOUBLE", "WIN_SELF_DRAWN", "WIN_DISCARD", "WIN_ROBBED_KONG", "EXHAUSTED",
)
# How a deal ended (the record's win_type).
WIN_TYPE_DRAW, WIN_TYPE_SELF_DRAWN, WIN_TYPE_DISCARD, WIN_TYPE_ROBBED_KONG = 0, 1, 2, 3

N_KINDS = 34
FIRST_FLOWER = 34
N_FLOWERS = 8
WAN = range(9)
HONOURS = range(27, 34)
DEALT_TO_DEALER, DEALT_TO_OTHER = 14, 13
TILE_SET = [4 if (kind in WAN or kind in HONOURS) else 0 for kind in range(N_KINDS)]  # copies of each kind

# Where the tile a player holds as its 14th came from.
FROM_DEAL = "deal"  # the dealer's opening hand
FROM_WALL = "wall"  # an ordinary draw from the front
FROM_FLOWER = "flower"  # a replacement for a flower (drawn from the front or as a kong's replacement)
FROM_KONG = "kong"  # a kong's replacement, itself not a flower
FROM_CLAIM = "claim"  # no draw: the turn began with a chow or pong


def tile_text(tile: int) -> str:
    try:
        return tile_name(int(tile))
    except Exception:  # noqa: BLE001 - a bad tile id is itself the finding; show the number
        return f"#{int(tile)}"


def full_tile_set(flowers: bool) -> list[int]:
    """The 二人 wall before shuffling: four of each 万 and honour kind, plus the eight flowers in `erren`."""
    tiles = [kind for kind in (*WAN, *HONOURS) for _ in range(4)]
    if flowers:
        tiles += list(range(FIRST_FLOWER, FIRST_FLOWER + N_FLOWERS))
    return tiles


@dataclass
class Seat:
    hand: list = field(default_factory=lambda: [0] * N_KINDS)  # concealed tiles by kind
    melds: list = field(default_factory=list)  # [MeldKind, lowest kind], in the order made
    flowers: int = 0
    doubles: int = 0
    ready: bool = False
    heavenly_ready: bool = False
    ready_turn: int = -1

    def size(self) -> int:
        return sum(self.hand) + 3 * len(self.melds)

    def claimed_melds(self) -> int:
        return sum(1 for kind, _ in self.melds if kind != MeldKind.CONCEALED_KONG)

    def pong_index(self, kind: int) -> int:
        for index, (meld_kind, low) in enumerate(self.melds):
            if meld_kind == MeldKind.PONG and low == kind:
                return index
        return -1


class NaiveTable:
    """The table of one deal, advanced one event row at a time by the procedure of the rules book."""

    def __init__(self, ruleset, log):
        self.ruleset = ruleset
        self.log = log
        self.deal = int(log.record.get("deal", -1))
        self.events = [tuple(int(value) for value in row) for row in np.asarray(log.events)]
        self.wall = [int(tile) for tile in np.asarray(log.wall)]
        self.position = 0  # next event row to read
        self.front = 0  # next ordinary draw
        self.back = len(self.wall) - 1  # next replacement draw
        self.seats = [Seat(), Seat()]
        self.pool = [0] * N_KINDS  # discards lying on the table (claimed discards leave it)
        self.dealer = -1
        self.turn = 0  # turns begun: the dealer's opening, every draw turn, every claim
        self.dealer_discards = 0
        self.dealer_kong_first = False  # the dealer declared a concealed kong before its first discard
        self.any_meld = False  # any chow, pong or kong so far (concealed included): voids 地胡
        self.non_dealer_draws = 0  # ordinary (front) draws of the non-dealer
        self.initial_hands = [None, None]  # after the deal and the flower replacement
        self.initial_shanten = [None, None]
        # outcome
        self.winner = -1
        self.win_type = WIN_TYPE_DRAW
        self.score = None

    # ------------------------------------------------------------------------------ reporting

    def fail(self, message: str, row: int | None = None):
        row = self.position - 1 if row is None else row
        where = "at the start"
        if 0 <= row < len(self.events):
            code, seat, tile = self.events[row]
            name = CODE_NAMES[code] if 0 <= code < len(CODE_NAMES) else f"code {code}"
            where = f"event {row} ({name} seat {seat} tile {tile_text(tile) if 0 <= tile < 42 else tile})"
        elif row >= len(self.events):
            where = f"after the last event ({len(self.events)} rows)"
        raise AssertionError(f"deal {self.deal}, {where}: {message}")

    def require(self, condition, message: str, row: int | None = None):
        if not condition:
            self.fail(message, row)

    # ------------------------------------------------------------------------------ the log and the wall

    def peek(self):
        if self.position >= len(self.events):
            return None
        return self.events[self.position]

    def take(self):
        self.require(self.position < len(self.events), "the log ends in the middle of the deal", len(self.events))
        row = self.events[self.position]
        self.position += 1
        return row

    def take_expected(self, codes, seat=None, what=""):
        code, row_seat, tile = self.take()
        if code not in codes:
            self.fail(f"expected {' or '.join(CODE_NAMES[c] for c in codes)}{what}, found {CODE_NAMES[code] if 0 <= code < 16 else code}")
        if seat is not None and row_seat != seat:
            self.fail(f"expected seat {seat}, found seat {row_seat}")
        return code, row_seat, tile

    def wall_left(self) -> int:
        return self.back - self.front + 1

    def draw(self, seat: int, from_back: bool, after_kong: bool):
        """Draw for `seat` from the front (or the back), setting flowers aside and replacing them from the back.

        Returns (kind, source), or (None, source) when the wall ran out before a tile reached the hand."""
        source = FROM_KONG if after_kong else FROM_WALL
        while True:
            if self.wall_left() == 0:
                return None, source
            _, _, tile = self.take_expected((REPLACEMENT,) if from_back else (DRAW,), seat)
            expected = self.wall[self.back] if from_back else self.wall[self.front]
            self.require(
                tile == expected,
                f"seat {seat} drew {tile_text(tile)} but the {'back' if from_back else 'front'} of the wall holds {tile_text(expected)}",
            )
            if from_back:
                self.back -= 1
            else:
                self.front += 1
            if tile >= FIRST_FLOWER:
                self.require(self.ruleset.flowers, f"a flower in a {self.ruleset.id} wall")
                self.seats[seat].flowers += 1
                from_back = True
                source = FROM_FLOWER
                continue
            self.seats[seat].hand[tile] += 1
            return tile, source

    # ------------------------------------------------------------------------------ invariants

    def check_wall(self):
        expected = sorted(full_tile_set(self.ruleset.flowers))
        self.require(sorted(self.wall) == expected, f"the wall is not the {self.ruleset.id} tile set", -1)

    def exposed(self) -> list[int]:
        """Copies of each kind in exposed melds of either player (concealed kongs are not visible)."""
        counts = [0] * N_KINDS
        for seat in self.seats:
            for kind, low in seat.melds:
                if kind == MeldKind.CHOW:
                    for tile in (low, low + 1, low + 2):
                        counts[tile] += 1
                elif kind == MeldKind.PONG:
                    counts[low] += 3
                elif kind == MeldKind.KONG:
                    counts[low] += 4
        return counts

    def check_table(self, sizes):
        """Tile conservation, 0-4 copies of each kind everywhere, flowers conserved, and the hand sizes."""
        accounted = [0] * N_KINDS
        for number, seat in enumerate(self.seats):
            for kind in range(N_KINDS):
                if not 0 <= seat.hand[kind] <= 4:
                    self.fail(f"seat {number} holds {seat.hand[kind]} of {tile_text(kind)}")
                accounted[kind] += seat.hand[kind]
            for kind, low in seat.melds:
                tiles = (low, low + 1, low + 2) if kind == MeldKind.CHOW else (low,) * (3 if kind == MeldKind.PONG else 4)
                for tile in tiles:
                    accounted[tile] += 1
            if seat.size() != sizes[number]:
                self.fail(f"seat {number} holds {seat.size()} tiles (concealed + 3 per meld), expected {sizes[number]}")
        flowers_left = 0
        for position in range(self.front, self.back + 1):
            if self.wall[position] >= FIRST_FLOWER:
                flowers_left += 1
            else:
                accounted[self.wall[position]] += 1
        for kind in range(N_KINDS):
            if not 0 <= self.pool[kind] <= 4:
                self.fail(f"{self.pool[kind]} copies of {tile_text(kind)} in the discards")
            accounted[kind] += self.pool[kind]
            if accounted[kind] != TILE_SET[kind]:
                self.fail(f"{accounted[kind]} copies of {tile_text(kind)} on the table, expected {TILE_SET[kind]}")
        if self.ruleset.flowers:
            total = flowers_left + self.seats[0].flowers + self.seats[1].flowers
            self.require(total == N_FLOWERS, f"{total} flowers accounted for, expected {N_FLOWERS}")
        else:
            self.require(self.seats[0].flowers == self.seats[1].flowers == 0, "flowers in a game without them")

    # ------------------------------------------------------------------------------ hands

    def counts(self, seat: int, plus: int | None = None) -> np.ndarray:
        counts = np.array(self.seats[seat].hand, np.int64)
        if plus is not None:
            counts[plus] += 1
        return counts

    def is_ready(self, seat: int) -> bool:
        """13 tiles (less 3 per meld) that one more tile completes: shanten 0 (tests/naive.py waits)."""
        return bool(naive.waits(self.counts(seat), len(self.seats[seat].melds)).any())

    def hand_for_scoring(self, seat: int, win: int, in_hand: bool) -> Hand:
        concealed = list(self.seats[seat].hand)
        if in_hand:
            concealed[win] -= 1
        melds = tuple(Meld(MeldKind(kind), low) for kind, low in self.seats[seat].melds)
        return Hand(tuple(concealed), melds)

    def evaluate_win(self, seat: int, win: int, in_hand: bool, context: WinContext):
        """(legal, score): is the hand with `win` complete (tests/naive.py) and worth the minimum fan?"""
        counts = self.counts(seat, None if in_hand else win)
        if not naive.is_complete(counts, len(self.seats[seat].melds)):
            return False, None
        hand = self.hand_for_scoring(seat, win, in_hand)
        try:
            result = score(hand, win, context, self.ruleset)
        except ScoringError as error:
            self.fail(f"the scorer rejects the context the table gives seat {seat}'s win on {tile_text(win)} "
                      f"({format_hand(hand)}, {context}): {error}")
        return result.total_without_flowers >= self.ruleset.min_fan, result

    def ready_flags(self, seat: int) -> dict:
        return {"ready": self.seats[seat].ready, "tianting": self.seats[seat].heavenly_ready}

    def self_draw_context(self, seat: int, tile: int, source: str) -> WinContext:
        visible = self.pool[tile] + self.exposed()[tile]  # the winning tile is in the hand, not visible
        return WinContext(
            self_drawn=True,
            last_tile=source != FROM_DEAL and self.wall_left() == 0,  # 妙手回春
            kong_replacement=source == FROM_KONG,  # 杠上开花 (a flower's replacement is not)
            fourth_tile=visible == 3,  # 和绝张
            flowers=self.seats[seat].flowers,
            tianhu=seat == self.dealer and source == FROM_DEAL,  # the dealer's opening hand, no concealed kong yet
            dihu=(
                seat != self.dealer
                and self.non_dealer_draws == 1
                and source in (FROM_WALL, FROM_FLOWER)
                and not self.any_meld
            ),
            **self.ready_flags(seat),
        )

    def discard_context(self, winner: int, tile: int, discarder: int, first_dealer_discard: bool) -> WinContext:
        visible = self.pool[tile] - 1 + self.exposed()[tile]  # the other copies: not the discard itself
        return WinContext(
            last_tile=self.wall_left() == 0,  # 海底捞月: the discard after the last wall tile was drawn
            fourth_tile=visible == 3,
            flowers=self.seats[winner].flowers,
            renhu=discarder == self.dealer and first_dealer_discard and not self.dealer_kong_first,
            **self.ready_flags(winner),
        )

    def robbing_context(self, winner: int) -> WinContext:
        return WinContext(robbing_kong=True, flowers=self.seats[winner].flowers, **self.ready_flags(winner))

    def may_double(self, seat: int) -> bool:
        limit = self.ruleset.max_doubles
        return limit is None or self.seats[seat].doubles < limit

    def win(self, seat: int, win_type: int, result):
        self.winner, self.win_type, self.score = seat, win_type, result

    # ------------------------------------------------------------------------------ the deal

    def play(self):
        self.check_wall()
        self.deal_tiles()
        if not self.replace_opening_flowers():
            self.exhausted()
            return
        for seat in range(2):
            size = DEALT_TO_DEALER if seat == self.dealer else DEALT_TO_OTHER
            self.initial_hands[seat] = list(self.seats[seat].hand)
            self.initial_shanten[seat] = int(shanten_many(np.array([self.seats[seat].hand], np.int8), 0)[0])
            self.require(self.seats[seat].size() == size, f"seat {seat} holds {self.seats[seat].size()} tiles after the deal")
        self.check_table([14 if seat == self.dealer else 13 for seat in range(2)])
        self.turn = 1  # the dealer's opening
        self.non_dealer_heavenly_ready()

        seat, drawn, source = self.dealer, self.last_received, FROM_DEAL
        while True:
            discard = self.own_turn(seat, drawn, source)
            if discard is None:
                return
            first_dealer_discard = seat == self.dealer and self.dealer_discards == 1
            outcome = self.respond(1 - seat, discard, seat, first_dealer_discard)
            if outcome is None:
                return
            seat, drawn, source = outcome

    def deal_tiles(self):
        self.require(len(self.events) >= DEALT_TO_DEALER + DEALT_TO_OTHER, "the log is shorter than the deal", 0)
        self.dealer = self.events[0][1]
        self.require(self.dealer in (0, 1), f"dealer seat {self.dealer}", 0)
        self.require(self.dealer == self.log.record["dealer"], f"record dealer {self.log.record['dealer']}, the deal went to seat {self.dealer}", 0)
        other = 1 - self.dealer
        self.last_received = None
        for position in range(DEALT_TO_DEALER + DEALT_TO_OTHER):
            seat = self.dealer if position < DEALT_TO_DEALER else other
            _, _, tile = self.take_expected((DEAL,), seat, f" (tile {position + 1} of the deal)")
            self.require(tile == self.wall[position], f"dealt {tile_text(tile)}, the wall holds {tile_text(self.wall[position])} there")
            if tile >= FIRST_FLOWER:
                self.seats[seat].flowers += 1
            else:
                self.seats[seat].hand[tile] += 1
                if seat == self.dealer:
                    self.last_received = tile
        self.front = DEALT_TO_DEALER + DEALT_TO_OTHER

    def replace_opening_flowers(self) -> bool:
        """The dealer replaces all its flowers from the back, then the other seat."""
        for seat in (self.dealer, 1 - self.dealer):
            for _ in range(self.seats[seat].flowers):  # one replacement per dealt flower (drawn flowers chain)
                tile, _ = self.draw(seat, from_back=True, after_kong=False)
                if tile is None:
                    return False
                if seat == self.dealer:
                    self.last_received = tile
        return True

    def non_dealer_heavenly_ready(self):
        other = 1 - self.dealer
        row = self.peek()
        if row is not None and row[0] == HEAVENLY_READY:
            self.take_expected((HEAVENLY_READY,), other, " (天听 right after the deal is the non-dealer's)")
            self.require(self.may_declare_ready(other), "天听 not allowed here")
            self.require(self.is_ready(other), f"天听 on a hand that is not ready: {format_hand(self.hand_for_scoring(other, 0, False))}")
            self.declare_ready(other, heavenly=True, turn=0)

    def may_declare_ready(self, seat: int) -> bool:
        player = self.seats[seat]
        return not player.ready and not (self.ruleset.ready_requires_concealed and player.claimed_melds() > 0)

    def declare_ready(self, seat: int, heavenly: bool, turn: int):
        player = self.seats[seat]
        player.ready, player.heavenly_ready, player.ready_turn = True, heavenly, turn

    # ------------------------------------------------------------------------------ a player's turn

    def own_turn(self, seat: int, drawn, source):
        """The seat on turn holds 14 tiles; `drawn` is the tile it just received (None after a chow or pong).

        Returns the discarded kind, or None when the deal ended."""
        player = self.seats[seat]
        declined = False  # 加倍 declared on this tile: no win on it any more
        while True:
            self.check_table([14 if s == seat else 13 for s in range(2)])
            row = self.peek()
            self.require(row is not None, f"the log ends while seat {seat} is on turn", len(self.events))
            code, row_seat, tile = row
            if code in (WIN_SELF_DRAWN, DOUBLE):
                self.take()
                self.require(row_seat == seat, f"seat {row_seat} acts on seat {seat}'s turn")
                self.require(drawn is not None, "a self-drawn win or 加倍 without a draw (the turn began with a claim)")
                self.require(not declined, "a second win or 加倍 on a tile already declined with 加倍")
                self.require(tile == drawn, f"the win is on {tile_text(tile)} but the tile just received is {tile_text(drawn)}")
                legal, result = self.evaluate_win(seat, tile, True, self.self_draw_context(seat, tile, source))
                self.require(result is not None, f"seat {seat} claims a win on an incomplete hand: {self.hand_text(seat)}")
                self.require(legal, f"seat {seat}'s win is worth {result.total_without_flowers} fans, below the minimum {self.ruleset.min_fan}")
                if code == WIN_SELF_DRAWN:
                    self.win(seat, WIN_TYPE_SELF_DRAWN, result)
                    self.finish()
                    return None
                self.require(self.may_double(seat), f"加倍 beyond max_doubles {self.ruleset.max_doubles}")
                player.doubles += 1
                declined = True
                continue
            if code in (CONCEALED_KONG, ADDED_KONG):
                self.take()
                self.require(row_seat == seat, f"seat {row_seat} declares a kong on seat {seat}'s turn")
                self.require(not player.ready, "a kong from a locked (ready) hand")
                self.require(drawn is not None, "a kong right after a chow or pong (the claimer must discard)")
                self.require(self.wall_left() > 0, "a kong with no tile left in the wall")
                self.require(0 <= tile < N_KINDS, "a kong of no tile kind")
                if code == CONCEALED_KONG:
                    self.require(player.hand[tile] == 4, f"a concealed kong of {tile_text(tile)} holding {player.hand[tile]}")
                    player.hand[tile] -= 4
                    player.melds.append([MeldKind.CONCEALED_KONG, tile])
                    if seat == self.dealer and self.dealer_discards == 0:
                        self.dealer_kong_first = True
                    self.any_meld = True
                else:
                    index = player.pong_index(tile)
                    self.require(index >= 0, f"an added kong of {tile_text(tile)} without a pong of it")
                    self.require(player.hand[tile] >= 1, f"an added kong of {tile_text(tile)} not held")
                    player.hand[tile] -= 1
                    if self.robbing_chance(1 - seat, tile):
                        return None
                    player.melds[index][0] = MeldKind.KONG
                    self.any_meld = True
                drawn, source = self.draw(seat, from_back=True, after_kong=True)
                if drawn is None:
                    self.exhausted()
                    return None
                declined = False
                continue
            if code == DISCARD:
                self.take()
                self.require(row_seat == seat, f"seat {row_seat} discards on seat {seat}'s turn")
                self.require(0 <= tile < N_KINDS and player.hand[tile] > 0, f"seat {seat} discards {tile_text(tile)}, which it does not hold")
                if player.ready:
                    self.require(tile == drawn, f"a ready (locked) hand must discard the tile it drew ({tile_text(drawn)}), not {tile_text(tile)}")
                    if not declined:
                        legal, result = self.evaluate_win(seat, drawn, True, self.self_draw_context(seat, drawn, source))
                        self.require(not legal, f"a ready (locked) hand discards {tile_text(drawn)} instead of winning or doubling ({result and result.total_without_flowers} fans)")
                player.hand[tile] -= 1
                self.pool[tile] += 1
                if seat == self.dealer:
                    self.dealer_discards += 1
                self.declaration_after_discard(seat)
                self.check_table([13, 13])
                return tile
            self.fail(f"{CODE_NAMES[code] if 0 <= code < 16 else code} is not an action of seat {seat}'s turn", self.position)

    def hand_text(self, seat: int) -> str:
        return format_hand(self.hand_for_scoring(seat, 0, False))

    def declaration_after_discard(self, seat: int):
        row = self.peek()
        if row is None or row[0] not in (READY, HEAVENLY_READY):
            return
        code, row_seat, _ = self.take()
        self.require(row_seat == seat, f"seat {row_seat} declares ready on seat {seat}'s discard")
        self.require(self.may_declare_ready(seat), "ready declared twice, or with claimed melds where the ruleset requires a concealed hand")
        self.require(self.is_ready(seat), f"ready declared on a hand that is not ready: {self.hand_text(seat)}")
        heavenly = seat == self.dealer and self.dealer_discards == 1 and not self.dealer_kong_first
        if heavenly:
            self.require(code == HEAVENLY_READY, "the dealer's declaration with its first discard (no concealed kong before) is 天听")
        else:
            self.require(code == READY, "天听 is only the dealer's first discard or the non-dealer right after the deal")
        self.declare_ready(seat, heavenly, self.turn)

    def robbing_chance(self, opponent: int, tile: int) -> bool:
        """The opponent may rob the added kong (or 加倍 instead). True if the kong was robbed."""
        row = self.peek()
        context = self.robbing_context(opponent)
        if row is not None and row[0] in (WIN_ROBBED_KONG, DOUBLE):
            code, row_seat, row_tile = self.take()
            self.require(row_seat == opponent, f"seat {row_seat} robs its own kong")
            self.require(row_tile == tile, f"robbing on {tile_text(row_tile)}, the kong added {tile_text(tile)}")
            legal, result = self.evaluate_win(opponent, tile, False, context)
            self.require(result is not None, f"robbing the kong with an incomplete hand: {self.hand_text(opponent)}")
            self.require(legal, f"robbing the kong worth {result.total_without_flowers} fans, below the minimum")
            if code == WIN_ROBBED_KONG:
                self.win(opponent, WIN_TYPE_ROBBED_KONG, result)
                self.finish()
                return True
            self.require(self.may_double(opponent), f"加倍 beyond max_doubles {self.ruleset.max_doubles}")
            self.seats[opponent].doubles += 1
            return False
        if self.seats[opponent].ready:
            legal, result = self.evaluate_win(opponent, tile, False, context)
            self.require(not legal, "a ready (locked) hand lets a robbable kong pass instead of winning or doubling", self.position)
        return False

    # ------------------------------------------------------------------------------ the response to a discard

    def respond(self, seat: int, discard: int, discarder: int, first_dealer_discard: bool):
        """The opponent's answer to the discard: win, 加倍, a claim, or pass and draw.

        Returns (seat on turn, tile received or None, source), or None when the deal ended."""
        player = self.seats[seat]
        last_discard = self.wall_left() == 0  # only a win on the last discard
        context = self.discard_context(seat, discard, discarder, first_dealer_discard)
        row = self.peek()
        self.require(row is not None, f"the log ends after a discard with {self.wall_left()} tiles in the wall", len(self.events))
        code, row_seat, tile = row
        doubled = False
        if code in (WIN_DISCARD, DOUBLE):
            self.take()
            self.require(row_seat == seat, f"seat {row_seat} wins or doubles on its own discard")
            self.require(tile == discard, f"the win is on {tile_text(tile)}, the discard was {tile_text(discard)}")
            legal, result = self.evaluate_win(seat, discard, False, context)
            self.require(result is not None, f"a win on {tile_text(discard)} with an incomplete hand: {self.hand_text(seat)}")
            self.require(legal, f"a win worth {result.total_without_flowers} fans, below the minimum {self.ruleset.min_fan}")
            if code == WIN_DISCARD:
                self.win(seat, WIN_TYPE_DISCARD, result)
                self.finish()
                return None
            self.require(self.may_double(seat), f"加倍 beyond max_doubles {self.ruleset.max_doubles}")
            player.doubles += 1
            doubled = True
            row = self.peek()
            code, row_seat, tile = row if row is not None else (None, None, None)
        elif player.ready:
            legal, result = self.evaluate_win(seat, discard, False, context)
            self.require(not legal, f"a ready (locked) hand lets a winning discard {tile_text(discard)} pass", self.position)

        if code in (CHOW, PONG, KONG):
            self.take()
            self.require(row_seat == seat, f"seat {row_seat} claims its own discard")
            self.require(not doubled, "a claim on a discard the seat just declined with 加倍")
            self.require(not player.ready, "a claim from a locked (ready) hand")
            self.require(not last_discard, "a claim other than a win on the last discard")
            if code == CHOW:
                self.require(discard in WAN and tile in WAN and tile + 2 in WAN, f"a chow from {tile_text(tile)} is not a 万 run")
                self.require(tile <= discard <= tile + 2, f"the chow from {tile_text(tile)} does not hold the discard {tile_text(discard)}")
                for kind in (tile, tile + 1, tile + 2):
                    if kind != discard:
                        self.require(player.hand[kind] > 0, f"a chow without {tile_text(kind)} in hand")
                        player.hand[kind] -= 1
                player.melds.append([MeldKind.CHOW, tile])
            else:
                self.require(tile == discard, f"a claim of {tile_text(tile)} on the discard {tile_text(discard)}")
                taken = 2 if code == PONG else 3
                self.require(player.hand[discard] >= taken, f"a {'pong' if code == PONG else 'kong'} of {tile_text(discard)} holding {player.hand[discard]}")
                self.require(code == PONG or self.wall_left() > 0, "an exposed kong with no tile left in the wall")
                player.hand[discard] -= taken
                player.melds.append([MeldKind.PONG if code == PONG else MeldKind.KONG, discard])
            self.pool[discard] -= 1
            self.any_meld = True
            self.turn += 1
            if code == KONG:
                drawn, source = self.draw(seat, from_back=True, after_kong=True)
                if drawn is None:
                    self.exhausted()
                    return None
                return seat, drawn, source
            return seat, None, FROM_CLAIM

        # pass
        if last_discard:
            self.exhausted()
            return None
        self.require(code == DRAW, f"expected seat {seat} to draw after the discard, found {CODE_NAMES[code] if code is not None and 0 <= code < 16 else code}", self.position)
        self.turn += 1
        if seat != self.dealer:
            self.non_dealer_draws += 1
        drawn, source = self.draw(seat, from_back=False, after_kong=False)
        if drawn is None:
            self.exhausted()
            return None
        return seat, drawn, source

    # ------------------------------------------------------------------------------ the end

    def exhausted(self):
        self.require(self.wall_left() == 0, f"the deal ends drawn with {self.wall_left()} tiles in the wall", self.position)
        self.take_expected((EXHAUSTED,))
        self.finish()

    def finish(self):
        self.require(self.position == len(self.events), f"{len(self.events) - self.position} rows after the end of the deal", self.position)
        if self.winner >= 0:
            self.check_win_event()
        self.check_record()

    def check_win_event(self):
        self.require(naive.is_complete(self.winning_counts(), len(self.seats[self.winner].melds)), "the winning hand is not complete")
        if self.win_type == WIN_TYPE_SELF_DRAWN:
            self.require(self.seats[self.winner].size() == 14, "a self-drawn winner without 14 tiles")

    def winning_counts(self) -> np.ndarray:
        code, _, tile = self.events[self.position - 1]
        return self.counts(self.winner, None if code == WIN_SELF_DRAWN else tile)

    def check_record(self):
        record = self.log.record
        row = len(self.events)

        def same(name, value):
            self.require(record[name] == value, f"record {name} = {record[name]}, the table says {value}", row)

        same("winner", self.winner)
        same("win_type", self.win_type)
        same("tiles_left", self.wall_left())
        same("turns", self.turn)
        same("violation", 0)
        for seat in range(2):
            same(f"flowers_{seat}", self.seats[seat].flowers)
            same(f"doubles_{seat}", self.seats[seat].doubles)
            same(f"melds_{seat}", len(self.seats[seat].melds))
            same(f"ready_turn_{seat}", self.seats[seat].ready_turn)
            same(f"initial_shanten_{seat}", self.initial_shanten[seat])
        fans = np.zeros(N_FANS, np.int64)
        if self.score is not None:
            for fan, count in self.score.counts.items():
                fans[fan] = count
            same("fan_total", self.score.total_without_flowers)
        else:
            same("fan_total", 0)
        logged = np.asarray(self.log.fans, np.int64)
        if not np.array_equal(fans, logged):
            differ = [f"{Fan(fan).name.lower()}: log {logged[fan]}, twin {fans[fan]}" for fan in np.flatnonzero(fans != logged)]
            self.fail("the fans differ: " + "; ".join(differ), row)


def check_deal(ruleset, log) -> NaiveTable:
    """Replay one deal's log on the naive table; AssertionError at the first thing that is wrong."""
    table = NaiveTable(ruleset, log)
    table.play()
    return table

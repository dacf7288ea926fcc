"""A slow, obviously correct twin of the 二人麻将 table procedure (docs/rules/erren-table.md) that replays a deal.

It plays the three 二人 rulesets: `erren` and `erren-classic` (RULES.md §3) and `erren-challenge`, seed 004's
闯关 game (RULES.md §7), whose differences the twin takes from the rules text alone: all 136 tiles of which the
first `tiles_in_play` are in play (kong replacements from the back of those), face-up bonus tiles (花牌) turned
from the back after the deal, chows in every suit, thirteen orphans as a complete hand, no minimum fan and no
加倍, 天听 of the non-dealer on its first draw, and the extra draws of a declared-ready hand from the
out-of-play tiles after an exhausted wall.

``check_deal(ruleset, log)`` walks the engine's event log of one deal (``sim.erren.engine.replay``) against the
shuffled wall and re-derives everything from the rules book alone: where every tile comes from (front or back of
the wall), whether every action was legal when it was taken, that no tile is created or lost, every win's
context (天胡, 地胡, 人胡, 天听, 妙手回春, 海底捞月, 杠上开花, 抢杠胡, 和绝张, flowers, 报听) and its fans
(through the public scorer ``sim.families.scoring.score``), and finally every field of the deal's record. The first
disagreement raises AssertionError naming the deal, the event and what is wrong.

Nothing here comes from the engine, its heuristics, its action rules or its table state: the twin reads the
log as a sequence of (code, seat, tile) rows and keeps its own table in plain Python lists. Completeness and
readiness come from the slow references of ``tests/kernels/naive.py``; only the initial shanten (a record field
defined by the kernel) uses ``kernels.shanten_many``.
"""

import dataclasses
from dataclasses import dataclass, field

import naive
import numpy as np

from kernels import shanten_many
from kernels.fan_ids import N_FANS, Fan
from sim.core.notation import Hand, Meld, MeldKind, format_hand, tile_name
from sim.families.scoring import ScoringError, WinContext, score

# Event codes of the log, as documented (docs/event-logs.md: the 二人 events, in the order of their names there):
# the log's vocabulary, not its logic. A row is (code, seat, tile, amount); a payment holds its payee in the tile
# column, as the engine's rows do (the schema's to_seat).
CODE_NAMES = (
    "DEAL", "DRAW", "REPLACEMENT", "DISCARD", "READY", "HEAVENLY_READY", "CHOW", "PONG", "KONG",
    "CONCEALED_KONG", "ADDED_KONG", "DOUBLE", "WIN_SELF_DRAWN", "WIN_DISCARD", "WIN_ROBBED_KONG", "EXHAUSTED",
    "BONUS", "EXTRA_DRAW", "EXCHANGE_GIVES", "EXCHANGE_TAKES", "PICK", "PUNG_OFFER", "PUNG_GIVES",
    "WALL", "OUT_OF_PLAY", "LAST_TILE", "EXTRA_DRAWS", "PASS", "DECLINE_WIN", "WAIT", "CHOW_LOWEST", "PAY_WIN",
)
(
    DEAL, DRAW, REPLACEMENT, DISCARD, READY, HEAVENLY_READY, CHOW, PONG, KONG, CONCEALED_KONG, ADDED_KONG,
    DOUBLE, WIN_SELF_DRAWN, WIN_DISCARD, WIN_ROBBED_KONG, EXHAUSTED, BONUS, EXTRA_DRAW,
    EXCHANGE_GIVES, EXCHANGE_TAKES, PICK, PUNG_OFFER, PUNG_GIVES,
    WALL, OUT_OF_PLAY, LAST_TILE, EXTRA_DRAWS, PASS, DECLINE_WIN, WAIT, CHOW_LOWEST, PAY_WIN,
) = range(len(CODE_NAMES))
# How a deal ended (the record's win_type).
WIN_TYPE_DRAW, WIN_TYPE_SELF_DRAWN, WIN_TYPE_DISCARD, WIN_TYPE_ROBBED_KONG = 0, 1, 2, 3

N_KINDS = 34
FIRST_FLOWER = 34
N_FLOWERS = 8
WAN = range(9)
SUITED = range(27)  # 万, 筒 and 条
HONOURS = range(27, 34)
TERMINALS_AND_HONOURS = (0, 8, 9, 17, 18, 26, *HONOURS)  # the thirteen kinds of 十三幺
DEALT_TO_DEALER, DEALT_TO_OTHER = 14, 13
ASSISTED_SEAT = 0  # §7's assists are the player's, seat 0
TILE_SET = [4 if (kind in WAN or kind in HONOURS) else 0 for kind in range(N_KINDS)]  # copies of each kind, 二人 (§1)
FULL_TILE_SET = [4] * N_KINDS  # erren-challenge: all 136 suit and honour tiles (§7)


def tile_set_of(ruleset) -> list[int]:
    """Copies of each kind in the ruleset's wall: §1's table (all 136 for `erren-challenge`, 万 and honours else)."""
    return FULL_TILE_SET if ruleset.tile_set == "all" else TILE_SET


def is_challenge(ruleset) -> bool:
    """Seed 004's 闯关 game (§7): scored in points, with 役满, thirteen orphans and a 13-fan cap."""
    return ruleset.scoring == "challenge"


def is_thirteen_orphans(counts, n_melds) -> bool:
    """十三幺: no melds, one of each terminal and honour and a second copy of one of them (a 役满 of §7)."""
    return (
        n_melds == 0
        and sum(int(count) for count in counts) == 14
        and all(counts[kind] >= 1 for kind in TERMINALS_AND_HONOURS)
        and sum(int(counts[kind]) for kind in TERMINALS_AND_HONOURS) == 14
    )

# Where the tile a player holds as its 14th came from.
FROM_DEAL = "deal"  # the dealer's opening hand
FROM_WALL = "wall"  # an ordinary draw from the front
FROM_FLOWER = "flower"  # a replacement for a flower (drawn from the front or as a kong's replacement)
FROM_KONG = "kong"  # a kong's replacement, itself not a flower
FROM_CLAIM = "claim"  # no draw: the turn began with a chow or pong


def code_name(code) -> str:
    return CODE_NAMES[code] if code is not None and 0 <= code < len(CODE_NAMES) else f"code {code}"


def tile_text(tile: int) -> str:
    try:
        return tile_name(int(tile))
    except Exception:  # noqa: BLE001 - a bad tile id is itself the finding; show the number
        return f"#{int(tile)}"


def full_tile_set(flowers: bool, copies=TILE_SET) -> list[int]:
    """The wall before shuffling: `copies` of each kind, plus the eight flowers in `erren`."""
    tiles = [kind for kind in range(N_KINDS) for _ in range(copies[kind])]
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
        rows = [tuple(int(value) for value in row) for row in np.asarray(log.events)]
        # The log opens with the wall as shuffled, front first: the tiles in play, then those out of play.
        walled = 0
        while walled < len(rows) and rows[walled][0] in (WALL, OUT_OF_PLAY):
            walled += 1
        codes = [row[0] for row in rows[:walled]]
        self.wall = [row[2] for row in rows[:walled]]
        self.events = [row[:3] for row in rows[walled:]]
        self.amounts = [row[3] for row in rows[walled:]]
        self.copies = tile_set_of(ruleset)  # copies of each kind in this ruleset's set of tiles
        # §7: only the first tiles_in_play tiles of the shuffled set are in play; the rest wait, in order, for
        # the extra draws. `tiles_in_play` 0 means the whole wall (erren, erren-classic).
        self.in_play = ruleset.tiles_in_play or len(self.wall)
        self.require(codes == [WALL] * self.in_play + [OUT_OF_PLAY] * (walled - self.in_play),
                     f"the log's wall is not {self.in_play} tiles in play then the rest out of play", -1)
        self.require(all(row[1] == -1 for row in rows[:walled]), "a wall row with a seat", -1)
        self.position = 0  # next event row to read
        self.front = 0  # next ordinary draw
        self.back = self.in_play - 1  # next replacement draw: the back of the tiles in play
        self.next_out_of_play = self.in_play  # next extra draw (§7), from the out-of-play tiles in order
        self.bonus = []  # kinds of the face-up bonus tiles (§7's 花牌)
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
            where = f"event {row} ({code_name(code)} seat {seat} tile {tile_text(tile) if 0 <= tile < 42 else tile})"
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
            self.fail(f"expected {' or '.join(CODE_NAMES[c] for c in codes)}{what}, found {code_name(code)}")
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
            self.last_tile_mark(tile)
            if tile >= FIRST_FLOWER:
                self.require(self.ruleset.flowers, f"a flower in a {self.ruleset.id} wall")
                self.seats[seat].flowers += 1
                from_back = True
                source = FROM_FLOWER
                continue
            self.seats[seat].hand[tile] += 1
            return tile, source

    def last_tile_mark(self, tile: int):
        """The draw that empties the tiles in play is followed by the table's last-tile row, and no other is."""
        if self.wall_left() == 0:
            _, _, marked = self.take_expected((LAST_TILE,), -1, " (the wall in play is empty)")
            self.require(marked == tile, f"the last tile marked is {tile_text(marked)}, the last drawn {tile_text(tile)}")

    # ------------------------------------------------------------------------------ invariants

    def check_wall(self):
        expected = sorted(full_tile_set(self.ruleset.flowers, self.copies))
        self.require(sorted(self.wall) == expected, f"the wall is not the {self.ruleset.id} tile set", -1)
        self.require(0 < self.in_play <= len(self.wall), f"{self.in_play} tiles in play of {len(self.wall)}", -1)

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
        # The wall still in play, then the out-of-play tiles not yet taken by an extra draw (§7).
        for position in [*range(self.front, self.back + 1), *range(self.next_out_of_play, len(self.wall))]:
            if self.wall[position] >= FIRST_FLOWER:
                flowers_left += 1
            else:
                accounted[self.wall[position]] += 1
        for kind in self.bonus:  # face up beside the wall
            accounted[kind] += 1
        for kind in range(N_KINDS):
            if not 0 <= self.pool[kind] <= 4:
                self.fail(f"{self.pool[kind]} copies of {tile_text(kind)} in the discards")
            accounted[kind] += self.pool[kind]
            if accounted[kind] != self.copies[kind]:
                self.fail(f"{accounted[kind]} copies of {tile_text(kind)} on the table, expected {self.copies[kind]}")
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

    def is_complete(self, counts, n_melds: int) -> bool:
        """Four sets and a pair or seven pairs (tests/kernels/naive.py); in `erren-challenge` also 十三幺 (§7's 役满)."""
        if naive.is_complete(counts, n_melds):
            return True
        return is_challenge(self.ruleset) and is_thirteen_orphans(counts, n_melds)

    def is_ready(self, seat: int) -> bool:
        """13 tiles (less 3 per meld) that one more tile completes (never a fifth copy)."""
        counts, n_melds = self.counts(seat), len(self.seats[seat].melds)
        for kind in range(N_KINDS):
            if self.copies[kind] and counts[kind] < 4:
                counts[kind] += 1
                complete = self.is_complete(counts, n_melds)
                counts[kind] -= 1
                if complete:
                    return True
        return False

    def hand_for_scoring(self, seat: int, win: int, in_hand: bool) -> Hand:
        concealed = list(self.seats[seat].hand)
        if in_hand:
            concealed[win] -= 1
        melds = tuple(Meld(MeldKind(kind), low) for kind, low in self.seats[seat].melds)
        return Hand(tuple(concealed), melds)

    def evaluate_win(self, seat: int, win: int, in_hand: bool, context: WinContext):
        """(legal, score): is the hand with `win` complete (tests/kernels/naive.py) and worth the minimum fan?"""
        counts = self.counts(seat, None if in_hand else win)
        if not self.is_complete(counts, len(self.seats[seat].melds)):
            return False, None
        hand = self.hand_for_scoring(seat, win, in_hand)
        try:
            result = score(hand, win, context, self.ruleset)
        except ScoringError as error:
            self.fail(f"the scorer rejects the context the table gives seat {seat}'s win on {tile_text(win)} "
                      f"({format_hand(hand)}, {context}): {error}")
        if is_challenge(self.ruleset):
            self.check_points(result)
        return self.fans_for_minimum(result) >= self.ruleset.min_fan, result

    def fans_for_minimum(self, result) -> int:
        """What the minimum fan (起和) counts: the fans without flowers (§3.10); §7 has no minimum (min_fan 0)."""
        return result.total if is_challenge(self.ruleset) else result.total_without_flowers

    def check_points(self, result):
        """§7's price of a win, from the fans the scorer reports: any 役满 replace every other fan and count N
        役满 (N·per_limit points); otherwise the fans, 花牌 included, add up to at most fan_cap, f·(f+1)·per_fan_step."""
        values, is_limit, points = self.ruleset.values, self.ruleset.is_limit, self.ruleset.points
        limits = sum(int(values[fan]) * count for fan, count in result.counts.items() if is_limit[fan])
        if limits:
            self.require(all(is_limit[fan] for fan in result.counts), f"a 役满 hand also scores regular fans: {result.counts}")
            expected_total, expected_points = 0, limits * points.per_limit
        else:
            expected_total = min(points.fan_cap, sum(int(values[fan]) * count for fan, count in result.counts.items()))
            expected_points = expected_total * (expected_total + 1) * points.per_fan_step
        self.require(
            (result.total, result.limits, result.points) == (expected_total, limits, expected_points),
            f"the scorer prices {result.counts} at {result.total} fans, {result.limits} 役满, {result.points} points; "
            f"§7 says {expected_total} fans, {limits} 役满, {expected_points} points",
        )

    def ready_flags(self, seat: int) -> dict:
        return {"ready": self.seats[seat].ready, "tianting": self.seats[seat].heavenly_ready}

    def fourth_tile(self, visible: int) -> bool:
        """和绝张: the other three copies are visible. `erren-challenge` has no such fan (§7)."""
        return visible == 3 and not is_challenge(self.ruleset)

    def bonus_context(self) -> dict:
        """The face-up bonus tiles (§7's 花牌), one kind per tile; none outside `erren-challenge`."""
        return {"bonus": tuple(self.bonus)} if self.bonus else {}

    def self_draw_context(self, seat: int, tile: int, source: str) -> WinContext:
        visible = self.pool[tile] + self.exposed()[tile]  # the winning tile is in the hand, not visible
        if is_challenge(self.ruleset):
            # 海底摸月: self-drawn on the last of the tiles in play; a kong replacement is never also 海底摸月 (§7).
            last_tile = source == FROM_WALL and self.wall_left() == 0
        else:
            last_tile = source != FROM_DEAL and self.wall_left() == 0  # 妙手回春
        return WinContext(
            self_drawn=True,
            last_tile=last_tile,
            kong_replacement=source == FROM_KONG,  # 杠上开花 (a flower's replacement is not)
            fourth_tile=self.fourth_tile(visible),  # 和绝张
            flowers=self.seats[seat].flowers,
            tianhu=seat == self.dealer and source == FROM_DEAL,  # the dealer's opening hand, no concealed kong yet
            dihu=(
                seat != self.dealer
                and self.non_dealer_draws == 1
                and source in (FROM_WALL, FROM_FLOWER)
                and not self.any_meld
            ),
            **self.ready_flags(seat),
            **self.bonus_context(),
        )

    def extra_draw_context(self, seat: int) -> WinContext:
        """§7: a win in the extra draws after the exhausted wall is self-drawn and scores 海底捞月."""
        return WinContext(self_drawn=True, extra_draw=True, **self.ready_flags(seat), **self.bonus_context())

    def discard_context(self, winner: int, tile: int, discarder: int, first_dealer_discard: bool) -> WinContext:
        visible = self.pool[tile] - 1 + self.exposed()[tile]  # the other copies: not the discard itself
        return WinContext(
            last_tile=self.wall_left() == 0,  # 海底捞月 (河底捞鱼 in §7): the discard after the last wall tile was drawn
            fourth_tile=self.fourth_tile(visible),
            flowers=self.seats[winner].flowers,
            renhu=discarder == self.dealer and first_dealer_discard and not self.dealer_kong_first,
            **self.ready_flags(winner),
            **self.bonus_context(),
        )

    def robbing_context(self, winner: int) -> WinContext:
        # §7 scores a robbed kong as self-drawn: the scorer does that from robbing_kong, the table only says how it won.
        return WinContext(
            robbing_kong=True, flowers=self.seats[winner].flowers, **self.ready_flags(winner), **self.bonus_context(),
        )

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
        self.turn_bonus_tiles()
        self.start_exchange()
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

    def turn_bonus_tiles(self):
        """§7: after the deal `bonus_tiles` tiles of those in play are turned face up from the back of the wall and
        leave it, seen by both players."""
        for _ in range(self.ruleset.bonus_tiles):
            _, _, tile = self.take_expected((BONUS,), -1, " (a face-up bonus tile after the deal)")
            self.require(self.wall_left() > 0, "a bonus tile turned from an empty wall")
            self.require(tile == self.wall[self.back], f"the bonus tile is {tile_text(tile)}, the back of the wall holds {tile_text(self.wall[self.back])}")
            self.bonus.append(tile)
            self.back -= 1
        self.require(self.peek() is None or self.peek()[0] != BONUS, f"more than the {self.ruleset.bonus_tiles} bonus tiles of {self.ruleset.id}", self.position)

    # ------------------------------------------------------------------------------ §7's assists (004's 闯关 levels)
    # The system's offers to the player (seat 0), each a swap of tiles between its hand and the wall or the
    # out-of-play tiles, by the policy of docs/rules/erren-challenge.md ("Levels and assists"); their rows say
    # which tiles moved, the rules say from where.

    def copy_position(self, kind: int) -> int:
        """Where the copy of `kind` an assist hands over lies: the out-of-play tiles from their far end, then the
        live wall from its back; -1 if nowhere."""
        for position in [*range(len(self.wall) - 1, self.next_out_of_play - 1, -1), *range(self.back, self.front - 1, -1)]:
            if self.wall[position] == kind:
                return position
        return -1

    def start_exchange(self):
        """起始换牌: each tile given for the next out-of-play tile, which leaves them; the tile given goes to their end."""
        received = None
        while self.peek() is not None and self.peek()[0] == EXCHANGE_GIVES:
            _, seat, given = self.take()
            self.require(self.ruleset.start_exchange and seat == ASSISTED_SEAT, "起始换牌 where the ruleset has none, or not the player's")
            self.require(self.seats[seat].hand[given] == 1, f"起始换牌 gives {tile_text(given)}, not a single tile of the hand")
            _, _, received = self.take_expected((EXCHANGE_TAKES,), seat, " (the tile the exchange gives back)")
            self.require(self.next_out_of_play < len(self.wall) and received == self.wall[self.next_out_of_play],
                         f"起始换牌 gives back {tile_text(received)}, not the next out-of-play tile")
            self.wall.pop(self.next_out_of_play)
            self.wall.append(given)
            self.seats[seat].hand[given] -= 1
            self.seats[seat].hand[received] += 1
        if received is not None and self.dealer == ASSISTED_SEAT and self.seats[self.dealer].hand[self.last_received] == 0:
            self.last_received = received  # the tile a 天胡 would be won on is one the dealer holds

    def draw_assists(self, seat: int):
        """换刻子, then 搓牌, before the player's draw from the wall."""
        player = self.seats[seat]
        if self.peek() is not None and self.peek()[0] == PUNG_OFFER:
            _, _, offered = self.take()
            self.require(self.ruleset.pung_offer_chance > 0 and not player.ready, "换刻子 where the ruleset has none, or to a locked hand")
            given = []
            while len(given) < 3 and self.peek() is not None and self.peek()[0] == PUNG_GIVES:
                given.append(self.take()[2])
            self.require(len(given) in (0, 3), f"换刻子 takes {len(given)} tiles for three of a kind")
            for kind in given:
                position = self.copy_position(offered)
                self.require(position >= 0 and player.hand[kind] > 0, f"换刻子 of {tile_text(offered)} for {tile_text(kind)}: no copy left, or not held")
                self.wall[position] = kind
                player.hand[kind] -= 1
                player.hand[offered] += 1
        if self.peek() is not None and self.peek()[0] == PICK:
            _, _, kind = self.take()
            position = self.copy_position(kind)
            self.require(self.ruleset.pick_chance > 0 and self.wall_left() > 0 and position >= 0,
                         f"搓牌 of {tile_text(kind)} where the ruleset has none, the wall is empty or no copy is left")
            self.wall[self.front], self.wall[position] = self.wall[position], self.wall[self.front]

    def non_dealer_heavenly_ready(self):
        if self.ruleset.non_dealer_heavenly_ready == "first_draw":
            return  # §7: the non-dealer's 天听 comes with its first draw, not right after the deal
        other = 1 - self.dealer
        row = self.peek()
        if row is not None and row[0] == HEAVENLY_READY:
            self.take_expected((HEAVENLY_READY,), other, " (天听 right after the deal is the non-dealer's)")
            self.require(self.may_declare_ready(other), "天听 not allowed here")
            self.require(self.is_ready(other), f"天听 on a hand that is not ready: {format_hand(self.hand_for_scoring(other, 0, False))}")
            self.declare_ready(other, heavenly=True, turn=0)
            self.check_waits(other)

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
        win_turned_down = False  # the log says the seat turned the win on this tile down
        while True:
            self.check_table([14 if s == seat else 13 for s in range(2)])
            row = self.peek()
            self.require(row is not None, f"the log ends while seat {seat} is on turn", len(self.events))
            code, row_seat, tile = row
            if code == DECLINE_WIN:
                self.take()
                self.require(row_seat == seat and not win_turned_down, f"seat {row_seat} turns down a win on seat {seat}'s turn")
                self.require(drawn is not None and not declined and not player.ready,
                             "a win turned down where none was offered (no draw, 加倍 declared, or a locked hand)")
                self.require(tile == drawn, f"the win turned down is on {tile_text(tile)}, the tile received {tile_text(drawn)}")
                legal, _ = self.evaluate_win(seat, tile, True, self.self_draw_context(seat, tile, source))
                self.require(legal, f"seat {seat} turns down a win on {tile_text(tile)} that it could not make")
                win_turned_down = True
                continue
            if code in (CONCEALED_KONG, ADDED_KONG, DISCARD) and not player.ready and drawn is not None and not declined:
                # the engine offers the win on the tile received to a seat whose hand it completes: a seat that
                # plays on instead has turned it down, and the log must say so
                legal, _ = self.evaluate_win(seat, drawn, True, self.self_draw_context(seat, drawn, source))
                self.require(legal == win_turned_down, f"seat {seat} could win on {tile_text(drawn)} and plays on without a "
                             "decline_win row" if legal else "a decline_win row, but no win was to be had")
            if code in (WIN_SELF_DRAWN, DOUBLE):
                self.take()
                self.require(row_seat == seat, f"seat {row_seat} acts on seat {seat}'s turn")
                self.require(drawn is not None, "a self-drawn win or 加倍 without a draw (the turn began with a claim)")
                self.require(not declined and not win_turned_down, "a win or 加倍 on a tile already declined")
                self.require(tile == drawn, f"the win is on {tile_text(tile)} but the tile just received is {tile_text(drawn)}")
                legal, result = self.evaluate_win(seat, tile, True, self.self_draw_context(seat, tile, source))
                self.require(result is not None, f"seat {seat} claims a win on an incomplete hand: {self.hand_text(seat)}")
                self.require(legal, f"seat {seat}'s win is worth {self.fans_for_minimum(result)} fans, below the minimum {self.ruleset.min_fan}")
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
                declined = win_turned_down = False
                continue
            if code == DISCARD:
                self.take()
                self.require(row_seat == seat, f"seat {row_seat} discards on seat {seat}'s turn")
                self.require(0 <= tile < N_KINDS and player.hand[tile] > 0, f"seat {seat} discards {tile_text(tile)}, which it does not hold")
                if player.ready:
                    self.require(tile == drawn, f"a ready (locked) hand must discard the tile it drew ({tile_text(drawn)}), not {tile_text(tile)}")
                    if not declined:
                        legal, result = self.evaluate_win(seat, drawn, True, self.self_draw_context(seat, drawn, source))
                        self.require(not legal, f"a ready (locked) hand discards {tile_text(drawn)} instead of winning or doubling ({result and self.fans_for_minimum(result)} fans)")
                player.hand[tile] -= 1
                self.pool[tile] += 1
                if seat == self.dealer:
                    self.dealer_discards += 1
                # §7's 天听 of the non-dealer: on its first own turn, begun with an ordinary draw and no claim
                # before (turn 2), it throws the very tile it drew (a kong in between makes the tile a replacement).
                first_draw_thrown = seat != self.dealer and self.turn == 2 and source == FROM_WALL and tile == drawn
                self.declaration_after_discard(seat, first_draw_thrown)
                self.check_table([13, 13])
                return tile
            self.fail(f"{code_name(code)} is not an action of seat {seat}'s turn", self.position)

    def hand_text(self, seat: int) -> str:
        return format_hand(self.hand_for_scoring(seat, 0, False))

    def declaration_after_discard(self, seat: int, first_draw_thrown: bool):
        row = self.peek()
        if row is None or row[0] not in (READY, HEAVENLY_READY):
            return
        code, row_seat, _ = self.take()
        self.require(row_seat == seat, f"seat {row_seat} declares ready on seat {seat}'s discard")
        self.require(self.may_declare_ready(seat), "ready declared twice, or with claimed melds where the ruleset requires a concealed hand")
        self.require(self.is_ready(seat), f"ready declared on a hand that is not ready: {self.hand_text(seat)}")
        dealer_heavenly = seat == self.dealer and self.dealer_discards == 1 and not self.dealer_kong_first
        non_dealer_heavenly = self.ruleset.non_dealer_heavenly_ready == "first_draw" and first_draw_thrown
        heavenly = dealer_heavenly or non_dealer_heavenly
        if dealer_heavenly:
            self.require(code == HEAVENLY_READY, "the dealer's declaration with its first discard (no concealed kong before) is 天听")
        elif non_dealer_heavenly:
            self.require(code == HEAVENLY_READY, "the non-dealer's declaration on its first draw, throwing the tile drawn, is 天听 (§7)")
        elif self.ruleset.non_dealer_heavenly_ready == "first_draw":
            self.require(code == READY, "天听 is only the dealer's first discard or the non-dealer's first draw thrown at once (§7)")
        else:
            self.require(code == READY, "天听 is only the dealer's first discard or the non-dealer right after the deal")
        self.declare_ready(seat, heavenly, self.turn)
        self.check_waits(seat)

    def waits(self, seat: int) -> list[int]:
        """The kinds that complete the seat's 13 tiles, of those it does not hold every copy of."""
        n_melds = len(self.seats[seat].melds)
        return [kind for kind in range(N_KINDS)
                if self.seats[seat].hand[kind] < self.copies[kind] and self.is_complete(self.counts(seat, kind), n_melds)]

    def check_waits(self, seat: int):
        """A declaration is followed by one wait row per kind its hand waits on, in kind order."""
        logged = []
        while self.peek() is not None and self.peek()[0] == WAIT:
            _, row_seat, tile = self.take()
            self.require(row_seat == seat, f"seat {row_seat} lists waits of seat {seat}'s declaration")
            logged.append(tile)
        expected = self.waits(seat)
        self.require(logged == expected, f"the declaration's waits are {' '.join(map(tile_text, logged)) or 'none'}, "
                     f"the hand waits on {' '.join(map(tile_text, expected))}")

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
            self.require(legal, f"robbing the kong worth {self.fans_for_minimum(result)} fans, below the minimum")
            if code == WIN_ROBBED_KONG:
                self.win(opponent, WIN_TYPE_ROBBED_KONG, result)
                self.finish()
                return True
            self.require(self.may_double(opponent), f"加倍 beyond max_doubles {self.ruleset.max_doubles}")
            self.seats[opponent].doubles += 1
            return False
        legal, result = self.evaluate_win(opponent, tile, False, context)
        if row is not None and row[0] == PASS:
            _, row_seat, row_tile = self.take()
            self.require(row_seat == opponent and row_tile == tile, f"seat {row_seat} passes on {tile_text(row_tile)}, the "
                         f"kong added was seat {1 - opponent}'s {tile_text(tile)}")
            self.require(legal and not self.seats[opponent].ready, "a pass on a kong the seat could not rob, or from a locked hand")
            return False
        if self.seats[opponent].ready:
            self.require(not legal, "a ready (locked) hand lets a robbable kong pass instead of winning or doubling", self.position)
        self.require(not legal, f"seat {opponent} could rob the kong of {tile_text(tile)} and let it go without a pass row", self.position)
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
        could_win, _ = self.evaluate_win(seat, discard, False, context)
        had_choice = could_win or self.may_claim(seat, discard, last_discard)
        if code == PASS:
            self.take()
            self.require(row_seat == seat and tile == discard, f"seat {row_seat} passes on {tile_text(tile)}, the discard "
                         f"was seat {discarder}'s {tile_text(discard)}")
            self.require(had_choice, f"a pass row where seat {seat} could neither claim nor win on {tile_text(discard)}")
            row = self.peek()
            code, row_seat, tile = row if row is not None else (None, None, None)
            self.require(code not in (WIN_DISCARD, DOUBLE, CHOW, PONG, KONG, PASS), "an answer after the pass", self.position)
        elif code not in (WIN_DISCARD, DOUBLE, CHOW, PONG, KONG):
            self.require(not had_choice, f"seat {seat} could claim or win on {tile_text(discard)} and let it go without a "
                         "pass row", self.position)
        if code in (WIN_DISCARD, DOUBLE):
            self.take()
            self.require(row_seat == seat, f"seat {row_seat} wins or doubles on its own discard")
            self.require(tile == discard, f"the win is on {tile_text(tile)}, the discard was {tile_text(discard)}")
            legal, result = self.evaluate_win(seat, discard, False, context)
            self.require(result is not None, f"a win on {tile_text(discard)} with an incomplete hand: {self.hand_text(seat)}")
            self.require(legal, f"a win worth {self.fans_for_minimum(result)} fans, below the minimum {self.ruleset.min_fan}")
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
                # The chow row holds the tile claimed, the next row the run's lowest tile. A run of three
                # consecutive ranks in one suit: only 万 in erren and erren-classic (their tile set), any of 万, 筒
                # and 条 in erren-challenge (§7).
                self.require(tile == discard, f"the chow claims {tile_text(tile)}, the discard was {tile_text(discard)}")
                _, _, tile = self.take_expected((CHOW_LOWEST,), seat, " (the chow's lowest tile)")
                self.require(tile in SUITED and tile % 9 <= 6 and self.copies[tile] and self.copies[tile + 2], f"a chow from {tile_text(tile)} is not a run of one suit")
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
        if seat == ASSISTED_SEAT:
            self.draw_assists(seat)
            code = self.peek()[0] if self.peek() is not None else None
        self.require(code == DRAW, f"expected seat {seat} to draw after the discard, found {code_name(code)}", self.position)
        self.turn += 1
        if seat != self.dealer:
            self.non_dealer_draws += 1
        drawn, source = self.draw(seat, from_back=False, after_kong=False)
        if drawn is None:
            self.exhausted()
            return None
        return seat, drawn, source

    def may_claim(self, seat: int, discard: int, last_discard: bool) -> bool:
        """Whether a chow, pong or kong of the discard is open to the seat: not on the last discard, not from a
        locked hand, not beyond four melds, with the tiles in hand (a kong also needs a replacement left)."""
        player = self.seats[seat]
        if last_discard or player.ready or len(player.melds) >= 4:
            return False
        if player.hand[discard] >= 2:
            return True
        chows = [low for low in range(max(0, discard - 2), discard + 1)
                 if low in SUITED and low % 9 <= 6 and low // 9 == discard // 9
                 and all(player.hand[kind] > 0 for kind in (low, low + 1, low + 2) if kind != discard)]
        return bool(chows)

    # ------------------------------------------------------------------------------ the end

    def exhausted(self):
        self.require(self.wall_left() == 0, f"the deal ends drawn with {self.wall_left()} tiles in the wall", self.position)
        if self.extra_draws():
            return
        self.take_expected((EXHAUSTED,))
        self.finish()

    def extra_draws(self) -> bool:
        """§7, the wall is empty and nobody won: a declared-ready player (of two, the one who declared first) draws
        up to `extra_draws` tiles from the out-of-play tiles in their shuffled order, winning by self-draw (海底捞月)
        or throwing the tile, which nobody may claim or win on. True if the deal was won there."""
        declared = [seat for seat in range(2) if self.seats[seat].ready]
        row = self.peek()
        if not self.ruleset.extra_draws or not declared:
            self.require(row is None or row[0] != EXTRA_DRAW, "an extra draw, but "
                         + ("nobody declared ready" if not declared else f"{self.ruleset.id} has none"), self.position)
            return False
        seat = min(declared, key=lambda number: self.seats[number].ready_turn)
        if self.next_out_of_play < len(self.wall):
            self.take_expected((EXTRA_DRAWS,), seat, " (the extra draws begin, for the first declared-ready seat)")
        for draw_number in range(self.ruleset.extra_draws):
            self.require(self.next_out_of_play < len(self.wall), "no out-of-play tile left for an extra draw", self.position)
            self.turn += 1  # a draw begins a turn (the record's turns: the dealer's opening, then one per draw or claim)
            _, _, tile = self.take_expected((EXTRA_DRAW,), seat, f" (extra draw {draw_number + 1} of {self.ruleset.extra_draws} for the first declared-ready seat)")
            expected = self.wall[self.next_out_of_play]
            self.require(tile == expected, f"the extra draw is {tile_text(tile)}, the next out-of-play tile (wall[{self.next_out_of_play}]) is {tile_text(expected)}")
            self.next_out_of_play += 1
            self.seats[seat].hand[tile] += 1
            self.check_table([14 if number == seat else 13 for number in range(2)])
            legal, result = self.evaluate_win(seat, tile, True, self.extra_draw_context(seat))
            row = self.peek()
            self.require(row is not None, "the log ends during the extra draws", len(self.events))
            if legal:  # the hand is locked: a tile that wins must be won on (no 加倍 in this game)
                _, _, won = self.take_expected((WIN_SELF_DRAWN,), seat, " (the locked hand's extra draw wins)")
                self.require(won == tile, f"the win is on {tile_text(won)}, the extra draw was {tile_text(tile)}")
                self.win(seat, WIN_TYPE_SELF_DRAWN, result)
                self.finish()
                return True
            _, _, thrown = self.take_expected((DISCARD,), seat, " (the locked hand throws an extra draw that does not win)")
            self.require(thrown == tile, f"a locked hand must throw the extra draw {tile_text(tile)}, not {tile_text(thrown)}")
            self.seats[seat].hand[tile] -= 1
            self.pool[tile] += 1
            self.check_table([13, 13])
        self.take_expected((EXHAUSTED,), None, f" after {self.ruleset.extra_draws} extra draws that did not win")
        self.finish()
        return True

    def finish(self):
        if self.winner >= 0:
            self.check_win_event()
            self.check_payment()
        self.require(self.position == len(self.events), f"{len(self.events) - self.position} rows after the end of the deal", self.position)
        self.check_record()

    def price(self) -> int:
        """What the loser pays (docs/rules/erren-table.md; §7): the points of a win priced in points, else
        F = (fans without flowers + the winner's flowers) x 2^(its doubles)."""
        if is_challenge(self.ruleset):
            return self.score.points
        winner = self.seats[self.winner]
        return (self.score.total_without_flowers + winner.flowers) * 2**winner.doubles

    def check_payment(self):
        """Right after the win, the loser pays the winner the win's price: one pay_win row."""
        _, payer, payee = self.take_expected((PAY_WIN,), 1 - self.winner, " (the loser pays the winner)")
        amount = self.amounts[self.position - 1]
        self.require(payee == self.winner, f"the win is paid to seat {payee}, the winner is seat {self.winner}")
        self.require(amount == self.price(), f"the log pays {amount}, the win is worth {self.price()}")

    def check_win_event(self):
        self.require(self.is_complete(self.winning_counts(), len(self.seats[self.winner].melds)), "the winning hand is not complete")
        if self.win_type == WIN_TYPE_SELF_DRAWN:
            self.require(self.seats[self.winner].size() == 14, "a self-drawn winner without 14 tiles")

    def winning_counts(self) -> np.ndarray:
        code, _, tile = self.events[self.position - 1]  # the win's row, before its payment is read
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
        if self.score is None:
            same("fan_total", 0)
            same("limits", 0)
            same("points", 0)
        elif is_challenge(self.ruleset):
            # §7: the capped total (花牌 included; 0 for a 役满 hand), the 役满 and the points of the win.
            same("fan_total", self.score.total)
            same("limits", self.score.limits)
            same("points", self.score.points)
        else:
            # The fans are the money in erren and erren-classic: no 役满 and no points.
            same("fan_total", self.score.total_without_flowers)
            same("limits", 0)
            same("points", 0)
        logged = np.asarray(self.log.fans, np.int64)
        if not np.array_equal(fans, logged):
            differ = [f"{Fan(fan).name.lower()}: log {logged[fan]}, twin {fans[fan]}" for fan in np.flatnonzero(fans != logged)]
            self.fail("the fans differ: " + "; ".join(differ), row)


# The rows that witness the deal beside its play (docs/event-logs.md#what-a-log-witnesses).
WITNESS_CODES = (WALL, OUT_OF_PLAY, LAST_TILE, EXTRA_DRAWS, PASS, DECLINE_WIN, WAIT, CHOW_LOWEST, PAY_WIN)


def played(log):
    """The log's play alone, as (code, seat, tile) rows: what the tests' searches for situations read."""
    keep = ~np.isin(log.events[:, 0], WITNESS_CODES)
    return dataclasses.replace(log, events=log.events[keep, :3])


def check_deal(ruleset, log) -> NaiveTable:
    """Replay one deal's log on the naive table; AssertionError at the first thing that is wrong."""
    table = NaiveTable(ruleset, log)
    table.play()
    return table

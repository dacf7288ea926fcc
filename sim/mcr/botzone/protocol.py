"""Botzone's Chinese Standard Mahjong bot protocol, translated to and from the MCR engine's neutral events and
actions, so that a bot written for Botzone (the IJCAI competitions' game) plays in mjsim unchanged.

This module owns the protocol and nothing of the game: tile names (`tile_name`, `tile_kind`), the requests
one seat is sent (`BotzoneTranscript`, fed the table's events), the answers a bot may give to each request
(`BotzoneTranscript.parse_answer`, one `AnswerError` line for anything else), and the conversation in
Botzone's two modes (`BotzoneConversation`): a bot started afresh at each request and given the whole history
("simple interaction"), or one that keeps running and is given each new request as one line. It starts no
process and knows no rules beyond what the protocol checks; the engine decides what is legal, and the seat
that runs the program owns processes and time limits (docs/botzone.md).

The protocol, as Botzone's wiki page "Chinese-Standard-Mahjong" and its judge (github.com/ailab-pku/
Chinese-Standard-Mahjong, judge/main.cpp) define it; docs/botzone.md says what was checked where:

- Players are numbered 0-3 by seat wind: 0 is East and the dealer, and play passes 0, 1, 2, 3. A bot's
  left-hand neighbour (the only seat it may chow from) is the player numbered one below its own.
- Every request goes to all four players at once and each answers one line; most answers must be `PASS`.
- Requests: `0 ME WIND` (turn 1), `1 F0 F1 F2 F3 <13 tiles> <flowers of 0, then 1, 2, 3>` (turn 2; F0-F3 count
  each player's flowers set aside while dealing), `2 TILE` (the bot drew TILE), `3 P DRAW`, `3 P BUHUA FLOWER`,
  `3 P PLAY TILE`, `3 P PENG TILE` and `3 P CHI MIDDLE TILE` (TILE is the tile P discarded after its claim),
  `3 P GANG` (any kong but an added one: the tile of a concealed kong is not shown), `3 P BUGANG TILE`.
- Answers: after `2 TILE`, `PLAY TILE`, `GANG TILE` (concealed), `BUGANG TILE` or `HU`; after another
  player's discard, `PASS`, `HU`, `PENG TILE`, `GANG` or `CHI MIDDLE TILE` (TILE: the discard that follows
  the claim); after another player's `BUGANG`, `PASS` or `HU` (robbing the kong); `PASS` everywhere else.

Seats here are the engine's (0-3, play passing from seat s to s + 1) and tiles are mjsim's kinds
(kernels/tiles.py: 0-8 万, 9-17 筒, 18-26 条, 27-30 东南西北, 31-33 白发中, flowers 34-41). A seat's Botzone
number is its place after the deal's dealer: (seat - dealer) mod 4.
"""

import enum
import operator
import re
from collections import Counter
from typing import NamedTuple

from kernels.tiles import FIRST_FLOWER, HONOR_START, N_FLOWERS, N_KINDS, SUIT_SIZE

SEATS = 4
HAND_SIZE = 13
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"  # a bot's last line of a turn when it keeps running
SHOWN = 60  # characters of a bot's line an error message quotes at most

# Botzone's letters: W 万 (characters), B 饼 = 筒 (dots), T 条 (bamboo); F1-F4 东南西北; J1-J3 中发白; H1-H8 flowers.
SUIT_NAMES = "WBT"
DRAGON_NAMES = {HONOR_START + 4: "J3", HONOR_START + 5: "J2", HONOR_START + 6: "J1"}  # 白 J3, 发 J2, 中 J1
_TILE_NAME = re.compile(r"([WBT][1-9]|F[1-4]|J[1-3]|H[1-8])$")


class BotzoneError(ValueError):
    """An event the protocol cannot express, or a tile name that is not one."""


class AnswerError(BotzoneError):
    """A bot's line that is not a possible answer to its request: one line saying why."""


def _integer(value) -> int | None:
    """`value` as an int (numpy's integers included), or None for anything else, a bool included."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def tile_name(value: int) -> str:
    """Botzone's name of an mjsim tile kind (0-33) or flower (34-41): 0 is W1, 31 (白) is J3, 34 is H1."""
    kind = _integer(value)
    if kind is None or not 0 <= kind < FIRST_FLOWER + N_FLOWERS:
        raise BotzoneError(f"{value!r} is not a tile kind (0-{FIRST_FLOWER + N_FLOWERS - 1})")
    if kind < HONOR_START:
        return f"{SUIT_NAMES[kind // SUIT_SIZE]}{kind % SUIT_SIZE + 1}"
    if kind < HONOR_START + 4:
        return f"F{kind - HONOR_START + 1}"
    if kind < N_KINDS:
        return DRAGON_NAMES[kind]
    return f"H{kind - FIRST_FLOWER + 1}"


_KINDS = {tile_name(kind): kind for kind in range(FIRST_FLOWER + N_FLOWERS)}


def tile_kind(name: str) -> int:
    """The mjsim tile kind of a Botzone tile name (`W1` is 0, `J1` (中) is 33, `H8` is 41)."""
    if not isinstance(name, str) or not _TILE_NAME.match(name):
        raise BotzoneError(f"{_shown(name)} is not a tile name (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3, H1-H8)")
    return _KINDS[name]


def _shown(text) -> str:
    text = str(text)
    return repr(text) if len(text) <= SHOWN else repr(text[:SHOWN]) + "..."


# The table's events, in the engine's seats and tile kinds. The engine feeds every seat's transcript the same
# stream; each shows its bot only what Botzone shows that player.


class Dealt(NamedTuple):
    """The deal: `dealer` is East (Botzone's player 0), `round_wind` 0-3 (东南西北), `hands` every seat's 13
    tiles, `flowers` every seat's flowers (34-41) set aside while dealing, in the order drawn. The dealer's
    fourteenth tile is its first `Drew`."""

    dealer: int
    round_wind: int
    hands: tuple
    flowers: tuple


class Drew(NamedTuple):
    """`seat` drew `tile`, never a flower: its turn's draw or a kong's replacement."""

    seat: int
    tile: int


class ReplacedFlower(NamedTuple):
    """`seat` drew `flower` and set it aside; its replacement is the next `Drew` (or flower) of the seat."""

    seat: int
    flower: int


class Discarded(NamedTuple):
    """`seat` discarded `tile` after drawing."""

    seat: int
    tile: int


class Chowed(NamedTuple):
    """`seat` chowed the last discard into the run around `middle`, then discarded `discard`."""

    seat: int
    middle: int
    discard: int


class Ponged(NamedTuple):
    """`seat` ponged the last discard, then discarded `discard`."""

    seat: int
    discard: int


class Konged(NamedTuple):
    """`seat` made an exposed kong of the last discard; its replacement draw follows."""

    seat: int


class ConcealedKonged(NamedTuple):
    """`seat` made a concealed kong of its four `tile`s (the others are not told which); a draw follows."""

    seat: int
    tile: int


class AddedKonged(NamedTuple):
    """`seat` added `tile` to its pong of it (others may rob it); a draw follows unless someone does."""

    seat: int
    tile: int


class Won(NamedTuple):
    """`seat` won; the deal is over and Botzone sends nothing more."""

    seat: int


EVENTS = (Dealt, Drew, ReplacedFlower, Discarded, Chowed, Ponged, Konged, ConcealedKonged, AddedKonged, Won)


# What a bot's answer means, in mjsim's tile kinds. A claim carries the discard that follows it, as Botzone's
# answer does: the engine plays it at the seat's next decision without asking the bot again.


class Pass(NamedTuple):
    """No claim (and, where nothing else is allowed, the acknowledgement every request wants)."""


class Discard(NamedTuple):
    tile: int


class Chow(NamedTuple):
    """Chow the discard into the run around `middle`, then discard `discard`."""

    middle: int
    discard: int


class Pong(NamedTuple):
    """Pong the discard, then discard `discard`."""

    discard: int


class Kong(NamedTuple):
    """An exposed kong of another player's discard."""


class ConcealedKong(NamedTuple):
    tile: int


class AddedKong(NamedTuple):
    tile: int


class Win(NamedTuple):
    """Declare a win: on the tile drawn, another's discard, or a kong being added (robbing it)."""


ACTIONS = (Pass, Discard, Chow, Pong, Kong, ConcealedKong, AddedKong, Win)


class Window(enum.Enum):
    """Which answers a request allows (the judge's checks, by the kind of request)."""

    PASS_ONLY = "PASS"
    OWN_DRAW = "PLAY, GANG, BUGANG or HU"
    CLAIM = "PASS, HU, PENG, GANG or CHI"
    ROB_KONG = "PASS or HU"


class Request(NamedTuple):
    """One request as one seat receives it: its line, the answers it allows, the tile a claim would take
    (`offered`, else -1), whether the seat may chow it, and the seat's concealed tiles (34 counts) and
    pongs when it was sent, against which an answer is checked."""

    line: str
    window: Window
    offered: int
    may_chow: bool
    hand: tuple
    pongs: frozenset


class BotzoneTranscript:
    """The requests one seat's bot is sent over one deal, built from the table's events (`feed`), and the
    reading of its answer to any of them (`parse_answer`). It keeps the seat's concealed tiles and pongs, so
    that an answer naming a tile the seat cannot play is refused here, with the reason."""

    def __init__(self, seat: int):
        self.seat = _seat(seat)
        self.requests: list[Request] = []
        self.dealer = -1
        self.over = False
        self._hand = Counter()
        self._pongs: set[int] = set()
        self._offered = (-1, -1)  # (seat, tile) of the discard that may be claimed, else (-1, -1)

    @property
    def lines(self) -> list[str]:
        return [request.line for request in self.requests]

    def player(self, seat: int) -> int:
        """Botzone's number of an engine seat in this deal."""
        return (seat - self.dealer) % SEATS

    def feed(self, event) -> None:
        """Add the requests `event` makes for this seat (two for the deal, none for a win, else one)."""
        if self.over:
            raise BotzoneError(f"{type(event).__name__} after the deal was won: Botzone sends nothing more")
        if not isinstance(event, EVENTS):
            raise BotzoneError(f"{event!r} is not an event of sim.mcr.botzone.protocol")
        if isinstance(event, Dealt):
            self._deal(event)
            return
        if self.dealer < 0:
            raise BotzoneError(f"{type(event).__name__} before the deal")
        seat = _seat(event.seat)
        player, mine = self.player(seat), seat == self.seat
        offered_by, offered = self._offered
        self._offered = (-1, -1)
        if isinstance(event, Drew):
            tile = _tile(event.tile)
            if mine:
                self._hand[tile] += 1
                self._add(f"2 {tile_name(tile)}", Window.OWN_DRAW)
            else:
                self._add(f"3 {player} DRAW", Window.PASS_ONLY)
        elif isinstance(event, ReplacedFlower):
            self._add(f"3 {player} BUHUA {tile_name(_flower(event.flower))}", Window.PASS_ONLY)
        elif isinstance(event, Discarded):
            tile = _tile(event.tile)
            if mine:
                self._take(tile)
            self._offer(seat, tile, f"3 {player} PLAY {tile_name(tile)}")
        elif isinstance(event, (Chowed, Ponged, Konged)):
            self._claim(event, seat, offered_by, offered)
        elif isinstance(event, ConcealedKonged):
            tile = _tile(event.tile)
            if mine:
                self._take(tile, 4)
            self._add(f"3 {player} GANG", Window.PASS_ONLY)
        elif isinstance(event, AddedKonged):
            tile = _tile(event.tile)
            if mine:
                if tile not in self._pongs:
                    raise BotzoneError(f"seat {seat} adds {tile_name(tile)} to a pong it does not have")
                self._take(tile)
                self._pongs.discard(tile)
            self._add(f"3 {player} BUGANG {tile_name(tile)}", Window.PASS_ONLY if mine else Window.ROB_KONG,
                      offered=tile)
        else:  # Won
            self.over = True

    def _deal(self, event: Dealt) -> None:
        if self.dealer >= 0:
            raise BotzoneError("a second deal in one transcript: a transcript is one deal")
        self.dealer = _seat(event.dealer)
        round_wind = _integer(event.round_wind)
        if round_wind is None or not 0 <= round_wind < SEATS:
            raise BotzoneError(f"round wind {event.round_wind!r} is not 0-3 (东南西北)")
        if len(event.hands) != SEATS or len(event.flowers) != SEATS:
            raise BotzoneError(f"a deal needs the hands and flowers of {SEATS} seats")
        hand = [_tile(tile) for tile in event.hands[self.seat]]
        if len(hand) != HAND_SIZE:
            raise BotzoneError(f"seat {self.seat} is dealt {len(hand)} tiles, not {HAND_SIZE}")
        self._hand = Counter(hand)
        by_player = [[_flower(flower) for flower in event.flowers[(self.dealer + player) % SEATS]]
                     for player in range(SEATS)]
        self._add(f"0 {self.player(self.seat)} {round_wind}", Window.PASS_ONLY)
        words = ["1", *(str(len(flowers)) for flowers in by_player), *(tile_name(tile) for tile in hand),
                 *(tile_name(flower) for flowers in by_player for flower in flowers)]
        self._add(" ".join(words), Window.PASS_ONLY)

    def _claim(self, event, seat: int, offered_by: int, offered: int) -> None:
        """A chow, pong or exposed kong of the discard just offered."""
        name = type(event).__name__
        if offered < 0 or offered_by == seat:
            raise BotzoneError(f"seat {seat}: {name} with no discard of another seat to claim")
        if isinstance(event, Chowed) and (seat - offered_by) % SEATS != 1:
            raise BotzoneError(f"seat {seat} chows from seat {offered_by}, not its left-hand neighbour")
        player, mine = self.player(seat), seat == self.seat
        if isinstance(event, Konged):
            if mine:
                self._take(offered, 3)
            self._add(f"3 {player} GANG", Window.PASS_ONLY)
            return
        discard = _tile(event.discard)
        if isinstance(event, Ponged):
            if mine:
                self._take(offered, 2)
                self._pongs.add(offered)
                self._take(discard)
            self._offer(seat, discard, f"3 {player} PENG {tile_name(discard)}")
            return
        run = _run(_tile(event.middle), offered)
        if run is None:
            raise BotzoneError(f"seat {seat} chows {tile_name(offered)} into no run around "
                               f"{tile_name(event.middle)}")
        if mine:
            self._hand[offered] += 1
            for tile in run:
                self._take(tile)
            self._take(discard)
        self._offer(seat, discard, f"3 {player} CHI {tile_name(event.middle)} {tile_name(discard)}")

    def _offer(self, seat: int, tile: int, line: str) -> None:
        """A discard every other seat may claim; the seat on the discarder's right may also chow it."""
        self._offered = (seat, tile)
        if seat == self.seat:
            self._add(line, Window.PASS_ONLY)
        else:
            self._add(line, Window.CLAIM, offered=tile, may_chow=(self.seat - seat) % SEATS == 1)

    def _take(self, tile: int, copies: int = 1) -> None:
        if self._hand[tile] < copies:
            raise BotzoneError(f"seat {self.seat} gives up {copies} {tile_name(tile)} but holds "
                               f"{self._hand[tile]}")
        self._hand[tile] -= copies

    def _add(self, line: str, window: Window, offered: int = -1, may_chow: bool = False) -> None:
        hand = tuple(self._hand[kind] for kind in range(N_KINDS))
        self.requests.append(Request(line, window, offered, may_chow, hand, frozenset(self._pongs)))

    def parse_answer(self, line: str, index: int = -1):
        """The action a bot's `line` answers request `index` (the latest by default) with; AnswerError, one
        line, if it is not an answer that request allows, or names tiles the seat does not hold. Words are
        separated by any run of spaces; a line end (`\\n`, `\\r\\n`) is not part of the answer."""
        request = self.requests[index]
        if not isinstance(line, str):
            raise AnswerError(f"answered {_shown(line)}, not a line of text")
        words = line.split()
        why = _refusal(words, request)
        if isinstance(why, str):
            raise AnswerError(f"answered {_shown(line.strip())} to {request.line!r}: {why}")
        return why


def _seat(value) -> int:
    seat = _integer(value)
    if seat is None or not 0 <= seat < SEATS:
        raise BotzoneError(f"seat {value!r} is not 0-{SEATS - 1}")
    return seat


def _tile(value) -> int:
    kind = _integer(value)
    if kind is None or not 0 <= kind < N_KINDS:
        raise BotzoneError(f"{value!r} is not a tile kind of play (0-{N_KINDS - 1})")
    return kind


def _flower(value) -> int:
    kind = _integer(value)
    if kind is None or not FIRST_FLOWER <= kind < FIRST_FLOWER + N_FLOWERS:
        raise BotzoneError(f"{value!r} is not a flower ({FIRST_FLOWER}-{FIRST_FLOWER + N_FLOWERS - 1})")
    return kind


def _run(middle: int, offered: int):
    """The three tiles of the run around `middle` if it is a suited 2-8 run holding `offered`, else None."""
    if middle >= HONOR_START or offered >= HONOR_START or middle // SUIT_SIZE != offered // SUIT_SIZE:
        return None
    if not 1 <= middle % SUIT_SIZE <= SUIT_SIZE - 2 or abs(middle - offered) > 1:
        return None
    return (middle - 1, middle, middle + 1)


def _named(word: str):
    """A tile of play named by `word`, or the reason it is not one."""
    try:
        kind = tile_kind(word)
    except BotzoneError as error:
        return str(error)
    return kind if kind < N_KINDS else f"{word} is a flower, never played"


def _refusal(words: list[str], request: Request):
    """The action the words answer `request` with, or the reason (a str) they do not."""
    if not words:
        return "an empty line"
    verb, window, hand = words[0], request.window, request.hand
    allowed = {
        Window.PASS_ONLY: {"PASS": 1},
        Window.OWN_DRAW: {"PLAY": 2, "GANG": 2, "BUGANG": 2, "HU": 1},
        Window.CLAIM: {"PASS": 1, "HU": 1, "PENG": 2, "GANG": 1, "CHI": 3},
        Window.ROB_KONG: {"PASS": 1, "HU": 1},
    }[window]
    if verb not in allowed:
        return f"{verb} is not an answer here (allowed: {window.value})"
    if len(words) != allowed[verb]:
        return f"{verb} takes {allowed[verb] - 1} tile{'s' if allowed[verb] != 2 else ''} here, not {len(words) - 1}"
    if verb == "PASS":
        return Pass()
    if verb == "HU":
        return Win()
    tiles = [_named(word) for word in words[1:]]
    for tile in tiles:
        if isinstance(tile, str):
            return tile
    held = Counter({kind: count for kind, count in enumerate(hand) if count})
    if window is Window.OWN_DRAW:
        tile = tiles[0]
        if verb == "PLAY":
            return Discard(tile) if held[tile] else f"the seat holds no {words[1]}"
        if verb == "GANG":
            return ConcealedKong(tile) if held[tile] == 4 else f"a kong needs 4 {words[1]}; the seat holds {held[tile]}"
        if tile not in request.pongs:
            return f"the seat has no pong of {words[1]} to add to"
        return AddedKong(tile) if held[tile] else f"the seat holds no {words[1]} to add"
    offered = request.offered
    if verb == "GANG":
        return Kong() if held[offered] == 3 else f"a kong needs 3 {tile_name(offered)}; the seat holds {held[offered]}"
    if verb == "PENG":
        if held[offered] < 2:
            return f"a pong needs 2 {tile_name(offered)}; the seat holds {held[offered]}"
        held[offered] -= 2
        return Pong(tiles[0]) if held[tiles[0]] else f"after the pong the seat holds no {words[1]}"
    middle, discard = tiles
    if not request.may_chow:
        return "only the player after the discarder may chow"
    run = _run(middle, offered)
    if run is None:
        return f"{words[1]} is not the middle of a run holding {tile_name(offered)}"
    held[offered] += 1
    for tile in run:
        if not held[tile]:
            return f"the seat holds no {tile_name(tile)} for the run"
        held[tile] -= 1
    return Chow(middle, discard) if held[discard] else f"after the chow the seat holds no {words[2]}"


# The two modes. A bot is first started at turn 1 with that turn's input, as Botzone does. If its output ends
# with the KEEP_RUNNING line it keeps running and is then given each new request as one line; otherwise it has
# exited, and each later turn starts it afresh with the whole history ("simple interaction").


class BotOutput(NamedTuple):
    """What a bot wrote for one turn: its answer (the first line), then optional debug, data and global data
    lines, and whether it ended with the KEEP_RUNNING line."""

    response: str
    debug: str
    data: str
    globaldata: str
    keep_running: bool


def ends_turn(line: str) -> bool:
    """Whether a line of a running bot's output is the KEEP_RUNNING line, the end of its turn's output (a
    bot that exits ends its turn's output by exiting)."""
    return line.rstrip("\r\n") == KEEP_RUNNING


def read_output(text: str) -> BotOutput:
    """A turn's output, as written up to the KEEP_RUNNING line or the bot's exit."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    keep_running = KEEP_RUNNING in lines
    if keep_running:
        lines = lines[: lines.index(KEEP_RUNNING)]
    while lines and lines[-1] == "":
        lines.pop()
    padded = lines + [""] * (3 - len(lines))
    return BotOutput(padded[0], padded[1], padded[2], "\n".join(lines[3:]), keep_running)


def restart_input(requests: list[str], responses: list[str], data: str = "", globaldata: str = "") -> str:
    """A bot's input when started afresh: the turn number n, the n - 1 earlier requests each followed by its
    answer, the new request, then the data the bot saved last turn and its global data, where there are any."""
    if len(responses) != len(requests) - 1:
        raise BotzoneError(f"{len(requests)} requests need {len(requests) - 1} answers, not {len(responses)}")
    lines = [str(len(requests))]
    for request, response in zip(requests, responses, strict=False):
        lines += [request, response]
    lines.append(requests[-1])
    lines += [text for text in (data, globaldata) if text]
    return "\n".join(lines) + "\n"


def keep_running_input(request: str) -> str:
    """A running bot's input for one turn: the new request alone."""
    return request + "\n"


class Step(NamedTuple):
    """What to do next: write `text` to the bot, to a program started afresh if `new_process`."""

    text: str
    new_process: bool


class BotzoneConversation:
    """One seat's conversation with its bot over one deal, in whichever mode the bot chooses.

    The engine feeds `transcript` the table's events; when the seat has a choice at the latest request, its
    driver repeats ``step = conversation.next_step()``, writing ``step.text`` to the bot (a fresh process when
    ``step.new_process``) and handing what it wrote up to the KEEP_RUNNING line or its exit to
    ``take_output``, until `next_step` is None; `action()` then reads the answer. Requests the seat is not asked
    about are delivered lazily: a running bot gets each in turn and must answer one the request allows (`PASS`
    where only that is), which nobody acts on, as Botzone's judge ignores a claim another claim beat; a bot
    started afresh is not started for them, and its history shows `PASS` there (the one answer the judge
    accepts where the seat has no choice), or the move the table made for it (``played_for_it``).
    """

    def __init__(self, transcript: BotzoneTranscript, globaldata: str = ""):
        self.transcript = transcript
        self.responses: list[str] = []
        self.played: dict[int, str] = {}  # request index -> the move the table made for the seat without asking it
        self.data = ""
        self.globaldata = globaldata  # kept across deals by the seat, as Botzone keeps it across games
        self.keep_running = False
        self.started = False

    def next_step(self) -> Step | None:
        """The next input to write so that the latest request is answered, or None when it is."""
        requests = self.transcript.lines
        answered = len(self.responses)
        if answered >= len(requests):
            return None
        if not self.started:
            return Step(restart_input(requests[:1], [], "", self.globaldata), True)
        if self.keep_running:
            return Step(keep_running_input(requests[answered]), False)
        self.responses += [self.played.get(index, "PASS") for index in range(answered, len(requests) - 1)]
        return Step(restart_input(requests, self.responses, self.data, self.globaldata), True)

    def take_output(self, text: str) -> BotOutput:
        """Record what the bot wrote for the request being answered; AnswerError if it answered anything but
        PASS to a request before the latest (the seat has no choice there)."""
        output = read_output(text)
        self.started = True
        self.keep_running = output.keep_running
        index = len(self.responses)
        self.responses.append(output.response)
        self.data = output.data
        if output.globaldata:
            self.globaldata = output.globaldata
        if index < len(self.transcript.requests) - 1:
            self.transcript.parse_answer(output.response, index)  # one the request allows, though nobody acts on it
        return output

    def played_for_it(self, line: str) -> None:
        """The table made the move `line` (`PLAY W1`) for the seat at the latest request without asking its
        bot (the seat had one legal action): a bot started afresh later sees it as its answer there."""
        self.played[len(self.transcript.requests) - 1] = line

    def action(self):
        """The action of the bot's answer to the latest request (AnswerError if it is not one)."""
        if len(self.responses) != len(self.transcript.requests):
            raise BotzoneError("the latest request has not been answered yet")
        return self.transcript.parse_answer(self.responses[-1])

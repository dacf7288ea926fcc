"""The seat that runs a Botzone bot at the MCR table: ``BotzoneSeat``, chosen by the player text
``botzone:COMMAND`` (docs/botzone.md).

The engine tells the seat every event of the deal as it happens (``follow``: the protocol's neutral events,
which ``sim.mcr.engine`` reads off the deal's event log), and asks it at each of its decisions with a choice
(``decide``). The seat feeds the events to its ``protocol.BotzoneTranscript``, runs the program through a
``protocol.BotzoneConversation`` (started afresh at each request it must answer, or kept running, as the bot
chooses), and turns the bot's answer into one of the legal actions the engine offers. A pong or chow answer
names the discard that follows it, as Botzone's does; the seat plays it at its next turn without asking again.

A bot is held to what an ``exec:`` program is held to (docs/write-a-player.md#any-language): the time limit
``MJSIM_EXEC_TIMEOUT`` counted from writing a request (a fresh process's start included), and for a late
answer, a line its request does not allow, a move the engine does not offer, its exit while kept running, or
output nobody asked for, the seat plays the engine's safe default for the rest of the deal, the deal's record
says so, and one line on standard error names the bot, the deal, the seat and the request. A bot kept running
plays one deal (one Botzone game) and is ended when the next begins; its global data is kept from deal to
deal, as Botzone keeps it from game to game.
"""

import os
import select
import shlex
import shutil
import subprocess
import sys
import time
import weakref

from sim.core import worker_processes
from sim.core.actions import ADDED_KONG, CHOW, CONCEALED_KONG, DISCARD, KONG, NO_TILE, PASS, PONG, WIN, encode
from sim.core.waiting_limits import seconds_from_environment
from sim.mcr.botzone import protocol
from sim.players.player_text import PlayerError
from sim.players.user_players import (  # the process handling an exec: seat uses, shared as it is
    ACTIONS,
    DEFAULT_EXEC_TIMEOUT,
    EXEC_TIMEOUT_VARIABLE,
    FAULTS_REPORTED,
    UserSeat,
    _end_process,
    _has_exited,
    where,
)

PREFIX = "botzone:"
MAX_OUTPUT_BYTES = 1_000_000  # a bot's output for one turn, at most (its answer, debug, data and global data)

# What the table made a seat do without asking it, as the seat's answer reads in Botzone's history.
_MOVE_WORDS = {protocol.Discarded: "PLAY", protocol.ConcealedKonged: "GANG", protocol.AddedKonged: "BUGANG"}


def command_of(text: str) -> list[str]:
    """The command of ``botzone:COMMAND``, split as a shell would (as ``exec:`` splits its own); PlayerError if it
    cannot be, is empty, or names no program."""
    try:
        command = shlex.split(text.strip()[len(PREFIX):])
    except ValueError as error:
        raise PlayerError(f"{text}: the command cannot be read ({error})") from None
    if not command:
        raise PlayerError(f"{text.strip()}: botzone: needs a command")
    if shutil.which(command[0]) is None:
        raise PlayerError(f"{text.strip()}: no program {command[0]!r}")
    return command


class _Late(Exception):
    """The bot did not answer within the time limit."""


class _Gone(Exception):
    """The bot's output ended (it exited) before the end of a turn it was kept running for."""


class BotzoneSeat(UserSeat):
    """A Botzone bot in one MCR seat."""

    kind = "botzone"
    check = staticmethod(command_of)  # what can be checked before the seat plays: the command names a program

    def __init__(self, text: str):
        super().__init__(text.strip())
        self.command = command_of(text)
        self.timeout = seconds_from_environment(EXEC_TIMEOUT_VARIABLE, DEFAULT_EXEC_TIMEOUT, PlayerError)
        self.globaldata = ""  # the bot's global data, kept from deal to deal
        self.process = None  # the bot kept running, if it keeps running
        self.reported = 0
        self.deal = -1
        self.faulted_deal = None
        self.conversation = None
        self.claimed_discard = None  # the discard the bot named with its pong or chow, played at its next turn
        self._buffer = b""  # what a bot kept running has written beyond its last turn

    # ------------------------------------------------------------------ the deal, as the table tells it

    def begin_deal(self, seat: int, ruleset, seed: int, deal: int):
        self._end()
        self.deal, self.faulted_deal, self.claimed_discard = deal, None, None
        self.conversation = protocol.BotzoneConversation(protocol.BotzoneTranscript(seat), self.globaldata)

    def follow(self, events, untold: str | None = None) -> None:
        """The deal's events since the last call (the protocol's neutral events), in order; `untold`: why the
        deal has gone where the protocol cannot follow it. An event the protocol cannot express leaves the seat
        to the safe default for the rest of the deal."""
        if self.faulted_deal == self.deal:
            return
        transcript = self.conversation.transcript
        if untold is not None:
            events = [*events, untold]
        for event in events:
            if isinstance(event, str):
                self._fault(transcript.seat, None, f"cannot be told the deal in Botzone's protocol ({event})")
                return
            own_turn_unasked = (transcript.requests and transcript.requests[-1].window is protocol.Window.OWN_DRAW
                                and len(self.conversation.responses) < len(transcript.requests))
            if own_turn_unasked and getattr(event, "seat", -1) == transcript.seat:
                word = _MOVE_WORDS.get(type(event))
                played = "HU" if isinstance(event, protocol.Won) else f"{word} {protocol.tile_name(event.tile)}"
                if word is not None or isinstance(event, protocol.Won):
                    self.conversation.played_for_it(played)
            try:
                transcript.feed(event)
            except protocol.BotzoneError as error:
                self._fault(transcript.seat, None, f"cannot be told the deal in Botzone's protocol ({error})")
                return

    # ------------------------------------------------------------------ a decision

    def decide(self, observation) -> int:
        """The action code of the bot's answer, or -1: the engine plays the safe default."""
        deal, seat, decision = observation.deal, observation.seat, observation.decision
        if self.faulted_deal == deal:
            return -1
        legal = observation.legal_codes
        if decision == "turn" and observation.drawn is None:  # after the seat's pong or chow
            discard, self.claimed_discard = self.claimed_discard, None
            code = encode(DISCARD, discard) if discard is not None else -1
            if code in legal:
                return code
            named = "no discard" if discard is None else f"the discard {protocol.tile_name(discard)}"
            return self._fault(seat, decision, f"named {named} with its claim, not a legal action,", legal)
        self.claimed_discard = None
        transcript = self.conversation.transcript
        request = transcript.requests[-1] if transcript.requests else None
        expected = {"turn": protocol.Window.OWN_DRAW, "claim": protocol.Window.CLAIM, "rob": protocol.Window.ROB_KONG}
        if request is None or request.window is not expected.get(decision):
            return self._fault(seat, decision, f"was asked to {decision} where Botzone's protocol asks nothing")
        try:
            self._converse()
            answer = self.conversation.action()
        except protocol.AnswerError as error:
            return self._fault(seat, decision, f"{error}", out_of_step=self.process is not None)
        except _Late:
            return self._fault(seat, decision, f"did not answer {request.line!r} within {self.timeout:g} s",
                               out_of_step=True)
        except _Gone:
            return self._fault(seat, decision, f"exited before answering {request.line!r}", out_of_step=True)
        code = self._action_code(answer, request)
        if code in legal:
            return code
        return self._fault(seat, decision, f"answered {self.conversation.responses[-1].strip()!r} to "
                                           f"{request.line!r}, not a legal action,", legal)

    def _action_code(self, answer, request) -> int:
        """The engine's action code of a protocol answer (a pong or chow keeps its discard for the next turn)."""
        if isinstance(answer, protocol.Pass):
            return encode(PASS, NO_TILE)
        if isinstance(answer, protocol.Win):
            return encode(WIN, NO_TILE)
        if isinstance(answer, protocol.Discard):
            return encode(DISCARD, answer.tile)
        if isinstance(answer, protocol.ConcealedKong):
            return encode(CONCEALED_KONG, answer.tile)
        if isinstance(answer, protocol.AddedKong):
            return encode(ADDED_KONG, answer.tile)
        if isinstance(answer, protocol.Kong):
            return encode(KONG, request.offered)
        self.claimed_discard = answer.discard
        if isinstance(answer, protocol.Pong):
            return encode(PONG, request.offered)
        return encode(CHOW, answer.middle - 1)  # a chow is named by its lowest kind

    # ------------------------------------------------------------------ the program

    def _converse(self) -> None:
        """Write the bot what it needs to answer the latest request and read its answers, each within the time
        limit; _Late, _Gone or AnswerError if it fails."""
        conversation = self.conversation
        while (step := conversation.next_step()) is not None:
            if step.new_process:
                self._end()
                self._start()
            elif self._unsolicited():
                raise protocol.AnswerError("wrote output it was not asked for")
            deadline = time.monotonic() + self.timeout
            self._write(step.text, deadline)
            output = conversation.take_output(self._read_turn(deadline))
            if output.globaldata:
                self.globaldata = output.globaldata
            if not output.keep_running:
                self._end()

    def _start(self):
        try:
            # a process group of its own: Ctrl-C at the terminal is mjsim's, and the bot's children end with it
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                                            process_group=0)
        except OSError as error:
            raise PlayerError(f"{self.text}: cannot start {self.command[0]}: {error.strerror or error}") from None
        worker_processes.note_program_group(self.process.pid)
        weakref.finalize(self, _end_process, self.process)  # no bot outlives its seat
        self._buffer = b""

    def _write(self, text: str, deadline: float) -> None:
        data = text.encode()
        descriptor = self.process.stdin.fileno()
        try:
            while data:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [descriptor], [], left)[1]:
                    raise _Late
                data = data[os.write(descriptor, data[:select.PIPE_BUF]):]
        except OSError:  # BrokenPipeError: the bot has exited
            raise _Gone from None

    def _read_turn(self, deadline: float) -> str:
        """What the bot writes for one turn: up to its keep-running line, or all it writes before it exits."""
        stdout = self.process.stdout
        while True:
            lines = self._buffer.split(b"\n")
            for index, line in enumerate(lines[:-1]):
                if protocol.ends_turn(line.decode("utf-8", "replace")):
                    self._buffer = b"\n".join(lines[index + 1:])
                    return b"\n".join(lines[: index + 1]).decode("utf-8", "replace")
            if len(self._buffer) > MAX_OUTPUT_BYTES:
                raise protocol.AnswerError(f"wrote more than {MAX_OUTPUT_BYTES:,} bytes for one turn")
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([stdout], [], [], left)[0]:
                raise _Late
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:  # it exited: a bot started afresh ends its turn so
                text, self._buffer = self._buffer.decode("utf-8", "replace"), b""
                if not text.strip():
                    raise _Gone
                return text
            self._buffer += chunk

    def _unsolicited(self) -> bool:
        """Whether a bot kept running has written something before it was sent the next request."""
        if self._buffer:
            return True
        try:
            return bool(select.select([self.process.stdout], [], [], 0)[0]) and not _has_exited(self.process)
        except (OSError, ValueError):
            return False

    def _end(self, at_once: bool = False) -> None:
        if self.process is not None:
            _end_process(self.process, at_once)
            self.process = None

    def _fault(self, seat: int, decision: str | None, why: str, legal=None, out_of_step: bool = False) -> int:
        """Report the fault once; the seat plays the safe default for the rest of the deal. A bot whose
        conversation is in doubt is ended."""
        if out_of_step:
            self._end(at_once=True)
        self.faulted_deal = self.deal
        if legal is not None:
            why += f" (legal: {', '.join(ACTIONS[code].text for code in legal)})"
        if self.reported < FAULTS_REPORTED:
            place = where(self.deal, seat, decision) if decision else f"at deal {self.deal}, seat {seat}"
            print(f"mjsim: player {self.text} {why} {place}; its seat plays the safe "
                  "default for the rest of the deal", file=sys.stderr)
        elif self.reported == FAULTS_REPORTED:
            print(f"mjsim: player {self.text}: further faults are not reported", file=sys.stderr)
        self.reported += 1
        return -1

    def close(self):
        self._end()

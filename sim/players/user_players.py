"""Players that users bring, seated by text like the built-in ones (docs/write-a-player.md).

- ``PATH.py:Class`` or ``package.module:Class``, optionally followed by ``:key=value,...``: a Python class,
  built once per process with those keyword arguments. Each deal it may be told ``reset(seat, ruleset,
  rng)``, ``rng`` a ``numpy.random.Generator`` drawn from (seed, seat, deal); at each decision with a
  choice it gets ``act(observation)`` and returns one of ``observation.legal_actions``.
- ``exec:COMMAND``: a program in any language, started once per process, that reads one JSON request per
  line on stdin and answers each ``decide`` request with one JSON line on stdout.

This module holds what every family shares: the ``Action`` a player answers with, how a text names a user
player, loading it, and the two ways of asking it (``PythonSeat``, ``ExecSeat``). What a player observes is
the family's ``observation`` module.

A Python player that raises (anything: ``SystemExit`` and ``KeyboardInterrupt`` included), or answers with
something that is not a legal action, stops the run with a ``PlayerFailure`` naming the player, the deal
and the decision: it is a bug in the player. Every call into a player's code goes through ``_guarded``, so
no way out of it escapes as anything else. The engine checks every answer against its own legal actions,
whatever the player did to its observation. An external program is held to a looser policy, because it
may be anything: a malformed, illegal, late or unsolicited reply, or the program's death, makes its seat
play the engine's safe default for the rest of the deal, marks the deal's record (``violation`` = player
fault, ``faulted_<seat>`` = 1), and reports the fault on stderr once per deal. The program runs in a
process group of its own (Ctrl-C at the terminal is mjsim's, not the program's), killed whole when its
seat is done with it: after a fault that leaves it out of step, when it is replaced, and at the end.

Users' players are loaded and played only in worker processes (``sim.core.worker_processes``, ``sim.players.player_host``),
never in the process of the command, so that a player that ends its process, crashes or loops is reported
and stopped like any other fault.
"""

import importlib
import importlib.util
import json
import operator
import os
import re
import select
import shlex
import shutil
import subprocess
import sys
import time
import weakref
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba.core.registry import CPUDispatcher

from kernels.tiles import HONOR_START, N_KINDS, SUIT_STARTS
from sim.core import worker_processes
from sim.core.actions import (
    ACTION_BASE,
    ACTION_WORDS,
    CHOW,
    DECISION_NAMES,
    DECLARE_READY,
    DOUBLE,
    N_ACTIONS,
    NO_TILE,
    PASS,
    VOID,
    WIN,
    action_text,
)
from sim.core.batch_text import BatchLineError, parse_line
from sim.core.waiting_limits import seconds_from_environment
from sim.core.win_chances import chance_of
from sim.players.numba_players import MAX_NUMBA_PARAMETERS, NumbaPlayer, is_numba_player
from sim.players.player_text import PlayerError

EXEC_PREFIX = "exec:"
EXEC_TIMEOUT_VARIABLE = "MJSIM_EXEC_TIMEOUT"  # seconds an external program may take to answer (default 10)
DEFAULT_EXEC_TIMEOUT = 10.0
FAULTS_REPORTED = 20  # an external program's faults reported on stderr in one process, at most
MAX_REPLY_BYTES = 10_000  # an external program's reply line, at most (the batch reader's limit)
MAX_ERROR_TEXT = 300  # characters of a player's exception message repeated in a failure

TILELESS = (WIN, DOUBLE, PASS, DECLARE_READY)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


class Action(NamedTuple):
    """A legal action: its stable integer code (``sim.core.actions``) and how it reads (``discard 3m``)."""

    code: int
    text: str

    def __str__(self):
        return self.text


def _all_actions() -> dict[int, Action]:
    """Every action a player can be offered: a tile action on each kind (a chow on each kind that starts
    one, a void on each suit), and win, 加倍, pass and declaring ready without a tile."""
    actions = {}
    for code in range(len(ACTION_WORDS)):
        if code in TILELESS:
            tiles = [NO_TILE]
        elif code == VOID:  # a suit, named by its first kind
            tiles = list(SUIT_STARTS)
        else:
            tiles = [tile for tile in range(N_KINDS) if code != CHOW or _starts_chow(tile)]
        for tile in tiles:
            action = code * ACTION_BASE + tile
            actions[action] = Action(action, action_text(action))
    return actions


def _starts_chow(kind: int) -> bool:
    return kind < HONOR_START and kind % 9 <= 6


ACTIONS: dict[int, Action] = _all_actions()  # built once: a decision's legal list is then a lookup


class PlayerFailure(PlayerError):
    """A user player failed: it raised, answered illegally, or could not be started. The message names the
    player, the deal and the decision."""


def error_text(error: BaseException) -> str:
    """`ValueError: the message`, for any exception, even one whose ``__str__`` raises or runs long."""
    try:
        message = str(error)
    except BaseException:  # noqa: BLE001  (a player's exception may be anything)
        message = "(its message could not be read)"
    if len(message) > MAX_ERROR_TEXT:
        message = message[:MAX_ERROR_TEXT] + "..."
    name = type(error).__name__
    return f"{name}: {message}" if message else name


def _guarded(failure, call, *arguments, **keywords):
    """call(*arguments, **keywords), a user player's code. Any way out of it but a return becomes one
    PlayerFailure, its message failure(text of the exception). KeyboardInterrupt stays Ctrl-C, except in a
    worker process, where Ctrl-C never arrives (the parent handles it) and one can only come from the player."""
    try:
        return call(*arguments, **keywords)
    except KeyboardInterrupt:
        if not worker_processes.in_worker():
            raise
        raise PlayerFailure(failure("KeyboardInterrupt")) from None
    except BaseException as error:  # noqa: BLE001  (SystemExit, GeneratorExit, ... are the player's failures too)
        raise PlayerFailure(failure(error_text(error))) from None


def is_user_player(text: str, builtin_names) -> bool:
    """`exec:...`, `PATH.py:Class...` or `module.path:Class...`; a built-in heuristic otherwise."""
    text = text.strip()
    if text.startswith(EXEC_PREFIX):
        return True
    name, _, rest = text.partition(":")
    if name.strip() in builtin_names:
        return False
    return bool(rest) and bool(_IDENTIFIER.match(rest.partition(":")[0].strip()))


def family_seat(text: str, heuristics):
    """The seat class a family offers for a kind of player of its own, chosen by the player text's prefix (its
    players module's ``USER_SEATS``: prefix -> a ``UserSeat`` class built from the text, whose ``check(text)``
    checks what can be checked without running it), or None. The shared layer names no such kind."""
    text = text.strip()
    for prefix, seat_class in getattr(heuristics, "USER_SEATS", {}).items():
        if text.startswith(prefix):
            return seat_class
    return None


def user_player_label(text: str) -> str:
    """A short name for file names: `exec`, or the class name with its parameters (`Coin-win0.9`)."""
    text = text.strip()
    if text.startswith(EXEC_PREFIX):
        return "exec"
    _, _, rest = text.partition(":")
    name, _, parameters = rest.partition(":")
    label = name.strip() + ("-" + parameters.replace("=", "").replace(",", "-") if parameters.strip() else "")
    return re.sub(r"[^\w.-]", "_", label)


def _parameter_value(text: str):
    text = text.strip()
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def _parameters(text: str, player: str) -> dict:
    parameters = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not _IDENTIFIER.match(key.strip()):
            raise PlayerError(f"{player}: a parameter is written key=value, not {item!r}")
        parameters[key.strip()] = _parameter_value(value)
    return parameters


def _require_file(path_text: str, player: str) -> Path:
    """The resolved path of a player's file, or a PlayerError: missing, or not a regular file (a directory,
    a pipe or a device, which importing would read for ever)."""
    path = Path(path_text).expanduser()
    if not path.exists():
        raise PlayerError(f"{player}: no file {path_text}")
    if not path.is_file():
        raise PlayerError(f"{player}: {path_text} is not a regular file")
    return path.resolve()


def _module_from_path(path_text: str, player: str):
    path = _require_file(path_text, player)
    name = "mjsim_player_" + re.sub(r"\W", "_", str(path))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise PlayerError(f"{player}: {path_text} cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        _guarded(lambda error: f"{player}: {path_text} failed to load: {error}", spec.loader.exec_module, module)
    except PlayerFailure:
        del sys.modules[name]
        raise
    return module


def _load_target(text: str):
    """The object `PATH.py:Name` or `module:Name` names, and the constructor parameters after it."""
    location, _, rest = text.partition(":")
    attribute, _, parameter_text = rest.partition(":")
    attribute = attribute.strip()
    if location.strip().endswith(".py"):
        module = _module_from_path(location.strip(), text)
    else:
        module = _guarded(lambda error: f"{text}: cannot import {location.strip()}: {error}", importlib.import_module,
                          location.strip())
    target = _guarded(lambda error: f"{text}: reading {attribute} raised {error}", getattr, module, attribute, None)
    if target is None:
        raise PlayerError(f"{text}: {location.strip()} has no {attribute}")
    return target, _parameters(parameter_text, text)


def builtin_numba_seat(text: str, numba_players: dict):
    """A seat for `NAME[:key=value,...]` when NAME is one of a family's built-in numba players
    (`numba_players`: name -> 'module:function', e.g. the 二人 family's ``ev``), its text canonical like a
    heuristic's (every parameter, in the declared order); None for any other text."""
    name, _, parameter_text = text.strip().partition(":")
    if name.strip() not in numba_players:
        return None

    target, _ = _load_target(numba_players[name.strip()])
    parameters = _parameters(parameter_text, text)
    seat = NumbaSeat(text.strip(), target, parameters)
    values = {**target.defaults, **parameters}
    seat.text = name.strip() + ":" + ",".join(f"{key}={float(value):g}" for key, value in values.items())
    return seat


def load_user_player(text: str):
    """A seat for the user player `text`: ``ExecSeat``, ``NumbaSeat`` or ``PythonSeat``."""
    text = text.strip()
    if text.startswith(EXEC_PREFIX):
        return ExecSeat(text)
    target, parameters = _load_target(text)

    if is_numba_player(target):
        return NumbaSeat(text, target, parameters)
    if not isinstance(target, type):
        raise PlayerError(f"{text}: {type(target).__name__} is not a class with act(observation)")
    if not callable(_guarded(lambda error: f"{text}: reading act raised {error}", getattr, target, "act", None)):
        raise PlayerError(f"{text}: {target.__name__} has no act(observation) method")
    player = _guarded(lambda error: f"{text}: {target.__name__}({', '.join(parameters)}) failed: {error}", target,
                      **parameters)
    return PythonSeat(text, player)


def check_user_player(text: str) -> None:
    """What can be checked of a user player without running its code (a PlayerError if it fails): the
    file of ``PATH.py:Class`` exists, the program of ``exec:`` is found, parameters are key=value. It is
    loaded, and checked fully, in the worker process that plays it."""
    text = text.strip()
    if text.startswith(EXEC_PREFIX):
        _exec_command(text)
        return
    location, _, rest = text.partition(":")
    _, _, parameter_text = rest.partition(":")
    if location.strip().endswith(".py"):
        _require_file(location.strip(), text)
    _parameters(parameter_text, text)


def deal_generator(seed: int, seat: int, deal: int) -> np.random.Generator:
    """The generator a user player gets for one deal: a pure function of (seed, seat, deal)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence((int(seed), 1 + seat, int(deal)))))


def legal_list(codes) -> list[Action]:
    return [ACTIONS[int(code)] for code in codes]


def legal_mask(codes) -> np.ndarray:
    mask = np.zeros(N_ACTIONS, bool)
    mask[np.asarray(codes, np.int64)] = True
    return mask


def where(deal: int, seat: int, decision: str) -> str:
    """How a failure names its place: `at deal 17, seat 0, decision 'turn'`."""
    return f"at deal {deal}, seat {seat}, decision {decision!r}"


def decision_name(decision: int) -> str:
    return DECISION_NAMES[decision] if 0 <= decision < len(DECISION_NAMES) else "reset"


class UserSeat:
    """A seat holding a user's player: its text (as written), its kind (``python``, ``exec``, ``numba``), how
    its failures read, and ``close``."""

    kind = ""

    def __init__(self, text: str):
        self.text = text

    def failure(self, status, what: str) -> PlayerFailure:
        """The failure of this player where the engine's loop stopped: status holds (deal, seat, decision)."""
        deal, seat, decision = int(status[0]), int(status[1]), decision_name(int(status[2]))
        return PlayerFailure(f"player {self.text} {what} {where(deal, seat, decision)}")

    def close(self):
        pass


def _action_code(answer):
    """The integer code of an answer (an int, a numpy integer or an ``Action``), or None for anything else:
    never a bool, never a float, and nothing the answer's own methods can turn into an exception."""
    if type(answer) is int:
        return answer
    try:
        if isinstance(answer, Action):
            answer = tuple.__getitem__(answer, 0)
        if isinstance(answer, bool):
            return None
        return operator.index(answer)
    except BaseException:  # noqa: BLE001  (an answer of the player's own class may do anything)
        return None


def _answer_text(answer) -> str:
    try:
        text = repr(answer)
    except BaseException:  # noqa: BLE001
        text = f"a {type(answer).__name__}"
    return text if len(text) <= 60 else text[:60] + "..."


class PythonSeat(UserSeat):
    """A Python player in one seat: told of each deal, asked at each decision with a choice."""

    kind = "python"

    def __init__(self, text: str, player):
        super().__init__(text)
        self.player = player
        self._reset = _guarded(lambda error: f"player {text}: reading reset raised {error}", getattr, player, "reset",
                               None)
        self._act = _guarded(lambda error: f"player {text}: reading act raised {error}", getattr, player, "act")

    def begin_deal(self, seat: int, ruleset, seed: int, deal: int):
        if self._reset is not None:
            _guarded(lambda error: f"player {self.text} raised {where(deal, seat, 'reset')}: {error}", self._reset,
                     seat, ruleset, deal_generator(seed, seat, deal))

    def decide(self, observation) -> int:
        """The action code of the player's answer; PlayerFailure if it fails in any way or answers with
        anything but one of the legal actions it was offered. What it is offered and where it is are read
        before it runs: a player that rewrites its observation changes neither."""
        legal, deal, seat, decision = observation.legal_codes, observation.deal, observation.seat, observation.decision
        try:  # _guarded, written out: this runs at every decision
            answer = self._act(observation)
        except BaseException as error:  # noqa: BLE001
            if isinstance(error, KeyboardInterrupt) and not worker_processes.in_worker():
                raise
            raise PlayerFailure(f"player {self.text} raised {where(deal, seat, decision)}: {error_text(error)}") from None
        chance = observation.__dict__.get("win_chance")
        if chance is not None:
            try:
                observation.win_chance = chance_of(chance, f"player {self.text}")
            except ValueError as error:
                raise PlayerFailure(f"{error} {where(deal, seat, decision)}") from None
            except BaseException as error:  # noqa: BLE001  (a report of the player's own class may do anything)
                raise PlayerFailure(f"player {self.text} reported a win chance that cannot be read "
                                    f"({error_text(error)}) {where(deal, seat, decision)}") from None
        code = _action_code(answer)
        if code is not None and code in legal:
            return code
        offered = ", ".join(ACTIONS[action].text for action in legal)
        raise PlayerFailure(f"player {self.text} answered {_answer_text(answer)}, not a legal action, "
                            f"{where(deal, seat, decision)} (legal: {offered})")


class ExecSeat(UserSeat):
    """An external program in one seat, spoken to in JSON lines (docs/write-a-player.md#any-language)."""

    kind = "exec"

    def __init__(self, text: str):
        super().__init__(text)
        self.command = _exec_command(text)
        self.timeout = seconds_from_environment(EXEC_TIMEOUT_VARIABLE, DEFAULT_EXEC_TIMEOUT, PlayerError)
        self.process = None  # started at the first deal, so that parsing a player starts nothing
        self.faulted_deal = None  # the deal in which the program faulted: it is not asked again in it
        self.reported = 0
        self.requests = 0  # the id of the last request: a reply may echo it
        self._buffer = b""

    def _start(self):
        try:
            # a process group of its own: Ctrl-C at the terminal is mjsim's, and the program's children end with it
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                                            process_group=0)
        except OSError as error:
            raise PlayerError(f"{self.text}: cannot start {self.command[0]}: {error.strerror or error}") from None
        worker_processes.note_program_group(self.process.pid)
        weakref.finalize(self, _end_process, self.process)  # no program outlives its seat
        self._buffer = b""

    def _send(self, message: dict) -> bool:
        """Write one line within the timeout: a program that stops reading fills the pipe, and must not make
        the run wait forever. False if the line could not be written in time or the program is gone."""
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        descriptor = self.process.stdin.fileno()
        deadline = time.monotonic() + self.timeout
        try:
            while data:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [descriptor], [], left)[1]:
                    return False
                data = data[os.write(descriptor, data[:select.PIPE_BUF]):]
        except OSError:  # BrokenPipeError: the program has exited
            return False
        return True

    def _read_line(self) -> bytes | str:
        """One line from the program within the timeout, or why there is none: ``late``, ``gone`` or
        ``too long``."""
        deadline = time.monotonic() + self.timeout
        stdout = self.process.stdout
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_REPLY_BYTES:
                return "too long"
            left = deadline - time.monotonic()
            if left <= 0:
                return "late"
            ready, _, _ = select.select([stdout], [], [], left)
            if not ready:
                return "late"
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                return "gone"
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return "too long" if len(line) > MAX_REPLY_BYTES else line

    def _unsolicited(self) -> bool:
        """Whether the program has written something it was not asked for (it would be taken as the next
        answer, one behind)."""
        if self._buffer:
            return True
        try:
            return bool(select.select([self.process.stdout], [], [], 0)[0]) and not _has_exited(self.process)
        except (OSError, ValueError):
            return False

    def begin_deal(self, seat: int, ruleset, seed: int, deal: int):
        self.faulted_deal = None
        if self.process is not None and _has_exited(self.process):
            _end_process(self.process)  # it exited during the last deal: end its group, close its pipes
            self.process = None
        if self.process is None:
            self._start()
        derived = int(np.random.SeedSequence((int(seed), 1 + seat, int(deal))).generate_state(1, np.uint64)[0] >> 1)
        reset = {"type": "reset", "deal": int(deal), "seat": seat, "ruleset": ruleset.name, "seed": derived}
        if not self._send(reset):
            _end_process(self.process, at_once=True)  # gone, or no longer reading: a fresh one for this deal
            self._start()
            self._send(reset)  # a fresh pipe has room for one line

    def _fault(self, observation, why: str, out_of_step: bool = False) -> int:
        """Report the fault; the seat plays the safe default for the rest of the deal. A program `out_of_step`
        (late, unsolicited, not reading) is ended: the next deal starts a fresh one, in step."""
        if out_of_step:
            _end_process(self.process, at_once=True)
            self.process = None  # the next deal starts a fresh program
        self.faulted_deal = observation.deal
        if self.reported < FAULTS_REPORTED:
            print(f"mjsim: player {self.text} {why} {where(observation.deal, observation.seat, observation.decision)}; "
                  "its seat plays the safe default for the rest of the deal", file=sys.stderr)
        elif self.reported == FAULTS_REPORTED:
            print(f"mjsim: player {self.text}: further faults are not reported", file=sys.stderr)
        self.reported += 1
        return -1

    def decide(self, observation) -> int:
        """The action code of the program's answer, or -1: the engine plays the safe default."""
        if self.faulted_deal == observation.deal:
            return -1
        if self._unsolicited():
            return self._fault(observation, "wrote a line it was not asked for", out_of_step=True)
        self.requests += 1
        request = {"type": "decide", "id": self.requests, **observation.to_json(),
                   "legal": [action.text for action in observation.legal_actions]}
        if not self._send(request):
            if _has_exited(self.process):
                return self._fault(observation, "has exited", out_of_step=True)
            return self._fault(observation, f"did not read its input within {self.timeout:g} s", out_of_step=True)
        line = self._read_line()
        if line == "gone" or (line == "late" and _has_exited(self.process)):
            return self._fault(observation, "has exited", out_of_step=True)
        if line == "late":
            return self._fault(observation, f"did not answer within {self.timeout:g} s", out_of_step=True)
        if line == "too long":
            return self._fault(observation, f"sent a reply longer than {MAX_REPLY_BYTES:,} bytes", out_of_step=True)
        # A line that is not a reply leaves the conversation in doubt (was it a stray line, is the answer still
        # to come?): the program is ended, and the next deal starts a fresh one, in step.
        try:
            reply = parse_line(line.decode("utf-8"))
        except (BatchLineError, UnicodeDecodeError) as error:
            return self._fault(observation, f"sent a malformed reply {line[:60]!r} ({error})", out_of_step=True)
        if not isinstance(reply, dict) or "action" not in reply:
            return self._fault(observation, f"sent a malformed reply {line[:60]!r} (not an object with an \"action\")",
                               out_of_step=True)
        if "id" in reply and reply["id"] != self.requests:
            return self._fault(observation, f"answered request {str(reply['id'])[:20]}, not {self.requests}",
                               out_of_step=True)
        if self._buffer:
            return self._fault(observation, "wrote more than one line for one request", out_of_step=True)
        answer = reply["action"]
        try:
            observation.win_chance = chance_of(reply.get("win_chance"), "")
        except ValueError:
            return self._fault(observation, f"reported a win chance of {str(reply.get('win_chance'))[:30]!r}, "
                                            "not a number from 0 to 1,")
        legal = observation.legal_codes
        if isinstance(answer, int) and not isinstance(answer, bool) and answer in legal:
            return answer
        if isinstance(answer, str):
            for action in observation.legal_actions:
                if action.text == answer.strip():
                    return action.code
        return self._fault(observation, f"answered {str(answer)[:60]!r}, not a legal action,")

    def close(self):
        if self.process is not None:
            _end_process(self.process)
            self.process = None


class NumbaSeat(UserSeat):
    """A numba player in one seat: its function and its parameter vector."""

    kind = "numba"

    def __init__(self, text: str, player, parameters: dict):
        super().__init__(text)
        if isinstance(player, CPUDispatcher):
            player = NumbaPlayer(player, {})
        unknown = set(parameters) - set(player.defaults)
        if unknown:
            takes = ", ".join(f"{key}=" for key in player.defaults) or "no parameters"
            raise PlayerError(f"{text}: unknown parameter {sorted(unknown)[0]!r}; it takes {takes}")
        values = {**player.defaults, **parameters}
        vector = np.zeros(MAX_NUMBA_PARAMETERS)
        for index, key in enumerate(player.defaults):
            value = values[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
                raise PlayerError(f"{text}: parameter {key} needs a number, not {value!r}")
            low, high = player.ranges.get(key, (-np.inf, np.inf))
            if not low <= value <= high:
                raise PlayerError(f"{text}: parameter {key} is from {low:g} to {high:g}, not {value!r}")
            vector[index] = value
        self.act, self.parameters = player.act, vector


def _exec_command(text: str) -> list[str]:
    """The command line of ``exec:COMMAND``, split as a shell would; PlayerError if it cannot be."""
    try:
        command = shlex.split(text.strip()[len(EXEC_PREFIX):])
    except ValueError as error:
        raise PlayerError(f"{text}: the command cannot be read ({error})") from None
    if not command:
        raise PlayerError(f"{text}: exec: needs a command")
    if shutil.which(command[0]) is None:
        raise PlayerError(f"{text}: no program {command[0]!r}")
    return command


def _has_exited(process) -> bool:
    """Whether the program has exited, without reaping it: while it is a zombie, its process group's id
    cannot be taken by another process, so killing the group later cannot hit a stranger."""
    if process.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _end_process(process, at_once: bool = False):
    """Close the program's input (its end of the conversation), give it a second to exit unless `at_once`,
    then kill its whole process group (whatever it started) and reap it and close its pipes. Once only."""
    if getattr(process, "ended_by_mjsim", False):
        return
    process.ended_by_mjsim = True
    try:
        process.stdin.close()
    except OSError:
        pass
    deadline = time.monotonic() + (0 if at_once else 1.0)
    while not _has_exited(process) and time.monotonic() < deadline:
        time.sleep(0.005)
    worker_processes.end_program_group(process.pid)
    process.wait()
    process.stdout.close()

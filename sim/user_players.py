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

A Python player that raises, or answers with something that is not a legal action, stops the run with a
``PlayerFailure`` naming the player, the deal and the decision: it is a bug in the player. An external
program is held to a looser policy, because it may be anything: a malformed, illegal or late reply, or
the program's death, makes its seat play the engine's safe default for the rest of the deal, marks the
deal's record (``violation`` = player fault), and reports the fault on stderr once per deal; a dead
program is started again for the next deal.
"""

import importlib
import importlib.util
import json
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

from kernels.tiles import HONOR_START, N_KINDS, SUIT_STARTS
from sim.actions import (
    ACTION_BASE,
    ACTION_WORDS,
    CHOW,
    DECLARE_READY,
    DOUBLE,
    N_ACTIONS,
    NO_TILE,
    PASS,
    VOID,
    WIN,
    action_text,
)
from sim.player_text import PlayerError
from sim.win_chances import chance_of
from sim.waiting_limits import seconds_from_environment

EXEC_PREFIX = "exec:"
EXEC_TIMEOUT_VARIABLE = "MJSIM_EXEC_TIMEOUT"  # seconds an external program may take to answer (default 10)
DEFAULT_EXEC_TIMEOUT = 10.0
FAULTS_REPORTED = 20  # an external program's faults reported on stderr in one process, at most

TILELESS = (WIN, DOUBLE, PASS, DECLARE_READY)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


class Action(NamedTuple):
    """A legal action: its stable integer code (``sim.actions``) and how it reads (``discard 3m``)."""

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


def is_user_player(text: str, builtin_names) -> bool:
    """`exec:...`, `PATH.py:Class...` or `module.path:Class...`; a built-in heuristic otherwise."""
    text = text.strip()
    if text.startswith(EXEC_PREFIX):
        return True
    name, _, rest = text.partition(":")
    if name.strip() in builtin_names:
        return False
    return bool(rest) and bool(_IDENTIFIER.match(rest.partition(":")[0].strip()))


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


def _module_from_path(path_text: str, player: str):
    path = Path(path_text).expanduser().resolve()
    if not path.is_file():
        raise PlayerError(f"{player}: no file {path_text}")
    name = "mjsim_player_" + re.sub(r"\W", "_", str(path))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise PlayerError(f"{player}: {path_text} failed to load: {type(error).__name__}: {error}") from None
    return module


def _load_target(text: str):
    """The object `PATH.py:Name` or `module:Name` names, and the constructor parameters after it."""
    location, _, rest = text.partition(":")
    attribute, _, parameter_text = rest.partition(":")
    attribute = attribute.strip()
    if location.strip().endswith(".py"):
        module = _module_from_path(location.strip(), text)
    else:
        try:
            module = importlib.import_module(location.strip())
        except Exception as error:
            raise PlayerError(f"{text}: cannot import {location.strip()}: {type(error).__name__}: {error}") from None
    if not hasattr(module, attribute):
        raise PlayerError(f"{text}: {location.strip()} has no {attribute}")
    return getattr(module, attribute), _parameters(parameter_text, text)


def builtin_numba_seat(text: str, numba_players: dict):
    """A seat for `NAME[:key=value,...]` when NAME is one of a family's built-in numba players
    (`numba_players`: name -> 'module:function', e.g. the 二人 family's ``ev``), its text canonical like a
    heuristic's (every parameter, in the declared order); None for any other text."""
    name, _, parameter_text = text.strip().partition(":")
    if name.strip() not in numba_players:
        return None
    from sim.numba_players import NumbaSeat  # numba players build on this module

    target, _ = _load_target(numba_players[name.strip()])
    parameters = _parameters(parameter_text, text)
    seat = NumbaSeat(text.strip(), target, parameters)
    values = {**target.defaults, **parameters}
    seat.text = name.strip() + ":" + ",".join(f"{key}={float(value):g}" for key, value in values.items())
    return seat


def load_user_player(text: str):
    """A seat for the user player `text`: ``ExecSeat``, ``NumbaSeat`` (``sim.numba_players``) or ``PythonSeat``."""
    text = text.strip()
    if text.startswith(EXEC_PREFIX):
        return ExecSeat(text)
    target, parameters = _load_target(text)
    from sim.numba_players import NumbaSeat, is_numba_player  # numba players build on this module

    if is_numba_player(target):
        return NumbaSeat(text, target, parameters)
    if not isinstance(target, type):
        raise PlayerError(f"{text}: {type(target).__name__} is not a class with act(observation)")
    if not callable(getattr(target, "act", None)):
        raise PlayerError(f"{text}: {target.__name__} has no act(observation) method")
    try:
        player = target(**parameters)
    except Exception as error:
        raise PlayerError(f"{text}: {target.__name__}({', '.join(parameters)}) failed: {type(error).__name__}: {error}") from None
    return PythonSeat(text, player)


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


class PythonSeat:
    """A Python player in one seat: told of each deal, asked at each decision with a choice."""

    kind = "python"

    def __init__(self, text: str, player):
        self.text, self.player = text, player
        self._reset = getattr(player, "reset", None)

    def begin_deal(self, seat: int, ruleset, seed: int, deal: int):
        if self._reset is None:
            return
        try:
            self._reset(seat, ruleset, deal_generator(seed, seat, deal))
        except Exception as error:
            raise PlayerFailure(f"player {self.text} raised {where(deal, seat, 'reset')}: "
                                f"{type(error).__name__}: {error}") from None

    def decide(self, observation) -> int:
        """The action code of the player's answer; PlayerFailure if it raises or answers illegally."""
        try:
            answer = self.player.act(observation)
        except Exception as error:
            raise PlayerFailure(f"player {self.text} raised {where(observation.deal, observation.seat, observation.decision)}: "
                                f"{type(error).__name__}: {error}") from None
        code = answer.code if isinstance(answer, Action) else answer
        legal = observation.legal_codes
        try:
            observation.win_chance = chance_of(observation.win_chance, f"player {self.text}")
        except ValueError as error:
            raise PlayerFailure(f"{error} {where(observation.deal, observation.seat, observation.decision)}") from None
        if isinstance(code, (int, np.integer)) and not isinstance(code, bool) and int(code) in legal:
            return int(code)
        offered = ", ".join(ACTIONS[int(action)].text for action in legal)
        raise PlayerFailure(f"player {self.text} answered {answer!r}, not a legal action, "
                            f"{where(observation.deal, observation.seat, observation.decision)} (legal: {offered})")

    def close(self):
        pass


class ExecSeat:
    """An external program in one seat, spoken to in JSON lines (docs/write-a-player.md#any-language)."""

    kind = "exec"

    def __init__(self, text: str):
        self.text = text
        self.command = shlex.split(text[len(EXEC_PREFIX):])
        if not self.command:
            raise PlayerError(f"{text}: exec: needs a command")
        if shutil.which(self.command[0]) is None:
            raise PlayerError(f"{text}: no program {self.command[0]!r}")
        self.timeout = seconds_from_environment(EXEC_TIMEOUT_VARIABLE, DEFAULT_EXEC_TIMEOUT, PlayerError)
        self.process = None  # started at the first deal, so that parsing a player starts nothing
        self.faulted_deal = None  # the deal in which the program faulted: it is not asked again in it
        self.reported = 0
        self._buffer = b""

    def _start(self):
        try:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        except OSError as error:
            raise PlayerError(f"{self.text}: cannot start {self.command[0]}: {error.strerror}") from None
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

    def _read_line(self) -> bytes | None:
        """One line from the program within the timeout; None if it is late or gone."""
        deadline = time.monotonic() + self.timeout
        stdout = self.process.stdout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([stdout], [], [], left)
            if not ready:
                return None
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                return None
            self._buffer += chunk
            if len(self._buffer) > 1_000_000:
                return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def begin_deal(self, seat: int, ruleset, seed: int, deal: int):
        self.faulted_deal = None
        if self.process is not None and self.process.poll() is not None:
            _end_process(self.process)  # it exited (or was ended) during the last deal: close its pipes
        if self.process is None or self.process.poll() is not None:
            self._start()
        derived = int(np.random.SeedSequence((int(seed), 1 + seat, int(deal))).generate_state(1, np.uint64)[0] >> 1)
        reset = {"type": "reset", "deal": int(deal), "seat": seat, "ruleset": ruleset.name, "seed": derived}
        if not self._send(reset):
            _end_process(self.process, at_once=True)  # gone, or no longer reading: a fresh one for this deal
            self._start()
            self._send(reset)  # a fresh pipe has room for one line

    def _fault(self, observation, why: str) -> int:
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
        request = {"type": "decide", **observation.to_json(), "legal": [action.text for action in observation.legal_actions]}
        if not self._send(request):
            if self.process.poll() is not None:
                return self._fault(observation, "has exited")
            _end_process(self.process, at_once=True)  # alive but not reading: out of step; started again next deal
            return self._fault(observation, f"did not read its input within {self.timeout:g} s")
        line = self._read_line()
        if line is None:
            if self.process.poll() is not None:
                return self._fault(observation, "has exited")
            _end_process(self.process, at_once=True)  # late: a program that missed its answer is out of step
            return self._fault(observation, f"did not answer within {self.timeout:g} s")
        try:
            reply = json.loads(line)
            answer = reply["action"]
        except (ValueError, TypeError, KeyError):
            return self._fault(observation, f"sent a malformed reply {line[:60]!r}")
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


def _end_process(process, at_once: bool = False):
    """Close the program's input (its end of the conversation), kill it if it does not exit within a
    second (`at_once`: kill it now), and close its pipes."""
    try:
        if at_once:
            process.kill()
        process.stdin.close()
        process.wait(timeout=1)
    except (OSError, subprocess.TimeoutExpired):
        process.kill()
        process.wait()
    process.stdout.close()

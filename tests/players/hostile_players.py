"""Python players that attack the player protocol, one way each (tests/players/test_hostile_players.py)."""

import os
import signal
import sys
import threading
import time
from pathlib import Path


class Forger:
    """Rewrites its legal actions to offer 'discard 1m' (code 0), and answers it."""

    def act(self, observation):
        observation.legal_codes = (0,)
        return 0


class Spoiler:
    """Plays its first legal action after writing into everything its observation holds, and trying to
    write into the state behind it."""

    def act(self, observation):
        action = observation.legal_codes[0]
        for array in observation._state:  # the engine's state, through views it cannot write into
            try:
                array[...] = 1
            except ValueError:
                pass
        observation.hand[:] = 0
        observation.seat, observation.deal = 5, -1
        ruleset = observation.ruleset  # shared with the engine's next batch, were it not the players' own copy
        ruleset.values.setflags(write=True)
        ruleset.values[:] = 0
        ruleset.fan_names.clear()
        return action


class FirstLegal:
    def act(self, observation):
        return observation.legal_codes[0]


class Exits:
    """Leaves at its first decision of deal `at` (only), one way or another (`how`): SystemExit, os._exit, a
    KeyboardInterrupt of its own, an exception whose message cannot be printed, or a thread that never ends."""

    def __init__(self, how="system_exit", at=0):
        self.how, self.at = how, at

    def act(self, observation):
        if observation.deal == self.at:
            if self.how == "system_exit":
                raise SystemExit(0)
            if self.how == "os_exit":
                os._exit(0)
            if self.how == "keyboard_interrupt":
                raise KeyboardInterrupt
            if self.how == "unprintable":
                raise Unprintable()
            if self.how == "thread":
                threading.Thread(target=time.sleep, args=(3600,)).start()
                raise SystemExit(0)
        return observation.legal_codes[0]


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("this message cannot be printed")


class ExitsInReset:
    def reset(self, seat, ruleset, rng):
        sys.exit(3)

    def act(self, observation):
        return observation.legal_codes[0]


class ExitsWhenBuilt:
    def __init__(self):
        os._exit(0)

    def act(self, observation):
        return observation.legal_codes[0]


class Announcer:
    """Plays its first legal action; before each deal, creates the file `path` (a test waits for it: the
    table is playing)."""

    def __init__(self, path=""):
        self.path = path

    def reset(self, seat, ruleset, rng):
        Path(self.path).touch()

    def act(self, observation):
        return observation.legal_codes[0]


class Deaf:
    """Ignores SIGTERM and loops for ever at its first decision."""

    def act(self, observation):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            pass

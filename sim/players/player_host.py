"""Users' players seated in a worker process: the host of the tables that commands and library calls play
in their own process (duel, league, replay, bench, ``engine.play``).

A user's player is code mjsim does not control: it may end its process, crash it, loop forever or grow
without bound. So the process of a command never loads one. A family's ``Players.parse`` gives a user's
seat a ``HostedSeat`` (its text, checked as far as that is possible without running it) and the table a
``HostedTable``; the engine's ``play`` and ``replay`` hand such a table to its host, a worker
(``sim.core.worker_processes``) that loads the players there, once per table, and plays the batch, and send
back its records. The parent waits in Python, so Ctrl-C stops the host at once; a failure of a player
comes back as its ``PlayerFailure``, and a host that dies as one naming the player, the deal and the
decision. Each family has one host per process, started at its first table and kept (a duel's rotations,
a league's pairs and a test suite's tables share it, and with it a numba player's compiled loop) until
the process ends or the host dies. Each call carries the caller's environment variables, working folder
and import path, so the host plays as the caller would.

A table is unseated when it is closed or collected. The garbage collector may collect one at any moment,
in the middle of another table's call to the same host; the host then answers one call at a time, so such a
release waits for the host's next call instead of talking to it while it is busy.
"""

import atexit
import importlib
import itertools
import os
import sys
import weakref

from sim.core.worker_processes import Worker, WorkerDied
from sim.players.user_players import PlayerFailure, UserSeat, check_user_player, decision_name, where

_hosts = {}  # family package (sim.erren) -> _Host
_table_numbers = itertools.count(1)


class HostedSeat(UserSeat):
    """A user's player that a host loads and plays: only its text is known here."""

    kind = "hosted"

    def __init__(self, text: str, seat_class=None):
        """`seat_class`: the family's own kind of seat for `text` (``user_players.family_seat``), if it is one."""
        if seat_class is not None:
            seat_class.check(text)
        else:
            check_user_player(text)
        super().__init__(text)


class _Host:
    """A worker process, the tables seated in it, and the tables released while it was busy."""

    def __init__(self):
        self.worker, self.tables, self.released = Worker(), set(), []

    def call(self, function, *arguments):
        return self.worker.call(function, (dict(os.environ), os.getcwd(), list(sys.path)), *arguments)

    def unseat_released(self) -> None:
        """Unseat the tables released while the host was busy."""
        while self.released and self.worker.alive():
            _unseat_table_in(self, self.released.pop())


class HostedTable:
    """A table whose user players play in a host process; the engine's ``play`` and ``replay`` go through
    ``call``. ``close`` ends its players there (their programs, their instances)."""

    def __init__(self, engine: str, texts, seats: int):
        """`engine`: the family's engine module by name (``sim.erren.engine``), whose ``Players.parse`` seats
        `texts` in the host."""
        self.engine, self.family, self.texts, self.seats = engine, engine.rpartition(".")[0], tuple(texts), seats
        self.number = next(_table_numbers)
        self._finalizer = weakref.finalize(self, _release, self.family, self.number)

    def call(self, method: str, ruleset, *arguments):
        """engine.<method>(ruleset, players, *arguments) in the host, for this table's players."""
        host = self._host()
        try:
            if self.number not in host.tables:
                host.call(_seat_table, self.engine, self.number, self.texts, self.seats)
                host.tables.add(self.number)
            return host.call(_call_table, self.engine, self.number, method, ruleset, arguments)
        except WorkerDied as died:
            _forget(self.family)
            raise PlayerFailure(self._blame(died)) from None
        except BaseException:
            if host.worker.busy or not host.worker.alive():  # Ctrl-C while it played: it is stopped
                _forget(self.family)
            raise

    def _host(self) -> _Host:
        host = _hosts.get(self.family)
        if host is not None:
            host.unseat_released()
        if host is None or not host.worker.alive():
            _forget(self.family)
            host = _hosts[self.family] = _Host()
        return host

    def _blame(self, died: WorkerDied) -> str:
        """Who ended the host, as far as its shared status tells."""
        if 0 <= died.seat < len(self.texts):
            place = where(died.deal, died.seat, decision_name(died.decision))
            return f"player {self.texts[died.seat]} {died.how()} {place}"
        at = f" at deal {died.deal}" if died.deal >= 0 else ""
        return f"a player of the table ({', '.join(dict.fromkeys(self.texts))}) {died.how()}{at}"

    def close(self) -> None:
        self._finalizer()


def _release(family: str, number: int) -> None:
    """Unseat a table's players in its host (which stays for the next table): now, or at the host's next call
    if it is busy with one (this may run from the garbage collector, inside that call)."""
    host = _hosts.get(family)
    if host is None or number not in host.tables:
        return
    host.tables.discard(number)
    if host.worker.busy:
        host.released.append(number)
    else:
        _unseat_table_in(host, number)


def _unseat_table_in(host: _Host, number: int) -> None:
    try:
        host.call(_unseat_table, number)
    except BaseException:  # noqa: BLE001  (a host that cannot close a table is not trusted with another)
        _forget_host(host)


def _forget(family: str) -> None:
    host = _hosts.pop(family, None)
    if host is not None:
        host.worker.close()


def _forget_host(host: _Host) -> None:
    for family in [family for family, kept in _hosts.items() if kept is host]:
        _forget(family)
    host.worker.close()


@atexit.register
def close_hosts() -> None:
    """End every host of this process (their players' programs first)."""
    for family in list(_hosts):
        _forget(family)


# ------------------------------------------------------------------------------------- in the host

_seated_tables = {}  # table number -> the family's Players, loaded here


def _as_the_caller(context) -> None:
    """Take the caller's environment variables, working folder and import path."""
    environment, folder, path = context
    os.environ.clear()
    os.environ.update(environment)
    os.chdir(folder)
    sys.path[:] = path


def _seat_table(context, engine: str, number: int, texts, seats: int) -> None:
    _as_the_caller(context)
    _seated_tables[number] = importlib.import_module(engine).Players.parse(list(texts), seats)


def _call_table(context, engine: str, number: int, method: str, ruleset, arguments):
    _as_the_caller(context)
    return getattr(importlib.import_module(engine), method)(ruleset, _seated_tables[number], *arguments)


def _unseat_table(context, number: int) -> None:
    players = _seated_tables.pop(number, None)
    if players is not None:
        players.close()

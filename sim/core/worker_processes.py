"""Worker processes: where mjsim runs what may hang, crash or end its process (a user's player, a run's
shards), so that the command that started them keeps its exit status and its Ctrl-C.

A ``Worker`` is a fresh Python process (the same interpreter and import path, in its own process group)
that runs one call at a time for its parent and sends back the result or the exception. The parent always waits in Python, so Ctrl-C reaches it at once,
whatever the worker is doing (a numba player's endless loop included), and it stops the worker: SIGTERM,
then SIGKILL after a grace of a few seconds. A worker that dies while it runs a call (``os._exit``, a
signal, the system's out-of-memory killer) raises ``WorkerDied`` in the parent, naming how it ended and,
from the status it shares with its parent (``engine_status``), the deal, seat and decision it was at.

In a worker, Ctrl-C is ignored (the parent handles it), the worker dies with its parent (Linux's parent-death
signal, and a thread that watches), and SIGTERM first ends the programs of its ``exec:`` players: each runs
in a process group of its own, which the worker records (``note_program_group``) and kills whole, and which
the shared status also shows the parent, which kills them after a worker it had to kill.
``run_calls`` keeps several workers busy with a list of calls (a run's shards, a campaign's).
"""

import contextlib
import ctypes
import mmap
import os
import pickle
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import deque
from multiprocessing.connection import Connection, wait

import numpy as np

STOP_GRACE_SECONDS = 3.0  # from SIGTERM to SIGKILL when a worker is stopped
ENGINE_STATUS_SLOTS = 5  # deal, seat, decision, illegal answer, the answer (the engines' STATUS_* slots)
MAX_PROGRAM_GROUPS = 4  # one exec: player per seat, four seats at most
_STATUS_SLOTS = ENGINE_STATUS_SLOTS + MAX_PROGRAM_GROUPS
_PR_SET_PDEATHSIG = 1

_status = None  # this worker's shared status (numpy int64 over shared memory); None outside a worker
_program_groups = set()  # the process groups of this process's exec: players


class WorkerDied(RuntimeError):
    """A worker process ended while it ran a call: how it ended, and where its players were (deal, seat and
    decision; -1 where unknown)."""

    def __init__(self, exit_code: int, deal: int = -1, seat: int = -1, decision: int = -1):
        self.exit_code, self.deal, self.seat, self.decision = exit_code, deal, seat, decision
        super().__init__(self.how())

    def how(self) -> str:
        """What a player did, as the worker's end shows it: `ended its worker process (exit status 0)`."""
        if self.exit_code is None or self.exit_code >= 0:
            return f"ended its worker process (exit status {self.exit_code})"
        name = self._signal_name()
        if -self.exit_code == signal.SIGKILL:
            return f"had its worker process killed ({name}: by the system, perhaps for memory)"
        return f"crashed its worker process (killed by {name})"

    def ended(self) -> str:
        """How the worker ended: `exited with status 0`, `was killed by SIGKILL (...)`."""
        if self.exit_code is None or self.exit_code >= 0:
            return f"exited with status {self.exit_code}"
        if -self.exit_code == signal.SIGKILL:
            return "was killed by SIGKILL (by the system, perhaps for memory)"
        return f"was killed by {self._signal_name()}"

    def _signal_name(self) -> str:
        try:
            return signal.Signals(-self.exit_code).name
        except ValueError:
            return f"signal {-self.exit_code}"

    def __reduce__(self):
        return WorkerDied, (self.exit_code, self.deal, self.seat, self.decision)


def in_worker() -> bool:
    """Whether this process is a worker: a user's player may be loaded and played here."""
    return _status is not None


def play_here() -> None:
    """Make this process a worker for users' players (a Dask worker: a process of its own already), with
    a status nobody reads."""
    global _status
    if _status is None:
        _status = np.zeros(_STATUS_SLOTS, np.int64)


@contextlib.contextmanager
def players_in_this_process():
    """Seat users' players in this process within the block, as a worker would: for players you trust and
    want to look into (a test's auditor, say). A player that crashes or exits then takes this process with
    it, and Ctrl-C cannot stop a numba player's loop."""
    global _status
    previous = _status
    play_here()
    try:
        yield
    finally:
        _status = previous


def engine_status() -> np.ndarray:
    """Where an engine records the deal, seat and decision it is at (and an illegal answer): the worker's
    shared slots, which its parent reads when the worker dies; fresh zeros outside a worker."""
    if _status is None:
        return np.zeros(ENGINE_STATUS_SLOTS, np.int64)
    status = _status[:ENGINE_STATUS_SLOTS]
    status[:] = 0
    status[1] = status[2] = -1
    return status


def note_program_group(group: int) -> None:
    """An exec: player's program started in process group `group`: ended with this process, whatever ends it."""
    _program_groups.add(group)
    _share_program_groups()


def end_program_group(group: int) -> None:
    """Kill the whole process group of an exec: player's program (its children included)."""
    _program_groups.discard(group)
    _share_program_groups()
    _kill_group(group)


def end_all_program_groups() -> None:
    for group in list(_program_groups):
        end_program_group(group)


def _kill_group(group: int) -> None:
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # already gone (or its pid reused by someone else's group: not ours to kill)


def _share_program_groups() -> None:
    if _status is not None:
        groups = sorted(_program_groups)[:MAX_PROGRAM_GROUPS]
        _status[ENGINE_STATUS_SLOTS:] = 0
        _status[ENGINE_STATUS_SLOTS : ENGINE_STATUS_SLOTS + len(groups)] = groups


# ------------------------------------------------------------------------------------- in the worker


def _die_with_parent(parent: int) -> None:
    """Be killed when the parent dies (Linux), even inside a compiled loop that never returns to Python;
    elsewhere, a thread that watches the parent ends the process (it cannot while numba holds the GIL)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        end_all_program_groups()
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _on_terminate(number, frame):
    end_all_program_groups()
    os._exit(128 + signal.SIGTERM)


def _main() -> None:
    """A worker's life (started by ``Worker``: argv holds the conversation's and the status's descriptors and
    the parent's pid): run each call the parent sends, send back ("ok", result) or ("error", exception),
    until the parent sends None or goes away."""
    global _status
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_terminate)
    connection_fd, status_fd, parent = (int(argument) for argument in sys.argv[2:5])
    _status = np.frombuffer(mmap.mmap(status_fd, _STATUS_SLOTS * 8), np.int64)
    _die_with_parent(parent)
    connection = Connection(connection_fd)
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            break
        if message is None:
            break
        function, arguments = message
        try:
            reply = ("ok", function(*arguments))
        except BaseException as error:  # noqa: BLE001  (a worker reports every failure, and lives on)
            reply = ("error", _portable(error))
        sys.stdout.flush()  # what the call wrote reaches the parent before its answer
        sys.stderr.flush()
        try:
            connection.send(reply)
        except Exception as error:  # noqa: BLE001  (a result or exception that does not pickle)
            connection.send(("error", RuntimeError(f"a worker could not send its result back: {error}")))
    end_all_program_groups()
    connection.close()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # not sys.exit: a player's leftover threads must not keep the worker alive


def _portable(error: BaseException) -> BaseException:
    """The exception itself if it survives pickling, else a RuntimeError with its text and traceback."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:  # noqa: BLE001
        text = "".join(traceback.format_exception(error))
        return RuntimeError(f"{type(error).__name__} in a worker process:\n{text}")


# ------------------------------------------------------------------------------------- in the parent

# The worker's first words: this process's import path, so that it imports the same mjsim (a checkout run
# in place, an installed copy), then its main loop. Not multiprocessing's spawn: that runs the parent's main
# script again in the child, which a script calling ``engine.play`` at its top level does not expect.
_BOOT = "import json, sys; sys.path[:] = json.loads(sys.argv[1]); from sim.core.worker_processes import _main; _main()"


class Worker:
    """A worker process and the parent's end of the conversation with it. What the worker (and anything it
    starts) writes on its standard output or error comes to the parent through a pipe and is written to the
    parent's ``sys.stderr`` as the parent waits (``pump``): a player's prints never mix with what mjsim
    writes on its standard output, and they arrive before the result of the call that made them."""

    def __init__(self):
        import json

        ours, theirs = socket.socketpair()
        self._status_file = tempfile.TemporaryFile()
        self._status_file.truncate(_STATUS_SLOTS * 8)
        self._memory = mmap.mmap(self._status_file.fileno(), _STATUS_SLOTS * 8)
        status = np.frombuffer(self._memory, np.int64)
        status[:ENGINE_STATUS_SLOTS] = -1  # nowhere yet: a worker that dies starting names no deal
        output, written = os.pipe()
        arguments = [sys.executable, "-c", _BOOT, json.dumps(sys.path), str(theirs.fileno()),
                     str(self._status_file.fileno()), str(os.getpid())]
        # stdin closed (a player must not read mjsim's), its own process group (Ctrl-C at the terminal is the
        # parent's to handle)
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=written, stderr=written,
                                        pass_fds=(theirs.fileno(), self._status_file.fileno()), process_group=0)
        theirs.close()
        os.close(written)
        os.set_blocking(output, False)
        self.output = output
        self.connection = Connection(ours.detach())
        try:
            self._ended = os.pidfd_open(self.process.pid)  # readable once the worker has exited
        except (AttributeError, OSError):
            self._ended = None
        self.busy = False

    def handles(self) -> list:
        """What to wait on: the conversation, the worker's output, and its end where the system tells it."""
        return [self.connection, *(handle for handle in (self.output, self._ended) if handle is not None)]

    def alive(self) -> bool:
        return self.process.poll() is None

    def pump(self) -> None:
        """Write what the worker has written so far to this process's standard error."""
        while self.output is not None:
            try:
                data = os.read(self.output, 65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:  # the worker and everything it started have closed their ends
                os.close(self.output)
                self.output = None
                return
            try:
                sys.stderr.write(data.decode("utf-8", "replace"))
                sys.stderr.flush()
            except (OSError, ValueError):  # no standard error to write to (closed): the output is dropped
                pass

    def submit(self, function, *arguments) -> None:
        # busy first: what runs meanwhile in this process (a garbage collector's finalizer) must see the
        # worker taken; and no deal yet, so a death before the call plays names no deal of an earlier call
        self.busy = True
        np.frombuffer(self._memory, np.int64)[:ENGINE_STATUS_SLOTS] = -1
        self.connection.send((function, arguments))

    def ready(self) -> bool:
        """Whether the call's result (or the worker's death) is there to collect."""
        return self.connection.poll() or not self.alive()

    def collect(self):
        """The result of the call submitted; its exception, raised here; WorkerDied if the worker died."""
        reply = None
        try:
            if self.connection.poll():
                reply = self.connection.recv()
        except (EOFError, OSError):  # the worker is gone
            pass
        if reply is not None:
            kind, value = reply
            self.busy = False
            self.pump()  # the worker flushed its output before it answered
            if kind == "error":
                raise value
            return value
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.pump()
        raise self._death()

    def call(self, function, *arguments):
        """Run one call and wait for it (Ctrl-C meanwhile raises here, with the worker still running)."""
        self.submit(function, *arguments)
        while not self.ready():
            wait(self.handles())
            self.pump()
        return self.collect()

    def _death(self) -> WorkerDied:
        status = np.frombuffer(self._memory, np.int64)
        self._kill_program_groups()
        return WorkerDied(self.process.returncode, int(status[0]), int(status[1]), int(status[2]))

    def _kill_program_groups(self) -> None:
        for group in np.frombuffer(self._memory, np.int64)[ENGINE_STATUS_SLOTS:]:
            if group > 0:
                _kill_group(int(group))

    def _release(self) -> None:
        """Close the parent's ends once the worker is gone."""
        self.pump()
        self.connection.close()
        for handle in (self.output, self._ended):
            if handle is not None:
                os.close(handle)
        self.output = self._ended = None

    def close(self) -> None:
        """End the worker: at once if it is busy, else by asking it to exit."""
        if self.alive() and not self.busy:
            try:
                self.connection.send(None)
                self.process.wait(timeout=STOP_GRACE_SECONDS)
            except (OSError, subprocess.TimeoutExpired):
                pass
        stop([self])


def stop(workers) -> None:
    """End the workers at once: SIGTERM (each then ends its players' programs), SIGKILL for any still alive
    after the grace, then the program groups they recorded. A second Ctrl-C meanwhile is ignored: cut short,
    the stop would leave workers running."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if threading.current_thread() is threading.main_thread() else None
    try:
        for worker in workers:
            if worker.alive():
                worker.process.terminate()
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for worker in workers:
            try:
                worker.process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.process.kill()
                worker.process.wait()
            worker._kill_program_groups()
            worker._release()
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def run_calls(function, calls, workers: int, finished) -> None:
    """Run function(*call) for every call on up to `workers` worker processes, calling finished(call, result)
    in the parent as each ends. The first failure (an exception, a worker's death) or Ctrl-C stops every
    worker at once and is raised, with the call it came from attached as ``error.call``."""
    pending = deque(calls)
    started = [Worker() for _ in range(min(workers, len(pending)))]
    running = {}
    try:
        for worker in started:
            call = pending.popleft()
            worker.submit(function, *call)
            running[worker] = call
        while running:
            wait([handle for worker in running for handle in worker.handles()])
            for worker in running:
                worker.pump()
            for worker in [worker for worker in running if worker.ready()]:
                call = running.pop(worker)
                try:
                    result = worker.collect()
                except BaseException as error:
                    error.call = call
                    raise
                finished(call, result)
                if pending:
                    call = pending.popleft()
                    worker.submit(function, *call)
                    running[worker] = call
    except BaseException:
        stop(started)
        raise
    for worker in started:
        worker.close()

"""Runs at scale: a run's deals split into shards, played on local worker processes, written as Parquet.

A run directory holds ``run.json`` (the configuration), ``records/shard-NNNNNN.parquet`` (one row per
deal: the engine's record columns and the fan counts of the ruleset's fans, ``fan_<id>``, or
``fan_<id>_<seat>`` in the 血战 family where a deal has several wins) and the summary tables
(``fan_frequency.parquet``, ``outcomes.parquet`` and the family's money tables: ``beans.parquet`` and
``seats.parquet`` for 二人麻将's 富贵豆 rooms, ``money.parquet``, ``wins.parquet`` and ``seats.parquet`` for
血战, priced in the rooms of the family's rooms file or a given one; ``sim.families``). Shard k holds deals
k*S .. (k+1)*S - 1 and is a pure function of the configuration (each deal depends only on the seed and its
index), so the files are the same whatever the number of workers. Every file is written to a temporary
name and renamed, and carries the configuration, the ruleset file's text and the package versions as
schema metadata; a run that is interrupted (Ctrl-C, a killed worker, a full disk) resumes with
``--resume``, playing only the shards not yet written. ``sim.core.run_directory`` keeps one writer per
directory, the manifest of the shards and their check: a resume replays an unsound shard, a reader refuses
it, and a resume after a change to the code is refused unless ``allow_code_change``.

Workers are local processes started with the spawn method (``sim.core.worker_processes``; the parent compiles,
or loads, the engine first so that they load it from the cache instead of compiling it each), or the
workers of an existing Dask cluster (``--backend dask --scheduler ADDRESS``), which play the same shards
into the same files; their machines must see the run directory. A table with a user's player always plays
in worker processes, one at least, never in the parent (docs/write-a-player.md): whatever the player does,
the parent reports it and keeps Ctrl-C. A run on one worker without one plays its shards in the parent,
in batches of a few thousand deals, so that Ctrl-C stops it within seconds.
"""

import inspect
import json
import os
import shutil
import threading
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from analysis.calibration import calibration_table, format_calibration
from analysis.fan_tables import fan_frequency
from analysis.player_faults import fault_counts, format_faults
from kernels.compile_cache import cache_files_used, source_key
from sim.core import decision_logs, event_logs, run_directory
from sim.core.result_files import write_table, write_text_atomically
from sim.core.rooms import Room, load_rooms
from sim.core.ruleset import load_ruleset
from sim.core.run_directory import RECORDS, RUN_FILE, RunError
from sim.core.run_records import (
    ANALYSIS_COPIES,
    RunConfig,
    read_records,
    read_run_file,
    read_win_chances,
    shard_path,
    shards,
)
from sim.core.size_limits import check_memory
from sim.core.terminal_text import pad
from sim.core.waiting_limits import seconds_from_environment
from sim.core.worker_processes import WorkerDied, play_here, run_calls
from sim.families import default_texts, family_of, rooms_path
from sim.players.player_host import HostedSeat
from sim.players.player_text import players_label, split_players
from sim.players.user_players import (
    PythonSeat,
    builtin_numba_seat,
    family_seat,
    is_user_player,
    user_player_label,
)
from sim.runs.calibration_lineups import lineup_note


def default_directory(config: RunConfig) -> Path:
    """results/<ruleset>-<player>-v-<player>[-v-...]-seed<seed>, players without their parameters unless changed
    (a user player by its class name, or `exec`)."""
    heuristics = family_of(load_ruleset(config.ruleset)).players
    names = []
    numba_players = getattr(heuristics, "NUMBA_PLAYERS", {})
    for text in config.players:
        builtin = builtin_numba_seat(text, numba_players)
        if builtin is not None:
            name = text.strip().partition(":")[0].strip()
            if builtin.text != builtin_numba_seat(name, numba_players).text:
                name += "-" + text.partition(":")[2].replace("=", "").replace(",", "-")
            names.append(name)
            continue
        if family_seat(text, heuristics) is not None:  # a family's own kind of player, by its prefix
            names.append(text.strip().partition(":")[0])
            continue
        if is_user_player(text, heuristics.NAMES):
            names.append(user_player_label(text))
            continue
        kind, parameters, _ = heuristics.parse_player(text)
        default_parameters = heuristics.parse_player(heuristics.NAMES[kind])[1]
        name = heuristics.NAMES[kind]
        if not np.array_equal(parameters, default_parameters):
            name += "-" + text.partition(":")[2].replace("=", "").replace(",", "-")
        names.append(name)
    stem = Path(config.ruleset).stem
    return Path("results") / f"{stem}-{'-v-'.join(names)}-seed{config.seed}"






def check_seats(ruleset, seats: int) -> None:
    """A RunError unless the ruleset is played at `seats` seats."""
    if seats not in ruleset.players:
        allowed = " or ".join(str(count) for count in ruleset.players)
        raise RunError(f"{ruleset.id} is played by {allowed} players, not {seats}")


def check_sessions(ruleset, session_length: int) -> None:
    """A RunError when the ruleset's family deals no sessions (its engine's PLAYS_SESSIONS is False: in 国标 the
    deal's number places it in its match) and a session length is given."""
    if session_length and not getattr(family_of(ruleset).engine, "PLAYS_SESSIONS", True):
        raise RunError(f"{ruleset.id}: the dealer and the winds follow the deal's place in its match, so there are "
                       f"no sessions; give no --session-length (or 0), not {session_length}")


def seated_players(ruleset, texts=None):
    """The players of a run, one per seat (texts: a list or one string `A,B[,...]`; None: greedy in every
    seat of the ruleset's default table); the ruleset says how many seats it allows."""
    if texts is None:
        texts = ["greedy"] * ruleset.players[0]
    texts = split_players(texts) if isinstance(texts, str) else list(texts)
    check_seats(ruleset, len(texts))
    return family_of(ruleset).parse_players(texts, len(texts))


def play_shard(config: RunConfig, directory: Path, index: int, first: int, count: int, logs: bool = False,
               in_batches: bool = False, decision_seats: tuple = ()) -> tuple[int, dict]:
    """Play one shard and write it (with `logs`, its event log first; with `decision_seats`, those seats'
    decisions first, sim.core.decision_logs); returns its number of deals and its manifest entry. Runs in a
    worker, or `in_batches` of a few thousand deals in the parent, where Ctrl-C waits for the engine to return
    (the records are the same: each deal depends only on the seed and its index, and every batch starts a
    session)."""
    ruleset = load_ruleset(config.ruleset)
    family = family_of(ruleset)
    players = seated_players(ruleset, config.players)
    decisions = None
    try:
        if logs or decision_seats:
            frame, log, decisions = _play_logged(config, ruleset, players, first, count, logs, decision_seats)
        else:
            batches = event_logs.chunks(first, count, config.session_length) if in_batches else [(first, count)]
            frame = pd.concat([family.records_frame(family.engine.play(ruleset, players, config.seed, deals, start,
                                                                       config.session_length), ruleset)
                               for start, deals in batches], ignore_index=True)
    finally:
        players.close()
    metadata = run_directory.shard_metadata(config.metadata(ruleset.source), index, first, count)
    log_file = event_logs.log_path(directory, index) if logs else None
    if logs:  # before the records: a shard in the manifest then has its log
        write_table(log, log_file, metadata)
    decisions_file = decision_logs.decisions_path(directory, index) if decision_seats else None
    if decision_seats:
        write_table(decisions, decisions_file, {**metadata, **decision_logs.file_metadata(decision_seats)})
    path = shard_path(directory, index)
    write_table(frame, path, metadata)
    return count, run_directory.manifest_entry(path, first, count, log_file, log.num_rows if logs else 0,
                                               decisions_file, decisions.num_rows if decision_seats else 0,
                                               decision_seats)


def _decisions_option(decision_seats: tuple) -> dict:
    """The engine's keyword for keeping decisions, given only when some are kept (a run without them plays as
    it always did)."""
    return {"decision_seats": decision_seats} if decision_seats else {}


DECISION_MONEY_ROOM = Room("decisions", stake=1, fee=0, min_entry=0, max_entry=0)  # the money a decision row carries


def _play_logged(config: RunConfig, ruleset, players, first: int, count: int, logs: bool = True,
                 decision_seats: tuple = ()) -> tuple[pd.DataFrame, pa.Table | None, pa.Table | None]:
    """A shard's records, event log (with `logs`) and decisions (of `decision_seats`), played in batches small
    enough for the logs' room (sim.core.event_logs, sim.core.decision_logs)."""
    family = family_of(ruleset)
    size = decision_logs.CHUNK_DEALS if decision_seats else event_logs.LOG_CHUNK_DEALS
    frames, event_tables, decision_tables = [], [], []
    for start, deals in event_logs.chunks(first, count, config.session_length, size):
        records = family.engine.play(ruleset, players, config.seed, deals, start, config.session_length, keep_log=logs,
                                     **_decisions_option(decision_seats))
        frame = family.records_frame(records, ruleset)
        frames.append(frame)
        if logs:
            event_tables.append(family.event_log.log_table(records.log, records.columns))
        if decision_seats:
            money = family.money.seat_changes(frame, DECISION_MONEY_ROOM)
            decision_tables.append(decision_logs.table_of(records.decisions, start, money))
    return (pd.concat(frames, ignore_index=True),
            pa.concat_tables(event_tables).combine_chunks() if logs else None,
            pa.concat_tables(decision_tables).combine_chunks() if decision_seats else None)


def _prepare(config: RunConfig, directory: Path, resume: bool, ruleset, allow_code_change: bool, notify,
             logs: bool = False, decision_seats: tuple = ()) -> tuple[list, dict, bool, bool, tuple]:
    """Check the claimed output directory; returns the shards still to play, the manifest's entries, whether
    this call started the run (wrote run.json), whether the shards are played with their event logs (when
    asked, or when the run already has logs: a resume finishes a logged run with its logs) and whose decisions
    they keep (as asked, or as the run already keeps them; a resume asking for other seats is refused)."""
    run_file = directory / RUN_FILE
    wanted = config.metadata(ruleset.source)
    run_directory.remove_scratch(directory)
    if not run_directory.holds_anything(directory):
        try:
            write_text_atomically(run_file, json.dumps({**wanted, "source_hash": source_key()}, indent=2, ensure_ascii=False) + "\n")
            run_directory.write_manifest(directory, {})
        except OSError as error:
            raise RunError(f"cannot write the run to {directory}: {error.strerror or error}") from error
        return shards(config), {}, True, logs, decision_seats
    if not resume:
        raise RunError(f"{directory} is not empty; give --resume to finish the run there, or another --out")
    existing = read_run_file(directory)
    if any(existing.get(key) != wanted[key] for key in wanted):
        differing = sorted(key for key in wanted if existing.get(key) != wanted[key])
        raise RunError(f"{directory} holds a different run (it differs in {', '.join(differing)}); it is left as it is")
    entries = run_directory.read_manifest(directory)
    if entries is None:
        raise RunError(f"{directory} was written by an mjsim without shard manifests; start the run again in another --out")
    logs = logs or run_directory.has_logs(entries)
    kept_seats = run_directory.decision_seats(entries)
    if kept_seats is not None and decision_seats and tuple(decision_seats) != kept_seats:
        raise RunError(f"{directory} keeps the decisions of seat {','.join(map(str, kept_seats))}, not "
                       f"{','.join(map(str, decision_seats))}; resume it with those seats, or start another --out")
    if kept_seats is None and decision_seats and entries:
        raise RunError(f"{directory} was started without --decisions: its shards have no decisions; start another --out")
    decision_seats = kept_seats or tuple(decision_seats)
    todo = []
    for shard in shards(config):
        path, log = shard_path(directory, shard[0]), event_logs.log_path(directory, shard[0])
        decisions = decision_logs.decisions_path(directory, shard[0])
        problem = run_directory.shard_problem(path, *shard, wanted, entries)
        log_problem = run_directory.log_problem(log, *shard, wanted, entries) if logs and problem is None else None
        if decision_seats and problem is None and log_problem is None:
            log_problem = run_directory.log_problem(decisions, *shard, wanted, entries, run_directory.DECISIONS_KEY)
            log = decisions
        if problem is None and log_problem is None:
            continue
        # Checked at the first shard to play, before anything is set aside: a complete run is read whatever the
        # code, since reading mixes nothing, while playing a shard now would mix two engines' deals.
        if existing.get("source_hash") != source_key() and not allow_code_change:
            raise RunError(
                f"the code has changed since the run in {directory} was started (source {existing.get('source_hash', 'unrecorded')}, "
                f"now {source_key()}): finishing it would mix two engines' deals; give --allow-code-change to finish it anyway"
            )
        todo.append(shard)
        entries.pop(path.name, None)
        if problem not in (None, "missing"):
            moved = run_directory.set_aside(directory, path)
            notify(f"{path.name}: {problem}; moved to {moved.relative_to(directory)} and played again")
        for kept in (event_logs.log_path(directory, shard[0]), decisions):
            if kept.exists() or kept.is_symlink():  # the shard's logs are written again: the old ones are kept aside
                moved = run_directory.set_aside(directory, kept)
                if kept == log and log_problem not in (None, "missing"):
                    notify(f"{kept.relative_to(directory)}: {log_problem}; moved to {moved.relative_to(directory)} and its shard played again")
                else:
                    notify(f"{kept.relative_to(directory)}: moved to {moved.relative_to(directory)}, since its shard is played again")
    return todo, entries, False, logs, decision_seats








@dataclass
class RunResult:
    directory: Path
    records: pd.DataFrame
    fan_table: pd.DataFrame
    outcomes: pd.DataFrame
    played: int  # deals played by this call (not those resumed)
    seconds: float
    money: dict[str, pd.DataFrame]  # the family's money tables by file stem: 富贵豆 (beans, seats) or 血战 (money, wins, seats)
    calibration: pd.DataFrame | None = None  # where players reported chances of winning (analysis.calibration)
    faults: dict | None = None  # seat -> deals in which its player faulted (analysis.player_faults)
    players: tuple = ()  # the canonical player texts, one per seat
    ruleset: str = ""  # the ruleset's id
    calibration_note: str | None = None  # ev seated in a lineup its curves were not fitted on (sim.players.ev_calibration)
    defaults: dict | None = None  # the family's built-in players by name, their default texts (players_label)

    @property
    def beans(self) -> pd.DataFrame:
        return self.money["beans"]

    @property
    def seats(self) -> pd.DataFrame:
        return self.money["seats"]


def run(config: RunConfig, directory: Path, workers: int = 0, resume: bool = False, progress=None, rooms=None,
        scheduler: str | None = None, allow_code_change: bool = False, notify=None, logs: bool = False,
        decision_seats: tuple = ()) -> RunResult:
    """Play the run's missing shards on `workers` local processes (0: all cores), or on the Dask cluster
    at `scheduler`, then write its tables (`rooms`: a rooms file for the 富贵豆 tables, default the
    shipped one). `notify` receives one line per shard (or event log) set aside and played again. With
    `logs`, every shard also gets its event log (sim.core.event_logs), listed in the manifest; a resume of a run
    that has logs goes on writing them. With `decision_seats`, every shard also gets those seats' decisions
    (sim.core.decision_logs, read by ``sim.rl.decisions``), listed in the manifest likewise."""
    config.check()
    ruleset = load_ruleset(config.ruleset)
    check_sessions(ruleset, config.session_length)
    players = seated_players(ruleset, config.players)
    decision_seats = tuple(sorted(set(decision_seats)))
    if decision_seats and "decision_seats" not in inspect.signature(family_of(ruleset).engine.play).parameters:
        raise RunError(f"--decisions: the {family_of(ruleset).title} engine ({ruleset.id}) does not keep decisions yet")
    if any(not 0 <= seat < len(players.names) for seat in decision_seats):
        raise RunError(f"--decisions names seats from 0 to {len(players.names) - 1}, not {','.join(map(str, decision_seats))}")
    config = replace(config, players=players.names)  # canonical texts, so that a resume compares like with like
    load_rooms(rooms_path(ruleset, rooms), family_of(ruleset).rooms_file_for(ruleset))  # a bad file found now, not after the deals
    notify = notify or (lambda line: None)
    if directory.exists() and not directory.is_dir():
        raise RunError(f"{directory} exists and is not a directory")
    with run_directory.claimed(directory):
        todo, entries, started, logs, decision_seats = _prepare(config, directory, resume, ruleset, allow_code_change,
                                                                notify, logs, decision_seats)
        try:
            played, seconds = _play(config, directory, ruleset, players, todo, entries, workers, scheduler, progress, logs,
                                    decision_seats)
        except BaseException:
            if started and not entries:  # a failed start leaves nothing a later run trips on
                for name in (RUN_FILE, run_directory.MANIFEST):
                    (directory / name).unlink(missing_ok=True)
                shutil.rmtree(directory / RECORDS, ignore_errors=True)  # only shards no manifest lists
                shutil.rmtree(directory / event_logs.LOGS, ignore_errors=True)
                shutil.rmtree(directory / run_directory.DECISIONS, ignore_errors=True)
            raise
        return summarise(directory, config, ruleset, played, seconds, rooms)


def _play(config, directory, ruleset, players, todo, entries, workers, scheduler, progress, logs=False,
          decision_seats=()) -> tuple[int, float]:
    """Play the shards `todo`, adding each finished one to the manifest at once; returns (deals, seconds)."""
    hosted = players.host is not None
    family = family_of(ruleset)
    stand_ins = _stand_ins(players)
    try:
        # compile (or load) once, before the workers start
        sample = family.engine.play(ruleset, stand_ins, config.seed, 1, keep_log=logs, **_decisions_option(decision_seats))
    finally:
        stand_ins.close()
        players.close()
    workers = workers or os.cpu_count() or 1
    local_workers = 1 if scheduler is not None else min(workers, max(len(todo), 1))  # a cluster's memory is its own
    _check_run_memory(config, family.records_frame(sample, ruleset), local_workers, logs, bool(decision_seats))
    start = time.perf_counter()
    played = 0

    def finished(shard, count, entry):
        nonlocal played
        entries[shard_path(directory, shard[0]).name] = entry
        run_directory.write_manifest(directory, entries)
        played += count
        if progress is not None:
            progress(count)

    if scheduler is not None:
        _run_on_dask(scheduler, config, directory.resolve(), todo, finished, logs, decision_seats)
    elif (workers == 1 or len(todo) <= 1) and not hosted:
        for shard in todo:
            finished(shard, *play_shard(config, directory, *shard, logs, in_batches=True, decision_seats=decision_seats))
    else:
        _run_on_processes(config, directory, todo, min(workers, len(todo)), finished, logs, decision_seats)
    return played, time.perf_counter() - start


class _FirstLegal:
    """A stand-in for a user's player while the parent compiles: the first legal action."""

    def act(self, observation):
        return observation.legal_codes[0]


def _stand_ins(players):
    """The table for compiling ahead in the parent: each user's player replaced by a Python stand-in, so that
    the loop cached for such tables is compiled once here and loaded by the workers, and no user's code runs
    in the parent (a numba player's own loop is compiled by each worker)."""
    if players.host is None:
        return players
    users = tuple(PythonSeat("stand-in", _FirstLegal()) if isinstance(user, HostedSeat) else user for user in players.users)
    return replace(players, users=users, host=None)


SHARD_COPIES = 3  # a worker holds its shard's records about three times over while it builds and writes them
LOG_BYTES_PER_DEAL = 4096  # a shard's event log in memory: about 100 events of 22 bytes a deal, twice over
DECISION_BYTES_PER_DEAL = 200_000  # a shard's decisions in memory: some 30 a seat and deal of up to 1.8 KB, at
# four seats, held three times over while written


def _check_run_memory(config: RunConfig, sample: pd.DataFrame, workers: int, logs: bool, decisions: bool = False) -> None:
    """A RunError before any shard is played if the run cannot fit in memory: its workers' shards, or all its
    records, which the end of the run reads to make its tables (`sample`: the records of one deal)."""
    per_deal = int(sample.memory_usage(index=False).sum())
    check_memory(config.deals * per_deal * ANALYSIS_COPIES, f"making the tables of {config.deals:,} deals",
                 "play fewer deals (--deals)", RunError)
    check_memory(workers * config.shard_size * (per_deal * SHARD_COPIES + (LOG_BYTES_PER_DEAL if logs else 0)
                                                + (DECISION_BYTES_PER_DEAL if decisions else 0)),
                 f"{workers} workers each playing a shard of {config.shard_size:,} deals",
                 "give a smaller --shard-size or fewer --workers", RunError)




def _run_on_processes(config, directory, todo, workers, finished, logs=False, decision_seats=()) -> None:
    """The shards on local worker processes. Any failure or Ctrl-C stops them all at once: queued shards
    are not started, running ones killed (their half-written temporary files are removed by the next run)."""
    try:
        run_calls(play_shard, [(config, directory, *shard, logs, False, decision_seats) for shard in todo], workers,
                  lambda call, result: finished(call[2:5], *result))
    except WorkerDied as died:
        shard = died.call[2]
        if 0 <= died.seat < len(config.players):
            what = f"player {config.players[died.seat]} {died.how()} at deal {died.deal}, seat {died.seat},"
        else:
            what = f"the worker process {died.ended()}"
        raise RunError(f"{what} while playing shard {shard}; the shards already written are kept: finish the run "
                       "with --resume") from None


DASK_TIMEOUT_VARIABLE = "MJSIM_DASK_TIMEOUT"  # seconds to wait for the scheduler
DEFAULT_DASK_TIMEOUT = 20.0


def _run_on_dask(scheduler: str, config: RunConfig, directory: Path, todo, finished, logs=False, decision_seats=()) -> None:
    """The same shards on an existing Dask cluster; its workers must see `directory` (a shared disk)."""
    try:
        from distributed import as_completed as completed_on_cluster
    except ImportError:
        raise RunError("the dask backend needs dask[distributed]: pip install 'mjsim[dask]'") from None
    from sim.runs.worker_cache import (  # with dask: it builds on distributed's plugin
        PLUGIN_NAME,
        CompiledKernels,
    )

    with _dask_client(scheduler) as client:
        # the kernels compiled (or loaded) here before the run began, for every worker before its first shard
        try:
            client.register_plugin(CompiledKernels(cache_files_used()), name=PLUGIN_NAME)
        except Exception:  # noqa: BLE001, S110  (a worker that cannot take them compiles the kernels itself)
            pass
        futures = {client.submit(_play_shard_on_dask, config, directory, *shard, logs, decision_seats, pure=False): shard
                   for shard in todo}
        try:
            for future in completed_on_cluster(futures):
                finished(futures[future], *future.result())
        except BaseException:
            client.cancel(list(futures))
            raise


def _play_shard_on_dask(config: RunConfig, directory: Path, index: int, first: int, count: int, logs: bool,
                        decision_seats: tuple = ()):
    """``play_shard`` in a Dask worker, which is where its users' players play (not in a host of their own)."""
    play_here()
    return play_shard(config, directory, index, first, count, logs, decision_seats=decision_seats)


DASK_SCHEMES_WITH_PORTS = ("tcp", "tls")
DASK_GRACE = 2.0  # seconds beyond MJSIM_DASK_TIMEOUT before a connection that will not end is given up


def check_scheduler_address(scheduler: str) -> None:
    """A RunError unless `scheduler` reads as a Dask address (scheme://host:port, the port from 1 to 65535)."""
    try:
        from distributed.comm.addressing import get_address_host_port, parse_address
    except ImportError:
        raise RunError("the dask backend needs dask[distributed]: pip install 'mjsim[dask]'") from None
    try:
        scheme, _ = parse_address(scheduler, strict=False)
        if scheme in DASK_SCHEMES_WITH_PORTS:
            host, port = get_address_host_port(scheduler)
            if not host or not 1 <= port <= 65535:
                raise ValueError(f"port {port} is not from 1 to 65535" if host else "no host")
    except (ValueError, TypeError) as error:
        raise RunError(f"--scheduler {scheduler!r} is not a Dask scheduler's address like tcp://10.0.0.1:8786 ({error})") from None


def _dask_client(scheduler: str):
    """A Client of the scheduler at `scheduler`, or one RunError within MJSIM_DASK_TIMEOUT (and a grace): a bad
    address, nothing listening, or a listener that is no Dask scheduler. Client waits for ever on one that
    accepts and says nothing, and fails in its own ways on one that answers garbage, so it is made in a
    thread that is given up on at the deadline (a client it makes after that is closed)."""
    from distributed import Client

    check_scheduler_address(scheduler)
    seconds = seconds_from_environment(DASK_TIMEOUT_VARIABLE, DEFAULT_DASK_TIMEOUT, RunError)
    outcome, lock = {}, threading.Lock()

    def connect():
        try:
            client = Client(scheduler, timeout=f"{seconds}s")
        except BaseException as error:  # noqa: BLE001  (what a hostile peer makes Client raise is anybody's guess)
            outcome["error"] = error
            return
        with lock:
            if outcome.get("given up"):
                client.close()
            else:
                outcome["client"] = client

    thread = threading.Thread(target=connect, name="mjsim-dask-connect", daemon=True)
    thread.start()
    thread.join(seconds + DASK_GRACE)
    with lock:
        if "client" in outcome:
            return outcome["client"]
        outcome["given up"] = True
    error = outcome.get("error")
    if error is None:
        reason = f"no answer as a Dask scheduler within {seconds:g} s"
    elif isinstance(error, (OSError, TimeoutError)):
        reason = str(error) or type(error).__name__
    else:
        reason = f"it does not answer as a Dask scheduler ({type(error).__name__}: {str(error)[:200]})"
    raise RunError(f"cannot reach the Dask scheduler at {scheduler}: {reason}")
















def summarise(directory: Path, config: RunConfig, ruleset, played: int = 0, seconds: float = 0.0, rooms=None) -> RunResult:
    """Read every shard of a finished run and write its summary tables (`rooms`: a rooms file, default the
    family's own)."""
    family = family_of(ruleset)
    room_list = load_rooms(rooms_path(ruleset, rooms), family.rooms_file_for(ruleset))
    records = read_records(directory, config, ruleset)
    metadata = config.metadata(ruleset.source)
    fan_table = fan_frequency(family.win_rows(records, ruleset), len(records), ruleset)
    outcomes = family.outcome_summary(records)
    write_table(fan_table, directory / "fan_frequency.parquet", metadata)
    write_table(outcomes, directory / "outcomes.parquet", metadata)
    rooms_metadata = {**metadata, "rooms": [asdict(room) for room in room_list]}
    money = family.money.run_tables(records, room_list)
    for name, table in money.items():
        write_table(table, directory / f"{name}.parquet", rooms_metadata)
    chances = read_win_chances(directory, config, ruleset)
    calibration = None
    if not chances.empty:
        calibration = calibration_table(chances, records, family.money.seat_wins(records), config.players)
        write_table(calibration, directory / "calibration.parquet", metadata)
    return RunResult(directory, records, fan_table, outcomes, played, seconds, money, calibration, fault_counts(records),
                     tuple(config.players), ruleset.id, lineup_note(ruleset, tuple(config.players)),
                     default_texts(ruleset))


def run_title(result: RunResult) -> str:
    """What a run is, in a line's opening: `erren, greedy v greedy`."""
    return ", ".join(part for part in (result.ruleset, players_label(result.players, result.defaults)) if part)


def format_summary(result: RunResult, top: int = 10) -> str:
    outcomes = result.outcomes.set_index("statistic")["value"]
    deals = int(outcomes["deals"])
    rate = f", {result.played / result.seconds:,.0f} deals/s" if result.played and result.seconds > 0 else ""
    if "mean_fan_total" in outcomes:  # one winner at most per deal
        line = (f"wins {outcomes['win_share']:.2%}, draws {outcomes['draw_share']:.2%}, self-drawn "
                f"{outcomes['self_drawn_share_of_wins']:.2%} of wins, mean fan total {outcomes['mean_fan_total']:.2f}")
        if "mean_points" in outcomes:  # wins priced in points (erren-challenge): what a win is paid is its points
            line += (f", paid per win {outcomes['mean_paid_per_win']:,.0f} points (median {outcomes['points_q50']:,.0f}, "
                     f"役满 in {outcomes['limit_share_of_wins']:.2%} of wins)")
        elif "mean_paid_per_win" in outcomes:  # tables written before the row have no paid per win
            line += f", paid per win {outcomes['mean_paid_per_win']:.2f} (fans + flowers, doubled)"
    else:  # 血战: several winners a deal
        line = (f"wins {outcomes['wins_per_deal']:.2f} a deal, wall run out with two or more players in (查叫) "
                f"{outcomes['draw_share']:.2%}, self-drawn {outcomes['self_drawn_share_of_wins']:.2%} of wins, "
                f"mean win value {outcomes['mean_win_value']:.2f} units")
        if "mean_paid_per_win" in outcomes:
            line += f", paid per win {outcomes['mean_paid_per_win']:.2f} units (by all its payers)"
    lines = [
        (f"{deals:,} deals of {run_title(result)} in {result.directory} ({result.played:,} played now in "
         f"{result.seconds:.1f} s{rate})"),
        line,
        "top fans (share of wins):",
    ]
    for row in result.fan_table.sort_values("per_win", ascending=False).head(top).itertuples():
        lines.append(f"  {pad(row.name, 10)}{row.value:>3}  {row.per_win:7.2%}  [{row.per_win_low:.2%}, {row.per_win_high:.2%}]")
    text = "\n".join(lines) + "\n" + format_faults(result.faults or {}, result.players, deals)
    if result.calibration is not None:
        text += format_calibration(result.calibration)
    if result.calibration_note:
        text += result.calibration_note + "\n"
    return text


MONEY_TITLES = {
    "beans": "富贵豆 change per deal, by room and role",
    "money": "money per seat and deal, by room and source (win, kong, 查叫, 关死; all = their sum less the fee)",
    "wins": "the winner's money from a win, in units of the base stake, by way of winning",
    "seats": "per seat and dealer / non-dealer",
}


def format_tables(result: RunResult) -> str:
    """Every table of a run, readably: outcomes, all fans, then the family's money tables."""
    def show(table: pd.DataFrame, digits: str = ".4g") -> str:
        with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_rows", 200):
            return table.to_string(index=False, float_format=lambda value: f"{value:{digits}}")

    header = f"{run_title(result)}: {len(result.records):,} deals in {result.directory}"
    parts = [header, "outcomes\n" + show(result.outcomes), "fans\n" + show(result.fan_table.drop(columns=["fan"]))]
    for name, table in result.money.items():
        shown = table.drop(columns=["house_share_of_moved"]) if name == "beans" else table
        parts.append(MONEY_TITLES[name] + "\n" + show(shown, ".1f" if name == "beans" else ".4g"))
        if name == "beans":
            house = table.drop_duplicates("room")[["room", "house_per_deal", "house_share_of_moved"]]
            parts.append("house take (台费)\n" + "\n".join(
                f"  {pad(row.room, 8)}{row.house_per_deal:>8.0f} beans a deal, {row.house_share_of_moved:.2%} of all beans moved"
                for row in house.itertuples()))
    if result.calibration is not None:
        parts.append(format_calibration(result.calibration).rstrip("\n"))
    if result.calibration_note:
        parts.append(result.calibration_note)
    faults = format_faults(result.faults or {}, result.players, len(result.records))
    if faults:
        parts.append(faults.rstrip("\n"))
    return "\n\n".join(parts) + "\n"

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
``--resume``, playing only the shards not yet written. ``sim.run_directory`` keeps one writer per
directory, the manifest of the shards and their check: a resume replays an unsound shard, a reader refuses
it, and a resume after a change to the code is refused unless ``allow_code_change``.

Workers are local processes started with the spawn method (``sim.worker_processes``; the parent compiles,
or loads, the engine first so that they load it from the cache instead of compiling it each), or the
workers of an existing Dask cluster (``--backend dask --scheduler ADDRESS``), which play the same shards
into the same files; their machines must see the run directory. A table with a user's player always plays
in worker processes, one at least, never in the parent (docs/write-a-player.md): whatever the player does,
the parent reports it and keeps Ctrl-C. A run on one worker without one plays its shards in the parent,
in batches of a few thousand deals, so that Ctrl-C stops it within seconds.
"""

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
import pyarrow.compute as pc
import pyarrow.parquet as pq

from analysis.calibration import calibration_table, format_calibration
from analysis.fan_tables import fan_frequency
from analysis.player_faults import fault_counts, format_faults
from analysis.rooms import load_rooms
from analysis.tables import write_table, write_text_atomically
from kernels.compile_cache import cache_files_used, source_key
from sim import event_logs, run_directory, win_chances
from sim.ev_calibration import lineup_note
from sim.families import default_texts, family_of, rooms_path
from sim.player_text import players_label, split_players
from sim.input_limits import LARGEST_TOML_FILE, read_json
from sim.ruleset import XUEZHAN_SEAT_COUNTS, RulesetError, load_ruleset, parse_ruleset_text
from sim.run_directory import RECORDS, RUN_FILE, RunError, json_excerpt, whole_number_problem
from sim.size_limits import LARGEST_DEALS, LARGEST_SEED, LARGEST_SESSION, LARGEST_SHARD, MAX_SHARDS, check_memory
from sim.terminal_text import pad
from sim.player_host import HostedSeat
from sim.user_players import PythonSeat, builtin_numba_seat, is_user_player, user_player_label
from sim.waiting_limits import seconds_from_environment
from sim.worker_processes import WorkerDied, play_here, run_calls


@dataclass(frozen=True)
class RunConfig:
    ruleset: str  # id or path, as given
    players: tuple[str, ...]  # canonical player texts, one per seat
    deals: int
    seed: int
    shard_size: int = 50_000
    session_length: int = 0

    def check(self) -> None:
        """A RunError unless every setting is within sim.size_limits (the command line checks its options
        against the same numbers first; a run.json is checked with this too)."""
        for name, value, low, high in (
            ("--deals", self.deals, 1, LARGEST_DEALS), ("--seed", self.seed, 0, LARGEST_SEED),
            ("--shard-size", self.shard_size, 1, LARGEST_SHARD),
            ("--session-length", self.session_length, 0, min(LARGEST_SESSION, max(self.shard_size, 0))),
        ):
            if type(value) is not int or not low <= value <= high:
                raise RunError(f"{name} must be a whole number from {low:,} to {high:,}, not {value!r}")
        if -(-self.deals // self.shard_size) > MAX_SHARDS:
            raise RunError(f"{self.deals:,} deals in shards of {self.shard_size:,} make more than {MAX_SHARDS:,} shards; give a larger --shard-size")
        if self.session_length and self.shard_size % self.session_length:
            raise RunError("--shard-size must be a multiple of --session-length, so that no session spans two shards")

    def metadata(self, ruleset_source: str) -> dict:
        return {**asdict(self), "players": list(self.players), "ruleset_source": ruleset_source}


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


def shards(config: RunConfig) -> list[tuple[int, int, int]]:
    """(shard index, first deal, deals) of every shard."""
    return [
        (index, first, min(config.shard_size, config.deals - first))
        for index, first in enumerate(range(0, config.deals, config.shard_size))
    ]


def shard_path(directory: Path, index: int) -> Path:
    return directory / RECORDS / f"shard-{index:06d}.parquet"


def check_seats(ruleset, seats: int) -> None:
    """A RunError unless the ruleset is played at `seats` seats."""
    if seats not in ruleset.players:
        allowed = " or ".join(str(count) for count in ruleset.players)
        raise RunError(f"{ruleset.id} is played by {allowed} players, not {seats}")


def seated_players(ruleset, texts=None):
    """The players of a run, one per seat (texts: a list or one string `A,B[,...]`; None: greedy in every
    seat of the ruleset's default table); the ruleset says how many seats it allows."""
    if texts is None:
        texts = ["greedy"] * ruleset.players[0]
    texts = split_players(texts) if isinstance(texts, str) else list(texts)
    check_seats(ruleset, len(texts))
    return family_of(ruleset).parse_players(texts, len(texts))


def play_shard(config: RunConfig, directory: Path, index: int, first: int, count: int, logs: bool = False,
               in_batches: bool = False) -> tuple[int, dict]:
    """Play one shard and write it (with `logs`, its event log first); returns its number of deals and its
    manifest entry. Runs in a worker, or `in_batches` of a few thousand deals in the parent, where Ctrl-C
    waits for the engine to return (the records are the same: each deal depends only on the seed and its
    index, and every batch starts a session)."""
    ruleset = load_ruleset(config.ruleset)
    family = family_of(ruleset)
    players = seated_players(ruleset, config.players)
    try:
        if logs:
            frame, log = _play_logged(config, ruleset, players, first, count)
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
    path = shard_path(directory, index)
    write_table(frame, path, metadata)
    return count, run_directory.manifest_entry(path, first, count, log_file, log.num_rows if logs else 0)


def _play_logged(config: RunConfig, ruleset, players, first: int, count: int) -> tuple[pd.DataFrame, pa.Table]:
    """A shard's records and event log, played in batches small enough for the log's room (sim.event_logs)."""
    family = family_of(ruleset)
    frames, logs = [], []
    for start, deals in event_logs.chunks(first, count, config.session_length):
        records = family.engine.play(ruleset, players, config.seed, deals, start, config.session_length, keep_log=True)
        frames.append(family.records_frame(records, ruleset))
        logs.append(family.event_log.log_table(records.log, records.columns))
    return pd.concat(frames, ignore_index=True), pa.concat_tables(logs).combine_chunks()


def _prepare(config: RunConfig, directory: Path, resume: bool, ruleset, allow_code_change: bool, notify,
             logs: bool = False) -> tuple[list, dict, bool, bool]:
    """Check the claimed output directory; returns the shards still to play, the manifest's entries, whether
    this call started the run (wrote run.json), and whether the shards are played with their event logs:
    when asked, or when the run already has logs (a resume finishes a logged run with its logs)."""
    run_file = directory / RUN_FILE
    wanted = config.metadata(ruleset.source)
    run_directory.remove_scratch(directory)
    if not run_directory.holds_anything(directory):
        try:
            write_text_atomically(run_file, json.dumps({**wanted, "source_hash": source_key()}, indent=2, ensure_ascii=False) + "\n")
            run_directory.write_manifest(directory, {})
        except OSError as error:
            raise RunError(f"cannot write the run to {directory}: {error.strerror or error}") from error
        return shards(config), {}, True, logs
    if not resume:
        raise RunError(f"{directory} is not empty; give --resume to finish the run there, or another --out")
    existing = read_run_file(directory)
    if any(existing.get(key) != wanted[key] for key in wanted):
        differing = sorted(key for key in wanted if existing.get(key) != wanted[key])
        raise RunError(f"{directory} holds a different run (it differs in {', '.join(differing)}); it is left as it is")
    if existing.get("source_hash") != source_key() and not allow_code_change:
        raise RunError(
            f"the code has changed since the run in {directory} was started (source {existing.get('source_hash', 'unrecorded')}, "
            f"now {source_key()}): finishing it would mix two engines' deals; give --allow-code-change to finish it anyway"
        )
    entries = run_directory.read_manifest(directory)
    if entries is None:
        raise RunError(f"{directory} was written by an mjsim without shard manifests; start the run again in another --out")
    logs = logs or run_directory.has_logs(entries)
    todo = []
    for shard in shards(config):
        path, log = shard_path(directory, shard[0]), event_logs.log_path(directory, shard[0])
        problem = run_directory.shard_problem(path, *shard, wanted, entries)
        log_problem = run_directory.log_problem(log, *shard, wanted, entries) if logs and problem is None else None
        if problem is None and log_problem is None:
            continue
        todo.append(shard)
        entries.pop(path.name, None)
        if problem not in (None, "missing"):
            moved = run_directory.set_aside(directory, path)
            notify(f"{path.name}: {problem}; moved to {moved.relative_to(directory)} and played again")
        if log.exists() or log.is_symlink():  # the shard's log is written again: the old one is kept aside
            moved = run_directory.set_aside(directory, log)
            if log_problem not in (None, "missing"):
                notify(f"{log.relative_to(directory)}: {log_problem}; moved to {moved.relative_to(directory)} and its shard played again")
            else:
                notify(f"{log.relative_to(directory)}: moved to {moved.relative_to(directory)}, since its shard is played again")
    return todo, entries, False, logs


LARGEST_RUN_FILE = 4 * LARGEST_TOML_FILE + (1 << 20)  # bytes: the ruleset's text, escaped, and the rest
LARGEST_SEATS = max(XUEZHAN_SEAT_COUNTS)  # players in run.json: the most any family seats (the ruleset's own count is checked after)
LONGEST_RULESET_TEXT = 4096  # characters of run.json's ruleset, an id or a path (the longest path Linux takes)


def read_run_file(directory: Path) -> dict:
    """run.json, every field checked (types and the limits of the options); a RunError naming the field."""
    run_file = directory / RUN_FILE
    if not run_file.exists() and not run_file.is_symlink():
        raise RunError(f"{directory} holds no run ({RUN_FILE} is missing); it is left as it is")
    stored = read_json(run_file, RunError, "", LARGEST_RUN_FILE)
    problem = run_file_problem(stored)
    if problem is not None:
        raise RunError(f"{run_file} is damaged ({problem}); it is left as it is")
    return stored


def run_file_problem(stored) -> str | None:
    """What in a parsed run.json is not as a run writes it, or None."""
    if not isinstance(stored, dict):
        return "not a JSON object"
    for field in (*RunConfig.__dataclass_fields__, "ruleset_source"):
        if field not in stored:
            return f"{field} is missing"
    if not isinstance(stored["ruleset"], str) or not stored["ruleset"] or len(stored["ruleset"]) > LONGEST_RULESET_TEXT:
        return f"ruleset = {json_excerpt(stored['ruleset'])} is not a ruleset id or file"
    players = stored["players"]
    if (not isinstance(players, list) or not 1 <= len(players) <= LARGEST_SEATS
            or not all(isinstance(player, str) and player for player in players)):
        return f"players = {json_excerpt(players)} is not a list of 1 to {LARGEST_SEATS} player texts"
    if not isinstance(stored["ruleset_source"], str) or len(stored["ruleset_source"]) > LARGEST_TOML_FILE:
        return f"ruleset_source is not the text of a ruleset file of at most {LARGEST_TOML_FILE:,} characters"
    if "source_hash" in stored and (not isinstance(stored["source_hash"], str) or len(stored["source_hash"]) > 64):
        return f"source_hash = {json_excerpt(stored['source_hash'])} is not a source hash"
    shard_size = stored["shard_size"]
    for name, low, high in (("deals", 1, LARGEST_DEALS), ("seed", 0, LARGEST_SEED), ("shard_size", 1, LARGEST_SHARD),
                            ("session_length", 0, min(LARGEST_SESSION, shard_size if type(shard_size) is int else 0))):
        problem = whole_number_problem(name, stored[name], low, high)
        if problem is not None:
            return problem
    try:
        RunConfig(**{field: stored[field] for field in RunConfig.__dataclass_fields__}).check()
    except RunError as error:
        return str(error)
    return None


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
    calibration_note: str | None = None  # ev seated in a lineup its curves were not fitted on (sim.ev_calibration)
    defaults: dict | None = None  # the family's built-in players by name, their default texts (players_label)

    @property
    def beans(self) -> pd.DataFrame:
        return self.money["beans"]

    @property
    def seats(self) -> pd.DataFrame:
        return self.money["seats"]


def run(config: RunConfig, directory: Path, workers: int = 0, resume: bool = False, progress=None, rooms=None,
        scheduler: str | None = None, allow_code_change: bool = False, notify=None, logs: bool = False) -> RunResult:
    """Play the run's missing shards on `workers` local processes (0: all cores), or on the Dask cluster
    at `scheduler`, then write its tables (`rooms`: a rooms file for the 富贵豆 tables, default the
    shipped one). `notify` receives one line per shard (or event log) set aside and played again. With
    `logs`, every shard also gets its event log (sim.event_logs), listed in the manifest; a resume of a run
    that has logs goes on writing them."""
    config.check()
    ruleset = load_ruleset(config.ruleset)
    players = seated_players(ruleset, config.players)
    config = replace(config, players=players.names)  # canonical texts, so that a resume compares like with like
    load_rooms(rooms_path(ruleset, rooms), family_of(ruleset).rooms_file_for(ruleset))  # a bad file found now, not after the deals
    notify = notify or (lambda line: None)
    if directory.exists() and not directory.is_dir():
        raise RunError(f"{directory} exists and is not a directory")
    with run_directory.claimed(directory):
        todo, entries, started, logs = _prepare(config, directory, resume, ruleset, allow_code_change, notify, logs)
        try:
            played, seconds = _play(config, directory, ruleset, players, todo, entries, workers, scheduler, progress, logs)
        except BaseException:
            if started and not entries:  # a failed start leaves nothing a later run trips on
                for name in (RUN_FILE, run_directory.MANIFEST):
                    (directory / name).unlink(missing_ok=True)
                shutil.rmtree(directory / RECORDS, ignore_errors=True)  # only shards no manifest lists
                shutil.rmtree(directory / event_logs.LOGS, ignore_errors=True)
            raise
        return summarise(directory, config, ruleset, played, seconds, rooms)


def _play(config, directory, ruleset, players, todo, entries, workers, scheduler, progress, logs=False) -> tuple[int, float]:
    """Play the shards `todo`, adding each finished one to the manifest at once; returns (deals, seconds)."""
    hosted = players.host is not None
    family = family_of(ruleset)
    stand_ins = _stand_ins(players)
    try:
        sample = family.engine.play(ruleset, stand_ins, config.seed, 1, keep_log=logs)  # compile (or load) once, before the workers start
    finally:
        stand_ins.close()
        players.close()
    workers = workers or os.cpu_count() or 1
    local_workers = 1 if scheduler is not None else min(workers, max(len(todo), 1))  # a cluster's memory is its own
    _check_run_memory(config, family.records_frame(sample, ruleset), local_workers, logs)
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
        _run_on_dask(scheduler, config, directory.resolve(), todo, finished, logs)
    elif (workers == 1 or len(todo) <= 1) and not hosted:
        for shard in todo:
            finished(shard, *play_shard(config, directory, *shard, logs, in_batches=True))
    else:
        _run_on_processes(config, directory, todo, min(workers, len(todo)), finished, logs)
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


ANALYSIS_COPIES = 4  # a run's records are held about four times over while its tables are made (measured)
SHARD_COPIES = 3  # a worker holds its shard's records about three times over while it builds and writes them
LOG_BYTES_PER_DEAL = 4096  # a shard's event log in memory: about 100 events of 22 bytes a deal, twice over


def _check_run_memory(config: RunConfig, sample: pd.DataFrame, workers: int, logs: bool) -> None:
    """A RunError before any shard is played if the run cannot fit in memory: its workers' shards, or all its
    records, which the end of the run reads to make its tables (`sample`: the records of one deal)."""
    per_deal = int(sample.memory_usage(index=False).sum())
    check_memory(config.deals * per_deal * ANALYSIS_COPIES, f"making the tables of {config.deals:,} deals",
                 "play fewer deals (--deals)", RunError)
    check_memory(workers * config.shard_size * (per_deal * SHARD_COPIES + (LOG_BYTES_PER_DEAL if logs else 0)),
                 f"{workers} workers each playing a shard of {config.shard_size:,} deals",
                 "give a smaller --shard-size or fewer --workers", RunError)


def _records_memory(path: Path, deals: int, wanted=None) -> int:
    """Bytes of reading `deals` records shaped as the shard at `path` (only the columns `wanted` accepts)."""
    row = 0
    for field in pq.read_schema(path):
        if field.name.startswith(win_chances.COLUMN_PREFIX) or (wanted is not None and not wanted(field.name)):
            continue
        try:
            row += max(field.type.bit_width // 8, 1)
        except ValueError:  # not of fixed width
            row += 16
    return deals * row * ANALYSIS_COPIES


def _run_on_processes(config, directory, todo, workers, finished, logs=False) -> None:
    """The shards on local worker processes. Any failure or Ctrl-C stops them all at once: queued shards
    are not started, running ones killed (their half-written temporary files are removed by the next run)."""
    try:
        run_calls(play_shard, [(config, directory, *shard, logs) for shard in todo], workers,
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


def _run_on_dask(scheduler: str, config: RunConfig, directory: Path, todo, finished, logs=False) -> None:
    """The same shards on an existing Dask cluster; its workers must see `directory` (a shared disk)."""
    try:
        from distributed import as_completed as completed_on_cluster
    except ImportError:
        raise RunError("the dask backend needs dask[distributed]: pip install 'mjsim[dask]'") from None
    from sim.worker_cache import PLUGIN_NAME, CompiledKernels

    with _dask_client(scheduler) as client:
        # the kernels compiled (or loaded) here before the run began, for every worker before its first shard
        try:
            client.register_plugin(CompiledKernels(cache_files_used()), name=PLUGIN_NAME)
        except Exception:  # noqa: BLE001, S110  (a worker that cannot take them compiles the kernels itself)
            pass
        futures = {client.submit(_play_shard_on_dask, config, directory, *shard, logs, pure=False): shard for shard in todo}
        try:
            for future in completed_on_cluster(futures):
                finished(futures[future], *future.result())
        except BaseException:
            client.cancel(list(futures))
            raise


def _play_shard_on_dask(config: RunConfig, directory: Path, index: int, first: int, count: int, logs: bool):
    """``play_shard`` in a Dask worker, which is where its users' players play (not in a host of their own)."""
    play_here()
    return play_shard(config, directory, index, first, count, logs)


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


def load_run(directory: Path) -> tuple[RunConfig, object]:
    """The configuration and ruleset of the run in `directory` (for `mjsim analyze`), run.json checked."""
    stored = read_run_file(directory)
    config = RunConfig(**{field: stored[field] for field in RunConfig.__dataclass_fields__})
    config = replace(config, players=tuple(config.players))
    try:
        ruleset = load_ruleset(config.ruleset)
    except RulesetError:
        if not Path(config.ruleset).suffix == ".toml" or Path(config.ruleset).exists():
            raise
        # A ruleset file given by a path that does not reach it from here (a relative path, a moved file):
        # the run keeps the file's text, which is what it was played with.
        try:
            ruleset = parse_ruleset_text(stored["ruleset_source"], f"{config.ruleset} (as kept in {directory / RUN_FILE})")
        except RulesetError as error:
            raise RunError(f"{directory / RUN_FILE} is damaged (its ruleset text: {error})") from None
    if ruleset.source != stored["ruleset_source"]:
        raise RunError(f"the ruleset {config.ruleset} has changed since the run in {directory} was played")
    if len(config.players) not in ruleset.players:
        raise RunError(f"{directory / RUN_FILE} is damaged (players: {len(config.players)} players, but {ruleset.id} "
                       f"is played by {' or '.join(str(count) for count in ruleset.players)}); it is left as it is")
    return config, ruleset


def _checked_shards(directory: Path, config: RunConfig, ruleset) -> list[Path]:
    """The paths of every shard of a finished run, each checked first (sim.run_directory), and the event log
    of every shard whose manifest entry lists one (no reader of the run ever meets an unsound log)."""
    wanted = config.metadata(ruleset.source)
    entries = run_directory.read_manifest(directory)
    paths = []
    for shard in shards(config):
        path = shard_path(directory, shard[0])
        problem = run_directory.shard_problem(path, *shard, wanted, entries)
        if problem == "missing":
            raise RunError(f"{directory} is missing {path.name}; finish the run with --resume")
        if problem is not None:
            raise RunError(f"{path}: {problem}; mjsim run --resume --out {directory} sets it aside and plays it again")
        if entries is not None and run_directory.LOG_KEY in entries[path.name]:
            _check_log(directory, shard, wanted, entries)
        paths.append(path)
    return paths


def _check_log(directory: Path, shard: tuple[int, int, int], wanted: dict, entries: dict | None) -> Path:
    """The path of the shard's event log, checked; a RunError naming it and the repair otherwise."""
    path = event_logs.log_path(directory, shard[0])
    problem = run_directory.log_problem(path, *shard, wanted, entries)
    if problem == "missing":
        raise RunError(f"{directory} is missing the event log {path.relative_to(directory)}; "
                       f"mjsim run --resume --logs --out {directory} plays its shard again with its log")
    if problem is not None:
        raise RunError(f"{path}: {problem}; mjsim run --resume --logs --out {directory} sets it aside and plays its "
                       "shard again with its log")
    return path


def checked_logs(directory: Path, deals=None) -> list[tuple[Path, int, int]]:
    """(path, first deal, deals) of the event log of every shard of the run in `directory` holding one of
    `deals` (all by default), each checked as a shard is (sim.run_directory.log_problem); FileNotFoundError
    when the run has no logs at all, a RunError naming the first log missing or unsound."""
    config, ruleset = load_run(directory)
    entries = run_directory.read_manifest(directory)
    wanted = config.metadata(ruleset.source)
    folder = directory / event_logs.LOGS
    logged = (entries is not None and run_directory.has_logs(entries)) or (folder.is_dir() and any(folder.glob("shard-*")))
    if not logged:
        raise FileNotFoundError(f"{directory} has no event logs (run it with --logs)")
    needed = shards(config)
    if deals is not None:
        indices = {int(deal) // config.shard_size for deal in deals if 0 <= int(deal) < config.deals}
        needed = [shard for shard in needed if shard[0] in indices]
    return [(_check_log(directory, shard, wanted, entries), shard[1], shard[2]) for shard in needed]


def _read_shard(path: Path, directory: Path, chances: bool, wanted=None) -> pa.Table:
    """One shard: its records (`chances` False; only the columns `wanted(name)` accepts, if given) or its
    deal numbers and reported chances of winning."""
    try:
        names = pq.read_schema(path).names
        reports = [name for name in names if name.startswith(win_chances.COLUMN_PREFIX)]
        columns = ["deal", *reports] if chances else [name for name in names if name not in reports and (wanted is None or wanted(name))]
        return pq.read_table(path, columns=columns, page_checksum_verification=True)
    except (OSError, ValueError, pa.ArrowException) as error:  # a page that fails its checksum, or damage it missed
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise RunError(f"{path}: unreadable ({reason}); mjsim run --resume --out {directory} plays it again") from None


def read_records(directory: Path, config: RunConfig, ruleset=None, wanted=None) -> pd.DataFrame:
    """Every deal of a finished run, in deal order, each shard checked first (sim.run_directory); without
    the reported chances of winning (``read_win_chances``). `wanted`: a test of a column's name, to read
    only the columns it accepts (all by default)."""
    ruleset = ruleset or load_ruleset(config.ruleset)
    paths = _checked_shards(directory, config, ruleset)
    check_memory(_records_memory(paths[0], config.deals, wanted), f"reading the {config.deals:,} deals of {directory}",
                 "read it on a machine with more memory", RunError)
    frames = [_read_shard(path, directory, False, wanted).to_pandas() for path in paths]
    return pd.concat(frames, ignore_index=True)


def read_win_chances(directory: Path, config: RunConfig, ruleset=None) -> pd.DataFrame:
    """The chances of winning the run's players reported with their discards (sim.win_chances), one row
    each: deal, seat, and chance; empty when no seat reported any."""
    ruleset = ruleset or load_ruleset(config.ruleset)
    frames = []
    for path in _checked_shards(directory, config, ruleset):
        table = _read_shard(path, directory, True)
        deals = table.column("deal").to_numpy()
        for name in table.column_names[1:]:
            lists = table.column(name).combine_chunks()
            frames.append(pd.DataFrame({
                "deal": deals[pc.list_parent_indices(lists).to_numpy()],
                "seat": np.int8(int(name[len(win_chances.COLUMN_PREFIX):])),
                "chance": pc.list_flatten(lists).to_numpy(zero_copy_only=False),
            }))
    if not frames:
        return pd.DataFrame({"deal": np.zeros(0, np.int64), "seat": np.zeros(0, np.int8), "chance": np.zeros(0, np.float32)})
    return pd.concat(frames, ignore_index=True)


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

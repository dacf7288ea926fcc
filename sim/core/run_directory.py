"""A run directory's integrity: one writer at a time, the manifest of the shards it wrote, and the check of
every shard before it is resumed or read.

- **One writer.** A run holds an exclusive lock on ``.mjsim-lock`` in its directory for its whole life
  (``flock``, released by the system when the process ends however it ends, so a crash leaves no stale
  lock). A second ``run`` or ``--resume`` on a held directory is refused with one line naming the holder.
  The lock file stays in the directory; nothing else reads it.
- **The manifest.** ``manifest.json`` lists every shard the run wrote with the SHA-256 of its bytes, its
  first deal, its row count and the source hash of the code that played it, and, where the run wrote its
  event log, the log's SHA-256, rows and first deal (``log``; manifests from before have none). The parent
  process rewrites it (atomically) after each finished shard, so it never names a shard that is not on
  disk. It is read within limits (``sim.core.input_limits``) and checked field by field: a damaged manifest is
  one RunError naming the field, and the run is left as it is.
- **Every shard checked.** A shard is sound when it is in the manifest with the same hash, and its own
  metadata names this run's configuration hash, its index, its first deal and its row count. A missing,
  foreign, duplicated (a copy of another shard), truncated or damaged shard fails one of these. Parquet page
  checksums are written with every table and verified on every read, as a second line of defence.
  ``--resume`` moves an unsound shard aside to ``records/set-aside/`` (never deleting it) and plays it
  again; reading a run (``analyze``, ``economics``) refuses it with one line naming the shard. An event
  log is checked the same way against its entry (``log_problem``), and set aside to ``logs/set-aside/``.
"""

import contextlib
import fcntl
import hashlib
import json
import os
import re
import socket
from pathlib import Path

import pyarrow.parquet as pq

from kernels.compile_cache import source_key
from sim.core.input_limits import read_json
from sim.core.result_files import read_metadata, write_text_atomically
from sim.core.size_limits import LARGEST_DEALS, LARGEST_SHARD, MAX_SHARDS

RUN_FILE = "run.json"
LOCK_FILE = ".mjsim-lock"
MANIFEST = "manifest.json"
RECORDS = "records"
LOGS = "logs"  # event logs, one per shard (sim.core.event_logs)
DECISIONS = "decisions"  # decision logs, one per shard (sim.core.decision_logs)
SET_ASIDE = "set-aside"
MANIFEST_FORMAT = 1
ENTRY_KEYS = {"sha256", "first_deal", "rows", "source_hash"}
LOG_KEY = "log"  # a shard's entry names its event log, when the run wrote one (older manifests have none)
LOG_ENTRY_KEYS = {"sha256", "rows", "first_deal"}
DECISIONS_KEY = "decisions"  # a shard's entry names its decision log, when the run keeps decisions
DECISIONS_ENTRY_KEYS = {"sha256", "rows", "first_deal", "seats"}
LARGEST_DECISION_ROWS = LARGEST_SHARD * 4 * 1_000  # decisions in one shard's log: far above any deal's count
SHARD_NAME = re.compile(r"shard-[0-9]{6}\.parquet")
HEX = re.compile(r"[0-9a-f]+")
LARGEST_MANIFEST = MAX_SHARDS * 1024  # bytes: an entry with its log's takes about 400
LARGEST_LOG_ROWS = LARGEST_SHARD * 10_000  # events in one shard's log, far above any deal's count


class RunError(ValueError):
    """A run that cannot start or go on: a bad option, or an output directory holding something else."""


@contextlib.contextmanager
def claimed(directory: Path):
    """Hold the run directory's lock for the block (creating the directory); RunError when another process
    holds it. A lock file (and a directory) this call created is removed again if the block leaves no run
    behind (a refused or failed start leaves a directory as it found it)."""
    path = directory / LOCK_FILE
    descriptor = -1
    made = not directory.exists()
    try:
        for _ in range(100):
            directory.mkdir(parents=True, exist_ok=True)
            created = not path.exists()
            try:
                descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except FileNotFoundError:  # the directory was removed by a start that gave up meanwhile: make it again
                continue
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(descriptor, 200, 0).decode("utf-8", "replace").strip() or "another process"
                raise RunError(f"{directory} is being written by another mjsim run ({holder}); "
                               "wait for it to finish or choose another --out") from None
            if path.exists() and os.stat(path).st_ino == os.fstat(descriptor).st_ino:
                break
            os.close(descriptor)  # the file was removed by a run that gave up meanwhile: lock the new one
            descriptor = -1
        else:
            raise RunError(f"cannot lock {path}: it keeps being replaced")
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"pid {os.getpid()} on {socket.gethostname()}\n".encode(), 0)
    except OSError as error:
        if descriptor >= 0:
            os.close(descriptor)
        raise RunError(f"cannot write the run to {directory}: {error.strerror or error}") from None
    except BaseException:
        if descriptor >= 0:
            os.close(descriptor)
        raise
    try:
        yield
    finally:
        if created and not (directory / RUN_FILE).exists():
            path.unlink(missing_ok=True)  # still locked: no other run can hold this file meanwhile
            if made:
                with contextlib.suppress(OSError):  # not empty: another run has begun there meanwhile
                    directory.rmdir()
        os.close(descriptor)  # closing releases the lock


def is_scratch(path: Path) -> bool:
    """The lock file and the temporary files of writes that were cut short: not part of a run."""
    return path.name == LOCK_FILE or (path.name.startswith(".") and path.name.endswith(".tmp"))


def holds_anything(directory: Path) -> bool:
    return directory.is_dir() and any(not is_scratch(path) for path in directory.iterdir())


def remove_scratch(directory: Path) -> None:
    """Delete the temporary files an interrupted write left (only while the lock is held: no writer is active)."""
    for folder in (directory, directory / RECORDS, directory / LOGS, directory / DECISIONS):
        if folder.is_dir():
            for path in folder.iterdir():
                if path.name != LOCK_FILE and is_scratch(path):
                    path.unlink(missing_ok=True)


def config_hash(run_config: dict) -> str:
    """The hash that ties a shard to its run: of the run's configuration (ruleset text included)."""
    return hashlib.sha256(json.dumps(run_config, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def shard_metadata(run_config: dict, index: int, first: int, rows: int) -> dict:
    """What a shard carries about itself (with the configuration, for a reader of the file alone)."""
    return {**run_config, "config_hash": config_hash(run_config), "shard": index, "first_deal": first, "rows": rows,
            "source_hash": source_key()}


def read_manifest(directory: Path) -> dict | None:
    """The manifest's shard entries (file name -> entry), or None for a run written before manifests; a
    RunError naming the field when any of it is not what the run writes (the file is left as it is)."""
    path = directory / MANIFEST
    if not path.exists() and not path.is_symlink():
        return None
    manifest = read_json(path, RunError, "", LARGEST_MANIFEST)
    problem = _manifest_problem(manifest)
    if problem is not None:
        raise RunError(f"{path} is damaged ({problem}); the run's shards cannot be checked, and it is left as it is")
    return manifest["shards"]


def whole_number_problem(name: str, value, low: int, high: int) -> str | None:
    """Why `value` is not a whole number from `low` to `high` (a JSON field `name`), or None."""
    if type(value) is not int:
        return f"{name} = {json_excerpt(value)} is not a whole number"
    if not low <= value <= high:
        return f"{name} = {value:,} is not from {low:,} to {high:,}"
    return None


def json_excerpt(value) -> str:
    """A value as JSON, cut short: what an error message shows of a field."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _hash_problem(name: str, value, length: int = 64) -> str | None:
    if not isinstance(value, str) or not HEX.fullmatch(value) or len(value) > length:
        return f"{name} = {json_excerpt(value)} is not a hexadecimal hash"
    return None


def _manifest_problem(manifest) -> str | None:
    """What in a parsed manifest is not as the run writes it, field by field, or None."""
    if not isinstance(manifest, dict):
        return "not a JSON object"
    if manifest.get("format") != MANIFEST_FORMAT:
        return f"format = {json_excerpt(manifest.get('format'))}, not {MANIFEST_FORMAT}"
    shards = manifest.get("shards")
    if not isinstance(shards, dict):
        return "shards is not an object of shard entries"
    if len(shards) > MAX_SHARDS:
        return f"{len(shards):,} shard entries; a run has at most {MAX_SHARDS:,}"
    for name, entry in shards.items():
        if not SHARD_NAME.fullmatch(name):
            return f"shards has an entry {json_excerpt(name)}, not a shard's file name"
        if not isinstance(entry, dict) or not ENTRY_KEYS <= set(entry) <= ENTRY_KEYS | {LOG_KEY, DECISIONS_KEY}:
            return f"shards.{name} is not an entry of {', '.join(sorted(ENTRY_KEYS))} (and {LOG_KEY}, {DECISIONS_KEY})"
        problem = (_hash_problem(f"shards.{name}.sha256", entry["sha256"])
                   or whole_number_problem(f"shards.{name}.first_deal", entry["first_deal"], 0, LARGEST_DEALS - 1)
                   or whole_number_problem(f"shards.{name}.rows", entry["rows"], 1, LARGEST_SHARD)
                   or _hash_problem(f"shards.{name}.source_hash", entry["source_hash"]))
        if problem is None and LOG_KEY in entry:
            log = entry[LOG_KEY]
            if not isinstance(log, dict) or set(log) != LOG_ENTRY_KEYS:
                return f"shards.{name}.{LOG_KEY} is not an entry of {', '.join(sorted(LOG_ENTRY_KEYS))}"
            problem = (_hash_problem(f"shards.{name}.{LOG_KEY}.sha256", log["sha256"])
                       or whole_number_problem(f"shards.{name}.{LOG_KEY}.rows", log["rows"], 0, LARGEST_LOG_ROWS)
                       or whole_number_problem(f"shards.{name}.{LOG_KEY}.first_deal", log["first_deal"], 0, LARGEST_DEALS - 1))
        if problem is None and DECISIONS_KEY in entry:
            problem = _decisions_entry_problem(f"shards.{name}.{DECISIONS_KEY}", entry[DECISIONS_KEY])
        if problem is not None:
            return problem
    return None


def _decisions_entry_problem(name: str, decisions) -> str | None:
    if not isinstance(decisions, dict) or set(decisions) != DECISIONS_ENTRY_KEYS:
        return f"{name} is not an entry of {', '.join(sorted(DECISIONS_ENTRY_KEYS))}"
    seats = decisions["seats"]
    if (not isinstance(seats, list) or not 1 <= len(seats) <= 4 or seats != sorted(set(seats))
            or any(whole_number_problem(name, seat, 0, 3) for seat in seats)):
        return f"{name}.seats = {json_excerpt(seats)} is not a list of seat numbers"
    return (_hash_problem(f"{name}.sha256", decisions["sha256"])
            or whole_number_problem(f"{name}.rows", decisions["rows"], 0, LARGEST_DECISION_ROWS)
            or whole_number_problem(f"{name}.first_deal", decisions["first_deal"], 0, LARGEST_DEALS - 1))


def decision_seats(entries: dict) -> tuple[int, ...] | None:
    """The seats whose decisions the run keeps (from any shard's entry), or None when it keeps none."""
    for entry in entries.values():
        if DECISIONS_KEY in entry:
            return tuple(entry[DECISIONS_KEY]["seats"])
    return None


def has_logs(entries: dict) -> bool:
    """Whether the run logs its deals: some shard's manifest entry lists an event log."""
    return any(LOG_KEY in entry for entry in entries.values())


def write_manifest(directory: Path, entries: dict) -> None:
    text = json.dumps({"format": MANIFEST_FORMAT, "shards": dict(sorted(entries.items()))}, indent=1) + "\n"
    write_text_atomically(directory / MANIFEST, text)


def manifest_entry(path: Path, first: int, rows: int, log: Path | None = None, log_rows: int = 0,
                   decisions: Path | None = None, decision_rows: int = 0, seats=()) -> dict:
    """A shard's entry; with `log`, the entry of its event log (``log_rows`` events) inside it; with
    `decisions`, that of its decision log (``decision_rows`` decisions of `seats`)."""
    entry = {"sha256": file_hash(path), "first_deal": first, "rows": rows, "source_hash": source_key()}
    if log is not None:
        entry[LOG_KEY] = {"sha256": file_hash(log), "rows": log_rows, "first_deal": first}
    if decisions is not None:
        entry[DECISIONS_KEY] = {"sha256": file_hash(decisions), "rows": decision_rows, "first_deal": first,
                                "seats": sorted(seats)}
    return entry


def shard_problem(path: Path, index: int, first: int, rows: int, run_config: dict, manifest: dict | None) -> str | None:
    """Why the shard at `path` is not shard `index` of this run (deals first .. first + rows - 1), or None."""
    entry = None if manifest is None else manifest.get(path.name)
    problem = _presence_problem(path)
    if problem is None and manifest is not None:
        if entry is None:
            problem = "not in the run's manifest (the run did not finish writing it, or it came from elsewhere)"
        elif (entry["first_deal"], entry["rows"]) != (first, rows):
            problem = f"its manifest entry is for deals {entry['first_deal']:,} to {entry['first_deal'] + entry['rows'] - 1:,}"
    return problem or _file_problem(path, index, first, rows, run_config, entry, rows)


def log_problem(path: Path, index: int, first: int, rows: int, run_config: dict, manifest: dict | None,
                key: str = LOG_KEY) -> str | None:
    """Why the event log at `path` is not the log of shard `index` of this run, or None: as a shard, checked
    against its entry in the shard's manifest entry (``log``: its hash, its rows of events, its first deal).
    With `key` DECISIONS_KEY, the same of its decision log."""
    problem = _presence_problem(path)
    if problem is not None or manifest is None:
        return problem or _file_problem(path, index, first, rows, run_config, None, None)
    entry = (manifest.get(path.name) or {}).get(key)
    if entry is None:
        return "not in the run's manifest (written by a run cut short, or come from elsewhere)"
    if entry["first_deal"] != first:
        return f"its manifest entry is for deals from {entry['first_deal']:,}"
    return _file_problem(path, index, first, rows, run_config, entry, entry["rows"])


def _presence_problem(path: Path) -> str | None:
    if path.is_symlink():  # the run writes regular files; a link may lead anywhere (a system file, another run)
        return "a symbolic link, not a file the run wrote"
    if not path.is_file():
        return "missing" if not path.exists() else "not a regular file"
    return None


def _file_problem(path: Path, index: int, first: int, deals: int, run_config: dict, entry: dict | None,
                  file_rows: int | None) -> str | None:
    """Why the file at `path` (a shard or its log: `file_rows` rows, None if not known) is not shard `index`
    of this run (`deals` deals from `first`), given its manifest `entry` (None: no manifest to check against)."""
    if entry is not None and file_hash(path) != entry["sha256"]:
        return "its bytes differ from those the run wrote (damaged, truncated or replaced)"
    try:
        metadata = read_metadata(path)
        n_rows = pq.ParquetFile(path).metadata.num_rows
    except Exception as error:  # pyarrow reports a damaged file with several exception types
        return f"unreadable as Parquet ({str(error).splitlines()[0] if str(error) else type(error).__name__})"
    config = metadata.get("config") if isinstance(metadata.get("config"), dict) else {}
    own = {key: config.get(key) for key in run_config}
    if own != run_config:
        return "it belongs to another run (its configuration differs)"
    if config.get("shard") != index or config.get("first_deal") != first:
        return f"it is shard {config.get('shard')} (deals from {config.get('first_deal')}), not shard {index}"
    if (file_rows is not None and n_rows != file_rows) or config.get("rows", deals) != deals:
        return (f"it holds {n_rows:,} deals, not {deals:,}" if file_rows == deals
                else f"it holds {n_rows:,} rows for {config.get('rows')} deals, not {file_rows} rows for {deals:,}")
    return None


def set_aside(directory: Path, path: Path) -> Path:
    """Move an unsound shard (or event log) to set-aside/ beside it, under a name not yet taken; returns the
    new path."""
    folder = path.parent / SET_ASIDE
    folder.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, 10_000):
        target = folder / f"{path.name}.{attempt}"
        if not target.exists():
            os.replace(path, target)
            return target
    raise RunError(f"{folder} is full of set-aside shards; empty it")

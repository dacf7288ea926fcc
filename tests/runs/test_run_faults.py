"""What a run directory promises when things go wrong: one writer at a time, every shard and event log checked
before it is resumed or read (a missing, copied, foreign, truncated or damaged one is named, set aside and played
again), run.json and manifest.json checked field by field (a damaged one is one error line naming the field, and
nothing is touched), no resume across a change of code unless asked, a failed start that leaves nothing behind,
Ctrl-C or a dead worker that stops the run at once and leaves it resumable, and cached tables that are checked
before use."""

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from sim.core import event_logs, run_directory, run_records
from sim.core.result_files import read_metadata
from sim.core.run_directory import MANIFEST, claimed
from sim.core.run_records import load_run, read_records
from sim.runs import runner
from sim.runs.runner import RunConfig, RunError, run, shard_path

CONFIG = RunConfig("erren", ("greedy", "random"), deals=3000, seed=5, shard_size=1000)
MJSIM = [sys.executable, "-m", "sim.cli"]


def _ctrl_c_as_at_a_terminal():
    """In a command the tests interrupt: Ctrl-C acts as it does at a terminal, even when the tests run as a
    background job, whose shell hands its children Ctrl-C ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """A finished run, copied by each test that damages it."""
    directory = tmp_path_factory.mktemp("whole") / "run"
    result = run(CONFIG, directory, workers=1)
    return directory, result.records


def _read(directory):
    return read_records(directory, *load_run(directory))


def _copy(whole, tmp_path):
    directory = tmp_path / "run"
    shutil.copytree(whole[0], directory)
    return directory


def test_a_second_writer_is_refused_with_the_holder_named(tmp_path):
    directory = tmp_path / "run"
    with claimed(directory):
        with pytest.raises(RunError, match=rf"being written by another mjsim run \(pid {os.getpid()} "):
            run(CONFIG, directory, workers=1)
    assert not (directory / "run.json").exists()


def test_two_runs_started_together_into_one_directory_never_mix(tmp_path):
    for trial in range(2):
        directory = tmp_path / f"race{trial}"
        arguments = ["run", "--deals", "40", "--shard-size", "10", "--workers", "1", "--out", str(directory)]
        started = [subprocess.Popen([*MJSIM, *arguments, "--seed", str(seed)], cwd=ROOT, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True) for seed in (5, 6)]
        finished = [(process.wait(timeout=300), process.stderr.read()) for process in started]
        assert sorted(code for code, _ in finished) == [0, 2]
        refused = next(error for code, error in finished if code == 2)
        assert "being written by another mjsim run" in refused or "is not empty" in refused
        seed = json.loads((directory / "run.json").read_text())["seed"]
        records = _read(directory)
        assert len(records) == 40
        assert {read_metadata(path)["config"]["seed"] for path in (directory / "records").glob("shard-*.parquet")} == {seed}


@pytest.mark.parametrize("damage, problem", [
    ("copy shard 2 over shard 1", "its bytes differ"),
    ("truncate shard 1", "its bytes differ"),
    ("flip a bit in shard 1", "its bytes differ"),
    ("drop shard 1 from the manifest", "not in the run's manifest"),
])
def test_a_damaged_shard_is_refused_by_readers_and_replayed_by_resume(whole, tmp_path, damage, problem):
    directory = _copy(whole, tmp_path)
    shard = shard_path(directory, 1)
    if damage.startswith("copy"):
        shutil.copyfile(shard_path(directory, 2), shard)
    elif damage.startswith("truncate"):
        shard.write_bytes(shard.read_bytes()[: shard.stat().st_size // 2])
    elif damage.startswith("flip"):
        data = bytearray(shard.read_bytes())
        data[len(data) // 3] ^= 0x10
        shard.write_bytes(bytes(data))
    else:
        manifest = json.loads((directory / MANIFEST).read_text())
        del manifest["shards"][shard.name]
        (directory / MANIFEST).write_text(json.dumps(manifest))
    damaged = shard.read_bytes()
    with pytest.raises(RunError, match=rf"shard-000001.parquet: {problem}.*--resume"):
        _read(directory)
    notes = []
    resumed = run(CONFIG, directory, workers=1, resume=True, notify=notes.append)
    assert resumed.played == 1000
    assert resumed.records.equals(whole[1])
    assert len(notes) == 1 and notes[0].startswith("shard-000001.parquet: ") and "set-aside" in notes[0]
    assert (directory / "records" / "set-aside" / "shard-000001.parquet.1").read_bytes() == damaged  # kept, not deleted


def test_a_shard_of_another_run_is_refused_even_without_a_manifest(whole, tmp_path):
    directory = _copy(whole, tmp_path)
    other = run(RunConfig("erren", ("greedy", "random"), deals=3000, seed=6, shard_size=1000), tmp_path / "other", workers=1)
    assert other.played == 3000
    shutil.copyfile(shard_path(tmp_path / "other", 1), shard_path(directory, 1))
    (directory / MANIFEST).unlink()  # as a run written before manifests: the shard's own metadata is checked
    with pytest.raises(RunError, match="shard-000001.parquet: it belongs to another run"):
        _read(directory)


def test_a_shard_in_the_wrong_place_is_refused_without_a_manifest(whole, tmp_path):
    directory = _copy(whole, tmp_path)
    shutil.copyfile(shard_path(directory, 2), shard_path(directory, 1))
    (directory / MANIFEST).unlink()
    with pytest.raises(RunError, match="shard-000001.parquet: it is shard 2 .deals from 2000., not shard 1"):
        _read(directory)


def test_bit_flips_in_data_pages_never_pass_silently_even_without_a_manifest(whole, tmp_path):
    directory = _copy(whole, tmp_path)
    (directory / MANIFEST).unlink()
    shard = shard_path(directory, 0)
    clean = shard.read_bytes()
    positions = np.random.default_rng(3).integers(4, len(clean) // 2, 12)  # data pages come first, the footer last
    for position in positions:
        data = bytearray(clean)
        data[position] ^= 1 << int(position % 8)
        shard.write_bytes(bytes(data))
        try:
            records = _read(directory)
        except RunError:
            continue
        assert records.equals(whole[1])  # a flip in padding or an unused byte may change nothing


def test_resume_after_a_change_of_code_is_refused_unless_allowed(whole, tmp_path):
    directory = _copy(whole, tmp_path)
    stored = json.loads((directory / "run.json").read_text())
    (directory / "run.json").write_text(json.dumps({**stored, "source_hash": "0123456789abcdef"}))
    shard_path(directory, 2).unlink()
    with pytest.raises(RunError, match="code has changed since the run .* --allow-code-change"):
        run(CONFIG, directory, workers=1, resume=True)
    assert run(CONFIG, directory, workers=1, resume=True, allow_code_change=True).played == 1000


def test_a_complete_run_is_read_after_a_change_of_code_with_nothing_played(whole, tmp_path):
    """Reading a finished run mixes no engines: only a shard still to play needs the code it was started with."""
    directory = _copy(whole, tmp_path)
    stored = json.loads((directory / "run.json").read_text())
    (directory / "run.json").write_text(json.dumps({**stored, "source_hash": "0123456789abcdef"}))
    resumed = run(CONFIG, directory, workers=1, resume=True)
    assert resumed.played == 0 and resumed.records.equals(whole[1])


def test_a_failed_start_leaves_nothing_a_later_run_trips_on(tmp_path, monkeypatch):
    directory = tmp_path / "run"
    directory.mkdir()
    (directory / ".run.json.stale.tmp").write_text("{")  # a write cut short by an earlier crash

    def broken(*arguments):
        raise OSError("no space left on device")

    monkeypatch.setattr(runner, "_play", broken)
    with pytest.raises(OSError):
        run(CONFIG, directory, workers=1)
    assert not (directory / "run.json").exists() and not (directory / MANIFEST).exists()
    monkeypatch.undo()
    assert run(CONFIG, directory, workers=1).played == 3000


def _children(pid):
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def _alive(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _gone(pids, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
        time.sleep(0.2)
    return [Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ") for pid in pids if _alive(pid)]


def _start_long_run(directory):
    process = subprocess.Popen(
        [*MJSIM, "run", "--deals", "120000", "--shard-size", "10000", "--workers", "2", "--seed", "9", "--out", str(directory)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_as_at_a_terminal,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:  # until the workers play
        manifest = directory / MANIFEST
        if manifest.exists() and json.loads(manifest.read_text() or "{}").get("shards"):
            return process
        time.sleep(0.2)
    raise AssertionError(f"the run did not start: {process.communicate()}")


def test_ctrl_c_stops_a_two_worker_run_at_once_with_exit_130_and_it_resumes(tmp_path):
    directory = tmp_path / "run"
    process = _start_long_run(directory)
    workers = _children(process.pid)
    process.send_signal(signal.SIGINT)
    interrupted = time.monotonic()
    time.sleep(0.3)
    if process.poll() is None:
        process.send_signal(signal.SIGINT)  # an impatient second Ctrl-C must not hang the stop
    _, error = process.communicate(timeout=30)
    assert process.returncode == 130 and time.monotonic() - interrupted < 10
    assert error.strip().splitlines()[-1] == "aborted" and "Traceback" not in error
    assert _gone(workers) == []
    resumed = subprocess.run([*MJSIM, "run", "--deals", "120000", "--shard-size", "10000", "--workers", "2", "--seed", "9",
                              "--out", str(directory), "--resume"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert len(_read(directory)) == 120000


def test_workers_exit_when_their_parent_is_killed(tmp_path):
    process = _start_long_run(tmp_path / "run")
    workers = _children(process.pid)
    assert workers
    process.kill()
    process.wait()
    assert _gone(workers) == []


def test_a_worker_killed_by_the_system_is_one_error_line_naming_its_shard(tmp_path):
    process = _start_long_run(tmp_path / "run")
    victim = min(pid for pid in _children(process.pid) if "sim.core.worker_processes" in Path(f"/proc/{pid}/cmdline").read_text())
    os.kill(victim, signal.SIGKILL)
    _, error = process.communicate(timeout=60)
    assert process.returncode == 2 and "Traceback" not in error
    last = error.strip().splitlines()[-1]
    assert last.startswith("error: the worker process was killed by SIGKILL (by the system, perhaps for memory) "
                           "while playing shard ") and "--resume" in last


def _reading_standard_input(pid) -> bool:
    """Whether the process is blocked in read() on its standard input (Linux: /proc/PID/syscall; the read
    system call is number 0 on x86-64 and 63 on arm64)."""
    try:
        fields = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return False
    return len(fields) > 1 and fields[0] in ("0", "63") and fields[1] == "0x0"


def test_ctrl_c_in_a_batch_exits_130(tmp_path):
    process = subprocess.Popen([*MJSIM, "score", "--batch", "-"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    deadline = time.monotonic() + 120
    while not _reading_standard_input(process.pid):  # the batch is waiting for its input
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, error = process.communicate(timeout=30)
    assert process.returncode == 130 and error.strip().splitlines()[-1] == "aborted" and "Traceback" not in error


def _numba_is_loading(pid: int) -> bool:
    """Whether the process has begun to load numba's compiler library, which the `mjsim` command first
    imports right after sim/__init__.py sets its start-up Ctrl-C handler, seconds before the command runs."""
    try:
        return "llvmlite" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


@pytest.mark.parametrize("command", [MJSIM, [str(Path(sys.executable).parent / "mjsim")]], ids=["python -m", "mjsim"])
def test_ctrl_c_while_the_command_is_starting_exits_130(command):
    process = subprocess.Popen([*command, "score", "12345678m11222z", "--win", "9m"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_as_at_a_terminal,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})  # this tree, wherever mjsim was installed from
    deadline = time.monotonic() + 120
    while not _numba_is_loading(process.pid):
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.01)
    process.send_signal(signal.SIGINT)
    output, error = process.communicate(timeout=60)
    assert output == ""  # stopped while starting: the hand was never scored
    assert process.returncode == 130 and error.strip().splitlines()[-1] == "aborted" and "Traceback" not in error


def test_a_damaged_shanten_table_cache_is_rebuilt_not_trusted(tmp_path, monkeypatch):
    from kernels import tables

    monkeypatch.setenv("MJSIM_CACHE_DIR", str(tmp_path))
    sound = tables.load_tables.__wrapped__()  # builds and caches
    suit_path = tables._cache_paths()[0]
    damaged = np.load(suit_path)
    damaged[123] = 0  # one zeroed row made 123456789m1357z "complete" when it was trusted
    np.save(suit_path, damaged)
    assert tables._load_cached() is None
    rebuilt = tables.load_tables.__wrapped__()
    assert np.array_equal(rebuilt.suit, sound.suit) and np.array_equal(np.load(suit_path), sound.suit)
    assert tables._load_cached() is not None


def test_a_write_error_stops_a_two_worker_run_at_the_first_failed_shard(tmp_path):
    # A file-size limit makes every shard write fail as a full disk would (Python ignores SIGXFSZ, so the
    # write raises "File too large"); the run must stop there, not play all twelve shards first.
    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))

    started = time.monotonic()
    failed = subprocess.run(
        [*MJSIM, "run", "--deals", "120000", "--shard-size", "10000", "--workers", "2", "--out", str(tmp_path / "run")],
        cwd=ROOT, capture_output=True, text=True, timeout=300, preexec_fn=small_files,
    )
    assert failed.returncode == 2 and "Traceback" not in failed.stderr
    assert failed.stderr.strip().splitlines()[-1].startswith("error: ") and "File too large" in failed.stderr
    assert time.monotonic() - started < 60
    assert not list((tmp_path / "run" / "records").glob("shard-*.parquet")) if (tmp_path / "run" / "records").exists() else True


@pytest.mark.parametrize("command", [["duel", "greedy", "value"], ["league", "greedy", "random"]])
def test_ctrl_c_stops_a_long_duel_or_league_within_seconds(command):
    process = subprocess.Popen([*MJSIM, *command, "--deals", "5000000"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    time.sleep(8)  # loaded and playing
    process.send_signal(signal.SIGINT)
    interrupted = time.monotonic()
    _, error = process.communicate(timeout=120)
    assert process.returncode == 130 and error.strip().splitlines()[-1] == "aborted" and "Traceback" not in error
    assert time.monotonic() - interrupted < 15


# ------------------------------------------------------------------------------ run.json and manifest.json checked

def _files(directory: Path) -> dict:
    """Every file of a run directory (but its lock) with its bytes: what a refused command must leave as it was."""
    return {path: path.read_bytes() for path in sorted(directory.rglob("*")) if path.is_file() and path.name != ".mjsim-lock"}


RESUME = ["run", "--players", "greedy,random", "--deals", "3000", "--seed", "5", "--shard-size", "1000", "--workers", "1",
          "--resume"]
READERS = {
    "analyze": lambda directory: ["analyze", str(directory)],
    "report": lambda directory: ["report", str(directory)],
    "economics": lambda directory: ["economics", str(directory), "--players", "20", "--horizon", "20"],
    "run --resume": lambda directory: [*RESUME, "--out", str(directory)],
}


def _changed(field, value):
    return lambda stored: {**stored, field: value}


RUN_FILE_DAMAGE = [
    ("deals 1e30", _changed("deals", 1e30), "deals = 1e+30 is not a whole number"),
    ('deals "1000"', _changed("deals", "1000"), 'deals = "1000" is not a whole number'),
    ("deals true", _changed("deals", True), "deals = true is not a whole number"),
    ("deals 10**13", _changed("deals", 10**13), "deals = 10,000,000,000,000 is not from 1 to 1,000,000,000,000"),
    ("shard_size 0", _changed("shard_size", 0), "shard_size = 0 is not from 1 to 1,000,000"),
    ("shard_size negative", _changed("shard_size", -1000), "shard_size = -1,000 is not from 1"),
    ("players a string", _changed("players", "greedy,random"), 'players = "greedy,random" is not a list of 1 to 4 player texts'),
    ("players numbers", _changed("players", [1, 2]), "players = [1, 2] is not a list"),
    ("seed huge", _changed("seed", 2**64), "seed = 18,446,744,073,709,551,616 is not from 0 to"),
    ("seed negative", _changed("seed", -1), "seed = -1 is not from 0 to"),
    ("ruleset_source a number", _changed("ruleset_source", 5), "ruleset_source is not the text of a ruleset file"),
    ("session_length longer than a shard", _changed("session_length", 5000), "session_length = 5,000 is not from 0 to 1,000"),
    ("seed missing", lambda stored: {key: value for key, value in stored.items() if key != "seed"}, "seed is missing"),
    ("not an object", lambda stored: [stored], "not a JSON object"),
    ("nested 1,000 deep", lambda stored: "[" * 1000 + "]" * 1000, "nested more than 16 levels deep"),
    ("a number of 5,000 digits", lambda stored: '{"deals": ' + "9" * 5000 + "}", "a number of 5,000 characters"),
    ("cut short", lambda stored: json.dumps(stored)[:40], "is damaged (not valid JSON"),
    ("not UTF-8", lambda stored: b'{"ruleset": "\xff"}', "is not UTF-8 text"),
    ("larger than any run writes", lambda stored: " " * (run_records.LARGEST_RUN_FILE + 1), "is larger than"),
]


def _damage(path: Path, damage) -> None:
    stored = json.loads(path.read_text())
    damaged = damage(stored)
    path.write_bytes(damaged if isinstance(damaged, bytes) else
                     (damaged if isinstance(damaged, str) else json.dumps(damaged)).encode())


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("damage, message", [case[1:] for case in RUN_FILE_DAMAGE], ids=[case[0] for case in RUN_FILE_DAMAGE])
def test_a_damaged_run_file_is_one_error_line_naming_the_field_and_changes_nothing(mjsim, whole, tmp_path, reader, damage, message):
    directory = _copy(whole, tmp_path)
    _damage(directory / "run.json", damage)
    before = _files(directory)
    code, out, err = mjsim(*READERS[reader](directory))
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"error: {directory / 'run.json'}") and message in err
    assert _files(directory) == before


def test_a_run_file_naming_more_players_than_its_ruleset_seats_is_refused(mjsim, whole, tmp_path):
    directory = _copy(whole, tmp_path)
    _damage(directory / "run.json", lambda stored: {**stored, "players": [*stored["players"], "greedy"]})
    err = mjsim("analyze", str(directory))[2]
    assert err.count("\n") == 1 and "run.json is damaged (players: 3 players, but erren is played by 2)" in err


def _entry_changed(change):
    def damage(manifest):
        change(manifest["shards"]["shard-000001.parquet"])
        return manifest
    return damage


MANIFEST_DAMAGE = [
    ("not an object", lambda manifest: [manifest], "not a JSON object"),
    ("format 2", lambda manifest: {**manifest, "format": 2}, "format = 2, not 1"),
    ("shards a list", lambda manifest: {**manifest, "shards": list(manifest["shards"])}, "shards is not an object"),
    ("sha256 a number", _entry_changed(lambda entry: entry.update(sha256=5)),
     "shards.shard-000001.parquet.sha256 = 5 is not a hexadecimal hash"),
    ("first_deal a string", _entry_changed(lambda entry: entry.update(first_deal="1000")),
     'shards.shard-000001.parquet.first_deal = "1000" is not a whole number'),
    ("rows 0", _entry_changed(lambda entry: entry.update(rows=0)), "shards.shard-000001.parquet.rows = 0 is not from 1"),
    ("rows 1e30", _entry_changed(lambda entry: entry.update(rows=1e30)), "rows = 1e+30 is not a whole number"),
    ("an extra key", _entry_changed(lambda entry: entry.update(extra=1)), "shards.shard-000001.parquet is not an entry of"),
    ("a log entry of the wrong type", _entry_changed(lambda entry: entry.update(log="logs/shard-000001.parquet")),
     "shards.shard-000001.parquet.log is not an entry of"),
    ("a log entry's rows negative", _entry_changed(lambda entry: entry.update(log={"sha256": "ab", "rows": -1, "first_deal": 1000})),
     "shards.shard-000001.parquet.log.rows = -1 is not from 0"),
    ("an entry for another path", lambda manifest: {**manifest, "shards": {"../../etc/passwd": {}}},
     'shards has an entry "../../etc/passwd", not a shard\'s file name'),
    ("nested 1,000 deep", lambda manifest: '{"format": 1, "shards": ' + "[" * 1000 + "]" * 1000 + "}",
     "nested more than 16 levels deep"),
    ("cut short", lambda manifest: json.dumps(manifest)[:100], "is damaged (not valid JSON"),
]


@pytest.mark.parametrize("reader", ["analyze", "economics", "run --resume"])
@pytest.mark.parametrize("damage, message", [case[1:] for case in MANIFEST_DAMAGE], ids=[case[0] for case in MANIFEST_DAMAGE])
def test_a_damaged_manifest_is_one_error_line_naming_the_field_and_changes_nothing(mjsim, whole, tmp_path, reader, damage, message):
    directory = _copy(whole, tmp_path)
    _damage(directory / MANIFEST, damage)
    before = _files(directory)
    code, out, err = mjsim(*READERS[reader](directory))
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"error: {directory / MANIFEST}") and message in err
    assert _files(directory) == before


def test_the_report_of_a_run_with_a_damaged_manifest_says_why_its_records_could_not_be_read(mjsim, whole, tmp_path):
    directory = _copy(whole, tmp_path)
    _damage(directory / MANIFEST, _entry_changed(lambda entry: entry.update(rows=0)))
    code, _, err = mjsim("report", str(directory))
    page = (directory / "report.html").read_text()
    assert code == 0, err
    assert "The records could not be read" in page and "manifest.json is damaged" in page


def test_a_manifest_larger_than_any_run_writes_is_refused_unread(whole, tmp_path, monkeypatch):
    directory = _copy(whole, tmp_path)
    monkeypatch.setattr(run_directory, "LARGEST_MANIFEST", 100)  # as a file over 100 MB would be, unread
    with pytest.raises(RunError, match="manifest.json is larger than 100 bytes"):
        _read(directory)


# ------------------------------------------------------------------------------ event logs in the manifest

@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """A finished run with event logs, copied by each test that damages it, and another run's logs."""
    directory = tmp_path_factory.mktemp("logged") / "run"
    result = run(CONFIG, directory, workers=1, logs=True)
    other = tmp_path_factory.mktemp("other") / "run"
    run(replace(CONFIG, seed=6, deals=2000), other, workers=1, logs=True)
    return directory, result.records, other


def _log(directory: Path, index: int) -> Path:
    return event_logs.log_path(directory, index)


def test_each_shards_manifest_entry_records_its_event_log(logged):
    directory = logged[0]
    shards = json.loads((directory / MANIFEST).read_text())["shards"]
    for index, first in enumerate(range(0, 3000, 1000)):
        log = shards[f"shard-{index:06d}.parquet"]["log"]
        path = _log(directory, index)
        assert log == {"sha256": run_directory.file_hash(path), "rows": pq.ParquetFile(path).metadata.num_rows, "first_deal": first}
    events = run_records.read_logs(directory)
    assert list(events.drop_duplicates("deal").deal) == list(range(3000))


def _drop_log_entries(directory: Path, names=None) -> None:
    manifest = json.loads((directory / MANIFEST).read_text())
    for name, entry in manifest["shards"].items():
        if names is None or name in names:
            entry.pop("log", None)
    (directory / MANIFEST).write_text(json.dumps(manifest))


LOG_DAMAGE = {
    "truncated": (lambda log, logged: log.write_bytes(log.read_bytes()[: log.stat().st_size // 2]), "its bytes differ"),
    "another shard's log copied over it": (lambda log, logged: shutil.copyfile(_log(logged[0], 2), log), "its bytes differ"),
    "a text file": (lambda log, logged: log.write_text("deal,step\n1,1\n"), "its bytes differ"),
    "another run's log": (lambda log, logged: shutil.copyfile(_log(logged[2], 1), log), "its bytes differ"),
    "a symbolic link to a system file": (lambda log, logged: (log.unlink(), log.symlink_to("/etc/passwd")), "a symbolic link"),
    "a directory": (lambda log, logged: (log.unlink(), log.mkdir()), "not a regular file"),
    "left out of the manifest": (lambda log, logged: _drop_log_entries(log.parent.parent, [log.name]), "not in the run's manifest"),
    "missing": (lambda log, logged: log.unlink(), "is missing the event log logs/shard-000001.parquet"),
}


@pytest.mark.parametrize("damage", LOG_DAMAGE)
def test_a_damaged_or_foreign_log_is_refused_by_read_logs_and_replayed_by_resume(logged, tmp_path, damage):
    directory = _copy(logged, tmp_path)
    log = _log(directory, 1)
    sound_records = json.loads((directory / MANIFEST).read_text())["shards"]["shard-000001.parquet"]["sha256"]
    make, problem = LOG_DAMAGE[damage]
    make(log, logged)
    with pytest.raises(RunError, match=rf"{problem}.*mjsim run --resume --logs --out {directory}"):
        run_records.read_logs(directory)
    notes = []
    resumed = run(CONFIG, directory, workers=1, resume=True, logs=True, notify=notes.append)
    assert resumed.played == 1000 and resumed.records.equals(logged[1])
    entry = json.loads((directory / MANIFEST).read_text())["shards"]["shard-000001.parquet"]
    assert entry["sha256"] == sound_records  # the records written again are the same bytes
    if damage != "missing":
        assert len(notes) == 1 and notes[0].startswith("logs/shard-000001.parquet: ") and "logs/set-aside/" in notes[0]
        assert (directory / "logs" / "set-aside" / "shard-000001.parquet.1").is_symlink() == (damage.startswith("a symbolic"))
    events = run_records.read_logs(directory)
    assert list(events.drop_duplicates("deal").deal) == list(range(3000)) and not events.duplicated(["deal", "step"]).any()


@pytest.mark.parametrize("command", ["analyze", "report"])
def test_analyze_and_report_of_a_logged_run_check_its_logs(mjsim, logged, tmp_path, command):
    directory = _copy(logged, tmp_path)
    _log(directory, 2).write_bytes(b"PAR1" + b"\0" * 100 + b"PAR1")
    code, out, err = mjsim(command, str(directory))
    if command == "analyze":
        assert code == 2 and err.count("\n") == 1 and "logs/shard-000002.parquet: its bytes differ" in err
        assert "--resume --logs" in err
    else:  # the page is written, and says why the records were not read
        assert code == 0 and "logs/shard-000002.parquet: its bytes differ" in (directory / "report.html").read_text()


def test_an_old_logged_run_without_log_entries_stays_readable_and_resume_lists_its_logs(mjsim, logged, tmp_path):
    directory = _copy(logged, tmp_path)
    _drop_log_entries(directory)  # as mjsim wrote manifests before the logs joined them
    code, out, err = mjsim("analyze", str(directory))
    assert code == 0 and "outcomes" in out, err
    with pytest.raises(RunError, match="logs/shard-000000.parquet: not in the run's manifest.*--resume --logs"):
        run_records.read_logs(directory)
    notes = []
    assert run(CONFIG, directory, workers=1, resume=True, logs=True, notify=notes.append).played == 3000
    assert len(notes) == 3 and all("logs/set-aside/" in note for note in notes)
    assert run_records.read_logs(directory).deal.nunique() == 3000


def test_a_resume_without_logs_finishes_a_logged_run_with_its_logs(logged, tmp_path):
    directory = _copy(logged, tmp_path)
    shard_path(directory, 2).unlink()
    assert run(CONFIG, directory, workers=1, resume=True).played == 1000
    assert "log" in json.loads((directory / MANIFEST).read_text())["shards"]["shard-000002.parquet"]
    assert run_records.read_logs(directory, deals=[2500]).deal.unique().tolist() == [2500]

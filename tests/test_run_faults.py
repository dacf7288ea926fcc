"""What a run directory promises when things go wrong: one writer at a time, every shard checked before it is
resumed or read (a missing, copied, foreign, truncated or damaged shard is named, set aside and played again),
no resume across a change of code unless asked, a failed start that leaves nothing behind, Ctrl-C or a
dead worker that stops the run at once and leaves it resumable, and cached tables that are checked before use."""

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from analysis.tables import read_metadata
from sim import runner
from sim.run_directory import MANIFEST, claimed
from sim.runner import RunConfig, RunError, read_records, run, shard_path

CONFIG = RunConfig("erren", ("greedy", "random"), deals=3000, seed=5, shard_size=1000)
MJSIM = [sys.executable, "-m", "sim.cli"]


def _ctrl_c_as_at_a_terminal():
    """In a command the tests interrupt: Ctrl-C acts as it does at a terminal, even when the tests run as a
    background job, whose shell hands its children Ctrl-C ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """A finished run, copied by each test that damages it."""
    directory = tmp_path_factory.mktemp("whole") / "run"
    result = run(CONFIG, directory, workers=1)
    return directory, result.records


def _read(directory):
    return read_records(directory, *runner.load_run(directory))


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
    victim = min(pid for pid in _children(process.pid) if "sim.worker_processes" in Path(f"/proc/{pid}/cmdline").read_text())
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

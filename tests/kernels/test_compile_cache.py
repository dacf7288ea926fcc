"""The compiled-code cache follows the code (kernels/compile_cache.py): a cached kernel compiles again when code
compiled into it changes, even in another file, and not when anything else in the tree changes.

Each test works on a copy of the source tree with its own cache, and counts what numba compiles (its
"numba:compile" events, which fire on a cache miss only) in a fresh process."""

import fcntl
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from numba import njit, types
from numba.core import errors

from kernels import compile_cache
from kernels.compile_cache import compiled_code_digest

ROOT = Path(__file__).resolve().parents[2]

# A kernel in the copied tree that calls a kernel of another file, inlined into it.
PROBE = '''"""A probe for tests/kernels/test_compile_cache.py."""
from numba import njit

from kernels.integers import smaller


@njit(cache=True)
def probe(a, b):
    return smaller(a, b)
'''

COUNT = textwrap.dedent("""
    from numba.core import event
    recorder = event.RecordingListener()
    event.register("numba:compile", recorder)
    from kernels.probe import probe
    value = probe(3, 4)
    compiled = sorted({e.data["dispatcher"].py_func.__qualname__ for _, e in recorder.buffer if e.is_start})
    print(value, ",".join(compiled))
""")


@pytest.fixture
def tree(tmp_path):
    copy = tmp_path / "tree"
    for package in ("kernels", "sim", "analysis"):
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "kernels" / "probe.py").write_text(PROBE)
    return copy


def _compiled(tree: Path) -> tuple[str, list[str]]:
    environment = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    environment.update(PYTHONPATH=str(tree), MJSIM_CACHE_DIR=str(tree.parent / "cache"))
    done = subprocess.run([sys.executable, "-c", COUNT], env=environment, capture_output=True, text=True, check=False,
                          timeout=600, cwd=tree)
    assert done.returncode == 0, done.stderr
    value, _, compiled = done.stdout.strip().rpartition("\n")[2].partition(" ")
    return value, [name for name in compiled.split(",") if name]


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + text)


def test_edits_outside_the_code_compiled_into_a_kernel_recompile_nothing(tree):
    assert _compiled(tree) == ("3", ["probe"])
    assert _compiled(tree) == ("3", [])
    _append(tree / "analysis" / "fan_tables.py", "\n# an edit in analysis\n")
    _append(tree / "sim" / "cli.py", "\n# an edit to the command line\n")
    _append(tree / "sim" / "xuezhan" / "engine.py", "\n# an edit in a family\n")
    _append(tree / "kernels" / "integers.py", "\n# a comment beside the callee: its code is unchanged\n")
    assert _compiled(tree) == ("3", [])


def test_a_changed_callee_in_another_file_recompiles_its_cached_caller(tree):
    assert _compiled(tree) == ("3", ["probe"])
    integers = tree / "kernels" / "integers.py"
    integers.write_text(integers.read_text().replace("return a if a < b else b", "return (a if a < b else b) + 100"))
    assert _compiled(tree) == ("103", ["probe"])  # the new callee runs: the cached caller was not trusted
    _append(tree / "kernels" / "probe.py", "\nLIMIT = 5\n")  # the caller's own file: numba's own key
    assert _compiled(tree) == ("103", ["probe"])


def _kernel(source: str, **constants):
    """A jitted function made from `source`, in a namespace holding `constants` (a module of its own)."""
    namespace = {"__name__": "made_for_the_test", "njit": njit, **constants}
    exec(textwrap.dedent(source), namespace)  # noqa: S102  (test code written above)
    return namespace["kernel"]


def test_the_digest_reads_the_constants_a_kernel_uses_and_nothing_else():
    source = """
        @njit
        def kernel(x):
            \"\"\"A docstring is not compiled.\"\"\"
            return x + LIMIT
    """
    one, same, other = _kernel(source, LIMIT=1), _kernel(source, LIMIT=1, UNUSED=7), _kernel(source, LIMIT=2)
    assert compiled_code_digest(one.py_func) == compiled_code_digest(same.py_func)
    assert compiled_code_digest(one.py_func) != compiled_code_digest(other.py_func)
    redocumented = _kernel(source.replace("is not compiled", "changes nothing"), LIMIT=1)
    assert compiled_code_digest(redocumented.py_func) == compiled_code_digest(one.py_func)


def test_the_digest_follows_a_function_passed_as_an_argument():
    caller = _kernel("""
        @njit
        def kernel(act, x):
            return act(x)
    """)
    add_one = _kernel("@njit\ndef kernel(x):\n    return x + 1\n")
    add_two = _kernel("@njit\ndef kernel(x):\n    return x + 2\n")
    with_one = compiled_code_digest(caller.py_func, (types.Dispatcher(add_one), types.int64))
    with_two = compiled_code_digest(caller.py_func, (types.Dispatcher(add_two), types.int64))
    assert with_one != with_two


def test_the_compile_benchmark_counts_a_cold_process_cpu_and_names_what_it_compiled(tmp_path):
    from sim.commands import compile_benchmark

    code = "from numba import njit\n\n@njit\ndef triangle(n):\n    return n * (n + 1) // 2\n\nassert triangle(4) == 10\n"
    measured = compile_benchmark.measure("a triangle", code, tmp_path)
    assert measured["functions_compiled"] == 1 and measured["cpu_seconds"] > 0
    assert measured["heaviest"][0]["function"].endswith(".triangle")
    assert "a triangle" in compile_benchmark.format_results([measured])


def test_every_compile_benchmark_task_is_a_cold_command_that_exists():
    from sim.commands import compile_benchmark
    from sim.core.ruleset import available

    names = list(compile_benchmark.tasks(Path(".")))
    assert any("main job" in name for name in names) and any("duel ev greedy" in name for name in names)
    assert all(any(ruleset in name for name in names) for ruleset in available() if ruleset != "erren")


def test_bench_compile_refuses_a_task_it_does_not_have(mjsim):
    code, _, error = mjsim("bench", "--compile", "--task", "no such task")
    assert code == 2 and error.strip() == "error: --task 'no such task' names no compile task"


@pytest.mark.parametrize("ruleset_id", ["erren", "erren-classic", "erren-challenge", "liangmen-xuezhan", "sanren-liangfang"])
def test_warmup_scores_a_hand_every_shipped_ruleset_accepts(ruleset_id):
    from sim.commands.warmup import seven_pairs_text
    from sim.core.ruleset import load_ruleset
    from sim.families.scoring import WinContext, parse_scoring_input, score

    ruleset = load_ruleset(ruleset_id)
    hand, win = parse_scoring_input(*seven_pairs_text(ruleset.tile_set))
    assert score(hand, win, WinContext(), ruleset) is not None


def test_after_warmup_a_new_process_scores_without_compiling(mjsim):
    code, output, _ = mjsim("warmup", "erren")
    assert code == 0 and output.splitlines()[0].startswith("erren: a run of greedy v greedy, and score: ")
    counted = textwrap.dedent("""
        from numba.core import event
        recorder = event.RecordingListener()
        event.register("numba:compile", recorder)
        import sys
        from sim import cli
        sys.argv = ["mjsim", "score", "1122334455667m", "--win", "7m"]
        try:
            cli.main()
        except SystemExit:
            pass
        print("compiled", sum(1 for _, happening in recorder.buffer if happening.is_start))
    """)
    done = subprocess.run([sys.executable, "-c", counted], capture_output=True, text=True, timeout=600, cwd=ROOT, check=False)
    assert done.returncode == 0 and done.stdout.strip().splitlines()[-1] == "compiled 0", done.stderr


def test_warmup_refuses_an_unknown_ruleset_before_compiling(mjsim):
    code, _, error = mjsim("warmup", "no-such-ruleset")
    assert code == 2 and error.startswith("error: unknown ruleset 'no-such-ruleset'")


# One process compiles a kernel, held at the start of its compile until the test lets it go; a second process
# misses the same kernel meanwhile. Each prints what it computed and its cache misses and hits.
COMPILE_ONE = textwrap.dedent("""
    import json, sys
    import kernels  # the code-keyed cache and its compile lock, before the kernel is defined
    from numba.core import event
    if sys.argv[1] == "hold":
        class Gate(event.Listener):
            def on_start(self, happening):
                print("compiling", flush=True)
                sys.stdin.readline()

            def on_end(self, happening):
                pass

        event.register("numba:compile", Gate())
    from doubling import double
    value = double(21)
    print(json.dumps({"value": int(value), "misses": sum(double.stats.cache_misses.values()),
                      "hits": sum(double.stats.cache_hits.values())}), flush=True)
""")


def _waiting_for_a_lock(pid: int) -> bool:
    """Whether the process waits for a file lock: the kernel lists each waiter with "->" in /proc/locks."""
    return any("->" in line and f" {pid} " in line for line in Path("/proc/locks").read_text().splitlines())


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="needs Linux's /proc/locks to see a waiting process")
def test_a_process_that_misses_a_kernel_another_is_compiling_waits_for_it_and_loads_it(tmp_path):
    (tmp_path / "doubling.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef double(x):\n    return 2 * x\n")
    environment = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    environment.update(PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)]), MJSIM_CACHE_DIR=str(tmp_path / "cache"))

    def start(role):
        return subprocess.Popen([sys.executable, "-c", COMPILE_ONE, role], env=environment, cwd=tmp_path, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    first = start("hold")
    second = None
    try:
        assert first.stdout.readline().strip() == "compiling", first.stderr.read()
        second = start("load")
        deadline = time.monotonic() + 300
        while not _waiting_for_a_lock(second.pid):  # the readiness signal: it waits for the first's lock
            assert second.poll() is None, f"did not wait for the compiling process: {second.communicate()}"
            assert time.monotonic() < deadline, "the second process never waited for the lock"
            time.sleep(0.05)
        first.stdin.write("\n")
        first.stdin.flush()
        compiled, first_errors = first.communicate(timeout=300)
        loaded, second_errors = second.communicate(timeout=300)
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
    assert first.returncode == 0 and second.returncode == 0, first_errors + second_errors
    assert json.loads(compiled) == {"value": 42, "misses": 1, "hits": 0}
    assert json.loads(loaded) == {"value": 42, "misses": 0, "hits": 1}


@njit(cache=True)
def _does_not_type(count):
    return count + "tiles"


def test_a_compile_that_fails_lets_go_of_its_lock_so_no_other_process_waits_for_it():
    with pytest.raises(errors.TypingError):
        _does_not_type(3)
    lock = _does_not_type._cache._compile_lock_path()
    assert Path(lock).exists() and not compile_cache._COMPILE_LOCKS_HELD  # it was taken, and let go
    descriptor = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises if any process still held it
    finally:
        os.close(descriptor)

"""What compiling costs a user: ``mjsim bench --compile`` (docs/benchmarks.md#compiling-mjsim-bench---compile).

Each task runs in a fresh Python process on a fresh temporary cache (``MJSIM_CACHE_DIR``; ``NUMBA_CACHE_DIR``
unset), as a new user's first command does. Its figure is the CPU seconds of that process and of every
process it started, so that other load on the machine does not change it. Inside the process, numba's
"numba:compile" events (which fire on a cache miss only) name the functions compiled and the time each took
of its own, without the callees compiled inside it. A run's worker processes are not listened to: the
parent compiles first.
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from sim.core.ruleset import available

ROOT = Path(__file__).resolve().parents[2]
NUMBA_PLAYER = ROOT / "examples" / "players" / "numba_greedy.py"
HEAVIEST = 3  # functions the text lists per task (the JSON lists them all)


def _command(*arguments: str) -> str:
    return f"from sim import cli\nimport sys\nsys.argv = ['mjsim', *{list(arguments)!r}]\ntry:\n    cli.main()\n" \
           "except SystemExit as stop:\n    assert not stop.code, stop.code\n"


def tasks(work: Path) -> dict[str, str]:
    """Task name -> the Python code its process runs (`work`: a directory for its outputs)."""
    chosen = {"main job (mjsim run, erren, greedy v greedy)": _command(
        "run", "--deals", "2000", "--workers", "1", "--out", str(work / "main"))}
    for ruleset in available():
        if ruleset != "erren":
            chosen[f"mjsim run --ruleset {ruleset}"] = _command(
                "run", "--ruleset", ruleset, "--deals", "200", "--workers", "1", "--out", str(work / ruleset))
    chosen["mjsim duel ev greedy"] = _command("duel", "ev", "greedy", "--deals", "20")
    chosen["mjsim score"] = _command("score", "12345678m11222z", "--win", "9m")
    chosen["mjsim shanten"] = _command("shanten", "123456789m1357z")
    chosen["first environment reset (erren)"] = "from sim.erren.environment import Environment\n" \
                                                "Environment().reset(seed=1)\n"
    chosen["a user's numba player (mjsim run)"] = _command(
        "run", "--players", f"{NUMBA_PLAYER}:act,greedy", "--deals", "200", "--workers", "1",
        "--out", str(work / "numba-player"))
    return chosen


# Runs in the task's process, around its code: numba's compile events, each function's own time.
_LISTEN = textwrap.dedent("""
    import atexit, json, sys
    from numba.core import event
    _compiles_path = sys.argv[1]  # before a task sets its own argv
    _recorder = event.RecordingListener()
    event.register("numba:compile", _recorder)

    def _write_compiles():
        stack, own = [], {}
        for moment, happening in _recorder.buffer:
            if happening.is_start:
                stack.append([moment, 0.0])
                continue
            started, inner = stack.pop()
            took = moment - started
            function = happening.data["dispatcher"].py_func
            name = f"{function.__module__}.{function.__qualname__}"
            own[name] = own.get(name, 0.0) + took - inner
            if stack:
                stack[-1][1] += took
        with open(_compiles_path, "w") as out:
            json.dump(own, out)

    atexit.register(_write_compiles)
""")


def measure(name: str, code: str, work: Path) -> dict:
    """One task's cold-cache compile cost: CPU and wall seconds, the functions compiled, the heaviest."""
    cache = Path(tempfile.mkdtemp(prefix="mjsim-cold-", dir=work))
    compiles = cache / "compiles.json"
    environment = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    environment.update(MJSIM_CACHE_DIR=str(cache), PYTHONPATH=os.pathsep.join(filter(None, [
        str(ROOT), environment.get("PYTHONPATH")])))
    before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _LISTEN + code, str(compiles)], env=environment, cwd=work,
                          capture_output=True, text=True, check=False)
    after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter() - wall
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no output"]
        said = next((line for line in lines if line.startswith("error: ")), lines[-1])  # mjsim's own message first
        raise RuntimeError(f"compile benchmark task {name!r} failed: {said}")
    own = json.loads(compiles.read_text()) if compiles.exists() else {}
    by_time = sorted(own.items(), key=lambda item: -item[1])
    return {"task": name, "cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
            "wall_seconds": round(wall, 1), "functions_compiled": len(own),
            "heaviest": [{"function": function, "seconds": round(seconds, 2)} for function, seconds in by_time]}


def run(progress=None, only: str | None = None) -> list[dict]:
    """Every task (or those whose name contains `only`), one after another, each on its own cold cache."""
    with tempfile.TemporaryDirectory(prefix="mjsim-compile-bench-") as directory:
        work = Path(directory)
        results = []
        for name, code in tasks(work).items():
            if only is None or only in name:
                results.append(measure(name, code, work))
            if progress is not None:
                progress()
        return results


def format_results(results: list[dict]) -> str:
    lines = [f"{'task':<46} {'CPU s':>7} {'wall s':>7} {'compiled':>8}  heaviest (own wall seconds)"]
    for row in results:
        heaviest = ", ".join(f"{item['function']} {item['seconds']:.1f}" for item in row["heaviest"][:HEAVIEST])
        lines.append(f"{row['task']:<46} {row['cpu_seconds']:>7.1f} {row['wall_seconds']:>7.1f} "
                     f"{row['functions_compiled']:>8}  {heaviest}")
    return "\n".join(lines) + "\n"

"""Where mjsim keeps what it computes once: the shanten tables and numba's compiled kernels.

Both live under ``$MJSIM_CACHE_DIR`` (default ``~/.cache/mjsim``). numba's own cache notices when a
function's file changes, but not when a function it calls (and compiled into itself) changes, so after
an edit or an upgrade a cached caller could run stale callee code. The compiled kernels therefore go to
a directory named by a hash of every module of the three packages and their subpackages: any change to any source starts a
fresh cache (about 16 MB, two to three minutes of compilation). ``NUMBA_CACHE_DIR``, when set, wins.
Every package's ``__init__`` calls ``use_source_keyed_numba_cache`` before any kernel is defined; it also
makes numba compile a function once per argument types, not once per constant it is called with
(``compile_calls_without_literals``).
"""

import hashlib
import os
from pathlib import Path

import numba
from numba.core import types
from numba.core.dispatcher import Dispatcher

PACKAGES = ("kernels", "sim", "analysis")


def cache_dir() -> Path:
    return Path(os.environ.get("MJSIM_CACHE_DIR") or Path.home() / ".cache" / "mjsim")


def source_key() -> str:
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def use_source_keyed_numba_cache() -> None:
    if not os.environ.get("NUMBA_CACHE_DIR"):
        numba.config.CACHE_DIR = str(cache_dir() / f"numba-{source_key()}")
    compile_calls_without_literals()


def compile_calls_without_literals() -> None:
    """Type calls between jitted functions by their arguments' plain types. numba (0.68) compiles a callee
    once for each combination of constants it is called with (``f(x, True)``, ``f(x, False)``, ``f(-1, y)``
    are three compilations of f), and no kernel here needs such a specialisation: the deal state machine
    was compiled four times, the win settlement eight. Constants then convert to the plain signature, as
    they do in calls from Python."""
    if getattr(Dispatcher.get_call_template, "plain_types", False):
        return
    typed_with_literals = Dispatcher.get_call_template

    def get_call_template(self, args, kws):
        return typed_with_literals(self, tuple(types.unliteral(arg) for arg in args),
                                   {name: types.unliteral(arg) for name, arg in kws.items()})

    get_call_template.plain_types = True
    Dispatcher.get_call_template = get_call_template

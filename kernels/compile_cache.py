"""Where mjsim keeps what it computes once: the shanten tables and numba's compiled kernels.

Both live under ``$MJSIM_CACHE_DIR`` (default ``~/.cache/mjsim``). numba's own cache notices when a
function's file changes, but not when a function it calls (and compiled into itself) changes, so after
an edit or an upgrade a cached caller could run stale callee code. The compiled kernels therefore go to
a directory named by a hash of every module of the three packages and their subpackages: any change to any source starts a
fresh cache (about 16 MB, two to three minutes of compilation). ``NUMBA_CACHE_DIR``, when set, wins.
Every package's ``__init__`` calls ``use_source_keyed_numba_cache`` before any kernel is defined.
"""

import hashlib
import os
from pathlib import Path

import numba

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

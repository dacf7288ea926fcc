"""A Dask worker's start: the run's compiled kernels, copied from the client before the first shard.

The client compiles (or loads) the kernels of a run before any shard is sent (sim.runs.runner), so a worker
that finds them in its own numba cache starts playing at once instead of compiling for minutes. The
plugin carries the cache files the client used (kernels.compile_cache.cache_files_used) and writes each
into the worker's cache where it is missing or different, through a temporary file and a rename, so that a
process reading the cache meanwhile never sees half a file. numba trusts an entry only for the same source
files (path, size and modification time), so a worker whose mjsim sits elsewhere compiles as before.
"""

from pathlib import Path

from distributed.diagnostics.plugin import WorkerPlugin

from kernels.compile_cache import numba_cache_dir
from sim.core.result_files import write_bytes_atomically

PLUGIN_NAME = "mjsim-compiled-kernels"


class CompiledKernels(WorkerPlugin):
    def __init__(self, files: dict[str, bytes]):
        self.files = files

    def setup(self, worker):
        write_cache_files(numba_cache_dir(), self.files)


def write_cache_files(root: Path, files: dict[str, bytes]) -> int:
    """Write `files` (path under `root` -> content) where absent or different; returns how many were written."""
    written = 0
    for relative, content in files.items():
        target = root / relative
        if target.is_file() and target.stat().st_size == len(content) and target.read_bytes() == content:
            continue  # the same file (the client's own cache, on one machine): never written twice
        write_bytes_atomically(target, content)
        written += 1
    return written

"""Writing result tables: Parquet files that carry their run's configuration, seed and versions.

Files are written to a temporary name and renamed, so a failed or interrupted write never leaves a
half-written table or damages the one already there; every data page carries a checksum. A write through
a symbolic link writes its target; a path holding something other than a regular file is refused.
"""

import contextlib
import json
import os
import platform
import tempfile
from importlib import metadata
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

VERSIONED_PACKAGES = ("mjsim", "numba", "numpy", "pandas", "pyarrow")


def versions() -> dict:
    found = {"python": platform.python_version()}
    for package in VERSIONED_PACKAGES:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def write_table(frame: pd.DataFrame | pa.Table, path: Path, config: dict) -> Path:
    """Write `frame` (a DataFrame or an Arrow table) to `path` with schema metadata `mjsim.config` (JSON, the
    seed inside) and `mjsim.versions`."""
    table = frame if isinstance(frame, pa.Table) else pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata(
        {
            **(table.schema.metadata or {}),
            b"mjsim.config": json.dumps(config, sort_keys=True).encode(),
            b"mjsim.versions": json.dumps(versions(), sort_keys=True).encode(),
        }
    )
    with _replacing(path) as temporary:
        pq.write_table(table, temporary, write_page_checksum=True)  # verified on read (sim.core.run_directory)
    return path


def write_text_atomically(path: Path, text: str) -> Path:
    """Write `text` to `path` so that a reader sees the old file or the new one, never half of one."""
    with _replacing(Path(path)) as temporary:
        Path(temporary).write_text(text, encoding="utf-8")
    return path


def write_bytes_atomically(path: Path, content: bytes) -> Path:
    """``write_text_atomically`` for bytes."""
    with _replacing(Path(path)) as temporary:
        Path(temporary).write_bytes(content)
    return path


class OutputPathError(ValueError):
    """An output path that mjsim will not write: it exists and is not a regular file."""


def output_target(path: Path) -> Path:
    """Where a write to `path` goes: through a symbolic link to its target; refused (OutputPathError) when
    what is there is not a regular file (a directory, a FIFO, a device), which would otherwise be replaced."""
    path = Path(path)
    if path.is_symlink():
        path = path.resolve()
    if path.exists() and not path.is_file():
        raise OutputPathError(f"{path} exists and is not a regular file; mjsim writes its output only to regular files")
    return path


@contextlib.contextmanager
def _replacing(path: Path):
    """A temporary file beside `path` that replaces it when the block succeeds and vanishes if it fails."""
    path = output_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    try:
        yield temporary
        os.chmod(temporary, 0o644)  # mkstemp creates 0600; results are meant to be shared
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def require_regular_file(path: Path) -> Path:
    """`path`, or an OSError if it is not a regular file: a pipe or a device put where a table should be
    would be read for ever."""
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing")
    if not Path(path).is_file():
        raise OSError(f"{path} is not a regular file")
    return Path(path)


def read_metadata(path: Path) -> dict:
    """The mjsim metadata of a table written by write_table."""
    raw = pq.read_schema(require_regular_file(path)).metadata or {}
    return {key.decode().removeprefix("mjsim."): json.loads(value) for key, value in raw.items() if key.startswith(b"mjsim.")}

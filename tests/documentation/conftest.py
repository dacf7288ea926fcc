"""The runs the docs' examples share (console_examples.SHARED_RUNS), each made once per test session, however
many pytest-xdist workers ask for it."""

import fcntl
import os
import shutil

import pytest
from console_examples import make_shared_run


@pytest.fixture(scope="session")
def shared_run(tmp_path_factory):
    """`shared_run(name)`: the folder in which SHARED_RUNS[name] was made (console_examples.make_shared_run)."""
    # Every worker has its own session; the folder above the workers' temporary folders is the whole
    # session's, so the first worker to ask makes the run there under a lock and the others wait and read it.
    session_folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        session_folder = session_folder.parent
    folder = session_folder / "docs-shared-runs"
    folder.mkdir(exist_ok=True)

    def made(name):
        directory = folder / name
        with open(folder / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (directory / "made").exists():
                if directory.exists():  # a failed attempt: start again
                    shutil.rmtree(directory)
                make_shared_run(name, directory)
                (directory / "made").touch()
        return directory

    return made

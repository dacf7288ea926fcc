"""Progress on a terminal: a bar, or a line per step; nothing when output is piped or redirected."""

import contextlib
import sys


@contextlib.contextmanager
def progress_bar(description: str, total: int):
    """Yields advance(n): a rich progress bar on a terminal's stderr, a no-op elsewhere."""
    if not sys.stderr.isatty():
        yield lambda amount=1: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=True) as progress:
        task = progress.add_task(description, total=total)
        yield lambda amount=1: progress.advance(task, amount)


def progress_lines():
    """Returns line(text): the text as a line on a terminal's stderr (a step of long work worth keeping on
    screen, such as a sequential test's LLR after each batch), a no-op when stderr is piped or redirected."""
    if not sys.stderr.isatty():
        return lambda text: None
    return lambda text: print(text, file=sys.stderr, flush=True)

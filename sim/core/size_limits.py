"""The sizes mjsim accepts, and the memory it allows itself.

The largest counts are checked up front, by the command line for its options and by the run directory's
reader for what run.json claims, so that a huge value is one error line, not an overflow deep in a kernel.
What a command holds in memory at once is estimated before it starts and compared with a budget, half of
the memory of this machine (or of the container it runs in): a size that cannot fit is one error line
saying how much it would need, not a process that grows until the system kills it.
"""

import os
from pathlib import Path

LARGEST_SEED = 2**63 - 1  # seeds become unsigned 64-bit stream keys
LARGEST_DEALS = 10**12
LARGEST_SHARD = 1_000_000  # deals held in memory at once per worker
LARGEST_SESSION = 100_000  # a replay plays its whole session up to the deal
MAX_SHARDS = 100_000  # files in one records directory, and entries in its manifest
LARGEST_DUEL = 10**8  # walls of a duel or league
LARGEST_SIMULATED = 10**9  # economics: horizon x players simulated (a matter of time; memory is estimated)
LARGEST_RUNS = 10**7  # campaign runs
MEMORY_SHARE = 0.5  # of the machine's memory, for one command
CGROUP_LIMIT = Path("/sys/fs/cgroup/memory.max")  # a container's limit (cgroup v2), when it has one


def physical_memory() -> int:
    """Bytes of memory this process may use at most: the machine's, or its container's limit if lower."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        total = 8 << 30  # a system that does not say: assume a small machine
    try:
        limit = CGROUP_LIMIT.read_text().strip()
        if limit.isdigit():
            total = min(total, int(limit))
    except OSError:
        pass
    return total


def memory_budget() -> int:
    return int(physical_memory() * MEMORY_SHARE)


def size_text(count: float) -> str:
    """Bytes in words: 1.5 GB, 320 MB, 12 KB."""
    for unit, size in (("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if count >= size:
            return f"{count / size:,.3g} {unit}"
    return f"{int(count):,} bytes"


def check_memory(needed: float, what: str, advice: str, error: type[Exception]) -> None:
    """`error` unless `needed` bytes fit the budget: "`what` would need about N of memory, ...; `advice`"."""
    budget = memory_budget()
    if needed > budget:
        raise error(f"{what} would need about {size_text(needed)} of memory, more than the {size_text(budget)} mjsim "
                    f"allows itself (half of this machine's {size_text(physical_memory())}); {advice}")

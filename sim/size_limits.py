"""The sizes mjsim accepts.

The largest counts are checked up front, by the command line for its options and by the run directory's
reader for what run.json claims, so that a huge value is one error line, not an overflow deep in a kernel.
"""

LARGEST_SEED = 2**63 - 1  # seeds become unsigned 64-bit stream keys
LARGEST_DEALS = 10**12
LARGEST_SHARD = 1_000_000  # deals held in memory at once per worker
LARGEST_SESSION = 100_000  # a replay plays its whole session up to the deal
MAX_SHARDS = 100_000  # files in one records directory, and entries in its manifest
LARGEST_DUEL = 10**8  # walls of a duel or league, held in memory
LARGEST_SIMULATED = 10**9  # economics: horizon x players simulated at once
LARGEST_RUNS = 10**7  # campaign runs: their rows are held in memory


def size_text(count: float) -> str:
    """Bytes in words: 1.5 GB, 320 MB, 12 KB."""
    for unit, size in (("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if count >= size:
            return f"{count / size:,.3g} {unit}"
    return f"{int(count):,} bytes"

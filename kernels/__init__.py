"""numba kernels over integer tile-count arrays: shanten, complete-hand check, waits, ukeire."""

from kernels.shanten import (
    UNREACHABLE,
    InvalidHandError,
    Shanten,
    discard_options,
    improving_draws,
    is_complete_many,
    shanten_forms,
    shanten_many,
    ukeire,
    ukeire_many,
    waits,
    waits_many,
)
from kernels.tables import load_tables

__all__ = [
    "UNREACHABLE",
    "InvalidHandError",
    "Shanten",
    "discard_options",
    "improving_draws",
    "is_complete_many",
    "load_tables",
    "shanten_forms",
    "shanten_many",
    "ukeire",
    "ukeire_many",
    "waits",
    "waits_many",
]

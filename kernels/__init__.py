"""numba kernels over integer tile-count arrays: shanten, complete-hand check, waits, ukeire."""

from kernels.compile_cache import use_code_keyed_numba_cache

use_code_keyed_numba_cache()  # before any kernel is defined

from kernels.shanten import (  # noqa: E402
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
from kernels.tables import load_tables  # noqa: E402

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

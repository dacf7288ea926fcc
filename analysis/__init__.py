"""Tables, statistics and economics computed from simulation output."""

from kernels.compile_cache import use_source_keyed_numba_cache

use_source_keyed_numba_cache()  # before any kernel is defined

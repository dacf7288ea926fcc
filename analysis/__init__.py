"""Tables, statistics and economics computed from simulation output."""

from kernels.compile_cache import use_code_keyed_numba_cache

use_code_keyed_numba_cache()  # before any kernel is defined

"""Rulesets, game engine, heuristics, runner and the `mjsim` command line."""

from kernels.compile_cache import use_code_keyed_numba_cache

use_code_keyed_numba_cache()  # before any kernel is defined

"""Rulesets, game engine, heuristics, runner and the `mjsim` command line."""

import os
import signal
import sys


def _abort_while_starting(signal_number, frame):
    os.write(2, b"aborted\n")
    os._exit(130)


# The `mjsim` command spends its first seconds importing numba and the kernels, before sim.cli.main can turn
# Ctrl-C into "aborted" and status 130; a Ctrl-C then would end it with a traceback or by the signal. Only
# the command is changed: a program that imports sim keeps its own Ctrl-C, and an ignored Ctrl-C stays
# ignored. sim.cli.main hands Ctrl-C back to Python (signal.default_int_handler) once it runs.
if (sys.orig_argv[1:3] == ["-m", "sim.cli"] or os.path.basename(sys.argv[0]) == "mjsim") \
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _abort_while_starting)

# after the handler, which must come first
from kernels.compile_cache import use_code_keyed_numba_cache

use_code_keyed_numba_cache()  # before any kernel is defined

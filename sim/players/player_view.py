"""What users' players see their deal through (docs/write-a-player.md): copies for a numba player, read-only
views for a Python one.

A numba player runs inside the engine's compiled loop, where nothing stops it writing into an array it is
handed. So it is never handed the engine's own arrays. Each batch makes one ``PlayerView``; at each decision
of a numba seat, the family's ``numba_observation`` copies what that seat may see into the view's state,
its legal actions and work into the view's work, and its parameters into ``parameters``, and the
observation's arrays are views of those copies. Whatever a player writes into them, the deal, the engine's
legality check and the other seats are untouched: the next decision copies afresh. The rules' arrays are
copied once per batch (the shanten tables are 20 MB): a player that writes into them spoils only what the
batch's numba players compute.

A Python player's observation reads the deal's state through ``read_only_state``: views made once per
batch over read-only buffers, which numpy refuses to write into and refuses to make writable again. What
the observation hands out is copied from them when read.
"""

from typing import NamedTuple

import numpy as np

from sim.core.deal_rules import Rules


class PlayerView(NamedTuple):
    state: tuple  # the family's State: what the deciding seat may see, copied at each decision (the rest zeros)
    work: tuple  # the family's Work: the legal actions, the unseen counts and the player's scratch arrays
    rules: Rules  # the batch's rules, copied
    parameters: np.ndarray  # float64: the deciding seat's parameters, copied at each decision


def _copied(array: np.ndarray) -> np.ndarray:
    """A copy with the same type for numba: C order, and read-only where the original is (the fan tables)."""
    copy = np.array(array, order="C", copy=True)
    copy.flags.writeable = array.flags.writeable
    return copy


def new_player_view(state, work, rules: Rules, n_parameters: int, copy_rules: bool = True) -> PlayerView:
    """A view over fresh `state` and `work` (the family's ``new_state()``, ``new_work()``). `copy_rules`
    False shares the engine's rules: for a batch whose seats read no view (no numba player)."""
    shown_rules = Rules(*(_copied(array) for array in rules)) if copy_rules else rules
    return PlayerView(state, work, shown_rules, np.zeros(n_parameters))


def read_only_view(array: np.ndarray) -> np.ndarray:
    """A view of `array` (C-contiguous) that can be read but never written, nor made writable: its buffer is
    read-only (a plain view's ``writeable`` flag can be set back)."""
    return np.frombuffer(memoryview(array).toreadonly(), dtype=array.dtype).reshape(array.shape)


def read_only_state(state: tuple) -> tuple:
    """The family's State (or any named tuple of arrays) as read-only views of the same memory."""
    return type(state)(*(read_only_view(array) for array in state))

"""The copies a numba player sees its deal through (docs/write-a-player.md#a-numba-player).

A numba player runs inside the engine's compiled loop, where nothing stops it writing into an array it is
handed. So it is never handed the engine's own arrays. Each batch makes one ``PlayerView``; at each decision
of a numba seat, the family's ``numba_observation`` copies what that seat may see into the view's state,
its legal actions and work into the view's work, and its parameters into ``parameters``, and the
observation's arrays are views of those copies. Whatever a player writes into them, the deal, the engine's
legality check and the other seats are untouched: the next decision copies afresh. The rules' arrays are
copied once per batch (the shanten tables are 20 MB): a player that writes into them spoils only what the
batch's numba players compute.
"""

from typing import NamedTuple

import numpy as np

from sim.deal_rules import Rules


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

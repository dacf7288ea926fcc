"""The rules of a deal as the kernels take them: one named tuple of arrays, built from a ruleset.

Every family's engine and players read the same fields: the fan evaluator's arrays (``kernels.fans``),
the shanten tables (``kernels.tables``), the copies of each kind in the wall, the complete-hand bit table
(``kernels.win_check``), and ``settings``, the ruleset's switches as integers, whose slots each family
names in its ``table`` module (``sim.erren.table.MIN_FAN``, ``sim.xuezhan.table.CAP``, ...).
"""

from typing import NamedTuple

import numpy as np

from kernels.tables import load_tables
from kernels.tiles import TILE_SETS
from kernels.win_check import load_complete_bits


class Rules(NamedTuple):
    fan_values: np.ndarray  # per fan id, its value (0: not in the ruleset)
    fan_priority: np.ndarray  # fan ids in the order their exclusions apply
    exclusion_start: np.ndarray  # fan id -> first row of its exclusions in exclusion_target
    exclusion_target: np.ndarray  # the fans each fan excludes (不计)
    suit_table: np.ndarray  # per-suit shanten table (5^9 rows)
    honour_table: np.ndarray  # the honours' table (5^7 rows)
    settings: np.ndarray  # int64: the family's switches, slots named in sim.<family>.table
    tile_set: np.ndarray  # copies of each of the 34 kinds in the wall
    complete_bits: np.ndarray  # one bit per suit vector: sets only, or sets and one pair
    is_limit: np.ndarray  # bool per fan id: a 役满 (kernels/fans/challenge.py); all False elsewhere


def deal_rules(ruleset, settings: np.ndarray) -> tuple[Rules, np.ndarray]:
    """The kernels' rules for `ruleset` with the family's `settings`, and the wall template: every tile of
    the ruleset's tile set once per copy, ordered by kind (a family appends what else its wall holds)."""
    tables = load_tables()
    tile_set = TILE_SETS[ruleset.tile_set]
    template = np.repeat(np.flatnonzero(tile_set), tile_set[tile_set > 0]).astype(np.int8)
    values, priority, exclusion_start, exclusion_target = ruleset.kernel_arrays()
    rules = Rules(values, priority, exclusion_start, exclusion_target, tables.suit, tables.honors, settings,
                  np.array(tile_set), load_complete_bits(), ruleset.is_limit)
    return rules, template

"""The numeric observation for networks, the part every family shares (docs/learning.md#the-observation): one
flat int16 vector per seat and decision, made of named blocks. A block is a run of entries with one meaning
and one range, repeated once per seat slot where it describes a seat (slot 0 is the observing seat, slot 1 the
next seat in turn order, and so on), so a network sees every table from its own chair.

A family's ``sim.<family>.encoding`` lists its blocks as a ``Layout`` and fills them in numba; the layout
gives each block's first entry as a plain integer (a constant for numba), the vector's bounds for a Gymnasium
``Box``, and the table the docs print. Values past int16 saturate at ``LARGEST`` (a setting such as a chance
in millionths); the blocks' ``high`` says where that can happen.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

DTYPE = np.int16
LARGEST = 32767


class Block(NamedTuple):
    name: str
    size: int  # entries per copy
    low: int
    high: int
    meaning: str
    copies: int = 1  # one per seat slot for a seat's block


class Layout:
    """Blocks laid end to end. ``start(name)``: the block's first entry (its copy for slot r starts r x size
    later); ``size``: the vector's length; ``bounds()``: its low and high vectors."""

    def __init__(self, blocks):
        self.blocks = tuple(blocks)
        self._starts, position = {}, 0
        for block in self.blocks:
            if block.name in self._starts:
                raise ValueError(f"two blocks named {block.name}")
            self._starts[block.name] = position
            position += block.size * block.copies
        self.size = position

    def start(self, name: str) -> int:
        return self._starts[name]

    def extended(self, blocks) -> "Layout":
        """This layout with `blocks` after it (the oracle's: the seat's vector is the oracle's first part)."""
        return Layout(self.blocks + tuple(blocks))

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        low, high = np.zeros(self.size, DTYPE), np.zeros(self.size, DTYPE)
        for block in self.blocks:
            first = self._starts[block.name]
            last = first + block.size * block.copies
            low[first:last], high[first:last] = block.low, block.high
        return low, high

    def rows(self) -> list[dict]:
        """One row per block, for the docs: name, entries, copies, range, meaning."""
        return [{"block": block.name, "first": self._starts[block.name], "entries": block.size, "copies": block.copies,
                 "low": block.low, "high": block.high, "meaning": block.meaning} for block in self.blocks]


@njit(cache=True, inline="always", _nrt=False)
def put(out, index, value):
    """out[index] = value, saturated to the int16 range."""
    out[index] = min(max(value, -LARGEST), LARGEST)


@njit(cache=True, inline="always", _nrt=False)
def clear(out):
    for index in range(out.shape[0]):
        out[index] = 0


@njit(cache=True, inline="always", _nrt=False)
def put_history(out, first, length, order, count):
    """The last `length` of a seat's `count` discards in `order`, oldest first, as kind + 1 (0: none yet)."""
    skip = max(0, count - length)
    for index in range(skip, min(count, order.shape[0])):
        out[first + index - skip] = order[index] + 1

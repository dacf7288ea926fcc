"""The complete-hand check the game engine runs on every draw and discard, from a 244 KB bit table.

A deal asks "is this hand complete?" dozens of times, one dependent question after another, so the
answer must not wait on the 20 MB shanten table (a cache miss per question). For a hand of 万 and honour
tiles it is enough to know, for each vector of 万 counts (read as a base-5 number, rank r as digit r, as
in ``kernels/tables.py``), whether the 万 tiles are exactly sets plus at most one pair: the honours must
then be pungs and at most one pair (a fourth honour copy fits no set). One bit per vector, derived from
the shanten table's zero-cost cells, fits in the L2 cache. Seven pairs (four of a kind = two pairs) is
read directly. The tests compare the check with shanten == -1 on every 万 vector and on random hands.
"""

import functools

import numpy as np
from numba import njit

from kernels.tables import SUIT_RANKS, load_tables
from kernels.tiles import HONOR_START, N_KINDS

WAN_VECTORS = 5**SUIT_RANKS


@functools.cache
def load_complete_bits() -> np.ndarray:
    """uint8 bitset over 万 vectors: bit set when the vector is exactly sets plus one pair (if its size
    is 2 mod 3) or exactly sets (if 0 mod 3)."""
    suit = load_tables().suit
    digits = np.zeros(WAN_VECTORS, np.int64)
    index = np.arange(WAN_VECTORS)
    for _ in range(SUIT_RANKS):
        digits += index % 5
        index //= 5
    sets, remainder = np.divmod(digits, 3)
    column = np.where(remainder == 2, 2 * sets + 1, 2 * sets)
    complete = (remainder != 1) & (sets <= 4) & (suit[np.arange(WAN_VECTORS), np.minimum(column, 9)] == 0)
    return np.packbits(complete, bitorder="little")


@njit(cache=True, _nrt=False)
def is_complete(counts, n_melds, bits):
    """Whether a hand of 万 and honours (3k+2 concealed tiles beside n_melds melds) is complete."""
    index = 0
    scale = 1
    wan = 0
    odd = 0
    for rank in range(SUIT_RANKS):
        count = counts[rank]
        index += count * scale
        scale *= 5
        wan += count
        odd += count & 1
    honour_pairs = 0
    standard = True
    for kind in range(HONOR_START, N_KINDS):
        count = counts[kind]
        odd += count & 1
        if count == 1 or count == 4:
            standard = False
        elif count == 2:
            honour_pairs += 1
    if n_melds == 0 and odd == 0:
        return True  # seven pairs: 14 tiles, every count even
    if not standard or honour_pairs > 1:
        return False
    if (wan % 3 == 2) == (honour_pairs == 1):
        return False  # the pair must be in exactly one place
    return (bits[index >> 3] >> (index & 7)) & 1 == 1

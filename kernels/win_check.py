"""The complete-hand check the game engine runs on every draw and discard, from a 244 KB bit table.

A deal asks "is this hand complete?" dozens of times, one dependent question after another, so the
answer must not wait on the 20 MB shanten table (a cache miss per question). For a hand of 万 and honour
tiles it is enough to know, for each vector of 万 counts (read as a base-5 number, rank r as digit r, as
in ``kernels/tables.py``), whether the 万 tiles are exactly sets plus at most one pair: the honours must
then be pungs and at most one pair (a fourth honour copy fits no set). One bit per vector, derived from
the shanten table's zero-cost cells, fits in the L2 cache. Seven pairs (four of a kind = two pairs) is
read directly. The tests compare the check with shanten == -1 on every 万 vector and on random hands.

``is_complete_all_suits`` is the same check for hands of all 34 kinds (erren-challenge): each suit's
vector reads the same bit table, and it also knows thirteen orphans, the one form no 万-and-honours hand
can make.
"""

import functools

import numpy as np
from numba import njit

from kernels.tables import SUIT_RANKS, load_tables
from kernels.tiles import HONOR_START, N_KINDS, SUIT_SIZE

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


@njit(cache=True, inline="always", _nrt=False)
def _suit_reading(counts, start, bits):
    """(tiles, odd counts, complete) of one suit's vector: complete when it is exactly sets plus at most one pair."""
    index = 0
    scale = 1
    tiles = 0
    odd = 0
    for rank in range(SUIT_RANKS):
        count = counts[start + rank]
        index += count * scale
        scale *= 5
        tiles += count
        odd += count & 1
    return tiles, odd, (bits[index >> 3] >> (index & 7)) & 1 == 1


@njit(cache=True, _nrt=False)
def is_complete_all_suits(counts, n_melds, bits):
    """Whether a hand of any of the 34 kinds (3k+2 concealed tiles beside n_melds melds) is complete: sets
    and one pair, seven pairs (four of a kind = two pairs) or thirteen orphans."""
    odd, pairs_at, standard = 0, 0, True
    for start in (0, SUIT_SIZE, 2 * SUIT_SIZE):
        tiles, suit_odd, complete = _suit_reading(counts, start, bits)
        odd += suit_odd
        standard = standard and complete
        pairs_at += tiles % 3 == 2
    orphans, orphan_pairs = 0, 0
    for kind in range(HONOR_START, N_KINDS):
        count = counts[kind]
        odd += count & 1
        if count == 1 or count == 4:
            standard = False
        elif count == 2:
            pairs_at += 1
    if n_melds == 0:
        if odd == 0:
            return True  # seven pairs: 14 tiles, every count even
        for kind in range(N_KINDS):
            count = counts[kind]
            if kind < HONOR_START and 0 < kind % SUIT_SIZE < SUIT_SIZE - 1:
                if count > 0:
                    orphans = -99  # a simple tile: no thirteen orphans
            elif count > 0:
                orphans += 1
                orphan_pairs += count == 2
        if orphans == 13 and orphan_pairs == 1:
            return True
    return standard and pairs_at == 1

"""The smaller and the larger of two numbers, and the set bits of a mask, for the hot kernels, inlined where
numba's own are not.

numba's built-in ``min`` and ``max`` are overloads compiled as functions of their own, and in a kernel as
large as a whole deal LLVM leaves many of them as calls: with perf, on 2026-12-02, they took a sixth of a
challenge deal's time. These are inlined in numba's own IR, so no call is left.

Mixing a signed and an unsigned 64-bit integer makes numba unify them to float64, and a sum of two uint8
table entries is a uint64: kernels convert table entries to int64 (``np.int64``) before adding them.
"""

from numba import njit


@njit(cache=True, inline="always", _nrt=False)
def smaller(a, b):
    return a if a < b else b


@njit(cache=True, inline="always", _nrt=False)
def larger(a, b):
    return a if a > b else b


@njit(cache=True, inline="always", _nrt=False)
def bit_count(bits):
    """The set bits of a non-negative int64, in a few operations rather than a loop per bit."""
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (bits * 0x0101010101010101) >> 56

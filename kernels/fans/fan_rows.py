"""Sparse fan rows, as the MCR evaluators keep them (``kernels.fans.mcr``, ``kernels.fans.mcr_all_suits``): a row
of the work array holds each fan's count by fan id, and a list row beside it names the fans set (its column
0 the length), so that a reading is cleared or copied in as many steps as it has fans, not N_FANS.
"""

from numba import njit


@njit(cache=True, inline="always", _nrt=False)
def put(work, row, list_row, fan, value):
    """Set `fan` of the row to `value` (> 0), listing it if it was absent."""
    if work[row, fan] == 0:
        length = work[list_row, 0] + 1
        work[list_row, 0] = length
        work[list_row, length] = fan
    work[row, fan] = value


@njit(cache=True, _nrt=False)
def clear(work, row, list_row):
    """Zero the fans the list names and empty it."""
    for index in range(1, work[list_row, 0] + 1):
        work[row, work[list_row, index]] = 0
    work[list_row, 0] = 0


@njit(cache=True, _nrt=False)
def copy(work, row, list_row, to_row, to_list_row):
    """Make (to_row, to_list_row) hold the fans of (row, list_row)."""
    clear(work, to_row, to_list_row)
    length = work[list_row, 0]
    for index in range(1, length + 1):
        fan = work[list_row, index]
        work[to_list_row, index] = fan
        work[to_row, fan] = work[row, fan]
    work[to_list_row, 0] = length

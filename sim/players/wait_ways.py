"""The ways an opponent can be waiting on a tile, from the tiles a player cannot see: the measure of danger
that the defensive heuristic and both ev players share (each adds its own pair and single waits)."""

from numba import njit

from kernels.tiles import SUIT_SIZE


@njit(cache=True, inline="always", _nrt=False)
def chow_wait_ways(unseen, kind, suit_start):
    """For each chow through `kind` within its suit (the suit's kinds from `suit_start`), two times the
    scarcest share (unseen copies of four) of its other two tiles: the chows that `kind` would finish,
    weighted by how possible they still are."""
    ways = 0.0
    for low in range(max(suit_start, kind - 2), min(kind, suit_start + SUIT_SIZE - 3) + 1):
        other = 1.0
        for tile in range(low, low + 3):
            if tile != kind:
                other = min(other, max(unseen[tile], 0) / 4.0)
        ways += 2.0 * other
    return ways

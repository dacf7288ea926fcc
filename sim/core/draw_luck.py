"""The luck of the draws: what each tile drawn from the wall gave the drawing seat, less what a tile drawn at
random from the tiles still in that part of the wall would have given it on average (AIVAT-style control
variates, docs/duels-and-leagues.md#luck-of-the-draws).

Given everything before a draw, the tile drawn is uniform over the wall's remaining tiles: the wall was
shuffled uniformly and no player sees its order, so this holds whatever the players do. Hence for any
function g of (the drawing seat's hand and melds, the tile), g(tile drawn) - mean of g over the remaining
tiles has expectation zero, and so has its sum over a deal's draws, per seat, for any players. These sums
are the features ``sim.core.control_variates`` takes out of duplicate results. The g's (FEATURES):

- ``improvement``: 1 when the tile lowers the seat's shanten, else 0 (a flower: 0);
- ``readying``: the same, counted only when it makes the hand ready (from shanten 1 to 0);
- ``completion``: 1 when the tile completes the hand;
- ``win_value``: what the self-drawn win the tile completes would be worth (the family's own pricing of the
  win; 0 when it is no win);
- ``discard_win_value``: for every other seat still in whose hand is ready, what its win on the tile would be
  worth were the tile thrown: the drawer's luck is also theirs.

An engine measures a deal's luck when its ``work.luck`` has rows (``new_luck``): a runtime switch, so no
second compiled copy of the engine exists. It tallies the remaining tiles and the shanten after each draw
(``tally_wall``, ``distances_after_draw``), fills the win values of the completing kinds in its own way, adds
the draw's luck to the seat's sums (``add_draw``) and keeps the deal's sums in its row (``keep``).
"""

import numpy as np
from numba import njit

from kernels.shanten import _distances_after_draw
from kernels.tiles import N_KINDS

FEATURES = ("improvement", "readying", "completion", "win_value", "discard_win_value")
IMPROVEMENT, READYING, COMPLETION, WIN_VALUE, DISCARD_WIN_VALUE = range(len(FEATURES))
# Rows of an engine's tally (int64 (3, 34)): the copies of each kind left in the wall's part in play, the
# hand's distance (shanten + 1) after drawing each kind, and the value of the win each kind completes (0 for
# none; the engine prices only a ready hand's wins, the only ones a draw can complete).
REMAINING, DISTANCE, VALUE = range(3)
COMPLETE = 0  # the distance of a complete hand


def new_luck(deals: int, seats: int) -> np.ndarray:
    """float64 (deals, seats, FEATURES): each deal's luck per seat and feature; 0 deals switches measuring off."""
    return np.zeros((deals, seats, len(FEATURES)), np.float64)


def new_tally() -> np.ndarray:
    return np.zeros((3, N_KINDS), np.int64)


@njit(cache=True, inline="always", _nrt=False)
def measuring(luck):
    return luck.shape[0] > 0


@njit(cache=True, _nrt=False)
def begin_deal(sums):
    """Zero a deal's sums (seats, FEATURES)."""
    for seat in range(sums.shape[0]):
        for feature in range(sums.shape[1]):
            sums[seat, feature] = 0.0


@njit(cache=True, _nrt=False)
def keep(luck, sums, row):
    """The deal's sums into row `row` of `luck`, when luck is measured."""
    if luck.shape[0] > row:
        for seat in range(sums.shape[0]):
            for feature in range(sums.shape[1]):
                luck[row, seat, feature] = sums[seat, feature]


@njit(cache=True, _nrt=False)
def tally_wall(wall, first, last, tally):
    """tally[REMAINING] = copies of each kind in wall[first .. last]; returns how many tiles that is, flowers
    (kinds past the 34) included: each is as likely to be drawn."""
    for kind in range(N_KINDS):
        tally[REMAINING, kind] = 0
        tally[VALUE, kind] = 0
    for position in range(first, last + 1):
        tile = wall[position]
        if tile < N_KINDS:
            tally[REMAINING, tile] += 1
    return last - first + 1


@njit(cache=True, _nrt=False)
def clear_values(tally):
    for kind in range(N_KINDS):
        tally[VALUE, kind] = 0


@njit(cache=True, _nrt=False)
def distances_after_draw(hand, n_melds, suit_table, honour_table, scratch, tally):
    """tally[DISTANCE] = the hand's distance after drawing each kind left; returns its distance before."""
    return _distances_after_draw(hand, n_melds, tally[REMAINING], suit_table, honour_table, scratch, tally[DISTANCE])


@njit(cache=True, _nrt=False)
def add_draw(sums, seat, drawn, total, before, tally):
    """Add the luck of drawing `drawn` (a kind; a flower is >= 34) from `total` tiles tallied in `tally`, the
    hand's distance `before` the draw, to sums[seat]."""
    improving, completing, value = 0.0, 0.0, 0.0
    for kind in range(N_KINDS):
        copies = tally[REMAINING, kind]
        if copies == 0:
            continue
        distance = tally[DISTANCE, kind]
        if distance < before:
            improving += copies
        if distance == COMPLETE:
            completing += copies
        value += copies * tally[VALUE, kind]
    readying = before == COMPLETE + 2
    sums[seat, IMPROVEMENT] -= improving / total
    if readying:
        sums[seat, READYING] -= improving / total
    sums[seat, COMPLETION] -= completing / total
    sums[seat, WIN_VALUE] -= value / total
    if drawn < N_KINDS:
        distance = tally[DISTANCE, drawn]
        if distance < before:
            sums[seat, IMPROVEMENT] += 1.0
            if readying:
                sums[seat, READYING] += 1.0
        if distance == COMPLETE:
            sums[seat, COMPLETION] += 1.0
        sums[seat, WIN_VALUE] += tally[VALUE, drawn]


@njit(cache=True, _nrt=False)
def add_value(sums, seat, feature, drawn, total, tally):
    """Add tally[VALUE] of the tile drawn less its mean over the `total` tiles tallied to sums[seat, feature]."""
    value = 0.0
    for kind in range(N_KINDS):
        value += tally[REMAINING, kind] * tally[VALUE, kind]
    sums[seat, feature] -= value / total
    if drawn < N_KINDS:
        sums[seat, feature] += tally[VALUE, drawn]

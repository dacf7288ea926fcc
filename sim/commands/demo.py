"""The kernel demonstration run by `mjsim demo`: how far initial 二人麻将 hands are from ready.

Deals the 64 tiles of 万 and honours (flowers left out: they are replaced before play and do not change
the hands' shapes), 14 to the dealer and 13 to the other player, from a stream per deal, and tabulates
the shanten of both hands (so the chance of a complete dealer hand, 天胡 before flowers) and the
non-dealer's ukeire. Until the game engine exists this is the project's main job.
"""

import numpy as np
import pandas as pd
from numba import njit

import kernels
from kernels.tiles import N_KINDS, TILE_SET_WAN_HONOURS
from sim.core.random_streams import shuffle_in_place, stream_state

DEALER_TILES, OTHER_TILES = 14, 13


@njit(cache=True)
def _deal_initial_hands(seed, first_deal, wall, dealer_hands, other_hands):
    shuffled = wall.copy()
    for row in range(dealer_hands.shape[0]):
        shuffled[:] = wall
        shuffle_in_place(stream_state(seed, 0, first_deal + row), shuffled)
        for position in range(DEALER_TILES):
            dealer_hands[row, shuffled[position]] += 1
        for position in range(DEALER_TILES, DEALER_TILES + OTHER_TILES):
            other_hands[row, shuffled[position]] += 1


def deal_initial_hands(seed: int, n_deals: int, first_deal: int = 0):
    """(dealer hands, other hands) as (n_deals, 34) counts; deal i depends only on (seed, first_deal + i)."""
    wall = np.repeat(np.flatnonzero(TILE_SET_WAN_HONOURS), 4).astype(np.int64)
    dealer = np.zeros((n_deals, N_KINDS), np.int8)
    other = np.zeros((n_deals, N_KINDS), np.int8)
    _deal_initial_hands(seed, first_deal, wall, dealer, other)
    return dealer, other


def initial_shanten_table(seed: int, n_deals: int, chunk: int = 100_000, progress=None) -> pd.DataFrame:
    """Per seat and shanten: deals, share of deals, and the non-dealer's mean ukeire at that shanten."""
    dealer_counts = np.zeros(9, np.int64)
    other_counts = np.zeros(9, np.int64)
    ukeire_sums = np.zeros(9, np.int64)
    for first in range(0, n_deals, chunk):
        size = min(chunk, n_deals - first)
        dealer, other = deal_initial_hands(seed, size, first)
        dealer_shanten = kernels.shanten_many(dealer) + 1
        other_shanten = kernels.shanten_many(other) + 1
        # The non-dealer sees nothing yet but its own hand; only 万 and honours are in the wall.
        ukeire = kernels.ukeire_many(other, tile_set=TILE_SET_WAN_HONOURS)
        dealer_counts += np.bincount(dealer_shanten, minlength=9)
        other_counts += np.bincount(other_shanten, minlength=9)
        ukeire_sums += np.bincount(other_shanten, weights=ukeire, minlength=9).astype(np.int64)
        if progress is not None:
            progress(size)
    rows = []
    for seat, counts in (("dealer", dealer_counts), ("non-dealer", other_counts)):
        for shifted in np.flatnonzero(counts):
            rows.append(
                {
                    "seat": seat,
                    "shanten": int(shifted) - 1,
                    "deals": int(counts[shifted]),
                    "share": counts[shifted] / n_deals,
                    "mean_ukeire": ukeire_sums[shifted] / counts[shifted] if seat == "non-dealer" else float("nan"),
                }
            )
    return pd.DataFrame(rows)

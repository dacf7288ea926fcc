"""Tile kinds and tile sets: the integer constants every kernel and the notation share.

Kinds (docs/rules/README.md#tiles-and-notation): 0-8 万 (m), 9-17 筒 (p), 18-26 条 (s), 27-30 东南西北, 31-33 白发中,
and flowers 34-41 (one copy each). Kernels work on count arrays of length ``N_KINDS`` indexed by kind.
"""

import numpy as np

N_KINDS = 34
N_FLOWERS = 8
FIRST_FLOWER = 34
COPIES_PER_KIND = 4

MAN_START, PIN_START, SOU_START, HONOR_START = 0, 9, 18, 27
SUIT_STARTS = (MAN_START, PIN_START, SOU_START)
SUIT_LETTERS = "mps"
SUIT_SIZE = 9
N_HONORS = 7

# A tile set says how many copies of each kind are in the wall: 4 for kinds in play, 0 for the others.
TILE_SET_ALL = np.full(N_KINDS, COPIES_PER_KIND, dtype=np.int8)
TILE_SET_WAN_HONOURS = TILE_SET_ALL.copy()
TILE_SET_WAN_HONOURS[PIN_START:HONOR_START] = 0
# The 血战 family: 筒 and 条 only, 72 tiles.
TILE_SET_TONG_TIAO = np.zeros(N_KINDS, dtype=np.int8)
TILE_SET_TONG_TIAO[PIN_START:HONOR_START] = COPIES_PER_KIND
TILE_SET_ALL.setflags(write=False)
TILE_SET_WAN_HONOURS.setflags(write=False)
TILE_SET_TONG_TIAO.setflags(write=False)

TILE_SETS = {"all": TILE_SET_ALL, "wan-honours": TILE_SET_WAN_HONOURS, "tong-tiao": TILE_SET_TONG_TIAO}

# Meld codes: a meld is (code, lowest tile kind); sim.core.notation.MeldKind names them.
MELD_CHOW, MELD_PONG, MELD_KONG, MELD_CONCEALED_KONG = 0, 1, 2, 3

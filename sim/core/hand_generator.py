"""Random winning hands of 万 and honour tiles, with random win contexts, for tests and the benchmark.

Uniformly random complete hands almost never show the rare fans, so a share of the hands is built from
shape templates (大四喜, 九莲宝灯, 四杠, 连七对, ...) with the remaining sets filled at random. Every hand
is valid: at most four copies of a kind counting the melds, the right size, a winning tile taken from
the concealed part. The context is random but typed the way the game produces it: 杠上开花 only on a
self-draw, 抢杠胡 only on a claim; 和绝张 and the kong flags may still disagree with the tiles, which
the evaluator must normalise exactly as MCR's reference does.
"""

from dataclasses import dataclass

import numpy as np

from kernels.fan_ids import (
    FOURTH_TILE_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
)
from kernels.tiles import MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_KINDS

WAN = list(range(9))
WINDS = [27, 28, 29, 30]
DRAGONS = [31, 32, 33]
HONOURS = WINDS + DRAGONS
KINDS = WAN + HONOURS


def _pool(chows, pungs, pairs):
    return (list(chows), list(pungs), list(pairs))


POOLS = {
    "any": _pool(range(7), KINDS, KINDS),
    "wan": _pool(range(7), WAN, WAN),
    "upper": _pool([5, 6], [5, 6, 7, 8], [5, 6, 7, 8]),
    "lower": _pool([0, 1], [0, 1, 2, 3], [0, 1, 2, 3]),
    "outside": _pool([0, 6], [0, 8] + HONOURS, [0, 8] + HONOURS),
    "simples": _pool([1, 2, 3, 4, 5], range(1, 8), range(1, 8)),
    "terminals_honours": _pool([], [0, 8] + HONOURS, [0, 8] + HONOURS),
    "honours": _pool([], HONOURS, HONOURS),
    "chows": _pool(range(7), [], WAN),
    "pungs": _pool([], KINDS, KINDS),
    "no_wind_pair": _pool(range(7), KINDS, WAN + DRAGONS),
    "no_dragon_pair": _pool(range(7), KINDS, WAN + WINDS),
}


def _start(rng, low, high):
    return int(rng.integers(low, high + 1))


# Each template: (weight, pool for the free sets, fixed sets as a function of rng, meld policy).
# A set is ("c", first tile) or ("p", kind); a pair is ("pair", kind).
def _templates():
    def winds(k):
        return lambda rng: [("p", kind) for kind in rng.choice(WINDS, k, replace=False)]

    def dragons(k):
        return lambda rng: [("p", kind) for kind in rng.choice(DRAGONS, k, replace=False)]

    def little_four(rng):
        chosen = rng.permutation(WINDS)
        return [("p", chosen[0]), ("p", chosen[1]), ("p", chosen[2]), ("pair", chosen[3])]

    def little_three(rng):
        chosen = rng.permutation(DRAGONS)
        return [("p", chosen[0]), ("p", chosen[1]), ("pair", chosen[2])]

    def little_three_winds(rng):
        chosen = rng.permutation(WINDS)
        return [("p", chosen[0]), ("p", chosen[1]), ("pair", chosen[2])]

    def chows_at(*offsets, high):
        def build(rng):
            start = _start(rng, 0, high)
            return [("c", start + offset) for offset in offsets]
        return build

    def pungs_at(*offsets, high):
        def build(rng):
            start = _start(rng, 0, high)
            return [("p", start + offset) for offset in offsets]
        return build

    return [
        (30, "any", lambda rng: [], "random"),
        (6, "wan", lambda rng: [], "random"),
        (6, "chows", lambda rng: [], "random"),
        (5, "pungs", lambda rng: [], "random"),
        (4, "any", lambda rng: [], "concealed"),
        (3, "pungs", lambda rng: [], "concealed"),
        (3, "any", winds(4), "random"),
        (3, "any", dragons(3), "random"),
        (3, "no_wind_pair", winds(3), "random"),
        (3, "no_dragon_pair", dragons(2), "random"),
        (3, "any", little_four, "random"),
        (3, "any", little_three, "random"),
        (3, "no_wind_pair", little_three_winds, "random"),
        (3, "honours", lambda rng: [], "random"),
        (3, "terminals_honours", lambda rng: [], "random"),
        (3, "outside", lambda rng: [], "random"),
        (3, "simples", lambda rng: [], "random"),
        (3, "upper", lambda rng: [], "random"),
        (3, "lower", lambda rng: [], "random"),
        (2, "wan", lambda rng: [("c", 0), ("c", 0), ("c", 6), ("c", 6), ("pair", 4)], "random"),
        (3, "any", chows_at(0, 0, 0, 0, high=6), "random"),
        (3, "any", chows_at(0, 0, 0, high=6), "random"),
        (3, "any", chows_at(0, 1, 2, 3, high=3), "random"),
        (3, "any", chows_at(0, 2, 4, 6, high=0), "random"),
        (3, "any", chows_at(0, 1, 2, high=4), "random"),
        (3, "any", chows_at(0, 2, 4, high=2), "random"),
        (3, "any", chows_at(0, 3, 6, high=0), "random"),
        (3, "any", chows_at(0, 3, high=3), "random"),
        (3, "any", chows_at(0, 0, high=6), "random"),
        (2, "any", chows_at(0, 6, high=0), "random"),
        (3, "any", pungs_at(0, 1, 2, 3, high=5), "random"),
        (3, "any", pungs_at(0, 1, 2, high=6), "random"),
        (3, "any", lambda rng: [], "kongs3"),
        (3, "pungs", lambda rng: [], "kongs4"),
        (3, "any", lambda rng: [], "kongs2"),
        (3, "any", lambda rng: [], "melded"),
    ]


TEMPLATES = _templates()
TEMPLATE_WEIGHTS = np.array([weight for weight, *_ in TEMPLATES], float)
TEMPLATE_WEIGHTS /= TEMPLATE_WEIGHTS.sum()


@dataclass
class WinningHands:
    """Columns of N winning hands in the layout `kernels.fans.mcr.score_many` takes."""

    concealed: np.ndarray  # (N, 34) int8, without the winning tile
    melds: np.ndarray  # (N, 4, 2) int8 rows of (kind, first tile)
    n_melds: np.ndarray  # (N,) int8
    win: np.ndarray  # (N,) int8
    flags: np.ndarray  # (N,) int32
    flowers: np.ndarray  # (N,) int8

    def __len__(self):
        return len(self.win)

    def kernel_arrays(self):
        return self.concealed, self.melds, self.n_melds, self.win, self.flags, self.flowers


def fill_sets(rng, fixed, pool):
    """Sets and pair: the template's `fixed` ones, then random ones from `pool` (chow starts, pung kinds, pair
    kinds); None if the copies run out. sim.erren.challenge.hand_generator fills its templates with it too."""
    chows, pungs, pairs = pool
    left = np.full(N_KINDS, 4, np.int64)
    sets, pair = [], None
    for kind, tile in fixed:
        tile = int(tile)
        if kind == "pair":
            pair = tile
            left[tile] -= 2
        else:
            sets.append((kind, tile))
            for used in ((tile, tile + 1, tile + 2) if kind == "c" else (tile,) * 3):
                left[used] -= 1
    if left.min() < 0:
        return None
    for _ in range(40):
        if len(sets) == 4:
            break
        use_chow = chows and (not pungs or rng.random() < 0.55)
        if use_chow:
            tile = int(rng.choice(chows))
            if min(left[tile], left[tile + 1], left[tile + 2]) >= 1:
                sets.append(("c", tile))
                left[tile : tile + 3] -= 1
        else:
            tile = int(rng.choice(pungs))
            if left[tile] >= 3:
                sets.append(("p", tile))
                left[tile] -= 3
    if len(sets) < 4:
        return None
    if pair is None:
        choices = [kind for kind in pairs if left[kind] >= 2]
        if not choices:
            return None
        pair = int(rng.choice(choices))
        left[pair] -= 2
    return sets, pair, left


def _standard_hand(rng):
    while True:
        index = rng.choice(len(TEMPLATES), p=TEMPLATE_WEIGHTS)
        _, pool, fixed, policy = TEMPLATES[index]
        filled = fill_sets(rng, fixed(rng), POOLS[pool])
        if filled is not None:
            break
    sets, pair, left = filled
    order = rng.permutation(4)
    if policy == "concealed":
        n_melds = 0
    elif policy == "melded":
        n_melds = 4
    elif policy.startswith("kongs"):
        n_melds = int(policy[-1])
        order = sorted(range(4), key=lambda index: (sets[index][0] != "p", rng.random()))
    else:
        n_melds = int(rng.choice(5, p=[0.4, 0.2, 0.15, 0.12, 0.13]))
    melds = []
    standing = np.zeros(N_KINDS, np.int64)
    for position, index in enumerate(order):
        kind, tile = sets[index]
        if position < n_melds or (policy == "concealed" and kind == "p" and left[tile] >= 1 and rng.random() < 0.2):
            if kind == "c":
                melds.append((MELD_CHOW, tile))
                continue
            wants_kong = policy.startswith("kongs") or rng.random() < 0.35
            if wants_kong and left[tile] >= 1:
                if policy == "concealed":
                    meld = MELD_CONCEALED_KONG
                else:
                    meld = MELD_KONG if rng.random() < 0.5 else MELD_CONCEALED_KONG
                left[tile] -= 1
            elif policy == "concealed":
                standing[tile] += 3
                continue
            else:
                meld = MELD_PONG
            melds.append((meld, tile))
        elif kind == "c":
            standing[tile : tile + 3] += 1
        else:
            standing[tile] += 3
    standing[pair] += 2
    return standing, melds


def _seven_pairs(rng):
    shape = rng.random()
    if shape < 0.15:
        start = _start(rng, 0, 2)
        kinds = list(range(start, start + 7))
    elif shape < 0.25:
        kinds = HONOURS
    elif shape < 0.33:
        kinds = DRAGONS + [int(k) for k in rng.choice(WAN + WINDS, 4, replace=False)]
    elif shape < 0.4:
        kinds = WINDS + [int(k) for k in rng.choice(WAN + DRAGONS, 3, replace=False)]
    else:
        pool = WAN if rng.random() < 0.3 else KINDS
        kinds = [int(k) for k in rng.choice(pool, 7, replace=True)]
    standing = np.zeros(N_KINDS, np.int64)
    for kind in kinds:
        standing[kind] += 2
    if standing.max() > 4:
        return _seven_pairs(rng)
    return standing, []


def _nine_gates(rng):
    standing = np.zeros(N_KINDS, np.int64)
    standing[:9] = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    standing[int(rng.integers(9))] += 1
    return standing, []


def random_winning_hands(rng: np.random.Generator, n_hands: int, flowers: bool = True) -> WinningHands:
    """`n_hands` valid winning hands of 万 and honours with random, typed win contexts."""
    concealed = np.zeros((n_hands, N_KINDS), np.int8)
    melds = np.zeros((n_hands, 4, 2), np.int8)
    n_melds = np.zeros(n_hands, np.int8)
    win = np.zeros(n_hands, np.int8)
    flags = np.zeros(n_hands, np.int32)
    flower_counts = np.zeros(n_hands, np.int8)
    for hand in range(n_hands):
        form = rng.random()
        if form < 0.1:
            standing, hand_melds = _seven_pairs(rng)
        elif form < 0.13:
            standing, hand_melds = _nine_gates(rng)
        else:
            standing, hand_melds = _standard_hand(rng)
        tiles = np.repeat(np.arange(N_KINDS), standing)
        winning = int(rng.choice(tiles))
        standing[winning] -= 1
        concealed[hand] = standing
        win[hand] = winning
        n_melds[hand] = len(hand_melds)
        for index, (kind, first) in enumerate(hand_melds):
            melds[hand, index] = (kind, first)
        bits = 0
        self_drawn = rng.random() < 0.5
        if self_drawn:
            bits |= SELF_DRAWN_FLAG
        if rng.random() < 0.12:
            bits |= LAST_WALL_TILE_FLAG
        if rng.random() < 0.15:
            bits |= KONG_REPLACEMENT_FLAG if self_drawn else ROBBING_KONG_FLAG
        if rng.random() < 0.15:
            bits |= FOURTH_TILE_FLAG
        flags[hand] = bits
        if flowers:
            flower_counts[hand] = rng.integers(0, 9) if rng.random() < 0.3 else 0
    return WinningHands(concealed, melds, n_melds, win, flags, flower_counts)

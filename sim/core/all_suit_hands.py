"""Random winning hands over all 136 tiles (three suits and honours), with random win contexts and seat
and round winds, for the MCR evaluator's tests and the benchmark.

Uniformly random complete hands almost never show MCR's rarer fans, so each hand is built from a template:
a pattern of sets for a fan (一色四步高, 三色双龙会, 全双刻, 推不倒, ...) or a pool its free sets come from
(one suit, the terminals and honours, ranks 4-6, ...), and a share of the hands take the irregular forms
(七对, 十三幺, 全不靠 and 七星不靠, 组合龙 with a set and a pair, 九莲宝灯). Every hand is valid: at most four
copies of a kind counting the melds, a winning tile taken from the concealed part. The context is typed the
way a deal produces it (杠上开花 only on a self-draw, 抢杠胡 only on a claim); 和绝张 and the kong flags
may still disagree with the tiles, which the evaluator must normalise as the reference does.
"""

import numpy as np

from kernels.fan_ids import (
    FOURTH_TILE_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    ROBBING_KONG_FLAG,
    ROUND_WIND_SHIFT,
    SEAT_WIND_SHIFT,
    SELF_DRAWN_FLAG,
)
from kernels.tiles import (
    HONOR_START,
    MELD_CHOW,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PONG,
    N_KINDS,
)
from sim.core.hand_generator import WinningHands, fill_sets

SUITS = (0, 9, 18)  # 万, 筒, 条
WINDS = list(range(HONOR_START, HONOR_START + 4))
DRAGONS = list(range(HONOR_START + 4, N_KINDS))
HONOURS = WINDS + DRAGONS
NUMBERED = list(range(HONOR_START))
TERMINALS = [start + rank for start in SUITS for rank in (0, 8)]
GREEN = [18 + 1, 18 + 2, 18 + 3, 18 + 5, 18 + 7, HONOR_START + 5]  # 23468条, 发
REVERSIBLE = [9 + rank - 1 for rank in (1, 2, 3, 4, 5, 8, 9)] + [18 + rank - 1 for rank in (2, 4, 5, 6, 8, 9)] + [HONOR_START + 4]
# 组合龙's ranks (0-based residues) of 万, 筒, 条
KNITTED = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


def _chow_starts(ranks_from, ranks_to, suits=SUITS):
    return [start + rank for start in suits for rank in range(ranks_from, ranks_to + 1)]


def _kinds_of_ranks(ranks, suits=SUITS):
    return [start + rank for start in suits for rank in ranks]


def _pool(chows, pungs, pairs):
    return (list(chows), list(pungs), list(pairs))


ANY = _pool(_chow_starts(0, 6), NUMBERED + HONOURS, NUMBERED + HONOURS)


def _suit(rng):
    return int(rng.choice(SUITS))


def _two_suits(rng):
    return [int(suit) for suit in rng.choice(SUITS, 2, replace=False)]


def _templates():
    """(weight, build, meld policy): build(rng) -> (fixed sets, pool of the free sets); a set is ("c", first
    tile) or ("p", kind), the pair ("pair", kind)."""

    def free(pool):
        return lambda rng: ([], pool)

    def one_suit(honours):
        def build(rng):
            suit = [_suit(rng)]
            extra = HONOURS if honours else []
            return [], _pool(_chow_starts(0, 6, suit), _kinds_of_ranks(range(9), suit) + extra,
                             _kinds_of_ranks(range(9), suit) + extra)
        return build

    def two_suits(rng):
        suits = _two_suits(rng)
        return [], _pool(_chow_starts(0, 6, suits), _kinds_of_ranks(range(9), suits) + HONOURS,
                         _kinds_of_ranks(range(9), suits) + HONOURS)

    def ranks(low, high, honours=False):
        kinds = _kinds_of_ranks(range(low, high + 1)) + (HONOURS if honours else [])
        return free(_pool(_chow_starts(low, high - 2), kinds, kinds))

    def pure_chows(*offsets, high):
        def build(rng):
            start = _suit(rng) + int(rng.integers(0, high + 1))
            return [("c", start + offset) for offset in offsets], ANY
        return build

    def pure_pungs(*offsets, high):
        def build(rng):
            start = _suit(rng) + int(rng.integers(0, high + 1))
            return [("p", start + offset) for offset in offsets], ANY
        return build

    def mixed(kind, rank_offsets, high):
        """Three sets in three suits at ranks base + offset (in a random suit order)."""
        def build(rng):
            base = int(rng.integers(0, high + 1))
            suits = rng.permutation(SUITS)
            return [(kind, int(suit) + base + offset) for suit, offset in zip(suits, rank_offsets, strict=True)], ANY
        return build

    def mixed_double_chow(rng):
        rank = int(rng.integers(0, 7))
        a, b = _two_suits(rng)
        return [("c", a + rank), ("c", b + rank)], ANY

    def double_pung(rng):
        rank = int(rng.integers(0, 9))
        a, b = _two_suits(rng)
        return [("p", a + rank), ("p", b + rank)], ANY

    def terminal_chows(pure):
        def build(rng):
            if pure:
                suit = _suit(rng)
                return [("c", suit), ("c", suit), ("c", suit + 6), ("c", suit + 6), ("pair", suit + 4)], ANY
            pair_suit, *others = rng.permutation(SUITS)
            sets = [("c", int(suit) + offset) for suit in others for offset in (0, 6)]
            return [*sets, ("pair", int(pair_suit) + 4)], ANY
        return build

    def honour_pungs(kinds, count, pair_from=None):
        def build(rng):
            chosen = [int(kind) for kind in rng.permutation(kinds)]
            fixed = [("p", kind) for kind in chosen[:count]]
            if pair_from == "same":
                fixed.append(("pair", chosen[count]))
            return fixed, ANY
        return build

    def all_five(rng):
        kinds = _kinds_of_ranks([4])
        return [], _pool(_chow_starts(3, 5), kinds, kinds)

    def even_pungs(rng):
        kinds = _kinds_of_ranks([1, 3, 5, 7])
        return [], _pool([], kinds, kinds)

    def green(rng):
        return [], _pool([18 + 1], GREEN, GREEN)

    def reversible(rng):
        chows = [kind for kind in _chow_starts(0, 6, (9, 18)) if {kind, kind + 1, kind + 2} <= set(REVERSIBLE)]
        return [], _pool(chows, REVERSIBLE, REVERSIBLE)

    return [
        (30, free(ANY), "random"),
        (5, one_suit(False), "random"),
        (5, one_suit(True), "random"),
        (4, two_suits, "random"),
        (6, free(_pool(_chow_starts(0, 6), [], NUMBERED)), "random"),
        (5, free(_pool([], NUMBERED + HONOURS, NUMBERED + HONOURS)), "random"),
        (4, free(ANY), "concealed"),
        (3, free(_pool([], NUMBERED + HONOURS, NUMBERED + HONOURS)), "concealed"),
        (2, honour_pungs(WINDS, 4), "random"),
        (3, honour_pungs(WINDS, 3), "random"),
        (2, honour_pungs(WINDS, 3, "same"), "random"),
        (2, honour_pungs(WINDS, 2, "same"), "random"),
        (2, honour_pungs(DRAGONS, 3), "random"),
        (3, honour_pungs(DRAGONS, 2), "random"),
        (2, honour_pungs(DRAGONS, 2, "same"), "random"),
        (2, free(_pool([], HONOURS, HONOURS)), "random"),
        (2, free(_pool([], TERMINALS + HONOURS, TERMINALS + HONOURS)), "random"),
        (2, free(_pool([], TERMINALS, TERMINALS)), "random"),
        (3, free(_pool(_chow_starts(0, 0) + _chow_starts(6, 6), TERMINALS + HONOURS, TERMINALS + HONOURS)), "random"),
        (3, ranks(1, 7), "random"),
        (2, ranks(5, 8), "random"),
        (2, ranks(6, 8), "random"),
        (2, ranks(3, 5), "random"),
        (2, ranks(0, 2), "random"),
        (2, ranks(0, 3), "random"),
        (2, all_five, "random"),
        (2, even_pungs, "random"),
        (2, green, "random"),
        (2, reversible, "random"),
        (2, pure_chows(0, 0, 0, 0, high=6), "random"),
        (2, pure_chows(0, 1, 2, 3, high=3), "random"),
        (2, pure_chows(0, 2, 4, 6, high=0), "random"),
        (3, pure_chows(0, 3, 6, high=0), "random"),
        (2, pure_chows(0, 1, 2, high=4), "random"),
        (2, pure_chows(0, 2, 4, high=2), "random"),
        (2, pure_chows(0, 0, 0, high=6), "random"),
        (2, pure_chows(0, 0, high=6), "random"),
        (2, pure_chows(0, 3, high=3), "random"),
        (2, pure_chows(0, 6, high=0), "random"),
        (2, terminal_chows(True), "random"),
        (2, terminal_chows(False), "random"),
        (3, mixed("c", (0, 0, 0), 6), "random"),
        (3, mixed("c", (0, 1, 2), 4), "random"),
        (3, mixed("c", (0, 3, 6), 0), "random"),
        (2, mixed_double_chow, "random"),
        (2, pure_pungs(0, 1, 2, 3, high=5), "random"),
        (2, pure_pungs(0, 1, 2, high=6), "random"),
        (3, mixed("p", (0, 0, 0), 8), "random"),
        (3, mixed("p", (0, 1, 2), 6), "random"),
        (2, double_pung, "random"),
        (2, free(ANY), "kongs2"),
        (2, free(ANY), "kongs3"),
        (2, free(_pool([], NUMBERED + HONOURS, NUMBERED + HONOURS)), "kongs4"),
        (3, free(ANY), "melded"),
        # 无番和: chows that seldom combine and a wind pair
        (10, free(_pool(_chow_starts(1, 5), [], WINDS)), "random"),
    ]


TEMPLATES = _templates()
TEMPLATE_WEIGHTS = np.array([weight for weight, *_ in TEMPLATES], float)
TEMPLATE_WEIGHTS /= TEMPLATE_WEIGHTS.sum()


def _regular_hand(rng):
    while True:
        _, build, policy = TEMPLATES[rng.choice(len(TEMPLATES), p=TEMPLATE_WEIGHTS)]
        fixed, pool = build(rng)
        filled = fill_sets(rng, fixed, pool)
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
        concealed_kong = policy == "concealed" and kind == "p" and left[tile] >= 1 and rng.random() < 0.2
        if position < n_melds or concealed_kong:
            if kind == "c":
                melds.append((MELD_CHOW, tile))
                continue
            wants_kong = policy.startswith("kongs") or concealed_kong or rng.random() < 0.3
            if wants_kong and left[tile] >= 1:
                meld = MELD_CONCEALED_KONG if concealed_kong or rng.random() < 0.5 else MELD_KONG
                left[tile] -= 1
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
        start = _suit(rng) + int(rng.integers(0, 3))
        kinds = list(range(start, start + 7))
    elif shape < 0.25:
        kinds = HONOURS
    elif shape < 0.45:
        suit = [_suit(rng)]
        pool = _kinds_of_ranks(range(9), suit) + (HONOURS if rng.random() < 0.5 else [])
        kinds = [int(kind) for kind in rng.choice(pool, 7)]
    elif shape < 0.55:
        pool = [GREEN, REVERSIBLE, TERMINALS, TERMINALS + HONOURS][int(rng.integers(4))]
        kinds = [int(kind) for kind in rng.choice(pool, 7)]
    elif shape < 0.65:
        pool = [_kinds_of_ranks(range(low, high + 1)) for low, high in ((0, 2), (0, 3), (3, 5), (5, 8), (6, 8))][int(rng.integers(5))]
        kinds = [int(kind) for kind in rng.choice(pool, 7)]
    else:
        kinds = [int(kind) for kind in rng.choice(NUMBERED + HONOURS, 7)]
    standing = np.zeros(N_KINDS, np.int64)
    for kind in kinds:
        standing[kind] += 2
    if standing.max() > 4:
        return _seven_pairs(rng)
    return standing, []


def _thirteen_orphans(rng):
    standing = np.zeros(N_KINDS, np.int64)
    standing[TERMINALS + HONOURS] = 1
    standing[int(rng.choice(TERMINALS + HONOURS))] += 1
    return standing, []


def _knitted_kinds(rng):
    residues = KNITTED[int(rng.integers(6))]
    return [start + rank for start, residue in zip(SUITS, residues, strict=True) for rank in range(residue, 9, 3)]


def _knitted_tiles(rng):
    """全不靠 (7-9 of a 组合龙's tiles, the rest different honours) or 七星不靠 (7 of them, all 7 honours)."""
    numbered = int(rng.choice([7, 8, 9]))
    kinds = [int(kind) for kind in rng.choice(_knitted_kinds(rng), numbered, replace=False)]
    kinds += [int(kind) for kind in rng.choice(HONOURS, 14 - numbered, replace=False)]
    standing = np.zeros(N_KINDS, np.int64)
    standing[kinds] = 1
    return standing, []


def _knitted_straight(rng):
    """组合龙 with a fourth set (concealed, or the one meld) and a pair."""
    while True:
        standing = np.zeros(N_KINDS, np.int64)
        standing[_knitted_kinds(rng)] = 1
        filled = fill_sets(rng, [], ANY)
        if filled is None:
            continue
        (kind, tile), *_ = filled[0]
        pair = filled[1]
        used = standing.copy()
        used[pair] += 2
        if kind == "c":
            used[tile : tile + 3] += 1
        else:
            used[tile] += 3
        if used.max() > 4:
            continue
        standing[pair] += 2
        melds = []
        if rng.random() < 0.3:
            if kind == "c":
                melds.append((MELD_CHOW, tile))
            elif used[tile] < 4 and rng.random() < 0.4:
                melds.append((MELD_KONG if rng.random() < 0.5 else MELD_CONCEALED_KONG, tile))
            else:
                melds.append((MELD_PONG, tile))
        elif kind == "c":
            standing[tile : tile + 3] += 1
        else:
            standing[tile] += 3
        return standing, melds


def _nine_gates(rng):
    standing = np.zeros(N_KINDS, np.int64)
    suit = _suit(rng)
    standing[suit : suit + 9] = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    standing[suit + int(rng.integers(9))] += 1
    return standing, []


# the forms and their shares of the hands
FORMS = ((0.08, _seven_pairs), (0.015, _thirteen_orphans), (0.02, _knitted_tiles), (0.025, _knitted_straight),
         (0.015, _nine_gates))


def random_all_suit_hands(rng: np.random.Generator, n_hands: int) -> WinningHands:
    """`n_hands` valid winning hands of all 34 kinds with random, typed win contexts, seat and round winds
    and flowers, in the layout ``kernels.fans.mcr_all_suits.score_many`` takes."""
    concealed = np.zeros((n_hands, N_KINDS), np.int8)
    melds = np.zeros((n_hands, 4, 2), np.int8)
    n_melds = np.zeros(n_hands, np.int8)
    win = np.zeros(n_hands, np.int8)
    flags = np.zeros(n_hands, np.int32)
    flower_counts = np.zeros(n_hands, np.int8)
    for hand in range(n_hands):
        draw = rng.random()
        make = _regular_hand
        for share, form in FORMS:
            if draw < share:
                make = form
                break
            draw -= share
        standing, hand_melds = make(rng)
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
        bits |= int(rng.integers(4)) << SEAT_WIND_SHIFT
        bits |= int(rng.integers(4)) << ROUND_WIND_SHIFT
        flags[hand] = bits
        flower_counts[hand] = rng.integers(0, 9) if rng.random() < 0.3 else 0
    return WinningHands(concealed, melds, n_melds, win, flags, flower_counts)

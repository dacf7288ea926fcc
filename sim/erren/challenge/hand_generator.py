"""Random winning hands over all 34 kinds, with random win contexts and face-up bonus tiles, for the
`erren-challenge` fan evaluator's tests and `mjsim bench` (RULES.md §7, seed 004).

This module owns the shape of those test hands. Uniformly random complete hands almost never show the rare
fans, so most hands are built from shape templates (七对 and 豪华七对, 两对一色二顺, 九莲宝灯, 十三幺, 大车轮,
百万石, 红孔雀, 绿一色, 东北新干线, 四连刻, 四杠子, the wind and dragon hands, ...) with the remaining sets filled
at random. Every hand is valid: at most four copies of a kind counting the melds and the face-up bonus tiles (a
face-up bonus tile is one of the four copies), the right size, the winning tile taken from the concealed part.
The context is random but typed the way the game produces it: 杠上开花 only self-drawn and only with a kong in
the hand; 抢杠 only on a claim, and only when the other three copies of the tile can be the robbed pong (the
winner holds no other copy, none is face up); 天和 and 地和 self-drawn with no meld, 人和 on a discard with no
meld; 天听 only on a concealed hand; a win in the extra draws self-drawn after a ready declaration.
"""

from dataclasses import dataclass

import numpy as np

from kernels.fan_ids import (
    EARTHLY_HAND_FLAG,
    EXTRA_DRAW_FLAG,
    HEAVENLY_HAND_FLAG,
    HEAVENLY_READY_FLAG,
    HUMAN_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
)
from kernels.tiles import MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_KINDS
from sim.core.hand_generator import fill_sets

SUITS = (0, 9, 18)
WINDS = [27, 28, 29, 30]
EAST, NORTH = 27, 30
DRAGONS = [31, 32, 33]
HONOURS = WINDS + DRAGONS
ALL_KINDS = list(range(N_KINDS))
ALL_CHOWS = [suit + start for suit in SUITS for start in range(7)]
TERMINALS = [suit + rank for suit in SUITS for rank in (0, 8)]
SIMPLES = [suit + rank for suit in SUITS for rank in range(1, 8)]
GREEN = [19, 20, 21, 23, 25, 32]  # 2s 3s 4s 6s 8s 发
RED_PEACOCK = [18, 22, 24, 26, 33]  # 1s 5s 7s 9s 中
ORPHANS = TERMINALS + HONOURS


def _pool(chows, pungs, pairs):
    return (list(chows), list(pungs), list(pairs))


def _suit_pool(suit, honours=False):
    kinds = list(range(suit, suit + 9)) + (HONOURS if honours else [])
    return _pool(range(suit, suit + 7), kinds, kinds)


POOLS = {
    "any": _pool(ALL_CHOWS, ALL_KINDS, ALL_KINDS),
    "chows": _pool(ALL_CHOWS, [], ALL_KINDS),
    "chows_suit_pair": _pool(ALL_CHOWS, [], range(27)),
    "pungs": _pool([], ALL_KINDS, ALL_KINDS),
    "simples": _pool([suit + start for suit in SUITS for start in range(1, 6)], SIMPLES, SIMPLES),
    "outside": _pool([suit + start for suit in SUITS for start in (0, 6)], ORPHANS, ORPHANS),
    "terminal_sets": _pool([suit + start for suit in SUITS for start in (0, 6)], TERMINALS, TERMINALS),
    "terminals_honours": _pool([], ORPHANS, ORPHANS),
    "terminals": _pool([], TERMINALS, TERMINALS),
    "honours": _pool([], HONOURS, HONOURS),
    "green": _pool([19], GREEN, GREEN),
    "red_peacock": _pool([], RED_PEACOCK, RED_PEACOCK),
    "man_high": _pool([4, 5, 6], [5, 6, 7, 8], [4, 5, 6, 7, 8]),  # 万 sums around 100 (百万石 and just below)
    "man": _suit_pool(0),
    "pin": _suit_pool(9),
    "sou": _suit_pool(18),
    "man_honours": _suit_pool(0, True),
    "pin_honours": _suit_pool(9, True),
    "sou_honours": _suit_pool(18, True),
}


def _suit(rng):
    return int(rng.choice(SUITS))


# Each template: (weight, pool for the free sets, fixed sets as a function of rng, meld policy).
# A set is ("c", first kind) or ("p", kind); the pair is ("pair", kind).
def _templates():
    def nothing(rng):
        return []

    def winds(k, pair):
        def build(rng):
            chosen = [int(kind) for kind in rng.permutation(WINDS)]
            return [("p", kind) for kind in chosen[:k]] + ([("pair", chosen[k])] if pair else [])
        return build

    def dragons(k, pair):
        def build(rng):
            chosen = [int(kind) for kind in rng.permutation(DRAGONS)]
            return [("p", kind) for kind in chosen[:k]] + ([("pair", chosen[k])] if pair else [])
        return build

    def chows_in_suit(*offsets, high):
        def build(rng):
            start = _suit(rng) + int(rng.integers(0, high + 1))
            return [("c", start + offset) for offset in offsets]
        return build

    def pungs_in_suit(*offsets, high):
        def build(rng):
            start = _suit(rng) + int(rng.integers(0, high + 1))
            return [("p", start + offset) for offset in offsets]
        return build

    def mixed_chows(rng):
        start = int(rng.integers(0, 7))
        return [("c", suit + start) for suit in SUITS]

    def mixed_pungs(rng):
        rank = int(rng.integers(0, 9))
        return [("p", suit + rank) for suit in SUITS]

    def straight(rng):
        suit = _suit(rng)
        return [("c", suit), ("c", suit + 3), ("c", suit + 6)]

    def northeast(rng):
        pung, pair = (EAST, NORTH) if rng.random() < 0.5 else (NORTH, EAST)
        return straight(rng) + [("p", pung), ("pair", pair)]

    def near_northeast(rng):  # the pair of 北 with a pung of 南: a plain 一条龙
        return straight(rng) + [("p", int(rng.choice([28, 29]))), ("pair", int(rng.choice([EAST, NORTH])))]

    def one_suit(honours):
        names = ["man", "pin", "sou"]
        return lambda rng: names[int(rng.integers(3))] + ("_honours" if honours else "")

    return [
        (20, "any", nothing, "random"),
        (4, "any", nothing, "concealed"),
        (4, "chows", nothing, "random"),
        (6, "chows_suit_pair", nothing, "concealed"),
        (4, "pungs", nothing, "random"),
        (4, "pungs", nothing, "concealed"),
        (3, "any", winds(4, False), "random"),
        (3, "any", winds(3, True), "random"),
        (2, "any", winds(2, True), "random"),
        (3, "any", dragons(3, False), "random"),
        (4, "any", dragons(2, True), "random"),
        (3, "honours", nothing, "random"),
        (3, "terminals", nothing, "random"),
        (4, "terminals_honours", nothing, "random"),
        (4, "outside", nothing, "random"),
        (4, "terminal_sets", nothing, "random"),
        (4, "simples", nothing, "random"),
        (3, "green", nothing, "random"),
        (3, "red_peacock", nothing, "random"),
        (4, "man_high", nothing, "random"),
        (3, "man_high", nothing, "concealed"),
        (4, one_suit(False), nothing, "random"),
        (4, one_suit(True), nothing, "random"),
        (3, "any", chows_in_suit(0, 0, high=6), "concealed"),
        (3, "chows_suit_pair", chows_in_suit(0, 0, high=6), "concealed"),
        (3, "any", chows_in_suit(0, 0, 3, 3, high=3), "concealed"),
        (2, "any", chows_in_suit(0, 0, 0, 0, high=6), "concealed"),
        (2, "any", chows_in_suit(0, 0, 0, high=6), "concealed"),
        (4, "any", mixed_chows, "random"),
        (4, "any", mixed_pungs, "random"),
        (4, "any", pungs_in_suit(0, 1, 2, high=6), "random"),
        (3, "any", pungs_in_suit(0, 1, 2, 3, high=5), "random"),
        (4, "any", straight, "random"),
        (3, "any", northeast, "random"),
        (1, "any", near_northeast, "random"),
        (3, "any", nothing, "kongs2"),
        (3, "any", nothing, "kongs3"),
        (4, "pungs", nothing, "kongs4"),
        (2, "any", nothing, "melded"),
    ]


TEMPLATES = _templates()
TEMPLATE_WEIGHTS = np.array([weight for weight, *_ in TEMPLATES], float)
TEMPLATE_WEIGHTS /= TEMPLATE_WEIGHTS.sum()


@dataclass
class ChallengeHands:
    """Columns of N winning hands: the layout the `erren-challenge` evaluator takes."""

    concealed: np.ndarray  # (N, 34) int8, without the winning tile
    melds: np.ndarray  # (N, 4, 2) int8 rows of (meld code, lowest kind)
    n_melds: np.ndarray  # (N,) int8
    win: np.ndarray  # (N,) int8
    flags: np.ndarray  # (N,) int32 win-context bits
    bonus: np.ndarray  # (N, 34) int8 face-up bonus tiles of each kind

    def __len__(self):
        return len(self.win)

    def hand(self, index):
        """(concealed, melds, win, flags, bonus) of one hand as plain Python values."""
        melds = [(int(code), int(kind)) for code, kind in self.melds[index, : self.n_melds[index]]]
        return (
            [int(count) for count in self.concealed[index]],
            melds,
            int(self.win[index]),
            int(self.flags[index]),
            [int(count) for count in self.bonus[index]],
        )

    def kernel_arrays(self):
        return self.concealed, self.melds, self.n_melds, self.win, self.flags, self.bonus


def _standard_hand(rng):
    while True:
        _, pool, fixed, policy = TEMPLATES[rng.choice(len(TEMPLATES), p=TEMPLATE_WEIGHTS)]
        pool_name = pool(rng) if callable(pool) else pool
        filled = fill_sets(rng, fixed(rng), POOLS[pool_name])
        if filled is not None:
            break
    sets, pair, left = filled
    order = list(rng.permutation(4))
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
        shape, kind = sets[index]
        concealed_kong = policy == "concealed" and shape == "p" and left[kind] >= 1 and rng.random() < 0.15
        if position < n_melds or concealed_kong:
            if shape == "c":
                melds.append((MELD_CHOW, kind))
                continue
            wants_kong = concealed_kong or policy.startswith("kongs") or rng.random() < 0.3
            if wants_kong and left[kind] >= 1:
                code = MELD_CONCEALED_KONG if concealed_kong or rng.random() < 0.4 else MELD_KONG
                left[kind] -= 1
                melds.append((code, kind))
            else:
                melds.append((MELD_PONG, kind))
        elif shape == "c":
            standing[kind : kind + 3] += 1
        else:
            standing[kind] += 3
    standing[pair] += 2
    return standing, melds


def _seven_pairs(rng):
    shape = rng.random()
    if shape < 0.12:
        suit = _suit(rng)
        kinds = list(range(suit + 1, suit + 8))  # 大车轮
    elif shape < 0.2:
        kinds = HONOURS
    elif shape < 0.3:
        kinds = [int(kind) for kind in rng.choice(GREEN, 7)]
    elif shape < 0.4:
        kinds = [int(kind) for kind in rng.choice(ORPHANS, 7)]
    elif shape < 0.5:
        suit = _suit(rng)
        kinds = [int(kind) for kind in rng.choice(range(suit, suit + 9), 7)]
    elif shape < 0.55:
        kinds = [int(kind) for kind in rng.choice(RED_PEACOCK, 7)]
    elif shape < 0.6:
        kinds = [int(kind) for kind in rng.choice(range(4, 9), 7)]  # high 万: 百万石 in seven pairs
    elif shape < 0.75:
        kinds = [int(kind) for kind in rng.choice(SIMPLES, 7, replace=False)]
    else:
        kinds = [int(kind) for kind in rng.choice(ALL_KINDS, 7)]
    standing = np.zeros(N_KINDS, np.int64)
    for kind in kinds:
        standing[kind] += 2
    if standing.max() > 4:
        return _seven_pairs(rng)
    return standing, []


def _nine_gates(rng):
    suit = _suit(rng)
    standing = np.zeros(N_KINDS, np.int64)
    standing[suit : suit + 9] = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    extra = suit + int(rng.integers(9))
    standing[extra] += 1
    return standing, [], extra


def _thirteen_orphans(rng):
    standing = np.zeros(N_KINDS, np.int64)
    standing[ORPHANS] = 1
    standing[int(rng.choice(ORPHANS))] += 1
    return standing, []


def _context(rng, melds, held, win):
    """Typed random win-context bits; returns (flags, whether the win kind must have no face-up copy)."""
    no_melds = not melds
    concealed = all(code == MELD_CONCEALED_KONG for code, _ in melds)
    has_kong = any(code in (MELD_KONG, MELD_CONCEALED_KONG) for code, _ in melds)
    special = rng.random()
    if no_melds and special < 0.03:
        return SELF_DRAWN_FLAG | HEAVENLY_HAND_FLAG, False
    if no_melds and special < 0.06:
        return SELF_DRAWN_FLAG | EARTHLY_HAND_FLAG, False
    if no_melds and special < 0.09:
        return HUMAN_HAND_FLAG, False
    flags = 0
    if concealed and rng.random() < 0.1:
        flags |= READY_FLAG | HEAVENLY_READY_FLAG
    elif rng.random() < 0.25:
        flags |= READY_FLAG
    robbed = False
    if flags & READY_FLAG and rng.random() < 0.12:
        return flags | SELF_DRAWN_FLAG | EXTRA_DRAW_FLAG, False
    if rng.random() < 0.5:
        flags |= SELF_DRAWN_FLAG
        if has_kong and rng.random() < 0.35:
            flags |= KONG_REPLACEMENT_FLAG
            if rng.random() < 0.2:
                flags |= LAST_WALL_TILE_FLAG  # 杠上开花 wins over 海底摸月
        elif rng.random() < 0.15:
            flags |= LAST_WALL_TILE_FLAG
    elif held[win] == 1 and rng.random() < 0.3:
        flags |= ROBBING_KONG_FLAG  # the other three copies are the pong the tile is added to
        robbed = True
    elif rng.random() < 0.15:
        flags |= LAST_WALL_TILE_FLAG
    return flags, robbed


def _bonus(rng, held, win, robbed):
    """One face-up bonus tile, sometimes two; half of them of a kind the winner holds."""
    bonus = np.zeros(N_KINDS, np.int64)
    for _ in range(2 if rng.random() < 0.15 else 1):
        room = held + bonus < 4
        if robbed:
            room[win] = False
        in_hand = np.flatnonzero(room & (held > 0))
        anywhere = np.flatnonzero(room)
        choices = in_hand if len(in_hand) and rng.random() < 0.5 else anywhere
        bonus[int(rng.choice(choices))] += 1
    return bonus


def random_challenge_hands(rng: np.random.Generator, n_hands: int) -> ChallengeHands:
    """`n_hands` valid winning hands over all 34 kinds with typed random contexts and 1 (sometimes 2) bonus tiles."""
    concealed = np.zeros((n_hands, N_KINDS), np.int8)
    melds = np.zeros((n_hands, 4, 2), np.int8)
    n_melds = np.zeros(n_hands, np.int8)
    win = np.zeros(n_hands, np.int8)
    flags = np.zeros(n_hands, np.int32)
    bonus = np.zeros((n_hands, N_KINDS), np.int8)
    for hand in range(n_hands):
        form = rng.random()
        nine_gates_extra = None
        if form < 0.12:
            standing, hand_melds = _seven_pairs(rng)
        elif form < 0.15:
            standing, hand_melds, nine_gates_extra = _nine_gates(rng)
        elif form < 0.17:
            standing, hand_melds = _thirteen_orphans(rng)
        else:
            standing, hand_melds = _standard_hand(rng)
        if nine_gates_extra is not None and rng.random() < 0.5:
            winning = nine_gates_extra  # the pure form: the 13 before the win wait on all nine
        else:
            winning = int(rng.choice(np.repeat(np.arange(N_KINDS), standing)))
        held = standing.copy()
        for code, kind in hand_melds:
            if code == MELD_CHOW:
                held[kind : kind + 3] += 1
            else:
                held[kind] += 3 if code == MELD_PONG else 4
        hand_flags, robbed = _context(rng, hand_melds, held, winning)
        standing[winning] -= 1
        concealed[hand] = standing
        win[hand] = winning
        n_melds[hand] = len(hand_melds)
        for index, meld in enumerate(hand_melds):
            melds[hand, index] = meld
        flags[hand] = hand_flags
        bonus[hand] = _bonus(rng, held, winning, robbed)
    return ChallengeHands(concealed, melds, n_melds, win, flags, bonus)

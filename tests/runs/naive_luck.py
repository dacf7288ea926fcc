"""Slow, obvious twin of the luck of the draws (sim.core.draw_luck), read from a deal's event log alone.

It walks the log, keeping each seat's concealed tiles, melds, flowers, doubles and declarations and the tiles
still in the wall (the wall's tiles in play less every tile taken from it), and at each draw of play (the
opening's flower replacements excepted) adds, per seat and feature, g(tile drawn) less the mean of g over the
tiles left, with shanten and completeness from the naive kernels of tests/kernels/naive.py. A win is priced
by the family's fan evaluator (tested against its references elsewhere): what this twin checks is the
bookkeeping around it.

At the 国标 (MCR) table (``mcr_deal_luck``) a draw that meets flowers sets them aside and goes on from the back;
only the tile it ends with in the hand is measured, against the tiles left that are no flower, with the
flowers set aside so far counted in the price of the wins (docs/duels-and-leagues.md#luck-of-the-draws).
"""

import functools
from collections import Counter

import naive
import numpy as np

from kernels.fan_ids import (
    FOURTH_TILE_FLAG,
    HEAVENLY_READY_FLAG,
    KONG_REPLACEMENT_FLAG,
    READY_FLAG,
    ROUND_WIND_SHIFT,
    SEAT_WIND_SHIFT,
    SELF_DRAWN_FLAG,
)
from kernels.tiles import MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_KINDS
from sim.core.draw_luck import FEATURES

OPENING = {"wall", "out of play", "deal", "replacement", "bonus tile", "wall tile"}


@functools.lru_cache(maxsize=None)
def _shanten(hand: tuple, n_melds: int) -> int:
    return naive.shanten(np.array(hand, np.int64), n_melds)[0]


@functools.lru_cache(maxsize=None)
def _complete(hand: tuple, n_melds: int) -> bool:
    return naive.is_complete(np.array(hand, np.int64), n_melds)


class _Seat:
    def __init__(self):
        self.hand = np.zeros(N_KINDS, np.int64)
        self.melds = []  # [code, low]
        self.flowers = 0
        self.doubles = 0
        self.ready = False
        self.heavenly_ready = False
        self.won = False


def _price_erren(ruleset, seat, tile, flags):
    from sim.erren.engine import MAX_DOUBLES_PRICED, kernel_rules
    from sim.erren.table import new_work
    from sim.erren.win_value import score_win

    rules, _ = kernel_rules(ruleset)
    melds = np.zeros((4, 2), np.int8)
    for index, (code, low) in enumerate(seat.melds):
        melds[index] = code, low
    total = score_win(seat.hand.astype(np.int8), melds, len(seat.melds), tile, flags, seat.flowers,
                      np.zeros(N_KINDS, np.int8), rules, new_work())
    if total < ruleset.min_fan:
        return 0
    return (total + seat.flowers) << min(seat.doubles, MAX_DOUBLES_PRICED)


def _price_xuezhan(ruleset, seat, tile, flags, payers):
    from kernels.fan_ids import N_FANS
    from sim.xuezhan.engine import kernel_rules
    from sim.xuezhan.win_value import score_win

    rules, _ = kernel_rules(ruleset)
    melds = np.zeros((4, 2), np.int8)
    for index, (code, low) in enumerate(seat.melds):
        melds[index] = code, low
    raw = score_win(seat.hand.astype(np.int8), melds, len(seat.melds), tile, flags, rules, np.zeros(N_FANS, np.int64))
    return raw * payers if raw > 0 else 0


def deal_luck(ruleset, events, names, seats):
    """(seats, features) luck sums of one deal of either family from its event rows (code, seat, tile, ...;
    the engine's EVENT_NAMES name the codes)."""
    family = ruleset.family
    sums = np.zeros((seats, len(FEATURES)))
    table = [_Seat() for _ in range(seats)]
    rows = [(names[row[0]], int(row[1]), int(row[2])) for row in events]
    in_play = Counter(int(tile) for name, _, tile in rows if name in ("wall", "wall tile"))
    out_of_play = Counter(int(tile) for name, _, tile in rows if name == "out of play")
    opening = True
    pending_added = {}  # seat -> tile of an added kong whose replacement makes it a kong
    discard = -1  # the tile of the chow being made

    def draw(seat_index, tile, from_back, remaining):
        seat = table[seat_index]
        total = sum(remaining.values())
        n_melds = len(seat.melds)
        before = _shanten(tuple(seat.hand), n_melds)
        expected = np.zeros(len(FEATURES))
        actual = np.zeros(len(FEATURES))
        for kind, copies in remaining.items():
            if kind >= N_KINDS or copies == 0:
                continue
            seat.hand[kind] += 1
            improves = _shanten(tuple(seat.hand), n_melds) < before
            completes = _complete(tuple(seat.hand), n_melds)
            seat.hand[kind] -= 1
            value = 0
            if completes and before == 0:
                if family == "erren":
                    flags = SELF_DRAWN_FLAG | (READY_FLAG if seat.ready else 0)
                    flags |= (HEAVENLY_READY_FLAG if seat.heavenly_ready else 0) | (KONG_REPLACEMENT_FLAG if from_back else 0)
                    value = _price_erren(ruleset, seat, kind, flags)
                else:
                    flags = SELF_DRAWN_FLAG | (READY_FLAG if seat.ready else 0) | (KONG_REPLACEMENT_FLAG if from_back else 0)
                    value = _price_xuezhan(ruleset, seat, kind, flags, sum(not other.won for other in table) - 1)
            g = np.array([improves, improves and before == 1, completes, value, 0], dtype=float)
            expected += copies * g
            if kind == tile:
                actual = g
        sums[seat_index] += actual - expected / total
        for other_index, other in enumerate(table):  # a ready seat's win, were the tile thrown
            if other_index == seat_index or other.won or _shanten(tuple(other.hand), len(other.melds)) != 0:
                continue
            values = {}
            for kind, copies in remaining.items():
                if kind >= N_KINDS or copies == 0:
                    continue
                other.hand[kind] += 1
                completes = _complete(tuple(other.hand), len(other.melds))
                other.hand[kind] -= 1
                if not completes:
                    continue
                if family == "erren":
                    flags = (READY_FLAG if other.ready else 0) | (HEAVENLY_READY_FLAG if other.heavenly_ready else 0)
                    values[kind] = _price_erren(ruleset, other, kind, flags)
                else:
                    values[kind] = _price_xuezhan(ruleset, other, kind, READY_FLAG if other.ready else 0, 1)
            mean = sum(remaining[kind] * value for kind, value in values.items()) / total
            sums[other_index, FEATURES.index("discard_win_value")] += values.get(tile, 0) - mean

    for name, seat_index, tile in rows:
        if opening and name not in OPENING:
            opening = False
        seat = table[seat_index] if 0 <= seat_index < seats else None
        if name in ("draw", "replacement", "extra draw"):
            remaining = out_of_play if name == "extra draw" else in_play
            if not opening:
                draw(seat_index, tile, name == "replacement", remaining)
            remaining[tile] -= 1
            if tile >= N_KINDS:
                seat.flowers += 1
            else:
                seat.hand[tile] += 1
            if name == "replacement" and seat_index in pending_added:
                added = pending_added.pop(seat_index)
                for meld in seat.melds:
                    if meld[0] == MELD_PONG and meld[1] == added:
                        meld[0] = MELD_KONG
        elif name == "deal":
            in_play[tile] -= 1
            if tile >= N_KINDS:
                seat.flowers += 1
            else:
                seat.hand[tile] += 1
        elif name == "bonus tile":
            in_play[tile] -= 1
        elif name == "discard":
            seat.hand[tile] -= 1
        elif name == "chow":
            discard = tile  # the chow's lowest tile follows
        elif name == "chow's lowest tile":
            for kind in range(tile, tile + 3):
                if kind != discard:
                    seat.hand[kind] -= 1
            seat.melds.append([MELD_CHOW, tile])
        elif name == "pong":
            seat.hand[tile] -= 2
            seat.melds.append([MELD_PONG, tile])
        elif name == "kong":
            seat.hand[tile] -= 3
            seat.melds.append([MELD_KONG, tile])
        elif name == "concealed kong":
            seat.hand[tile] -= 4
            seat.melds.append([MELD_CONCEALED_KONG, tile])
        elif name == "added kong":
            seat.hand[tile] -= 1
            pending_added[seat_index] = tile
        elif name == "double":
            seat.doubles += 1
        elif name in ("ready", "declares 报叫"):
            seat.ready = True
        elif name == "heavenly ready":
            seat.ready = seat.heavenly_ready = True
        elif name in ("self-drawn win", "win on discard", "robs the kong"):
            seat.won = True
        elif name in ("gives three tiles (换三张)", "declares a void suit (定缺)"):
            raise NotImplementedError("the twin plays tables without 换三张 and 定缺")
    return sums


def _price_mcr(ruleset, seat, tile, flags, self_drawn):
    """What the seat's win on `tile` brings it, as MCR pays (F = fans + flowers): base + F from each of the
    three others when self-drawn, base + F from the discarder and base from the two others on a discard;
    nothing below the minimum fan."""
    from sim.mcr.engine import kernel_rules
    from sim.mcr.win_value import new_fan_work, score_win

    rules, _ = kernel_rules(ruleset)
    melds = np.zeros((4, 2), np.int8)
    for index, (code, low) in enumerate(seat.melds):
        melds[index] = code, low
    fans = score_win(seat.hand.astype(np.int8), melds, len(seat.melds), tile, flags, seat.flowers, rules, new_fan_work())
    if fans < ruleset.min_fan:
        return 0
    base = ruleset.family_switches.base
    price = fans + seat.flowers
    return 3 * (base + price) if self_drawn else price + 3 * base


def mcr_deal_luck(ruleset, events, names, round_wind, kernels=naive):
    """(4, features) luck sums of one MCR deal from its event rows (code, seat, tile, ...), the match's
    `round_wind` (0 east .. 3 north) beside them: it is not in the log. `kernels`: naive.py, or its copy
    compiled by numba (the conftest's `compiled_naive`: the same source, and four suits' hands are slow
    in Python)."""
    shantens, completes_memo = {}, {}

    def _shanten(hand, n_melds):
        if (hand, n_melds) not in shantens:
            shantens[hand, n_melds] = kernels.shanten(np.array(hand, np.int64), n_melds)[0]
        return shantens[hand, n_melds]

    def _complete(hand, n_melds):
        if (hand, n_melds) not in completes_memo:
            completes_memo[hand, n_melds] = kernels.is_complete(np.array(hand, np.int64), n_melds)
        return completes_memo[hand, n_melds]

    sums = np.zeros((4, len(FEATURES)))
    table = [_Seat() for _ in range(4)]
    visible = np.zeros(N_KINDS, np.int64)
    # a flower drawn or replaced in play, and a replacement while the deal's flowers are replaced, have rows of
    # their own (they do not move the turn counter); the luck reads them as the draws they are
    same_as = {"draws a flower": "draw", "replacement is a flower": "replacement", "replacement at the deal": "replacement"}
    rows = [(same_as.get(names[row[0]], names[row[0]]), int(row[1]), int(row[2])) for row in events]
    remaining = Counter(tile for name, _, tile in rows if name == "wall tile")
    dealer = next(seat for name, seat, _ in rows if name == "deal")

    def winds(seat_index):
        return ((seat_index - dealer) % 4) << SEAT_WIND_SHIFT | round_wind << ROUND_WIND_SHIFT

    def kinds_left(before):
        return {kind: copies for kind, copies in before.items() if kind < N_KINDS and copies > 0}

    def measure(seat_index, tile, kong, before):
        seat = table[seat_index]
        left = kinds_left(before)
        total = sum(left.values())
        n_melds = len(seat.melds)
        shanten = _shanten(tuple(seat.hand), n_melds)
        expected, actual = np.zeros(len(FEATURES)), np.zeros(len(FEATURES))
        for kind, copies in left.items():
            seat.hand[kind] += 1
            improves = _shanten(tuple(seat.hand), n_melds) < shanten
            completes = _complete(tuple(seat.hand), n_melds)
            seat.hand[kind] -= 1
            value = 0
            if completes and shanten == 0:
                flags = SELF_DRAWN_FLAG | winds(seat_index) | (KONG_REPLACEMENT_FLAG if kong else 0)
                flags |= FOURTH_TILE_FLAG if visible[kind] == 3 else 0
                value = _price_mcr(ruleset, seat, kind, flags, True)
            g = np.array([improves, improves and shanten == 1, completes, value, 0], dtype=float)
            expected += copies * g
            if kind == tile:
                actual = g
        sums[seat_index] += actual - expected / total
        for other_index, other in enumerate(table):  # a ready seat's win, were the tile thrown
            if other_index == seat_index or _shanten(tuple(other.hand), len(other.melds)) != 0:
                continue
            values = {}
            for kind in left:
                other.hand[kind] += 1
                completes = _complete(tuple(other.hand), len(other.melds))
                other.hand[kind] -= 1
                if completes:
                    flags = winds(other_index) | (FOURTH_TILE_FLAG if visible[kind] == 3 else 0)
                    values[kind] = _price_mcr(ruleset, other, kind, flags, False)
            mean = sum(left[kind] * value for kind, value in values.items()) / total
            sums[other_index, FEATURES.index("discard_win_value")] += values.get(tile, 0) - mean

    opening = True
    drawing = None  # the draw under way: (seat, from a kong, the tiles left before it)
    last_discard = -1
    for name, seat_index, tile in rows:
        if name in ("wall tile", "last tile of the wall"):
            continue
        if opening and name not in ("deal", "replacement"):
            opening = False
        seat = table[seat_index] if 0 <= seat_index < 4 else None
        if name == "deal":
            remaining[tile] -= 1
            if tile >= N_KINDS:
                seat.flowers += 1
            else:
                seat.hand[tile] += 1
        elif name in ("draw", "replacement"):
            if drawing is None and not opening:
                drawing = (seat_index, name == "replacement", Counter(remaining))
            remaining[tile] -= 1
            if tile >= N_KINDS:
                seat.flowers += 1
                continue
            if drawing is not None:
                measure(drawing[0], tile, drawing[1], drawing[2])
                drawing = None
            seat.hand[tile] += 1
        elif name == "discard":
            seat.hand[tile] -= 1
            visible[tile] += 1
            last_discard = tile
        elif name == "chow":
            for kind in range(tile, tile + 3):
                if kind != last_discard:
                    seat.hand[kind] -= 1
                    visible[kind] += 1
            seat.melds.append([MELD_CHOW, tile])
        elif name == "pong":
            seat.hand[tile] -= 2
            visible[tile] += 2
            seat.melds.append([MELD_PONG, tile])
        elif name == "kong":
            seat.hand[tile] -= 3
            visible[tile] += 3
            seat.melds.append([MELD_KONG, tile])
        elif name == "concealed kong":
            seat.hand[tile] -= 4
            seat.melds.append([MELD_CONCEALED_KONG, tile])
        elif name == "added kong":  # it stands unless robbed, before its replacement is drawn
            seat.hand[tile] -= 1
            visible[tile] += 1
            for meld in seat.melds:
                if meld[0] == MELD_PONG and meld[1] == tile:
                    meld[0] = MELD_KONG
    return sums

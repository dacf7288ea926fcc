"""004's assists for the player in the 闯关 levels (docs/rules/erren-challenge.md, "Levels and assists"):
起始换牌 after the deal, and 换刻子 and 搓牌 at the player's draws, all for seat 0, the player.

The assists are the system's offers, not moves of the game: whoever sits in seat 0, the one policy below
takes them, so a level's figures measure what an assist gives a player who uses it sensibly. Each is a swap
of tiles between the player's hand and the wall or the out-of-play tiles, so the table's tile count holds
(the validating mode checks it). Every random choice comes from the deal's assist stream
(``work.streams[ASSIST_STREAM]``, from (seed, 3, deal)), and both chances are drawn at every draw whether
or not their assist is on, so a campaign with one assist switched off sees the same coins for the others.

The policy:
- 起始换牌: going through the kinds in order, every isolated tile (a single copy with no tile of its suit
  within two ranks; a single honour) that is not of a bonus tile's kind is exchanged for the next
  out-of-play tile; the tile given back goes to the bottom of the out-of-play tiles.
- 换刻子 (while the hand is not locked by 报听): the system offers three copies of a kind drawn at random
  from the kinds with three copies in the wall or out of play. The player takes them if giving three tiles
  lowers its shanten: it gives them one at a time, each the tile whose swap for the offered kind leaves the
  lowest shanten. The three tiles given take the places of the copies taken.
- 搓牌: the player takes, instead of the wall's next tile, a tile of the kind that leaves it the lowest
  shanten after the draw (a winning tile if there is one), drawn at random among equal kinds; the copy
  comes from the out-of-play tiles (their far end first), else from the back of the wall, and the wall's
  next tile takes its place.
"""

import numpy as np
from numba import njit

from kernels.integers import smaller
from kernels.shanten import _distances_after_draw
from kernels.tiles import HONOR_START, N_KINDS, SUIT_SIZE
from sim.core.random_streams import random_below
from sim.erren.players import BIG, _discard_order, _discard_shanten, shanten_of
from sim.erren.table import (
    ASSIST_STREAM,
    CHANCE_SCALE,
    N_MELDS,
    OUT_OF_PLAY,
    PICK_CHANCE,
    PUNG_OFFER_CHANCE,
    READY,
    WALL_BACK,
    WALL_FRONT,
    WALL_TILES,
    log_event,
    wall_left,
)

ASSISTED_SEAT = 0  # the player; seat 1 is the computer
ASSIST_STREAM_CHANNEL = 3  # the assist stream is (seed, 3, deal): channels 1 and 2 are the seats' decisions

# The assists' event codes, after the engine's (sim.erren.engine.EVENT_NAMES lists them all). 起始换牌 logs
# each tile given and the tile taken for it; 换刻子 logs the kind offered and, if the player takes the
# three, each tile it gives for them; 搓牌 logs the kind picked, which the draw that follows shows too.
EV_EXCHANGE_GIVES, EV_EXCHANGE_TAKES, EV_PICK, EV_PUNG_OFFER, EV_PUNG_GIVES = 18, 19, 20, 21, 22
ASSIST_EVENT_NAMES = (
    "exchanges (起始换牌)", "takes in exchange", "picks its draw (搓牌)", "offered three (换刻子)", "gives for the three",
)


@njit(cache=True, inline="always", _nrt=False)
def _isolated(hand, kind):
    if hand[kind] != 1:
        return False
    if kind >= HONOR_START:
        return True
    rank = kind % SUIT_SIZE
    for step in (-2, -1, 1, 2):
        if 0 <= rank + step < SUIT_SIZE and hand[kind + step] > 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def start_exchange(seat, wall, state, rules, work, events):
    """起始换牌: exchange the dealt hand's isolated tiles for out-of-play tiles in order. Returns the last
    tile received, or -1 when nothing was exchanged."""
    hands, table = state.hands, state.table
    hand, end = hands[seat], rules.settings[WALL_TILES]
    received = -1
    for kind in range(N_KINDS):  # a tile received may end a later tile's isolation, or be isolated itself
        position = table[OUT_OF_PLAY]
        if not _isolated(hand, kind) or state.bonus[kind] > 0 or position >= end:
            continue
        received = wall[position]
        for later in range(position, end - 1):  # the rest move up, in order; the tile given goes last
            wall[later] = wall[later + 1]
        wall[end - 1] = kind
        hand[kind] -= 1
        hand[received] += 1
        log_event(events, EV_EXCHANGE_GIVES, seat, kind)
        log_event(events, EV_EXCHANGE_TAKES, seat, received)
    return received


@njit(cache=True, inline="always", _nrt=False)
def _available(wall, table, end, out):
    """out[kind] = copies in the live wall and the unplayed out-of-play tiles: what an assist may hand over."""
    for kind in range(N_KINDS):
        out[kind] = 0
    for position in range(table[WALL_FRONT], table[WALL_BACK] + 1):
        out[wall[position]] += 1
    for position in range(table[OUT_OF_PLAY], end):
        out[wall[position]] += 1


@njit(cache=True, inline="always", _nrt=False)
def _copy_position(wall, table, end, kind):
    """Where a copy of `kind` the assists may hand over lies: the out-of-play tiles from their far end,
    then the live wall from its back (so the wall's next tiles stay as they were as far as possible)."""
    for position in range(end - 1, table[OUT_OF_PLAY] - 1, -1):
        if wall[position] == kind:
            return position
    for position in range(table[WALL_BACK], table[WALL_FRONT] - 1, -1):
        if wall[position] == kind:
            return position
    return -1


@njit(cache=True, _nrt=False)
def _offer_pung(seat, wall, state, rules, work, events, stream):
    """换刻子: offer three of a kind; the player swaps three tiles for them if that lowers its shanten."""
    hands, table = state.hands, state.table
    hand, end, n_melds = hands[seat], rules.settings[WALL_TILES], table[N_MELDS + seat]
    available = work.held
    _available(wall, table, end, available)
    eligible = 0
    for kind in range(N_KINDS):
        if available[kind] >= 3:
            eligible += 1
    if eligible == 0:
        return stream
    stream, choice = random_below(stream, eligible)
    offered = -1
    for kind in range(N_KINDS):
        if available[kind] >= 3:
            if choice == 0:
                offered = kind
                break
            choice -= 1
    log_event(events, EV_PUNG_OFFER, seat, offered)
    before = shanten_of(hand, n_melds, rules, work.shanten_scratch)
    given = (-1, -1, -1)
    for index in range(3):
        hand[offered] += 1
        _discard_shanten(hand, n_melds, rules, work.shanten_scratch, work.shanten_after_discard)
        best, best_shanten = -1, BIG
        for kind in range(N_KINDS):
            shanten = work.shanten_after_discard[kind]
            if kind == offered or shanten == BIG:
                continue
            if shanten < best_shanten or (shanten == best_shanten and _discard_order(kind) < _discard_order(best)):
                best, best_shanten = kind, shanten
        if best < 0:  # a hand of melds holds too few other tiles to give three
            hand[offered] -= 1
            break
        hand[best] -= 1
        given = (given[1], given[2], best)  # in the order chosen
    if given[0] < 0 or shanten_of(hand, n_melds, rules, work.shanten_scratch) >= before:  # declined: as it was
        for kind in given:
            if kind >= 0:
                hand[kind] += 1
                hand[offered] -= 1
        return stream
    for kind in given:
        wall[_copy_position(wall, table, end, offered)] = kind
        log_event(events, EV_PUNG_GIVES, seat, kind)
    return stream


@njit(cache=True, _nrt=False)
def _pick(seat, wall, state, rules, work, events, stream):
    """搓牌: the next draw is a tile of the kind the player wants most."""
    hands, table = state.hands, state.table
    hand, end = hands[seat], rules.settings[WALL_TILES]
    available = work.held
    _available(wall, table, end, available)
    _distances_after_draw(hand, table[N_MELDS + seat], available, rules.suit_table, rules.honour_table,
                          work.shanten_scratch, work.distances)
    best, ties = np.int64(BIG), 0
    for kind in range(N_KINDS):
        if available[kind] > 0:
            best = smaller(best, work.distances[kind])
    for kind in range(N_KINDS):
        if available[kind] > 0 and work.distances[kind] == best:
            ties += 1
    stream, choice = random_below(stream, ties)
    for kind in range(N_KINDS):
        if available[kind] > 0 and work.distances[kind] == best:
            if choice == 0:
                front = table[WALL_FRONT]
                position = _copy_position(wall, table, end, kind)
                wall[front], wall[position] = wall[position], wall[front]
                log_event(events, EV_PICK, seat, kind)
                break
            choice -= 1
    return stream


@njit(cache=True, _nrt=False)
def at_draw(seat, wall, state, rules, work, events):
    """The assists of the player's draw from the wall, before it draws: 换刻子, then 搓牌."""
    settings, table, streams = rules.settings, state.table, work.streams
    stream, coin = random_below(streams[ASSIST_STREAM], CHANCE_SCALE)
    if coin < settings[PUNG_OFFER_CHANCE] and table[READY + seat] == 0:
        stream = _offer_pung(seat, wall, state, rules, work, events, stream)
    stream, coin = random_below(stream, CHANCE_SCALE)
    if coin < settings[PICK_CHANCE] and wall_left(table) > 0:
        stream = _pick(seat, wall, state, rules, work, events, stream)
    streams[ASSIST_STREAM] = stream

"""The heuristic players of the MCR family (docs/rules/mcr-table.md): ``random`` and ``greedy``, their parameters
(``parse_player``) and their decisions on a turn and on another seat's tile.

``random`` picks uniformly among the legal actions (``sim.mcr.table.legal_actions``), winning included.
``greedy`` wins whenever the table allows it (complete, and the ruleset's minimum reached: the engine
measures the win with the ruleset's fans, so no fan value or minimum is written here); otherwise it makes a
concealed or added kong when that does not raise its shanten, and discards to the lowest shanten, ties by
ukeire over the tiles it cannot see, then honours before terminals before the middle ranks. On another
seat's discard it kongs, pongs or chows when the claim (and its best discard after it) does not raise its
shanten, and lets a robbable kong go unless it may win. Its one parameter: ``claim`` (0: never claim a
discard). A player reads only its own hand, the discards and exposed melds, and the public counts.
Decisions return (action, new random-stream state).
"""

import numpy as np
from numba import njit

from kernels.discard_choice import UKEIRE, distances_after_discard, tied_ukeire
from kernels.integers import larger
from kernels.tiles import COPIES_PER_KIND, HONOR_START, MELD_PONG, N_KINDS, SUIT_SIZE
from sim.core.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DECISION_ROB,
    DISCARD,
    KONG,
    NO_TILE,
    PASS,
    PONG,
    WIN,
    encode,
)
from sim.core.random_streams import random_below
from sim.mcr.botzone.seat import PREFIX as BOTZONE_PREFIX
from sim.mcr.botzone.seat import BotzoneSeat
from sim.mcr.table import (
    N_MELDS,
    added_kong_legal,
    chow_legal,
    concealed_kong_legal,
    exposed_kong_legal,
    legal_actions,
    pong_legal,
    shanten,
    unseen_counts,
)
from sim.players.player_text import parse_player_text

RANDOM, GREEDY = 0, 1
NAMES = ("random", "greedy")
NUMBA_PLAYERS = {"ev": "sim.mcr.ev:act"}  # built-in players written on the numba player interface
USER_SEATS = {BOTZONE_PREFIX: BotzoneSeat}  # players of this family's own kinds, by prefix: Botzone's bots
CLAIM = 0
N_PARAMETERS = 1
DEFAULTS = {"random": {"claim": 1.0}, "greedy": {"claim": 1.0}}
SLOTS = {"claim": CLAIM}
BIG = 255


def parse_player(text: str, lenient: bool = False):
    """`NAME` or `NAME:key=value,...` -> (heuristic id, float64 parameter vector, canonical text)."""
    return parse_player_text(text, NAMES, DEFAULTS, SLOTS, N_PARAMETERS)


@njit(cache=True, inline="always", _nrt=False)
def _discard_order(kind):
    """Tie-break among equal discards, lowest first: honours, then terminals, 2/8, ... 5."""
    if kind >= HONOR_START:
        return 0
    rank = kind % SUIT_SIZE
    return 1 + min(rank, SUIT_SIZE - 1 - rank)


@njit(cache=True, _nrt=False)
def _random_action(state, rules, work, rng):
    """Uniform over the pending decision's legal actions."""
    n = legal_actions(state, rules, work, work.legal)
    rng, pick = random_below(rng, n)
    return work.legal[pick], rng


@njit(cache=True, inline="always", _nrt=False)  # one call site; the call would copy three tuples of arrays
def _best_discard(seat, state, rules, work):
    """(kind, distance after it): the greedy discard of a 3k+2 hand, ties by ukeire over the unseen tiles."""
    hand = state.hands[seat]
    n_melds = state.table[N_MELDS + seat]
    after, measures = work.shanten_after_discard, work.discard_choice
    best, ties = distances_after_discard(hand, n_melds, rules.suit_table, rules.honour_table, work.shanten_scratch,
                                         measures, after)
    if ties == 1:
        for kind in range(N_KINDS):
            if after[kind] == best:
                return kind, best
    unseen_counts(seat, state, rules.tile_set, work.unseen)
    tied_ukeire(hand, n_melds, work.unseen, best, rules.suit_table, rules.honour_table, work.shanten_scratch, measures,
                after, work.distances)
    chosen, chosen_ukeire = -1, -1
    for kind in range(N_KINDS):
        if after[kind] != best:
            continue
        accepted = measures[UKEIRE + kind]
        if accepted > chosen_ukeire or (accepted == chosen_ukeire and _discard_order(kind) < _discard_order(chosen)):
            chosen, chosen_ukeire = kind, accepted
    return chosen, best


@njit(cache=True, inline="always", _nrt=False)
def _kong_candidates(seat, state):
    """The kinds (bits) the seat might kong from its own tiles: four held, or one held beside its pong of the
    kind. Which of them it may kong now is for concealed_kong_legal and added_kong_legal to say."""
    hand, melds = state.hands[seat], state.melds
    candidates = np.int64(0)
    for kind in range(N_KINDS):
        candidates |= np.int64(hand[kind] == COPIES_PER_KIND) << kind  # no branch: it would rarely be taken
    for index in range(state.table[N_MELDS + seat]):
        if melds[seat, index, 0] == MELD_PONG:
            kind = melds[seat, index, 1]
            candidates |= np.int64(hand[kind] > 0) << kind
    return candidates


@njit(cache=True, _nrt=False)
def turn_action(kind, parameters, seat, win_allowed, state, rules, work, rng):
    """The seat's own-turn action with 3k+2 tiles: WIN, a kong, or DISCARD. Returns (action, stream state)."""
    if kind == RANDOM:
        return _random_action(state, rules, work, rng)
    if win_allowed:
        return encode(WIN, NO_TILE), rng
    hand = state.hands[seat]
    n_melds = state.table[N_MELDS + seat]
    discard, best = _best_discard(seat, state, rules, work)
    candidates = _kong_candidates(seat, state)
    if candidates == 0:  # most turns: the kinds need not be tried one by one
        return encode(DISCARD, discard), rng
    for tile in range(N_KINDS):
        if not (candidates >> tile) & 1:
            continue
        if concealed_kong_legal(seat, tile, state):
            hand[tile] -= 4
            keeps = shanten(hand, n_melds + 1, rules, work.shanten_scratch) + 1 <= best
            hand[tile] += 4
            if keeps:
                return encode(CONCEALED_KONG, tile), rng
        if added_kong_legal(seat, tile, state):
            hand[tile] -= 1
            keeps = shanten(hand, n_melds, rules, work.shanten_scratch) + 1 <= best
            hand[tile] += 1
            if keeps:
                return encode(ADDED_KONG, tile), rng
    return encode(DISCARD, discard), rng


@njit(cache=True, inline="always", _nrt=False)
def _distance_after_meld(seat, tile, low, taken, state, rules, work):
    """The best distance (shanten + 1) after melding the discard `tile` with the held tiles of the meld that
    starts at `low` (`taken` of `tile` for a pong; a chow takes the other two of low..low+2) and discarding:
    the distance of the 3k+2 tiles left, or 1 if they are complete (kernels.discard_choice: a discard keeps
    the distance of a hand not complete)."""
    hand = state.hands[seat]
    n_melds = state.table[N_MELDS + seat]
    if taken > 0:
        hand[tile] -= taken
    else:
        for kind in range(low, low + 3):
            if kind != tile:
                hand[kind] -= 1
    best = larger(shanten(hand, n_melds + 1, rules, work.shanten_scratch) + 1, 1)
    if taken > 0:
        hand[tile] += taken
    else:
        for kind in range(low, low + 3):
            if kind != tile:
                hand[kind] += 1
    return best


@njit(cache=True, _nrt=False)
def claim_action(kind, parameters, seat, tile, win_allowed, decision, state, rules, work, rng):
    """The seat's answer to a discard `tile` (or, as DECISION_ROB, to a tile added to a pong): WIN, KONG,
    PONG, CHOW or PASS. Returns (action, stream state)."""
    if kind == RANDOM:
        return _random_action(state, rules, work, rng)
    if win_allowed:
        return encode(WIN, NO_TILE), rng
    if decision == DECISION_ROB or parameters[CLAIM] == 0:
        return encode(PASS, NO_TILE), rng
    hand = state.hands[seat]
    n_melds = state.table[N_MELDS + seat]
    now = shanten(hand, n_melds, rules, work.shanten_scratch) + 1
    if exposed_kong_legal(seat, tile, state):
        hand[tile] -= 3
        after = shanten(hand, n_melds + 1, rules, work.shanten_scratch) + 1
        hand[tile] += 3
        if after <= now:
            return encode(KONG, tile), rng
    if pong_legal(seat, tile, state) and _distance_after_meld(seat, tile, tile, 2, state, rules, work) <= now:
        return encode(PONG, tile), rng
    chosen, chosen_distance = -1, BIG
    for low in range(tile - 2, tile + 1):
        if chow_legal(seat, low, tile, state):
            distance = _distance_after_meld(seat, tile, low, 0, state, rules, work)
            if distance <= now and distance < chosen_distance:
                chosen, chosen_distance = low, distance
    if chosen >= 0:
        return encode(CHOW, chosen), rng
    return encode(PASS, NO_TILE), rng

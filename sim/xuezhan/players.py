"""The heuristic players of the 血战 family (docs/rules/xuezhan-table.md): ``random``, ``greedy``, ``value``, ``defensive``,
their parameters (``parse_player``), their work arrays (``sim.xuezhan.table.Work``) and their decisions: discard, kong,
报叫, claims, and the 换三张 and 定缺 choices. They read the table laid out by ``sim.xuezhan.table`` and
measure hands and check legality with its functions.

``random`` picks uniformly among the legal actions (换三张: a random suit it may give and random
tiles of it; 定缺: a random suit). ``greedy`` discards to the lowest shanten,
ties by ukeire over the tiles it cannot see, pongs or kongs when that does not raise its shanten, and wins
whenever it may; for 换三张 and 定缺 it takes the suit it holds fewer tiles of (ties: fewer tiles in pairs,
then 筒) and gives that suit's three tiles its discard measure would discard first. ``value`` adds to speed an estimate of what the hand is heading for in this family (清一色,
pungs, seven pairs), each weighed by what the ruleset multiplies a win by for it (``doublings``), against
speed by ``speed``; raising a fan's value makes it chase that fan more. ``defensive`` plays like greedy until an opponent
still in has declared 报叫 or at most ``threat_wall`` tiles are left; then it stops claiming and discards by
the cost ``caution`` x danger + 4 x (shanten steps lost), where a declarer's public wait is very dangerous
and other tiles are as dangerous as the copies it cannot see. Shared parameters: ``claim`` (0: never pong
or kong a discard) and ``declare`` (1: declare 报叫 when the rules allow it and the hand is ready; the
random player then tosses a coin). A player reads only its own hand, the discards, the exposed melds, the
declared waits and the public counts. Decisions return (action, new random-stream state).
"""

import numpy as np
from numba import njit

from kernels.fan_ids import Fan
from kernels.tiles import N_KINDS, PIN_START, SOU_START
from sim.core.actions import (
    ADDED_KONG,
    CONCEALED_KONG,
    DISCARD,
    DISCARD_READY,
    KONG,
    NO_TILE,
    PASS,
    PONG,
    WIN,
    encode,
)
from sim.core.random_streams import random_below
from sim.players.player_text import parse_player_text
from sim.xuezhan.table import (
    COMBINE_MULTIPLY,
    DECLARED,
    DECLARED_VOID,
    EXCHANGED,
    FIRST_KIND,
    LAST_KIND,
    N_MELDS,
    N_SEATS,
    SUIT_SIZE,
    WON,
    added_kong_legal,
    concealed_kong_legal,
    discard_respects_void,
    exposed_kong_legal,
    is_void_kind,
    kong_room,
    may_declare_now,
    pong_index,
    pong_legal,
    ready_after_discard,
    shanten,
    ukeire,
    unseen_counts,
    void_tiles_held,
    wall_left,
)

RANDOM, GREEDY, VALUE, DEFENSIVE = 0, 1, 2, 3
NAMES = ("random", "greedy", "value", "defensive")
NUMBA_PLAYERS = {"ev": "sim.xuezhan.ev:act"}  # built-in players written on the numba player interface
CLAIM, DECLARE, SPEED, THREAT_WALL, CAUTION = range(5)
N_PARAMETERS = 5
DEFAULTS = {
    "random": {"claim": 1.0, "declare": 1.0},
    "greedy": {"claim": 1.0, "declare": 1.0},
    "value": {"claim": 1.0, "declare": 1.0, "speed": 4.0},
    "defensive": {"claim": 1.0, "declare": 1.0, "threat_wall": 10.0, "caution": 3.0},
}
SLOTS = {"claim": CLAIM, "declare": DECLARE, "speed": SPEED, "threat_wall": THREAT_WALL, "caution": CAUTION}
# Keys of the 二人 players that a canonical 二人 text carries: `ready` means "declare", the doubling keys
# have no meaning here (there is no 加倍) and are dropped when a 二人 Players object is reused.
ERREN_KEYS = {"ready": "declare", "double_below": None, "double_wall": None, "threat_melds": None}
BIG = 255
DECLARER_WAIT_DANGER = 100.0
# value: a doubling of the win is worth this much of its measure, as much as one shanten step at the default
# speed (4): a target that quadruples the win (002's and 003's 清一色) is worth two steps of speed.
DOUBLING_WORTH = 4.0


def parse_player(text: str, lenient: bool = False):
    """`NAME` or `NAME:key=value,...` -> (heuristic id, float64 parameter vector, canonical text).

    `lenient` accepts the extra keys of a canonical 二人 player text (``ERREN_KEYS``)."""
    return parse_player_text(text, NAMES, DEFAULTS, SLOTS, N_PARAMETERS, ERREN_KEYS if lenient else None)


# ------------------------------------------------------------------------------------ players' measures


@njit(cache=True, _nrt=False)
def _discard_shanten(hand, n_melds, suit, out):
    """out[kind] = shanten after discarding one `kind` (BIG where none is held); returns the lowest."""
    best = BIG
    for kind in range(N_KINDS):
        out[kind] = BIG
    for kind in range(FIRST_KIND, LAST_KIND + 1):
        if hand[kind] > 0:
            hand[kind] -= 1
            out[kind] = shanten(hand, n_melds, suit)
            hand[kind] += 1
            best = min(best, out[kind])
    return best


@njit(cache=True, inline="always", _nrt=False)
def _discard_order(kind):
    """Tie-break among equal discards: terminals first, then 2/8, ... 5."""
    rank = (kind - FIRST_KIND) % 9
    return min(rank, 8 - rank)


@njit(cache=True, _nrt=False)
def doublings(fan, rules):
    """How many times the ruleset doubles a win for `fan`: log2 of its multiplier where values multiply
    (002), its value where they are powers of two (003); 0 for a fan the ruleset does not score."""
    value = float(rules.fan_values[fan])
    if rules.settings[COMBINE_MULTIPLY] != 0:
        return np.log2(value) if value > 1.0 else 0.0
    return value


@njit(cache=True, _nrt=False)
def _potential(seat, hand, n_melds, state, rules, held):
    """What the hand is heading for, in ``DOUBLING_WORTH`` per doubling the ruleset gives it: 清一色 by the
    share of its larger suit, seven pairs by pairs held (no melds), all pungs by the pungs and pairs it has."""
    melds = state.melds
    for kind in range(N_KINDS):
        held[kind] = hand[kind]
    for index in range(n_melds):
        held[melds[seat, index, 1]] += 3
    pin, sou, pairs, pungs = 0, 0, 0, 0
    for kind in range(FIRST_KIND, LAST_KIND + 1):
        if kind < SOU_START:
            pin += held[kind]
        else:
            sou += held[kind]
        if hand[kind] >= 2:
            pairs += 1
        if held[kind] >= 3:
            pungs += 1
    minority = min(pin, sou)
    # each tile of the smaller suit costs a quarter of 清一色; seven pairs builds from the fourth pair; pungs
    # count 1.5 eighths of 碰碰胡 each, and pairs an eighth once two pungs are there
    potential = DOUBLING_WORTH * doublings(Fan.FULL_FLUSH, rules) * max(0.0, 1.0 - minority / 4.0)
    if n_melds == 0 and pairs >= 4:
        potential += DOUBLING_WORTH * doublings(Fan.SEVEN_PAIRS, rules) * (pairs - 3) / 4.0
    pung_share = 1.5 * pungs + (1.0 * pairs if pungs >= 2 else 0.0)
    potential += DOUBLING_WORTH * doublings(Fan.ALL_PUNGS, rules) * pung_share / 8.0
    return potential


@njit(cache=True, _nrt=False)
def _threatened(seat, parameters, state):
    table = state.table
    if wall_left(table) <= parameters[THREAT_WALL]:
        return True
    for other in range(table[N_SEATS]):
        if other != seat and table[WON + other] == 0 and table[DECLARED + other] == 1:
            return True
    return False


@njit(cache=True, _nrt=False)
def _danger(seat, kind, state, live):
    table, waits = state.table, state.waits
    for other in range(table[N_SEATS]):
        if other != seat and table[WON + other] == 0 and table[DECLARED + other] == 1 and waits[other, kind] == 1:
            return DECLARER_WAIT_DANGER
    return max(live[kind], 0) / 4.0


@njit(cache=True, _nrt=False)
def choose_discard(kind, parameters, seat, state, rules, work):
    """The discard of a greedy, value or defensive player from 3k+2 tiles (under 定缺, while it holds tiles
    of its void suit, one of those); leaves the shanten after every discard in work.shanten_after_discard."""
    first, last = FIRST_KIND, LAST_KIND
    if void_tiles_held(seat, state) > 0:
        first = state.table[DECLARED_VOID + seat]
        last = first + SUIT_SIZE - 1
    return _choose_discard_among(kind, parameters, seat, first, last, state, rules, work)


@njit(cache=True, _nrt=False)
def _choose_discard_among(kind, parameters, seat, first, last, state, rules, work):
    """The player's discard measure over the kinds first..last it holds (the least useful of them)."""
    hands, table = state.hands, state.table
    hand = hands[seat]
    n_melds = table[N_MELDS + seat]
    suit = rules.suit_table
    live, after = work.unseen, work.shanten_after_discard
    unseen_counts(seat, state, rules.tile_set, live)
    best_shanten = _discard_shanten(hand, n_melds, suit, after)
    if first != FIRST_KIND or last != LAST_KIND:
        best_shanten = BIG
        for tile in range(first, last + 1):
            best_shanten = min(best_shanten, after[tile])
    if kind == DEFENSIVE and _threatened(seat, parameters, state):
        best_kind, best_cost = -1, 1e18
        for tile in range(first, last + 1):
            if after[tile] == BIG:
                continue
            cost = parameters[CAUTION] * _danger(seat, tile, state, live) + 4.0 * (after[tile] - best_shanten)
            if cost < best_cost or (cost == best_cost and _discard_order(tile) < _discard_order(best_kind)):
                best_kind, best_cost = tile, cost
        return best_kind
    best_kind, best_score = -1, -1e18
    for tile in range(first, last + 1):
        if after[tile] == BIG:
            continue
        if kind == VALUE:
            if after[tile] > best_shanten + 2:
                continue
        elif after[tile] != best_shanten:
            continue
        hand[tile] -= 1
        _, accepted = ukeire(hand, n_melds, live, suit)
        score = float(accepted)
        if kind == VALUE:
            score = (
                _potential(seat, hand, n_melds, state, rules, work.held) - parameters[SPEED] * after[tile] + 0.1 * accepted
            )
        hand[tile] += 1
        if score > best_score or (score == best_score and _discard_order(tile) < _discard_order(best_kind)):
            best_kind, best_score = tile, score
    return best_kind


# ------------------------------------------------------------------------------------ decisions


@njit(cache=True, _nrt=False)
def _suit_tiles(hand, start):
    total = 0
    for kind in range(start, start + SUIT_SIZE):
        total += hand[kind]
    return total


@njit(cache=True, _nrt=False)
def _smaller_suit(hand, least):
    """The first kind of the suit of which the hand holds fewer tiles, among the suits it holds at least
    `least` of (ties: the one with fewer tiles in pairs or more, then 筒); -1 if neither qualifies."""
    best, best_tiles, best_paired = -1, 0, 0
    for start in (PIN_START, SOU_START):
        tiles, paired = 0, 0
        for kind in range(start, start + SUIT_SIZE):
            tiles += hand[kind]
            if hand[kind] >= 2:
                paired += hand[kind]
        if tiles < least:
            continue
        if best < 0 or tiles < best_tiles or (tiles == best_tiles and paired < best_paired):
            best, best_tiles, best_paired = start, tiles, paired
    return best


@njit(cache=True, _nrt=False)
def choose_exchange(kind, parameters, seat, state, rules, work, rng, out):
    """换三张: the three tiles the seat gives, written to `out` (kinds, ascending), all of one suit it holds
    at least three of. Returns the stream state."""
    hand = state.hands[seat]
    if kind == RANDOM:
        eligible = 0
        for start in (PIN_START, SOU_START):
            if _suit_tiles(hand, start) >= EXCHANGED:
                eligible += 1
        rng, pick = random_below(rng, eligible)
        start = PIN_START
        for candidate in (PIN_START, SOU_START):
            if _suit_tiles(hand, candidate) >= EXCHANGED:
                if pick == 0:
                    start = candidate
                    break
                pick -= 1
        for index in range(EXCHANGED):
            rng, copy = random_below(rng, _suit_tiles(hand, start))
            tile = start
            while copy >= hand[tile]:
                copy -= hand[tile]
                tile += 1
            out[index] = tile
            hand[tile] -= 1
    else:
        start = _smaller_suit(hand, EXCHANGED)
        for index in range(EXCHANGED):
            tile = _choose_discard_among(kind, parameters, seat, start, start + SUIT_SIZE - 1, state, rules, work)
            out[index] = tile
            hand[tile] -= 1
    for index in range(EXCHANGED):
        hand[out[index]] += 1
    for index in range(1, EXCHANGED):  # ascending, as the log writes them
        position = index
        while position > 0 and out[position - 1] > out[position]:
            out[position - 1], out[position] = out[position], out[position - 1]
            position -= 1
    return rng


@njit(cache=True, _nrt=False)
def choose_void_suit(kind, seat, state, rng):
    """定缺: the first kind of the suit the seat declares void. Returns (kind, stream state)."""
    if kind == RANDOM:
        rng, pick = random_below(rng, 2)
        return PIN_START if pick == 0 else SOU_START, rng
    return _smaller_suit(state.hands[seat], 0), rng


@njit(cache=True, _nrt=False)
def declare_at_deal(kind, parameters, seat, state, rules, work, rng):
    """A non-dealer whose 13 dealt tiles are ready: declare 报叫?"""
    if parameters[DECLARE] == 0:
        return False, rng
    if kind == RANDOM:
        rng, coin = random_below(rng, 2)
        return coin == 1, rng
    return True, rng


@njit(cache=True, _nrt=False)
def _random_turn(seat, win_allowed, drawn, state, rules, work, rng):
    """Uniform over the legal own-turn actions (counted first, then the pick walked to)."""
    hands, table = state.hands, state.table
    hand = hands[seat]
    declared = table[DECLARED + seat] == 1
    may_declare = may_declare_now(seat, state, rules.settings)
    n_actions = 0
    pick = 0
    for phase in range(2):
        if phase == 1:
            rng, pick = random_below(rng, n_actions)
        if win_allowed:
            if phase == 1:
                if pick == 0:
                    return encode(WIN, NO_TILE), rng
                pick -= 1
            else:
                n_actions += 1
        for tile in range(FIRST_KIND, LAST_KIND + 1):
            if hand[tile] == 0:
                continue
            options = 0
            if (not declared or tile == drawn) and discard_respects_void(seat, tile, state):
                options += 1
                if phase == 1 and pick == 0:
                    return encode(DISCARD, tile), rng
                if phase == 1:
                    pick -= 1
            if may_declare and discard_respects_void(seat, tile, state) and ready_after_discard(seat, tile, state, rules):
                options += 1
                if phase == 1:
                    if pick == 0:
                        return encode(DISCARD_READY, tile), rng
                    pick -= 1
            if concealed_kong_legal(seat, tile, state, rules, work):
                options += 1
                if phase == 1:
                    if pick == 0:
                        return encode(CONCEALED_KONG, tile), rng
                    pick -= 1
            if added_kong_legal(seat, tile, state, rules, work):
                options += 1
                if phase == 1:
                    if pick == 0:
                        return encode(ADDED_KONG, tile), rng
                    pick -= 1
            if phase == 0:
                n_actions += options
    return encode(DISCARD, drawn), rng  # unreachable


@njit(cache=True, _nrt=False)
def turn_action(kind, parameters, seat, win_allowed, drawn, state, rules, work, rng):
    """The seat's own-turn action with 3k+2 tiles: WIN, a kong, DISCARD, or (the dealer's first discard)
    DISCARD_READY. `drawn` is the tile just drawn (-1 after a pong). Returns (action, stream state)."""
    hands, table = state.hands, state.table
    if kind == RANDOM:
        return _random_turn(seat, win_allowed, drawn, state, rules, work, rng)
    if win_allowed:
        return encode(WIN, NO_TILE), rng
    hand = hands[seat]
    n_melds = table[N_MELDS + seat]
    if table[DECLARED + seat] == 1:
        # Locked: a kong that keeps the waits is free money and a 根; otherwise the drawn tile goes.
        if drawn >= 0:
            if concealed_kong_legal(seat, drawn, state, rules, work):
                return encode(CONCEALED_KONG, drawn), rng
            if added_kong_legal(seat, drawn, state, rules, work):
                return encode(ADDED_KONG, drawn), rng
        return encode(DISCARD, drawn), rng
    discard = choose_discard(kind, parameters, seat, state, rules, work)
    after = work.shanten_after_discard
    shanten_now = BIG
    for tile in range(FIRST_KIND, LAST_KIND + 1):
        shanten_now = min(shanten_now, after[tile])
    if kong_room(seat, table):
        for tile in range(FIRST_KIND, LAST_KIND + 1):
            if hand[tile] == 4 and not is_void_kind(seat, tile, table):
                hand[tile] -= 4
                keeps = shanten(hand, n_melds + 1, rules.suit_table) <= shanten_now
                hand[tile] += 4
                if keeps:
                    return encode(CONCEALED_KONG, tile), rng
            if hand[tile] > 0 and pong_index(seat, state.melds, table, tile) >= 0:
                hand[tile] -= 1
                keeps = shanten(hand, n_melds, rules.suit_table) <= shanten_now
                hand[tile] += 1
                if keeps:
                    return encode(ADDED_KONG, tile), rng
    if (
        parameters[DECLARE] != 0 and after[discard] == 0 and may_declare_now(seat, state, rules.settings)
        and void_tiles_held(seat, state) == int(is_void_kind(seat, discard, table))
    ):
        return encode(DISCARD_READY, discard), rng
    return encode(DISCARD, discard), rng


@njit(cache=True, _nrt=False)
def _random_claim(seat, tile, win_allowed, pong_ok, kong_ok, rng):
    n_actions = 1 + int(win_allowed) + int(pong_ok) + int(kong_ok)
    rng, pick = random_below(rng, n_actions)
    if pick == 0:
        return encode(PASS, NO_TILE), rng
    pick -= 1
    if win_allowed:
        if pick == 0:
            return encode(WIN, NO_TILE), rng
        pick -= 1
    if pong_ok:
        if pick == 0:
            return encode(PONG, tile), rng
        pick -= 1
    return encode(KONG, tile), rng


@njit(cache=True, _nrt=False)
def claim_action(kind, parameters, seat, tile, win_allowed, may_claim, state, rules, work, rng):
    """The seat's response to a discard `tile` (to an added kong with may_claim False): WIN, PONG, KONG or
    PASS. Returns (action, stream state)."""
    hands, table = state.hands, state.table
    may_claim = may_claim and parameters[CLAIM] != 0
    pong_ok = may_claim and pong_legal(seat, tile, state, rules.settings)
    kong_ok = may_claim and exposed_kong_legal(seat, tile, state, rules, work)
    if kind == RANDOM:
        return _random_claim(seat, tile, win_allowed, pong_ok, kong_ok, rng)
    if win_allowed:
        return encode(WIN, NO_TILE), rng
    if not (pong_ok or kong_ok) or (kind == DEFENSIVE and _threatened(seat, parameters, state)):
        return encode(PASS, NO_TILE), rng
    hand = hands[seat]
    n_melds = table[N_MELDS + seat]
    suit = rules.suit_table
    now = shanten(hand, n_melds, suit)
    if kong_ok:
        hand[tile] -= 3
        after = shanten(hand, n_melds + 1, suit)
        hand[tile] += 3
        if after <= now:
            return encode(KONG, tile), rng
    if pong_ok:
        hand[tile] -= 2
        after = _discard_shanten(hand, n_melds + 1, suit, work.shanten_after_discard)
        take = after <= now
        if kind == VALUE and take and doublings(Fan.FULL_FLUSH, rules) > 0:
            # The value player pongs only tiles of the suit it keeps (a pong of the other suit spoils 清一色).
            held = work.held
            _potential(seat, hand, n_melds, state, rules, held)
            pin, sou = 0, 0
            for other in range(FIRST_KIND, LAST_KIND + 1):
                if other < SOU_START:
                    pin += held[other]
                else:
                    sou += held[other]
            take = (tile < SOU_START) == (pin >= sou)
        hand[tile] += 2
        if take:
            return encode(PONG, tile), rng
    return encode(PASS, NO_TILE), rng

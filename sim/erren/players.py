"""Heuristic players: numba decision functions chosen by name, with parameters (``NAME:key=value,...``).

- ``random``: a uniformly random legal action at every decision.
- ``greedy``: discards to the lowest shanten, ties broken by ukeire counted over the tiles it cannot see;
  claims only when that lowers its shanten; wins whenever it legally can.
- ``value``: scores each discard by speed (shanten, ukeire) plus an estimate of the fans the hand can still
  reach (flushes, seven pairs, all pungs, honour sets, a concealed hand), each weighed by the ruleset's own
  value of that fan (a 役满 by the fans its points are worth), with a bonus ``legal`` for reaching the
  minimum fan, so it gives up some speed for hands that pay (and that may be won at all). Raising a fan's
  value in a ruleset makes it chase that fan more; ``greedy``, ``defensive`` and ``random`` do not weigh
  values.
- ``defensive``: plays like greedy until the opponent looks close to winning (ready declared, at least
  ``threat_melds`` claimed melds, or at most ``threat_wall`` tiles left); then it stops claiming and
  discards the tile with the lowest cost ``caution`` x danger + 4 x (shanten steps lost), where danger
  counts the unseen copies that could make the tile a winning one for the opponent.

Every player sees only what its seat may see (``sim.erren.table``): its own hand, the discards and the
exposed melds; the opponent's hand only after declaring ready, which the built-in players use only to
decide whether doubling is safe. Shared parameters: ``claim`` (0 never claims a discard), ``ready`` (0
never declares ready; 1 declares when the ready hand can win at the minimum fan on some wait),
``double_below`` and ``double_wall`` (加倍 instead of winning while the win is worth fewer fans than
``double_below`` and at least ``double_wall`` tiles are left; 0 never doubles). A decision function gets the
seat's random stream and returns (action, new stream state).
"""

import numpy as np
from numba import njit

from kernels.fan_ids import READY_FLAG, Fan
from kernels.integers import smaller
from kernels.shanten import _distances_after_discard, _ukeire_one
from kernels.tiles import HONOR_START, MELD_CHOW, MELD_PONG, N_KINDS, SUIT_SIZE
from sim.core.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    DISCARD_READY,
    DOUBLE,
    KONG,
    NO_TILE,
    PASS,
    PONG,
    WIN,
    action_code,
    action_tile,
    encode,
)
from sim.core.random_streams import random_below
from sim.erren.table import (
    CLAIMED_MELDS,
    MIN_FAN,
    N_MELDS,
    PER_FAN_STEP,
    PER_LIMIT,
    READY,
    READY_REQUIRES_CONCEALED,
    SCORING,
    SCORING_CHALLENGE,
    chow_possible,
    hand_shanten,
    may_declare_ready,
    opponent_hand_visible,
    pong_index,
    unseen_counts,
    wall_left,
)
from sim.erren.win_value import NOT_A_WIN, is_winning_shape, score_win
from sim.players.player_text import parse_player_text
from sim.players.wait_ways import chow_wait_ways

RANDOM, GREEDY, VALUE, DEFENSIVE = 0, 1, 2, 3
NAMES = ("random", "greedy", "value", "defensive")
# Built-in players written on the numba player interface, seated by name like the heuristics above.
NUMBA_PLAYERS = {"ev": "sim.erren.ev:act"}

# Parameter slots of the float64 parameter vector every player carries.
CLAIM, READY_POLICY, DOUBLE_BELOW, DOUBLE_WALL, SPEED, THREAT_MELDS, THREAT_WALL, CAUTION, LEGAL = range(9)
N_PARAMETERS = 9
SHARED_DEFAULTS = {"claim": 1.0, "ready": 1.0, "double_below": 0.0, "double_wall": 10.0}
DEFAULTS = {
    "random": {"claim": 1.0, "ready": 1.0},
    "greedy": dict(SHARED_DEFAULTS),
    "value": {**SHARED_DEFAULTS, "speed": 8.0, "legal": 16.0},
    "defensive": {**SHARED_DEFAULTS, "threat_melds": 2.0, "threat_wall": 8.0, "caution": 3.0},
}
SLOTS = {
    "claim": CLAIM, "ready": READY_POLICY, "double_below": DOUBLE_BELOW, "double_wall": DOUBLE_WALL,
    "speed": SPEED, "threat_melds": THREAT_MELDS, "threat_wall": THREAT_WALL, "caution": CAUTION, "legal": LEGAL,
}
BIG = 255  # kernels.shanten marks kinds not held (no discard) with the same number
DRAGONS_START = HONOR_START + 4


def parse_player(text: str):
    """`NAME` or `NAME:key=value,...` -> (heuristic id, float64 parameter vector, canonical text)."""
    return parse_player_text(text, NAMES, DEFAULTS, SLOTS, N_PARAMETERS)


# ------------------------------------------------------------------------------------ hand measures


@njit(cache=True, inline="always", _nrt=False)
def shanten_of(hand, n_melds, rules, scratch):
    return hand_shanten(hand, n_melds, rules, scratch)


@njit(cache=True, _nrt=False)
def _discard_shanten(hand, n_melds, rules, scratch, out):
    """out[kind] = shanten after discarding one `kind` (BIG where none is held); returns the lowest."""
    _distances_after_discard(hand, n_melds, rules.suit_table, rules.honour_table, scratch, out)
    best = BIG
    for kind in range(N_KINDS):
        if out[kind] != BIG:
            out[kind] -= 1  # distance to shanten
            best = smaller(best, out[kind])
    return best


@njit(cache=True, _nrt=False)
def _ukeire(hand, n_melds, live, rules, work):
    """Live tiles that lower the shanten of a hand of 3k+1 tiles."""
    return _ukeire_one(hand, n_melds, live, rules.suit_table, rules.honour_table, work.shanten_scratch, work.distances)[1]


@njit(cache=True, inline="always", _nrt=False)
def _discard_order(kind):
    """Tie-break among equal discards: isolated-value order, honours first, then 1/9, 2/8, ... 5."""
    if kind >= HONOR_START:
        return 0
    rank = kind % 9
    return 1 + smaller(rank, 8 - rank)


@njit(cache=True, _nrt=False)
def greedy_discard(seat, n_melds, state, rules, work):
    """The greedy discard from the seat's hand of 3k+2 tiles: the lowest shanten after it, then the most
    live tiles that lower it (ukeire), then `_discard_order`. Returns (kind, shanten after)."""
    hands = state.hands
    hand = hands[seat]
    scratch, live, shanten_after = work.shanten_scratch, work.unseen, work.shanten_after_discard
    best_shanten = _discard_shanten(hand, n_melds, rules, scratch, shanten_after)
    best_kind, ties = -1, 0
    for kind in range(N_KINDS):
        if shanten_after[kind] == best_shanten:
            best_kind, ties = kind, ties + 1
    if ties == 1:  # the ukeire, most of the choice's cost, decides only between discards of equal shanten
        return best_kind, best_shanten
    unseen_counts(seat, state, rules.tile_set, live)
    best_kind, best_ukeire = -1, -1
    for kind in range(N_KINDS):
        if shanten_after[kind] != best_shanten:
            continue
        hand[kind] -= 1
        ukeire = _ukeire(hand, n_melds, live, rules, work)
        hand[kind] += 1
        if ukeire > best_ukeire or (ukeire == best_ukeire and _discard_order(kind) < _discard_order(best_kind)):
            best_kind, best_ukeire = kind, ukeire
    return best_kind, best_shanten


@njit(cache=True, _nrt=False)
def _ready_pays(seat, hand, n_melds, state, rules, work):
    """Whether the seat's ready hand of 3k+1 tiles wins at the minimum fan on some wait still live for it
    (scored as a declared ready hand winning on a discard: the least a wait is sure to be worth)."""
    melds = state.melds
    live = work.unseen
    unseen_counts(seat, state, rules.tile_set, live)
    for kind in range(N_KINDS):
        if live[kind] <= 0 or hand[kind] >= 4:
            continue
        hand[kind] += 1
        complete = is_winning_shape(hand, n_melds, rules)
        hand[kind] -= 1
        if complete:
            total = score_win(hand, melds[seat], n_melds, kind, READY_FLAG, 0, state.bonus, rules, work)
            if total != NOT_A_WIN and total >= rules.settings[MIN_FAN]:
                return True
    return False


@njit(cache=True, _nrt=False)
def fan_worth(fan, rules):
    """What the ruleset pays for `fan`, in fans: its value, or where wins are priced in points
    (erren-challenge) and the fan is a 役满, the fans whose points f x (f + 1) x step equal a 役满's."""
    value = float(rules.fan_values[fan])
    settings = rules.settings
    if settings[SCORING] == SCORING_CHALLENGE and rules.is_limit[fan] and settings[PER_FAN_STEP] > 0:
        return value * (np.sqrt(1.0 + 4.0 * settings[PER_LIMIT] / settings[PER_FAN_STEP]) - 1.0) / 2.0
    return value


@njit(cache=True, _nrt=False)
def _fan_potential(seat, hand, n_melds, state, rules, held):
    """A rough count of the fans a hand is heading for, each at the ruleset's value (``fan_worth``): a flush,
    seven pairs or all pungs, honour pungs, a concealed hand. It reads only the seat's own tiles and melds;
    `held` is a work array."""
    melds = state.melds
    chows = 0
    for kind in range(N_KINDS):
        held[kind] = hand[kind]
    for index in range(n_melds):
        code, low = melds[seat, index, 0], melds[seat, index, 1]
        if code == MELD_CHOW:
            chows += 1
            for kind in range(low, low + 3):
                held[kind] += 1
        else:
            held[low] += 3
    dragon_pung = fan_worth(Fan.DRAGON_PUNG, rules)
    honour_pung = fan_worth(Fan.PUNG_OF_TERMINALS_OR_HONORS, rules)
    honours, suited, pairs, pungs = 0, 0, 0, 0
    in_suit0, in_suit1, in_suit2 = 0, 0, 0
    bonus = 0.0
    for kind in range(N_KINDS):
        if held[kind] == 0:
            continue
        if kind >= HONOR_START:
            honours += held[kind]
            if held[kind] >= 3:
                bonus += dragon_pung if kind >= DRAGONS_START else honour_pung
            elif held[kind] == 2 and kind >= DRAGONS_START:
                bonus += dragon_pung / 2.0
        else:
            suited += held[kind]
            suit = kind // SUIT_SIZE
            in_suit0 += held[kind] * (suit == 0)
            in_suit1 += held[kind] * (suit == 1)
            in_suit2 += held[kind] * (suit == 2)
        if hand[kind] >= 2:
            pairs += 1
        if held[kind] >= 3:
            pungs += 1
    # 清一色 or 字一色, approached tile by tile from 混一色, so that each honour (or suit tile) given up counts:
    # 清一色 loses a quarter of its worth per tile outside the main suit, 字一色 five sixteenths per suit tile
    # (with 000's 24 and 64: 6 and 20 fans a tile). Tiles outside the main suit (only 万 in erren) count
    # against both flushes.
    off_suit = suited - max(in_suit0, in_suit1, in_suit2)
    flush = fan_worth(Fan.HALF_FLUSH, rules) if off_suit == 0 else 0.0
    full_flush, all_honours = fan_worth(Fan.FULL_FLUSH, rules), fan_worth(Fan.ALL_HONORS, rules)
    potential = max(flush, full_flush * (1.0 - (honours + off_suit) / 4.0), all_honours * (1.0 - suited * 5.0 / 16.0))
    shape = 0.0
    if n_melds == 0 and pairs >= 5:
        seven_pairs = fan_worth(Fan.SEVEN_PAIRS, rules)
        shape = seven_pairs if pairs >= 6 else seven_pairs / 2.0
    if chows == 0 and pungs + pairs >= 4:
        shape = max(shape, fan_worth(Fan.ALL_PUNGS, rules))
    if state.table[CLAIMED_MELDS + seat] == 0:
        potential += fan_worth(Fan.CONCEALED_HAND, rules)
    return potential + shape + bonus


@njit(cache=True, _nrt=False)
def _value_of_hand(seat, hand, n_melds, shanten, ukeire, parameters, state, rules, work):
    potential = _fan_potential(seat, hand, n_melds, state, rules, work.held)
    legal = parameters[LEGAL] if potential >= rules.settings[MIN_FAN] else 0.0
    return potential + legal - parameters[SPEED] * shanten + 0.1 * ukeire


@njit(cache=True, _nrt=False)
def value_discard(seat, n_melds, parameters, state, rules, work):
    """(kind, score) of the value player's discard from a hand of 3k+2 tiles."""
    hand = state.hands[seat]
    scratch, live, shanten_after = work.shanten_scratch, work.unseen, work.shanten_after_discard
    unseen_counts(seat, state, rules.tile_set, live)
    best_shanten = _discard_shanten(hand, n_melds, rules, scratch, shanten_after)
    best_kind, best_score = -1, -1e18
    for kind in range(N_KINDS):
        # Discards more than two steps slower than the fastest are never worth it.
        if shanten_after[kind] > best_shanten + 2:
            continue
        hand[kind] -= 1
        ukeire = _ukeire(hand, n_melds, live, rules, work)
        score = _value_of_hand(seat, hand, n_melds, shanten_after[kind], ukeire, parameters, state, rules, work)
        hand[kind] += 1
        if score > best_score or (score == best_score and _discard_order(kind) < _discard_order(best_kind)):
            best_kind, best_score = kind, score
    return best_kind, best_score


@njit(cache=True, _nrt=False)
def _danger(seat, kind, state, live):
    """How likely discarding `kind` deals in, from what the seat can see: copies the opponent may hold for
    a pair or single wait, and for a suit tile the chow shapes around it that are still possible."""
    after_ready = state.after_ready
    opponent = 1 - seat
    if state.table[READY + opponent] == 1 and after_ready[opponent, kind] > 0:
        return 0.0  # it passed this tile while locked: it did not win on it then
    danger = float(max(live[kind], 0))
    if kind < HONOR_START:
        danger += chow_wait_ways(live, kind, kind - kind % SUIT_SIZE)
    return danger


@njit(cache=True, _nrt=False)
def _threatened(seat, parameters, state):
    table = state.table
    opponent = 1 - seat
    return (
        table[READY + opponent] == 1
        or table[CLAIMED_MELDS + opponent] >= parameters[THREAT_MELDS]
        or wall_left(table) <= parameters[THREAT_WALL]
    )


@njit(cache=True, _nrt=False)
def defensive_discard(seat, n_melds, parameters, state, rules, work):
    """The discard of lowest cost: `caution` x danger + 4 x shanten steps lost (see the module text)."""
    hand = state.hands[seat]
    scratch, live, shanten_after = work.shanten_scratch, work.unseen, work.shanten_after_discard
    unseen_counts(seat, state, rules.tile_set, live)
    best_shanten = _discard_shanten(hand, n_melds, rules, scratch, shanten_after)
    best_kind, best_cost = -1, 1e18
    for kind in range(N_KINDS):
        if shanten_after[kind] == BIG:
            continue
        cost = parameters[CAUTION] * _danger(seat, kind, state, live) + 4.0 * (shanten_after[kind] - best_shanten)
        if cost < best_cost or (cost == best_cost and _discard_order(kind) < _discard_order(best_kind)):
            best_kind, best_cost = kind, cost
    return best_kind


# ------------------------------------------------------------------------------------- decisions


@njit(cache=True, _nrt=False)
def doubles_instead(kind, parameters, seat, win_total, state, rules, work, rng):
    """Whether the seat declares 加倍 instead of taking a legal win worth `win_total` fans."""
    if kind == RANDOM:
        rng, choice = random_below(rng, 2)
        return choice == 1, rng
    table = state.table
    if win_total >= parameters[DOUBLE_BELOW] or wall_left(table) < parameters[DOUBLE_WALL]:
        return False, rng
    if opponent_hand_visible(seat, table):
        # A ready player sees the opponent's hand: never pass up a win when the opponent is ready too.
        opponent = 1 - seat
        n_melds = table[N_MELDS + opponent]
        if shanten_of(state.hands[opponent], n_melds, rules, work.shanten_scratch) <= 0:
            return False, rng
    return True, rng


@njit(cache=True, _nrt=False)
def initial_ready(kind, parameters, seat, state, rules, work, rng):
    """The non-dealer's 天听: declare ready right after the deal (its 13 tiles are ready)?"""
    if parameters[READY_POLICY] == 0:
        return False, rng
    if kind == RANDOM:
        rng, choice = random_below(rng, 2)
        return choice == 1, rng
    return _ready_pays(seat, state.hands[seat], state.table[N_MELDS + seat], state, rules, work), rng


@njit(cache=True, _nrt=False)
def _random_turn(seat, win_allowed, can_double, may_kong, state, rng):
    hands, melds, table = state.hands, state.melds, state.table
    hand = hands[seat]
    kong_room = may_kong and wall_left(table) > 0 and table[N_MELDS + seat] < 4
    # Kinds the seat may add to a pong, as bits (one pass over the melds, not one per kind).
    pongs = 0
    if kong_room:
        for index in range(table[N_MELDS + seat]):
            if melds[seat, index, 0] == MELD_PONG and hand[melds[seat, index, 1]] > 0:
                pongs |= 1 << melds[seat, index, 1]
    n_actions = int(win_allowed) + int(win_allowed and can_double)
    for kind in range(N_KINDS):
        if hand[kind] > 0:
            n_actions += 1
            if kong_room and hand[kind] == 4:
                n_actions += 1
            if (pongs >> kind) & 1:
                n_actions += 1
    rng, pick = random_below(rng, n_actions)
    if win_allowed:
        if pick == 0:
            return encode(WIN, NO_TILE), rng
        pick -= 1
        if can_double:
            if pick == 0:
                return encode(DOUBLE, NO_TILE), rng
            pick -= 1
    for kind in range(N_KINDS):
        if hand[kind] > 0:
            if pick == 0:
                return encode(DISCARD, kind), rng
            pick -= 1
            if kong_room and hand[kind] == 4:
                if pick == 0:
                    return encode(CONCEALED_KONG, kind), rng
                pick -= 1
            if (pongs >> kind) & 1:
                if pick == 0:
                    return encode(ADDED_KONG, kind), rng
                pick -= 1
    return encode(DISCARD, NO_TILE), rng  # unreachable


@njit(cache=True, _nrt=False)
def _kong_keeps_shape(seat, kind, concealed, n_melds, shanten_now, state, rules, scratch):
    """A kong that does not raise the shanten is taken: it only adds a draw (and fans)."""
    hand = state.hands[seat]
    removed = 4 if concealed else 1
    hand[kind] -= removed
    after = shanten_of(hand, n_melds + (1 if concealed else 0), rules, scratch)
    hand[kind] += removed
    return after <= shanten_now


@njit(cache=True, inline="always", _nrt=False)
def turn_action(kind, parameters, seat, win_total, can_double, may_kong, state, rules, work, rng):
    """The seat's action on its own turn (3k+2 tiles). `win_total` is the fan total of the legal win on
    the tile just drawn, or -1 when there is none. Returns (action, stream state)."""
    hands, table = state.hands, state.table
    n_melds = table[N_MELDS + seat]
    win_allowed = win_total >= 0
    if kind == RANDOM:
        action, rng = _random_turn(seat, win_allowed, can_double, may_kong, state, rng)
    else:
        if win_allowed:
            double = False
            if can_double:
                double, rng = doubles_instead(kind, parameters, seat, win_total, state, rules, work, rng)
            return encode(DOUBLE if double else WIN, NO_TILE), rng
        hand = hands[seat]
        if kind == VALUE:
            discard, _ = value_discard(seat, n_melds, parameters, state, rules, work)
        elif kind == DEFENSIVE and _threatened(seat, parameters, state):
            discard = defensive_discard(seat, n_melds, parameters, state, rules, work)
        else:
            discard = greedy_discard(seat, n_melds, state, rules, work)[0]
        if may_kong and wall_left(table) > 0 and n_melds < 4:
            # Each discard choice above left the shanten after every discard in work.shanten_after_discard; its lowest is
            # the hand's shanten, which a kong must not raise.
            shanten_now = BIG
            for tile in range(N_KINDS):
                shanten_now = smaller(shanten_now, work.shanten_after_discard[tile])
            for tile in range(N_KINDS):
                if hand[tile] == 4 and _kong_keeps_shape(seat, tile, True, n_melds, shanten_now, state, rules, work.shanten_scratch):
                    return encode(CONCEALED_KONG, tile), rng
                if (
                    hand[tile] > 0
                    and pong_index(seat, state.melds, table, tile) >= 0
                    and _kong_keeps_shape(seat, tile, False, n_melds, shanten_now, state, rules, work.shanten_scratch)
                ):
                    return encode(ADDED_KONG, tile), rng
        action = encode(DISCARD, discard)
    if (
        action_code(action) == DISCARD
        and parameters[READY_POLICY] != 0
        and may_declare_ready(seat, table, rules.settings[READY_REQUIRES_CONCEALED] != 0)
    ):
        tile = action_tile(action)
        hand = hands[seat]
        hand[tile] -= 1
        if kind == RANDOM:
            # The coin first: the (slower) ready test is then needed only half the time.
            rng, coin = random_below(rng, 2)
            declare = coin == 1 and shanten_of(hand, n_melds, rules, work.shanten_scratch) == 0
        else:
            # The discard choice left the shanten after every discard in work.shanten_after_discard.
            declare = work.shanten_after_discard[tile] == 0 and _ready_pays(seat, hand, n_melds, state, rules, work)
        hand[tile] += 1
        if declare:
            action = encode(DISCARD_READY, tile)
    return action, rng


@njit(cache=True, _nrt=False)
def _best_after_claim(seat, kind, parameters, n_melds, state, rules, work):
    """Score of the seat's hand of 3k+2 tiles after a claim, by its heuristic's measure (lower shanten
    first for greedy; the value score for value)."""
    if kind == VALUE:
        return value_discard(seat, n_melds, parameters, state, rules, work)[1]
    return -float(_discard_shanten(state.hands[seat], n_melds, rules, work.shanten_scratch, work.shanten_after_discard))


@njit(cache=True, _nrt=False)
def _score_now(seat, kind, parameters, n_melds, state, rules, work):
    hand = state.hands[seat]
    shanten = shanten_of(hand, n_melds, rules, work.shanten_scratch)
    if kind == VALUE:
        unseen_counts(seat, state, rules.tile_set, work.unseen)
        ukeire = _ukeire(hand, n_melds, work.unseen, rules, work)
        return _value_of_hand(seat, hand, n_melds, shanten, ukeire, parameters, state, rules, work)
    return -float(shanten)


@njit(cache=True, _nrt=False)
def _random_claim(seat, tile, win_allowed, can_double, may_claim, state, rng):
    hand = state.hands[seat]
    table = state.table
    room = may_claim and table[N_MELDS + seat] < 4
    n_actions = 1 + int(win_allowed) + int(win_allowed and can_double)
    if room:
        n_actions += int(hand[tile] >= 2) + int(hand[tile] >= 3 and wall_left(table) > 0)
        for low in range(tile - 2, tile + 1):
            n_actions += int(chow_possible(hand, low, tile))
    rng, pick = random_below(rng, n_actions)
    if pick == 0:
        return encode(PASS, NO_TILE), rng
    pick -= 1
    if win_allowed:
        if pick == 0:
            return encode(WIN, NO_TILE), rng
        pick -= 1
        if can_double:
            if pick == 0:
                return encode(DOUBLE, NO_TILE), rng
            pick -= 1
    if hand[tile] >= 2:
        if pick == 0:
            return encode(PONG, tile), rng
        pick -= 1
    if hand[tile] >= 3 and wall_left(table) > 0:
        if pick == 0:
            return encode(KONG, tile), rng
        pick -= 1
    for low in range(tile - 2, tile + 1):
        if chow_possible(hand, low, tile):
            if pick == 0:
                return encode(CHOW, low), rng
            pick -= 1
    return encode(PASS, NO_TILE), rng  # unreachable


@njit(cache=True, inline="always", _nrt=False)
def claim_action(kind, parameters, seat, tile, win_total, can_double, may_claim, state, rules, work, rng):
    """The seat's response to the opponent's discard `tile` (or to its added kong, with may_claim False).
    `win_total` is the fan total of the legal win on it, or -1. Returns (action, stream state)."""
    win_allowed = win_total >= 0
    may_claim = may_claim and parameters[CLAIM] != 0
    if kind == RANDOM:
        return _random_claim(seat, tile, win_allowed, can_double, may_claim, state, rng)
    if win_allowed:
        double = False
        if can_double:
            double, rng = doubles_instead(kind, parameters, seat, win_total, state, rules, work, rng)
        return encode(DOUBLE if double else WIN, NO_TILE), rng
    if not may_claim or (kind == DEFENSIVE and _threatened(seat, parameters, state)):
        return encode(PASS, NO_TILE), rng
    hands, melds, table = state.hands, state.melds, state.table
    hand = hands[seat]
    n_melds = table[N_MELDS + seat]
    if n_melds >= 4:
        return encode(PASS, NO_TILE), rng
    now = _score_now(seat, kind, parameters, n_melds, state, rules, work)
    best_action, best = encode(PASS, NO_TILE), now
    # An exposed kong keeps the shape of the pong and adds a draw: take it when the pong would be taken,
    # or when it does not raise the shanten.
    if hand[tile] >= 3 and wall_left(table) > 0:
        hand[tile] -= 3
        after = shanten_of(hand, n_melds + 1, rules, work.shanten_scratch)
        hand[tile] += 3
        if kind != VALUE and -float(after) >= now:
            return encode(KONG, tile), rng
    if kind != VALUE:
        # A claim leaves the hand no closer than keeping the tile would (a meld is a set the hand could hold
        # concealed), so when the tile does not lower the shanten no pong or chow can: skip trying each.
        hand[tile] += 1
        with_tile = shanten_of(hand, n_melds, rules, work.shanten_scratch)
        hand[tile] -= 1
        if -float(with_tile) <= now:
            return best_action, rng
    if hand[tile] >= 2:
        hand[tile] -= 2
        melds[seat, n_melds, 0], melds[seat, n_melds, 1] = MELD_PONG, tile
        table[CLAIMED_MELDS + seat] += 1
        score = _best_after_claim(seat, kind, parameters, n_melds + 1, state, rules, work)
        table[CLAIMED_MELDS + seat] -= 1
        hand[tile] += 2
        if score > best:
            best_action, best = encode(PONG, tile), score
    if tile < HONOR_START:
        for low in range(tile - 2, tile + 1):
            if not chow_possible(hand, low, tile):
                continue
            for other in range(low, low + 3):
                if other != tile:
                    hand[other] -= 1
            melds[seat, n_melds, 0], melds[seat, n_melds, 1] = MELD_CHOW, low
            table[CLAIMED_MELDS + seat] += 1
            score = _best_after_claim(seat, kind, parameters, n_melds + 1, state, rules, work)
            table[CLAIMED_MELDS + seat] -= 1
            for other in range(low, low + 3):
                if other != tile:
                    hand[other] += 1
            if score > best:
                best_action, best = encode(CHOW, low), score
    return best_action, rng


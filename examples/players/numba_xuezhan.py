"""A numba player for 血战 tables (docs/write-a-player.md#a-numba-player), written only on the public
interface: `liangmen-xuezhan` and `sanren-liangfang`, at two, three or four seats.

It wins whenever it may; on its turn it throws the discard that leaves the lowest shanten (ties: the most
live tiles that improve the hand), which under 定缺 is one of its void suit while it holds any (the rules
allow nothing else), and takes a kong that keeps its shanten; it pongs or kongs a discard when that
lowers its shanten (unless ``claim=0``); it declares the suit it holds fewer of void, gives away three
tiles of its shorter suit in 换三张, and never declares 报叫. Seat it with
``--players examples/players/numba_xuezhan.py:act,greedy,greedy,greedy``.
"""

from numba import njit

from sim.core.actions import (
    ACTION_BASE,
    ADDED_KONG,
    CONCEALED_KONG,
    DECISION_CLAIM,
    DECISION_EXCHANGE,
    DECISION_TURN,
    DECISION_VOID,
    DISCARD,
    KONG,
    PASS,
    PONG,
    WIN,
)
from sim.players.numba_players import numba_player
from sim.xuezhan.table import shanten, ukeire  # the two-suit measures: compiled once, cached, fast

NO_ACTION = -1
SUIT_SIZE = 9


@njit(cache=True, inline="always")  # inlined: a call would count references on every array of the observation
def _suit_count(hand, kind):
    """How many tiles of `kind`'s suit the hand holds."""
    start = kind - kind % SUIT_SIZE
    total = 0
    for other in range(start, start + SUIT_SIZE):
        total += hand[other]
    return total


@njit(cache=True, inline="always")
def _best_discard(observation):
    """(the discard, the shanten after it): the lowest shanten first, then the most live improving tiles."""
    hand, n_melds, rules = observation.hand, observation.n_melds, observation.rules
    best, best_shanten, best_live = NO_ACTION, 99, -1
    for action in observation.legal:
        if action // ACTION_BASE != DISCARD:
            continue
        kind = action % ACTION_BASE
        hand[kind] -= 1
        after = shanten(hand, n_melds, rules.suit_table)
        live = -1
        if after <= best_shanten:
            live = ukeire(hand, n_melds, observation.unseen, rules.suit_table)[1]
        hand[kind] += 1
        if after < best_shanten or (after == best_shanten and live > best_live):
            best, best_shanten, best_live = action, after, live
    return best, best_shanten


@njit(cache=True, inline="always")
def _turn(observation):
    hand, n_melds, rules = observation.hand, observation.n_melds, observation.rules
    discard, after = _best_discard(observation)
    for action in observation.legal:
        code, kind = action // ACTION_BASE, action % ACTION_BASE
        if code == CONCEALED_KONG or code == ADDED_KONG:
            removed, melds = (4, n_melds + 1) if code == CONCEALED_KONG else (1, n_melds)
            hand[kind] -= removed
            keeps = shanten(hand, melds, rules.suit_table) <= after
            hand[kind] += removed
            if keeps:
                return action
    return discard if discard != NO_ACTION else observation.legal[0]


@njit(cache=True, inline="always")
def _claim(observation, claim):
    """Pong or kong the discard when that lowers the shanten; else pass."""
    hand, n_melds, rules = observation.hand, observation.n_melds, observation.rules
    offer = observation.tile
    chosen, best = NO_ACTION, shanten(hand, n_melds, rules.suit_table)
    for action in observation.legal:
        code = action // ACTION_BASE
        if not claim or (code != PONG and code != KONG):
            continue
        removed = 2 if code == PONG else 3  # the meld's other tiles leave the hand
        hand[offer] -= removed
        after = shanten(hand, n_melds + 1, rules.suit_table)
        hand[offer] += removed
        if after < best:
            chosen, best = action, after
    if chosen != NO_ACTION:
        return chosen
    for action in observation.legal:
        if action // ACTION_BASE == PASS:
            return action
    return observation.legal[0]


@njit(cache=True, inline="always")
def _shorter_suit(observation):
    """The legal action (a void suit, a tile to give) of the suit the hand holds fewest of."""
    chosen, fewest = observation.legal[0], 99
    for action in observation.legal:
        held = _suit_count(observation.hand, action % ACTION_BASE)
        if held < fewest:
            chosen, fewest = action, held
    return chosen


@numba_player(claim=1.0)
@njit(cache=True)
def act(observation, parameters, rng):
    for action in observation.legal:
        if action // ACTION_BASE == WIN:
            return action, rng
    decision = observation.decision
    if decision == DECISION_TURN:
        return _turn(observation), rng
    if decision == DECISION_CLAIM:
        return _claim(observation, parameters[0] != 0), rng
    if decision == DECISION_VOID or decision == DECISION_EXCHANGE:
        return _shorter_suit(observation), rng
    for action in observation.legal:  # a rob it may not win, or 报叫 at the deal: pass
        if action // ACTION_BASE == PASS:
            return action, rng
    return observation.legal[0], rng

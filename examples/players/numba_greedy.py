"""A numba player (docs/write-a-player.md#a-numba-player): greedy's way of playing, written only on the
public interface, so it runs inside the engine's compiled loop.

It wins whenever it may, discards to the lowest shanten (ties: the most live tiles that improve the hand,
then honours and terminals first), takes a kong that keeps its shanten, claims a discard for the pong or
chow that lowers its shanten most (unless ``claim=0``), declares ready (天听 too) when a live wait of the
ready hand wins at the minimum fan (unless ``ready=0``), and never doubles: the built-in ``greedy`` with its
default parameters, decision for decision (tests/erren/test_players_protocol.py checks that their records agree).
Seat it with ``--players examples/players/numba_greedy.py:act,greedy``.
"""

from numba import njit

from kernels.fan_ids import READY_FLAG
from sim.core.actions import (
    ACTION_BASE,
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DECISION_OPENING_READY,
    DECISION_TURN,
    DECLARE_READY,
    DISCARD,
    DISCARD_READY,
    KONG,
    PASS,
    PONG,
    WIN,
)
from sim.erren.numba_helpers import win_value
from sim.erren.players import shanten_of as shanten  # the 二人 shanten: 万 and honours only, known when compiled
from sim.erren.table import MIN_FAN
from sim.players.numba_players import numba_player, ukeire

NO_ACTION = -1
NO_DISCARD = -1


@njit(cache=True, inline="always")  # inlined: a call would count references on every array of the observation
def _order(kind):
    """Which of two equal discards goes first: honours, then terminals, then towards the middle."""
    if kind >= 27:
        return 0
    return 1 + min(kind % 9, 8 - kind % 9)


@njit(cache=True, inline="always")
def _best_discard(observation):
    """(the discard, the shanten after it): the lowest shanten first, then the most live improving tiles."""
    hand, n_melds, rules, work = observation.hand, observation.n_melds, observation.rules, observation.work
    after = work.shanten_after_discard  # a scratch array of 34
    best_shanten = 99
    for action in observation.legal:
        if action // ACTION_BASE == DISCARD:
            kind = action % ACTION_BASE
            hand[kind] -= 1
            after[kind] = shanten(hand, n_melds, rules, work.shanten_scratch)
            hand[kind] += 1
            best_shanten = min(best_shanten, after[kind])
    best, best_ukeire, best_order = NO_ACTION, -1, 9
    for action in observation.legal:
        kind = action % ACTION_BASE
        if action // ACTION_BASE != DISCARD or after[kind] != best_shanten:
            continue
        hand[kind] -= 1
        live = ukeire(hand, n_melds, observation.unseen, rules, work.shanten_scratch, work.distances)
        hand[kind] += 1
        if live > best_ukeire or (live == best_ukeire and _order(kind) < best_order):
            best, best_ukeire, best_order = action, live, _order(kind)
    return best, best_shanten


@njit(cache=True, inline="always")
def _ready_pays(observation, discard):
    """With `discard` thrown (NO_DISCARD: none, the hand has 13 tiles) the hand is ready: does a wait still
    live for it win at the minimum fan?"""
    hand, rules, work = observation.hand, observation.rules, observation.work
    melds = observation.melds[observation.seat]
    if discard != NO_DISCARD:
        hand[discard] -= 1
    pays = False
    for kind in range(34):
        if observation.unseen[kind] > 0 and hand[kind] < 4:
            total = win_value(hand, melds, observation.n_melds, kind, READY_FLAG, observation.bonus, rules, work)
            if total >= rules.settings[MIN_FAN]:
                pays = True
                break
    if discard != NO_DISCARD:
        hand[discard] += 1
    return pays


@njit(cache=True, inline="always")
def _turn(observation, ready):
    hand, n_melds, rules, work = observation.hand, observation.n_melds, observation.rules, observation.work
    discard, after = _best_discard(observation)
    for action in observation.legal:
        code, kind = action // ACTION_BASE, action % ACTION_BASE
        if code == CONCEALED_KONG or code == ADDED_KONG:
            removed, melds = (4, n_melds + 1) if code == CONCEALED_KONG else (1, n_melds)
            hand[kind] -= removed
            keeps = shanten(hand, melds, rules, work.shanten_scratch) <= after
            hand[kind] += removed
            if keeps:
                return action
    if ready:
        declare = DISCARD_READY * ACTION_BASE + discard % ACTION_BASE
        for action in observation.legal:
            if action == declare and _ready_pays(observation, discard % ACTION_BASE):
                return declare
    return discard


@njit(cache=True, inline="always")
def _claim(observation, claim):
    """A kong that does not raise the shanten; else the pong or chow that lowers it most, if any does; else
    pass. (A meld's other tiles leave the hand, which then holds 3k+2 tiles and one more meld.)"""
    hand, n_melds, rules, work = observation.hand, observation.n_melds, observation.rules, observation.work
    offer = observation.tile
    now = shanten(hand, n_melds, rules, work.shanten_scratch)
    chosen, best = NO_ACTION, now
    for action in observation.legal:
        code, kind = action // ACTION_BASE, action % ACTION_BASE
        if not claim or (code != PONG and code != CHOW and code != KONG):
            continue
        if code == CHOW:
            for other in range(kind, kind + 3):
                if other != offer:
                    hand[other] -= 1
        else:
            hand[offer] -= 2 if code == PONG else 3
        after = shanten(hand, n_melds + 1, rules, work.shanten_scratch)
        if code == CHOW:
            for other in range(kind, kind + 3):
                if other != offer:
                    hand[other] += 1
        else:
            hand[offer] += 2 if code == PONG else 3
        if code == KONG and after <= now:
            return action
        # after a pong or chow a tile must go, so a complete shape of 3k+2 tiles is only ready (0)
        if code != KONG and max(after, 0) < best:
            chosen, best = action, max(after, 0)
    if chosen != NO_ACTION:
        return chosen
    for action in observation.legal:
        if action // ACTION_BASE == PASS:
            return action
    return observation.legal[0]


@njit(cache=True, inline="always")
def _opening_ready(observation, ready):
    """天听 (the non-dealer's 13 dealt tiles are ready): declare it when a live wait pays."""
    for action in observation.legal:
        if action // ACTION_BASE == DECLARE_READY and ready and _ready_pays(observation, NO_DISCARD):
            return action
    return observation.legal[0]  # pass


@numba_player(claim=1.0, ready=1.0)
@njit(cache=True)
def act(observation, parameters, rng):
    for action in observation.legal:
        if action // ACTION_BASE == WIN:
            return action, rng
    if observation.decision == DECISION_OPENING_READY:
        return _opening_ready(observation, parameters[1] != 0), rng
    if observation.decision == DECISION_TURN:
        return _turn(observation, parameters[1] != 0), rng
    return _claim(observation, parameters[0] != 0), rng

"""Players written as numba functions (docs/write-a-player.md#a-numba-player): as fast as the built-in ones,
because the engine calls them inside its compiled loop, never through Python.

A numba player is one ``@njit`` function ``act(observation, parameters, rng) -> (action, rng)``:

- ``observation``: the family's ``NumbaObservation`` named tuple (``sim.erren.observation``,
  ``sim.xuezhan.observation``): the seat, the decision, the legal actions (``observation.legal``, an int64
  array), what the seat may see (its hand, the melds, discards, the public table fields), the ruleset's
  kernel arrays (``rules``) and work arrays for the helpers below. They are the seat's own copies
  (``sim.player_view``): a function may change them (try a tile in its hand, say), and the deal does not;
- ``parameters``: float64 array of its ``key=value`` parameters, in the order the ``numba_player``
  decorator declares them (missing ones take their defaults);
- ``rng``: the seat's random stream for the deal (a uint64 state, advanced with ``random_below``), to be
  returned with the action, so that the player's games replay exactly.

It returns one of the legal actions: anything else stops the run with a ``PlayerFailure`` naming the deal
and the decision (the engine checks the answer against its own list, not the observation's copy). Seat it like a Python player, ``--players path/to/file.py:act:key=value``. The loop
that calls it is compiled in each process for its functions (numba makes the function part of the type),
which costs a few seconds at the start.
"""

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from kernels.fans.mcr import NOT_A_WIN, _score_hand
from kernels.fans.xuezhan import _score_xuezhan
from kernels.shanten import _hand_shanten, _ukeire_one
from kernels.tiles import PIN_START, SOU_START
from kernels.win_check import is_complete
from sim.actions import ACTION_BASE
from sim.erren.win_value import is_winning_shape as _erren_winning_shape
from sim.erren.win_value import score_win as _erren_score_win
from sim.player_text import PlayerError
from sim.random_streams import random_below  # noqa: F401  (for players: rng, value = random_below(rng, n))
from sim.user_players import UserSeat
from sim.xuezhan.table import COMBINE_MULTIPLY
from sim.xuezhan.table import is_complete as _xuezhan_complete

MAX_NUMBA_PARAMETERS = 16


class NumbaPlayer:
    """A numba player function with its parameters' names, defaults and allowed ranges (see ``numba_player``)."""

    def __init__(self, act, defaults: dict, ranges: dict | None = None):
        if not isinstance(act, CPUDispatcher):
            raise TypeError("numba_player decorates an @njit function")
        if len(defaults) > MAX_NUMBA_PARAMETERS:
            raise TypeError(f"a numba player takes at most {MAX_NUMBA_PARAMETERS} parameters")
        if set(ranges or {}) - set(defaults):
            raise TypeError("numba_player: a range is given for a parameter it does not declare")
        self.act, self.defaults, self.ranges = act, dict(defaults), dict(ranges or {})


def numba_player(ranges: dict | None = None, **defaults):
    """Declare an ``@njit`` function a numba player with parameters: ``@numba_player(speed=8.0)`` above
    ``@njit``. Parameters are numbers; ``parameters[i]`` is the i-th declared. `ranges` (optional) maps a
    parameter to its (lowest, highest) allowed value: a seat given another is refused with a clear error."""
    return lambda act: NumbaPlayer(act, {key: float(value) for key, value in defaults.items()}, ranges)


class NumbaSeat(UserSeat):
    """A numba player in one seat: its function and its parameter vector."""

    kind = "numba"

    def __init__(self, text: str, player, parameters: dict):
        super().__init__(text)
        if isinstance(player, CPUDispatcher):
            player = NumbaPlayer(player, {})
        unknown = set(parameters) - set(player.defaults)
        if unknown:
            takes = ", ".join(f"{key}=" for key in player.defaults) or "no parameters"
            raise PlayerError(f"{text}: unknown parameter {sorted(unknown)[0]!r}; it takes {takes}")
        values = {**player.defaults, **parameters}
        vector = np.zeros(MAX_NUMBA_PARAMETERS)
        for index, key in enumerate(player.defaults):
            value = values[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
                raise PlayerError(f"{text}: parameter {key} needs a number, not {value!r}")
            low, high = player.ranges.get(key, (-np.inf, np.inf))
            if not low <= value <= high:
                raise PlayerError(f"{text}: parameter {key} is from {low:g} to {high:g}, not {value!r}")
            vector[index] = value
        self.act, self.parameters = player.act, vector


def is_numba_player(target) -> bool:
    return isinstance(target, (NumbaPlayer, CPUDispatcher))


# ------------------------------------------------------------------------------------- helpers for players


# Inlined into the player: a call would pass the rules' arrays one by one, several times a decision.
@njit(cache=True, inline="always", _nrt=False)
def legal_action(legal, code, tile):
    """The action `code` on `tile` (code x ACTION_BASE + tile) if `legal` holds it, else -1."""
    target = code * ACTION_BASE + tile
    for action in legal:
        if action == target:
            return action
    return -1


@njit(cache=True, inline="always", _nrt=False)
def legal_action_of(legal, code):
    """The first action of `legal` with `code`, whatever its tile, else -1."""
    for action in legal:
        if action // ACTION_BASE == code:
            return action
    return -1


@njit(cache=True, inline="always", _nrt=False)
def shanten(hand, n_melds, rules, scratch):
    """The shanten of a concealed hand with `n_melds` melds (-1: complete), standard hands and seven pairs.
    `scratch`: int16 (6, 10) (``observation.work.shanten_scratch``)."""
    if rules.tile_set[PIN_START] == 0 and rules.tile_set[SOU_START] == 0:  # 万 and honours only: one suit to split
        return _hand_shanten(hand, n_melds, rules.suit_table, rules.honour_table, 0, True, scratch)
    return _hand_shanten(hand, n_melds, rules.suit_table, rules.honour_table, 0, False, scratch)


@njit(cache=True, inline="always", _nrt=False)
def ukeire(hand, n_melds, live, rules, scratch, distances):
    """Of a hand of 3k+1 tiles: the number of `live` copies (int8 per kind) that lower its shanten.
    `distances`: int64 (34,) (``observation.work.distances``)."""
    return _ukeire_one(hand, n_melds, live, rules.suit_table, rules.honour_table, scratch, distances)[1]


@njit(cache=True, inline="always", _nrt=False)
def win_fans(hand, melds, n_melds, tile, flags, rules, fan_work):
    """The MCR fan total (erren, erren-classic: flowers aside, before doubling) of `hand` (its concealed tiles without
    `tile`) with `melds` winning on `tile` in the context `flags` (kernels.fan_ids: READY_FLAG,
    SELF_DRAWN_FLAG, ...); -1 if that is not a complete hand. `fan_work`: ``observation.work.fans``."""
    hand[tile] += 1
    complete = is_complete(hand, n_melds, rules.complete_bits)
    hand[tile] -= 1
    if not complete:
        return -1
    total = _score_hand(hand, melds, n_melds, tile, flags, 0, rules.fan_values, rules.fan_priority,
                        rules.exclusion_start, rules.exclusion_target, rules.suit_table, fan_work)
    return -1 if total == NOT_A_WIN else total


@njit(cache=True, inline="always", _nrt=False)
def win_value(hand, melds, n_melds, tile, flags, bonus, rules, work):
    """The fan total of a 二人 win under the ruleset's own evaluator (MCR, or erren-challenge's with the
    face-up `bonus` tiles, ``observation.bonus``), -1 if that is not a complete hand; its points, where the
    ruleset scores points, are then in work.score[0]. As ``win_fans`` otherwise; `work`: ``observation.work``."""
    hand[tile] += 1
    complete = _erren_winning_shape(hand, n_melds, rules)
    hand[tile] -= 1
    if not complete:
        work.score[0] = 0
        return -1
    total = _erren_score_win(hand, melds, n_melds, tile, flags, 0, bonus, rules, work)
    return -1 if total == NOT_A_WIN else total


# The 血战 fan evaluator allocates its work arrays, so it runs with reference counting on (as in sim.xuezhan.engine).
@njit(cache=True, _nrt=True)
def _xuezhan_value(hand, melds, n_melds, tile, flags, rules, fan_counts):
    return _score_xuezhan(hand, melds, n_melds, tile, flags, rules.fan_values, rules.fan_priority,
                          rules.exclusion_start, rules.exclusion_target, rules.settings[COMBINE_MULTIPLY], fan_counts)


@njit(cache=True, inline="always", _nrt=False)
def xuezhan_win_value(hand, melds, n_melds, tile, flags, rules, fan_counts):
    """The 血战 family's raw value (the ruleset's fans combined, before any cap or payment rule) of `hand`
    (its concealed tiles without `tile`) with `melds` winning on `tile` in the context `flags`
    (kernels.fan_ids: SELF_DRAWN_FLAG, ...); -1 if that is not a complete hand. It does not look at 定缺: a
    hand holding its void suit may not win (``observation.voids``). `fan_counts`:
    ``observation.work.fan_counts``."""
    hand[tile] += 1
    complete = _xuezhan_complete(hand, n_melds, rules.complete_bits)
    hand[tile] -= 1
    if not complete:
        return -1
    return _xuezhan_value(hand, melds, n_melds, tile, flags, rules, fan_counts)

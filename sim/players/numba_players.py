"""Players written as numba functions (docs/write-a-player.md#a-numba-player): as fast as the built-in ones,
because the engine calls them inside its compiled loop, never through Python.

A numba player is one ``@njit`` function ``act(observation, parameters, rng) -> (action, rng)``:

- ``observation``: the family's ``NumbaObservation`` named tuple (``sim.erren.observation``,
  ``sim.xuezhan.observation``): the seat, the decision, the legal actions (``observation.legal``, an int64
  array), what the seat may see (its hand, the melds, discards, the public table fields), the ruleset's
  kernel arrays (``rules``) and work arrays for the helpers below. They are the seat's own copies
  (``sim.players.player_view``): a function may change them (try a tile in its hand, say), and the deal does not;
- ``parameters``: float64 array of its ``key=value`` parameters, in the order the ``numba_player``
  decorator declares them (missing ones take their defaults);
- ``rng``: the seat's random stream for the deal (a uint64 state, advanced with ``random_below``), to be
  returned with the action, so that the player's games replay exactly.

It returns one of the legal actions: anything else stops the run with a ``PlayerFailure`` naming the deal
and the decision (the engine checks the answer against its own list, not the observation's copy). Seat it like a Python player, ``--players path/to/file.py:act:key=value``. The loop
that calls it is compiled in each process for its functions (numba makes the function part of the type),
which costs a few seconds at the start.
"""

from numba import njit
from numba.core.registry import CPUDispatcher

from kernels.shanten import _hand_shanten, _ukeire_one
from kernels.tiles import PIN_START, SOU_START
from sim.core.actions import ACTION_BASE
from sim.core.random_streams import random_below  # noqa: F401  (for players: rng, value = random_below(rng, n))

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

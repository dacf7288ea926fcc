"""The numeric parameters of a player text, read and rewritten, for any kind of player: what `mjsim tune`
moves.

- A built-in heuristic (``greedy:double_below=6``) or built-in numba player (``ev:depth=1``) takes the
  parameters its family declares; those not written take their defaults (its canonical text lists them all).
- A user's Python or numba player (``PATH.py:Class:key=value,...``, ``module:function:key=value,...``) takes
  the parameters written after its second colon. Its code is loaded only in worker processes, so what else it
  accepts cannot be known here: a parameter counts as the player's when it is written in the text.
- An ``exec:`` program takes the arguments of its command written ``key=value`` (``exec:python3 bot.py
  risk=0.3``), likewise only those written.
"""

import shlex

from sim.players.player_text import PlayerError, player_settings
from sim.players.user_players import EXEC_PREFIX, is_user_player


def parameter_values(family, text: str) -> dict[str, float]:
    """{name: value} of the numeric parameters `text` sets or takes by default, in the order the player lists
    them; a PlayerError for a text that names no player (an unknown heuristic, a malformed parameter)."""
    text = text.strip()
    if text.startswith(EXEC_PREFIX):
        written = dict(_exec_arguments(text))
    elif is_user_player(text, family.players.NAMES):
        written = _user_parameters(text)
    else:
        written = player_settings(family.player_name(text)) or {}
    values = {}
    for name, value in written.items():
        try:
            values[name] = float(value)
        except ValueError:
            continue  # a parameter that is not a number is not one to tune
    return values


def with_values(family, text: str, values: dict[str, float]) -> str:
    """`text` with the given parameters set to `values` (each as written by ``number_text``), the others as
    they were."""
    text = text.strip()
    if text.startswith(EXEC_PREFIX):
        words = shlex.split(text[len(EXEC_PREFIX):])
        for index, word in enumerate(words):
            name, equals, _ = word.partition("=")
            if equals and name in values:
                words[index] = f"{name}={number_text(values[name])}"
        return EXEC_PREFIX + shlex.join(words)
    if is_user_player(text, family.players.NAMES):
        location, _, rest = text.partition(":")
        target, _, _ = rest.partition(":")
        settings = _user_parameters(text)
    else:
        name, _, _ = text.partition(":")
        location, target = name.strip(), None
        settings = player_settings(text) or {}
    settings = {**settings, **{name: number_text(value) for name, value in values.items()}}
    written = ",".join(f"{name}={value}" for name, value in settings.items())
    head = location if target is None else f"{location}:{target}"
    return f"{head}:{written}" if written else head


def number_text(value: float) -> str:
    """A parameter's value as a player text writes it: a whole number without a point (a user's Python player
    then gets an int), anything else to five significant digits."""
    if float(value).is_integer():
        return str(int(value))
    return format(value, ".5g")


def _user_parameters(text: str) -> dict[str, str]:
    """The `key=value` parameters written after a user player's second colon, as written."""
    _, _, rest = text.partition(":")
    _, _, parameter_text = rest.partition(":")
    found = {}
    for item in filter(None, (part.strip() for part in parameter_text.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip().isidentifier():
            raise PlayerError(f"{text}: a parameter is written key=value, not {item!r}")
        found[key.strip()] = value.strip()
    return found


def _exec_arguments(text: str) -> list[tuple[str, str]]:
    """The (key, value) of the arguments of an ``exec:`` command written key=value."""
    try:
        words = shlex.split(text[len(EXEC_PREFIX):])
    except ValueError as error:
        raise PlayerError(f"{text}: the command cannot be read ({error})") from None
    found = []
    for word in words[1:]:
        key, equals, value = word.partition("=")
        if equals and key.isidentifier():
            found.append((key, value))
    return found

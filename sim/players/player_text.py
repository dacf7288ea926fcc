"""The player notation every family shares: `NAME` or `NAME:key=value,...`, read against one family's table
of heuristics and their default parameters into (heuristic id, parameter vector, canonical text)."""

import numpy as np


class PlayerError(ValueError):
    """A player written wrongly: unknown heuristic or parameter, or a value that is not a number."""


def parse_player_text(text: str, names: tuple, defaults: dict, slots: dict, n_parameters: int,
                      aliases: dict | None = None):
    """`names`: the heuristics by id; `defaults`: each heuristic's parameters and their defaults (the
    canonical text lists them in this order); `slots`: each parameter's index in the vector. `aliases` maps
    keys this family accepts from another family's canonical text to its own (None: the key is dropped)."""
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    if name not in defaults:
        raise PlayerError(f"unknown heuristic {name!r}; choose from {', '.join(names)}")
    settings = dict(defaults[name])
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        key = key.strip()
        if aliases and key in aliases:
            if aliases[key] is None:
                continue
            key = aliases[key]
        if not equals or key not in settings:
            raise PlayerError(
                f"{name}: unknown parameter {item!r}; {name} takes {', '.join(f'{k}=' for k in defaults[name])}"
            )
        try:
            settings[key] = float(value)
        except ValueError:
            raise PlayerError(f"{name}: parameter {key} needs a number, not {value.strip()!r}") from None
        if not np.isfinite(settings[key]) or settings[key] < 0:
            raise PlayerError(f"{name}: parameter {key} must be a non-negative number")
    parameters = np.zeros(n_parameters, np.float64)
    for key, value in settings.items():
        parameters[slots[key]] = value
    canonical = name + ":" + ",".join(f"{key}={value:g}" for key, value in settings.items())
    return names.index(name), parameters, canonical


def split_players(text: str) -> list[str]:
    """`greedy:claim=0,ready=1,value` -> ["greedy:claim=0,ready=1", "value"]: a comma-separated part
    holding `=` but no `:` continues the previous player's parameters."""
    players: list[str] = []
    for part in text.split(","):
        if players and "=" in part and ":" not in part:
            players[-1] += "," + part
        else:
            players.append(part)
    return players


def players_label(players, defaults: dict | None = None) -> str:
    """The players of a table in a line, seat by seat: `ev v greedy v greedy v greedy`. A built-in player is
    shown by its name and the parameters it sets away from its defaults (`defaults`: name -> its canonical
    text with no parameters given, as the family writes it; ``default_texts``), and where seats share a name
    but not their parameters, the parameters in which they differ too (`value:speed=6 v value:speed=3`), so
    that no two different players read alike. A user's player (a file, a module or an `exec:` program) is
    shown as written."""
    texts = [str(text).strip() for text in players]
    settings = [player_settings(text) for text in texts]
    names = [text.partition(":")[0].strip() if found is not None else text for text, found in zip(texts, settings)]
    labels = []
    for text, name, found in zip(texts, names, settings):
        if found is None:
            labels.append(name)
            continue
        standard = player_settings((defaults or {}).get(name, "")) or {}
        namesakes = {other for other, other_name in zip(texts, names) if other_name == name}
        rivals = [player_settings(other) or {} for other in namesakes]
        # the parameters set away from the default, or not the same in every seat of this name
        differing = [key for key in found if (key in standard and standard[key] != found[key])
                     or any(rival.get(key) != found[key] for rival in rivals)]
        labels.append(name + ":" + ",".join(f"{key}={found[key]}" for key in differing) if differing else name)
    return " v ".join(labels)


def player_settings(text: str) -> dict | None:
    """`name:key=value,...` as {key: value}, the values as written (in order; {} for a bare name), or None
    where the text is not a built-in player's (a user's player: a path or a module with a class, or `exec:`)."""
    _, colon, rest = text.partition(":")
    found = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip().isidentifier():
            return None
        found[key.strip()] = value.strip()
    return found if colon or "." not in text else None

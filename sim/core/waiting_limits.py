"""How long mjsim waits for something outside it, when a user sets the limit in the environment: an
external player's answer (``MJSIM_EXEC_TIMEOUT``) or a Dask scheduler (``MJSIM_DASK_TIMEOUT``)."""

import os

LONGEST_WAIT = 3600.0  # seconds: a longer limit is a typo, not a wish


def seconds_from_environment(variable: str, default: float, error: type[Exception]) -> float:
    """The number of seconds in `variable`, `default` if it is unset; `error` names it when it is not a
    number in (0, LONGEST_WAIT]."""
    text = os.environ.get(variable)
    if text is None:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= LONGEST_WAIT:
        raise error(f"{variable} must be a number of seconds in (0, {LONGEST_WAIT:g}], not {text!r}")
    return seconds

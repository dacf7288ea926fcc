"""The numeric observation both learning environments give a seat: the one place they read it from the
family's step environment (docs/learning.md#the-observation).

``bounds`` declares the Box of an environment's observations and ``observe`` encodes what a seat sees, at any
time after ``reset``, the end of the deal included: the family's encoding (``sim.<family>.encoding``), an int16
vector of named blocks. ``oracle`` asks for the encoding with the hidden information too (the other hands,
the wall), for oracle-guided training.
"""

import numpy as np

DTYPE = np.int16


def bounds(environment, oracle: bool) -> tuple[np.ndarray, np.ndarray]:
    """(low, high): int16 arrays of the encoding's shape (size,)."""
    return environment.encoding_bounds(oracle)


def observe(environment, seat: int, oracle: bool) -> np.ndarray:
    """What `seat` sees now, as int16 (size,), a new array each call."""
    return environment.encode(seat, oracle)


def layout_table(layout) -> str:
    """The blocks of an encoding as the Markdown table docs/learning.md prints (a test keeps them equal)."""
    lines = ["| block | first entry | entries | copies | range | meaning |", "|---|---:|---:|---:|---|---|"]
    for row in layout.rows():
        lines.append(f"| `{row['block']}` | {row['first']} | {row['entries']} | {row['copies']} | "
                     f"{row['low']} to {row['high']} | {row['meaning']} |")
    return "\n".join(lines)

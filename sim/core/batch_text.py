"""Batch input (`--batch FILE` of `mjsim shanten` and `mjsim score`): JSON lines read so that output line N
always answers input line N, and one hostile line is one error line while the batch goes on.

Lines are split on ``\\n`` alone (a trailing ``\\r`` is dropped), not on the other separators
``str.splitlines`` knows (U+0085, U+2028, U+2029, U+001C-U+001E), which may sit inside a JSON string. A line
holds at most MAX_LINE_CHARACTERS characters and is parsed within the limits of every JSON mjsim reads
(``sim.core.input_limits.parse_json``: 16 levels of nesting, 20 digits in a number, no NaN or Infinity).
"""

from sim.core.input_limits import InputLimitError, parse_json

MAX_LINE_CHARACTERS = 10_000


class BatchLineError(ValueError):
    """A batch line that is not a JSON value mjsim will read."""


def split_lines(text: str) -> list[str]:
    """The lines of a batch text: split on newline only, a final newline ending the last line."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def decode(data: bytes, name: str) -> str:
    """UTF-8 text of a batch, or one clear error (a ValueError) naming where it is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BatchLineError(f"{name} is not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start:,})") from None


def parse_line(line: str):
    """The JSON value of one batch line, within the limits above; BatchLineError says what is wrong."""
    if len(line) > MAX_LINE_CHARACTERS:
        raise BatchLineError(f"a line of {len(line):,} characters; at most {MAX_LINE_CHARACTERS:,}")
    try:
        return parse_json(line)
    except InputLimitError as error:
        raise BatchLineError(str(error)) from None

"""Batch input (`--batch FILE` of `mjsim shanten` and `mjsim score`): JSON lines read so that output line N
always answers input line N, and one hostile line is one error line while the batch goes on.

Lines are split on ``\\n`` alone (a trailing ``\\r`` is dropped), not on the other separators
``str.splitlines`` knows (U+0085, U+2028, U+2029, U+001C-U+001E), which may sit inside a JSON string. A line
is parsed with limits: at most MAX_LINE_CHARACTERS characters, MAX_DEPTH levels of nesting and
MAX_NUMBER_DIGITS digits in a number; NaN and Infinity are not JSON.
"""

import json

MAX_LINE_CHARACTERS = 10_000
MAX_DEPTH = 16
MAX_NUMBER_DIGITS = 20


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


def _depth(line: str) -> int:
    """The deepest nesting of arrays and objects, brackets inside strings not counted."""
    depth = deepest = 0
    in_string = escaped = False
    for char in line:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _number(text: str):
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise BatchLineError(f"a number of {len(text):,} characters; at most {MAX_NUMBER_DIGITS} digits")
    return int(text) if text.lstrip("-").isdigit() else float(text)


def _constant(text: str):
    raise BatchLineError(f"{text} is not a JSON value")


def parse_line(line: str):
    """The JSON value of one batch line, within the limits above; BatchLineError says what is wrong."""
    if len(line) > MAX_LINE_CHARACTERS:
        raise BatchLineError(f"a line of {len(line):,} characters; at most {MAX_LINE_CHARACTERS:,}")
    if _depth(line) > MAX_DEPTH:
        raise BatchLineError(f"nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(line, parse_int=_number, parse_float=_number, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise BatchLineError(f"not valid JSON ({error.msg})") from None

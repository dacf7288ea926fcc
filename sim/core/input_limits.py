"""Reading what mjsim is given, within limits: the TOML files (rulesets, rooms, levels), the JSON files of a run
directory (run.json, manifest.json) and JSON text (batch lines) all go through here.

- **A regular file of bounded size.** A file is opened only when it is a regular file: a FIFO, a device
  (``/dev/zero``) or a directory is refused before a byte is read, since reading one may never end. At most
  the caller's size limit is read; a larger file is refused.
- **UTF-8**, or one error naming the offset of the first byte that is not.
- **Nesting** is counted before the parser sees the text (tomllib and json recurse once per level, and fail
  with a RecursionError deep enough): brackets and braces outside strings and comments, with TOML's four
  string forms skipped. The scan is conservative: text it cannot read as strings counts as brackets, which
  can only make it refuse invalid text. The parsed data is measured again, since TOML's dotted keys
  (``a.b.c = 1``) nest tables without a bracket.
- **Numbers** are short: a long run of digits would make Python's int conversion fail (it refuses more than
  4,300 digits) or a huge value slow everything after it.

The readers raise ``InputLimitError`` with the reason; the loaders' readers (``read_toml``, ``read_json``)
turn it into the caller's own error class with the file named, so that a bad file is one error line of the
loader that asked (RulesetError, RoomsError, LevelsError, RunError).
"""

import functools
import json
import os
import re
import stat
import tomllib
from pathlib import Path

import numpy as np

from sim.core.size_limits import size_text

LARGEST_TOML_FILE = 1 << 20  # bytes: rulesets, rooms and levels files are a few KB
MAX_TOML_DEPTH = 32  # the shipped files nest 2 levels deep
MAX_TOML_NUMBER_CHARACTERS = 64  # a TOML number (or date) token, sign, prefix and underscores included
MAX_JSON_DEPTH = 16
MAX_JSON_NUMBER_DIGITS = 20  # a 64-bit integer has at most 20 digits


class InputLimitError(ValueError):
    """Text or a file that mjsim will not read; the message says why (the caller names the file)."""


def read_regular_file(path: Path, largest: int) -> bytes:
    """The bytes of the regular file at `path`, at most `largest` of them; InputLimitError for anything else
    (OSError when it cannot be opened at all)."""
    # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. The check is on the opened
    # descriptor, so a file swapped for a FIFO after a check of its name is still caught.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"
            raise InputLimitError(f"is {kind}, not a regular file")
        chunks, size = [], 0
        while size <= largest:
            chunk = os.read(descriptor, min(1 << 20, largest + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(descriptor)
    if size > largest:
        raise InputLimitError(f"is larger than {size_text(largest)}, the most mjsim reads of such a file")
    return b"".join(chunks)


def decode_utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputLimitError(f"is not UTF-8 text (byte offset {error.start:,})") from None


_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_SHORT_SCAN = 4096  # brackets counted in Python below this; numpy pays off only beyond it


def bracket_depth(text: str) -> int:
    """The deepest nesting of [ and { in `text` (which holds no strings or comments any more). Fast for the
    short lines an exec: player answers with (a few microseconds), and for a megabyte of brackets."""
    brackets = _NOT_A_BRACKET.sub("", text)
    if len(brackets) > _SHORT_SCAN:
        codes = np.frombuffer(brackets.encode("ascii"), np.uint8)
        steps = np.where((codes == ord("[")) | (codes == ord("{")), 1, -1)
        return max(int(np.cumsum(steps).max()), 0)
    depth = deepest = 0
    for bracket in brackets:
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


# Strings and comments, which may hold any bracket. JSON has one string form; TOML four, and comments.
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\[\s\S])*"')
_TOML_SKIPPED = re.compile(r'''
      """(?:[^"\\]|\\[\s\S]|"(?!""))*"{3,5}   # multi-line basic string (it may end in up to two more quotes)
    | '\'\'(?:[^']|'(?!''))*'{3,5}            # multi-line literal string
    | "(?:[^"\\\n]|\\.)*"                     # basic string
    | '[^'\n]*'                               # literal string
    | \#[^\n]*                                # comment
''', re.VERBOSE)
# A TOML number or date: starts with a digit (after a sign) where no bare key can be going on.
_TOML_NUMBER = re.compile(r"(?<![A-Za-z0-9_\-])[+\-]?[0-9][0-9A-Za-z_.:+\-]*")


def _data_depth(data) -> int:
    """The deepest nesting of lists and dicts in parsed data (walked without recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            if deepest > MAX_TOML_DEPTH:
                break
            stack.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return deepest


def parse_toml(text: str) -> dict:
    """The data of TOML text within the limits above; InputLimitError says what is wrong."""
    bare = _TOML_SKIPPED.sub(" ", text)
    if bracket_depth(bare) > MAX_TOML_DEPTH:
        raise InputLimitError(f"nests arrays or inline tables more than {MAX_TOML_DEPTH} levels deep")
    longest = max((match.group() for match in _TOML_NUMBER.finditer(bare)), key=len, default="")
    if len(longest) > MAX_TOML_NUMBER_CHARACTERS:
        raise InputLimitError(f"has a number of {len(longest):,} characters; at most {MAX_TOML_NUMBER_CHARACTERS}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputLimitError(f"is not a readable TOML file (not valid TOML: {error})") from None
    except (RecursionError, ValueError) as error:  # a second line of defence behind the scans above
        raise InputLimitError(f"is beyond what mjsim reads ({type(error).__name__})") from None
    if _data_depth(data) > MAX_TOML_DEPTH:
        raise InputLimitError(f"nests tables more than {MAX_TOML_DEPTH} levels deep")
    return data


def read_toml(path: Path, error: type[Exception], what: str, largest: int = LARGEST_TOML_FILE) -> tuple[dict, str]:
    """The data and text of the TOML file at `path`, or one `error` naming it (`what`: "rooms file", say)."""
    try:
        text = decode_utf8(read_regular_file(path, largest))
        return parse_toml(text), text
    except OSError as problem:
        raise error(f"cannot read {what} {path}: {problem.strerror or problem}") from None
    except InputLimitError as problem:
        raise error(f"{what} {path} {problem}") from None


def _json_number(text: str, digits: int):
    if len(text.lstrip("-")) > digits:
        raise InputLimitError(f"a number of {len(text):,} characters; at most {digits} digits")
    return int(text) if text.lstrip("-").isdigit() else float(text)


def _json_constant(text: str):
    raise InputLimitError(f"{text} is not a JSON value")


def parse_json(text: str, max_depth: int = MAX_JSON_DEPTH, max_digits: int = MAX_JSON_NUMBER_DIGITS):
    """The JSON value of `text`, nested at most `max_depth` deep, numbers of at most `max_digits` digits, no
    NaN or Infinity; InputLimitError says what is wrong."""
    if bracket_depth(_JSON_STRING.sub("", text)) > max_depth:
        raise InputLimitError(f"nested more than {max_depth} levels deep")
    number = functools.partial(_json_number, digits=max_digits)
    try:
        return json.loads(text, parse_int=number, parse_float=number, parse_constant=_json_constant)
    except json.JSONDecodeError as error:
        raise InputLimitError(f"not valid JSON ({error.msg})") from None
    except RecursionError:  # behind the depth scan, for text it counts wrongly
        raise InputLimitError(f"nested more than {max_depth} levels deep") from None


def read_json(path: Path, error: type[Exception], what: str, largest: int):
    """The JSON value of the file at `path` within the limits of ``parse_json``, or one `error` naming it
    (after `what`, if given)."""
    name = f"{what} {path}" if what else str(path)
    try:
        text = decode_utf8(read_regular_file(path, largest))
    except OSError as problem:
        raise error(f"cannot read {name}: {problem.strerror or problem}") from None
    except InputLimitError as problem:
        raise error(f"{name} {problem}") from None
    try:
        return parse_json(text)
    except InputLimitError as problem:
        raise error(f"{name} is damaged ({problem})") from None

"""MPSZ tile notation: parse text into a Hand, format a Hand back into text (docs/rules/README.md).

``123m456p789s1234567z`` are concealed tiles (``1z``-``7z`` = 东南西北白发中), ``1f``-``8f`` flowers;
melds are ``[123m]`` chow, ``[555m]`` pong, ``[5555m]`` exposed kong and ``(5555m)`` concealed kong.
Anything malformed raises NotationError with one message naming the problem (quoting at most a short
piece of the text). Only ASCII digits, the suit letters, brackets and ASCII white space are notation: a
digit of another script or a no-break space is an unknown token, not a tile or a separator.
"""

import enum
import re
from dataclasses import dataclass

import numpy as np

from kernels.tiles import (
    COPIES_PER_KIND,
    FIRST_FLOWER,
    HONOR_START,
    MELD_CHOW,
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PONG,
    N_FLOWERS,
    N_KINDS,
    SUIT_SIZE,
)

SUIT_OFFSETS = {"m": 0, "p": 9, "s": 18, "z": HONOR_START}
RANK_LIMITS = {"m": 9, "p": 9, "s": 9, "z": 7, "f": N_FLOWERS}
_GROUP = re.compile(r"([0-9]+)([A-Za-z])")
SEPARATORS = " \t\r\n"
SHOWN = 40  # characters of the text an error message quotes at most


class NotationError(ValueError):
    """Text that is not a valid hand or tile."""


def shown(text: str) -> str:
    """`text` quoted for an error message, cut short when long (an input of 100,000 characters is not echoed)."""
    return repr(text) if len(text) <= SHOWN else repr(text[:SHOWN]) + f"... ({len(text):,} characters)"


class MeldKind(enum.IntEnum):
    """The meld codes the fan evaluator takes (kernels.fans.mcr)."""

    CHOW = MELD_CHOW
    PONG = MELD_PONG
    KONG = MELD_KONG
    CONCEALED_KONG = MELD_CONCEALED_KONG


@dataclass(frozen=True)
class Meld:
    kind: MeldKind
    first: int  # the lowest tile kind of the meld

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == MeldKind.CHOW:
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * (3 if self.kind == MeldKind.PONG else 4)

    def __str__(self) -> str:
        text = format_tiles(_counts(self.tiles))
        return f"({text})" if self.kind == MeldKind.CONCEALED_KONG else f"[{text}]"


@dataclass(frozen=True)
class Hand:
    concealed: tuple[int, ...]  # count of each of the 34 kinds among the concealed tiles
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()  # flower tiles 34-41, ascending

    @property
    def counts(self) -> np.ndarray:
        return np.array(self.concealed, dtype=np.int8)

    @property
    def meld_counts(self) -> np.ndarray:
        """Copies of each kind inside the melds."""
        return _counts(tile for meld in self.melds for tile in meld.tiles)

    @property
    def n_tiles(self) -> int:
        return sum(self.concealed)

    def __str__(self) -> str:
        return format_hand(self)


def _counts(kinds) -> np.ndarray:
    counts = np.zeros(N_KINDS, np.int64)  # wide: 300 copies of a tile must be counted as 300, not wrap
    for kind in kinds:
        counts[kind] += 1
    return counts


def tile_name(kind: int) -> str:
    """MPSZ name of a tile kind (0-33) or flower (34-41)."""
    if FIRST_FLOWER <= kind < FIRST_FLOWER + N_FLOWERS:
        return f"{kind - FIRST_FLOWER + 1}f"
    if not 0 <= kind < N_KINDS:
        raise NotationError(f"no tile kind {kind}")
    if kind >= HONOR_START:
        return f"{kind - HONOR_START + 1}z"
    return f"{kind % SUIT_SIZE + 1}{'mps'[kind // SUIT_SIZE]}"


def format_tiles(counts) -> str:
    """Counts of the 34 kinds as compact MPSZ text, suits in the order m, p, s, z: ``"123m11z"``."""
    parts = []
    for letter, offset in SUIT_OFFSETS.items():
        digits = "".join(str(rank + 1) * int(counts[offset + rank]) for rank in range(RANK_LIMITS[letter]))
        if digits:
            parts.append(digits + letter)
    return "".join(parts)


def format_hand(hand: Hand) -> str:
    """Canonical text: concealed tiles, then melds in the order given, then flowers."""
    parts = [format_tiles(hand.concealed)] if hand.n_tiles else []
    parts += [str(meld) for meld in hand.melds]
    if hand.flowers:
        parts.append("".join(str(flower - FIRST_FLOWER + 1) for flower in hand.flowers) + "f")
    return " ".join(parts)


def _group_tiles(token: str) -> list[int]:
    """Tiles (kinds, flowers as 34-41) of text made only of groups like ``123m45p``."""
    tiles, position = [], 0
    while position < len(token):
        match = _GROUP.match(token, position)
        if match is None:
            raise NotationError(f"unknown token {shown(token[position:])}: write tiles as digits followed by m, p, s, z or f")
        digits, letter = match.group(1), match.group(2)
        if letter not in RANK_LIMITS:
            raise NotationError(f"unknown token {shown(match.group(0))}: the suit letters are m, p, s, z and f (flowers)")
        for digit in digits:
            rank = int(digit)
            if not 1 <= rank <= RANK_LIMITS[letter]:
                raise NotationError(f"unknown token {digit + letter!r}: {letter} tiles run from 1 to {RANK_LIMITS[letter]}")
            tiles.append(FIRST_FLOWER + rank - 1 if letter == "f" else SUIT_OFFSETS[letter] + rank - 1)
        position = match.end()
    return tiles


def _meld(token: str, concealed: bool) -> Meld:
    tiles = sorted(_group_tiles(token[1:-1]))
    token = token if len(token) <= SHOWN else token[:SHOWN] + "..."  # as messages name it
    if any(tile >= FIRST_FLOWER for tile in tiles):
        raise NotationError(f"meld {token}: flowers cannot be in a meld")
    if len(set(tiles)) == 1 and len(tiles) == 4:
        return Meld(MeldKind.CONCEALED_KONG if concealed else MeldKind.KONG, tiles[0])
    if concealed:
        raise NotationError(f"meld {token}: parentheses mark a concealed kong, four identical tiles such as (5555m)")
    if len(tiles) != 3:
        raise NotationError(f"meld {token}: a meld has 3 tiles (chow, pong) or 4 (kong), not {len(tiles)}")
    if len(set(tiles)) == 1:
        return Meld(MeldKind.PONG, tiles[0])
    first = tiles[0]
    is_sequence = tiles == [first, first + 1, first + 2] and first < HONOR_START and first % SUIT_SIZE <= 6
    if not is_sequence:
        raise NotationError(f"meld {token}: not a chow (three consecutive tiles of one suit) nor a pong")
    return Meld(MeldKind.CHOW, first)


def _tokens(text: str):
    """Split text into concealed groups and bracketed melds, reporting unbalanced brackets."""
    position = 0
    while position < len(text):
        char = text[position]
        if char in SEPARATORS:
            position += 1
            continue
        if char in "[(":
            closing = "]" if char == "[" else ")"
            end = text.find(closing, position)
            if end < 0:
                raise NotationError(f"unclosed {char!r} in {shown(text[position:])}")
            yield text[position : end + 1]
            position = end + 1
            continue
        if char in "])":
            raise NotationError(f"unexpected {char!r} without a matching opening bracket")
        end = position
        while end < len(text) and text[end] not in SEPARATORS and text[end] not in "[()]":
            end += 1
        yield text[position:end]
        position = end


def parse_hand(text: str, sizes: tuple[int, ...] | None = (13, 14)) -> Hand:
    """Parse MPSZ text into a Hand.

    `sizes` are the allowed hand sizes counting 3 tiles per meld (13 or 14 by default); None skips the
    size check. Rejects unknown tokens, malformed melds, a fifth copy of a tile (melds included), a
    flower given twice, more than four melds and a size that does not fit the melds.
    """
    concealed_tiles, melds = [], []
    for token in _tokens(text):
        if token[0] in "[(":
            melds.append(_meld(token, concealed=token[0] == "("))
        else:
            concealed_tiles.extend(_group_tiles(token))
    flowers = sorted(tile for tile in concealed_tiles if tile >= FIRST_FLOWER)
    concealed = _counts(tile for tile in concealed_tiles if tile < FIRST_FLOWER)
    for flower in set(flowers):
        if flowers.count(flower) > 1:
            raise NotationError(f"flower {tile_name(flower)} appears {flowers.count(flower)} times; each flower exists once")
    hand = Hand(tuple(int(count) for count in concealed), tuple(melds), tuple(flowers))
    total = concealed + hand.meld_counts
    if total.max(initial=0) > COPIES_PER_KIND:
        kind = int(np.argmax(total))
        raise NotationError(
            f"{tile_name(kind)} appears {total[kind]} times (hand and melds); there are only {COPIES_PER_KIND} copies"
        )
    if len(melds) > 4:
        raise NotationError(f"{len(melds)} melds; a hand has at most 4")
    if sizes is not None:
        check_size(hand, sizes)
    return hand


def check_size(hand: Hand, sizes: tuple[int, ...]) -> None:
    """Raise NotationError unless the hand holds one of `sizes` tiles, counting 3 per meld."""
    melds = len(hand.melds)
    if hand.n_tiles + 3 * melds not in sizes:
        allowed = " or ".join(str(size - 3 * melds) for size in sizes)
        raise NotationError(
            f"{hand.n_tiles} concealed tiles with {melds} meld{'s' if melds != 1 else ''}; "
            f"expected {allowed} ({' or '.join(map(str, sizes))} less 3 per meld)"
        )


def parse_tiles(text: str) -> np.ndarray:
    """Counts of loose tiles (no melds, no flowers), e.g. the tiles seen on the table."""
    hand = parse_hand(text, sizes=None)
    if hand.melds or hand.flowers:
        raise NotationError(f"{shown(text)}: expected plain tiles, without melds or flowers")
    return hand.counts


def parse_tile(text: str) -> int:
    """One tile kind, e.g. ``"5m"``."""
    tiles = _group_tiles(text.strip()) if text.strip() else []
    if len(tiles) != 1 or tiles[0] >= FIRST_FLOWER:
        raise NotationError(f"{shown(text)} is not a single tile such as 5m or 7z")
    return tiles[0]

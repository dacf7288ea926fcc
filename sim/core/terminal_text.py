"""Text laid out for a terminal, where a Chinese character takes two columns."""

import unicodedata


def display_width(text: str) -> int:
    """The columns a terminal gives `text`: two for a wide (CJK) character, one for any other."""
    return sum(2 if unicodedata.east_asian_width(character) in "WF" else 1 for character in text)


def pad(text: str, width: int) -> str:
    """Left-justify counting a Chinese character as two columns, as a terminal shows it (one space at least)."""
    return text + " " * max(width - display_width(text), 1)

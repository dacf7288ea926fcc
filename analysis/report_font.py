"""The CJK font a report carries inside itself, so that its Chinese names (fans, rooms, rulesets) show as
characters on a machine that has no CJK font.

The package ships ``analysis/fonts/noto-sans-cjk-sc-subset.woff``: Noto Sans CJK SC Regular, under the SIL
Open Font License 1.1 (``analysis/fonts/OFL.txt``), cut down to the characters mjsim can print: GB2312's
3,755 level-1 characters (the common ones), the CJK punctuation and full-width forms, and every wide
character of mjsim's own code and data files (rulesets, rooms, levels). A page embeds that font cut again to
exactly the characters on the page (``font_face``), as a WOFF in a data: URL. A character outside it (a
user's own rooms file may have one) falls through to the system's fonts, which the page's font list names
after it, and the page says which characters those are (``missing``).

``python -m analysis.report_font SOURCE_FONT`` makes the shipped file again from the source font, Debian's
``fonts-noto-cjk`` (docs/reports.md#the-embedded-font).
"""

import argparse
import base64
import functools
import io
import sys
import unicodedata
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont, TTLibError

FAMILY = "mjsim CJK"
FONT_FILE = Path(__file__).with_name("fonts") / "noto-sans-cjk-sc-subset.woff"
LICENCE_FILE = FONT_FILE.with_name("OFL.txt")
SOURCE_FAMILY = "Noto Sans CJK SC"
ROOT = Path(__file__).resolve().parent.parent
# The name records kept in both subsets: the family's names, and the copyright (0), trademark (7), licence
# (13) and licence address (14) that the Open Font License asks every copy to carry.
NAME_RECORDS = [0, 1, 2, 3, 4, 5, 6, 7, 13, 14]


def is_wide(character: str) -> bool:
    """A character of the East Asian scripts, set a full em wide: the ones the report's font is for."""
    return ord(character) >= 0x2E80 and unicodedata.east_asian_width(character) in "WF"


@functools.cache
def shipped_characters() -> frozenset[str]:
    """Every character the shipped font has a glyph for."""
    return frozenset(chr(code) for code in TTFont(FONT_FILE, lazy=True).getBestCmap())


def missing(text: str) -> list[str]:
    """The wide characters of `text` that the shipped font lacks, in code order: they show in a system font."""
    return sorted({character for character in text if is_wide(character)} - shipped_characters())


def font_face(text: str) -> str:
    """The ``@font-face`` rule of `FAMILY`: the shipped font cut to the characters of `text` it has, inline; ""
    where `text` has none of them (no CJK on the page)."""
    wanted = set(text) & shipped_characters()
    if not wanted:
        return ""
    data = base64.b64encode(_subset(TTFont(FONT_FILE, recalcTimestamp=False), wanted)).decode("ascii")
    return (f'@font-face {{ font-family: "{FAMILY}"; font-style: normal; font-weight: 400; '
            f'src: url(data:font/woff;base64,{data}) format("woff"); }}')


def _subset(font: TTFont, characters: set[str]) -> bytes:
    """`font` cut to `characters` (the same characters give the same bytes: no time stamp is renewed), as WOFF."""
    options = subset.Options()
    options.flavor = "woff"  # zlib: compressed with the standard library, no Brotli needed as WOFF2 would
    options.hinting = False  # browsers render CJK at report sizes well without hints, and the file is 15% smaller
    options.layout_features = []  # the page sets text horizontally, without the font's alternates
    options.name_IDs = NAME_RECORDS
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(character) for character in characters))
    subsetter.subset(font)
    font.flavor = "woff"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


# ---- the shipped file, made again from the source font


def common_characters() -> set[str]:
    """GB2312's level-1 characters (rows 16 to 55: the 3,755 most used), CJK punctuation and full-width forms."""
    level_one = set()
    for row in range(0xB0, 0xD8):
        for cell in range(0xA1, 0xFF):
            try:
                level_one.add(bytes((row, cell)).decode("gb2312"))
            except UnicodeDecodeError:  # row 55 ends early
                pass
    punctuation = {chr(code) for code in range(0x3000, 0x3040)} | {chr(code) for code in range(0xFF01, 0xFF5F)}
    return level_one | punctuation


def project_characters(root: Path = ROOT) -> set[str]:
    """Every wide character in mjsim's code and data files (kernels/, sim/, analysis/: .py and .toml), which
    holds every fan, room, ruleset and level name it can print."""
    found = set()
    for package in ("kernels", "sim", "analysis"):
        for path in sorted((root / package).rglob("*")):
            if path.suffix in (".py", ".toml") and path.is_file():
                found |= {character for character in path.read_text(encoding="utf-8") if is_wide(character)}
    return found


def source_font(path: Path) -> TTFont:
    """The font `SOURCE_FAMILY` from `path`: a collection (Debian's NotoSansCJK-Regular.ttc) or one font file."""
    try:
        if path.suffix.lower() in (".ttc", ".otc"):
            fonts = TTCollection(path, lazy=True).fonts
            indices = [index for index, font in enumerate(fonts) if font["name"].getDebugName(1) == SOURCE_FAMILY]
            if not indices:
                raise ValueError(f"{path} holds no font named {SOURCE_FAMILY}")
            return TTFont(path, fontNumber=indices[0], recalcTimestamp=False)
        font = TTFont(path, recalcTimestamp=False)
    except (OSError, TTLibError) as error:
        raise ValueError(f"{path}: not a font file ({error})") from None
    if font["name"].getDebugName(1) != SOURCE_FAMILY:
        raise ValueError(f"{path} is {font['name'].getDebugName(1)}, not {SOURCE_FAMILY}")
    return font


def build(source: Path, destination: Path = FONT_FILE) -> str:
    """Write the shipped font from the source font file; return what it holds, in a line."""
    font = source_font(source)
    available = {chr(code) for code in font.getBestCmap()}
    own, common = project_characters(), common_characters()
    lacking = sorted(own - available)
    if lacking:
        raise ValueError(f"{SOURCE_FAMILY} lacks characters mjsim prints: {''.join(lacking)}")
    data = _subset(font, (own | common) & available)
    destination.write_bytes(data)
    shown = destination.resolve().relative_to(ROOT) if destination.resolve().is_relative_to(ROOT) else destination
    return (f"wrote {shown}: {len((own | common) & available):,} characters ({len(own):,} of mjsim's own, "
            f"{len(common - own):,} more of GB2312 level 1 and CJK punctuation), {len(data) / 1024:,.0f} KB")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m analysis.report_font",
        description=f"Make the report's CJK font ({FONT_FILE.relative_to(ROOT)}) again from {SOURCE_FAMILY}, e.g. "
                    "Debian's fonts-noto-cjk: NotoSansCJK-Regular.ttc (docs/reports.md#the-embedded-font).")
    parser.add_argument("source", type=Path, help="the source font: NotoSansCJK-Regular.ttc or NotoSansCJKsc-Regular.otf")
    arguments = parser.parse_args(argv)
    try:
        print(build(arguments.source))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The report's embedded CJK font (analysis.report_font): the shipped font has every Chinese character mjsim
prints and GB2312's common ones, carries its licence, and a page gets it cut to exactly the characters it
shows; characters outside it are named, not silently lost. The shipped file is made again by the builder."""

import base64
import io
import re
import tomllib
import unicodedata
from pathlib import Path

from fontTools.ttLib import TTFont

from analysis import report_font

ROOT = Path(__file__).resolve().parents[2]


def characters_of(font_bytes_or_path) -> set[str]:
    source = io.BytesIO(font_bytes_or_path) if isinstance(font_bytes_or_path, bytes) else font_bytes_or_path
    return {chr(code) for code in TTFont(source).getBestCmap()}


def embedded_font(rule: str) -> bytes:
    data = re.fullmatch(r'@font-face \{ font-family: "mjsim CJK";.* src: url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\) '
                        r'format\("woff"\); \}', rule)
    assert data, rule[:200]
    return base64.b64decode(data[1])


def test_the_shipped_font_has_every_chinese_character_in_mjsims_code_and_data_files():
    # the fan, room, ruleset and level names are all in these files; a new one not in the font fails here
    # (python -m analysis.report_font SOURCE_FONT makes the font again: docs/reports.md)
    wide = set()
    for package in ("kernels", "sim", "analysis"):
        for path in (ROOT / package).rglob("*"):
            if path.suffix in (".py", ".toml"):
                wide |= {character for character in path.read_text(encoding="utf-8")
                         if ord(character) > 0x2E7F and unicodedata.east_asian_width(character) in "WF"}
    assert {"清", "一", "色", "麻", "将", "富", "贵", "豆", "场", "闯", "关"} <= wide  # the scan finds the names
    assert wide - characters_of(report_font.FONT_FILE) == set()


def test_the_shipped_font_has_the_3755_common_characters_of_gb2312_level_one():
    level_one = set()
    for row in range(16, 56):  # GB2312's rows 16 to 55, each of 94 cells but the last, which stops at 89
        for cell in range(1, 95 if row < 55 else 90):
            level_one.add(bytes((0xA0 + row, 0xA0 + cell)).decode("gb2312"))
    assert len(level_one) == 3755
    assert level_one <= characters_of(report_font.FONT_FILE)


def test_the_shipped_font_is_small_and_carries_its_licence_into_every_copy():
    assert report_font.FONT_FILE.stat().st_size < 1_000_000
    licence = report_font.LICENCE_FILE.read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Copyright © 2014-2021 Adobe" in licence
    font = TTFont(io.BytesIO(embedded_font(report_font.font_face("清一色"))))  # a page's copy, not only the shipped file
    assert "SIL Open Font License" in font["name"].getDebugName(13) and "Adobe" in font["name"].getDebugName(0)
    # a user installing the package (not from the source tree) gets both files
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    shipped = {str(Path("analysis") / name) for name in package_data["analysis"]}
    assert {str(path.relative_to(ROOT)) for path in (report_font.FONT_FILE, report_font.LICENCE_FILE)} <= shipped


def test_a_page_gets_the_font_cut_to_exactly_the_characters_it_shows_that_the_font_has():
    text = "<td>清一色 (24)</td><text>体验场, 龘龘场</text> latin 123"
    rule = report_font.font_face(text)
    assert characters_of(embedded_font(rule)) == set("清一色体验场")
    assert report_font.missing(text) == ["龘"]  # outside the font: the page names it
    assert report_font.font_face(text) == rule  # the same page, the same bytes


def test_a_page_without_chinese_gets_no_font():
    assert report_font.font_face("greedy v defensive, 12.5% [11.0%, 14.1%]") == ""
    assert report_font.missing("greedy v defensive") == []


def test_the_builder_makes_the_shipped_font_again_from_its_source_font(tmp_path):
    # The shipped font is Noto Sans CJK SC too, and holds all the builder keeps: built from it, it comes back
    # with the same characters (the real source, Debian's 56 MB package, is not needed to test the builder).
    out = tmp_path / "font.woff"
    line = report_font.build(report_font.FONT_FILE, out)
    assert characters_of(out) == characters_of(report_font.FONT_FILE)
    assert line.startswith(f"wrote {out}: 3,") and "of GB2312 level 1" in line


def test_the_builder_refuses_a_file_that_is_not_the_source_font_in_one_line(tmp_path, capsys):
    bad = tmp_path / "font.ttc"
    bad.write_bytes(b"not a font")
    assert report_font.main([str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and len(err.splitlines()) == 1

"""The HTML reports of analysis.report: a page per run directory and per league table, self-contained
(nothing fetched), a chart per section the run has tables for, the tables' own figures on the page, a table
of contents; and the page as headless Chromium renders it: its DOM, a screenshot that is not blank, its
Chinese names drawn by the font the page carries, its links resolving and nothing wider than a 1,280 px window."""

import base64
import fcntl
import io
import json
import os
import re
import select
import shutil
import struct
import subprocess
import time
import unicodedata
import zlib
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from fontTools.ttLib import TTFont

from analysis.calibration import COLUMNS as CALIBRATION_COLUMNS
from analysis.report import histogram_bins, share, write_league_report, write_report
from sim.core.result_files import read_metadata, write_table
from sim.core.run_records import load_run
from sim.runs.runner import RunConfig, run, summarise

ERREN_CHARTS = {"configuration": 0, "outcomes": 0, "fans": 1, "distribution": 1, "money": 2, "seats": 2}
XUEZHAN_CHARTS = {"configuration": 0, "outcomes": 0, "fans": 1, "distribution": 1, "money": 3, "seats": 2}


@pytest.fixture(scope="module")
def erren_run(tmp_path_factory):
    """A small 二人 run of two different players (so the economics command also writes each player's)."""
    directory = tmp_path_factory.mktemp("erren") / "run"
    run(RunConfig("erren", ("greedy", "defensive"), deals=600, seed=3, shard_size=300), directory, workers=1)
    return directory


@pytest.fixture(scope="module")
def xuezhan_run(tmp_path_factory):
    directory = tmp_path_factory.mktemp("xuezhan") / "run"
    run(RunConfig("liangmen-xuezhan", ("greedy",) * 4, deals=400, seed=2, shard_size=200), directory, workers=1)
    return directory


def copy_of(directory: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(directory, tmp_path / directory.parent.name))


class PageParts(HTMLParser):
    """What the tests read from a page: the charts of each section, every attribute, the tooltips."""

    def __init__(self):
        super().__init__()
        self.section = None
        self.charts, self.bars, self.attributes, self.titles = {}, {}, [], []
        self._in_title = False

    def handle_starttag(self, tag, attributes):
        attributes = dict(attributes)
        self.attributes.append((tag, attributes))
        if tag == "section":
            self.section = attributes["id"]
            self.charts[self.section] = 0
            self.bars[self.section] = 0
        elif tag == "svg" and attributes.get("class") == "chart":
            self.charts[self.section] += 1
        elif tag == "rect" and attributes.get("class") == "bar":
            self.bars[self.section] += 1
        self._in_title = tag == "title" and self.section is not None

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.titles.append((self.section, data))


def parts_of(page: str) -> PageParts:
    parser = PageParts()
    parser.feed(page)
    return parser


def assert_self_contained(page: str):
    assert "http://" not in page and "https://" not in page
    assert "<script" not in page and "@import" not in page
    # the one URL is the embedded font's, inline
    assert re.findall(r"url\((\w*:?)", page) in ([], ["data:"]) and "font-src data:" in page
    assert "Content-Security-Policy" in page
    anchors = {attributes["id"] for _, attributes in parts_of(page).attributes if "id" in attributes}
    for tag, attributes in parts_of(page).attributes:
        assert not {"src", "xlink:href"} & set(attributes), (tag, attributes)
        if "href" in attributes:  # links within the page only, each to an anchor it has
            assert attributes["href"][:1] == "#" and attributes["href"][1:] in anchors, attributes["href"]


def contents_of(page: str) -> list[str]:
    """The anchors the page's table of contents links to, in order."""
    nav = page[page.index('<nav class="contents"'):page.index("</nav>")]
    return re.findall(r'<a href="#([^"]+)">', nav)


def test_report_of_an_erren_run_has_a_chart_per_section_and_fetches_nothing(erren_run, tmp_path):
    directory = copy_of(erren_run, tmp_path)
    path = write_report(directory)
    assert path == directory / "report.html"
    assert not list(directory.glob(".report.html.*"))  # written through a temporary file, renamed
    page = path.read_text(encoding="utf-8")
    assert_self_contained(page)
    assert parts_of(page).charts == ERREN_CHARTS
    assert_contents_list_every_heading(page)


def assert_contents_list_every_heading(page: str):
    """The table of contents links to every section and every subsection (h3), in the page's order."""
    headings = [attributes.get("id") for tag, attributes in parts_of(page).attributes if tag in ("section", "h3")]
    assert None not in headings and contents_of(page) == headings


def embedded_characters(page: str) -> set[str]:
    data = re.search(r"url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\)", page)[1]
    return {chr(code) for code in TTFont(io.BytesIO(base64.b64decode(data))).getBestCmap()}


def test_report_embeds_its_chinese_characters_font_and_names_those_outside_it(erren_run, tmp_path):
    directory = copy_of(erren_run, tmp_path)
    rooms = tmp_path / "rooms.toml"  # a user's rooms file, with a character outside GB2312 and the shipped font
    rooms.write_text('[rooms."龘龘场"]\nstake = 1\nfee = 0\nmin_entry = 0\nmax_entry = 0\n', encoding="utf-8")
    summarise(directory, *load_run(directory), rooms=rooms)
    page = write_report(directory).read_text(encoding="utf-8")
    fans = pd.read_parquet(directory / "fan_frequency.parquet").query("wins_scored > 0").sort_values("per_win", ascending=False)
    chinese = {character for character in page if chinese_count(character)}
    assert {character for character in "".join(fans["name"].head(25)) if chinese_count(character)} | set("二人麻将场") <= chinese
    assert embedded_characters(page) == chinese - {"龘"}  # exactly the page's characters, but the one outside
    assert re.search(r'<p class="note">These characters of the page are not in its embedded font[^<]*: 龘</p>', page)
    assert re.search(r'font-family: "mjsim CJK", [^;]*"Noto Sans CJK SC"', page)  # then the system's CJK fonts


def test_report_shows_the_fan_names_and_the_tables_own_figures(erren_run, tmp_path):
    directory = copy_of(erren_run, tmp_path)
    page = write_report(directory).read_text(encoding="utf-8")
    parts = parts_of(page)
    fans = pd.read_parquet(directory / "fan_frequency.parquet")
    scored = fans[fans["wins_scored"] > 0].sort_values("per_win", ascending=False)
    top = scored.iloc[0]
    assert f">{share(top['per_win'])}<" in page and f"{top['name']} ({top['value']:g})" in page
    assert all(name in page for name in scored["name"].head(25))
    assert parts.bars["fans"] == min(25, len(scored))
    outcomes = pd.read_parquet(directory / "outcomes.parquet").set_index("statistic")["value"]
    assert f"{share(outcomes['win_share'])}" in page and f">{outcomes['wins']:,.0f}<" in page
    # the histogram counts every win once
    counted = [int(re.search(r": ([\d,]+) wins", text).group(1).replace(",", "")) for section, text in parts.titles
               if section == "distribution"]
    assert sum(counted) == outcomes["wins"]
    seats = pd.read_parquet(directory / "seats.parquet")
    assert f">{share(seats['win_rate'].iloc[0])}<" in page
    assert "greedy:claim=1" in page and read_metadata(directory / "outcomes.parquet")["versions"]["numba"] in page


def test_report_names_the_players_in_its_title_and_shows_paid_per_win_beside_the_fan_total(erren_run, xuezhan_run, tmp_path):
    page = write_report(copy_of(erren_run, tmp_path / "erren")).read_text(encoding="utf-8")
    assert re.search(r"<h1>mjsim run [^<]*: erren, greedy v defensive</h1>", page)
    outcomes = pd.read_parquet(erren_run / "outcomes.parquet").set_index("statistic")["value"]
    assert f"paid per win {outcomes['mean_paid_per_win']:.2f} per stake" in page
    page = write_report(copy_of(xuezhan_run, tmp_path / "xuezhan")).read_text(encoding="utf-8")
    assert "liangmen-xuezhan, greedy v greedy v greedy v greedy</h1>" in page
    outcomes = pd.read_parquet(xuezhan_run / "outcomes.parquet").set_index("statistic")["value"]
    assert f"paid per win {outcomes['mean_paid_per_win']:.2f} units" in page


def test_report_of_a_xuezhan_run_shows_win_values_and_money_charts(xuezhan_run, tmp_path):
    directory = copy_of(xuezhan_run, tmp_path)
    page = write_report(directory).read_text(encoding="utf-8")
    assert_self_contained(page)
    parts = parts_of(page)
    assert parts.charts == XUEZHAN_CHARTS
    assert "raw value of each win" in page and "Money per room and source" in page
    records_wins = pd.read_parquet(directory / "outcomes.parquet").set_index("statistic")["value"]["wins"]
    counted = [int(re.search(r": ([\d,]+) wins", text).group(1).replace(",", "")) for section, text in parts.titles
               if section == "distribution"]
    assert sum(counted) == records_wins  # 血战: every seat's win, more than one a deal
    money = pd.read_parquet(directory / "money.parquet")
    # a bar per room and source for the mean and for the spread, and one per room for the house's take
    assert parts.bars["money"] == 2 * len(money) + money["room"].nunique()
    for name in pd.read_parquet(directory / "fan_frequency.parquet").query("wins_scored > 0")["name"]:
        assert name in page


def test_a_missing_table_leaves_its_section_out_and_unreadable_records_are_said_so(erren_run, tmp_path):
    directory = copy_of(erren_run, tmp_path)
    (directory / "seats.parquet").unlink()
    next((directory / "records").glob("shard-*.parquet")).unlink()
    page = write_report(directory).read_text(encoding="utf-8")
    charts = parts_of(page).charts
    assert "seats" not in charts and charts["fans"] == 1 and charts["distribution"] == 0
    assert "The records could not be read" in page and "--resume" in page


def test_a_directory_without_a_run_is_refused(tmp_path):
    with pytest.raises(ValueError, match="holds no run"):
        write_report(tmp_path)


def test_histogram_bins_keep_every_value_up_to_the_cap_and_pool_the_tail():
    values = np.array([8] * 50 + list(range(8, 31)) * 10 + [200, 300])
    labels, counts = histogram_bins(values)
    assert labels[0] == "8" and labels[-1].startswith(">") and sum(counts) == len(values)
    assert labels[:23] == [str(value) for value in range(8, 31)]  # every integer, none skipped
    powers = np.array([1] * 40 + [2] * 30 + [4] * 20 + [8] * 10 + [16] * 5 + [64] * 500 + [2**20] * 5)
    labels, counts = histogram_bins(powers)
    assert labels[:6] == ["1", "2", "4", "8", "16", "64"] and labels[-1] == ">64" and counts[-1] == 5


def test_report_with_economics_fee_solution_and_calibration_draws_their_charts(erren_run, tmp_path, mjsim):
    directory = copy_of(erren_run, tmp_path)
    code, _, _ = mjsim("economics", str(directory), "--stake", "10", "--stake", "20", "--fee", "0", "--fee", "5",
                       "--fee", "20", "--horizon", "100", "--players", "50")
    assert code == 0
    code, _, _ = mjsim("economics", str(directory), "--solve", "fee", "--target", "median_deals_to_ruin>=20",
                       "--horizon", "100", "--players", "50", "--replicates", "3")
    assert code == 0
    calibration = pd.DataFrame([
        {"player": player, "bucket": f"{tenth * 10}-{tenth * 10 + 10}%", "bucket_low": tenth / 10, "bucket_high": (tenth + 1) / 10,
         "reports": 100, "deals": 40, "mean_chance": tenth / 10 + 0.05, "win_share": tenth / 10 + 0.04 + shift,
         "win_share_low": tenth / 10 + shift, "win_share_high": tenth / 10 + 0.08 + shift, "gap": shift - 0.01,
         "gap_low": shift - 0.05, "gap_high": shift + 0.03, "within": True}
        for player, shift in (("ev:report=1", 0.0), ("value:report=1", 0.02)) for tenth in range(2, 7)
    ], columns=CALIBRATION_COLUMNS)
    write_table(calibration, directory / "calibration.parquet", {"players": ["ev:report=1", "value:report=1"]})
    page = write_report(directory).read_text(encoding="utf-8")
    assert_self_contained(page)
    parts = parts_of(page)
    # house share, ruin and median deals per room; ruin against the fee (a grid); the solved fees
    assert parts.charts["economics"] == 5 and parts.charts["players"] == 2 and parts.charts["calibration"] == 1
    economics = pd.read_parquet(directory / "economics" / "grid-stake10,20-fee0,5,20-horizon100-players50.parquet")
    assert all(f"stake {stake}, purse 100" in page for stake in economics["stake"].unique())
    fees = pd.read_parquet(directory / "economics" / "rooms-solve-median_deals_to_ruin-ge-20-horizon100-players50-replicates3.parquet")
    solved = fees.dropna(subset=["fee"]).iloc[0]
    assert f"{solved['fee']:,.0f} [{solved['fee_low']:,.0f}, {solved['fee_high']:,.0f}]" in page
    assert "median_deals_to_ruin&gt;=20" in page  # the target, escaped, in the caption
    assert_contents_list_every_heading(page)  # the economics section's subsections too
    calibration_svg = page[page.index('id="calibration"'):]
    assert calibration_svg.count('class="point"') == len(calibration) and 'class="diagonal"' in calibration_svg
    assert ">ev<" in page and ">value<" in page  # players by their short names in the legends


def test_league_report_draws_an_n_by_n_heatmap_marking_significant_cells(mjsim, tmp_path):
    out = tmp_path / "league.parquet"
    code, _, _ = mjsim("league", "random", "greedy", "defensive", "--deals", "200", "--out", str(out))
    assert code == 0
    path = write_league_report(out)
    assert path == tmp_path / "league.html"
    page = path.read_text(encoding="utf-8")
    assert_self_contained(page)
    table = pd.read_parquet(out)
    assert page.count('<rect class="cell') == 3 * 3
    assert page.count('<rect class="cell significant"') == int(table["significant"].sum())
    for row in table.itertuples():
        assert f"{row.beans_difference:+.3f}" in page
    assert "random" in page and "defensive" in page


def test_league_report_lists_the_ratings_where_the_table_keeps_each_walls_differences(mjsim, tmp_path):
    out = tmp_path / "league.parquet"
    code, printed, _ = mjsim("league", "random", "greedy", "defensive", "--deals", "100", "--out", str(out), "--ratings")
    assert code == 0
    page = write_league_report(out).read_text(encoding="utf-8")
    assert_self_contained(page)
    assert '<section id="ratings">' in page and "greedy = 0" in page
    for line in printed.split("ratings in")[1].splitlines()[2:]:  # each printed rating and interval is on the page
        name, rating, interval = line.split()[0], line.split()[1], line.split("[")[1].split("]")[0]
        assert f"<td>{name}</td><td>{rating}</td>" in page and f"[{interval}]" in page
    # a league table written before the tables kept each wall's differences: no Ratings section
    metadata = read_metadata(out)
    write_table(pd.read_parquet(out).drop(columns=["difference_by_wall"]), out, metadata["config"])
    assert '<section id="ratings">' not in write_league_report(out).read_text(encoding="utf-8")


def test_report_command_writes_the_page_of_a_run_and_of_a_league(erren_run, mjsim, tmp_path):
    directory = copy_of(erren_run, tmp_path)
    code, out, err = mjsim("report", str(directory))
    assert (code, err) == (0, "") and out == f"wrote {directory / 'report.html'}\n"
    assert '<svg class="chart"' in (directory / "report.html").read_text(encoding="utf-8")
    league = tmp_path / "league.parquet"
    code, out, _ = mjsim("league", "random", "greedy", "--deals", "50", "--out", str(league), "--report")
    assert code == 0 and out.endswith(f"wrote {tmp_path / 'league.html'}\n") and (tmp_path / "league.html").is_file()
    assert mjsim("report", str(league))[0] == 0


def test_run_report_option_writes_the_page_at_the_end(mjsim, tmp_path):
    code, out, err = mjsim("run", "--deals", "60", "--shard-size", "30", "--workers", "1", "--out", str(tmp_path / "run"), "--report")
    assert code == 0, err
    assert out.endswith(f"wrote {tmp_path / 'run' / 'report.html'}\n")


@pytest.mark.parametrize("make", ["nothing", "empty directory", "other table"])
def test_report_of_something_that_is_not_a_run_is_one_error_line(mjsim, tmp_path, make):
    path = tmp_path / "thing"
    if make == "empty directory":
        path.mkdir()
    elif make == "other table":
        path = write_table(pd.DataFrame({"a": [1]}), tmp_path / "other.parquet", {"command": "demo"})
    code, out, err = mjsim("report", str(path))
    assert code == 2 and out == "" and err.startswith("error: ") and len(err.splitlines()) == 1
    assert not list(tmp_path.rglob("*.html"))


# ---- the page in a browser


def find_chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(arguments: list[str], profile: Path) -> subprocess.CompletedProcess:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}"]
    return subprocess.run([find_chromium(), *flags, *arguments], capture_output=True, text=True, timeout=120)


def png_pixels(data: bytes) -> tuple[int, int, list[bytes], int]:
    """A PNG of 8-bit RGB or RGBA, decoded: width, height, its rows of bytes, and bytes per pixel."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, compressed = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
        elif kind == b"IDAT":
            compressed += body
        position += 12 + length
    size = 3 if colour == 2 else 4
    stride = width * size
    raw = zlib.decompress(compressed)
    rows, above = [], bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in (range(stride) if kind else ()):
            left = line[i - size] if i >= size else 0
            up, corner = above[i], above[i - size] if i >= size else 0
            if kind == 1:
                predicted = left
            elif kind == 2:
                predicted = up
            elif kind == 3:
                predicted = (left + up) // 2
            else:  # 4: Paeth, the neighbour nearest to left + up - corner
                guess = left + up - corner
                predicted = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))[2]
            line[i] = (line[i] + predicted) & 0xFF
        rows.append(bytes(line))
        above = line
    return width, height, rows, size


def test_png_decoder_reads_each_filter_type():
    width, size = 3, 3
    pixels = [bytes([10, 20, 30, 40, 50, 60, 70, 80, 90]), bytes([15, 25, 35, 45, 55, 65, 75, 85, 95])] * 3
    encoded = bytearray()
    above = bytes(width * size)
    for kind, row in zip(range(5), pixels):
        out = bytearray()
        for i, value in enumerate(row):
            left = row[i - size] if i >= size else 0
            up, corner = above[i], above[i - size] if i >= size else 0
            guess = left + up - corner
            paeth = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))[2]
            out.append((value - (0, left, up, (left + up) // 2, paeth)[kind]) & 0xFF)
        encoded += bytes([kind]) + out
        above = row

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, 5, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(bytes(encoded))) + chunk(b"IEND", b""))
    assert png_pixels(png) == (width, 5, pixels[:5], size)


@pytest.mark.parametrize("which", ["erren_run", "xuezhan_run"])
def test_report_renders_in_headless_chromium_with_its_charts_drawn(which, request, tmp_path):
    if find_chromium() is None:
        pytest.skip("no Chromium: install Debian's chromium package (apt-get install chromium) to run the report's browser test")
    directory = copy_of(request.getfixturevalue(which), tmp_path)
    report = write_report(directory)
    expected = sum((ERREN_CHARTS if which == "erren_run" else XUEZHAN_CHARTS).values())
    dom = chromium(["--dump-dom", report.as_uri()], tmp_path / "profile").stdout
    assert dom.count('<svg class="chart"') == expected
    assert dom.count('<rect class="bar"') > 30 and dom.count('<path class="interval"') > 10
    screenshot = tmp_path / "report.png"
    chromium([f"--screenshot={screenshot}", "--window-size=1200,3000", report.as_uri()], tmp_path / "profile")
    width, height, rows, size = png_pixels(screenshot.read_bytes())
    assert (width, height) == (1200, 3000)
    pixels = [row[i:i + 3] for row in rows[::4] for i in range(0, len(row), 4 * size)]
    colours = set(pixels)
    ink = sum(1 for pixel in pixels if min(pixel) < 235) / len(pixels)
    # text, grid lines and bars in several colours: a blank or failed page would be one colour
    assert len(colours) > 50 and ink > 0.03, (len(colours), ink)
    blue = sum(1 for pixel in pixels if pixel[2] > 150 and pixel[0] < 60)  # the charts' first colour, #0072b2
    assert blue / len(pixels) > 0.002


class DevTools:
    """Headless Chromium driven over its DevTools protocol (JSON messages ending in a NUL on the pipe of
    --remote-debugging-pipe: it reads file descriptor 3 and writes 4): what the browser drew with which font
    (CSS.getPlatformFontsForNode), and scripts run in the page after events it reports, never after a sleep."""

    def __init__(self, profile: Path, timeout: float = 120):
        to_browser, self._to_browser = os.pipe()
        self._from_browser, from_browser = os.pipe()
        # The browser's ends, moved above 4 so that putting them on 3 and 4 cannot overwrite one of them; bash,
        # not a preexec_fn, puts them there (a preexec_fn can deadlock in a process with threads, as xdist's are).
        reading, writing = (fcntl.fcntl(end, fcntl.F_DUPFD, 5) for end in (to_browser, from_browser))
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--remote-debugging-pipe", f"--user-data-dir={profile}"]
        self.process = subprocess.Popen(["bash", "-c", f'exec "$0" "$@" 3<&{reading} 4>&{writing}', find_chromium(), *flags,
                                         "about:blank"], pass_fds=(reading, writing), stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for end in (to_browser, from_browser, reading, writing):
            os.close(end)
        self.deadline = time.monotonic() + timeout  # for the whole conversation: a hung browser fails the test
        self._buffer, self._last_id, self._events, self.session = b"", 0, [], None

    def close(self):
        """Close the browser (its helper processes with it), killing it if it does not go."""
        try:
            self.call("Browser.close")
            self.process.wait(timeout=30)
        except (AssertionError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)

    def call(self, method: str, **params):
        self._last_id += 1
        message = {"id": self._last_id, "method": method, "params": params}
        if self.session is not None and not method.startswith(("Target.", "Browser.")):  # the page's, not the browser's
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive()
            if reply.get("id") == self._last_id:
                assert "error" not in reply, (method, reply["error"])
                return reply["result"]
            self._events.append(reply)

    def wait_for(self, event: str) -> dict:
        while True:
            for index, message in enumerate(self._events):
                if message.get("method") == event:
                    return self._events.pop(index)
            self._events.append(self._receive())

    def open(self, url: str, width: int, height: int):
        """Open `url` in a new tab of `width` x `height` pixels and return once its load event has fired."""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.call("Page.enable")
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str):
        """The value of `expression` in the page; a promise is waited for."""
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"]["value"]

    def _receive(self) -> dict:
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._from_browser], [], [], max(0.0, self.deadline - time.monotonic()))
            assert ready, "Chromium did not answer in time"
            chunk = os.read(self._from_browser, 1 << 16)
            assert chunk, "Chromium closed its end of the pipe"
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)


# Run in the page once its fonts are ready (document.fonts.ready: the embedded font parsed and laid out): the
# page's and each table box's widths, where every internal link leads, the embedded face's state, and the text
# of each element of CHINESE_SELECTOR that holds only text ("" for the others), in order.
CHINESE_SELECTOR = "h1, td, th, svg text, figcaption, .note"
MEASURE = """document.fonts.ready.then(() => ({
  pageWidth: document.documentElement.scrollWidth,
  tooWide: [...document.querySelectorAll(".scroll")].filter(box => box.scrollWidth > box.clientWidth).map(box => box.outerHTML.slice(0, 300)),
  links: [...document.querySelectorAll('a[href^="#"]')].map(link => {
    const target = document.getElementById(link.getAttribute("href").slice(1));
    return [link.getAttribute("href"), target ? target.tagName.toLowerCase() : null, link.textContent.trim(),
            target ? (target.querySelector("h2") || target).textContent.trim() : null];
  }),
  faces: [...document.fonts].map(face => [face.family, face.status]),
  texts: [...document.querySelectorAll(SELECTOR)].map(element => element.children.length ? "" : element.textContent),
}))""".replace("SELECTOR", json.dumps(CHINESE_SELECTOR))


def chinese_count(text: str) -> int:
    return sum(1 for character in text if ord(character) > 0x2E7F and unicodedata.east_asian_width(character) in "WF")


def test_report_in_chromium_draws_its_chinese_with_its_own_font_links_resolve_and_nothing_is_wider_than_1280_px(
        erren_run, tmp_path, mjsim):
    if find_chromium() is None:
        pytest.skip("no Chromium: install Debian's chromium package (apt-get install chromium) to run the report's browser test")
    directory = copy_of(erren_run, tmp_path)
    # the widest tables: economics on a stake x fee grid, the solved fees
    assert mjsim("economics", str(directory), "--stake", "10", "--stake", "20", "--fee", "0", "--fee", "5",
                 "--horizon", "100", "--players", "50")[0] == 0
    assert mjsim("economics", str(directory), "--solve", "fee", "--target", "median_deals_to_ruin>=20",
                 "--horizon", "100", "--players", "50", "--replicates", "3")[0] == 0
    report = write_report(directory)
    browser = DevTools(tmp_path / "profile")
    try:
        browser.open(report.as_uri(), 1280, 900)
        page = browser.evaluate(MEASURE)
        assert page["pageWidth"] <= 1280 and page["tooWide"] == [], page["tooWide"]
        assert ["mjsim CJK", "loaded"] in page["faces"]
        sections = {href for href, tag, _, _ in page["links"] if tag == "section"}
        assert {"#configuration", "#fans", "#money", "#economics"} <= sections
        for href, tag, link_text, heading in page["links"]:  # each link leads to the heading it names
            assert tag in ("section", "h3") and link_text == heading, (href, tag, link_text, heading)
        # Which font drew each Chinese text: the embedded face (a web font, "custom") drew every Chinese glyph,
        # whatever CJK fonts the system has; a missing glyph would be drawn by a system font, or none.
        browser.call("DOM.enable")
        browser.call("CSS.enable")
        root = browser.call("DOM.getDocument", depth=-1)["root"]["nodeId"]
        nodes = browser.call("DOM.querySelectorAll", nodeId=root, selector=CHINESE_SELECTOR)["nodeIds"]
        assert len(nodes) == len(page["texts"])
        checked = []
        for node, text in zip(nodes, page["texts"]):
            if chinese_count(text):
                fonts = browser.call("CSS.getPlatformFontsForNode", nodeId=node)["fonts"]
                embedded = sum(font["glyphCount"] for font in fonts if font["isCustomFont"])
                assert embedded == chinese_count(text), (text, fonts)
                assert {font["familyName"] for font in fonts if font["isCustomFont"]} == {"Noto Sans CJK SC"}
                checked.append(text)
    finally:
        browser.close()
    fans = pd.read_parquet(directory / "fan_frequency.parquet").sort_values("per_win", ascending=False)
    top = fans.iloc[0]
    assert f"{top['name']} ({top['value']:g})" in checked  # the most frequent fan's label in the chart
    assert any("二人麻将" in text for text in checked) and any("初级场" in text for text in checked)

"""One self-contained HTML page per run directory (``write_report``) and per league table
(``write_league_report``).

A run's page shows, each only where the directory holds its table: the configuration and provenance, the
outcomes, the fan frequencies, the distribution of win values (from the per-deal records), the money per
room (二人 beans.parquet, 血战 money.parquet), the win rates and money per seat, the room economics and
solved fees, each player's economics, and the calibration of reported chances of winning. A league's page
shows the matrix of mean differences as a heatmap, and the rating list where the table holds each wall's
differences (``analysis.ratings``).

The page needs nothing outside itself: CSS inline, charts as inline SVG (analysis.svg_charts), the CJK font
of its Chinese names inline (analysis.report_font), no scripts, and a Content-Security-Policy that forbids the
browser any other request. A table of contents links to every section, and the tables fit the page's width
(headers wrap; a figure and its interval may take two lines). Money charts of several rooms are
drawn in stakes, so that a room of stake 1 and one of stake 6,250 share an axis; their tooltips give the
figures in the rooms' own currency.
"""

import datetime
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from analysis import compare, report_font
from analysis import svg_charts as charts
from analysis.leagues import league_matrix
from analysis.player_faults import COLUMN_PREFIX as FAULT_PREFIX
from analysis.player_faults import fault_counts, format_faults
from analysis.rating_inputs import LEAGUE_WALLS_COLUMN, league_pairings, rating_list, table_of
from analysis.ratings import RESAMPLES as RATING_RESAMPLES
from analysis.ratings import SEED as RATING_SEED
from analysis.svg_charts import escape
from sim.core.result_files import read_metadata, require_regular_file, write_text_atomically
from sim.core.ruleset import RulesetError, parse_ruleset_text
from sim.core.run_directory import RunError
from sim.core.run_records import load_run, read_records, read_run_file
from sim.families import default_texts, family_of
from sim.players.player_text import players_label

REPORT_FILE = "report.html"
TOP_FANS = 25
HISTOGRAM_BARS = 60  # the last of them pools every larger value
# The embedded font comes first. It has only the page's CJK characters, so Latin text falls through to the
# system's fonts; and named after a Latin font, Chromium drew the page's first Chinese text in boxes (laid out
# while the font loaded, and not again). The CJK fonts after it serve characters outside it, where the system has one.
FONTS = (f'"{report_font.FAMILY}", system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", '
         '"Source Han Sans SC", "PingFang SC", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif')
STYLE = f"""
body {{ font-family: {FONTS}; color: #222; background: #fff; margin: 0; line-height: 1.45; }}
main {{ max-width: 1180px; margin: 0 auto; padding: 16px 24px 48px; }}
h1 {{ font-size: 1.6em; margin: .6em 0 .2em; overflow-wrap: anywhere; }}
h2 {{ font-size: 1.25em; border-bottom: 1px solid #ddd; padding-bottom: .2em; margin-top: 2em; }}
nav.contents {{ background: #f7f7f7; border: 1px solid #e2e2e2; padding: .5em 1em; margin: 1em 0; font-size: .92em; }}
nav.contents > ol {{ columns: 3 15em; margin: .3em 0; padding-left: 1.4em; }}
nav.contents li {{ break-inside: avoid; }}
nav.contents ol ol {{ padding-left: 1.2em; font-size: .95em; }}
table {{ border-collapse: collapse; margin: .5em 0 1em; font-size: .88em; }}
th, td {{ padding: .25em .55em; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }}
th {{ border-bottom: 1px solid #bbb; vertical-align: bottom; min-width: 4em; }}
td:not(:first-child), th:not(:first-child) {{ text-align: right; font-variant-numeric: tabular-nums; }}
td:not(:first-child) {{ white-space: nowrap; }}
td.split {{ white-space: normal; }}
td.split span {{ white-space: nowrap; }}
table.facts td:not(:first-child), table.facts th {{ text-align: left; white-space: normal; overflow-wrap: anywhere; }}
.scroll {{ overflow-x: auto; max-width: 100%; }}
h3 {{ font-size: 1.05em; margin-top: 1.5em; }}
figure {{ margin: 1em 0 2em; }}
figcaption {{ color: #555; font-size: .9em; max-width: 760px; margin-top: .3em; }}
svg.chart {{ display: block; max-width: 100%; height: auto; }}
.note {{ color: #666; font-size: .9em; max-width: 900px; }}
"""


class ReportError(ValueError):
    """A run directory or table whose page cannot be written: it is not what mjsim wrote, or not whole."""


def write_report(directory: Path, comparison=None) -> Path:
    """Write ``directory/report.html``, the page of the run in `directory` (module text), and return its path;
    with `comparison` (``analysis.compare.Comparison`` of another run with this one), a Comparison section too."""
    directory = Path(directory)
    tables = {path.stem: path for path in sorted(directory.glob("*.parquet"))}
    run_file = directory / "run.json"
    if not tables and not run_file.is_file():
        raise ReportError(f"{directory} holds no run: neither run.json nor any Parquet table")
    run = read_run_file(directory) if run_file.exists() else {}
    configs = {name: _run_table_config(path) for name, path in tables.items()}
    config = {**next(iter(configs.values()), {}), **run}
    ruleset = _ruleset(config)
    currency = _currency(ruleset, tables)
    frames = {name: _read_table(path) for name, path in tables.items()}

    def section(names: tuple[str, ...], build, *arguments) -> str:
        """A section built from the tables `names`; one ReportError naming them if one is not as a run writes it
        (hand-edited, or from another version), rather than a page that fails halfway."""
        try:
            return build(*arguments)
        except ReportError:
            raise
        except (KeyError, AttributeError, IndexError, TypeError, ValueError) as error:
            files = ", ".join(f"{name}.parquet" for name in names if name in tables or "/" in name) or "run.json"
            raise ReportError(f"{directory}: {files} not as mjsim run writes it ({type(error).__name__}: "
                              f"{str(error)[:200]}); mjsim analyze {directory} writes the run's tables again") from None

    sections = [section(("beans", "money", "seats"), _header, directory, config, ruleset, tables)]
    if "outcomes" in frames:
        sections.append(section(("outcomes", "wins"), _outcomes_section, frames["outcomes"], frames.get("wins")))
    if "fan_frequency" in frames:
        sections.append(section(("fan_frequency",), _fans_section, frames["fan_frequency"]))
    if run_file.is_file() and (directory / "records").is_dir():
        records, problem = _records(directory)
        sections.append(_distribution_section(records, problem))
        faults = format_faults(fault_counts(records), config.get("players", []), len(records)) if records is not None else ""
        if faults:
            sections.append(_section("faults", "Player faults", f'<p class="note">{escape(faults.strip())}</p>'))
    if "beans" in frames:
        sections.append(section(("beans",), _money_section, frames["beans"], "role", currency))
    elif "money" in frames:
        sections.append(section(("money",), _money_section, frames["money"], "source", currency))
    if "seats" in frames:
        rooms = configs["seats"].get("rooms", [])
        sections.append(section(("seats",), lambda: _seats_section(frames["seats"], {room["name"]: room["stake"] for room in rooms}, currency)))
    scenarios = section(ECONOMICS_FILES, economics_scenarios, directory, frames, tables)
    if scenarios:
        sections.append(section(ECONOMICS_FILES, _economics_section, scenarios, currency))
    if any(scenario.by_player is not None for scenario in scenarios):
        sections.append(section(ECONOMICS_FILES, _players_section, scenarios, currency))
    if "calibration" in frames:
        sections.append(section(("calibration",), _calibration_section, frames["calibration"]))
    if comparison is not None:
        sections.append(_comparison_section(comparison))
    title = f"mjsim run {directory.resolve().name}"
    if isinstance(config.get("players"), list) and config["players"]:
        title += f": {_ruleset_id(config, ruleset)}, {players_label(config['players'], _defaults(ruleset))}"
    return write_text_atomically(directory / REPORT_FILE, _page(title, sections))


def _read_table(path: Path) -> pd.DataFrame:
    try:
        return pd.read_parquet(require_regular_file(path))
    except (OSError, ValueError, pa.ArrowException) as error:  # pyarrow's damage is one of these
        raise ReportError(f"{path}: unreadable as a table ({str(error).splitlines()[0] if str(error) else type(error).__name__})") from None


LEAGUE_COLUMNS = {"player", "opponent", "beans_difference", "low", "high", "z", "p_value", "significant", "win_rate"}


def _run_table_config(path: Path) -> dict:
    """The configuration a run's table carries, checked: a table a run wrote, not another command's."""
    try:
        metadata = read_metadata(path)
    except Exception as error:  # noqa: BLE001  (not Parquet, or damaged: pyarrow has several exception types)
        raise ReportError(f"{path}: unreadable as a table ({str(error).splitlines()[0] if str(error) else type(error).__name__})") from None
    config = metadata.get("config")
    if not isinstance(config, dict):
        raise ReportError(f"{path} carries no run configuration in its metadata; it was not written by mjsim run")
    if "command" in config:
        raise ReportError(f"{path} was written by mjsim {str(config['command'])[:40]}, not by a run; it does not belong "
                          f"in a run directory")
    return config


def write_league_report(table_path: Path) -> Path:
    """Write the page of a league table (``mjsim league --out``) beside it, as .html, and return its path."""

    table_path = Path(table_path)
    table, metadata = _read_table(table_path), read_metadata(table_path)
    config = metadata.get("config")
    if not isinstance(config, dict) or config.get("command") != "league":
        raise ReportError(f"{table_path} is not a league table written by mjsim league --out")
    missing = LEAGUE_COLUMNS - set(table.columns)
    if missing:
        raise ReportError(f"{table_path} says it is a league table but lacks its columns {', '.join(sorted(missing))}")
    ruleset = _ruleset(config)
    currency = _currency(ruleset, {})
    matrix = league_matrix(table)
    players = list(matrix.index)
    names = short_player_names(players)
    significant = table.set_index(["player", "opponent"])["significant"]
    values = [[math.nan if row == column else float(matrix.loc[row, column]) for column in players] for row in players]
    marked = [[row != column and bool(significant.get((row, column), False)) for column in players] for row in players]
    texts = [[("—" if row == column else f"{value:+.3f}{' *' if mark else ''}") for column, value, mark in
              zip(players, value_row, mark_row)] for row, value_row, mark_row in zip(players, values, marked)]
    tips = [[f"{names[row]} less {names[column]}: {_interval_text(table, row, column)}" for column in players] for row in players]
    heat = charts.heatmap([names[player] for player in players], [names[player] for player in players], values, marked,
                          value_texts=texts, tooltips=tips, label="league matrix")
    caption = (f"Each row player's mean {currency} per deal less the column player's, over {_number(config.get('deals'))} "
               f"walls per pair played on duplicate deals; blue: the row player is ahead, red: behind. Cells marked "
               f"with a border and * are significant at 5%.")
    pairs = table[table["beans_difference"] >= 0].sort_values("beans_difference", ascending=False)
    rows = [[names[row.player], names[row.opponent], f"{row.beans_difference:+.3f}", f"[{row.low:+.3f}, {row.high:+.3f}]",
             f"{row.z:.2f}", f"{row.p_value:.3g}", "yes" if row.significant else "no", share(row.win_rate)]
            for row in pairs.itertuples()]
    facts = [("ruleset", _ruleset_text(config, ruleset)), ("players", ", ".join(players)),
             ("walls per pair", _number(config.get("deals"))), ("seed", str(config.get("seed", ""))),
             ("room", f"{config.get('room', '')} (stake {config.get('stake', '')}, fee {config.get('fee', '')})"),
             ("versions", _versions_text(metadata.get("versions", {}))), ("report written", _today())]
    body = [_section("configuration", "League", _facts(facts)),
            _section("matrix", "Mean difference per pair", _figure(heat, caption) + _table(
                ["player", "opponent", "difference", "95% interval", "z", "p", "significant", "player's win rate"], rows))]
    if LEAGUE_WALLS_COLUMN in table.columns:
        body.append(_ratings_section(table, config, table_path, currency))
    return write_text_atomically(table_path.with_suffix(".html"), _page(f"mjsim league {table_path.stem}", body))


def _ratings_section(table: pd.DataFrame, config: dict, table_path: Path, currency: str) -> str:
    """The league's rating list (``analysis.ratings``) as a chart of ratings with their intervals and a table."""
    try:
        rated_at = table_of(config, str(table_path))
        pairings, adjusted = league_pairings(table, config, str(table_path))
        ratings, _ = rating_list(rated_at, pairings, None, RATING_RESAMPLES, RATING_SEED)
    except ValueError as error:  # RatingInputError, RatingsError
        raise ReportError(f"{table_path}: its per-wall differences give no rating list ({error})") from None
    per = "per deal" if rated_at.seats == 2 else "per seat and deal"
    names = ratings.players
    texts = [f"{rating:+.3f} [{low:+.3f}, {high:+.3f}]" for rating, low, high in zip(ratings.rating, ratings.low, ratings.high)]
    chart = charts.bar_chart(names, list(ratings.rating), list(ratings.low), list(ratings.high), value_texts=texts,
                             axis_label=f"rating: {currency} {per} against {ratings.anchor}")
    luck = f" ({adjusted} of the pairs luck-adjusted)" if adjusted else ""
    caption = (f"Each player's rating in {currency} {per}, {ratings.anchor} = 0: the least-squares fit of every "
               f"pair's mean difference{luck}; whiskers: 95% intervals from {RATING_RESAMPLES:,} bootstrap resamples "
               f"of the walls (seed {RATING_SEED}), every pair resampled on the same walls.")
    rows = [[name, f"{rating:+.3f}", f"[{low:+.3f}, {high:+.3f}]", _number(walls)]
            for name, rating, low, high, walls in zip(names, ratings.rating, ratings.low, ratings.high, ratings.walls)]
    return _section("ratings", "Ratings", _figure(chart, caption) + _table(["player", "rating", "95% interval", "walls"], rows))


def short_player_names(players) -> dict:
    """Each player text's name before its settings ("ev" for "ev:claim=1,..."), where that keeps them apart."""
    short = {text: str(text).split(":")[0] for text in players}
    return short if len(set(short.values())) == len(short) else {text: str(text) for text in players}


def share(value: float) -> str:
    """A share as a percentage: two decimals, or three significant digits below 1% (never an exponent)."""
    if value is None or not math.isfinite(value):
        return "—"
    percent = value * 100
    decimals = 2 if abs(percent) >= 1 or percent == 0 else min(10, 2 - math.floor(math.log10(abs(percent))))
    return f"{percent:.{decimals}f}%"


def amount(value: float, currency: str) -> str:
    """An amount of money in words: "40 beans", "1,200 points"; 血战's money has no unit to name."""
    return _number(value) if currency == "money" else f"{_number(value)} {currency}"


def _number(value) -> str:
    if value is None or isinstance(value, str):
        return "" if value is None else value
    if not math.isfinite(value):
        return "—" if math.isnan(value) else ("∞" if value > 0 else "-∞")
    if float(value).is_integer() or abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:,.2f}" if abs(value) >= 1 else f"{value:.3g}"


def _today() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _defaults(ruleset) -> dict | None:
    """The default texts of the ruleset's family's built-in players (sim.families.default_texts), or None
    where the run's ruleset could not be read back."""
    return default_texts(ruleset) if ruleset is not None else None


def _ruleset(config: dict):
    """The run's ruleset, built from the text the run kept (so a since-edited file does not matter), or None."""
    source = config.get("ruleset_source")
    try:
        return parse_ruleset_text(source, str(config.get("ruleset"))) if isinstance(source, str) and source else None
    except RulesetError:
        return None


def _currency(ruleset, tables: dict) -> str:
    if ruleset is not None:
        return family_of(ruleset).currency_for(ruleset)
    return "money" if "money" in tables else "beans"


def _ruleset_id(config: dict, ruleset) -> str:
    return ruleset.id if ruleset is not None else Path(str(config.get("ruleset", "unknown"))).stem


def _ruleset_text(config: dict, ruleset) -> str:
    if ruleset is None:
        return str(config.get("ruleset", "unknown"))
    return f"{ruleset.id}: {ruleset.name} (seed {ruleset.seed}, {ruleset.family} family)"


def _versions_text(versions: dict) -> str:
    return ", ".join(f"{name} {version}" for name, version in sorted(versions.items()))


def _interval_text(table: pd.DataFrame, player: str, opponent: str) -> str:
    row = table[(table["player"] == player) & (table["opponent"] == opponent)]
    if row.empty:
        return "the same player"
    row = row.iloc[0]
    verdict = "significant" if row["significant"] else "not significant"
    return f"{row['beans_difference']:+.4f} [{row['low']:+.4f}, {row['high']:+.4f}], z = {row['z']:.2f}, p = {row['p_value']:.3g}, {verdict}"


def _page(title: str, sections: list[str]) -> str:
    contents, sections = _contents(sections)
    text = title + "".join(sections)
    outside = report_font.missing(text)
    if outside:
        sections.append(f'<p class="note">These characters of the page are not in its embedded font, and show only where '
                        f'the system has a font for them: {escape("".join(outside))}</p>')
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        # Nothing may be fetched: the page must read the same offline, and years later. Its font is a data: URL.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; font-src data:\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{escape(title)}</title>\n<style>{report_font.font_face(text)}{STYLE}</style>\n</head>\n<body>\n<main>\n"
        f"<h1>{escape(title)}</h1>\n{contents}\n" + "\n".join(sections) + "\n</main>\n</body>\n</html>\n"
    )


SECTION_HEADING = re.compile(r'<section id="([^"]+)">\n<h2>(.*?)</h2>')  # as _section writes them
SUBSECTION_HEADING = re.compile(r'<h3(?: id="([^"]*)")?>(.*?)</h3>')


def _contents(sections: list[str]) -> tuple[str, list[str]]:
    """The table of contents of `sections`: a link to each section and to each of its subsections (h3), and
    the sections again, every h3 given the anchor its link names (``<section id>-<n>`` where it had none)."""
    entries, anchored = [], []
    for section in sections:
        heading = SECTION_HEADING.match(section)
        if heading is None:  # a note between sections, not a section
            anchored.append(section)
            continue
        identifier, title = heading.groups()
        links = []

        def anchor(subsection):
            name = subsection[1] or f"{identifier}-{len(links) + 1}"
            links.append(f'<li><a href="#{name}">{subsection[2]}</a></li>')
            return f'<h3 id="{name}">{subsection[2]}</h3>'

        anchored.append(SUBSECTION_HEADING.sub(anchor, section))
        inner = f"<ol>{''.join(links)}</ol>" if links else ""
        entries.append(f'<li><a href="#{identifier}">{title}</a>{inner}</li>')
    return f'<nav class="contents" aria-label="Contents"><strong>Contents</strong>\n<ol>{"".join(entries)}</ol></nav>', anchored


def _section(identifier: str, title: str, body: str) -> str:
    return f'<section id="{escape(identifier)}">\n<h2>{escape(title)}</h2>\n{body}\n</section>'


def _figure(svg: str, caption: str) -> str:
    return f"<figure>\n{svg}\n<figcaption>{escape(caption)}</figcaption>\n</figure>\n"


def _table(header: list[str] | None, rows: list[list[str]], css_class: str = "") -> str:
    """A table in its scrolling box (for a table wider than the page, the last resort: headers wrap first, and
    a figure with its interval, "12.0% [10.1%, 14.2%]", may break before the interval)."""
    head = "" if header is None else "<thead><tr>" + "".join(f"<th>{escape(cell)}</th>" for cell in header) + "</tr></thead>\n"
    body = "\n".join("<tr>" + "".join(_cell(cell) for cell in row) + "</tr>" for row in rows)
    attribute = f' class="{css_class}"' if css_class else ""
    return f'<div class="scroll"><table{attribute}>\n{head}<tbody>\n{body}\n</tbody>\n</table></div>\n'


FIGURE_AND_INTERVAL = re.compile(r"(\S+) (\[[^\]]+\])")


def _cell(text: str) -> str:
    """A cell; a figure with its interval may break between the two, never inside either."""
    split = FIGURE_AND_INTERVAL.fullmatch(str(text))
    if split is None:
        return f"<td>{escape(text)}</td>"
    return f'<td class="split"><span>{escape(split[1])}</span> <span>{escape(split[2])}</span></td>'


def _facts(pairs: list[tuple[str, str]]) -> str:
    """A table of named facts (the configuration): a name and its value per row, no header."""
    return _table(None, [[name, value] for name, value in pairs], "facts")


def _header(directory: Path, config: dict, ruleset, tables: dict) -> str:
    facts = [("ruleset", _ruleset_text(config, ruleset))]
    if isinstance(config.get("players"), list) and config["players"]:
        facts.append(("players", players_label(config["players"], _defaults(ruleset))))
    facts += [(f"seat {seat}", str(player)) for seat, player in enumerate(config.get("players", []))]
    facts += [(name.replace("_", " "), _number(config[name])) for name in ("deals", "seed", "shard_size", "session_length") if name in config]
    facts.append(("source hash", str(config.get("source_hash", "not recorded"))))
    by_versions = {}
    for name, path in tables.items():
        by_versions.setdefault(_versions_text(read_metadata(path).get("versions", {})), []).append(name)
    for text, names in by_versions.items():
        facts.append(("versions" if len(by_versions) == 1 else f"versions of {', '.join(names)}", text))
    facts.append(("report written", _today()))
    rooms = next((read_metadata(tables[name])["config"].get("rooms") for name in ("beans", "money", "seats") if name in tables), None)
    body = _facts(facts)
    if rooms:
        body += "<p class=\"note\">Rooms of the money tables:</p>\n" + _table(
            ["room", "stake", "fee", "min entry", "max entry"],
            [[room["name"], _number(room["stake"]), _number(room["fee"]), _number(room["min_entry"]),
              _number(room["max_entry"]) if room["max_entry"] else "no limit"] for room in rooms])
    return _section("configuration", "Configuration and provenance", body)


def _outcomes_section(outcomes: pd.DataFrame, wins: pd.DataFrame | None) -> str:
    def shown(name, value):
        return share(value) if "share" in name else _number(value)

    rows = [[row.statistic.replace("_", " "), shown(row.statistic, row.value),
             "" if pd.isna(row.low) else f"[{shown(row.statistic, row.low)}, {shown(row.statistic, row.high)}]"]
            for row in outcomes.itertuples()]
    body = _paid_per_win_note(outcomes.set_index("statistic")["value"]) + _table(["statistic", "value", "95% interval"], rows)
    if wins is not None:
        body += "<p class=\"note\">Wins by type (money per win in units of the stake; value: the win's raw value):</p>\n" + _table(
            ["win type", "wins", "mean money", "median", "90%", "mean value", "mean payers"],
            [[row.win_type.replace("_", " "), _number(row.count), _number(row.mean), _number(row.q50), _number(row.q90),
              _number(row.mean_value), _number(row.mean_payers)] for row in wins.itertuples()])
    return _section("outcomes", "Outcomes", body)


def _paid_per_win_note(outcomes: pd.Series) -> str:
    """The value of a win beside what it is paid, in a sentence (tables written before `mean_paid_per_win`: none)."""
    if "mean_paid_per_win" not in outcomes:
        return ""
    paid = _number(outcomes["mean_paid_per_win"])
    if "mean_fan_total" not in outcomes:  # 血战
        text = (f"Mean win value {_number(outcomes['mean_win_value'])} units; paid per win {paid} units: what all the "
                "win's payers paid for it (the value capped per payer, times the payers).")
    elif "mean_points" in outcomes:
        text = (f"Mean fan total {_number(outcomes['mean_fan_total'])}; paid per win {paid} points: a win is priced in "
                "points, not in fans.")
    else:
        text = (f"Mean fan total {_number(outcomes['mean_fan_total'])} (flowers aside, before doubling); paid per win "
                f"{paid} per stake: the loser pays (fans + the winner's flowers) × 2^doubles.")
    return f'<p class="note">{escape(text)}</p>\n'


def _fans_section(fans: pd.DataFrame) -> str:
    scored = fans[fans["wins_scored"] > 0].sort_values("per_win", ascending=False)
    top = scored.head(TOP_FANS)
    labels = [f"{row.name} ({row.value:g})" for row in top.itertuples()]
    tips = [f"{row.name} ({row.fan}, value {row.value:g}): {share(row.per_win)} of wins [{share(row.per_win_low)}, "
            f"{share(row.per_win_high)}], {row.wins_scored:,} wins; {share(row.per_deal)} of deals" for row in top.itertuples()]
    chart = charts.bar_chart(labels, top["per_win"], top["per_win_low"], top["per_win_high"],
                             value_texts=[share(value) for value in top["per_win"]], tooltips=tips,
                             axis_label="share of wins scoring the fan", percent=True)
    caption = (f"The {len(top)} most frequent of the {len(scored)} fans scored in this run (of {len(fans)} in the ruleset), "
               "by share of wins; in brackets each fan's value; whiskers: 95% Wilson interval.")
    return _section("fans", "Fan frequencies", _figure(chart, caption))


def _is_read_column(name: str) -> bool:
    """The record columns the page reads (``_win_values``, the player faults): a run of millions of deals is
    read in a fraction of its size."""
    return name in ("winner", "fan_total") or name.startswith(("win_order_", "fan_value_", FAULT_PREFIX))


def _win_values(records: pd.DataFrame) -> tuple[np.ndarray, str]:
    """Every win's value and what it is: the fan total (二人) or the raw win value of each seat's win (血战)."""
    if "fan_total" in records:
        return records.loc[records["winner"] >= 0, "fan_total"].to_numpy(), "fan total of each win (before doubling, without flowers)"
    seats = sum(1 for name in records.columns if name.startswith("win_order_"))
    values = [records.loc[records[f"win_order_{seat}"] > 0, f"fan_value_{seat}"].to_numpy() for seat in range(seats)]
    return np.concatenate(values) if values else np.zeros(0), "raw value of each win (fan_value), every seat's win counted"


def histogram_bins(values: np.ndarray) -> tuple[list[str], list[int]]:
    """Labels and counts: a bar per value up to about the 99th percentile, the rest pooled in a last bar.
    Values are integers; where the range up to the cap is short every integer gets a bar (zeros shown),
    else only the values that occur (血战's powers of two)."""
    values = np.asarray(values).astype(np.int64)
    if values.size == 0:
        return [], []
    distinct, occurrences = np.unique(values, return_counts=True)
    cap = int(min(np.quantile(values, 0.99, method="higher"), distinct[min(len(distinct), HISTOGRAM_BARS - 1) - 1]))
    low = int(values.min())
    shown = np.arange(low, cap + 1) if cap - low + 1 <= HISTOGRAM_BARS - 1 else distinct[distinct <= cap]
    found = dict(zip(distinct.tolist(), occurrences.tolist()))
    counts = [found.get(value, 0) for value in shown.tolist()]
    labels = [str(value) for value in shown]
    beyond = int(np.count_nonzero(values > cap))
    if beyond:
        labels.append(f">{cap}")
        counts.append(beyond)
    return labels, counts


def _records(directory: Path) -> tuple[pd.DataFrame | None, str]:
    """The columns of the run's records the page reads, or None and why they cannot be read."""
    try:
        return read_records(directory, *load_run(directory), wanted=_is_read_column), ""
    except (RunError, RulesetError, OSError) as error:
        return None, str(error)


def _distribution_section(records: pd.DataFrame | None, problem: str) -> str:
    if records is None:
        # A run whose records cannot be read (damaged, played on other rules) still gets the rest of its page.
        return _section("distribution", "Distribution of win values", f'<p class="note">The records could not be read: {escape(problem)}</p>')
    values, what = _win_values(records)
    labels, counts = histogram_bins(values)
    total = max(sum(counts), 1)
    tips = [f"{label}: {count:,} wins ({count / total:.2%})" for label, count in zip(labels, counts)]
    chart = charts.histogram(labels, counts, x_label=what, y_label="share of wins", tooltips=tips)
    mean = f", mean {values.mean():.2f}" if values.size else ""
    caption = (f"Share of the run's {values.size:,} wins by {what}{mean}; the last bar pools the values above about "
               "the 99th percentile.")
    return _section("distribution", "Distribution of win values", _figure(chart, caption))


def _stakes_unit(frame: pd.DataFrame, currency: str) -> str:
    return currency if (frame["stake"] == 1).all() else "stakes"


def _money_section(frame: pd.DataFrame, kind: str, currency: str) -> str:
    """Money per deal by room and role (二人: winner, loser, draw) or source (血战: all, win, kong, ...)."""
    rooms, parts = list(dict.fromkeys(frame["room"])), list(dict.fromkeys(frame[kind]))
    indexed = frame.set_index(["room", kind])
    unit = _stakes_unit(frame, currency)

    def grid(function):
        return [[function(indexed.loc[(room, part)]) for room in rooms] for part in parts]

    def tip(row):
        quantiles = ", ".join(_number(row[name]) for name in ("q01", "q10", "q50", "q90", "q99"))
        return (f"{row.name[0]}, {row.name[1]}: mean {row['mean']:+,.2f} {currency} ({row['mean'] / row['stake']:+.3f} stakes), "
                f"quantiles 1/10/50/90/99%: {quantiles}; {row['count']:,} deals")

    chart = charts.grouped_bar_chart(
        rooms, parts, grid(lambda row: row["mean"] / row["stake"]), grid(lambda row: row["q10"] / row["stake"]),
        grid(lambda row: row["q90"] / row["stake"]), value_texts=grid(lambda row: f"{row['mean'] / row['stake']:+.2f}"),
        tooltips=grid(tip), axis_label=f"change per deal, {unit}")
    if kind == "role":
        who, fee_note = "the winner, the loser, and each player of a drawn deal", "each player's fee is taken in every role"
    else:
        who, fee_note = "a seat, in all and by source", "the fee is in 'all' only, not in the sources"
    caption = f"Mean change per deal of {who}, in each room, in {unit} ({fee_note}); whiskers: the 10% to 90% quantiles."
    by_room = frame.drop_duplicates("room")
    house = charts.bar_chart(by_room["room"], by_room["house_per_deal"] / by_room["stake"],
                             value_texts=[amount(value, currency) for value in by_room["house_per_deal"]],
                             tooltips=[f"{row.room}: {amount(row.house_per_deal, currency)} a deal (stake {row.stake}, fee {row.fee})"
                                       for row in by_room.itertuples()], axis_label=f"house take per deal, {unit}")
    rows = [[row.room, _number(row.stake), _number(row.fee), _number(row.house_per_deal)]
            + ([share(row.house_share_of_moved)] if "house_share_of_moved" in frame else []) for row in by_room.itertuples()]
    header = ["room", "stake", "fee", f"house take per deal ({currency})"] + (["share of all moved"] if "house_share_of_moved" in frame else [])
    body = _figure(chart, caption)
    if kind == "source":  # 血战's sources all average about zero: what sets them apart is their spread
        spread = charts.grouped_bar_chart(rooms, parts, grid(lambda row: row["std"] / row["stake"]),
                                          value_texts=grid(lambda row: f"{row['std'] / row['stake']:.2f}"),
                                          tooltips=grid(lambda row: f"{row.name[0]}, {row.name[1]}: standard deviation "
                                                                    f"{row['std']:,.2f} a deal"),
                                          axis_label=f"standard deviation per deal, {unit}")
        body += _figure(spread, f"Spread (standard deviation) of a seat's change per deal, in all and by source, in {unit}.")
    body += _figure(house, f"The house's take per deal (the fee of every seat) in each room, in {unit}.") + _table(header, rows)
    return _section("money", f"Money per room and {kind}", body)


def _seats_section(seats: pd.DataFrame, stakes: dict, currency: str) -> str:
    """Win rates (the same in every room) and money per seat, dealer and non-dealer; `stakes`: each room's
    stake, from the table's metadata (seats.parquet names its rooms only)."""
    money = "mean_beans" if "mean_beans" in seats else "mean_money"
    rooms, groups = list(dict.fromkeys(seats["room"])), list(dict.fromkeys(seats["group"]))
    first = seats[seats["room"] == rooms[0]]
    tips = [f"{row.group}: wins {share(row.win_rate)} [{share(row.win_rate_low)}, {share(row.win_rate_high)}] of {row.deals:,} deals"
            for row in first.itertuples()]
    rates = charts.bar_chart(first["group"], first["win_rate"], first["win_rate_low"], first["win_rate_high"],
                             value_texts=[share(value) for value in first["win_rate"]], tooltips=tips,
                             axis_label="share of deals won", percent=True)
    indexed = seats.set_index(["room", "group"])
    unit = currency if all(stakes.get(room, 1) == 1 for room in rooms) else "stakes"

    def grid(function):
        return [[function(indexed.loc[(room, group)], stakes.get(room, 1)) for room in rooms] for group in groups]

    means = charts.grouped_bar_chart(
        rooms, groups, grid(lambda row, stake: row[money] / stake), grid(lambda row, stake: row[f"{money}_low"] / stake),
        grid(lambda row, stake: row[f"{money}_high"] / stake), value_texts=grid(lambda row, stake: f"{row[money] / stake:+.3f}"),
        tooltips=grid(lambda row, stake: f"{row.name[0]}, {row.name[1]}: {row[money]:+,.3f} {currency} a deal "
                                         f"[{row[f'{money}_low']:+,.3f}, {row[f'{money}_high']:+,.3f}]"),
        axis_label=f"mean change per deal, {unit}")
    body = (_figure(rates, "Share of deals won by each seat, and by the dealer and the others (the same in every room); "
                           "whiskers: 95% Wilson interval.")
            + _figure(means, f"Mean change per deal of each seat and of the dealer and the others, in each room, in {unit}; "
                             "whiskers: 95% interval."))
    return _section("seats", "Seats, dealer and non-dealer", body)


ECONOMICS_FILES = ("economics", "fee_solution", "economics_by_player", "economics/*")
LEGACY_ECONOMICS = {"economics": "rooms", "fee_solution": "fee_solution", "economics_by_player": "by_player"}


@dataclass
class EconomicsScenario:
    """One scenario of `mjsim economics`: its rooms table or fee solution, its settings, and its per-player table."""

    name: str
    kind: str  # "rooms" or "fee_solution"
    table: pd.DataFrame
    settings: dict
    by_player: pd.DataFrame | None = None


def economics_scenarios(directory: Path, frames: dict, tables: dict) -> list[EconomicsScenario]:
    """The run's economics scenarios: each of economics/<scenario>.parquet (with <scenario>.by-player.parquet),
    by name; then the single economics.parquet, fee_solution.parquet and economics_by_player.parquet that an
    older mjsim wrote beside the records, as scenarios of their own."""
    found: dict[str, EconomicsScenario] = {}
    players: dict[str, pd.DataFrame] = {}
    for path in sorted((Path(directory) / "economics").glob("*.parquet")):
        settings = read_metadata(path).get("config", {})
        name, kind = settings.get("economics_scenario", path.stem), settings.get("economics_table")
        if kind == "by_player":
            players[name] = _read_table(path)
        elif kind in ("rooms", "fee_solution"):
            found[name] = EconomicsScenario(name, kind, _read_table(path), settings)
    for stem, kind in LEGACY_ECONOMICS.items():
        if stem not in frames:
            continue
        settings = read_metadata(tables[stem]).get("config", {})
        frame = _with_purse(frames[stem])
        name = f"{stem}.parquet (an older mjsim's)"
        if kind == "by_player":
            players[f"economics.parquet (an older mjsim's)"] = frame
        else:
            found[name] = EconomicsScenario(name, kind, frame, settings)
    for name, frame in players.items():
        if name in found:
            found[name].by_player = _with_purse(frame)
        else:
            found[name] = EconomicsScenario(name, "players only", pd.DataFrame(), {}, _with_purse(frame))
    return list(found.values())


def _with_purse(frame: pd.DataFrame) -> pd.DataFrame:
    """An older table's purse (it entered at start_beans) and the intervals it did not have, as NaN."""
    frame = frame.copy()
    if "purse_stakes" not in frame and "start_beans" in frame:
        frame["purse_stakes"] = frame["start_beans"] / frame["stake"]
    for column in ("house_share_low", "house_share_high", "median_low", "median_high", "mean_deals_low",
                   "mean_deals_high", "house_take_low", "house_take_high", "drift_low", "drift_high"):
        if column not in frame:
            frame[column] = math.nan
    return frame


def _figure_with_interval(value: float, low: float, high: float, format_value=None) -> str:
    form = format_value or _number
    return form(value) if not (math.isfinite(low) and math.isfinite(high)) else f"{form(value)} [{form(low)}, {form(high)}]"


def _purses_text(frame: pd.DataFrame) -> str:
    purses = [f"{purse:,.0f}" for purse in dict.fromkeys(frame["purse_stakes"])]
    listed = ", ".join(purses[:-1]) + (" or " if len(purses) > 1 else "") + purses[-1]
    return f"Each simulated player enters with {listed} stakes (the purse)."


def _economics_section(scenarios: list[EconomicsScenario], currency: str) -> str:
    body = ""
    for scenario in scenarios:
        if scenario.kind == "rooms":
            body += _rooms_part(scenario, currency)
        elif scenario.kind == "fee_solution":
            body += _fees_part(scenario, currency)
    return _section("economics", "Room economics", body)


def _by_room_and_purse(frame: pd.DataFrame, column: str):
    rooms, purses = list(dict.fromkeys(frame["room"])), list(dict.fromkeys(frame["purse_stakes"]))
    indexed = frame.set_index(["room", "purse_stakes"])
    return rooms, purses, [[indexed.loc[(room, purse), column] for room in rooms] for purse in purses]


def _rooms_part(scenario: EconomicsScenario, currency: str) -> str:
    economics = scenario.table
    horizon = int(economics["horizon"].iloc[0])
    first = economics.drop_duplicates("room")
    body = (f"<h3>Scenario {escape(scenario.name)}: house take and risk of ruin</h3>\n"
            f'<p class="note">{escape(_purses_text(economics))} {escape(_resampling_text(scenario.settings))}</p>\n')
    body += _figure(charts.bar_chart(
        first["room"], first["house_share_of_moved"], first["house_share_low"], first["house_share_high"],
        value_texts=[share(value) for value in first["house_share_of_moved"]],
        axis_label="house take, share of all money moved", percent=True),
        "The house's share of all money moved (fees over fees plus what the players paid each other), per room.")
    rooms, purses, values = _by_room_and_purse(economics, "ruin_probability")
    _, _, lows = _by_room_and_purse(economics, "ruin_low")
    _, _, highs = _by_room_and_purse(economics, "ruin_high")
    names = [f"purse {purse:,.0f} stakes" for purse in purses]
    body += _figure(charts.grouped_bar_chart(
        rooms, names, values, lows, highs, value_texts=[[share(value) for value in row] for row in values],
        axis_label=f"ruined within {horizon:,} deals", percent=True),
        f"Probability that a player entering the room with each purse is ruined within {horizon:,} deals; whiskers: "
        "95% Wilson interval.")
    _, _, medians = _by_room_and_purse(economics, "median_deals_to_ruin")
    body += _figure(charts.grouped_bar_chart(
        rooms, names, [[min(value, horizon) for value in row] for row in medians],
        value_texts=[[f"over {horizon:,}" if not math.isfinite(value) else _number(value) for value in row] for row in medians],
        axis_label="median deals to ruin"),
        f"Median number of deals until ruin, per purse; a bar at {horizon:,} marks a room where most players outlast "
        "the horizon.")
    if economics.groupby(["stake", "purse_stakes"])["fee"].nunique().max() > 1:
        series = [{"name": f"stake {stake:,}, purse {purse:,.0f}", "x": list(group["fee"]), "y": list(group["ruin_probability"]),
                   "low": list(group["ruin_low"]), "high": list(group["ruin_high"]),
                   "tips": [f"stake {stake:,}, purse {purse:,.0f} stakes, fee {row.fee:,}: ruin {share(row.ruin_probability)} "
                            f"[{share(row.ruin_low)}, {share(row.ruin_high)}]" for row in group.itertuples()]}
                  for (stake, purse), group in economics.sort_values("fee").groupby(["stake", "purse_stakes"])]
        body += _figure(charts.line_chart(series, x_label=f"table fee, {currency} per player and deal",
                                          y_label=f"ruined within {horizon:,} deals", y_range=(0.0, 1.0), y_percent=True),
                        "Risk of ruin against the table fee, one line per stake and purse; whiskers: 95% Wilson interval.")
    body += _table(["room", "stake", "fee", "purse (stakes)", "enters with", "house share", "ruin", "median deals to ruin",
                    "mean deals played", "house take per bankroll"],
                   [[row.room, _number(row.stake), _number(row.fee), _number(row.purse_stakes), _number(row.start_beans),
                     _figure_with_interval(row.house_share_of_moved, row.house_share_low, row.house_share_high, share),
                     f"{share(row.ruin_probability)} [{share(row.ruin_low)}, {share(row.ruin_high)}]",
                     _figure_with_interval(row.median_deals_to_ruin, row.median_low, row.median_high),
                     _figure_with_interval(row.mean_deals_played, row.mean_deals_low, row.mean_deals_high),
                     _figure_with_interval(row.house_take_per_bankroll, row.house_take_low, row.house_take_high)]
                    for row in economics.itertuples()])
    return body


def _resampling_text(settings: dict) -> str:
    return (f"Ruin by block resampling of the run: {settings.get('players_simulated', '?'):,} simulated players per room "
            f"and purse, blocks of {settings.get('block', '?')} deals, horizon {settings.get('horizon', '?'):,} deals, "
            f"resampling seed {settings.get('resampling_seed', '?')}.") if isinstance(settings.get("players_simulated"), int) else ""


def _fees_part(scenario: EconomicsScenario, currency: str) -> str:
    fees, settings = scenario.table, scenario.settings
    unit = _stakes_unit(fees, currency)
    targets = ", ".join(dict.fromkeys(fees["target"]))
    texts = ["not met even without a fee" if not math.isfinite(row.fee) else
             f"{row.fee:,.0f} [{row.fee_low:,.0f}, {row.fee_high:,.0f}]" for row in fees.itertuples()]
    rooms, purses, _ = _by_room_and_purse(fees, "fee")
    indexed = fees.assign(text=texts).set_index(["room", "purse_stakes"])

    def grid(function):
        return [[function(indexed.loc[(room, purse)]) for room in rooms] for purse in purses]

    chart = charts.grouped_bar_chart(
        rooms, [f"purse {purse:,.0f} stakes" for purse in purses], grid(lambda row: row["fee"] / row["stake"]),
        grid(lambda row: row["fee_low"] / row["stake"]), grid(lambda row: row["fee_high"] / row["stake"]),
        value_texts=grid(lambda row: row["text"]),
        tooltips=grid(lambda row: f"{row.name[0]} (stake {row['stake']:,}, entering with {row['start_beans']:,}): "
                                  f"{row['text']} {currency}; {row['replicates_not_met']} replicates not met"),
        axis_label=f"largest fee meeting the target, {unit}")
    caption = (f"Each room's largest whole fee (per player and deal) meeting the target {targets} for each purse, in {unit}; "
               f"the text gives it in {currency} with its interval: 2.5% and 97.5% of {settings.get('replicates', '?')} "
               "block bootstraps of the run.")

    def at_the_fee(row, name):  # the room's figures at its solved fee; absent where no fee met the target
        value = getattr(row, name, math.nan)
        return share(value) if name != "median_deals_to_ruin" else _number(value)

    rows = [[row.room, _number(row.stake), _number(row.purse_stakes), _number(row.start_beans), text,
             _number(row.replicates_not_met)]
            + [at_the_fee(row, name) for name in ("ruin_probability", "median_deals_to_ruin", "house_share_of_moved")]
            for row, text in zip(fees.itertuples(), texts)]
    table = _table(["room", "stake", "purse (stakes)", "enters with", f"fee ({currency})", "replicates not met",
                    "ruin at that fee", "median deals to ruin", "house share"], rows)
    return (f"<h3>Scenario {escape(scenario.name)}: largest fee meeting {escape(targets)}</h3>\n"
            f'<p class="note">{escape(_purses_text(fees))} {escape(_resampling_text(settings))}</p>\n'
            + _figure(chart, caption) + table)


def _players_section(scenarios: list[EconomicsScenario], currency: str) -> str:
    body = ""
    for scenario in scenarios:
        if scenario.by_player is not None:
            body += _players_part(scenario.name, scenario.by_player, currency)
    return _section("players", "Economics per player", body)


def _players_part(scenario: str, frame: pd.DataFrame, currency: str) -> str:
    names = short_player_names(list(dict.fromkeys(frame["player"])))
    rooms, players = list(dict.fromkeys(frame["room"])), list(names)
    purse = frame["purse_stakes"].iloc[0]
    frame = frame[frame["purse_stakes"] == purse]  # the drift is the same at every purse; ruin shown at the first
    indexed = frame.set_index(["room", "player"])
    unit = _stakes_unit(frame, currency)

    def grid(function):
        return [[function(indexed.loc[(room, player)]) for room in rooms] for player in players]

    drift = charts.grouped_bar_chart(
        rooms, [names[player] for player in players], grid(lambda row: row["drift"] / row["stake"]),
        value_texts=grid(lambda row: f"{row['drift'] / row['stake']:+.3f}"),
        tooltips=grid(lambda row: f"{names[row.name[1]]} in {row.name[0]}: drift {row['drift']:+,.3f} {currency} a deal, "
                                  f"volatility {row['volatility']:,.1f}"), axis_label=f"drift per deal, {unit}")
    ruin = charts.grouped_bar_chart(
        rooms, [names[player] for player in players], grid(lambda row: row["ruin_probability"]), grid(lambda row: row["ruin_low"]),
        grid(lambda row: row["ruin_high"]), value_texts=grid(lambda row: share(row["ruin_probability"])),
        tooltips=grid(lambda row: f"{names[row.name[1]]} in {row.name[0]}: ruin {share(row['ruin_probability'])} "
                                  f"[{share(row['ruin_low'])}, {share(row['ruin_high'])}], median deals to ruin "
                                  f"{_number(row['median_deals_to_ruin'])}"),
        axis_label=f"ruined within {int(frame['horizon'].iloc[0]):,} deals", percent=True)
    legend = _table(["player", "as seated"], [[names[player], player] for player in players], "facts")
    return (f"<h3>Scenario {escape(scenario)}</h3>\n"
            + _figure(drift, f"Each player's mean change per deal (drift) in each room, in {unit}.")
            + _figure(ruin, f"Probability that a bankroll of {purse:,.0f} stakes always playing as the player is ruined; "
                            "whiskers: 95% Wilson interval.")
            + legend)


def _calibration_section(frame: pd.DataFrame) -> str:
    names = short_player_names(list(dict.fromkeys(frame["player"])))
    series = []
    for player, rows in frame.groupby("player", sort=False):
        series.append({
            "name": names[player], "x": list(rows["mean_chance"]), "y": list(rows["win_share"]),
            "low": list(rows["win_share_low"]), "high": list(rows["win_share_high"]),
            "tips": [f"{names[player]}, reports {row.bucket}: mean report {share(row.mean_chance)}, won {share(row.win_share)} "
                     f"[{share(row.win_share_low)}, {share(row.win_share_high)}]; {row.reports:,} reports in {row.deals:,} deals"
                     for row in rows.itertuples()],
        })
    chart = charts.line_chart(series, x_label="reported chance of winning (mean of the bucket)", y_label="share of those deals won",
                              x_range=(0.0, 1.0), y_range=(0.0, 1.0), diagonal=True, x_percent=True, y_percent=True)
    caption = ("Reliability: each point is a tenth of the reports (0-10%, ...), at their mean on x and the share of the deals "
               "they came from that the player won on y; on the dashed diagonal reports come true. Whiskers: 95% intervals, "
               "clustered by deal and simultaneous over a player's buckets. Players: " + ", ".join(names.values()) + ".")
    rows = [[names[row.player], row.bucket, _number(row.reports), share(row.mean_chance),
             f"{share(row.win_share)} [{share(row.win_share_low)}, {share(row.win_share_high)}]", f"{row.gap:+.4f}",
             "yes" if row.within else "no"] for row in frame.itertuples()]
    body = _figure(chart, caption) + _table(["player", "bucket", "reports", "mean report", "won", "gap", "gap holds 0"], rows)
    return _section("calibration", "Calibration of reported chances", body)


def _comparison_section(comparison) -> str:
    """Another run set beside this one (``mjsim report RUN --compare OTHER``): both runs and how they are
    paired, the differences of the fans' shares of wins as a chart, and every row as a table."""
    rows, hidden = compare.shown_rows(comparison.rows)
    facts = [("A (this run)", comparison.a.title), ("B", comparison.b.title), ("pairing", comparison.pairing.text()),
             ("rows", (f"B - A with {compare.CONFIDENCE:.0%} intervals; counts: the events behind each figure; ! marks "
                       f"fewer than {compare.FEWEST} on a side, too few to tell; money in "
                       f"{compare.money_unit(comparison.currency)}"))]
    body = _facts(facts)
    fans = rows[rows["group"] == "fans"]
    fans = fans.loc[fans[["a", "b"]].max(axis=1).sort_values(ascending=False).index].head(TOP_FANS)
    if not fans.empty:
        texts = [compare.figure_texts(row)[2] for row in fans.itertuples()]
        tips = [f"{row.label}: A {share(row.a)} ({row.count_a:,} wins), B {share(row.b)} ({row.count_b:,} wins), B - A "
                f"{compare.figure_texts(row)[2]} {compare.figure_texts(row)[3]}" + (", too few to tell" if row.too_few else "")
                for row in fans.itertuples()]
        chart = charts.bar_chart(list(fans["label"]), fans["difference"], fans["low"], fans["high"], value_texts=texts,
                                 tooltips=tips, axis_label="B - A, share of wins scoring the fan", percent=True)
        body += _figure(chart, f"The difference in each fan's share of wins, B less A, for the {len(fans)} most frequent "
                               f"fans; whiskers: {compare.CONFIDENCE:.0%} interval ({comparison.pairing.text()}).")
    table_rows = []
    decimals = compare.group_decimals(rows)
    for row in rows.itertuples():
        a, b, difference, interval = compare.figure_texts(row, decimals.get(row.group))
        table_rows.append([f"{row.group}: {row.label}", a, b, difference, interval, _number(row.count_a), _number(row.count_b),
                           "!" if row.too_few else ""])
    body += _table(["statistic", "A", "B", "B - A", f"{compare.CONFIDENCE:.0%} interval", "count A", "count B", ""], table_rows)
    if hidden:
        body += f'<p class="note">{hidden} fans scored in neither run are left out (mjsim compare --json has every fan).</p>\n'
    return _section("comparison", "Comparison", body)

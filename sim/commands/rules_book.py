"""The generated parts of the rules book (docs/rules/): a ruleset's settings and fan table, read off its data.

This module owns every fact of the rules book that a data file holds: the switches and settings of each
ruleset (``sim/rulesets/*.toml``), its fans with seed name, stable id, value and exclusions (不计), the kong
money of the 血战 rulesets and the rooms files. From a loaded `Ruleset` it makes a JSON-able dict
(`ruleset_data`), the text `mjsim rules` prints (`format_text`) and Markdown sections for the pages.

A page holds a generated section between two marker comments, the first naming the data file and the section:

    <!-- generated from sim/rulesets/erren.toml: fans -->
    ...
    <!-- end generated -->

``python -m sim.commands.rules_book`` rewrites every such section of docs/rules/*.md in place and leaves the
hand-written text around them alone; ``--check`` only lists the stale pages. tests/commands/test_rules_book.py fails
when a page is stale. The hand-written text says what the rules mean; nothing here interprets them.
"""

import re
import sys
import tomllib
from pathlib import Path

from kernels.fan_ids import FAN_IDS, Fan
from kernels.tiles import (
    HONOR_START,
    MAN_START,
    N_FLOWERS,
    PIN_START,
    SOU_START,
    TILE_SETS,
)
from sim.core.rooms import load_rooms
from sim.core.ruleset import RULESET_DIR, UNLIMITED, Ruleset, family_schemas, load_ruleset
from sim.core.terminal_text import display_width
from sim.erren.challenge.levels import load_levels
from sim.families import FAMILIES

ROOT = Path(__file__).resolve().parents[2]
PAGES_DIR = ROOT / "docs" / "rules"
FRONT_PAGE = ROOT / "README.md"  # its table of rulesets is read from the registry

# Switches that name the ruleset rather than set a rule; the header shows them.
IDENTITY_KEYS = ("id", "name", "seed", "family")

SETTING_MEANINGS = {
    "tile_set": "the tiles in the wall",
    "min_fan": "起和: the fewest fans a win needs, flowers aside and before 加倍",
    "flowers": "the wall holds the eight flowers; each is 1 fan (花牌) for its owner if that player wins, never toward `min_fan`",
    "max_doubles": "加倍: how often a player may give up a win to double its multiplier",
    "ready_requires_concealed": "报听 needs a hand without claimed melds (chow, pong, exposed kong)",
    "players": "the seat counts allowed; the first is the default",
    "combine": "how the values of the counted fans make the value of a win",
    "cap": "the most one payer pays for one win, 查叫 or 关死, in units (0: no cap)",
    "self_drawn_bonus": "`fan`: 自摸 is a fan (003's 加番); `unit`: each payer of a self-drawn win pays one more unit and the 自摸 fan is not scored (003's 加底)",
    "kong_units_in_win": "a win adds the winner's net kong units so far (never below 0) to its value (003's 个人杠分)",
    "declared_ready": "报叫: a ready player may declare it openly at the start; its hand is then locked",
    "pass_pong_lock": "过手碰: a player who passes a pong may not pong that kind again before its own next action",
    "pass_win_lock": "过水胡: a player who passes a win on a discard may not win on a discard before its own next action",
    "missed_win_lock": "漏胡: a player who passes a win may win again only for a higher value, until its hand changes",
    "passed_kong_pays": "a kong added to a pong that was taken when the kong was possible (过手杠) earns kong money",
    "last_tile_kong": "the last tile may be konged; the engine needs a replacement tile for every kong, so once the wall is empty no kong is made whichever the value",
    "chajiao_voids_kong_money": "a player who pays 查叫 gives back all the kong money it received",
    "all_simples_scored": "中张 / 断幺九 (no 1 or 9 in the hand) is scored",
    "earthly_hand_self_drawn": "地胡 also for a non-dealer's self-drawn win on its first draw, not only for a win on the dealer's first discard",
    "exchange_three": "换三张: at the start each seat passes three tiles of one suit",
    "void_suit": "定缺: each seat declares a suit it must discard first and may not win holding",
    "scoring": "`mcr`: the MCR evaluator, a win's fans are its money; `challenge`: 004's fan list and points",
    "tiles_in_play": "tiles each deal plays of the shuffled set; the rest are out of play, unseen",
    "bonus_tiles": "tiles turned face up after the deal (004's 花牌): 1 fan for each of the winner's tiles of that kind",
    "extra_draws": "after an exhausted wall, the declared-ready player draws up to this many out-of-play tiles",
    "start_exchange": "起始换牌 (an assist of the 闯关 levels): after the deal the player (seat 0) exchanges tiles of its hand for out-of-play tiles in order",
    "pick_chance": "搓牌 (an assist): the chance, at each of the player's draws from the wall, that it takes a tile of its choice from the wall or the out-of-play tiles instead",
    "pung_offer_chance": "换刻子 (an assist): the chance, at each of the player's draws, that it is offered three copies of one kind for three tiles of its hand",
    "base": "底分: the points every payer of a win pays besides the fans (the discarder, or each payer of a self-draw, adds fan total + flowers)",
    "match_deals": "deals in a match: the dealer passes every deal, and the round wind changes every match_deals / 4 deals",
    "non_dealer_heavenly_ready": "when the non-dealer may declare 天听: `after_deal` (before its first draw) or `first_draw` (on its first draw, throwing the tile drawn)",
}
POINTS_ROWS = {
    "fan_cap": "the most fans a hand counts, 花牌 included",
    "per_fan_step": "f fans score f·(f+1)·this many points",
    "per_limit": "N 役满 score N·this many points",
}
KONG_MONEY_ROWS = {  # key: (the kong, who pays)
    "exposed_discarder": ("exposed kong of a discard (直杠 / 点杠)", "the discarder"),
    "exposed_others": ("exposed kong of a discard (擦挂)", "every other player still in"),
    "added_others": ("kong added to one's own pong (补杠 / 巴杠)", "every other player still in"),
    "concealed_others": ("concealed kong (暗杠)", "every other player still in"),
}
COMBINE_WORDS = {
    "add": "fans (番), added",
    "multiply": "multipliers: a win is worth their product, value^n for a fan counted n times",
    "power_of_two": "fans (番), added (value × n for a fan counted n times); a win is worth 2^total units",
}
SUIT_WORDS = ((MAN_START, "万"), (PIN_START, "筒"), (SOU_START, "条"), (HONOR_START, "honours"))


class RulesBookError(ValueError):
    """A page whose generated sections cannot be read or made."""


# ------------------------------------------------------------------------------------- the ruleset as data


def _switch_value(value):
    """A setting as the ruleset file writes it (no limit is the string "unlimited", lists stay lists)."""
    if value is None:
        return UNLIMITED
    if isinstance(value, tuple):
        return list(value)
    return value


def settings_of(ruleset: Ruleset) -> dict:
    """Every rule-setting switch of the ruleset's file, in the loader's order, with its value (kong money apart)."""
    schema = family_schemas()[ruleset.family]
    settings = {}
    for key in schema.switches:
        if key in IDENTITY_KEYS:
            continue
        # the 血战 table rules live in ruleset.xuezhan, a later family's in ruleset.family_switches; seats,
        # combine, cap and the 二人 switches on the Ruleset
        holder = ruleset
        for switches in (ruleset.xuezhan, ruleset.family_switches):
            if switches is not None and hasattr(switches, key):
                holder = switches
        settings[key] = _switch_value(getattr(holder, key))
    for key, (_, default) in schema.optional_switches.items():
        if getattr(ruleset, key) != default:  # a file that leaves an optional switch out has its default
            settings[key] = _switch_value(getattr(ruleset, key))
    return settings


def points_of(ruleset: Ruleset) -> dict:
    """How a win is priced in points (004's 闯关 game); empty for a ruleset whose fans are its money."""
    points = ruleset.points
    return {} if points is None else {key: getattr(points, key) for key in POINTS_ROWS}


def kong_money_of(ruleset: Ruleset) -> dict:
    """Units of kong money per kind of kong and payer; empty for a ruleset without kong money (二人)."""
    if ruleset.xuezhan is None:
        return {}
    return {key: getattr(ruleset.xuezhan, key) for key in KONG_MONEY_ROWS}


def tile_count(ruleset: Ruleset) -> int:
    return int(TILE_SETS[ruleset.tile_set].sum()) + (N_FLOWERS if ruleset.flowers else 0)


def tile_words(ruleset: Ruleset) -> str:
    """What the wall holds, such as "万 and honours, 64 tiles and 8 flowers"."""
    tiles = TILE_SETS[ruleset.tile_set]
    ends = [start for start, _ in SUIT_WORDS[1:]] + [len(tiles)]
    groups = [word for (start, word), end in zip(SUIT_WORDS, ends) if tiles[start:end].any()]
    words = f"{', '.join(groups[:-1])} and {groups[-1]}" if len(groups) > 1 else groups[0]
    flowers = f" and {N_FLOWERS} flowers" if ruleset.flowers else ""
    return f"{words}, {int(tiles.sum())} tiles{flowers}"


def _excluded(ruleset: Ruleset, fan: Fan) -> list[Fan]:
    """The fans `fan` excludes, in the order its file lists them (the loader keeps it in the kernel arrays)."""
    start, stop = ruleset.exclusion_start[fan], ruleset.exclusion_start[fan + 1]
    return [Fan(target) for target in ruleset.exclusion_target[start:stop]]


def fans_of(ruleset: Ruleset) -> list[dict]:
    """Every fan the ruleset scores, by decreasing value: seed name, stable id, value and the ids it excludes."""
    fans = []
    for fan in ruleset.fans:
        entry = {
            "id": FAN_IDS[fan],
            "name": ruleset.fan_names[fan],
            "value": int(ruleset.values[fan]),
            "excludes": [FAN_IDS[target] for target in _excluded(ruleset, fan)],
        }
        if ruleset.points is not None:
            entry["limit"] = bool(ruleset.is_limit[fan])
        fans.append(entry)
    return fans


def switched_off_fans(ruleset: Ruleset) -> list[dict]:
    """Fans the ruleset's file lists but its settings switch off (003's 中张 without 门清中张, 自摸 under 加底).

    The loader drops them from the Ruleset, so they are read from the file's text it kept."""
    try:
        listed = tomllib.loads(ruleset.source).get("fans", {})
    except tomllib.TOMLDecodeError:
        return []
    scored = {FAN_IDS[fan] for fan in ruleset.fan_names}
    return [
        {"id": fan_id, "name": entry["name"], "value": entry["value"], "excludes": list(entry["excludes"])}
        for fan_id, entry in listed.items()
        if fan_id not in scored
    ]


def ruleset_data(ruleset: Ruleset) -> dict:
    """The ruleset as plain data: what `mjsim rules --json` prints."""
    data = {
        "id": ruleset.id,
        "name": ruleset.name,
        "seed": ruleset.seed,
        "family": ruleset.family,
        "seats": list(ruleset.players),
        "tile_set": ruleset.tile_set,
        "tiles": tile_count(ruleset),
        "combine": ruleset.combine,
        "cap": ruleset.cap,
        "settings": settings_of(ruleset),
    }
    if ruleset.xuezhan is not None:
        data["kong_money"] = kong_money_of(ruleset)
    if ruleset.points is not None:
        data["points"] = points_of(ruleset)
    data["fans"] = fans_of(ruleset)
    data["switched_off_fans"] = switched_off_fans(ruleset)
    return data


# ------------------------------------------------------------------------------------- shared wording


def _value_text(ruleset: Ruleset, value: int, limit: bool = False) -> str:
    if limit:
        return f"{value} 役满"
    return f"×{value}" if ruleset.combine == "multiply" else str(value)


def _setting_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(str(item) for item in value) + "]"
    return str(value)


def _excludes_text(ruleset: Ruleset, excluded: list[str]) -> str:
    """The excluded fans by seed name (the loader makes sure the ruleset scores each)."""
    return ", ".join(ruleset.fan_names[Fan[target.upper()]] for target in excluded)


def _header(ruleset: Ruleset) -> str:
    seats = " or ".join(str(count) for count in ruleset.players)
    cap = f", at most {ruleset.cap} units per payer" if ruleset.cap else ""
    combine = COMBINE_WORDS[ruleset.combine]
    if ruleset.points is not None:
        combine += f" up to {ruleset.points.fan_cap}, and priced in points; a 役满 replaces every other fan"
    in_play = f" ({ruleset.tiles_in_play} in play each deal)" if ruleset.tiles_in_play else ""
    return (
        f"`{ruleset.id}` ({ruleset.name}), seed {ruleset.seed}, family `{ruleset.family}`: {seats} seats; "
        f"{tile_words(ruleset)}{in_play}; {combine}{cap}."
    )


# ------------------------------------------------------------------------------------- `mjsim rules` text


def _columns(rows: list[list[str]], right: tuple[int, ...] = ()) -> list[str]:
    """Rows of cells as aligned lines, two spaces apart; columns in `right` are right-aligned."""
    widths = [max(display_width(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = []
        for column, cell in enumerate(row):
            padding = " " * (widths[column] - display_width(cell))
            cells.append(padding + cell if column in right else cell + padding)
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


VARIANT_SUFFIX = "-variant"


def variant_toml(ruleset: Ruleset) -> str:
    """A ruleset's file to start a variant from (`mjsim rules RULESET --toml`): a shipped ruleset's text, comments
    kept, under an id and name of its own (a file may not take a shipped ruleset's id); a user's file as it is."""
    text = ruleset.source
    shipped = RULESET_DIR / f"{ruleset.id}.toml"
    if shipped.is_file() and text == shipped.read_text(encoding="utf-8"):
        variant = f"{ruleset.id}{VARIANT_SUFFIX}"
        text = re.sub(r'^id = "[^"]*"', f'id = "{variant}"', text, count=1, flags=re.MULTILINE)
        text = re.sub(r'^name = "([^"]*)"', lambda match: f'name = "{match[1]}, variant"', text, count=1, flags=re.MULTILINE)
        header = (f"# A variant of the shipped ruleset {ruleset.id}, to edit: save this (mjsim rules {ruleset.id} --toml > "
                  f"{variant}.toml),\n# change values, switches or exclusions, and play it with --ruleset {variant}.toml. "
                  f"Its id is its own:\n# a file may not take a shipped ruleset's id. docs/rules/README.md#making-a-variant "
                  f"walks through one.\n\n")
        text = header + text
    return text


def format_text(ruleset: Ruleset) -> str:
    """What `mjsim rules RULESET` prints: the header, the settings, kong money and the fan table."""
    lines = [_header(ruleset).replace("`", ""), "", "settings"]
    settings = settings_of(ruleset)
    rows = [[key, _setting_text(value), SETTING_MEANINGS[key].replace("`", "")] for key, value in settings.items()]
    lines += _columns(rows)
    money = kong_money_of(ruleset)
    if money:
        lines += ["", "kong money (units)"]
        lines += _columns([[key, str(units), *KONG_MONEY_ROWS[key]] for key, units in money.items()], right=(1,))
    points = points_of(ruleset)
    if points:
        lines += ["", "points"]
        lines += _columns([[key, f"{value:,}", POINTS_ROWS[key]] for key, value in points.items()], right=(1,))
    fans = fans_of(ruleset)
    lines += ["", f"fans ({len(fans)}, by value; a fan that is itself excluded excludes nothing)"]
    rows = [["value", "fan", "id", "excludes (不计)"]]
    rows += [
        [_value_text(ruleset, fan["value"], fan.get("limit", False)), fan["name"], fan["id"],
         _excludes_text(ruleset, fan["excludes"]) or "-"]
        for fan in fans
    ]
    lines += _columns(rows, right=(0,))
    for fan in switched_off_fans(ruleset):
        lines.append(f"  listed but switched off by the settings: {fan['name']} ({fan['id']}, {fan['value']})")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------- Markdown sections


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def markdown_settings(ruleset: Ruleset) -> str:
    rows = [["`tile_set`", f"`{ruleset.tile_set}`", f"{SETTING_MEANINGS['tile_set']}: {tile_words(ruleset)}"]]
    rows += [
        [f"`{key}`", f"`{_setting_text(value)}`", SETTING_MEANINGS[key]]
        for key, value in settings_of(ruleset).items()
        if key != "tile_set"
    ]
    return _header(ruleset) + "\n\n" + _table(["setting", "value", "meaning"], rows)


def markdown_kong_money(ruleset: Ruleset) -> str:
    money = kong_money_of(ruleset)
    if not money:
        raise RulesBookError(f"ruleset {ruleset.id!r} has no kong money")
    rows = [[f"`{key}`", *KONG_MONEY_ROWS[key], str(units)] for key, units in money.items()]
    return "Paid at once, in units of the base stake, only by players who have not won yet.\n\n" + _table(
        ["key", "kong", "who pays", "units"], rows
    )


def markdown_fans(ruleset: Ruleset) -> str:
    fans = fans_of(ruleset)
    text = (
        f"{len(fans)} fans by decreasing value, the order in which exclusions apply (a fan that is itself "
        f"excluded excludes nothing). Values: {COMBINE_WORDS[ruleset.combine]}.\n\n"
    )
    rows = [
        [fan["name"], f"`{fan['id']}`", _value_text(ruleset, fan["value"], fan.get("limit", False)),
         _excludes_text(ruleset, fan["excludes"]) or "—"]
        for fan in fans
    ]
    text += _table(["fan", "id", "value", "excludes (不计)"], rows)
    for fan in switched_off_fans(ruleset):
        excludes = ", ".join(f"`{target}`" for target in fan["excludes"]) or "nothing"
        text += (
            f"\nListed in the file but not scored with these settings: {fan['name']} (`{fan['id']}`, "
            f"{_value_text(ruleset, fan['value'])}, excludes {excludes}).\n"
        )
    return text


def markdown_points(ruleset: Ruleset) -> str:
    points = points_of(ruleset)
    if not points:
        raise RulesBookError(f"ruleset {ruleset.id!r} has no points")
    rows = [[f"`{key}`", f"{value:,}", POINTS_ROWS[key]] for key, value in points.items()]
    return _table(["key", "value", "meaning"], rows)


def markdown_index(directory: Path) -> str:
    """One row per ruleset file of the directory (sim/rulesets: the shipped rulesets)."""
    rows = []
    for path in sorted(directory.glob("*.toml"), key=lambda path: path.stem):
        ruleset = load_ruleset(path)
        rows.append([
            f"[`{ruleset.id}`]({ruleset.id}.md)", ruleset.name, ruleset.seed, ruleset.family,
            " or ".join(str(count) for count in ruleset.players), str(tile_count(ruleset)), ruleset.combine,
            str(len(ruleset.fans)),
        ])
    return _table(["ruleset", "name", "seed", "family", "seats", "tiles", "fans combine by", "fans scored"], rows)


def markdown_registry(_path: Path) -> str:
    """One row per ruleset the families' registry lists (sim.families), for the README: the rules book's page
    of each, its seed, name, family and table."""
    rows = []
    for family in FAMILIES.values():
        for ruleset_id in family.rulesets:
            ruleset = load_ruleset(ruleset_id)
            rows.append([f"[`{ruleset.id}`](docs/rules/{ruleset.id}.md)", ruleset.seed, ruleset.name, family.title,
                         " or ".join(str(count) for count in ruleset.players), str(tile_count(ruleset)), ruleset.combine])
    return _table(["ruleset", "seed", "name", "family", "seats", "tiles", "fans combine by"], rows)


def markdown_rooms(path: Path) -> str:
    rows = []
    for room in load_rooms(path, path):
        entry = f"{room.min_entry:,} to {room.max_entry:,}" if room.max_entry else f"{room.min_entry:,} or more"
        rows.append([room.name, f"{room.stake:,}", f"{room.fee:,}", entry])
    return _table(["room", "stake", "fee (台费)", "entry"], rows)


def markdown_levels(path: Path) -> str:
    """The 闯关 campaign of a levels file (sim/erren/challenge/levels.toml): figures and assists per level."""
    levels = load_levels(path)
    rows = []
    for number, level in enumerate(levels.levels, 1):
        assists = []
        if level.start_exchange:
            assists.append("起始换牌")
        if level.extra_draws is not None:
            assists.append(f"{level.extra_draws} extra draws")
        if level.pick_chance:
            assists.append(f"搓牌 {level.pick_chance:.0%} a draw")
        if level.pung_offer_chance:
            assists.append(f"换刻子 {level.pung_offer_chance:.0%} a draw")
        if level.computer_wins_free:
            assists.append("the computer's wins cost nothing")
        rows.append([str(number), level.name, f"{level.bet:,}", f"{level.pass_score:,}", ", ".join(assists) or "—"])
    return (f"Start score {levels.start_score:,}; a level still open after {levels.max_deals_per_level:,} deals is not "
            "cleared. **These figures are assumptions** (004 gives none).\n\n"
            + _table(["level", "name", "bet (押分)", "pass score (过关分数)", "assists"], rows))


def _ruleset_section(make):
    return lambda path: make(load_ruleset(str(path)))


SECTIONS = {
    "settings": _ruleset_section(markdown_settings),
    "kong money": _ruleset_section(markdown_kong_money),
    "points": _ruleset_section(markdown_points),
    "fans": _ruleset_section(markdown_fans),
    "index": markdown_index,
    "registry": markdown_registry,
    "rooms": markdown_rooms,
    "levels": markdown_levels,
}
MARKER = re.compile(
    r"(?P<begin><!-- generated from (?P<path>[^:>]+): (?P<section>[a-z ]+) -->\n)(?P<body>.*?)(?P<end><!-- end generated -->)",
    re.DOTALL,
)


def section(name: str, path: str | Path, root: Path = ROOT) -> str:
    """The Markdown of one generated section; `path` is the data file (or directory) relative to `root`."""
    if name not in SECTIONS:
        raise RulesBookError(f"unknown generated section {name!r}; known: {', '.join(SECTIONS)}")
    return SECTIONS[name](root / path)


def rewrite(text: str, root: Path = ROOT) -> str:
    """The page with every generated section made again from its data file; the rest is left as it is."""
    begins = text.count("<!-- generated from ")
    if begins != text.count("<!-- end generated -->") or begins != len(MARKER.findall(text)):
        raise RulesBookError("a '<!-- generated from PATH: SECTION -->' marker lacks its '<!-- end generated -->' or is malformed")

    def replace(match):
        body = section(match["section"], match["path"].strip(), root)
        return f"{match['begin']}\n{body}\n{match['end']}"

    return MARKER.sub(replace, text)


def stale_pages(pages_dir: Path = PAGES_DIR, root: Path = ROOT, front_page: Path | None = FRONT_PAGE) -> list[Path]:
    """The pages (the rules book's, and the README's table of rulesets) whose generated sections differ from
    what the data files say now."""
    stale = []
    for page in sorted(pages_dir.glob("*.md")) + ([front_page] if front_page is not None else []):
        text = page.read_text(encoding="utf-8")
        if rewrite(text, root) != text:
            stale.append(page)
    return stale


def main(arguments: list[str]) -> int:
    """Rewrite the generated sections of docs/rules/*.md and README.md (``--check``: only list the stale pages)."""
    check = arguments == ["--check"]
    if arguments and not check:
        print(f"error: unknown arguments {' '.join(arguments)!r}; the only one is --check "
              "(python -m sim.commands.rules_book [--check])", file=sys.stderr)
        return 2
    stale = stale_pages()
    for page in stale:
        if not check:
            page.write_text(rewrite(page.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"{'stale' if check else 'rewrote'} {page.relative_to(ROOT)}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

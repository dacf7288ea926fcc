"""Rulesets as data: load and validate a ruleset file (``sim/rulesets/<id>.toml``) into kernel arrays.

A ruleset file has a ``[ruleset]`` table of switches and one ``[fans.<id>]`` table per fan it scores,
with the seed's name, the value and the fans it excludes. The optional ``family`` switch names the family
whose switches the file carries ("erren", the default, or "xuezhan"), and a file may not carry another
family's switches. Each family owns its switches and extra tables in its ``switches`` module
(``sim/<family>/switches.py``: a ``FamilySchema``); this loader owns what every file shares: the identity
keys, the tile set and the fans. An erren file with ``scoring = "challenge"`` (004's 闯关 game) marks its 役满
with ``limit = true``. The loader checks everything (known ids, positive values, exclusions that name scored
fans, switch types) and reports the first problem as one RulesetError naming the file and the key. The kernel
sees only arrays: a value per fan id (0 = not scored), the order in which fans exclude others (by value, then
file order) and the exclusion lists.
"""

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kernels.fan_ids import FAN_IDS, N_FANS, Fan
from kernels.tiles import TILE_SETS
from sim.core.input_limits import InputLimitError, parse_toml, read_toml

RULESET_DIR = Path(__file__).parent.parent / "rulesets"
FAMILIES_DIR = Path(__file__).parent.parent  # sim/: a family is a package of it with a switches module
FAN_KEYS = {"name", "value", "excludes"}
LIMIT_KEY = "limit"  # a fan entry's optional `limit = true`: a 役满 (scoring = "challenge" only)
UNLIMITED = "unlimited"  # a file's word for a setting with no limit
MOST_SEATS = 4  # the most seats any family's table has (run.json's player lists are checked against it first)

# What the 32-bit deal records and the money arithmetic hold, with room to spare: the largest value of one
# fan by how a family combines fans, and the largest setting (min_fan, cap, each kong payment, points).
LARGEST_FAN_VALUE = {"add": 10_000, "multiply": 1_024, "power_of_two": 16}
COMBINE_WORDS = {"add": "are added", "multiply": "are multiplied", "power_of_two": "are exponents of two"}
LARGEST_SETTING = 1_000_000


class RulesetError(ValueError):
    """A ruleset that does not exist or whose file is malformed."""


@dataclass(frozen=True, eq=False)
class Ruleset:
    id: str
    name: str
    seed: str
    tile_set: str
    min_fan: int
    flowers: bool
    max_doubles: int | None  # None: no limit
    ready_requires_concealed: bool
    fan_names: dict[Fan, str]  # the seed's name of every fan the ruleset scores, in file order
    values: np.ndarray  # int32 (N_FANS,), 0 for fans the ruleset does not score
    order: np.ndarray  # int16 (N_FANS,): fan ids by decreasing value, then file order
    priority: np.ndarray  # int16 (N_FANS,): each fan's position in `order`; a fan excludes only if not excluded first
    exclusion_start: np.ndarray  # int32 (N_FANS + 1,): fan f excludes exclusion_target[start[f]:start[f+1]]
    exclusion_target: np.ndarray  # int16
    source: str = field(repr=False)  # the file's text, kept for output metadata
    family: str = "erren"  # "erren" or "xuezhan" (the 血战 family)
    players: tuple[int, ...] = (2,)  # the seat counts the ruleset allows; the first is the default
    combine: str = "add"  # how fan values combine: "add" (二人), "multiply" (002), "power_of_two" (003)
    cap: int = 0  # the most one payer pays, in units (0: no cap)
    xuezhan: object | None = None  # the 血战 table rules (sim.xuezhan.switches.XuezhanSwitches); None for 二人
    scoring: str = "mcr"  # the 二人 evaluator: "mcr" (fans are the money) or "challenge" (004's points)
    tiles_in_play: int = 0  # tiles each deal plays of the shuffled set (0: all)
    bonus_tiles: int = 0  # tiles turned face up after the deal (004's 花牌)
    extra_draws: int = 0  # draws after an exhausted wall for a declared-ready hand (004)
    non_dealer_heavenly_ready: str = "after_deal"  # when the non-dealer may declare 天听: "after_deal" or "first_draw" (004)
    start_exchange: bool = False  # 004's assists for seat 0, the player: 起始换牌,
    pick_chance: float = 0.0  # 搓牌 at each draw with this chance,
    pung_offer_chance: float = 0.0  # and 换刻子 offered at each draw with this chance
    points: object | None = None  # scoring = "challenge": the price of a win (sim.erren.switches.Points)
    is_limit: np.ndarray | None = field(default=None, repr=False)  # bool (N_FANS,): the 役满 (all False but in scoring = "challenge")
    # A later family's own table rules (its switches module's dataclass: sim.mcr.switches.McrSwitches), so that a
    # family after 二人 and 血战 needs no field of its own here; None for 二人 and 血战.
    family_switches: object | None = None

    @property
    def fans(self) -> list[Fan]:
        """The fans this ruleset scores, by decreasing value (the order of the seed tables)."""
        return [Fan(fan) for fan in self.order if self.values[fan] > 0]

    def excludes(self, fan: Fan) -> set[Fan]:
        start, stop = self.exclusion_start[fan], self.exclusion_start[fan + 1]
        return {Fan(target) for target in self.exclusion_target[start:stop]}

    def kernel_arrays(self):
        """(values, priority, exclusion_start, exclusion_target), as the evaluator kernel takes them."""
        return self.values, self.priority, self.exclusion_start, self.exclusion_target


def _kind_words(kind) -> str:
    """What a switch of type `kind` looks like in a file."""
    words = {str: "a string in quotes", int: "a whole number", bool: "true or false", list: "a list, such as [2, 3]",
             float: "a number"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(dict.fromkeys(words[each] for each in kinds))


def check_at_most(fail, where: str, value: int, largest: int) -> None:
    """`fail` (the loader's: one RulesetError naming the file) when a setting is more than the records hold."""
    if value > largest:
        fail(f"{where} = {value} is more than {largest:,}, the most the deal records and money arithmetic hold")


@dataclass(frozen=True)
class FamilySchema:
    """What a family's ruleset files hold beyond the fans: its switches (key -> type), its extra top-level
    tables, and how the switches become the Ruleset's settings.

    ``settings(switches, data, fail)`` gets the ``[ruleset]`` table, its keys already checked for type, and the
    whole parsed file; it calls ``fail(message)`` on the first problem, else returns the Ruleset's fields it
    sets (``min_fan``, ``flowers``, ``max_doubles``, ``ready_requires_concealed``, ``players``, ``combine``,
    ``cap`` and any of the family's own) and, optionally, ``dropped_fans``: listed fans a table option switches
    off."""

    switches: dict
    tables: tuple[str, ...]
    settings: Callable[[dict, dict, Callable], dict]
    tile_sets: tuple[str, ...]  # the tile sets (kernels.tiles.TILE_SETS) its engine plays
    optional_switches: dict = field(default_factory=dict)  # key -> (type, default)


@functools.cache
def family_schemas() -> dict[str, FamilySchema]:
    """Every family's schema by its name, the name of its package: each ``sim/<family>/switches.py`` declares
    ``SCHEMA``. The loader finds them by looking, so that it names no family and every layer may load a
    ruleset; importing a family's module from here is the one import that runs upward (docs/layout.md)."""
    return {path.parent.name: importlib.import_module(f"sim.{path.parent.name}.switches").SCHEMA
            for path in sorted(FAMILIES_DIR.glob("*/switches.py"))}


def available() -> list[str]:
    return sorted(path.stem for path in RULESET_DIR.glob("*.toml"))


@functools.cache
def _load_path(path: Path) -> Ruleset:
    data, text = read_toml(path, RulesetError, "ruleset file")
    ruleset = parse_ruleset(data, text, str(path))
    shipped = RULESET_DIR / f"{ruleset.id}.toml"
    if ruleset.id in available() and path != shipped.resolve() and shipped.read_text(encoding="utf-8") != text:
        # its tables, run directories and reports would carry the shipped ruleset's id for other rules
        raise RulesetError(f"{path}: id = {ruleset.id!r} is the id of a shipped ruleset, and this file differs from "
                           f"it; give your variant an id of its own in [ruleset] (and a name), such as "
                           f"id = \"{ruleset.id}-variant\"")
    return ruleset


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    """A shipped ruleset by id (``erren``, ``erren-classic``) or any ruleset file by path."""
    text = str(name_or_path)
    if text.endswith(".toml") or "/" in text:
        path = Path(text)
        if not path.exists():
            raise RulesetError(f"ruleset file {path} does not exist")
        return _load_path(path.resolve())
    path = RULESET_DIR / f"{text}.toml"
    if not path.is_file():
        raise RulesetError(f"unknown ruleset {text!r}; choose one of {', '.join(available())}, or give a .toml file")
    return _load_path(path)


def parse_ruleset_text(text: str, where: str) -> Ruleset:
    """A ruleset from the text of its file (as a run keeps it), within the limits of every TOML file read."""
    try:
        data = parse_toml(text)
    except InputLimitError as problem:
        raise RulesetError(f"{where} {problem}") from None
    return parse_ruleset(data, text, where)


def parse_ruleset(data: dict, source: str = "", where: str = "ruleset") -> Ruleset:
    """Validate parsed TOML and build the kernel arrays; every problem is one RulesetError."""

    def fail(message):
        raise RulesetError(f"{where}: {message}")

    switches = data.get("ruleset")
    if not isinstance(switches, dict):
        fail("missing the [ruleset] table; start from a shipped ruleset: mjsim rules erren --toml > mine.toml")
    family = switches.get("family", "erren")
    schemas = family_schemas()
    if not isinstance(family, str) or family not in schemas:
        fail(f"[ruleset] family = {family!r} is not one of {', '.join(schemas)}")
    schema = schemas[family]
    tables = {"ruleset", "fans", *schema.tables}
    unknown = set(data) - tables
    if unknown:
        fail(f"unknown top-level table {min(unknown)!r}; a {family} ruleset has {', '.join(f'[{name}]' for name in sorted(tables))} "
             f"tables: remove it, or correct its name")
    expected = schema.switches
    optional = schema.optional_switches
    for key, (kind, default) in optional.items():
        value = switches.get(key, default)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            fail(f"[ruleset] {key} = {value!r} has the wrong type: write {_kind_words(kind)}")
    for key, kind in expected.items():
        if key not in switches:
            fail(f"[ruleset] lacks {key!r}: add it ({_kind_words(kind)}; mjsim rules <ruleset> --toml shows every switch)")
        value = switches[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            fail(f"[ruleset] {key} = {value!r} has the wrong type: write {_kind_words(kind)}")
    allowed = set(expected) | set(optional) | {"family"}
    extra = set(switches) - allowed
    if extra:
        key = min(extra)
        for other, other_schema in schemas.items():
            if other != family and key in other_schema.switches:
                fail(f"[ruleset] {key!r} is a switch of the {other} family, not of a family = {family!r} ruleset")
        fail(f"[ruleset] has an unknown switch {key!r}: remove it, or correct its name; known: {', '.join([*expected, *optional])}")
    if switches["tile_set"] not in TILE_SETS:
        fail(f"[ruleset] tile_set {switches['tile_set']!r} is not one of {', '.join(TILE_SETS)}")
    if switches["tile_set"] not in schema.tile_sets:
        fail(f"[ruleset] tile_set {switches['tile_set']!r} is not played by the {family} family (it plays {', '.join(schema.tile_sets)})")
    settings = schema.settings(switches, data, fail)
    largest = LARGEST_FAN_VALUE[settings["combine"]]

    fans = data.get("fans")
    if not isinstance(fans, dict) or not fans:
        fail("no [fans.<id>] tables")
    ids = {fan_id: Fan(index) for index, fan_id in enumerate(FAN_IDS)}
    values = np.zeros(N_FANS, np.int32)
    limits = np.zeros(N_FANS, np.bool_)
    names: dict[Fan, str] = {}
    for fan_id, entry in fans.items():
        if fan_id not in ids:
            fail(f"unknown fan id {fan_id!r}: correct it or remove the table (the ids are the names in kernels/fan_ids.py, "
                 f"lower case; mjsim rules <ruleset> lists a ruleset's)")
        if not isinstance(entry, dict) or not FAN_KEYS <= set(entry) <= FAN_KEYS | {LIMIT_KEY}:
            fail(f"[fans.{fan_id}] must have exactly the keys name, value and excludes (and limit, for a 役满)")
        if LIMIT_KEY in entry:
            if settings.get("points") is None:
                fail(f"[fans.{fan_id}] limit: only a scoring = 'challenge' ruleset has 役满")
            if entry[LIMIT_KEY] is not True:
                fail(f"[fans.{fan_id}] limit must be true (leave it out for a regular fan)")
            limits[ids[fan_id]] = True
        value = entry["value"]
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            fail(f"[fans.{fan_id}] value must be a positive integer, not {value!r}")
        if value > largest:
            fail(f"[fans.{fan_id}] value {value} is more than {largest:,}, the most a fan may be worth where fans "
                 f"{COMBINE_WORDS[settings['combine']]} (the deal records hold 32-bit totals)")
        if not isinstance(entry["name"], str) or not entry["name"]:
            fail(f"[fans.{fan_id}] name must be the seed's name of the fan")
        names[ids[fan_id]] = entry["name"]
        values[ids[fan_id]] = value
    if (settings["flowers"] or settings.get("bonus_tiles", 0) > 0) != (Fan.FLOWER_TILES in names):
        if Fan.FLOWER_TILES in names:
            fail("[fans.flower_tiles] scores flowers (花牌), which this ruleset does not deal: remove the [fans.flower_tiles] "
                 "table and 'flower_tiles' from every excludes list, or set flowers = true")
        fail("flowers = true (or bonus_tiles) needs a [fans.flower_tiles] table (name, value, excludes = []): add one, "
             "or set flowers = false")

    targets: list[list[int]] = [[] for _ in range(N_FANS)]
    for fan_id, entry in fans.items():
        excluded = entry["excludes"]
        if not isinstance(excluded, list):
            fail(f"[fans.{fan_id}] excludes must be a list of fan ids")
        for target in excluded:
            if not isinstance(target, str) or target not in ids:
                fail(f"[fans.{fan_id}] excludes unknown fan id {target!r}: correct it or remove it from the list")
            if target == fan_id:
                fail(f"[fans.{fan_id}] excludes itself")
            if ids[target] not in names:
                fail(f"[fans.{fan_id}] excludes {target!r}, which this ruleset does not score: remove it from the list, "
                     f"or score it with a [fans.{target}] table")
            if ids[target] in targets[ids[fan_id]]:
                fail(f"[fans.{fan_id}] excludes {target!r} twice: list it once")
            targets[ids[fan_id]].append(ids[target])
    for fan in names:
        for target in targets[fan]:
            if values[target] > values[fan]:
                fail(f"[fans.{FAN_IDS[fan]}] (value {values[fan]}) excludes the more valuable {FAN_IDS[target]!r} (value "
                     f"{values[target]}): a fan excludes only fans worth no more than itself; raise its value, lower "
                     f"{FAN_IDS[target]!r}'s, or remove it from the list")
            # An exclusion of 根 takes one 根 (the four its pattern is built on), so the evaluator must meet the
            # excluding fan before 根 itself: it comes first only when it is worth more.
            if target == Fan.ROOT and values[target] >= values[fan]:
                fail(f"[fans.{FAN_IDS[fan]}] (value {values[fan]}) excludes 'root' and must be worth more than it")

    # Table options that switch a listed fan off (003's 加底 and 门清中张): the entry stays in the file.
    dropped = set(settings.get("dropped_fans", ()))
    for fan in dropped & set(names):
        values[fan] = 0
        del names[fan]
        targets[fan] = []
    if dropped:
        targets = [[target for target in listed if target not in dropped] for listed in targets]

    file_order = {fan: position for position, fan in enumerate(names)}
    order = sorted(range(N_FANS), key=lambda fan: (-values[fan], file_order.get(fan, N_FANS + fan)))
    exclusion_start = np.zeros(N_FANS + 1, np.int32)
    for fan in range(N_FANS):
        exclusion_start[fan + 1] = exclusion_start[fan] + len(targets[fan])
    exclusion_target = np.array([target for fan in range(N_FANS) for target in targets[fan]], np.int16)
    for fan in names:
        if any(limits[target] != limits[fan] for target in targets[fan]):
            fail(f"[fans.{FAN_IDS[fan]}] excludes across 役满 and regular fans (a 役满 hand keeps only its 役满 anyway)")
    for array in (values, exclusion_start, exclusion_target, limits):
        array.setflags(write=False)
    order_array = np.array(order, np.int16)
    priority = np.empty(N_FANS, np.int16)
    priority[order_array] = np.arange(N_FANS)
    order_array.setflags(write=False)
    priority.setflags(write=False)
    return Ruleset(
        id=switches["id"],
        name=switches["name"],
        seed=switches["seed"],
        tile_set=switches["tile_set"],
        min_fan=settings["min_fan"],
        flowers=settings["flowers"],
        max_doubles=settings["max_doubles"],
        ready_requires_concealed=settings["ready_requires_concealed"],
        fan_names=names,
        values=values,
        order=order_array,
        priority=priority,
        exclusion_start=exclusion_start,
        exclusion_target=exclusion_target,
        source=source,
        family=family,
        players=settings["players"],
        combine=settings["combine"],
        cap=settings["cap"],
        xuezhan=settings.get("xuezhan"),
        scoring=settings.get("scoring", "mcr"),
        tiles_in_play=settings.get("tiles_in_play", 0),
        bonus_tiles=settings.get("bonus_tiles", 0),
        extra_draws=settings.get("extra_draws", 0),
        non_dealer_heavenly_ready=settings.get("non_dealer_heavenly_ready", "after_deal"),
        start_exchange=settings.get("start_exchange", False),
        pick_chance=settings.get("pick_chance", 0.0),
        pung_offer_chance=settings.get("pung_offer_chance", 0.0),
        points=settings.get("points"),
        is_limit=limits,
        family_switches=settings.get("family_switches"),
    )



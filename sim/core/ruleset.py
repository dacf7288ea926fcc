"""Rulesets as data: load and validate a ruleset file (``sim/rulesets/<id>.toml``) into kernel arrays.

A ruleset file has a ``[ruleset]`` table of switches and one ``[fans.<id>]`` table per fan it scores,
with the seed's name, the value and the fans it excludes. The optional ``family`` switch says which switch
set the file carries: "erren" (the default: 二人麻将, additive fans) or "xuezhan" (the 血战 family of
docs/rules/xuezhan-table.md, which also has a ``[kong_money]`` table); a file may not carry the other family's
switches. An erren file with ``scoring = "challenge"`` (004's 闯关 game) also has a ``[points]`` table and marks
its 役满 with ``limit = true``. The loader checks everything (known ids,
positive values, exclusions that name scored fans, switch types) and reports the first problem as one
RulesetError naming the file and the key. The kernel sees only arrays: a value per fan id (0 = not
scored), the order in which fans exclude others (by value, then file order) and the exclusion lists.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np

from kernels.fan_ids import FAN_IDS, N_FANS, Fan
from kernels.tiles import TILE_SETS
from sim.core.input_limits import InputLimitError, parse_toml, read_toml

RULESET_DIR = Path(__file__).parent.parent / "rulesets"
SWITCHES = {
    "id": str,
    "name": str,
    "seed": str,
    "tile_set": str,
    "min_fan": int,
    "flowers": bool,
    "max_doubles": (int, str),
    "ready_requires_concealed": bool,
}
# Switches an erren-family file may leave out, with their defaults: 004's 闯关 game (erren-challenge) sets them.
OPTIONAL_SWITCHES = {
    "scoring": (str, "mcr"),  # "mcr": kernels/fans/mcr.py and fans as money; "challenge": kernels/fans/challenge.py and [points]
    "tiles_in_play": (int, 0),  # tiles of the shuffled set each deal plays (0: all of them)
    "bonus_tiles": (int, 0),  # tiles turned face up after the deal, worth 1 fan per matching tile (004's 花牌)
    "extra_draws": (int, 0),  # draws for a declared-ready hand from the out-of-play tiles after an exhausted wall
    # when the non-dealer may declare 天听: "after_deal" (before its first draw, 000/001) or "first_draw"
    # (on its first draw, throwing the tile drawn: 004)
    "non_dealer_heavenly_ready": (str, "after_deal"),
    # 004's assists for the player (seat 0) in the 闯关 levels, off in a plain deal (docs/rules/erren-challenge.md):
    "start_exchange": (bool, False),  # 起始换牌: after the deal the player exchanges tiles for out-of-play ones
    "pick_chance": ((int, float), 0.0),  # 搓牌: the chance, at each of the player's draws, to take a tile it picks
    "pung_offer_chance": ((int, float), 0.0),  # 换刻子: the chance, at each draw, of an offer of three of a kind
}
ASSIST_CHANCES = ("pick_chance", "pung_offer_chance")
SCORINGS = ("mcr", "challenge")
HEAVENLY_READY_TIMES = ("after_deal", "first_draw")
POINTS_KEYS = ("fan_cap", "per_fan_step", "per_limit")
XUEZHAN_SWITCHES = {
    "id": str,
    "name": str,
    "seed": str,
    "tile_set": str,
    "family": str,
    "players": list,
    "combine": str,
    "cap": int,
    "self_drawn_bonus": str,
    "kong_units_in_win": bool,
    "declared_ready": bool,
    "pass_pong_lock": bool,
    "pass_win_lock": bool,
    "missed_win_lock": bool,
    "passed_kong_pays": bool,
    "last_tile_kong": bool,
    "chajiao_voids_kong_money": bool,
    "all_simples_scored": bool,
    "earthly_hand_self_drawn": bool,
    "exchange_three": bool,
    "void_suit": bool,
}
KONG_MONEY_KEYS = ("exposed_discarder", "exposed_others", "added_others", "concealed_others")
XUEZHAN_COMBINES = ("multiply", "power_of_two")
XUEZHAN_SEAT_COUNTS = (2, 3, 4)
SELF_DRAWN_BONUSES = ("fan", "unit")
FAN_KEYS = {"name", "value", "excludes"}
LIMIT_KEY = "limit"  # a fan entry's optional `limit = true`: a 役满 (scoring = "challenge" only)
UNLIMITED = "unlimited"


class RulesetError(ValueError):
    """A ruleset that does not exist or whose file is malformed."""


@dataclass(frozen=True)
class XuezhanSwitches:
    """The table rules of a 血战-family ruleset (docs/rules/xuezhan-table.md); kong money in units of the base stake."""

    self_drawn_bonus: str  # "fan": 自摸 is a fan (003 加番); "unit": +1 unit per payer instead (003 加底)
    kong_units_in_win: bool  # 003: a win is worth 2**fans + the winner's kong units
    declared_ready: bool  # 报叫
    pass_pong_lock: bool  # 过手碰
    pass_win_lock: bool  # 过水胡
    missed_win_lock: bool  # 漏胡
    passed_kong_pays: bool  # 过手杠 earns kong money
    last_tile_kong: bool  # the last tile may be konged (false: ponged only)
    chajiao_voids_kong_money: bool  # a player who pays 查叫 gives back its kong money
    all_simples_scored: bool  # 中张 / 断幺九 is scored
    earthly_hand_self_drawn: bool  # 地胡 also for a non-dealer's self-draw on its first draw (003)
    exchange_three: bool  # 换三张: each seat passes three tiles of one suit, in a drawn direction
    void_suit: bool  # 定缺: each seat declares a suit it must discard first and may not win holding
    exposed_discarder: int  # exposed kong from a discard: what the discarder pays
    exposed_others: int  # ... and what every other player still in pays (擦挂)
    added_others: int  # added kong (补杠/巴杠): every other player still in
    concealed_others: int  # concealed kong: every other player still in


@dataclass(frozen=True)
class Points:
    """How an erren-challenge win is priced (its [points] table): f fans score f·(f+1)·per_fan_step, f at most
    fan_cap; N 役满 score N·per_limit."""

    fan_cap: int
    per_fan_step: int
    per_limit: int

    def of(self, fans: int, limits: int) -> int:
        if limits:
            return limits * self.per_limit
        fans = min(fans, self.fan_cap)
        return fans * (fans + 1) * self.per_fan_step


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
    xuezhan: XuezhanSwitches | None = None  # the 血战 table rules; None for 二人
    scoring: str = "mcr"  # the 二人 evaluator: "mcr" (fans are the money) or "challenge" (004's points)
    tiles_in_play: int = 0  # tiles each deal plays of the shuffled set (0: all)
    bonus_tiles: int = 0  # tiles turned face up after the deal (004's 花牌)
    extra_draws: int = 0  # draws after an exhausted wall for a declared-ready hand (004)
    non_dealer_heavenly_ready: str = "after_deal"  # when the non-dealer may declare 天听: "after_deal" or "first_draw" (004)
    start_exchange: bool = False  # 004's assists for seat 0, the player: 起始换牌,
    pick_chance: float = 0.0  # 搓牌 at each draw with this chance,
    pung_offer_chance: float = 0.0  # and 换刻子 offered at each draw with this chance
    points: Points | None = None  # scoring = "challenge": the price of a win
    is_limit: np.ndarray | None = field(default=None, repr=False)  # bool (N_FANS,): the 役满 (all False but in scoring = "challenge")

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


def available() -> list[str]:
    return sorted(path.stem for path in RULESET_DIR.glob("*.toml"))


@functools.cache
def _load_path(path: Path) -> Ruleset:
    data, text = read_toml(path, RulesetError, "ruleset file")
    return parse_ruleset(data, text, str(path))


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
        fail("missing the [ruleset] table")
    family = switches.get("family", "erren")
    if not isinstance(family, str) or family not in FAMILY_SCHEMAS:
        fail(f"[ruleset] family = {family!r} is not one of {', '.join(FAMILY_SCHEMAS)}")
    schema = FAMILY_SCHEMAS[family]
    tables = {"ruleset", "fans", *schema.tables}
    unknown = set(data) - tables
    if unknown:
        fail(f"unknown top-level table {min(unknown)!r}; a {family} ruleset has {', '.join(f'[{name}]' for name in sorted(tables))} tables")
    expected = schema.switches
    optional = schema.optional_switches
    for key, (kind, default) in optional.items():
        value = switches.get(key, default)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            fail(f"[ruleset] {key} = {value!r} has the wrong type")
    for key, kind in expected.items():
        if key not in switches:
            fail(f"[ruleset] lacks {key!r}")
        value = switches[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            fail(f"[ruleset] {key} = {value!r} has the wrong type")
    allowed = set(expected) | set(optional) | {"family"}
    extra = set(switches) - allowed
    if extra:
        key = min(extra)
        for other, other_schema in FAMILY_SCHEMAS.items():
            if other != family and key in other_schema.switches:
                fail(f"[ruleset] {key!r} is a switch of the {other} family, not of a family = {family!r} ruleset")
        fail(f"[ruleset] has an unknown switch {key!r}; known: {', '.join([*expected, *optional])}")
    if switches["tile_set"] not in TILE_SETS:
        fail(f"[ruleset] tile_set {switches['tile_set']!r} is not one of {', '.join(TILE_SETS)}")
    if switches["tile_set"] not in schema.tile_sets:
        fail(f"[ruleset] tile_set {switches['tile_set']!r} is not played by the {family} family (it plays {', '.join(schema.tile_sets)})")
    settings = schema.settings(switches, data, fail)
    if switches["tile_set"] not in settings.get("tile_sets", schema.tile_sets):
        fail(f"[ruleset] tile_set {switches['tile_set']!r} needs scoring = 'challenge' (the MCR evaluator plays 万 and honours)")
    largest = LARGEST_FAN_VALUE[settings["combine"]]
    xuezhan = settings.get("xuezhan")

    fans = data.get("fans")
    if not isinstance(fans, dict) or not fans:
        fail("no [fans.<id>] tables")
    ids = {fan_id: Fan(index) for index, fan_id in enumerate(FAN_IDS)}
    values = np.zeros(N_FANS, np.int32)
    limits = np.zeros(N_FANS, np.bool_)
    names: dict[Fan, str] = {}
    for fan_id, entry in fans.items():
        if fan_id not in ids:
            fail(f"unknown fan id {fan_id!r} (the ids are the names in kernels/fan_ids.py, lower case)")
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
        fail("flowers = true (or bonus_tiles) needs a [fans.flower_tiles] entry, and a game without either forbids one")

    targets: list[list[int]] = [[] for _ in range(N_FANS)]
    for fan_id, entry in fans.items():
        excluded = entry["excludes"]
        if not isinstance(excluded, list):
            fail(f"[fans.{fan_id}] excludes must be a list of fan ids")
        for target in excluded:
            if not isinstance(target, str) or target not in ids:
                fail(f"[fans.{fan_id}] excludes unknown fan id {target!r}")
            if target == fan_id:
                fail(f"[fans.{fan_id}] excludes itself")
            if ids[target] not in names:
                fail(f"[fans.{fan_id}] excludes {target!r}, which this ruleset does not score")
            if ids[target] in targets[ids[fan_id]]:
                fail(f"[fans.{fan_id}] excludes {target!r} twice")
            targets[ids[fan_id]].append(ids[target])
    for fan in names:
        for target in targets[fan]:
            if values[target] > values[fan]:
                fail(f"[fans.{FAN_IDS[fan]}] (value {values[fan]}) excludes the more valuable {FAN_IDS[target]!r}")
            # An exclusion of 根 takes one 根 (the four its pattern is built on), so the evaluator must meet the
            # excluding fan before 根 itself: it comes first only when it is worth more.
            if target == Fan.ROOT and values[target] >= values[fan]:
                fail(f"[fans.{FAN_IDS[fan]}] (value {values[fan]}) excludes 'root' and must be worth more than it")

    # Table options that switch a listed fan off (003's 加底 and 门清中张): the entry stays in the file.
    dropped = set()
    if xuezhan is not None and xuezhan.self_drawn_bonus == "unit":
        dropped.add(Fan.SELF_DRAWN)
    if xuezhan is not None and not xuezhan.all_simples_scored:
        dropped.add(Fan.ALL_SIMPLES)
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
        xuezhan=xuezhan,
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
    )


# What the 32-bit deal records and the money arithmetic hold, with room to spare: the largest value of one
# fan by how a family combines fans, and the largest settings.
LARGEST_FAN_VALUE = {"add": 10_000, "multiply": 1_024, "power_of_two": 16}
COMBINE_WORDS = {"add": "are added", "multiply": "are multiplied", "power_of_two": "are exponents of two"}
LARGEST_SETTING = 1_000_000  # min_fan, cap, each kong payment
LARGEST_DOUBLES = 16
LARGEST_DRAWS = 10  # bonus tiles, extra draws
MIN_TILES_IN_PLAY = 40  # two dealt hands, a bonus tile and room to play


def _check_at_most(fail, where: str, value: int, largest: int) -> None:
    if value > largest:
        fail(f"{where} = {value} is more than {largest:,}, the most the deal records and money arithmetic hold")


def _erren_settings(switches: dict, data: dict, fail) -> dict:
    if switches["min_fan"] < 0:
        fail("[ruleset] min_fan must be 0 or more")
    _check_at_most(fail, "[ruleset] min_fan", switches["min_fan"], LARGEST_SETTING)
    max_doubles = switches["max_doubles"]
    if isinstance(max_doubles, str):
        if max_doubles != UNLIMITED:
            fail(f"[ruleset] max_doubles is a number of doubles or {UNLIMITED!r}, not {max_doubles!r}")
        max_doubles = None
    elif isinstance(max_doubles, bool) or max_doubles < 0:
        fail("[ruleset] max_doubles must be 0 or more")
    else:
        _check_at_most(fail, "[ruleset] max_doubles", max_doubles, LARGEST_DOUBLES)
    chosen = {key: switches.get(key, default) for key, (_, default) in OPTIONAL_SWITCHES.items()}
    if chosen["scoring"] not in SCORINGS:
        fail(f"[ruleset] scoring = {chosen['scoring']!r} is not one of {', '.join(SCORINGS)}")
    if chosen["non_dealer_heavenly_ready"] not in HEAVENLY_READY_TIMES:
        fail(f"[ruleset] non_dealer_heavenly_ready = {chosen['non_dealer_heavenly_ready']!r} is not one of "
             f"{', '.join(HEAVENLY_READY_TIMES)}")
    in_set = int(TILE_SETS[switches["tile_set"]].sum()) if switches["tile_set"] in TILE_SETS else 0
    if not 0 <= chosen["tiles_in_play"] <= in_set or 0 < chosen["tiles_in_play"] < MIN_TILES_IN_PLAY:
        fail(f"[ruleset] tiles_in_play = {chosen['tiles_in_play']} must be 0 (all) or {MIN_TILES_IN_PLAY}-{in_set}, the tiles of the set")
    for key in ("bonus_tiles", "extra_draws"):
        if not 0 <= chosen[key] <= LARGEST_DRAWS:
            fail(f"[ruleset] {key} = {chosen[key]} must be 0-{LARGEST_DRAWS}")
    for key in ASSIST_CHANCES:
        if isinstance(chosen[key], bool) or not 0 <= chosen[key] <= 1:
            fail(f"[ruleset] {key} = {chosen[key]!r} must be a chance from 0 to 1")
        chosen[key] = float(chosen[key])
    assisted = chosen["start_exchange"] or any(chosen[key] > 0 for key in ASSIST_CHANCES)
    if assisted and (switches["flowers"] or not 0 < chosen["tiles_in_play"] < in_set):
        fail("[ruleset] the assists (start_exchange, pick_chance, pung_offer_chance) need out-of-play tiles "
             "(tiles_in_play below the set) and no flowers")
    points = data.get("points")
    if chosen["scoring"] == "challenge":
        if not isinstance(points, dict):
            fail("a scoring = 'challenge' ruleset needs a [points] table")
        for key in POINTS_KEYS:
            value = points.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                fail(f"[points] {key} = {value!r} must be a positive whole number")
            _check_at_most(fail, f"[points] {key}", value, LARGEST_SETTING)
        extra = set(points) - set(POINTS_KEYS)
        if extra:
            fail(f"[points] has an unknown key {min(extra)!r}; known: {', '.join(POINTS_KEYS)}")
        points = Points(**{key: points[key] for key in POINTS_KEYS})
    elif points is not None:
        fail("[points] belongs to a scoring = 'challenge' ruleset")
    return {
        "min_fan": switches["min_fan"],
        "flowers": switches["flowers"],
        "max_doubles": max_doubles,
        "ready_requires_concealed": switches["ready_requires_concealed"],
        "players": (2,),
        "combine": "add",
        "cap": 0,
        **chosen,
        "points": points,
        "tile_sets": ("all",) if chosen["scoring"] == "challenge" else ("wan-honours",),
    }


def _xuezhan_settings(switches: dict, data: dict, fail) -> dict:
    kong_money = data.get("kong_money")
    players = switches["players"]
    if (
        not players
        or not all(isinstance(count, int) and not isinstance(count, bool) and count in XUEZHAN_SEAT_COUNTS for count in players)
        or len(set(players)) != len(players)
    ):
        fail(f"[ruleset] players = {players!r} must list distinct seat counts from {XUEZHAN_SEAT_COUNTS}")
    if switches["combine"] not in XUEZHAN_COMBINES:
        fail(f"[ruleset] combine = {switches['combine']!r} is not one of {', '.join(XUEZHAN_COMBINES)}")
    if switches["cap"] < 0:
        fail("[ruleset] cap must be 0 (no cap) or more")
    _check_at_most(fail, "[ruleset] cap", switches["cap"], LARGEST_SETTING)
    if switches["self_drawn_bonus"] not in SELF_DRAWN_BONUSES:
        fail(f"[ruleset] self_drawn_bonus = {switches['self_drawn_bonus']!r} is not one of {', '.join(SELF_DRAWN_BONUSES)}")
    if not isinstance(kong_money, dict):
        fail("a family = 'xuezhan' ruleset needs a [kong_money] table")
    for key in KONG_MONEY_KEYS:
        if key not in kong_money:
            fail(f"[kong_money] lacks {key!r}")
        value = kong_money[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            fail(f"[kong_money] {key} = {value!r} must be a whole number of units, 0 or more")
        _check_at_most(fail, f"[kong_money] {key}", value, LARGEST_SETTING)
    extra = set(kong_money) - set(KONG_MONEY_KEYS)
    if extra:
        fail(f"[kong_money] has an unknown key {min(extra)!r}; known: {', '.join(KONG_MONEY_KEYS)}")
    names = [switch.name for switch in fields(XuezhanSwitches)]
    xuezhan = XuezhanSwitches(**{name: switches[name] if name in switches else kong_money[name] for name in names})
    return {
        "min_fan": 0,
        "flowers": False,
        "max_doubles": 0,
        "ready_requires_concealed": False,
        "players": tuple(players),
        "combine": switches["combine"],
        "cap": switches["cap"],
        "xuezhan": xuezhan,
    }


@dataclass(frozen=True)
class FamilySchema:
    """What a family's ruleset files hold beyond the fans: its switches (key -> type), its extra top-level
    tables, and how the switches become the Ruleset's settings."""

    switches: dict
    tables: tuple[str, ...]
    settings: Callable[[dict, dict, Callable], dict]
    tile_sets: tuple[str, ...]  # the tile sets (kernels.tiles.TILE_SETS) its engine plays
    optional_switches: dict = field(default_factory=dict)  # key -> (type, default)


# The one place the loader knows the families (the family packages, sim.families, play what it loads).
FAMILY_SCHEMAS = {
    "erren": FamilySchema(SWITCHES, ("points",), _erren_settings, ("wan-honours", "all"), OPTIONAL_SWITCHES),
    "xuezhan": FamilySchema(XUEZHAN_SWITCHES, ("kong_money",), _xuezhan_settings, ("tong-tiao",)),
}

"""Rulesets as data: load and validate a ruleset file (``sim/rulesets/<id>.toml``) into kernel arrays.

A ruleset file has a ``[ruleset]`` table of switches and one ``[fans.<id>]`` table per fan it scores,
with the seed's name, the value and the fans it excludes. The loader checks everything (known ids,
positive values, exclusions that name scored fans, switch types) and reports the first problem as one
RulesetError naming the file and the key. The kernel sees only arrays: a value per fan id (0 = not
scored), the order in which fans exclude others (by value, then file order) and the exclusion lists.
"""

import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kernels.fan_ids import FAN_IDS, N_FANS, Fan
from kernels.tiles import TILE_SETS

RULESET_DIR = Path(__file__).parent / "rulesets"
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
FAN_KEYS = {"name", "value", "excludes"}
UNLIMITED = "unlimited"


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
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulesetError(f"cannot read ruleset file {path}: {error.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesetError(f"{path}: not valid TOML: {error}") from None
    return parse_ruleset(data, text, str(path))


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    """A shipped ruleset by id (``erren``, ``erren-classic``) or any ruleset file by path."""
    text = str(name_or_path)
    if text.endswith(".toml") or "/" in text:
        path = Path(text)
        if not path.is_file():
            raise RulesetError(f"ruleset file {path} does not exist")
        return _load_path(path.resolve())
    path = RULESET_DIR / f"{text}.toml"
    if not path.is_file():
        raise RulesetError(f"unknown ruleset {text!r}; choose one of {', '.join(available())}, or give a .toml file")
    return _load_path(path)


def parse_ruleset(data: dict, source: str = "", where: str = "ruleset") -> Ruleset:
    """Validate parsed TOML and build the kernel arrays; every problem is one RulesetError."""

    def fail(message):
        raise RulesetError(f"{where}: {message}")

    unknown = set(data) - {"ruleset", "fans"}
    if unknown:
        fail(f"unknown top-level table {sorted(unknown)[0]!r}; a ruleset has [ruleset] and [fans.<id>] tables")
    switches = data.get("ruleset")
    if not isinstance(switches, dict):
        fail("missing the [ruleset] table")
    for key, kind in SWITCHES.items():
        if key not in switches:
            fail(f"[ruleset] lacks {key!r}")
        value = switches[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            fail(f"[ruleset] {key} = {value!r} has the wrong type")
    extra = set(switches) - set(SWITCHES)
    if extra:
        fail(f"[ruleset] has an unknown switch {sorted(extra)[0]!r}; known: {', '.join(SWITCHES)}")
    if switches["tile_set"] not in TILE_SETS:
        fail(f"[ruleset] tile_set {switches['tile_set']!r} is not one of {', '.join(TILE_SETS)}")
    if switches["min_fan"] < 0:
        fail("[ruleset] min_fan must be 0 or more")
    max_doubles = switches["max_doubles"]
    if isinstance(max_doubles, str):
        if max_doubles != UNLIMITED:
            fail(f"[ruleset] max_doubles is a number of doubles or {UNLIMITED!r}, not {max_doubles!r}")
        max_doubles = None
    elif isinstance(max_doubles, bool) or max_doubles < 0:
        fail("[ruleset] max_doubles must be 0 or more")

    fans = data.get("fans")
    if not isinstance(fans, dict) or not fans:
        fail("no [fans.<id>] tables")
    ids = {fan_id: Fan(index) for index, fan_id in enumerate(FAN_IDS)}
    values = np.zeros(N_FANS, np.int32)
    names: dict[Fan, str] = {}
    for fan_id, entry in fans.items():
        if fan_id not in ids:
            fail(f"unknown fan id {fan_id!r} (the ids are the names in kernels/fan_ids.py, lower case)")
        if not isinstance(entry, dict) or set(entry) != FAN_KEYS:
            fail(f"[fans.{fan_id}] must have exactly the keys name, value and excludes")
        value = entry["value"]
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            fail(f"[fans.{fan_id}] value must be a positive integer, not {value!r}")
        if not isinstance(entry["name"], str) or not entry["name"]:
            fail(f"[fans.{fan_id}] name must be the seed's name of the fan")
        names[ids[fan_id]] = entry["name"]
        values[ids[fan_id]] = value
    if switches["flowers"] != (Fan.FLOWER_TILES in names):
        fail("flowers = true needs a [fans.flower_tiles] entry, and flowers = false forbids one")

    targets: list[list[int]] = [[] for _ in range(N_FANS)]
    for fan_id, entry in fans.items():
        excluded = entry["excludes"]
        if not isinstance(excluded, list):
            fail(f"[fans.{fan_id}] excludes must be a list of fan ids")
        for target in excluded:
            if target not in ids:
                fail(f"[fans.{fan_id}] excludes unknown fan id {target!r}")
            if target == fan_id:
                fail(f"[fans.{fan_id}] excludes itself")
            if ids[target] not in names:
                fail(f"[fans.{fan_id}] excludes {target!r}, which this ruleset does not score")
            if ids[target] in targets[ids[fan_id]]:
                fail(f"[fans.{fan_id}] excludes {target!r} twice")
            targets[ids[fan_id]].append(ids[target])

    file_order = {fan: position for position, fan in enumerate(names)}
    order = sorted(range(N_FANS), key=lambda fan: (-values[fan], file_order.get(fan, N_FANS + fan)))
    for fan in names:
        for target in targets[fan]:
            if values[target] > values[fan]:
                fail(f"[fans.{FAN_IDS[fan]}] (value {values[fan]}) excludes the more valuable {FAN_IDS[target]!r}")
    exclusion_start = np.zeros(N_FANS + 1, np.int32)
    for fan in range(N_FANS):
        exclusion_start[fan + 1] = exclusion_start[fan] + len(targets[fan])
    exclusion_target = np.array([target for fan in range(N_FANS) for target in targets[fan]], np.int16)
    for array in (values, exclusion_start, exclusion_target):
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
        min_fan=switches["min_fan"],
        flowers=switches["flowers"],
        max_doubles=max_doubles,
        ready_requires_concealed=switches["ready_requires_concealed"],
        fan_names=names,
        values=values,
        order=order_array,
        priority=priority,
        exclusion_start=exclusion_start,
        exclusion_target=exclusion_target,
        source=source,
    )

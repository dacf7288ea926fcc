"""The switches of a 二人 ruleset file (``family = "erren"``, the default): which keys its ``[ruleset]`` table
holds, the ``[points]`` table of 004's 闯关 game, and how they become the Ruleset's settings.

The shared loader (``sim.core.ruleset``) reads the fans and checks the identity keys; it finds this module's
``SCHEMA`` by the family's name. docs/rules/erren.md, erren-classic.md and erren-challenge.md list the
switches with their meaning.
"""

from dataclasses import dataclass

from kernels.tiles import TILE_SETS
from sim.core.ruleset import LARGEST_SETTING, UNLIMITED, FamilySchema, check_at_most

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
# Switches a file may leave out, with their defaults: 004's 闯关 game (erren-challenge) sets them.
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
LARGEST_DOUBLES = 16
LARGEST_DRAWS = 10  # bonus tiles, extra draws
MIN_TILES_IN_PLAY = 40  # two dealt hands, a bonus tile and room to play


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


def _points(data: dict, scoring: str, fail) -> Points | None:
    points = data.get("points")
    if scoring != "challenge":
        if points is not None:
            fail("[points] belongs to a scoring = 'challenge' ruleset")
        return None
    if not isinstance(points, dict):
        fail("a scoring = 'challenge' ruleset needs a [points] table")
    for key in POINTS_KEYS:
        value = points.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            fail(f"[points] {key} = {value!r} must be a positive whole number")
        check_at_most(fail, f"[points] {key}", value, LARGEST_SETTING)
    extra = set(points) - set(POINTS_KEYS)
    if extra:
        fail(f"[points] has an unknown key {min(extra)!r}; known: {', '.join(POINTS_KEYS)}")
    return Points(**{key: points[key] for key in POINTS_KEYS})


def settings(switches: dict, data: dict, fail) -> dict:
    """The Ruleset's settings from a file's checked-for-type switches and its other tables; `fail` raises."""
    if switches["min_fan"] < 0:
        fail("[ruleset] min_fan must be 0 or more")
    check_at_most(fail, "[ruleset] min_fan", switches["min_fan"], LARGEST_SETTING)
    max_doubles = switches["max_doubles"]
    if isinstance(max_doubles, str):
        if max_doubles != UNLIMITED:
            fail(f"[ruleset] max_doubles is a number of doubles or {UNLIMITED!r}, not {max_doubles!r}")
        max_doubles = None
    elif isinstance(max_doubles, bool) or max_doubles < 0:
        fail("[ruleset] max_doubles must be 0 or more")
    else:
        check_at_most(fail, "[ruleset] max_doubles", max_doubles, LARGEST_DOUBLES)
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
    points = _points(data, chosen["scoring"], fail)
    if chosen["scoring"] != "challenge" and switches["tile_set"] != "wan-honours":
        fail(f"[ruleset] tile_set {switches['tile_set']!r} needs scoring = 'challenge' (the MCR evaluator plays 万 and honours)")
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
    }


SCHEMA = FamilySchema(SWITCHES, ("points",), settings, ("wan-honours", "all"), OPTIONAL_SWITCHES)

"""The levels file of 004's 闯关 campaign (sim/erren/challenge/levels.toml): the start score, each level's bet,
pass score and assists, loaded and checked, and each level's ruleset (the campaign's ruleset with that
level's assists switched on).

The assists (docs/rules/erren-challenge.md, "Levels and assists") are named here once: ``ASSISTS`` maps each
to what switching it off means, for the campaigns `mjsim challenge` plays to measure each assist's effect.
"""

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from sim.core.input_limits import read_toml
from sim.core.ruleset import LARGEST_SETTING
from sim.erren.switches import LARGEST_DRAWS

DEFAULT_LEVELS = Path(__file__).parent / "levels.toml"
CAMPAIGN_KEYS = {"start_score": int, "max_deals_per_level": int}
LEVEL_KEYS = {
    "name": str, "bet": int, "pass_score": int, "start_exchange": bool, "extra_draws": int, "pick_chance": float,
    "pung_offer_chance": float, "computer_wins_free": bool,
}
# assist -> (its name in 004, what it is off)
ASSISTS = {
    "start_exchange": ("起始换牌", "no exchange after the deal"),
    "extra_draws": ("五张海底摸牌", "the ruleset's own extra draws"),
    "pick": ("搓牌", "no picked draws"),
    "pung_offer": ("换刻子", "no offers of three of a kind"),
    "computer_wins_free": ("电脑胡牌不扣分", "the computer's wins cost the player"),
}
LARGEST_DEALS_PER_LEVEL = 100_000
LARGEST_LEVELS = 16


class LevelsError(ValueError):
    """A levels file that cannot be read or breaks a rule; the message names the file and the problem."""


@dataclass(frozen=True)
class Level:
    name: str
    bet: int  # 押分: staked before each deal, the most the player loses on it
    pass_score: int  # 过关分数: the level is cleared when a deal of it leaves the score at or above this
    start_exchange: bool = False
    extra_draws: int | None = None  # None: the ruleset's
    pick_chance: float = 0.0
    pung_offer_chance: float = 0.0
    computer_wins_free: bool = False

    def without(self, assist: str) -> "Level":
        """This level with one assist (a key of ASSISTS) switched off."""
        off = {"start_exchange": {"start_exchange": False}, "extra_draws": {"extra_draws": None},
               "pick": {"pick_chance": 0.0}, "pung_offer": {"pung_offer_chance": 0.0},
               "computer_wins_free": {"computer_wins_free": False}}[assist]
        return dataclasses.replace(self, **off)

    def uses(self, assist: str) -> bool:
        return self.without(assist) != self

    def ruleset(self, ruleset):
        """The campaign's ruleset with this level's assists."""
        extra_draws = ruleset.extra_draws if self.extra_draws is None else self.extra_draws
        return dataclasses.replace(ruleset, start_exchange=self.start_exchange, extra_draws=extra_draws,
                                   pick_chance=self.pick_chance, pung_offer_chance=self.pung_offer_chance)


@dataclass(frozen=True)
class Levels:
    start_score: int
    max_deals_per_level: int
    levels: tuple[Level, ...]
    source: str  # the file's text, kept for output metadata
    path: str

    def without(self, assist: str) -> "Levels":
        return dataclasses.replace(self, levels=tuple(level.without(assist) for level in self.levels))

    def uses(self, assist: str) -> bool:
        return any(level.uses(assist) for level in self.levels)


def _typed(where: str, key: str, value, kind):
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise LevelsError(f"{where}: {key} = {value!r} should be {'a whole number' if kind is int else kind.__name__}")
    return value


def _whole(where: str, key: str, value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise LevelsError(f"{where}: {key} = {value:,} must be from {low:,} to {high:,}")
    return value


def load_levels(path: Path | str | None = None) -> Levels:
    """Read and check a levels file (default sim/erren/challenge/levels.toml)."""
    path = Path(path) if path is not None else DEFAULT_LEVELS
    if not path.exists():
        raise LevelsError(f"levels file not found: {path}")
    data, source = read_toml(path, LevelsError, "levels file")
    unknown = set(data) - {"campaign", "levels"}
    if unknown:
        raise LevelsError(f"{path}: unknown table {min(unknown)!r}; a levels file has [campaign] and [[levels]]")
    campaign = data.get("campaign")
    if not isinstance(campaign, dict):
        raise LevelsError(f"{path}: needs a [campaign] table with {', '.join(CAMPAIGN_KEYS)}")
    where = f"{path} [campaign]"
    for key in set(campaign) - set(CAMPAIGN_KEYS):
        raise LevelsError(f"{where}: unknown key {key!r}; known: {', '.join(CAMPAIGN_KEYS)}")
    for key, kind in CAMPAIGN_KEYS.items():
        if key not in campaign:
            raise LevelsError(f"{where}: lacks {key!r}")
        _typed(where, key, campaign[key], kind)
    start = _whole(where, "start_score", campaign["start_score"], 1, LARGEST_SETTING * 100)
    max_deals = _whole(where, "max_deals_per_level", campaign["max_deals_per_level"], 1, LARGEST_DEALS_PER_LEVEL)
    tables = data.get("levels")
    if not isinstance(tables, list) or not tables:
        raise LevelsError(f"{path}: needs at least one [[levels]] table")
    if len(tables) > LARGEST_LEVELS:
        raise LevelsError(f"{path}: {len(tables)} levels; at most {LARGEST_LEVELS}")
    levels = []
    for number, table in enumerate(tables, 1):
        where = f"{path} level {number}"
        if not isinstance(table, dict):
            raise LevelsError(f"{where}: {table!r} should be a [[levels]] table")
        for key in set(table) - set(LEVEL_KEYS):
            raise LevelsError(f"{where}: unknown key {key!r}; known: {', '.join(LEVEL_KEYS)}")
        for key in ("name", "bet", "pass_score"):
            if key not in table:
                raise LevelsError(f"{where}: lacks {key!r}")
        values = {key: _typed(where, key, value, LEVEL_KEYS[key]) for key, value in table.items()}
        _whole(where, "bet", values["bet"], 1, LARGEST_SETTING * 100)
        _whole(where, "pass_score", values["pass_score"], 1, LARGEST_SETTING * 100)
        if "extra_draws" in values:
            _whole(where, "extra_draws", values["extra_draws"], 0, LARGEST_DRAWS)
        for key in ("pick_chance", "pung_offer_chance"):
            if not 0 <= values.get(key, 0.0) <= 1:
                raise LevelsError(f"{where}: {key} = {values[key]!r} must be a chance from 0 to 1")
        levels.append(Level(**values))
    return Levels(start, max_deals, tuple(levels), source, str(path))

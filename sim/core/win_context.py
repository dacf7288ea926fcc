"""The win context and the checks of a winning hand every family shares: tiles outside the ruleset's tile
set, five copies counting the winning tile, and the context fields of a batch line; the input arrays of
the fan evaluators. ``sim.families.scoring`` scores a hand by its ruleset's family on top of these.
"""

from dataclasses import dataclass, fields

import numpy as np

from kernels.fan_ids import (
    CONTEXT_FLAG_BITS,
    ROUND_WIND_SHIFT,
    SEAT_WIND_SHIFT,
    WIND_NAMES,
)
from kernels.tiles import COPIES_PER_KIND, N_KINDS, TILE_SETS
from sim.core.batch_text import BatchLineError, parse_line
from sim.core.notation import (
    Hand,
    NotationError,
    check_size,
    format_hand,
    parse_hand,
    parse_tile,
    parse_tiles,
    tile_name,
)
from sim.core.ruleset import Ruleset

TILE_SET_WORDS = {"tong-tiao": "筒 (p) and 条 (s)"}  # how an error names a tile set, where its id is not enough


class ScoringError(ValueError):
    """A hand or context that is not a valid win under the ruleset."""


@dataclass(frozen=True)
class WinContext:
    """How and when the hand won (docs/rules/erren-table.md, special wins)."""

    self_drawn: bool = False
    last_tile: bool = False  # on the last wall tile (妙手回春) or the discard after it (海底捞月)
    kong_replacement: bool = False  # self-drawn on a kong replacement (杠上开花)
    robbing_kong: bool = False  # on a tile added to a pong (抢杠胡)
    fourth_tile: bool = False  # the other three copies are visible on the table (和绝张)
    flowers: int = 0
    ready: bool = False  # declared ready (报听)
    tianting: bool = False  # 天听
    tianhu: bool = False  # 天胡
    dihu: bool = False  # 地胡
    renhu: bool = False  # 人胡
    discard_after_kong: bool = False  # 杠上炮 (血战 family): won on the discard made right after the discarder's kong
    extra_draw: bool = False  # erren-challenge: won in the extra draws after an exhausted wall (海底捞月)
    bonus: tuple[int, ...] = ()  # erren-challenge: the kinds of the face-up bonus tiles (花牌), one entry a tile
    seat_wind: str = "east"  # MCR: the winner's seat wind (门风刻), one of WIND_NAMES; no other family scores winds
    round_wind: str = "east"  # MCR: the round's prevalent wind (圈风刻)

    def __post_init__(self):
        for key in ("seat_wind", "round_wind"):
            if getattr(self, key) not in WIND_NAMES:
                raise ScoringError(f'"{key}" must be one of {", ".join(WIND_NAMES)}, not {getattr(self, key)!r}')

    @property
    def flags(self) -> int:
        """The win-context bits the evaluator kernel takes, with the two wind fields."""
        bits = sum(bit for name, bit in CONTEXT_FLAG_BITS.items() if getattr(self, name))
        return bits | WIND_NAMES.index(self.seat_wind) << SEAT_WIND_SHIFT | WIND_NAMES.index(self.round_wind) << ROUND_WIND_SHIFT


CONTEXT_KEYS = tuple(field.name for field in fields(WinContext))
WIND_KEYS = ("seat_wind", "round_wind")


def refuse_winds(context: WinContext, ruleset: Ruleset) -> None:
    """For a family whose evaluator does not score the seat and round winds (all but MCR: its scoring module's
    ``SCORES_WINDS``): a context naming a wind other than the default east would be ignored without a word,
    so it is refused (``sim.families.scoring``)."""
    if (context.seat_wind, context.round_wind) != ("east", "east"):
        raise ScoringError(f"{ruleset.id} does not score the seat and round winds (门风, 圈风); only MCR rulesets do")


def check_tiles(hand: Hand, win: int, ruleset: Ruleset) -> None:
    in_set = TILE_SETS[ruleset.tile_set]
    used = hand.counts.astype(np.int64) + hand.meld_counts
    used[win] += 1
    outside = [kind for kind in np.flatnonzero(used) if in_set[kind] == 0]
    if outside:
        tiles = TILE_SET_WORDS.get(ruleset.tile_set, ruleset.tile_set)
        raise ScoringError(f"{tile_name(int(outside[0]))} is not in the {ruleset.id} wall ({tiles} tiles only)")
    if used.max() > COPIES_PER_KIND:
        kind = int(np.argmax(used))
        raise ScoringError(f"{tile_name(kind)} appears {used[kind]} times counting the winning tile; there are only 4 copies")


def kernel_inputs(rows: list[tuple[Hand, int, WinContext, int]]):
    """The evaluators' input arrays for checked rows: concealed counts, melds, meld counts, winning tiles,
    win-context flags and flower counts, one row each."""
    count = len(rows)
    concealed = np.zeros((count, N_KINDS), np.int8)
    melds = np.zeros((count, 4, 2), np.int8)
    n_melds = np.zeros(count, np.int8)
    win = np.zeros(count, np.int8)
    flags = np.zeros(count, np.int32)
    flowers = np.zeros(count, np.int8)
    for index, (hand, tile, context, flower_count) in enumerate(rows):
        concealed[index] = hand.counts
        for position, meld in enumerate(hand.melds):
            melds[index, position] = (int(meld.kind), meld.first)
        n_melds[index] = len(hand.melds)
        win[index] = tile
        flags[index] = context.flags
        flowers[index] = flower_count
    return concealed, melds, n_melds, win, flags, flowers


def not_a_win(hand: Hand, win: int) -> ScoringError:
    return ScoringError(f"not a winning hand: {format_hand(hand)} with {tile_name(win)} is not four sets and a pair, nor seven pairs")


def parse_scoring_input(hand_text: str, win_text: str, melds: list[str] = ()) -> tuple[Hand, int]:
    """The hand (13 tiles less 3 per meld, without the winning tile) and the winning tile, from text."""
    hand = parse_hand(" ".join([hand_text, *melds]), sizes=None)
    try:
        check_size(hand, (13,))
    except NotationError as error:
        if hand.n_tiles + 3 * len(hand.melds) == 14:
            raise NotationError(f"{error}; give the hand without its winning tile") from None
        raise
    return hand, parse_tile(win_text)


def bonus_kinds(text: str) -> tuple[int, ...]:
    """The kinds of the face-up bonus tiles written as text ("7z", "7z7z"), one entry a tile."""
    counts = parse_tiles(text) if text.strip() else np.zeros(N_KINDS, np.int8)
    return tuple(int(kind) for kind in np.repeat(np.arange(N_KINDS), counts))


def batch_record(line: str) -> tuple[Hand, int, WinContext]:
    if not line.strip():
        raise ScoringError("empty line")
    try:
        record = parse_line(line)
    except BatchLineError as error:
        raise ScoringError(str(error)) from None
    if not isinstance(record, dict) or not isinstance(record.get("hand"), str) or not isinstance(record.get("win"), str):
        raise ScoringError('expected an object like {"hand": "123456789m1235m", "win": "5m", "self_drawn": true}')
    unknown = set(record) - {"hand", "melds", "win", *CONTEXT_KEYS}
    if unknown:
        raise ScoringError(f"unknown key {sorted(unknown)[0]!r}; keys are hand, melds, win, {', '.join(CONTEXT_KEYS)}")
    melds = record.get("melds", [])
    if not isinstance(melds, list) or not all(isinstance(meld, str) for meld in melds):
        raise ScoringError('"melds" must be a list of meld strings such as "[123m]" or "(5555m)"')
    values = {}
    for key in CONTEXT_KEYS:
        value = record.get(key, 0 if key == "flowers" else "" if key == "bonus" else "east" if key in WIND_KEYS else False)
        if key in WIND_KEYS:
            if value not in WIND_NAMES:
                raise ScoringError(f'"{key}" must be one of {", ".join(WIND_NAMES)}')
        elif key == "bonus":
            if not isinstance(value, str):
                raise ScoringError('"bonus" must be the face-up bonus tiles as text, such as "7z" (erren-challenge)')
            value = bonus_kinds(value)
        elif key == "flowers":
            if not isinstance(value, int) or isinstance(value, bool):
                raise ScoringError('"flowers" must be a whole number 0-8')
        elif not isinstance(value, bool):
            raise ScoringError(f'"{key}" must be true or false')
        values[key] = value
    hand, win = parse_scoring_input(record["hand"], record["win"], melds)
    return hand, win, WinContext(**values)

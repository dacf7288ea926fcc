"""Scoring winning hands under a ruleset: the win context, validation, and the result as a report.

`score` and `batch_lines` check what the kernel cannot know (tiles outside the ruleset's tile set,
five copies counting the winning tile, flowers in a game without them, a context that contradicts
itself) and raise ScoringError with one message; the context flags the tiles make impossible (和绝张
with another copy in hand, 杠上开花 without a kong, 抢杠胡 on a tile held elsewhere) are cleared by the
kernel, as MCR's reference does. Batch output lines are the objects `Score.as_dict` returns.

A ruleset of the 血战 family (``ruleset.family == "xuezhan"``, docs/rules/xuezhan-table.md) is scored by
kernels/fans/xuezhan.py instead and gives an `XuezhanScore`: its `value` is the raw units each payer pays
before the cap (002: the product of the multipliers; 003: 2**fans), `capped_value` applies the ruleset's cap.
The same split holds there: contradictions are errors here, and that kernel clears 杠上花 without a kong and
抢杠 on a kind the winner holds. The one dispatch on the family is `_FAMILIES`.
"""

import json
from dataclasses import dataclass, fields

import numpy as np

from kernels.fan_ids import CONTEXT_FLAG_BITS, Fan
from kernels.fans import xuezhan as xuezhan_fans
from kernels.fans.mcr import NOT_A_WIN
from kernels.fans.mcr import score_many as score_kernel
from kernels.tiles import COPIES_PER_KIND, N_FLOWERS, N_KINDS, TILE_SETS
from sim.notation import (
    Hand,
    MeldKind,
    NotationError,
    check_size,
    format_hand,
    parse_hand,
    parse_tile,
    tile_name,
)
from sim.ruleset import Ruleset

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

    @property
    def flags(self) -> int:
        """The win-context bits the evaluator kernel takes."""
        return sum(bit for name, bit in CONTEXT_FLAG_BITS.items() if getattr(self, name))


CONTEXT_KEYS = tuple(field.name for field in fields(WinContext))


@dataclass(frozen=True)
class Score:
    ruleset: Ruleset
    counts: dict[Fan, int]  # the fans scored, by decreasing value
    total: int  # fans plus flowers, before doubling
    total_without_flowers: int

    @property
    def legal(self) -> bool:
        """Whether the hand reaches the ruleset's minimum (起和), flowers excluded."""
        return self.total_without_flowers >= self.ruleset.min_fan

    def as_dict(self) -> dict:
        names = self.ruleset.fan_names
        return {
            "fans": {names[fan]: count for fan, count in self.counts.items()},
            "values": {names[fan]: int(self.ruleset.values[fan]) for fan in self.counts},
            "total": self.total,
            "total_without_flowers": self.total_without_flowers,
            "legal": self.legal,
        }

    def format(self) -> str:
        names = self.ruleset.fan_names
        width = max((len(names[fan]) for fan in self.counts), default=0)
        lines = []
        for fan, count in self.counts.items():
            value = int(self.ruleset.values[fan])
            padding = " " * (2 * (width - len(names[fan])))  # CJK names are two columns wide
            lines.append(f"  {names[fan]}{padding}  {value:>3} × {count} = {value * count:>3}")
        verdict = "reaches" if self.legal else "does not reach"
        lines.append(
            f"total {self.total} fan ({self.total_without_flowers} without flowers); "
            f"{verdict} the minimum of {self.ruleset.min_fan}"
        )
        return "\n".join(lines)


@dataclass(frozen=True)
class XuezhanScore:
    """A win under a 血战-family ruleset: the fans of the best reading and what each payer pays."""

    ruleset: Ruleset
    counts: dict[Fan, int]  # the fans scored, by decreasing value
    value: int  # raw units per payer before the cap: 002 the product of the multipliers, 003 2**(sum of fans)
    self_drawn_unit: int  # 003 加底: one more unit per payer for a self-drawn win (0 otherwise)

    @property
    def capped_value(self) -> int:
        """What each payer pays for the fans, the ruleset's cap applied (no cap when cap is 0)."""
        return min(self.value, self.ruleset.cap) if self.ruleset.cap else self.value

    @property
    def legal(self) -> bool:
        return True  # the family has no minimum (起和)

    def as_dict(self) -> dict:
        names = self.ruleset.fan_names
        return {
            "fans": {names[fan]: count for fan, count in self.counts.items()},
            "values": {names[fan]: int(self.ruleset.values[fan]) for fan in self.counts},
            "combine": self.ruleset.combine,
            "value": self.value,
            "capped_value": self.capped_value,
            "self_drawn_unit": self.self_drawn_unit,
        }

    def format(self) -> str:
        names = self.ruleset.fan_names
        width = max((len(names[fan]) for fan in self.counts), default=0)
        multiply = self.ruleset.combine == "multiply"
        lines = []
        for fan, count in self.counts.items():
            value = int(self.ruleset.values[fan])
            padding = " " * (2 * (width - len(names[fan])))  # CJK names are two columns wide
            lines.append(f"  {names[fan]}{padding}  {'×' if multiply else '+'}{value}" + (f" × {count}" if count > 1 else ""))
        if multiply:
            lines.append(f"value {self.value} units per payer; capped at {self.ruleset.cap}: {self.capped_value}" if self.ruleset.cap
                         else f"value {self.value} units per payer")
        else:
            fans = sum(int(self.ruleset.values[fan]) * count for fan, count in self.counts.items())
            extra = f" + {self.self_drawn_unit} (自摸加底)" if self.self_drawn_unit else ""
            lines.append(f"{fans} fan: value 2^{fans} = {self.value}{extra} units per payer, plus the winner's kong units")
        return "\n".join(lines)


def _check(hand: Hand, win: int, context: WinContext, ruleset: Ruleset) -> int:
    """Raise ScoringError for anything the kernel cannot judge; return the flower count."""
    _check_tiles(hand, win, ruleset)
    return _FAMILIES[ruleset.family][0](hand, win, context, ruleset)


def _check_tiles(hand: Hand, win: int, ruleset: Ruleset) -> None:
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


def _check_erren(hand: Hand, win: int, context: WinContext, ruleset: Ruleset) -> int:
    if context.discard_after_kong:
        raise ScoringError(f"杠上炮 (discard after a kong) is not a fan of {ruleset.id}")
    if hand.flowers and context.flowers:
        raise ScoringError("give the flowers either in the hand (1f-8f) or as a count, not both")
    flowers = len(hand.flowers) or context.flowers
    if not 0 <= flowers <= N_FLOWERS:
        raise ScoringError(f"{flowers} flowers; there are 0 to {N_FLOWERS}")
    if flowers and not ruleset.flowers:
        raise ScoringError(f"{ruleset.id} is played without flowers")
    if context.robbing_kong and context.self_drawn:
        raise ScoringError("抢杠胡 (robbing a kong) is a win on another player's tile, not a self-draw")
    if context.kong_replacement and not context.self_drawn:
        raise ScoringError("杠上开花 (kong replacement) is a self-drawn win")
    specials = [name for name in ("tianhu", "dihu", "renhu") if getattr(context, name)]
    if len(specials) > 1:
        raise ScoringError(f"a win is at most one of 天胡, 地胡 and 人胡, not {' and '.join(specials)}")
    if (context.tianhu or context.dihu) and not context.self_drawn:
        raise ScoringError("天胡 and 地胡 are self-drawn wins")
    if context.renhu and context.self_drawn:
        raise ScoringError("人胡 is a win on the dealer's first discard, not a self-draw")
    if (specials or context.tianting) and hand.melds:
        raise ScoringError("天胡, 地胡, 人胡 and 天听 need a hand without melds (a concealed kong voids them)")
    return flowers


def _scores(rows: list[tuple[Hand, int, WinContext, int]], ruleset: Ruleset) -> list:
    """Score checked rows in one kernel call; None where the tiles are not a complete hand."""
    return _FAMILIES[ruleset.family][1](rows, ruleset)


def _kernel_inputs(rows: list[tuple[Hand, int, WinContext, int]]):
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


def _scores_erren(rows: list[tuple[Hand, int, WinContext, int]], ruleset: Ruleset) -> list[Score | None]:
    count = len(rows)
    counts, totals = score_kernel(*_kernel_inputs(rows), *ruleset.kernel_arrays())
    results = []
    for index in range(count):
        if totals[index] == NOT_A_WIN:
            results.append(None)
            continue
        scored = {Fan(fan): int(counts[index, fan]) for fan in ruleset.order if counts[index, fan] > 0}
        flower_value = int(counts[index, Fan.FLOWER_TILES]) * int(ruleset.values[Fan.FLOWER_TILES])
        results.append(Score(ruleset, scored, int(totals[index]) + flower_value, int(totals[index])))
    return results


def _check_xuezhan(hand: Hand, win: int, context: WinContext, ruleset: Ruleset) -> int:
    if any(meld.kind == MeldKind.CHOW for meld in hand.melds):
        raise ScoringError(f"{ruleset.id} has no chows (血战: pong and kong only)")
    if hand.flowers or context.flowers:
        raise ScoringError(f"{ruleset.id} is played without flowers")
    for name, meaning in (("fourth_tile", "和绝张"), ("tianting", "天听"), ("renhu", "人胡")):
        if getattr(context, name):
            raise ScoringError(f"{meaning} is not a fan of {ruleset.id}")
    if context.ready and not ruleset.xuezhan.declared_ready:
        raise ScoringError(f"{ruleset.id} has no declared ready hand (报叫)")
    if context.robbing_kong and context.self_drawn:
        raise ScoringError("抢杠 (robbing a kong) is a win on another player's tile, not a self-draw")
    if context.kong_replacement and not context.self_drawn:
        raise ScoringError("杠上花 (kong replacement) is a self-drawn win")
    if context.discard_after_kong and (context.self_drawn or context.robbing_kong):
        raise ScoringError("杠上炮 is a win on a discard, not a self-draw or a robbed kong")
    if context.tianhu and context.dihu:
        raise ScoringError("a win is at most one of 天胡 and 地胡")
    if context.tianhu and not context.self_drawn:
        raise ScoringError("天胡 is the dealer's self-drawn initial hand")
    if context.dihu and context.self_drawn and not ruleset.xuezhan.earthly_hand_self_drawn:
        raise ScoringError(f"地胡 in {ruleset.id} is a win on the dealer's first discard, not a self-draw")
    if context.dihu and (context.robbing_kong or context.discard_after_kong):
        raise ScoringError("地胡 is void after any pong or kong, and 抢杠 and 杠上炮 need one first")
    if (context.tianhu or context.dihu) and hand.melds:
        raise ScoringError("天胡 and 地胡 need a hand without melds")
    return 0


def _scores_xuezhan(rows: list[tuple[Hand, int, WinContext, int]], ruleset: Ruleset) -> list[XuezhanScore | None]:
    concealed, melds, n_melds, win, flags, _ = _kernel_inputs(rows)  # no flowers in this family
    counts, values = xuezhan_fans.score_many(
        concealed, melds, n_melds, win, flags, *ruleset.kernel_arrays(), ruleset.combine == "multiply"
    )
    unit_bonus = ruleset.xuezhan.self_drawn_bonus == "unit"
    results = []
    for index, (_, _, context, _) in enumerate(rows):
        if values[index] == xuezhan_fans.NOT_A_WIN:
            results.append(None)
            continue
        scored = {Fan(fan): int(counts[index, fan]) for fan in ruleset.order if counts[index, fan] > 0}
        results.append(XuezhanScore(ruleset, scored, int(values[index]), int(unit_bonus and context.self_drawn)))
    return results


# The one dispatch on the ruleset family: (context and tile checks, batch scorer).
_FAMILIES = {"erren": (_check_erren, _scores_erren), "xuezhan": (_check_xuezhan, _scores_xuezhan)}


def _not_a_win(hand: Hand, win: int) -> ScoringError:
    return ScoringError(f"not a winning hand: {format_hand(hand)} with {tile_name(win)} is not four sets and a pair, nor seven pairs")


def score(hand: Hand, win: int, context: WinContext, ruleset: Ruleset) -> Score | XuezhanScore:
    """Score one hand: `hand` holds the concealed tiles without the winning tile, plus its melds."""
    flowers = _check(hand, win, context, ruleset)
    result = _scores([(hand, win, context, flowers)], ruleset)[0]
    if result is None:
        raise _not_a_win(hand, win)
    return result


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


def batch_lines(lines: list[str], ruleset: Ruleset) -> list[dict]:
    """One output object per input line of a score batch; a bad line becomes {"error": ...}."""
    outputs: list[dict | None] = []
    rows, positions = [], []
    for number, line in enumerate(lines, 1):
        try:
            hand, win, context = _batch_record(line)
            flowers = _check(hand, win, context, ruleset)
        except (NotationError, ScoringError) as error:
            outputs.append({"error": f"line {number}: {error}"})
            continue
        positions.append(len(outputs))
        outputs.append(None)
        rows.append((hand, win, context, flowers))
    for position, row, result in zip(positions, rows, _scores(rows, ruleset) if rows else [], strict=True):
        outputs[position] = result.as_dict() if result is not None else {"error": f"line {position + 1}: {_not_a_win(row[0], row[1])}"}
    return outputs


def _batch_record(line: str) -> tuple[Hand, int, WinContext]:
    if not line.strip():
        raise ScoringError("empty line")
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise ScoringError(f"not valid JSON ({error.msg})") from None
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
        value = record.get(key, 0 if key == "flowers" else False)
        if key == "flowers":
            if not isinstance(value, int) or isinstance(value, bool):
                raise ScoringError('"flowers" must be a whole number 0-8')
        elif not isinstance(value, bool):
            raise ScoringError(f'"{key}" must be true or false')
        values[key] = value
    hand, win = parse_scoring_input(record["hand"], record["win"], melds)
    return hand, win, WinContext(**values)

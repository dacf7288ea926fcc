"""Scoring an MCR win for `mjsim score` and ``sim.families.scoring``: the context checks only this family makes,
the batch scorer over ``kernels.fans.mcr_all_suits`` (every MCR shape, the 81 fans and their exclusions), and
the result with its fans, total and minimum (起和, flowers not counted).

The win context names the winner's seat wind and the round wind (`mjsim score --seat-wind/--round-wind`; east
and east by default, the winds of a match's first deal): a pong of the seat's wind is 门风刻, of the round's
圈风刻. The only family whose evaluator scores winds, it says so (``SCORES_WINDS``, read by
``sim.families.scoring``).
"""

from dataclasses import dataclass

from kernels.fan_ids import Fan
from kernels.fans.mcr_all_suits import NOT_A_WIN, score_many
from kernels.tiles import N_FLOWERS
from sim.core.notation import Hand
from sim.core.ruleset import Ruleset
from sim.core.win_context import ScoringError, WinContext, kernel_inputs

SCORES_WINDS = True  # 门风刻 and 圈风刻: the context's winds are scored, not refused


@dataclass(frozen=True)
class McrScore:
    """A win under an MCR ruleset: the fans of the best reading, its total and the flowers beside it."""

    ruleset: Ruleset
    counts: dict[Fan, int]  # the fans scored, by decreasing value (花牌 among them, one per flower)
    total: int  # fans plus flowers: F, what the discarder or each payer of a self-draw pays beside the base
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
        lines.append(f"total {self.total} fan ({self.total_without_flowers} without flowers); "
                     f"{verdict} the minimum of {self.ruleset.min_fan}")
        return "\n".join(lines)


def check(hand: Hand, win: int, context: WinContext, ruleset: Ruleset) -> int:
    """The context checks of an MCR win; returns the flower count."""
    if context.extra_draw or context.bonus:
        raise ScoringError(f"extra draws and bonus tiles are part of erren-challenge, not of {ruleset.id}")
    for name, meaning in (("ready", "报听"), ("tianting", "天听"), ("tianhu", "天和"), ("dihu", "地和"), ("renhu", "人和"),
                          ("discard_after_kong", "杠上炮")):
        if getattr(context, name):
            raise ScoringError(f"{meaning} is not a fan of {ruleset.id}")
    if hand.flowers and context.flowers:
        raise ScoringError("give the flowers either in the hand (1f-8f) or as a count, not both")
    flowers = len(hand.flowers) or context.flowers
    if not 0 <= flowers <= N_FLOWERS:
        raise ScoringError(f"{flowers} flowers; there are 0 to {N_FLOWERS}")
    if flowers and not ruleset.flowers:
        raise ScoringError(f"{ruleset.id} is played without flowers")
    if context.robbing_kong and context.self_drawn:
        raise ScoringError("抢杠和 (robbing a kong) is a win on another player's tile, not a self-draw")
    if context.kong_replacement and not context.self_drawn:
        raise ScoringError("杠上开花 (kong replacement) is a self-drawn win")
    if context.robbing_kong and context.last_tile:
        raise ScoringError("抢杠和 cannot be on the last tile: no kong is made once no tile is left to replace it")
    return flowers


def score_rows(rows: list[tuple[Hand, int, WinContext, int]], ruleset: Ruleset) -> list[McrScore | None]:
    """Score checked rows in one evaluator call; None where the tiles are not complete in any MCR shape."""
    counts, totals = score_many(*kernel_inputs(rows), *ruleset.kernel_arrays())
    results = []
    for index in range(len(rows)):
        if totals[index] == NOT_A_WIN:
            results.append(None)
            continue
        scored = {Fan(fan): int(counts[index, fan]) for fan in ruleset.order if counts[index, fan] > 0}
        flower_value = int(counts[index, Fan.FLOWER_TILES]) * int(ruleset.values[Fan.FLOWER_TILES])
        results.append(McrScore(ruleset, scored, int(totals[index]) + flower_value, int(totals[index])))
    return results

"""Scoring a 二人 win for `mjsim score` and ``sim.families.scoring``: the context checks only this family makes
(the way a winning tile came, the first-turn wins: ``check_special_wins``, which 004's game shares), the batch
scorer over ``kernels.fans.mcr``, and the result with its fans, total and minimum (起和). A ruleset with
``scoring = "challenge"`` (004's 闯关 game) is scored by ``sim.erren.challenge.scoring`` instead: the family
names it for that evaluator (``Family.scoring_for``)."""

from dataclasses import dataclass

from kernels.fan_ids import Fan
from kernels.fans.mcr import NOT_A_WIN
from kernels.fans.mcr import score_many as score_kernel
from kernels.tiles import N_FLOWERS
from sim.core.notation import Hand
from sim.core.ruleset import Ruleset
from sim.core.win_context import ScoringError, WinContext, kernel_inputs


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
        lines = fan_lines(self.ruleset, self.counts)
        verdict = "reaches" if self.legal else "does not reach"
        lines.append(
            f"total {self.total} fan ({self.total_without_flowers} without flowers); "
            f"{verdict} the minimum of {self.ruleset.min_fan}"
        )
        return "\n".join(lines)


def fan_lines(ruleset: Ruleset, counts: dict[Fan, int], unit=lambda fan: "") -> list[str]:
    """One aligned line per scored fan, `  name  value × count = product`, then `unit(fan)` if it gives one."""
    names = ruleset.fan_names
    width = max((len(names[fan]) for fan in counts), default=0)
    lines = []
    for fan, count in counts.items():
        value = int(ruleset.values[fan])
        padding = " " * (2 * (width - len(names[fan])))  # CJK names are two columns wide
        line = f"  {names[fan]}{padding}  {value:>3} × {count} = {value * count:>3}"
        lines.append(f"{line} {unit(fan)}" if unit(fan) else line)
    return lines


def check_special_wins(hand: Hand, context: WinContext, ruleset: Ruleset) -> None:
    """The context checks every 二人 ruleset makes: how the winning tile came, and the first-turn wins (named
    as the ruleset names them: 000 writes 天胡, 004 天和)."""
    names = ruleset.fan_names  # a ruleset file need not score them: then MCR's names
    heavenly, earthly, human = (names.get(fan, default) for fan, default in
                                ((Fan.HEAVENLY_HAND, "天胡"), (Fan.EARTHLY_HAND, "地胡"), (Fan.HUMAN_HAND, "人胡")))
    if context.robbing_kong and context.self_drawn:
        raise ScoringError("抢杠胡 (robbing a kong) is a win on another player's tile, not a self-draw")
    if context.kong_replacement and not context.self_drawn:
        raise ScoringError("杠上开花 (kong replacement) is a self-drawn win")
    specials = [name for name in ("tianhu", "dihu", "renhu") if getattr(context, name)]
    if len(specials) > 1:
        raise ScoringError(f"a win is at most one of {heavenly}, {earthly} and {human}, not {' and '.join(specials)}")
    if (context.tianhu or context.dihu) and not context.self_drawn:
        raise ScoringError(f"{heavenly} and {earthly} are self-drawn wins")
    if context.renhu and context.self_drawn:
        raise ScoringError(f"{human} is a win on the dealer's first discard, not a self-draw")
    if (specials or context.tianting) and hand.melds:
        raise ScoringError(f"{heavenly}, {earthly}, {human} and 天听 need a hand without melds (a concealed kong voids them)")


def check(hand: Hand, win: int, context: WinContext, ruleset: Ruleset) -> int:
    if context.extra_draw or context.bonus:
        raise ScoringError(f"extra draws and bonus tiles are part of erren-challenge, not of {ruleset.id}")
    if context.discard_after_kong:
        raise ScoringError(f"杠上炮 (discard after a kong) is not a fan of {ruleset.id}")
    if hand.flowers and context.flowers:
        raise ScoringError("give the flowers either in the hand (1f-8f) or as a count, not both")
    flowers = len(hand.flowers) or context.flowers
    if not 0 <= flowers <= N_FLOWERS:
        raise ScoringError(f"{flowers} flowers; there are 0 to {N_FLOWERS}")
    if flowers and not ruleset.flowers:
        raise ScoringError(f"{ruleset.id} is played without flowers")
    check_special_wins(hand, context, ruleset)
    return flowers


def score_rows(rows: list[tuple[Hand, int, WinContext, int]], ruleset: Ruleset) -> list[Score | None]:
    count = len(rows)
    counts, totals = score_kernel(*kernel_inputs(rows), *ruleset.kernel_arrays())
    results = []
    for index in range(count):
        if totals[index] == NOT_A_WIN:
            results.append(None)
            continue
        scored = {Fan(fan): int(counts[index, fan]) for fan in ruleset.order if counts[index, fan] > 0}
        flower_value = int(counts[index, Fan.FLOWER_TILES]) * int(ruleset.values[Fan.FLOWER_TILES])
        results.append(Score(ruleset, scored, int(totals[index]) + flower_value, int(totals[index])))
    return results

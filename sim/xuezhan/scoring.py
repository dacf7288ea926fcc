"""Scoring a 血战 win for `mjsim score` and ``sim.families.scoring``: the context checks only this family makes,
the batch scorer over ``kernels.fans.xuezhan``, and the result: the value each payer pays, before and
after the cap (002: the product of the multipliers; 003: 2**fans)."""

from dataclasses import dataclass

from kernels.fan_ids import Fan
from kernels.fans import xuezhan as xuezhan_fans
from sim.core.notation import Hand, MeldKind
from sim.core.ruleset import Ruleset
from sim.core.win_context import ScoringError, WinContext, kernel_inputs


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


def check(hand: Hand, win: int, context: WinContext, ruleset: Ruleset) -> int:
    if context.extra_draw or context.bonus:
        raise ScoringError(f"extra draws and bonus tiles are part of erren-challenge, not of {ruleset.id}")
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


def score_rows(rows: list[tuple[Hand, int, WinContext, int]], ruleset: Ruleset) -> list[XuezhanScore | None]:
    concealed, melds, n_melds, win, flags, _ = kernel_inputs(rows)  # no flowers in this family
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

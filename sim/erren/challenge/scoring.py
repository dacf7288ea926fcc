"""Scoring an `erren-challenge` win (004's 闯关 game) for `mjsim score`: the context checks of that game beside
the ones every 二人 ruleset makes (``sim.erren.scoring.check_special_wins``), the batch scorer over
``kernels.fans.challenge``, and the result with its fans, fan total, 役满 and points.

The 二人 family scores a ruleset with ``scoring = "challenge"`` here (``sim.players.family.Family.scoring_for``)."""

from dataclasses import dataclass

import numpy as np

from kernels.fan_ids import Fan
from kernels.fans.challenge import LIMITS, NOT_A_WIN, POINTS, TOTAL, UNCAPPED, score_many
from kernels.tiles import COPIES_PER_KIND, N_KINDS
from sim.core.notation import Hand, tile_name
from sim.core.ruleset import Ruleset
from sim.core.win_context import ScoringError, WinContext, kernel_inputs
from sim.erren.scoring import check_special_wins, fan_lines


@dataclass(frozen=True)
class ChallengeScore:
    ruleset: Ruleset
    counts: dict[Fan, int]  # the fans scored (only the 役满 when there are any), by decreasing value
    total: int  # fans, 花牌 included, after the cap; 0 for a 役满 hand
    total_before_cap: int
    limits: int  # 役满
    points: int

    def as_dict(self) -> dict:
        names = self.ruleset.fan_names
        return {
            "fans": {names[fan]: count for fan, count in self.counts.items()},
            "values": {names[fan]: int(self.ruleset.values[fan]) for fan in self.counts},
            "total": self.total,
            "total_before_cap": self.total_before_cap,
            "limits": self.limits,
            "points": self.points,
        }

    def format(self) -> str:
        lines = fan_lines(self.ruleset, self.counts, lambda fan: "役满" if self.ruleset.is_limit[fan] else "fan")
        points = self.ruleset.points
        if self.limits:
            lines.append(f"{self.limits} 役满: {self.points:,} points ({self.limits} × {points.per_limit:,})")
        else:
            capped = f" (capped from {self.total_before_cap})" if self.total_before_cap > self.total else ""
            lines.append(f"total {self.total} fan{capped}: {self.points:,} points "
                         f"({self.total}·{self.total + 1}·{points.per_fan_step})")
        return "\n".join(lines)


def check(hand: Hand, win: int, context: WinContext, ruleset: Ruleset) -> int:
    """The context checks of 004's game; returns 0 (it has no flowers: 花牌 are the face-up bonus tiles)."""
    if hand.flowers or context.flowers:
        raise ScoringError(f"{ruleset.id} has no flower tiles; its 花牌 are the face-up bonus tiles (--bonus)")
    for name, words in (("fourth_tile", "和绝张"), ("discard_after_kong", "杠上炮")):
        if getattr(context, name):
            raise ScoringError(f"{words} is not part of {ruleset.id}")
    check_special_wins(hand, context, ruleset)
    if context.extra_draw and (not context.self_drawn or context.kong_replacement or context.last_tile):
        raise ScoringError("海底捞月 (an extra draw after the wall) is a self-drawn win, neither on a kong "
                           "replacement nor on the last wall tile")
    if len(context.bonus) > ruleset.bonus_tiles:
        raise ScoringError(f"{len(context.bonus)} face-up bonus tiles; {ruleset.id} turns {ruleset.bonus_tiles}")
    used = hand.counts.astype(np.int64) + hand.meld_counts
    used[win] += 1
    for kind in set(context.bonus):
        if used[kind] + context.bonus.count(kind) > COPIES_PER_KIND:
            raise ScoringError(f"{tile_name(kind)}: the hand holds {used[kind]} and {context.bonus.count(kind)} "
                               f"are face up as bonus tiles; there are only {COPIES_PER_KIND} copies")
    return 0


def score_rows(rows: list[tuple[Hand, int, WinContext, int]], ruleset: Ruleset) -> list[ChallengeScore | None]:
    concealed, melds, n_melds, win, flags, _ = kernel_inputs(rows)
    bonus = np.zeros((len(rows), N_KINDS), np.int8)
    for index, (_, _, context, _) in enumerate(rows):
        for kind in context.bonus:
            bonus[index, kind] += 1
    counts, results = score_many(concealed, melds, n_melds, win, flags, bonus, ruleset)
    scores = []
    for index in range(len(rows)):
        if results[index, POINTS] == NOT_A_WIN:
            scores.append(None)
            continue
        scored = {Fan(fan): int(counts[index, fan]) for fan in ruleset.order if counts[index, fan] > 0}
        total, before, limits, points = (int(results[index, column]) for column in (TOTAL, UNCAPPED, LIMITS, POINTS))
        scores.append(ChallengeScore(ruleset, scored, total, before, limits, points))
    return scores

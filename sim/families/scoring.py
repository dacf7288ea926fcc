"""Scoring winning hands under a ruleset, whatever its family: `mjsim score`, its batches, and ``score``.

`score` and `batch_lines` check what the kernel cannot know (tiles outside the ruleset's tile set,
five copies counting the winning tile, flowers in a game without them, a context that contradicts
itself) and raise ScoringError with one message; the context flags the tiles make impossible (和绝张
with another copy in hand, 杠上开花 without a kong, 抢杠胡 on a tile held elsewhere) are cleared by the
kernel, as MCR's reference does. Batch output lines are the objects the result's `as_dict` returns.

The shared checks and the win context are ``sim.core.win_context``. What differs by family lives in its
package's ``scoring`` module (``sim.erren.scoring``, ``sim.xuezhan.scoring``): ``check(hand, win, context,
ruleset)``, the context checks only that family makes (returning the flower count), and ``score_rows(rows,
ruleset)``, one call of its fan evaluator over checked rows, giving each row's result (a ``Score`` with
fans, total and minimum; a ``XuezhanScore`` with the value each payer pays before and after the cap) or
None where the tiles are not a complete hand. A family whose evaluator scores the seat and round winds says
so with ``SCORES_WINDS = True`` there (MCR); for the others a context naming a wind is refused here.
"""

from sim.core.notation import Hand, NotationError
from sim.core.ruleset import Ruleset
from sim.core.win_context import (  # noqa: F401  (bonus_kinds, parse_scoring_input: what a caller of score reads its input with)
    ScoringError,
    WinContext,
    batch_record,
    bonus_kinds,
    check_tiles,
    not_a_win,
    parse_scoring_input,
    refuse_winds,
)
from sim.families import family_of


def _family_scoring(ruleset: Ruleset):
    return family_of(ruleset).scoring_for(ruleset)


def _check(hand: Hand, win: int, context: WinContext, ruleset: Ruleset) -> int:
    """Raise ScoringError for anything the kernel cannot judge; return the flower count."""
    check_tiles(hand, win, ruleset)
    family_scoring = _family_scoring(ruleset)
    if not getattr(family_scoring, "SCORES_WINDS", False):
        refuse_winds(context, ruleset)
    return family_scoring.check(hand, win, context, ruleset)


def _scores(rows: list[tuple[Hand, int, WinContext, int]], ruleset: Ruleset) -> list:
    """Score checked rows in one kernel call; None where the tiles are not a complete hand."""
    return _family_scoring(ruleset).score_rows(rows, ruleset)


def score(hand: Hand, win: int, context: WinContext, ruleset: Ruleset):
    """Score one hand: `hand` holds the concealed tiles without the winning tile, plus its melds."""
    flowers = _check(hand, win, context, ruleset)
    result = _scores([(hand, win, context, flowers)], ruleset)[0]
    if result is None:
        raise not_a_win(hand, win)
    return result


def batch_lines(lines: list[str], ruleset: Ruleset) -> list[dict]:
    """One output object per input line of a score batch; a bad line becomes {"error": ...}."""
    outputs: list[dict | None] = []
    rows, positions = [], []
    for number, line in enumerate(lines, 1):
        try:
            hand, win, context = batch_record(line)
            flowers = _check(hand, win, context, ruleset)
        except (NotationError, ScoringError) as error:
            outputs.append({"error": f"line {number}: {error}"})
            continue
        positions.append(len(outputs))
        outputs.append(None)
        rows.append((hand, win, context, flowers))
    for position, row, result in zip(positions, rows, _scores(rows, ruleset) if rows else [], strict=True):
        outputs[position] = result.as_dict() if result is not None else {"error": f"line {position + 1}: {not_a_win(row[0], row[1])}"}
    return outputs

"""A learning environment's deal as text, as ``mjsim replay`` prints it: the family's report
(``replay_report.format_deal``) of the deal's event log so far, read from the step environment.

Until the deal is over, the report's closing result (read from a record the engine has not finished) is
left out and a line says whose decision is pending (or why the episode stopped short of the deal's end).
"""

from typing import NamedTuple

from sim.core.event_logs import DealLog
from sim.families import family_of

RESULT_MARK = "\n\nresult: "  # where a family's report starts the deal's result (its `_outcome`)


class SeatNames(NamedTuple):
    """What ``format_deal`` reads of a table's players: one name per seat."""

    names: tuple[str, ...]


def seat_names(ruleset, n_seats: int, opponents: dict) -> SeatNames:
    """Each seat's name in the report: an opponent's canonical text, as ``mjsim replay`` names it; ``agent``
    for a seat the learner plays."""
    parse_player = family_of(ruleset).players.parse_player
    return SeatNames(tuple(parse_player(opponents[seat])[2] if seat in opponents else "agent" for seat in range(n_seats)))


def deal_log(environment) -> DealLog:
    """The deal so far (``sim.core.event_logs.DealLog``) as the family's ``engine.replay`` would give it."""
    events = environment.events[1 : environment.events[0, 0] + 1]
    record = environment.record_row
    if environment.fans.ndim == 1:  # 二人: one win at most, the event rows whole (sim.erren.engine.replay)
        return DealLog(record, environment.fans.copy(), environment.wall.copy(), events.copy())
    # 血战: a fan row per seat, each event's amount apart (sim.xuezhan.engine.replay)
    n_seats = len(environment.rewards)
    return DealLog(record, environment.fans[:n_seats].copy(), environment.wall.copy(), events[:, :3].copy(),
                   events[:, 3].copy())


def deal_text(environment, names: SeatNames, note: str) -> str:
    """The report of `environment`'s deal: whole once the deal is over, else the deal so far and `note` (who
    is to act, or why the episode stopped) in place of the result."""
    ruleset = environment.ruleset
    text = family_of(ruleset).report.format_deal(deal_log(environment), ruleset, names, environment.seed)
    if environment.terminated:
        return text
    return text[: text.rindex(RESULT_MARK)] + f"\n\n{note}\n"

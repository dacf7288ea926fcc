"""A learning environment's deal as text, as ``mjsim replay`` prints it: the family's report
(``replay_report.format_deal``) of the step environment's deal log so far.

Until the deal is over, a line saying whose decision is pending (or why the episode stopped short of the
deal's end) stands where the report's result would.
"""

from typing import NamedTuple

from sim.families import family_of


class SeatNames(NamedTuple):
    """What ``format_deal`` reads of a table's players: one name per seat."""

    names: tuple[str, ...]


def seat_names(environment) -> SeatNames:
    """Each seat's name in the report: its opponent's name as ``mjsim replay`` gives it (a heuristic's or a
    built-in numba player's canonical text, a user's player's text as written); ``agent`` for a seat the
    learner plays."""
    return SeatNames(tuple("agent" if name is None else name for name in environment.opponents.names))


def deal_text(environment, names: SeatNames, note: str) -> str:
    """The report of `environment`'s deal: whole once the deal is over, else the deal so far and `note` (who
    is to act, or why the episode stopped) in place of the result."""
    ruleset = environment.ruleset
    pending = None if environment.terminated else note
    return family_of(ruleset).report.format_deal(environment.deal_log, ruleset, names, environment.seed, pending)

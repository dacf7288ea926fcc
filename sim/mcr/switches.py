"""The switches of a 国标 (MCR, four players) ruleset file (``family = "mcr"``): which keys its ``[ruleset]``
table holds and how they become the Ruleset's settings and its ``McrSwitches``.

The shared loader (``sim.core.ruleset``) reads the fans and checks the identity keys; it finds this module's
``SCHEMA`` by the family's name. docs/rules/mcr-table.md says what each switch does at the table.
"""

from dataclasses import dataclass

from sim.core.ruleset import LARGEST_SETTING, FamilySchema, check_at_most

SWITCHES = {
    "id": str,
    "name": str,
    "seed": str,
    "tile_set": str,
    "family": str,
    "players": list,
    "min_fan": int,
    "flowers": bool,
    "base": int,
    "match_deals": int,
}
SEATS = 4  # MCR is played by four; the family has no other table
WINDS = 4  # a round of the match per wind, a deal per dealer seat in a round
LARGEST_MATCH = 1_024  # deals in a match: a bound the records hold with room to spare


@dataclass(frozen=True)
class McrSwitches:
    """The table rules of an MCR ruleset (docs/rules/mcr-table.md) beyond the fans and the minimum."""

    base: int  # 底分: what every payer pays on top of the fans (the discarder and a self-draw's payers add F)
    match_deals: int  # deals in a match: the round wind changes every match_deals / 4 deals (16: 东南西北 x 4 dealers)


def settings(switches: dict, data: dict, fail) -> dict:
    """The Ruleset's settings from a file's checked-for-type switches; `fail` raises."""
    if switches["players"] != [SEATS]:
        fail(f"[ruleset] players = {switches['players']!r}: MCR is played by four, write players = [{SEATS}]")
    if switches["min_fan"] < 0:
        fail("[ruleset] min_fan must be 0 or more")
    check_at_most(fail, "[ruleset] min_fan", switches["min_fan"], LARGEST_SETTING)
    if switches["base"] < 0:
        fail("[ruleset] base must be 0 or more")
    check_at_most(fail, "[ruleset] base", switches["base"], LARGEST_SETTING)
    match = switches["match_deals"]
    if match <= 0 or match % WINDS:
        fail(f"[ruleset] match_deals = {match} must be a positive multiple of {WINDS} (a round per wind)")
    check_at_most(fail, "[ruleset] match_deals", match, LARGEST_MATCH)
    return {
        "min_fan": switches["min_fan"],
        "flowers": switches["flowers"],
        "max_doubles": 0,
        "ready_requires_concealed": False,
        "players": (SEATS,),
        "combine": "add",
        "cap": 0,
        "family_switches": McrSwitches(base=switches["base"], match_deals=match),
    }


SCHEMA = FamilySchema(SWITCHES, (), settings, ("all",))

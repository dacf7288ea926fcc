"""The families of games mjsim plays, by the name a ruleset file gives in its `family` key.

This is the one place where code asks which family a ruleset belongs to; the runner, the analysis
commands, the duels and the replay go through ``family_of``. What a family provides is ``sim.family``.
"""

from sim import erren, xuezhan
from sim.family import Family

FAMILIES: dict[str, Family] = {family.name: family for family in (erren.FAMILY, xuezhan.FAMILY)}


def family_of(ruleset) -> Family:
    return FAMILIES[ruleset.family]

"""The step environment of any ruleset (docs/write-a-player.md#a-step-environment): ``make_environment`` and
``make_batch_environment`` find the ruleset's family and build its ``Environment`` or ``BatchEnvironment``
(``sim.<family>.environment``, on the shared part in ``sim.players.environment``)."""

from sim.families import family_of
from sim.players.environment import BatchStepEnvironment, StepEnvironment, ruleset_of


def _family_module(ruleset):
    ruleset = ruleset_of(ruleset)
    return ruleset, family_of(ruleset).environment


def make_environment(ruleset, **options) -> StepEnvironment:
    """The step environment of `ruleset` (a name or a ``Ruleset``), whatever its family: ``opponents``,
    ``stake``, ``fee`` and, for a 血战 ruleset, ``n_seats``, as the family's ``Environment`` takes them."""
    ruleset, module = _family_module(ruleset)
    return module.Environment(ruleset, **options)


def make_batch_environment(n_tables: int, ruleset, **options) -> BatchStepEnvironment:
    """The batched step environment of `ruleset`, whatever its family (see ``make_environment``; also
    ``seed`` and ``threads``)."""
    ruleset, module = _family_module(ruleset)
    return module.BatchEnvironment(n_tables, ruleset, **options)

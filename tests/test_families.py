"""Adding a family (docs/layout.md#adding-a-family): every family the registry lists provides everything on
the checklist, and the lists of rulesets and tables the commands read come from the registry alone."""

from pathlib import Path

import pytest

from sim.core.ruleset import RULESET_DIR, family_schemas, load_ruleset
from sim.families import FAMILIES, calibration_tables, family_of, ruleset_ids, tables
from sim.players import ev_calibration
from sim.players.environment import BatchStepEnvironment, StepEnvironment
from sim.players.family import Family

ROOT = Path(__file__).resolve().parent.parent

# What each module of a family offers the rest of the house (the checklist's third point).
PROVIDES = {
    "table": (),
    "players": ("NAMES", "NUMBA_PLAYERS", "parse_player"),
    "engine": ("play", "replay", "Players", "kernel_rules", "EVENT_NAMES"),
    "report": ("format_deal",),
    "event_log": ("EVENT_NAMES", "TURN_EVENTS", "log_table"),
    "scoring": ("check", "score_rows"),
    "money": ("seat_changes", "seat_wins", "units_moved", "win_rows", "run_tables", "outcome_summary"),
    "observation": ("Observation", "NumbaObservation"),
    "environment": ("Environment", "BatchEnvironment"),
    "ev": ("act", "calibration_table"),
    "numba_helpers": (),
    "win_value": (),
    "switches": ("SCHEMA", "settings"),
}
MODULE_FILES = {"report": "replay_report"}  # a field named apart from its module's file

FAMILY_NAMES = sorted(FAMILIES)


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_a_family_is_its_own_package_listed_once_under_its_name(name):
    family = FAMILIES[name]
    assert isinstance(family, Family) and family.name == name
    assert (ROOT / "sim" / name / "__init__.py").is_file()
    assert __import__(f"sim.{name}", fromlist=["FAMILY"]).FAMILY is family


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_a_family_provides_every_module_on_the_checklist_from_its_own_package(name):
    family = FAMILIES[name]
    for field, attributes in PROVIDES.items():
        module = getattr(family, field, None) or __import__(f"sim.{name}.{field}", fromlist=["_"])
        assert module.__name__ == f"sim.{name}.{MODULE_FILES.get(field, field)}", (name, field)
        missing = [attribute for attribute in attributes if not hasattr(module, attribute)]
        assert not missing, f"sim.{name}.{MODULE_FILES.get(field, field)} lacks {', '.join(missing)}"
    assert issubclass(family.environment.Environment, StepEnvironment)
    assert issubclass(family.environment.BatchEnvironment, BatchStepEnvironment)
    assert family.players.NUMBA_PLAYERS.get("ev", "").startswith(f"sim.{name}.ev:")


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_a_familys_rulesets_are_shipped_files_that_name_it(name):
    family = FAMILIES[name]
    assert family.rulesets, f"{name} names no ruleset"
    for ruleset_id in family.rulesets:
        assert (RULESET_DIR / f"{ruleset_id}.toml").is_file()
        assert load_ruleset(ruleset_id).family == name  # the file's `family` key (erren where it has none)
        assert family_of(load_ruleset(ruleset_id)) is family
        assert (ROOT / "docs" / "rules" / f"{ruleset_id}.md").is_file()
    assert (ROOT / "docs" / "rules" / f"{name}-table.md").is_file()
    assert family.rooms_file.is_file() and family.rooms_file.parent == ROOT / "sim" / name


def test_the_loader_reads_the_files_of_exactly_the_registered_families_by_their_own_schemas():
    # the loader finds the schemas by looking (sim/<family>/switches.py), the registry by its list: they agree
    assert list(family_schemas()) == sorted(FAMILIES)
    for name, family in FAMILIES.items():
        assert family_schemas()[name] is family.switches.SCHEMA


def test_every_shipped_ruleset_file_belongs_to_exactly_one_family():
    shipped = sorted(path.stem for path in RULESET_DIR.glob("*.toml"))
    assert sorted(ruleset_ids()) == shipped
    assert len(set(ruleset_ids())) == len(ruleset_ids())


def test_the_tables_are_every_ruleset_at_every_seat_count_its_file_allows():
    expected = [(ruleset_id, seats) for ruleset_id in ruleset_ids() for seats in load_ruleset(ruleset_id).players]
    assert list(tables()) == expected
    assert ("sanren-liangfang", 2) in tables() and ("sanren-liangfang", 3) in tables()


def test_evs_fitted_curves_cover_every_table_of_the_registry_in_its_order():
    # a family added without `mjsim calibrate-ev` fails here: its ev would read another table's curves
    assert list(ev_calibration.TABLES) == [tuple(table) for table in calibration_tables()]


@pytest.mark.parametrize("table", range(len(ev_calibration.TABLES)))
def test_each_familys_ev_picks_the_fitted_table_of_its_rulesets(table):
    name, ruleset_id, seats = ev_calibration.TABLES[table]
    ruleset = load_ruleset(ruleset_id)
    assert family_of(ruleset).ev.calibration_table(ruleset, seats) == table == ev_calibration.table_named(name)


def test_every_family_has_its_tests_in_its_own_folder_named_as_every_others():
    names = {name: sorted(path.name for path in (ROOT / "tests" / name).glob("test_*.py")) for name in FAMILY_NAMES}
    first = names[FAMILY_NAMES[0]]
    assert "test_engine.py" in first
    assert all(found == first for found in names.values()), names


def test_the_families_are_made_of_modules_of_the_same_names():
    names = {name: sorted(path.name for path in (ROOT / "sim" / name).glob("*.py")) for name in FAMILY_NAMES}
    first = names[FAMILY_NAMES[0]]
    assert all(found == first for found in names.values()), names

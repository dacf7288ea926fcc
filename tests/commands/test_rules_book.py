"""The rules book (docs/rules/) against the ruleset data: every generated section of every page is what
sim.commands.rules_book makes from the data files now, an edited ruleset file changes the generated text, and
`mjsim rules` prints every shipped ruleset, as text and as JSON, in agreement with the loaded Ruleset."""

import json
import re

import pytest

from kernels.fan_ids import FAN_IDS, Fan
from sim.commands import rules_book
from sim.core.ruleset import RULESET_DIR, available, load_ruleset

PAGES = sorted(rules_book.PAGES_DIR.glob("*.md"))
RULESETS = available()


def _edited_copy(tmp_path, ruleset_id, old, new, name=None):
    """A copy of a shipped ruleset file with one piece of text replaced, under an id of its own (a variant may
    not take a shipped ruleset's id)."""
    text = (RULESET_DIR / f"{ruleset_id}.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / (name or f"{ruleset_id}-edited.toml")
    text = text.replace(old, new).replace(f'id = "{ruleset_id}"', f'id = "{ruleset_id}-edited"', 1)
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------- the pages


def test_the_book_has_the_pages_other_documents_link_to():
    names = {page.name for page in PAGES}
    assert {"README.md", "erren-table.md", "xuezhan-table.md"} | {f"{ruleset_id}.md" for ruleset_id in RULESETS} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_generated_section_of_a_page_is_what_the_data_files_say_now(page):
    text = page.read_text(encoding="utf-8")
    assert rules_book.rewrite(text) == text, f"{page.name} is stale: run `python -m sim.commands.rules_book`"


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_each_ruleset_page_carries_its_generated_settings_and_fan_table(ruleset_id):
    text = (rules_book.PAGES_DIR / f"{ruleset_id}.md").read_text(encoding="utf-8")
    sections = ["settings", "fans"] + (["kong money"] if load_ruleset(ruleset_id).family == "xuezhan" else [])
    for section in sections:
        assert f"<!-- generated from sim/rulesets/{ruleset_id}.toml: {section} -->" in text


def test_the_index_lists_every_shipped_ruleset():
    text = (rules_book.PAGES_DIR / "README.md").read_text(encoding="utf-8")
    assert "<!-- generated from sim/rulesets: index -->" in text
    for ruleset_id in RULESETS:
        assert f"[`{ruleset_id}`]({ruleset_id}.md)" in text


def _anchor(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_pages_of_the_book_finds_its_page_and_heading():
    anchors = {
        page.name: {_anchor(line.lstrip("#")) for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("#")}
        for page in PAGES
    }
    for page in PAGES:
        for target, anchor in re.findall(r"\]\(([\w.-]*\.md)?(?:#([^)]+))?\)", page.read_text(encoding="utf-8")):
            target = target or page.name
            assert target in anchors, f"{page.name} links to a missing page {target}"
            assert not anchor or anchor in anchors[target], f"{page.name} links to a missing heading {target}#{anchor}"


# ------------------------------------------------------------------------------------- the generator


def test_a_changed_value_in_a_ruleset_file_changes_the_generated_fan_table(tmp_path):
    edited = _edited_copy(tmp_path, "erren", 'name = "清一色"\nvalue = 24', 'name = "清一色"\nvalue = 30')
    before = rules_book.section("fans", RULESET_DIR / "erren.toml")
    after = rules_book.section("fans", edited)
    assert "| 清一色 | `full_flush` | 24 | — |" in before
    assert "| 清一色 | `full_flush` | 30 | — |" in after


def test_a_changed_switch_or_kong_money_changes_the_generated_settings(tmp_path):
    edited = _edited_copy(tmp_path, "liangmen-xuezhan", "exposed_others = 1", "exposed_others = 3")
    assert "| `exposed_others` | exposed kong of a discard (擦挂) | every other player still in | 3 |" in rules_book.section(
        "kong money", edited
    )
    edited = _edited_copy(tmp_path, "erren", "min_fan = 8", "min_fan = 6", name="erren-six.toml")
    assert "| `min_fan` | `6` |" in rules_book.section("settings", edited)


def test_a_page_made_from_a_file_that_has_changed_since_is_stale_and_rewriting_fixes_only_its_sections(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir(), new.mkdir()
    (old / "rules.toml").write_text((RULESET_DIR / "sanren-liangfang.toml").read_text(encoding="utf-8"), encoding="utf-8")
    _edited_copy(new, "sanren-liangfang", 'name = "清对"\nvalue = 3', 'name = "清对"\nvalue = 4', name="rules.toml")
    page = "Hand-written intro.\n\n<!-- generated from rules.toml: fans -->\nwhatever was here\n<!-- end generated -->\n\nHand-written end.\n"
    made = rules_book.rewrite(page, root=old)
    assert made.startswith("Hand-written intro.\n\n<!-- generated from rules.toml: fans -->\n")
    assert made.endswith("<!-- end generated -->\n\nHand-written end.\n")
    assert "whatever was here" not in made and "| 清对 | `full_flush_pungs` | 3 |" in made
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "sanren.md").write_text(made, encoding="utf-8")
    assert rules_book.stale_pages(pages, root=old) == []
    assert rules_book.stale_pages(pages, root=new) == [pages / "sanren.md"]
    assert "| 清对 | `full_flush_pungs` | 4 |" in rules_book.rewrite(made, root=new)


@pytest.mark.parametrize(
    "page",
    [
        "<!-- generated from sim/rulesets/erren.toml: fans -->\nno end marker\n",
        "<!-- generated from sim/rulesets/erren.toml: odds -->\n<!-- end generated -->\n",
    ],
    ids=["without its end marker", "an unknown section"],
)
def test_a_malformed_marker_is_one_clear_error(page):
    with pytest.raises(rules_book.RulesBookError):
        rules_book.rewrite(page)


def test_a_fan_the_settings_switch_off_is_listed_apart_from_the_scored_fans():
    """003's 中张 is in the file but off without 门清中张: not scored, yet the book says it exists."""
    data = rules_book.ruleset_data(load_ruleset("sanren-liangfang"))
    assert "all_simples" not in {fan["id"] for fan in data["fans"]}
    assert data["switched_off_fans"] == [{"id": "all_simples", "name": "中张", "value": 1, "excludes": []}]
    assert "not scored with these settings: 中张 (`all_simples`" in rules_book.section(
        "fans", RULESET_DIR / "sanren-liangfang.toml"
    )


# ------------------------------------------------------------------------------------- `mjsim rules`


def _fan_line(out, fan_id):
    lines = [line for line in out.splitlines() if fan_id in line.split()]
    assert len(lines) == 1, f"{fan_id}: {lines}"
    return lines[0]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_mjsim_rules_prints_every_setting_and_every_fan_with_its_value_and_exclusions(mjsim, ruleset_id):
    code, out, err = mjsim("rules", ruleset_id)
    assert code == 0 and err == ""
    rules = load_ruleset(ruleset_id)
    assert out.startswith(f"{rules.id} ({rules.name}), seed {rules.seed}")
    lines = out.splitlines()
    for key, value in rules_book.settings_of(rules).items():
        shown = value if isinstance(value, str) else json.dumps(value)  # as the ruleset file spells it
        assert any(line.startswith(f"  {key} ") and line[len(key) + 2 :].lstrip().startswith(shown + " ") for line in lines), key
    for fan in rules.fans:
        line = _fan_line(out, FAN_IDS[fan])
        value = f"×{rules.values[fan]}" if rules.combine == "multiply" else str(rules.values[fan])
        if rules.is_limit[fan]:  # a 役满 (erren-challenge) shows its count of 役满
            value += " 役满"
        assert line.split()[: len(value.split()) + 1] == [*value.split(), rules.fan_names[fan]]
        for target in rules.excludes(fan):
            assert rules.fan_names[target] in line


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_mjsim_rules_json_agrees_with_the_loaded_ruleset(mjsim, ruleset_id):
    code, out, err = mjsim("rules", ruleset_id, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    rules = load_ruleset(ruleset_id)
    assert (data["id"], data["name"], data["seed"], data["family"]) == (rules.id, rules.name, rules.seed, rules.family)
    assert (data["seats"], data["tile_set"], data["combine"], data["cap"]) == (list(rules.players), rules.tile_set, rules.combine, rules.cap)
    assert [fan["id"] for fan in data["fans"]] == [FAN_IDS[fan] for fan in rules.fans]
    for entry in data["fans"]:
        fan = Fan[entry["id"].upper()]
        assert entry["name"] == rules.fan_names[fan]
        assert entry["value"] == rules.values[fan]
        assert {Fan[target.upper()] for target in entry["excludes"]} == rules.excludes(fan)
    if rules.xuezhan is not None:
        assert data["kong_money"] == {key: getattr(rules.xuezhan, key) for key in data["kong_money"]}
        assert data["settings"]["declared_ready"] == rules.xuezhan.declared_ready
    else:
        assert data["settings"]["min_fan"] == rules.min_fan


def test_mjsim_rules_takes_a_ruleset_file_by_path(mjsim, tmp_path):
    edited = _edited_copy(tmp_path, "erren-classic", 'name = "七星参北斗"\nvalue = 168', 'name = "七星参北斗"\nvalue = 200')
    code, out, _ = mjsim("rules", str(edited), "--json")
    assert code == 0
    first = json.loads(out)["fans"][0]
    assert (first["id"], first["name"], first["value"]) == ("seven_stars", "七星参北斗", 200)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_rules_toml_prints_a_shipped_ruleset_as_a_variant_that_loads_with_its_own_id(mjsim, tmp_path, ruleset_id):
    code, out, _ = mjsim("rules", ruleset_id, "--toml")
    assert code == 0 and out.startswith("# A variant of the shipped ruleset")
    path = tmp_path / "mine.toml"
    path.write_text(out, encoding="utf-8")
    variant, shipped = load_ruleset(str(path)), load_ruleset(ruleset_id)
    assert variant.id == f"{ruleset_id}-variant" and variant.name.startswith(shipped.name)
    assert rules_book.settings_of(variant) == rules_book.settings_of(shipped)
    assert rules_book.fans_of(variant) == rules_book.fans_of(shipped)  # values, names and exclusions
    assert mjsim("rules", str(path), "--toml")[1] == out  # a user's file prints as it is


def test_rules_takes_json_or_toml_not_both(mjsim):
    code, _, err = mjsim("rules", "erren", "--json", "--toml")
    assert code == 2 and err == "error: give --json or --toml, not both\n"


@pytest.mark.parametrize("ruleset", ["no-such-rules", "missing/rules.toml"])
def test_an_unknown_ruleset_is_one_error_line_and_exit_2(mjsim, ruleset):
    code, out, err = mjsim("rules", ruleset)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and ruleset in err

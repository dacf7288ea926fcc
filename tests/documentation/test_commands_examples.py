"""docs/commands.md's checked console examples print what the page shows (the rules: console_examples)."""

from console_examples import stale_examples


def test_the_commands_page_examples_print_what_they_show(tmp_path, shared_run):
    stale = stale_examples("docs/commands.md", tmp_path / "checkout", shared_run)
    assert not stale, "\n\n".join(stale)

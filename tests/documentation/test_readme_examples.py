"""README.md's checked console examples print what README.md shows (the rules: console_examples)."""

from console_examples import stale_examples


def test_the_readme_examples_print_what_they_show(tmp_path, shared_run):
    stale = stale_examples("README.md", tmp_path / "checkout", shared_run)
    assert not stale, "\n\n".join(stale)

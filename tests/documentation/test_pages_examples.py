"""The checked console examples of every other page under docs/ print what the page shows (the rules:
console_examples); README.md and docs/commands.md, the longest, have files of their own so that pytest-xdist
can run them beside these."""

import pytest
from console_examples import console_blocks, documented_pages, stale_examples

OWN_FILES = {"README.md", "docs/commands.md"}
PAGES = [page for page in documented_pages()
         if page not in OWN_FILES and any(block.checked for block in console_blocks(page))]


@pytest.mark.parametrize("page", PAGES)
def test_the_page_examples_print_what_they_show(page, tmp_path, shared_run):
    stale = stale_examples(page, tmp_path / "checkout", shared_run)
    assert not stale, "\n\n".join(stale)

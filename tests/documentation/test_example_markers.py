"""Every console example in the docs is marked checked or not checked (with a reason), a checked one is a
session of `$ ` commands, and the comparison follows the rules in console_examples' docstring."""

from console_examples import (
    Command,
    comparable,
    console_blocks,
    documented_pages,
    masked,
    matches,
    shared_runs_read,
)

PAGES = documented_pages()


def test_every_console_example_is_marked_and_a_skipped_one_says_why():
    problems = [problem for page in PAGES for block in console_blocks(page) if (problem := block.marker_problem())]
    assert problems == []


def test_every_checked_example_is_a_session_of_commands():
    problems = []
    for page in PAGES:
        for block in console_blocks(page):
            if block.checked:
                try:
                    block.commands()
                except ValueError as problem:
                    problems.append(str(problem))
    assert problems == []


def test_an_ellipsis_line_stands_for_any_number_of_lines_none_included():
    expected = ["first", "...", "last"]
    assert matches(expected, ["first", "last"])
    assert matches(expected, ["first", "a", "b", "c", "last"])
    assert not matches(expected, ["first", "a", "b"])
    assert matches(["...", "  x  ...".rstrip(), "..."], ["a", "  x  ...", "b"])
    assert matches(["  ..."], [])  # indented, it still stands for lines


def test_every_other_line_must_be_the_same():
    assert not matches(["wins 99.76%"], ["wins 99.75%"])
    assert not matches(["one"], ["one", "two"])
    assert not matches(["one", "two"], ["one"])
    assert comparable(["a  ", "b", "", ""]) == ["a", "b"]


def test_timings_and_rates_are_masked_whatever_their_digits_and_padding():
    assert masked("(200,000 played now in 4.5 s, 44,204 deals/s)") == masked("(200,000 played now in 37.2 s, 5,373 deals/s)")
    assert masked("40,000 deals in 2.1 s (18,852 deals/s, compiling included)") == "40,000 deals in # s ( # deals/s, compiling included)"
    assert masked("  erren, greedy v greedy      31.5 k deals/s") == masked("  erren, greedy v greedy     115.0 k deals/s")
    assert masked("waits, in-kernel   2.43 M/s") == masked("waits, in-kernel  12.43 M/s")
    assert masked("riichienv     680 rounds/s") == masked("riichienv   1,680 rounds/s")


def test_what_is_not_a_timing_is_compared():
    # a tile (7s), a count of seats, a share
    for line in ["the replay seat 2 draw 7s", "sanren-liangfang at 3 seats", "self-drawn 51.55% of wins"]:
        assert masked(line) == line


def test_a_shared_run_is_copied_in_first_unless_the_doc_runs_the_command_that_makes_it():
    analyze = Command("mjsim analyze results/erren-greedy-v-greedy-seed1", 1)
    assert shared_runs_read([analyze]) == ["erren-greedy-v-greedy-seed1"]
    assert shared_runs_read([Command("mjsim run", 1), analyze]) == []
    assert shared_runs_read([Command("mjsim compare results/erren results/my-erren", 1)]) == []

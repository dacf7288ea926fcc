"""A bad invocation of any command is one line on stderr starting `error: `, a non-zero status and no
traceback: an unknown option, a missing or mistyped value, a flag given a value, an extra argument, a value
out of range, a path with a line break in it; for every `mjsim` command, for `python -m sim.runs.log_replay` and
`python -m sim.commands.rules_book`."""

import inspect
import subprocess
import sys
import typing
from pathlib import Path

import pytest
import typer

from sim import cli
from sim.commands import rules_book
from sim.runs import log_replay

COMMANDS = typer.main.get_command(cli.app).commands


def _options(command):
    return [parameter for parameter in COMMANDS[command].params if type(parameter).__name__ == "TyperOption"]


def _takes_integers(command, option):
    """Whether the option's value is an integer (or a list of them), from the command function's annotation."""
    hints = typing.get_type_hints(inspect.unwrap(COMMANDS[command].callback))
    return "int" in str(hints[option.name])


def _invocations_of_every_command():
    """For every command: an unknown option, each option missing its value, each integer option given a word,
    each flag given a value; the table grows with the commands."""
    for command in COMMANDS:
        yield command, "--bogus"
        for option in _options(command):
            name = option.opts[0]
            if option.is_flag:
                yield command, f"{name}=true"
            else:
                yield command, name  # its value missing
                if _takes_integers(command, option):
                    yield command, name, "ten"


HAND_PICKED = [
    ("nosuch",),
    ("--bogus",),
    ("run", "--json", "true"),
    ("rules", "erren", "--json", "true"),
    ("score", "1m", "--win", "2m", "--json", "true"),
    ("replay", "--json", "true"),
    ("run", "--deals", "0"),
    ("run", "--deals", "1e6"),
    ("run", "--seed", "-1"),
    ("run", "--players", ""),
    ("run", "--ruleset", ""),
    ("run", "--decisions", "2"),
    ("run", "--decisions", "0,0"),
    ("run", "--ruleset", "mcr", "--players", "botzone:,greedy,greedy,greedy"),
    ("run", "--ruleset", "mcr", "--players", "botzone:no-such-program-here,greedy,greedy,greedy"),
    ("run", "--players", "botzone:python3 bot.py,greedy"),
    ("duel", "botzone:", "greedy", "--ruleset", "mcr"),
    ("duel", "botzone:python3 bot.py", "greedy"),
    ("run", "--decisions", "seat0"),
    ("run", "--decisions", ""),
    ("replay", "--deal", "-1"),
    ("bench", "--seed", "-1"),
    ("bench", "--hands", "99999999999999999999999"),
    ("bench", "--deals", "99999999999"),
    ("demo", "--deals", "0"),
    ("duel", "greedy", "greedy", "--deals", "0"),
    ("duel", "greedy", ""),
    ("league", "greedy"),
    ("tune", "greedy"),
    ("tune", "greedy", "--param", "double_wall"),
    ("tune", "greedy", "--param", "double_wall=a..b"),
    ("tune", "greedy", "--param", "double_wall=20..5"),
    ("tune", "greedy", "--param", "nosuch=0..1"),
    ("tune", "greedy", "--param", "double_wall=-5..5"),
    ("tune", "greedy", "--param", "double_wall=0..5:float"),
    ("tune", "greedy", "--param", "double_wall=0.5..5:int"),
    ("tune", "greedy", "--param", "double_wall=0..5", "--param", "double_wall=1..2"),
    ("tune", "greedy", "--param", "double_wall=0..5", "--iterations", "0"),
    ("tune", "greedy", "--param", "double_wall=0..5", "--walls-per-step", "1"),
    ("tune", "greedy", "--param", "double_wall=0..5", "--perturbation", "0.9"),
    ("tune", "greedy", "--param", "double_wall=0..5", "--opponent", "nosuch"),
    ("tune", "nosuch", "--param", "double_wall=0..5"),
    ("tune", "ev", "--param", "depth=0..5"),
    ("tune", "examples/players/simple.py:Coin", "--param", "win=0..1"),
    ("league", "greedy", "random", "--anchor", "greedy"),
    ("league", "greedy", "random", "--ratings", "--anchor", "nosuch"),
    ("rate",),
    ("rate", "no/such/league.parquet"),
    ("rate", "no/such/league.parquet", "--resamples", "1"),
    ("rate", "no/such/league.parquet", "--seed", "-1"),
    ("sprt", "greedy", "defensive", "--money0", "0", "--elo1", "5"),
    ("sprt", "greedy", "defensive", "--money0", "0"),
    ("sprt", "greedy", "defensive", "--elo0", "5", "--elo1", "0"),
    ("sprt", "greedy", "defensive", "--elo0", "0", "--elo1", "5000"),
    ("sprt", "greedy", "defensive", "--money0", "nan", "--money1", "1"),
    ("sprt", "greedy", "defensive", "--alpha", "0"),
    ("sprt", "greedy", "defensive", "--beta", "0.7"),
    ("sprt", "greedy", "defensive", "--batch", "0"),
    ("sprt", "greedy", "defensive", "--max-walls", "100"),
    ("sprt", "greedy", "defensive", "--lineup", "two"),
    ("sprt", "greedy", "defensive", "--seats", "3"),
    ("sprt", "greedy", "defensive", "--room", "nosuch"),
    ("sprt", "greedy", "nosuch"),
    ("challenge", "--runs", "0"),
    ("shanten", ""),
    ("shanten", "1122x"),
    ("shanten", "--batch", "a\nb"),
    ("score", "", "--win", "1m"),
    ("score", "123m", "--win", ""),
    ("score", "123m456p789s1112z", "--win", "2z", "--ruleset", "mcr", "--seat-wind", "up"),
    ("score", "123m456m789m111z2z", "--win", "2z", "--seat-wind", "south"),  # erren scores no winds
    ("score", "123m456m789m111z2z", "--win", "2z", "--ruleset", "liangmen-xuezhan", "--round-wind", "west"),
    ("rules", ""),
    ("rules", "erren", "--json", "--toml"),
    ("analyze", ""),
    ("analyze", "no/such/run"),
    ("report", "no/such/run"),
    ("compare", "no/such/run", "no/such/run"),
    ("economics", "no/such/run"),
    ("warmup", "nosuch"),
]


@pytest.mark.parametrize("arguments", [*_invocations_of_every_command(), *HAND_PICKED], ids=repr)
def test_a_bad_invocation_is_one_error_line(mjsim, arguments):
    code, out, err = mjsim(*arguments)
    assert code not in (0, None)
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert out == ""


def test_the_installed_command_prints_the_same_one_line(tmp_path):
    # the console script, not the function called in-process: nothing between them adds a line
    mjsim = Path(sys.executable).parent / "mjsim"
    done = subprocess.run([mjsim, "run", "--deals"], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "error: Option '--deals' requires an argument. (see mjsim run --help)\n"


@pytest.mark.parametrize("arguments", [[], ["--bogus"], ["a-run", "--deals", "ten"], ["a-run", "--deals"], ["no/such/run"],
                                       ["no/such/run", "--deals", "0"]], ids=repr)
def test_a_bad_log_replay_invocation_is_one_error_line(capsys, arguments):
    try:
        code = log_replay.main(arguments)
    except SystemExit as exit:
        code = exit.code
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err


def test_a_bad_rules_book_invocation_is_one_error_line(capsys):
    assert rules_book.main(["--bogus"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1, err

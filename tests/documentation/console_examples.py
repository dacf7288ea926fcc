"""The docs' console examples: finding them, running them as a user would, and comparing what they print.

Every ```console block of README.md and docs/**/*.md has a marker on the line right before its fence:

    <!-- example: checked -->
    <!-- example: not checked: REASON -->

A checked block is a session at the shell: each line starting `$ ` is a command, and the lines after it, up
to the next `$ ` line or the end of the block, are what it prints. The rules of the comparison:

- A command runs in bash (pipes, redirections and `# comments` work) with the project's venv first on
  PATH (so `mjsim` and `python` are the project's), standard output and standard error together, as a
  terminal shows them. Its exit status is not compared: an example of an error shows the error's line.
- It runs in a working directory laid out like the repository's root (`sim/`, `examples/`, `docs/`, ...
  are links to the checkout's), but with a `results/` of its own, so nothing under the real results/ is
  written. All the blocks of one doc run in order in one such directory: a later example reads what an
  earlier one wrote.
- A run a doc's examples read but do not make (`results/erren-greedy-v-greedy-seed1`, the main job's) is
  made once per test session by the commands in SHARED_RUNS and copied into the doc's `results/`. A doc
  that runs the one command making such a run (README.md runs the main job) gets the same: the session's
  run, copied in, and what its command printed, which is what the doc's command would print.
- Lines are compared exactly, after trailing spaces are dropped and trailing blank lines are left out
  (a blank line between one command's output and the next `$ ` is only layout).
- A line that holds only `...` (it may be indented) stands for any number of lines, none included.
- Timings and rates are masked on both sides: a number before ` s`, ` ms`, ` seconds` or ` minutes` (with
  the space: `7s` is a tile) and a number before a rate (`deals/s`, `k deals/s`, `M/s`, `rounds/s`)
  compare as `#`, whatever their digits and padding.

A block marked `not checked` must say why (too slow for the suite, output all rates, ...). When a checked
example's output differs, the doc is stale: paste the real output into it.
"""

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECKED = "<!-- example: checked -->"
NOT_CHECKED = re.compile(r"<!-- example: not checked: (?P<reason>.*?) -->")
ELLIPSIS = "..."
MASK = "#"

# a number, with its padding, before a unit of time or a rate; `7s` (a tile) has no space and is left alone
_NUMBER = r"[ ]*(?<![\w.,])\d[\d,]*(?:\.\d+)?"
_TIMING = re.compile(_NUMBER + r"(?= (?:s|ms|seconds?|minutes?)\b)")
_RATE = re.compile(_NUMBER + r"(?= ?(?:[kM] ?)?(?:[A-Za-z]+ ?)?/s\b)")

# Runs that examples read and that no example makes in the same doc: results/NAME is made by these
# commands, run in order in a fresh working directory.
SHARED_RUNS = {
    # the main job: README.md's set-up command
    "erren-greedy-v-greedy-seed1": ("mjsim run",),
    # docs/compare.md: erren, and erren with 清一色 worth 32, greedy v greedy, 20,000 deals of seed 1 (and seed 2)
    "A": ("mjsim run --ruleset erren --players greedy,greedy --seed 1 --deals 20000 --out results/A",),
    "A-seed2": ("mjsim run --ruleset erren --players greedy,greedy --seed 2 --deals 20000 --out results/A-seed2",),
    "B": (
        "mjsim rules erren --toml | sed -e 's/^id = \"erren-variant\"/id = \"erren-flush32\"/'"
        " -e '/^\\[fans.full_flush\\]/,/^value/ s/^value = 24/value = 32/' > erren-flush32.toml",
        "mjsim run --ruleset erren-flush32.toml --players greedy,greedy --seed 1 --deals 20000 --out results/B",
    ),
}


@dataclass
class Command:
    text: str
    line: int  # in the doc, counting from 1
    expected: list[str] = field(default_factory=list)


@dataclass
class ConsoleBlock:
    doc: str  # relative to the repository
    line: int  # of the opening fence
    marker: str  # the line before the fence, stripped
    lines: list[str]  # between the fences, with their line numbers from line + 1

    @property
    def checked(self) -> bool:
        return self.marker == CHECKED

    def marker_problem(self) -> str | None:
        """Why the marker is not one of the two, or None."""
        if self.checked:
            return None
        not_checked = NOT_CHECKED.fullmatch(self.marker)
        if not_checked is None:
            return f"{self.doc}:{self.line}: a console block needs `{CHECKED}` or `<!-- example: not checked: REASON -->` on the line before it"
        if not not_checked.group("reason").strip():
            return f"{self.doc}:{self.line}: `not checked` needs a reason"
        return None

    def commands(self) -> list[Command]:
        """The block's commands with the lines each should print; a ValueError if the block does not start
        with a command (only a checked block needs to)."""
        commands: list[Command] = []
        for number, text in enumerate(self.lines, self.line + 1):
            if text.startswith("$ "):
                commands.append(Command(text[2:], number))
            elif not commands:
                raise ValueError(f"{self.doc}:{number}: a checked block starts with a `$ ` command line")
            else:
                commands[-1].expected.append(text)
        if not commands:
            raise ValueError(f"{self.doc}:{self.line}: a checked block has no `$ ` command line")
        return commands


def documented_pages() -> list[str]:
    """README.md and every page under docs/, relative to the repository."""
    return ["README.md", *sorted(str(path.relative_to(ROOT)) for path in (ROOT / "docs").rglob("*.md"))]


def console_blocks(doc: str) -> list[ConsoleBlock]:
    lines = (ROOT / doc).read_text(encoding="utf-8").splitlines()
    blocks = []
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```console":
            end = index + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            marker = lines[index - 1].strip() if index > 0 else ""
            blocks.append(ConsoleBlock(doc, index + 1, marker, lines[index + 1 : end]))
            index = end
        index += 1
    return blocks


def masked(line: str) -> str:
    return _RATE.sub(" " + MASK, _TIMING.sub(" " + MASK, line))


def comparable(lines: list[str]) -> list[str]:
    """Trailing spaces and trailing blank lines dropped, timings and rates masked."""
    kept = [masked(line.rstrip()) for line in lines]
    while kept and not kept[-1]:
        kept.pop()
    return kept


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines are the expected ones, a line `...` standing for any number of lines (both
    already `comparable`)."""
    # reachable[j]: the expected lines so far can match the first j actual lines
    reachable = [True] + [False] * len(actual)
    for line in expected:
        if line.strip() == ELLIPSIS:
            for j in range(1, len(actual) + 1):
                reachable[j] = reachable[j] or reachable[j - 1]
        else:
            reachable = [False] + [reachable[j - 1] and actual[j - 1] == line for j in range(1, len(actual) + 1)]
    return reachable[-1]


def lay_out_like_the_repository(directory: Path) -> None:
    """`directory` as a user's repository root: links to the checkout's files and folders, and a `results/`
    of its own."""
    directory.mkdir(parents=True, exist_ok=True)
    for entry in ROOT.iterdir():
        if entry.name not in {"results", ".git", ".venv"} and not entry.name.startswith("."):
            (directory / entry.name).symlink_to(entry)
    (directory / "results").mkdir()


def shell_environment() -> dict[str, str]:
    environment = dict(os.environ)
    environment["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), environment.get("PATH", "")])
    return environment


def run(command: str, directory: Path) -> str:
    """What `command` prints in bash in `directory`, standard output and standard error together."""
    done = subprocess.run(["bash", "-c", command], cwd=directory, env=shell_environment(), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=900, check=False)
    return done.stdout


def shared_runs_read(commands: list[Command]) -> list[str]:
    """The SHARED_RUNS these commands read and do not make themselves."""
    texts = {command.text for command in commands}
    named = {name for command in commands for name in re.findall(r"results/([\w.-]+)", command.text)}
    return sorted(name for name in named & SHARED_RUNS.keys() if SHARED_RUNS[name][-1] not in texts)


PRINTED = "printed.txt"  # beside a shared run's results/: what its last command printed


def make_shared_run(name: str, directory: Path) -> Path:
    """Make SHARED_RUNS[name] in a fresh `directory`, laid out like the repository; returns `directory`, which
    holds results/NAME and PRINTED."""
    lay_out_like_the_repository(directory)
    for command in SHARED_RUNS[name]:
        done = subprocess.run(["bash", "-c", command], cwd=directory, env=shell_environment(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=900, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"making results/{name}: `{command}` failed:\n{done.stdout}")
    (directory / PRINTED).write_text(done.stdout, encoding="utf-8")
    return directory


def _shared_run_made_by(command: str) -> str | None:
    """The SHARED_RUNS run that this one command makes, if any."""
    return next((name for name, commands in SHARED_RUNS.items() if commands == (command,)), None)


def checked_commands(doc: str) -> list[Command]:
    return [command for block in console_blocks(doc) if block.checked for command in block.commands()]


def stale_examples(doc: str, directory: Path, shared_run) -> list[str]:
    """Run the doc's checked examples in `directory` (laid out here), in order; one message per command whose
    output differs from the doc's. `shared_run(name)` gives the folder `make_shared_run` made."""
    commands = checked_commands(doc)
    lay_out_like_the_repository(directory)

    def copy_shared_run(name):
        made = shared_run(name)
        shutil.copytree(made / "results" / name, directory / "results" / name, symlinks=True)
        return (made / PRINTED).read_text(encoding="utf-8")

    for name in shared_runs_read(commands):
        copy_shared_run(name)
    stale = []
    for command in commands:
        name = _shared_run_made_by(command.text)
        if name is not None and not (directory / "results" / name).exists():
            output = copy_shared_run(name).splitlines()
        else:
            output = run(command.text, directory).splitlines()
        if not matches(comparable(command.expected), comparable(output)):
            stale.append(f"{doc}:{command.line}: $ {command.text}\n"
                         "--- the doc shows:\n" + "\n".join(command.expected) +
                         "\n--- it prints:\n" + "\n".join(output))
    return stale

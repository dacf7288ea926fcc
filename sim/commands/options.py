"""What a command holds its options to before any work starts: the one error a bad option is, ranges, and the
output files a command may replace."""

from pathlib import Path

from sim.core.result_files import output_target, read_metadata


class UserError(Exception):
    """A problem with what the user asked for, reported as one line (``mjsim`` prints it and exits 2)."""


def within(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise UserError(f"{name} must be from {low:,} to {high:,}, not {value:,}")


def check_own_output(out: Path, command: str, what: str) -> None:
    """`--out`: a new file, or a table `mjsim <command>` wrote before (replaced); anything else there (a run's
    table, another command's, a file that is not mjsim's) is refused before any work. `what` names the table."""
    path = output_target(out)
    if not path.exists():
        return
    try:
        written_by = read_metadata(path).get("config", {}).get("command")
    except Exception:  # noqa: BLE001  (not Parquet, damaged, or of another shape: not such a table)
        written_by = None
    if written_by != command:
        raise UserError(f"--out {out} exists and is not {what}; give another path")

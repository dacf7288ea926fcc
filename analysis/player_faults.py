"""Player faults in a run's records: per seat, the deals in which its user's player faulted (an ``exec:``
program's refused, malformed, late or unsolicited answer, or its death). The seat then played the engine's
safe default for the rest of the deal (docs/write-a-player.md#any-language), so the deal's numbers are not
that player's own: the summary, ``mjsim analyze`` and the report say how many there were.
"""

import pandas as pd

COLUMN_PREFIX = "faulted_"  # faulted_<seat>: 1 where the seat's player faulted in the deal


def fault_counts(records: pd.DataFrame) -> dict[int, int]:
    """seat -> the deals in which its player faulted, for every seat with a record column (runs written
    before mjsim recorded faults per seat have none: an empty dict)."""
    counts = {}
    for name in records.columns:
        if name.startswith(COLUMN_PREFIX) and name[len(COLUMN_PREFIX):].isdigit():
            counts[int(name[len(COLUMN_PREFIX):])] = int((records[name] != 0).sum())
    return counts


def format_faults(counts: dict[int, int], players, deals: int) -> str:
    """One line per seat whose player faulted (nothing when none did)."""
    lines = []
    for seat, count in sorted(counts.items()):
        if count:
            player = players[seat] if seat < len(players) else "?"
            lines.append(f"player faults: seat {seat} ({player}) faulted in {count:,} of {deals:,} deals "
                         f"({count / deals:.2%}); its seat played the safe default for the rest of each")
    return "".join(line + "\n" for line in lines)

"""Reading a run directory: its configuration (``run.json``, every field checked), its shards and event logs,
each checked against the run's manifest before it is read (``sim.core.run_directory``), and the records,
chances of winning and events they hold. What writes a run is ``sim.runs.runner``; what reads one, the
analysis and the commands, reads it here.
"""

from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from kernels.fan_ids import FAN_IDS, Fan
from sim.core import event_logs, run_directory, win_chances
from sim.core.input_limits import LARGEST_TOML_FILE, read_json
from sim.core.ruleset import MOST_SEATS, RulesetError, load_ruleset, parse_ruleset_text
from sim.core.run_directory import RECORDS, RUN_FILE, RunError, json_excerpt, whole_number_problem
from sim.core.size_limits import LARGEST_DEALS, LARGEST_SEED, LARGEST_SESSION, LARGEST_SHARD, MAX_SHARDS, check_memory


def fan_column(fan: Fan) -> str:
    """The records column holding each deal's count of `fan`."""
    return f"fan_{FAN_IDS[fan]}"



@dataclass(frozen=True)
class RunConfig:
    ruleset: str  # id or path, as given
    players: tuple[str, ...]  # canonical player texts, one per seat
    deals: int
    seed: int
    shard_size: int = 50_000
    session_length: int = 0

    def check(self) -> None:
        """A RunError unless every setting is within sim.core.size_limits (the command line checks its options
        against the same numbers first; a run.json is checked with this too)."""
        for name, value, low, high in (
            ("--deals", self.deals, 1, LARGEST_DEALS), ("--seed", self.seed, 0, LARGEST_SEED),
            ("--shard-size", self.shard_size, 1, LARGEST_SHARD),
            ("--session-length", self.session_length, 0, min(LARGEST_SESSION, max(self.shard_size, 0))),
        ):
            if type(value) is not int or not low <= value <= high:
                raise RunError(f"{name} must be a whole number from {low:,} to {high:,}, not {value!r}")
        if -(-self.deals // self.shard_size) > MAX_SHARDS:
            raise RunError(f"{self.deals:,} deals in shards of {self.shard_size:,} make more than {MAX_SHARDS:,} shards; give a larger --shard-size")
        if self.session_length and self.shard_size % self.session_length:
            raise RunError("--shard-size must be a multiple of --session-length, so that no session spans two shards")

    def metadata(self, ruleset_source: str) -> dict:
        return {**asdict(self), "players": list(self.players), "ruleset_source": ruleset_source}


def shards(config: RunConfig) -> list[tuple[int, int, int]]:
    """(shard index, first deal, deals) of every shard."""
    return [
        (index, first, min(config.shard_size, config.deals - first))
        for index, first in enumerate(range(0, config.deals, config.shard_size))
    ]


def shard_path(directory: Path, index: int) -> Path:
    return directory / RECORDS / f"shard-{index:06d}.parquet"


LARGEST_RUN_FILE = 4 * LARGEST_TOML_FILE + (1 << 20)  # bytes: the ruleset's text, escaped, and the rest


LARGEST_SEATS = MOST_SEATS  # players in run.json: the most any family seats (the ruleset's own count is checked after)


LONGEST_RULESET_TEXT = 4096  # characters of run.json's ruleset, an id or a path (the longest path Linux takes)


def read_run_file(directory: Path) -> dict:
    """run.json, every field checked (types and the limits of the options); a RunError naming the field."""
    run_file = directory / RUN_FILE
    if not run_file.exists() and not run_file.is_symlink():
        raise RunError(f"{directory} holds no run ({RUN_FILE} is missing); it is left as it is")
    stored = read_json(run_file, RunError, "", LARGEST_RUN_FILE)
    problem = run_file_problem(stored)
    if problem is not None:
        raise RunError(f"{run_file} is damaged ({problem}); it is left as it is")
    return stored


def run_file_problem(stored) -> str | None:
    """What in a parsed run.json is not as a run writes it, or None."""
    if not isinstance(stored, dict):
        return "not a JSON object"
    for field in (*RunConfig.__dataclass_fields__, "ruleset_source"):
        if field not in stored:
            return f"{field} is missing"
    if not isinstance(stored["ruleset"], str) or not stored["ruleset"] or len(stored["ruleset"]) > LONGEST_RULESET_TEXT:
        return f"ruleset = {json_excerpt(stored['ruleset'])} is not a ruleset id or file"
    players = stored["players"]
    if (not isinstance(players, list) or not 1 <= len(players) <= LARGEST_SEATS
            or not all(isinstance(player, str) and player for player in players)):
        return f"players = {json_excerpt(players)} is not a list of 1 to {LARGEST_SEATS} player texts"
    if not isinstance(stored["ruleset_source"], str) or len(stored["ruleset_source"]) > LARGEST_TOML_FILE:
        return f"ruleset_source is not the text of a ruleset file of at most {LARGEST_TOML_FILE:,} characters"
    if "source_hash" in stored and (not isinstance(stored["source_hash"], str) or len(stored["source_hash"]) > 64):
        return f"source_hash = {json_excerpt(stored['source_hash'])} is not a source hash"
    shard_size = stored["shard_size"]
    for name, low, high in (("deals", 1, LARGEST_DEALS), ("seed", 0, LARGEST_SEED), ("shard_size", 1, LARGEST_SHARD),
                            ("session_length", 0, min(LARGEST_SESSION, shard_size if type(shard_size) is int else 0))):
        problem = whole_number_problem(name, stored[name], low, high)
        if problem is not None:
            return problem
    try:
        RunConfig(**{field: stored[field] for field in RunConfig.__dataclass_fields__}).check()
    except RunError as error:
        return str(error)
    return None


ANALYSIS_COPIES = 4  # a run's records are held about four times over while its tables are made (measured)


def _records_memory(path: Path, deals: int, wanted=None) -> int:
    """Bytes of reading `deals` records shaped as the shard at `path` (only the columns `wanted` accepts)."""
    row = 0
    for field in pq.read_schema(path):
        if field.name.startswith(win_chances.COLUMN_PREFIX) or (wanted is not None and not wanted(field.name)):
            continue
        try:
            row += max(field.type.bit_width // 8, 1)
        except ValueError:  # not of fixed width
            row += 16
    return deals * row * ANALYSIS_COPIES


def load_run(directory: Path) -> tuple[RunConfig, object]:
    """The configuration and ruleset of the run in `directory` (for `mjsim analyze`), run.json checked."""
    stored = read_run_file(directory)
    config = RunConfig(**{field: stored[field] for field in RunConfig.__dataclass_fields__})
    config = replace(config, players=tuple(config.players))
    try:
        ruleset = load_ruleset(config.ruleset)
    except RulesetError:
        if not Path(config.ruleset).suffix == ".toml" or Path(config.ruleset).exists():
            raise
        # A ruleset file given by a path that does not reach it from here (a relative path, a moved file):
        # the run keeps the file's text, which is what it was played with.
        try:
            ruleset = parse_ruleset_text(stored["ruleset_source"], f"{config.ruleset} (as kept in {directory / RUN_FILE})")
        except RulesetError as error:
            raise RunError(f"{directory / RUN_FILE} is damaged (its ruleset text: {error})") from None
    if ruleset.source != stored["ruleset_source"]:
        raise RunError(f"the ruleset {config.ruleset} has changed since the run in {directory} was played")
    if len(config.players) not in ruleset.players:
        raise RunError(f"{directory / RUN_FILE} is damaged (players: {len(config.players)} players, but {ruleset.id} "
                       f"is played by {' or '.join(str(count) for count in ruleset.players)}); it is left as it is")
    return config, ruleset


def _checked_shards(directory: Path, config: RunConfig, ruleset) -> list[Path]:
    """The paths of every shard of a finished run, each checked first (sim.core.run_directory), and the event log
    of every shard whose manifest entry lists one (no reader of the run ever meets an unsound log)."""
    wanted = config.metadata(ruleset.source)
    entries = run_directory.read_manifest(directory)
    paths = []
    for shard in shards(config):
        path = shard_path(directory, shard[0])
        problem = run_directory.shard_problem(path, *shard, wanted, entries)
        if problem == "missing":
            raise RunError(f"{directory} is missing {path.name}; finish the run with --resume")
        if problem is not None:
            raise RunError(f"{path}: {problem}; mjsim run --resume --out {directory} sets it aside and plays it again")
        if entries is not None and run_directory.LOG_KEY in entries[path.name]:
            _check_log(directory, shard, wanted, entries)
        paths.append(path)
    return paths


def _check_log(directory: Path, shard: tuple[int, int, int], wanted: dict, entries: dict | None) -> Path:
    """The path of the shard's event log, checked; a RunError naming it and the repair otherwise."""
    path = event_logs.log_path(directory, shard[0])
    problem = run_directory.log_problem(path, *shard, wanted, entries)
    if problem == "missing":
        raise RunError(f"{directory} is missing the event log {path.relative_to(directory)}; "
                       f"mjsim run --resume --logs --out {directory} plays its shard again with its log")
    if problem is not None:
        raise RunError(f"{path}: {problem}; mjsim run --resume --logs --out {directory} sets it aside and plays its "
                       "shard again with its log")
    return path


def checked_logs(directory: Path, deals=None) -> list[tuple[Path, int, int]]:
    """(path, first deal, deals) of the event log of every shard of the run in `directory` holding one of
    `deals` (all by default), each checked as a shard is (sim.core.run_directory.log_problem); FileNotFoundError
    when the run has no logs at all, a RunError naming the first log missing or unsound."""
    config, ruleset = load_run(directory)
    entries = run_directory.read_manifest(directory)
    wanted = config.metadata(ruleset.source)
    folder = directory / event_logs.LOGS
    logged = (entries is not None and run_directory.has_logs(entries)) or (folder.is_dir() and any(folder.glob("shard-*")))
    if not logged:
        raise FileNotFoundError(f"{directory} has no event logs (run it with --logs)")
    needed = shards(config)
    if deals is not None:
        indices = {int(deal) // config.shard_size for deal in deals if 0 <= int(deal) < config.deals}
        needed = [shard for shard in needed if shard[0] in indices]
    return [(_check_log(directory, shard, wanted, entries), shard[1], shard[2]) for shard in needed]


def _read_shard(path: Path, directory: Path, chances: bool, wanted=None) -> pa.Table:
    """One shard: its records (`chances` False; only the columns `wanted(name)` accepts, if given) or its
    deal numbers and reported chances of winning."""
    try:
        names = pq.read_schema(path).names
        reports = [name for name in names if name.startswith(win_chances.COLUMN_PREFIX)]
        columns = ["deal", *reports] if chances else [name for name in names if name not in reports and (wanted is None or wanted(name))]
        return pq.read_table(path, columns=columns, page_checksum_verification=True)
    except (OSError, ValueError, pa.ArrowException) as error:  # a page that fails its checksum, or damage it missed
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise RunError(f"{path}: unreadable ({reason}); mjsim run --resume --out {directory} plays it again") from None


def read_records(directory: Path, config: RunConfig, ruleset=None, wanted=None) -> pd.DataFrame:
    """Every deal of a finished run, in deal order, each shard checked first (sim.core.run_directory); without
    the reported chances of winning (``read_win_chances``). `wanted`: a test of a column's name, to read
    only the columns it accepts (all by default)."""
    ruleset = ruleset or load_ruleset(config.ruleset)
    paths = _checked_shards(directory, config, ruleset)
    check_memory(_records_memory(paths[0], config.deals, wanted), f"reading the {config.deals:,} deals of {directory}",
                 "read it on a machine with more memory", RunError)
    frames = [_read_shard(path, directory, False, wanted).to_pandas() for path in paths]
    return pd.concat(frames, ignore_index=True)


def read_win_chances(directory: Path, config: RunConfig, ruleset=None) -> pd.DataFrame:
    """The chances of winning the run's players reported with their discards (sim.core.win_chances), one row
    each: deal, seat, and chance; empty when no seat reported any."""
    ruleset = ruleset or load_ruleset(config.ruleset)
    frames = []
    for path in _checked_shards(directory, config, ruleset):
        table = _read_shard(path, directory, True)
        deals = table.column("deal").to_numpy()
        for name in table.column_names[1:]:
            lists = table.column(name).combine_chunks()
            frames.append(pd.DataFrame({
                "deal": deals[pc.list_parent_indices(lists).to_numpy()],
                "seat": np.int8(int(name[len(win_chances.COLUMN_PREFIX):])),
                "chance": pc.list_flatten(lists).to_numpy(zero_copy_only=False),
            }))
    if not frames:
        return pd.DataFrame({"deal": np.zeros(0, np.int64), "seat": np.zeros(0, np.int8), "chance": np.zeros(0, np.float32)})
    return pd.concat(frames, ignore_index=True)


def read_logs(directory: Path, deals=None) -> pd.DataFrame:
    """Every logged event of the run in `directory` (or of the given deals), in deal and step order. Each log
    is checked first, as the run's shards are: its bytes against the run's manifest, its own metadata (the
    run's configuration, its shard, its first deal); a missing or unsound log is one RunError naming it and
    saying that ``mjsim run --resume --logs`` repairs it, so no deal is read twice or from another run."""
    filters = [("deal", "in", sorted(int(deal) for deal in deals))] if deals is not None else None
    frames = []
    for path, first, count in checked_logs(directory, deals):
        frame = pq.read_table(path, filters=filters).to_pandas()
        if len(frame) and not (first <= frame["deal"].min() and frame["deal"].max() < first + count):
            raise RunError(f"{path}: it holds deals outside its shard's ({first:,} to {first + count - 1:,}); "
                           f"mjsim run --resume --logs --out {directory} sets it aside and plays its shard again")
        frames.append(frame)
    if not frames:  # none of the deals asked for is in the run
        return pa.schema([pa.field(name, kind) for name, (kind, _) in event_logs.COLUMNS.items()]).empty_table().to_pandas()
    return pd.concat(frames, ignore_index=True).sort_values(["deal", "step"], kind="stable", ignore_index=True)

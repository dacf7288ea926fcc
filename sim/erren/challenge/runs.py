"""`mjsim challenge`: many runs of 004's 闯关 campaign (sim.erren.challenge.campaign) with every assist of the levels
file, and, to measure each assist, the same runs with that one assist switched off at every level; the runs
and their tables written to one directory.

Runs are played in shards of SHARD_RUNS on worker processes (spawned; the parent compiles first). A run is
a pure function of (seed, run), so the tables do not depend on the number of workers. Every file carries
the configuration (the levels file's and the ruleset's text included), the seed and the versions.
"""

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

from sim.core.result_files import read_metadata, write_table, write_text_atomically
from sim.core.ruleset import load_ruleset
from sim.core.run_directory import RunError
from sim.core.worker_processes import WorkerDied, run_calls
from sim.erren.challenge import campaign
from sim.erren.challenge.levels import ASSISTS, Levels, load_levels
from sim.erren.challenge.tables import assist_effects, format_tables, level_table
from sim.erren.engine import Players
from sim.players.player_text import split_players

SHARD_RUNS = 100
ALL = "all"  # the variant with every assist of the levels file


class ChallengeError(RunError):
    """A campaign that cannot be played as asked."""


@dataclass(frozen=True)
class ChallengeConfig:
    ruleset: str  # id or path, as given
    levels: str  # the levels file's path
    players: tuple[str, str]  # the player's and the computer's canonical texts
    runs: int
    seed: int
    effects: bool = True  # also play the campaign without each assist

    def metadata(self, ruleset_source: str, levels_source: str) -> dict:
        return {"command": "challenge", **asdict(self), "players": list(self.players),
                "ruleset_source": ruleset_source, "levels_source": levels_source}


@dataclass
class ChallengeResult:
    runs: pd.DataFrame  # one row per (variant, run, level)
    levels: pd.DataFrame  # sim.erren.challenge.tables.level_table
    effects: pd.DataFrame  # sim.erren.challenge.tables.assist_effects
    seconds: float
    deals: int

    def text(self) -> str:
        names = {assist: name for assist, (name, _) in ASSISTS.items()}
        return format_tables(self.levels, self.effects, names)


def parse_players(texts) -> Players:
    """The player and the computer: two built-in players (`greedy,greedy` by default)."""
    texts = split_players(texts) if isinstance(texts, str) else list(texts)
    if len(texts) != 2:
        raise ChallengeError(f"--players needs two players, the player and the computer, not {len(texts)}")
    players = Players.parse(texts)
    if players.has_users:
        players.close()
        raise ChallengeError("a campaign seats built-in players only (random, greedy, value, defensive, with "
                             "parameters); play a user's player in deals with `mjsim run --ruleset erren-challenge`")
    return players


def check_ruleset(ruleset) -> None:
    if ruleset.family != "erren" or ruleset.scoring != "challenge":
        raise ChallengeError(f"{ruleset.id} does not score points: a campaign needs a scoring = 'challenge' ruleset "
                             "(erren-challenge)")
    if ruleset.flowers or not 0 < ruleset.tiles_in_play < 136:
        raise ChallengeError(f"{ruleset.id} has no out-of-play tiles, which the assists need")


def variants(levels: Levels, effects: bool) -> list[str]:
    """"all", then each assist the levels use (switched off at every level) when `effects`."""
    return [ALL, *(assist for assist in ASSISTS if effects and levels.uses(assist))]


BYTES_PER_RUN_LEVEL = (len(campaign.RUN_FIELDS) + 6) * 8 * 2  # a row of the runs table, built and then joined


def campaign_memory(runs: int, levels: int, variants: int) -> int:
    """Bytes the runs table of a campaign needs: one row per variant, run and level, held until written."""
    return runs * levels * variants * BYTES_PER_RUN_LEVEL


def _variant_levels(levels: Levels, variant: str) -> Levels:
    return levels if variant == ALL else levels.without(variant)


def _play_shard(ruleset, levels: Levels, player_texts, seed: int, variant: str, first: int, count: int, validate: bool):
    """One shard of one variant's runs; runs in a worker."""
    players = parse_players(player_texts)
    return campaign.play_runs(ruleset, _variant_levels(levels, variant), players, seed, first, count, validate)


def _frame(variant: str, first: int, out, levels: Levels) -> pd.DataFrame:
    n_runs, n_levels, _ = out.shape
    frame = pd.DataFrame(out.reshape(n_runs * n_levels, -1), columns=list(campaign.RUN_FIELDS))
    frame.insert(0, "variant", variant)
    frame.insert(1, "run", (first + pd.RangeIndex(n_runs)).repeat(n_levels))
    frame.insert(2, "level", list(range(1, n_levels + 1)) * n_runs)
    frame.insert(3, "name", [level.name for level in levels.levels] * n_runs)
    frame["outcome_name"] = frame["outcome"].map(dict(enumerate(campaign.OUTCOMES)))
    return frame


def play(config: ChallengeConfig, workers: int = 0, progress=None, validate: bool = False) -> ChallengeResult:
    """Play every variant's runs (`workers` processes, 0: all cores) and build the tables."""
    ruleset = load_ruleset(config.ruleset)
    check_ruleset(ruleset)
    levels = load_levels(config.levels)
    players = parse_players(list(config.players))
    shown = variants(levels, config.effects)
    tasks = [(variant, first, min(SHARD_RUNS, config.runs - first)) for variant in shown
             for first in range(0, config.runs, SHARD_RUNS)]
    campaign.play_runs(ruleset, levels, players, config.seed, 0, 0, validate)  # compile (or load) before workers start
    workers = min(workers or os.cpu_count() or 1, len(tasks))
    start = time.perf_counter()
    frames = {}

    def finished(task, out):
        frames[task] = _frame(task[0], task[1], out, levels)
        if progress is not None:
            progress(task[2])

    arguments = (ruleset, levels, list(config.players), config.seed)
    if workers == 1:
        for task in tasks:
            finished(task, _play_shard(*arguments, *task, validate))
    else:
        try:
            run_calls(_play_shard, [(*arguments, *task, validate) for task in tasks], workers,
                      lambda call, out: finished(call[4:7], out))
        except WorkerDied as died:
            raise ChallengeError(f"a worker process {died.ended()}") from None
    seconds = time.perf_counter() - start
    runs = pd.concat([frames[task] for task in tasks], ignore_index=True)
    return ChallengeResult(runs, level_table(runs), assist_effects(runs), seconds, int(runs["deals"].sum()))


def default_directory(config: ChallengeConfig) -> Path:
    names = "-v-".join(text.split(":")[0] for text in config.players)
    return Path("results") / f"challenge-{Path(config.ruleset).stem}-{names}-seed{config.seed}-runs{config.runs}"


OUTPUTS = ("runs.parquet", "levels.parquet", "assists.parquet", "challenge.txt")


def check_directory(directory: Path, config: ChallengeConfig) -> None:
    """Refuse a directory that holds anything but this very campaign's files (which a new run rewrites with
    the same contents): results of another campaign or of anything else are never overwritten."""
    if not directory.exists():
        return
    if not directory.is_dir():
        raise ChallengeError(f"{directory} exists and is not a directory")
    entries = {path.name for path in directory.iterdir()}
    if not entries:
        return
    if not entries <= set(OUTPUTS) or "levels.parquet" not in entries:
        raise ChallengeError(f"{directory} holds other files; give an empty or new --out")
    try:
        written = read_metadata(directory / "levels.parquet").get("config", {})
    except (OSError, ValueError) as error:
        raise ChallengeError(f"{directory}/levels.parquet cannot be read ({error}); give an empty or new --out") from None
    ruleset, levels = load_ruleset(config.ruleset), load_levels(config.levels)
    if written != json.loads(json.dumps(config.metadata(ruleset.source, levels.source))):
        raise ChallengeError(f"{directory} holds another campaign (other options, levels or ruleset); give an empty "
                             "or new --out")


def write(result: ChallengeResult, directory: Path, config: ChallengeConfig) -> list[Path]:
    """runs.parquet, levels.parquet, assists.parquet and the printed report (challenge.txt) in `directory`."""
    ruleset, levels = load_ruleset(config.ruleset), load_levels(config.levels)
    metadata = config.metadata(ruleset.source, levels.source)
    directory.mkdir(parents=True, exist_ok=True)
    paths = [
        write_table(result.runs, directory / "runs.parquet", metadata),
        write_table(result.levels, directory / "levels.parquet", metadata),
        write_table(result.effects, directory / "assists.parquet", metadata),
    ]
    paths.append(write_text_atomically(directory / "challenge.txt", result.text()))
    return paths

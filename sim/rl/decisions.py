"""Reading a decision dataset: the decisions ``mjsim run --decisions SEATS`` kept, one row per decision with a
choice, as arrays ready for learning (docs/learning.md#decision-datasets).

``read_decisions(run_directory)`` checks every shard's decision file before it reads any (its bytes against
the run's manifest, its own metadata: the run's configuration, its shard and first deal, as the records are
checked, ``sim.core.run_directory``) and returns a ``DecisionDataset``. A run without decisions, or with a
missing or damaged file, is one ``RunError`` naming the file and the repair.
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.core import decision_logs, run_directory
from sim.core.run_directory import RunError
from sim.core.run_records import load_run, shards
from sim.core.size_limits import check_memory


@dataclass(frozen=True)
class DecisionDataset:
    """n decisions, in deal order (within a deal, in the order they were made)."""

    observations: np.ndarray  # int16 (n, size): the deciding seat's encoding (the family's sim.<family>.encoding)
    masks: np.ndarray  # bool (n, N_ACTIONS): the legal actions
    actions: np.ndarray  # int16 (n,): the action code taken
    win_chances: np.ndarray  # float32 (n,): the chance of winning reported with it, NaN when none
    money: np.ndarray  # float64 (n,): the deal's final money for the seat, at stake 1 and no fee
    deals: np.ndarray  # int64 (n,)
    seats: np.ndarray  # int8 (n,)
    decisions: np.ndarray  # int8 (n,): the decision's kind (sim.core.actions.DECISION_NAMES)
    ruleset: str  # the ruleset's id
    players: tuple[str, ...]  # the run's players, one per seat

    def __len__(self) -> int:
        return self.actions.shape[0]


def decision_files(directory: Path) -> list[Path]:
    """The decision file of every shard of the run in `directory`, each checked; RunError otherwise."""
    directory = Path(directory)
    config, ruleset = load_run(directory)
    entries = run_directory.read_manifest(directory)
    if entries is None or run_directory.decision_seats(entries) is None:
        raise RunError(f"{directory} holds no decisions (run it with --decisions SEATS)")
    wanted = config.metadata(ruleset.source)
    paths = []
    for shard in shards(config):
        path = decision_logs.decisions_path(directory, shard[0])
        problem = run_directory.log_problem(path, *shard, wanted, entries, run_directory.DECISIONS_KEY)
        if problem == "missing":
            raise RunError(f"{directory} is missing the decisions {path.relative_to(directory)}; "
                           f"mjsim run --resume --out {directory} plays its shard again with them")
        if problem is not None:
            raise RunError(f"{path}: {problem}; mjsim run --resume --out {directory} sets it aside and plays its "
                           "shard again with its decisions")
        paths.append(path)
    return paths


def read_decisions(directory) -> DecisionDataset:
    """Every decision kept in the run at `directory`, each file checked first (``decision_files``)."""
    directory = Path(directory)
    paths = decision_files(directory)
    config, ruleset = load_run(directory)
    rows = sum(pq.ParquetFile(path).metadata.num_rows for path in paths)
    width = pq.read_schema(paths[0]).field("observation").type.list_size if paths else 0
    check_memory(rows * (2 * width + decision_logs.MASK_BYTES * 9 + 32), f"reading the {rows:,} decisions of {directory}",
                 "read it on a machine with more memory", RunError)
    tables = []
    for path in paths:
        try:
            tables.append(pq.read_table(path, page_checksum_verification=True))
        except (OSError, ValueError, pa.ArrowException) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise RunError(f"{path}: unreadable ({reason}); mjsim run --resume --out {directory} plays its shard again") from None
    table = pa.concat_tables(tables).combine_chunks()
    n = table.num_rows
    observations = table.column("observation").combine_chunks().flatten().to_numpy().reshape(n, width)
    packed = np.frombuffer(table.column("mask").combine_chunks().buffers()[1], np.uint8,
                           count=n * decision_logs.MASK_BYTES).reshape(n, decision_logs.MASK_BYTES)
    return DecisionDataset(
        observations=observations.astype(np.int16, copy=False),
        masks=decision_logs.unpack_masks(packed),
        actions=table.column("action").to_numpy(),
        win_chances=table.column("win_chance").to_numpy(zero_copy_only=False),
        money=table.column("money").to_numpy(),
        deals=table.column("deal").to_numpy(),
        seats=table.column("seat").to_numpy(),
        decisions=table.column("decision").to_numpy(),
        ruleset=ruleset.id,
        players=tuple(config.players),
    )

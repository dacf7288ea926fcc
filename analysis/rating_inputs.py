"""Saved duels and leagues as the pairings of a rating list (``analysis.ratings``): a `mjsim duel --out` table
(one row per wall, its `difference`) and a `mjsim league --out` table (one row per ordered pair, each holding
its walls' differences as the list `difference_by_wall`), read and checked to come from one table: the same
ruleset, seats and room. Where a file holds luck-adjusted differences (`adjusted_difference`,
`adjusted_difference_by_wall`: ``sim.core.control_variates``), they are rated instead of the plain ones; both
have the same mean, the adjusted a smaller variance.

Players are named by their canonical texts (``Family.player_name``, kept in each file's configuration), so
that `greedy` of one file is `greedy` of another; walls are grouped by their seed, the walls of one seed
being the same walls in every file of one ruleset.
"""

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.ratings import Pairing, Ratings, players_of, rate
from sim.core.result_files import read_metadata, require_regular_file
from sim.core.ruleset import RulesetError, parse_ruleset_text
from sim.families import default_texts, family_of
from sim.players.player_text import players_label

LEAGUE_WALLS_COLUMN = "difference_by_wall"
LEAGUE_ADJUSTED_COLUMN = "adjusted_difference_by_wall"
DUEL_COLUMN = "difference"
DUEL_ADJUSTED_COLUMN = "adjusted_difference"
DEFAULT_ANCHOR = "greedy"  # the project's baseline player: lists anchored on it share their zero


class RatingInputError(ValueError):
    """A file that gives no pairings to rate, or files that were not played at one table."""


@dataclass(frozen=True)
class Table:
    """The table a file's pairings were played at: its ratings compare with another's only at the same one."""
    ruleset: str  # as the command was given it
    ruleset_source: str  # the ruleset file's text, kept in the file
    seats: int
    room: str
    stake: float
    fee: float

    def same_as(self, other: "Table") -> bool:
        return (self.ruleset_source, self.seats, self.room, self.stake, self.fee) == (
            other.ruleset_source, other.seats, other.room, other.stake, other.fee)

    def describe(self) -> str:
        return f"ruleset {self.ruleset} at {self.seats} seats, room {self.room} (stake {self.stake}, fee {self.fee})"

    def ruleset_object(self):
        return parse_ruleset_text(self.ruleset_source, self.ruleset)


@dataclass
class RatedFile:
    path: Path
    command: str
    table: Table
    pairings: list[Pairing]
    adjusted: int  # pairings whose luck-adjusted differences are rated


def read_rated_file(path: Path) -> RatedFile:
    """The pairings of a saved duel or league, and the table they were played at."""
    path = Path(path)
    try:
        require_regular_file(path)
    except OSError as error:  # missing, or a directory or a pipe where a table should be
        raise RatingInputError(str(error)) from None
    try:
        metadata = read_metadata(path)
    except Exception:  # noqa: BLE001  (not Parquet or damaged: pyarrow has several exception types)
        raise RatingInputError(f"{path} is not a table written by mjsim duel --out or mjsim league --out") from None
    config = metadata.get("config")
    command = config.get("command") if isinstance(config, dict) else None
    if command not in ("duel", "league"):
        if isinstance(command, str):
            raise RatingInputError(f"{path} was written by mjsim {command[:40]}, not by mjsim duel --out or mjsim league --out")
        raise RatingInputError(f"{path} is not a table written by mjsim duel --out or mjsim league --out")
    table = table_of(config, str(path))
    try:
        frame = pd.read_parquet(path)
    except Exception as error:  # noqa: BLE001
        raise RatingInputError(f"{path}: unreadable ({str(error).splitlines()[0] if str(error) else type(error).__name__})") from None
    reader = duel_pairings if command == "duel" else league_pairings
    pairings, adjusted = reader(frame, config, str(path))
    return RatedFile(path, command, table, pairings, adjusted)


def table_of(config: dict, where: str) -> Table:
    """The table a duel's or league's configuration names (RatingInputError where it lacks what a rating list
    needs: a league written before mjsim league kept its players' canonical texts and seats)."""
    try:
        table = Table(str(config["ruleset"]), str(config["ruleset_source"]), int(config["seats"]), str(config["room"]),
                      float(config["stake"]), float(config["fee"]))
        complete = isinstance(config["player_names"], list) and isinstance(config["seed"], int)
    except (KeyError, TypeError, ValueError):
        complete = False
    if not complete:
        what = ("a league written before mjsim league kept each wall's differences; play it again"
                if config.get("command") == "league" else "its configuration is incomplete")
        raise RatingInputError(f"{where} cannot be rated: {what}")
    return table


def duel_pairings(frame: pd.DataFrame, config: dict, where: str) -> tuple[list[Pairing], int]:
    """The pairing of a `mjsim duel --out` table, and 1 if its differences are luck-adjusted (else 0)."""
    names = [str(name) for name in config["player_names"]]
    if "wall" not in frame.columns or DUEL_COLUMN not in frame.columns or len(names) != 2:
        raise RatingInputError(f"{where} says it is a duel table but lacks its columns wall and {DUEL_COLUMN}")
    column = DUEL_ADJUSTED_COLUMN if DUEL_ADJUSTED_COLUMN in frame.columns else DUEL_COLUMN
    try:
        differences = frame[column].to_numpy(dtype=np.float64)
        walls = frame["wall"].to_numpy(dtype=np.int64)
    except (TypeError, ValueError):
        differences, walls = np.empty(0), np.empty(0, dtype=np.int64)
    if len(walls) == 0 or not np.isfinite(differences).all() or len(np.unique(walls)) != len(walls):
        raise RatingInputError(f"{where}: its walls are missing, repeated or not numbers")
    return [Pairing(names[0], names[1], differences, walls, int(config["seed"]))], int(column == DUEL_ADJUSTED_COLUMN)


def league_pairings(frame: pd.DataFrame, config: dict, where: str) -> tuple[list[Pairing], int]:
    """The pairings of a league table (``sim.runs.duel.league_table`` and its configuration), each pair once,
    and how many of them are luck-adjusted."""
    if LEAGUE_WALLS_COLUMN not in frame.columns:
        raise RatingInputError(f"{where} holds no per-wall differences (a league written before mjsim league kept "
                               "them); play it again")
    texts = [str(text) for text in config.get("players", [])]
    names = [str(name) for name in config.get("player_names", [])]
    if len(texts) != len(names) or not {"player", "opponent"} <= set(frame.columns):
        raise RatingInputError(f"{where} says it is a league table but its players do not match its configuration")
    canonical = dict(zip(texts, names))
    pairings, adjusted = [], 0
    for row in frame.to_dict("records"):
        player, opponent = str(row["player"]), str(row["opponent"])
        if player not in canonical or opponent not in canonical:
            raise RatingInputError(f"{where}: its row {player} v {opponent} names a player it was not played with")
        if texts.index(player) > texts.index(opponent):
            continue  # each pair once: its other row holds the same walls with the sign turned
        luck_adjusted = row.get(LEAGUE_ADJUSTED_COLUMN)
        chosen = row[LEAGUE_WALLS_COLUMN] if luck_adjusted is None or np.ndim(luck_adjusted) == 0 else luck_adjusted
        try:
            differences = np.asarray(chosen, dtype=np.float64)
        except (TypeError, ValueError):
            differences = np.empty(0)
        if differences.ndim != 1 or len(differences) == 0 or not np.isfinite(differences).all():
            raise RatingInputError(f"{where}: the walls of {player} v {opponent} are missing or not numbers")
        adjusted += chosen is luck_adjusted
        pairings.append(Pairing(canonical[player], canonical[opponent], differences, np.arange(len(differences)),
                                int(config["seed"])))
    return pairings, adjusted


def read_rated_files(paths: list[Path]) -> tuple[Table, list[Pairing], list[RatedFile]]:
    """Every file's pairings, checked to come from one table (the first file's)."""
    files = [read_rated_file(path) for path in paths]
    first = files[0]
    for other in files[1:]:
        if not other.table.same_as(first.table):
            raise RatingInputError(f"{other.path} was played at {other.table.describe()}, {first.path} at "
                                   f"{first.table.describe()}; a rating list compares players at one table")
    return first.table, [pairing for found in files for pairing in found.pairings], files


def player_labels(players: list[str], ruleset) -> dict[str, str]:
    """Each canonical player text's short label: its name and the parameters it sets away from the defaults
    (``players_label``); the texts themselves where the labels would not tell the players apart."""
    defaults = default_texts(ruleset) if ruleset is not None else None
    labels = players_label(players, defaults).split(" v ")
    if len(labels) != len(players) or len(set(labels)) != len(labels):
        return {player: player for player in players}
    return dict(zip(players, labels, strict=True))


def choose_anchor(players: list[str], labels: dict[str, str], ruleset, wanted: str | None) -> str:
    """The anchor's canonical text: the player `wanted` names (its text, canonical text or label), or by default
    greedy with its default parameters where it is rated, else the first player."""
    if wanted is None:
        greedy = default_texts(ruleset).get(DEFAULT_ANCHOR) if ruleset is not None else None
        return greedy if greedy in players else players[0]
    text = wanted.strip()
    if text in players:
        return text
    by_label = [player for player in players if labels.get(player) == text]
    if len(by_label) == 1:
        return by_label[0]
    if ruleset is not None:
        try:
            canonical = family_of(ruleset).player_name(text)
        except Exception:  # noqa: BLE001  (any text that is no player is simply not the anchor)
            canonical = None
        if canonical in players:
            return canonical
    raise RatingInputError(f"--anchor {text} is not one of the rated players: "
                           f"{', '.join(labels.get(player, player) for player in players)}")


def rating_list(table: Table, pairings: list[Pairing], anchor: str | None, resamples: int,
                seed: int) -> tuple[Ratings, dict[str, str]]:
    """The rating list of pairings played at `table`, its players named by their labels (``player_labels``),
    anchored on the player `anchor` names (default: ``choose_anchor``); and each label's canonical text."""
    ruleset = ruleset_of(table)
    players = players_of(pairings)
    labels = player_labels(players, ruleset)
    anchor = labels[choose_anchor(players, labels, ruleset, anchor)]
    labelled = [replace(pairing, first=labels[pairing.first], second=labels[pairing.second]) for pairing in pairings]
    return rate(labelled, anchor, resamples, seed), {label: player for player, label in labels.items()}


def ruleset_of(table: Table):
    """The table's ruleset rebuilt from the text its files kept, or None where that text no longer parses."""
    try:
        return table.ruleset_object()
    except RulesetError:
        return None

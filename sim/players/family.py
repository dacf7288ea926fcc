"""What a family of games provides, written down once: the checklist of docs/layout.md#adding-a-family.

A family is a package under ``sim/`` (``sim.erren``, ``sim.xuezhan``) holding the same modules:

- ``table``: the fixed-shape state of a deal and the legality of every decision;
- ``players``: the built-in heuristics, with ``NAMES``, ``NUMBA_PLAYERS`` (built-in numba players such as
  ``ev``, by name) and ``parse_player(text) -> (id, parameters, text)``;
- ``engine``: whole deals inside numba, with ``play(ruleset, players, seed, deals, first=0,
  session_length=0, validate=False) -> Records``, ``replay(...)`` for one deal's event log, and a
  ``Players`` class whose ``parse(texts, seats)`` seats one player per seat;
- ``replay_report``: ``format_deal(log, ruleset, players, seed)``, what `mjsim replay` prints;
- ``event_log``: ``EVENT_NAMES`` and ``log_table(batch_log, record_columns)``, a batch's events as rows of
  the event-log schema (``sim.core.event_logs``), and ``TURN_EVENTS``, the events after which the engine's
  turn counter has moved on, by which ``sim.runs.log_replay`` finds a decision in a log;
- ``scoring``: what `mjsim score` needs beyond the shared checks of ``sim.core.win_context``: ``check(hand,
  win, context, ruleset)`` and ``score_rows(rows, ruleset)``;
- ``money``: the family's money from per-deal records: ``seat_changes``, ``seat_wins``, ``units_moved``,
  ``win_rows``, ``run_tables`` and ``outcome_summary``;
- ``observation``: what a seat observes at a decision: ``Observation`` (Python and ``exec:`` players) and
  ``NumbaObservation`` (numba players);
- ``environment``: the step environment, ``Environment`` and ``BatchEnvironment``;
- ``ev``: the expected-value player, its ``act`` and ``calibration_table(ruleset, seats)``, the fitted table
  of ``sim.players.ev_calibration`` that calibrates its chances;
- ``numba_helpers``: the family's helpers for numba players;
- ``switches``: ``SCHEMA``, what the family's ruleset files hold beyond the fans (``sim.core.ruleset.FamilySchema``:
  its switches, extra tables and how they become the Ruleset's settings), which the loader finds by the name;
- ``win_value``: what a win is worth under the ruleset's own evaluator;
- ``rooms.toml``: the default rooms (stake, fee, entry range) that price the money; a family whose
  rulesets may price wins in points (erren-challenge) also has ``points_rooms.toml``, priced per point.

The package's ``__init__`` builds one ``Family`` from those modules and names its rulesets (files of
``sim/rulesets/`` whose ``family`` key is the family's name), and ``sim.families`` lists the packages.
Adding a family is adding a package and one line to that list.
"""

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import pandas as pd

from sim.core.run_records import fan_column
from sim.players.player_text import PlayerError, split_players
from sim.players.user_players import builtin_numba_seat, family_seat, is_user_player


@dataclass(frozen=True)
class Family:
    name: str  # the ruleset files' `family` value
    title: str  # what the family is called in messages: 二人, 血战
    rulesets: tuple[str, ...]  # the ids of its shipped rulesets (sim/rulesets/<id>.toml), in the order tables list them
    engine: ModuleType
    players: ModuleType
    report: ModuleType  # the replay report
    scoring: ModuleType  # mjsim score's family checks and batch scorer
    money: ModuleType
    event_log: ModuleType  # events as data (sim.core.event_logs)
    observation: ModuleType
    environment: ModuleType  # the step environment
    ev: ModuleType  # the expected-value player
    numba_helpers: ModuleType
    switches: ModuleType  # the schema of its ruleset files
    rooms_file: Path
    currency: str  # what the rooms pay in
    points_rooms_file: Path | None = None  # the rooms of a ruleset that prices wins in points ([points])
    named_rooms: dict = field(default_factory=dict)  # other shipped rooms files, by the name --rooms takes
    # a ruleset's `scoring` switch -> the module that scores it, where not ``scoring`` (004's game in 二人)
    scoring_by_evaluator: dict = field(default_factory=dict)

    def scoring_for(self, ruleset) -> ModuleType:
        """The module that checks and scores a hand under `ruleset`: the one its evaluator names, else the family's."""
        return self.scoring_by_evaluator.get(ruleset.scoring, self.scoring)

    def rooms_file_for(self, ruleset) -> Path:
        """The default rooms of `ruleset`: per point where it prices wins in points, else the family's."""
        if ruleset.points is not None and self.points_rooms_file is not None:
            return self.points_rooms_file
        return self.rooms_file

    def rooms_path(self, rooms: Path | None, ruleset) -> Path:
        """The rooms file a user named: a path, a shipped file's name (``named_rooms``), or None for the default."""
        if rooms is None:
            return self.rooms_file_for(ruleset)
        if not rooms.exists() and str(rooms) in self.named_rooms:
            return self.named_rooms[str(rooms)]
        return rooms

    def currency_for(self, ruleset) -> str:
        return "points" if ruleset.points is not None else self.currency

    def parse_players(self, texts, seats: int):
        """One player per seat, from a list of texts or one string `A,B[,C...]`: built-in heuristics and
        user players (``sim.players.user_players``)."""
        listed = split_players(texts) if isinstance(texts, str) else list(texts)
        if not hasattr(self.engine, "USER") and any(is_user_player(text, self.players.NAMES) for text in listed):
            raise PlayerError(f"user players cannot sit at a {self.name} table yet; only built-in heuristics can")
        return self.engine.Players.parse(listed, seats=seats)

    def player_name(self, text: str) -> str:
        """A player's canonical text: a heuristic's or a built-in numba player's with all its parameters, a
        user player's as written."""
        builtin = builtin_numba_seat(text, getattr(self.players, "NUMBA_PLAYERS", {}))
        if builtin is not None:
            return builtin.text
        if family_seat(text, self.players) is not None:
            family_seat(text, self.players).check(text)
            return text.strip()
        if is_user_player(text, self.players.NAMES):
            return text.strip()
        return self.players.parse_player(text)[2]

    def outcome_summary(self, records: pd.DataFrame) -> pd.DataFrame:
        return self.money.outcome_summary(records)

    def records_frame(self, records, ruleset) -> pd.DataFrame:
        """An engine batch as a DataFrame: its columns, the fan counts of the ruleset's fans (one
        ``fan_<id>`` column, or one ``fan_<id>_<seat>`` per seat where a deal has several wins) and, for
        each seat holding a user player, the chances of winning it reported (``win_chances_<seat>``, a
        list per deal: sim.core.win_chances)."""
        frame = pd.DataFrame(records.columns)
        fans = records.fans
        for fan in ruleset.fans:
            if fans.ndim == 2:
                frame[fan_column(fan)] = fans[:, fan]
            else:
                for seat in range(fans.shape[1]):
                    frame[f"{fan_column(fan)}_{seat}"] = fans[:, seat, fan]
        for name, lists in records.win_chances.items():
            frame[name] = lists.to_pandas()  # numpy float32 arrays: Parquet list<float>, read back by any reader
        return frame

    def win_rows(self, records: pd.DataFrame, ruleset) -> pd.DataFrame:
        return self.money.win_rows(records, [fan_column(fan) for fan in ruleset.fans])

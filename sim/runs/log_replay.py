"""Replaying a run's event logs: every seat answers each decision as its logged deal says, so the engine
plays the deals again from their logs alone and must write the same events and the same records
(docs/event-logs.md#the-round-trip).

The players here are ordinary Python players (docs/write-a-player.md) that read only the logs and what
an observation shows: the decision, the seat, the turn and the tile on offer. That is the check that a log
holds every decision of its deal, in the schema's words. A decision is found in the log by its kind, its
seat and its turn (the engine's turn counter, which the family's event log says how to recount:
``TURN_EVENTS``). Each deal's answers are indexed once, when the replay reaches the deal, so a decision is
one dictionary look-up.

What a log does not show, and why the replay's answer to it is still the player's:

- a claim or a rob with a choice that the seat let go is a `pass` row; one the log
  does not answer was a pong or kong overruled by another seat's win on the same discard (一炮多响 rules:
  every win beats a claim), in 国标 also a chow overruled by another seat's pong or kong, or, in a log
  without `pass` rows, may have been passed. The engine logs no overruled claim; it differs from a pass
  only in that a pass of a pong the seat could make forbids it that kind's pong until it acts again (过手碰)
  and that a pass is logged. The replay therefore answers an unanswered claim on a discard another seat
  won or claimed with the pong, kong or chow where one is legal: if the player had passed instead, it was
  never offered that pong again before acting, so the log shows no such pong either way, and every later
  decision the engine asks is answered the same;
- decisions with one legal action are not asked, so the log's forced moves (a locked ready hand's discard,
  a declarer's win) are stepped over.

``check_round_trip`` replays a run (or its first deals) and compares the replayed events with the logged
ones and the replayed records with the run's; ``python -m sim.runs.log_replay RUN_DIR`` does it from the shell.
Any difference is one ``LogMismatch`` naming the deal, and the seat and the decision or event concerned.
"""

import argparse
import sys
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from analysis.player_faults import COLUMN_PREFIX as FAULT_PREFIX
from sim.core import event_logs, run_records
from sim.core.actions import (
    ACTION_BASE,
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DECLARE_READY,
    DISCARD,
    DISCARD_READY,
    DOUBLE,
    EXCHANGE,
    KONG,
    NO_TILE,
    PASS,
    PONG,
    VOID,
    WIN,
    action_text,
)
from sim.core.run_directory import RunError
from sim.core.run_records import load_run, read_records
from sim.families import family_of
from sim.players.user_players import PlayerFailure, PythonSeat

# What each logged event answers: the decision it belongs to, and the action code it was. A `double` (加倍)
# belongs to the decision its context shows (``_double_decision``).
ANSWERS = {
    "discard": ("turn", DISCARD), "concealed_kong": ("turn", CONCEALED_KONG), "added_kong": ("turn", ADDED_KONG),
    "win_self_drawn": ("turn", WIN), "chow": ("claim", CHOW), "pong": ("claim", PONG), "kong": ("claim", KONG),
    "win_discard": ("claim", WIN), "win_robbed_kong": ("rob", WIN), "double": (None, DOUBLE),
    "pass": (None, PASS),
}
READY_EVENTS = ("ready", "heavenly_ready", "declare_ready")  # 报听 / 天听 / 报叫: right after a discard, or at the deal
# A claim overruled by a higher answer to the same discard (a win, or in 国标 a pong or kong over a chow), in
# the order the replay tries them; a chow is tried on each run the discard fits, lowest first.
OVERRULED_CLAIMS = (PONG, KONG, CHOW)


class LogMismatch(RuntimeError):
    """The logs do not replay to their run: a decision the engine asked has no legal answer in the log, or
    the replayed events or records differ from the run's. The message names the deal and where in it."""


class _Rows(NamedTuple):
    """A run's logged events as integer columns (event: the index in the family's EVENT_NAMES; tile: the
    engine's tile id, -1 for none), in deal and step order."""

    deal: np.ndarray
    step: np.ndarray
    seat: np.ndarray
    event: np.ndarray
    tile: np.ndarray
    to_seat: np.ndarray
    money: np.ndarray


def _codes(column: pd.Series, index: dict, what: str) -> np.ndarray:
    """A dictionary column's values as indices into `index` (a name -> number map), -1 for a null."""
    categorical = column.astype("category") if column.dtype.name != "category" else column
    names = categorical.cat.categories
    unknown = [name for name in names if name not in index]
    if unknown:
        raise LogMismatch(f"the logs hold {what} {unknown[0]!r}, which this ruleset's logs do not have")
    lookup = np.array([index[name] for name in names] + [-1], np.int64)  # a null's code, -1, picks the last
    return lookup[categorical.cat.codes.to_numpy()]


def _rows_of(frame: pd.DataFrame, event_names: tuple) -> _Rows:
    events = {name: number for number, name in enumerate(event_names)}
    return _Rows(
        frame["deal"].to_numpy(np.int64), frame["step"].to_numpy(np.int64), frame["seat"].to_numpy(np.int64),
        _codes(frame["event"], events, "the event"), _codes(frame["tile"], event_logs.TILE_IDS, "the tile"),
        frame["to_seat"].to_numpy(np.int64), frame["money"].to_numpy(np.int64),
    )


def _pass_decision(row: int, names) -> str:
    """The decision a logged `pass` answered: a rob when it follows an added kong (after the other passes of
    the same round), else a claim of the discard before it."""
    before = row - 1
    while before >= 0 and names[before] == "pass":
        before -= 1
    return "rob" if before >= 0 and names[before] == "added_kong" else "claim"


def _double_decision(row: int, start: int, seats, names) -> str:
    """The decision a logged 加倍 answered: a claim right after the other seat's discard (and its ready
    declaration), a rob right after its added kong, else the seat's own turn (it declined a self-drawn win)."""
    before = row - 1
    while before >= start and (names[before] in READY_EVENTS or names[before] == "wait"):
        before -= 1
    if before >= start and seats[before] != seats[row]:
        if names[before] == "discard":
            return "claim"
        if names[before] == "added_kong":
            return "rob"
    return "turn"


class _DealAnswers:
    """One deal's logged answers, indexed by the decision they answer: (decision, seat, turn) -> the
    actions in log order; and the deal's 换三张 tiles, void suits, declarations at the deal and won discards."""

    def __init__(self, deal: int, seats: list, names: list, tiles: list, turns: list):
        self.deal = deal
        self.answers = {}
        self.exchanges = {}
        self.voids = {}
        self.opening_ready = set()
        self.taken_discards = set()  # (turn, tile) of each discard some seat won or claimed
        discarded = NO_TILE
        for row, name in enumerate(names):
            seat, tile, turn = seats[row], tiles[row], turns[row]
            if name in ANSWERS:
                decision, code = ANSWERS[name]
                if name == "chow" and row + 1 < len(names) and names[row + 1] == "chow_lowest":
                    tile = tiles[row + 1]  # the row holds the tile claimed (in older logs, the lowest tile itself)
                if decision is None:
                    decision = _pass_decision(row, names) if name == "pass" else _double_decision(row, 0, seats, names)
                if code == DISCARD and row + 1 < len(names) and names[row + 1] in READY_EVENTS and seats[row + 1] == seat:
                    code = DISCARD_READY
                self.answers.setdefault((decision, seat, turn), []).append((code, tile))
                if name == "discard":
                    discarded = tile
                elif name in ("win_discard", "chow", "pong", "kong"):
                    self.taken_discards.add((turn, discarded))
            elif name in READY_EVENTS:
                after_discard = row > 0 and names[row - 1] == "discard" and seats[row - 1] == seat
                if not after_discard:
                    self.opening_ready.add(seat)
            elif name == "exchange":
                self.exchanges.setdefault(seat, []).append(tile)
            elif name == "void_suit":
                self.voids[seat] = tile

    def answer(self, observation) -> int:
        """The logged answer to the decision the observation shows, as a legal action code."""
        seat, decision, turn = observation.seat, observation.decision, observation.turn
        legal = observation.legal_codes
        if decision in ("turn", "claim", "rob"):
            logged = self.answers.get((decision, seat, turn))
            if decision == "turn":
                return self._turn(logged, observation)
            if logged:  # a claim or rob has one answer
                code, tile = logged[0]
                offered = observation.tile
                on_offer = tile <= offered <= tile + 2 if code == CHOW else tile == offered  # a chow's answer: its lowest tile
                action = _legal(code, tile, legal) if on_offer else None
                if action is None:
                    raise self._mismatch(observation, f"the log answers {_text(code, tile)}, which is not legal here")
                return action
            if decision == "claim" and (turn, observation.tile) in self.taken_discards:
                offered = observation.tile
                for code in OVERRULED_CLAIMS:
                    for tile in (offered - 2, offered - 1, offered) if code == CHOW else (offered,):
                        action = _legal(code, tile, legal) if tile >= 0 else None
                        if action is not None:
                            return action
            return self._pass(observation)
        if decision == "opening ready":
            if seat in self.opening_ready:
                return self._legal_or_mismatch(DECLARE_READY, NO_TILE, observation)
            return self._pass(observation)
        if decision == "exchange":
            given = self.exchanges.get(seat)
            if not given:
                raise self._mismatch(observation, "the log has no tile left that it gives")
            return self._legal_or_mismatch(EXCHANGE, given.pop(0), observation)
        if decision == "void":
            if seat not in self.voids:
                raise self._mismatch(observation, "the log has no void suit of this seat")
            return self._legal_or_mismatch(VOID, self.voids[seat], observation)
        raise self._mismatch(observation, "the replay does not know this decision")

    def _turn(self, logged, observation) -> int:
        """The first logged action of the seat at this turn that is legal now; those before it were forced
        moves the engine made without asking (a kong's turn goes on at the same turn in the 二人 family)."""
        for index, (code, tile) in enumerate(logged or ()):
            action = _legal(code, tile, observation.legal_codes)
            if action is not None:
                del logged[: index + 1]
                return action
        if logged:
            code, tile = logged[0]
            raise self._mismatch(observation, f"the log answers {_text(code, tile)}, which is not legal here")
        raise self._mismatch(observation, "the log has no answer to it")

    def _pass(self, observation) -> int:
        action = _legal(PASS, NO_TILE, observation.legal_codes)
        if action is None:
            raise self._mismatch(observation, "the log has no answer to it, and passing is not legal")
        return action

    def _legal_or_mismatch(self, code: int, tile: int, observation) -> int:
        action = _legal(code, tile, observation.legal_codes)
        if action is None:
            raise self._mismatch(observation, f"the log answers {_text(code, tile)}, which is not legal here")
        return action

    def _mismatch(self, observation, problem: str) -> LogMismatch:
        offered = ", ".join(action_text(action) for action in observation.legal_codes)
        return LogMismatch(f"deal {self.deal}, seat {observation.seat}, {observation.decision} decision at turn "
                           f"{observation.turn}: {problem} (legal: {offered})")


def _legal(code: int, tile: int, legal) -> int | None:
    """The legal action of this code on this tile (or without a tile), or None."""
    for action in (code * ACTION_BASE + tile if tile >= 0 else None, code * ACTION_BASE + NO_TILE):
        if action in legal:
            return action
    return None


def _text(code: int, tile: int) -> str:
    return action_text(code * ACTION_BASE + (tile if tile >= 0 else NO_TILE))


class LoggedDeals:
    """The logs of a run's deals, each deal's answers indexed when the replay reaches it. Keeps the first
    mismatch found, since the engine reports a player's exception in its own words."""

    def __init__(self, rows: _Rows, event_names: tuple, turn_events: frozenset):
        self.rows, self.event_names = rows, event_names
        turn_codes = [number for number, name in enumerate(event_names) if name in turn_events]
        deals = rows.deal
        starts = np.flatnonzero(np.concatenate([[True], deals[1:] != deals[:-1]])) if len(deals) else np.zeros(0, np.int64)
        ends = np.append(starts[1:], len(deals))
        # the turn counter when each event happens: 1, plus the turn events of its deal before it
        moves = np.isin(rows.event, turn_codes).astype(np.int64)
        before = np.cumsum(moves) - moves
        self.turns = 1 + before - np.repeat(before[starts], ends - starts)
        self.spans = {int(deals[start]): (int(start), int(end)) for start, end in zip(starts, ends)}
        self.current = (None, None)
        self.failure = None

    def deal(self, number: int) -> _DealAnswers:
        if self.current[0] != number:
            if number not in self.spans:
                raise LogMismatch(f"deal {number} is not in the logs")
            start, end = self.spans[number]
            names = [self.event_names[code] for code in self.rows.event[start:end].tolist()]
            answers = _DealAnswers(number, self.rows.seat[start:end].tolist(), names,
                                   self.rows.tile[start:end].tolist(), self.turns[start:end].tolist())
            self.current = (number, answers)
        return self.current[1]


class LogFollower:
    """A seat that plays as the log says (a Python player: ``act(observation)``); every seat shares one
    ``LoggedDeals``."""

    def __init__(self, logged: LoggedDeals):
        self.logged = logged

    def act(self, observation):
        try:
            return self.logged.deal(observation.deal).answer(observation)
        except LogMismatch as error:
            self.logged.failure = self.logged.failure or error
            raise


class Replayed(NamedTuple):
    records: pd.DataFrame  # the records the engine wrote, replaying
    rows: _Rows  # the events it logged
    logged: _Rows  # the events of the logs it replayed


def _replay(directory: Path, deals: int | None) -> tuple[Replayed, object, object]:
    """Replay the run's first `deals` deals (all by default; with sessions, up to a session's end)."""
    config, ruleset = load_run(directory)
    family = family_of(ruleset)
    if deals is not None and (isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 1):
        raise ValueError(f"deals must be a positive whole number, not {deals!r}")
    count = config.deals if deals is None else min(int(deals), config.deals)
    if config.session_length:
        count = min(-(-count // config.session_length) * config.session_length, config.deals)
    names = family.event_log.EVENT_NAMES
    logged = _rows_of(run_records.read_logs(directory, range(count)), names)
    if len(logged.deal) == 0 or logged.deal[-1] != count - 1 or len(np.unique(logged.deal)) != count:
        missing = sorted(set(range(count)) - set(np.unique(logged.deal).tolist()))
        raise LogMismatch(f"deal {missing[0]} is not in the logs of {directory}" if missing
                          else f"the logs of {directory} hold deals the run does not have")
    followers = LoggedDeals(logged, names, family.event_log.TURN_EVENTS)
    seats = len(config.players)
    engine = family.engine
    players = engine.Players(
        np.full(seats, engine.USER, np.int64), np.zeros((seats, family.players.N_PARAMETERS)), tuple(config.players),
        tuple(PythonSeat(f"log replay, seat {seat}", LogFollower(followers)) for seat in range(seats)),
    )
    frames, tables = [], []
    try:
        for start, size in event_logs.chunks(0, count, config.session_length):
            records = engine.play(ruleset, players, config.seed, size, start, config.session_length, keep_log=True)
            frames.append(family.records_frame(records, ruleset))
            tables.append(family.event_log.log_table(records.log, records.columns).to_pandas())
    except (PlayerFailure, LogMismatch) as error:  # a seat found no answer in the log
        raise (followers.failure or LogMismatch(str(error))) from None
    replayed = _rows_of(pd.concat(tables, ignore_index=True), names)
    return Replayed(pd.concat(frames, ignore_index=True), replayed, logged), config, ruleset


def replay_logs(directory: Path, deals: int | None = None) -> pd.DataFrame:
    """The records the engine writes when every seat plays as the run's event logs say (the run's first
    `deals` deals, default all): the same records as the run's, if the logs are complete."""
    return _replay(Path(directory), deals)[0].records


def engine_columns(records: pd.DataFrame) -> list[str]:
    """The columns the engine writes of the deals' play: not the chances of winning a user player reports,
    nor where a user player faulted (the log's players report none, and never fault; a faulted seat's safe
    default is in the log as the moves it made)."""
    return [name for name in records.columns if not name.startswith(("win_chances_", FAULT_PREFIX))]


class RoundTrip(NamedTuple):
    deals: int
    events: int
    seconds: float


def check_round_trip(directory: Path, deals: int | None = None) -> RoundTrip:
    """Replay the run's logs (its first `deals` deals, default all) and check that the engine logs the same
    events and writes the same records as the run did; LogMismatch at the first difference."""
    directory = Path(directory)
    began = time.perf_counter()
    replayed, config, ruleset = _replay(directory, deals)
    names = family_of(ruleset).event_log.EVENT_NAMES
    _compare_events(replayed.logged, replayed.rows, names)
    count = len(replayed.records)
    run = read_records(directory, config, ruleset)
    run = run[run["deal"] < count].reset_index(drop=True)
    _compare_records(run, replayed.records, family_of(ruleset).engine.PLAYER_FAULT)
    return RoundTrip(count, len(replayed.rows.deal), time.perf_counter() - began)


def _event_text(rows: _Rows, row: int, names: tuple) -> str:
    tile = rows.tile[row]
    text = f"seat {rows.seat[row]} {names[rows.event[row]]}"
    text += f" {event_logs.TILE_TEXTS[tile]}" if tile >= 0 else ""
    if rows.money[row]:
        text += f" {rows.money[row]} to seat {rows.to_seat[row]}"
    elif rows.to_seat[row] >= 0:
        text += f" to seat {rows.to_seat[row]}"
    return text


def _compare_events(logged: _Rows, replayed: _Rows, names: tuple) -> None:
    """LogMismatch at the first event (in deal and step order) where the replay's log differs from the run's."""
    length = min(len(logged.deal), len(replayed.deal))
    differs = np.zeros(length, bool)
    for column in _Rows._fields:
        differs |= getattr(logged, column)[:length] != getattr(replayed, column)[:length]
    if differs.any():
        row = int(np.argmax(differs))
    elif len(logged.deal) != len(replayed.deal):
        row = length
    else:
        return
    source = logged if row < len(logged.deal) else replayed
    deal, step = source.deal[row], source.step[row]
    what = {}
    for label, rows in (("the log has", logged), ("the replay", replayed)):
        present = row < len(rows.deal) and rows.deal[row] == deal and rows.step[row] == step
        what[label] = _event_text(rows, row, names) if present else "no event"
    raise LogMismatch(f"deal {deal}, step {step}: the log has {what['the log has']}, the replay {what['the replay']}")


def _compare_records(run: pd.DataFrame, replayed: pd.DataFrame, player_fault: int) -> None:
    """LogMismatch at the first deal (and column) whose replayed record differs from the run's. A deal in
    which a user player faulted (violation `player_fault`) is compared as the fault-free deal it replays."""
    if len(run) != len(replayed):
        raise LogMismatch(f"the run has {len(run):,} records of these deals, the replay {len(replayed):,}")
    for column in engine_columns(run):
        if column not in replayed.columns:
            raise LogMismatch(f"the replay's records have no column {column}")
        ours, theirs = run[column].to_numpy(), replayed[column].to_numpy()
        if column == "violation":
            ours = np.where(ours == player_fault, 0, ours)
        differs = ours != theirs
        if differs.any():
            row = int(np.argmax(differs))
            raise LogMismatch(f"deal {run['deal'].iloc[row]}: the replay's {column} is {theirs[row]}, "
                              f"the run's {ours[row]}")


class _OneLineErrors(argparse.ArgumentParser):
    """argparse, but a usage error is one `error:` line and status 2, as every mjsim command's is (argparse's
    own prints the usage line first and the program's name before the error)."""

    def error(self, message):
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def main(argv=None) -> int:
    """`python -m sim.runs.log_replay RUN_DIR [--deals N]`: check a run's full round trip (or its first N deals)."""
    parser = _OneLineErrors(
        prog="python -m sim.runs.log_replay",
        description="Replay a run's event logs (mjsim run --logs) and check that they give back its events "
                    "and records exactly (docs/event-logs.md#the-round-trip).")
    parser.add_argument("directory", type=Path, help="the run directory")
    parser.add_argument("--deals", type=int, default=None, help="replay only the run's first DEALS deals")
    arguments = parser.parse_args(argv)
    try:
        trip = check_round_trip(arguments.directory, arguments.deals)
    except (LogMismatch, RunError, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{arguments.directory}: {trip.deals:,} deals ({trip.events:,} events) replay from their logs to the "
          f"same events and records, in {trip.seconds:.1f} s ({trip.deals / max(trip.seconds, 1e-9):,.0f} deals/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

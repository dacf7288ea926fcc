"""Replaying a run's event logs: every seat answers each decision as its logged deal says, so the engine
plays the deals again from their logs alone and must produce the same records (docs/event-logs.md).

The players here are ordinary Python players (docs/write-a-player.md) that read only the logs and what
an observation shows: the decision, the seat, the turn and the tile on offer. That is the check that a log
holds every decision of its deal, in the schema's words. A decision is found in the log by its turn (the
engine's turn counter, which the family's event log says how to recount: ``TURN_EVENTS``) and its seat.
Decisions with one legal action are not asked, so the log's forced moves (a locked ready hand's discard)
are simply stepped over.

A claim or a rob the log does not answer was passed, or was a pong or kong overruled by another seat's win
on the same discard (every win beats a claim), which the engine does not log. The two differ only in that
passing a pong the seat could make forbids it that kind's pong until it acts again (过手碰,
liangmen-xuezhan); an overruled pong does not. So where another seat won the discard, the replay answers
with the pong (or kong) if one is legal: had the player passed instead, it was never offered that pong
again before acting, so the log answers every later decision the same either way. Replaying it as a pass
locked the seat out of a pong the log then makes (deal 244 of a default liangmen-xuezhan run, seed 1).
"""

from pathlib import Path

import numpy as np
import pandas as pd

from sim import event_logs
from sim.actions import (
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
)
from sim.families import family_of
from sim.user_players import PlayerFailure, PythonSeat

# What each logged event answers, by decision: the action code it was.
TURN_ANSWERS = {"discard": DISCARD, "concealed_kong": CONCEALED_KONG, "added_kong": ADDED_KONG,
                "win_self_drawn": WIN, "double": DOUBLE}
CLAIM_ANSWERS = {"chow": CHOW, "pong": PONG, "kong": KONG, "win_discard": WIN, "double": DOUBLE}
ROB_ANSWERS = {"win_robbed_kong": WIN, "double": DOUBLE}
READY_EVENTS = ("ready", "heavenly_ready", "declare_ready")  # a declaration right after its seat's discard: 报听 / 报叫


class LogMismatch(RuntimeError):
    """The engine asked a decision the log does not answer: the log is not this run's, or is incomplete."""


class _LoggedDeal:
    """One deal's events, and where the replay stands in them."""

    def __init__(self, frame: pd.DataFrame, turn_events: frozenset):
        self.seats = frame["seat"].to_numpy(np.int64)
        self.events = frame["event"].astype(str).to_numpy()
        self.tiles = np.array([-1 if pd.isna(text) else event_logs.TILE_IDS[text] for text in frame["tile"]], np.int64)
        counts_turn = np.isin(self.events, list(turn_events))
        self.turns = 1 + np.concatenate([[0], np.cumsum(counts_turn)[:-1]])  # the turn counter when each event happens
        self.cursor = 0  # the replay has used every turn answer before this row
        self.given = set()  # rows of 换三张 already given

    def _rows(self, seat: int, turn: int, answers: dict, start: int = 0):
        for row in range(start, len(self.events)):
            if self.seats[row] == seat and self.turns[row] == turn and self.events[row] in answers:
                yield row

    def _won_by_another(self, observation) -> bool:
        """Whether the discard on offer was won (by another seat: a win on it would be this seat's answer)."""
        return any(self.events[row] == "win_discard" and self.turns[row] == observation.turn
                   and self.tiles[row] == observation.tile for row in range(len(self.events)))

    def answer(self, observation) -> int:
        seat, decision, legal = observation.seat, observation.decision, set(observation.legal_codes)
        if decision == "turn":
            for row in self._rows(seat, observation.turn, TURN_ANSWERS, self.cursor):
                code = TURN_ANSWERS[self.events[row]]
                ready = row + 1 < len(self.events) and self.events[row + 1] in READY_EVENTS and self.seats[row + 1] == seat
                if code == DISCARD and ready:
                    code = DISCARD_READY
                action = _legal(code, self.tiles[row], legal)
                if action is not None:
                    self.cursor = row + 1 + int(code == DISCARD_READY)
                    return action
            raise LogMismatch(f"deal {observation.deal}: seat {seat}'s turn {observation.turn} is not in the log")
        if decision in ("claim", "rob"):
            answers = CLAIM_ANSWERS if decision == "claim" else ROB_ANSWERS
            for row in self._rows(seat, observation.turn, answers):
                if self.events[row] != "chow" and self.tiles[row] != observation.tile:
                    continue
                action = _legal(answers[self.events[row]], self.tiles[row], legal)
                if action is not None:
                    return action
            if decision == "claim" and self._won_by_another(observation):
                for code in (PONG, KONG):  # the claim the win overruled, if the seat had one
                    action = _legal(code, observation.tile, legal)
                    if action is not None:
                        return action
            return _legal(PASS, -1, legal)
        if decision == "opening ready":
            for row in range(len(self.events)):
                after_discard = row > 0 and self.events[row - 1] == "discard" and self.seats[row - 1] == seat
                if self.seats[row] == seat and self.events[row] in READY_EVENTS and not after_discard:
                    return _legal(DECLARE_READY, -1, legal)
            return _legal(PASS, -1, legal)
        if decision == "exchange":
            for row in range(len(self.events)):
                if self.seats[row] == seat and self.events[row] == "exchange" and row not in self.given:
                    action = _legal(EXCHANGE, self.tiles[row], legal)
                    if action is not None:
                        self.given.add(row)
                        return action
        if decision == "void":
            for row in range(len(self.events)):
                if self.seats[row] == seat and self.events[row] == "void_suit":
                    return _legal(VOID, self.tiles[row], legal)
        raise LogMismatch(f"deal {observation.deal}: seat {seat}'s {decision} decision is not in the log")


def _legal(code: int, tile: int, legal: set):
    """The legal action of this code on this tile (or without a tile), or None."""
    for action in (code * ACTION_BASE + tile if tile >= 0 else None, code * ACTION_BASE + NO_TILE):
        if action in legal:
            return action
    return None if code != PASS else _raise_no_pass(legal)


def _raise_no_pass(legal: set):
    raise LogMismatch(f"the log passes where passing is not legal (legal: {sorted(legal)})")


class LogFollower:
    """A seat that plays as the log says (a Python player: ``act(observation)``); every seat shares one
    ``LoggedDeals``."""

    def __init__(self, logged):
        self.logged = logged

    def act(self, observation):
        return self.logged.deal(observation.deal).answer(observation)


class LoggedDeals:
    """The logs of a run's deals, each read when the replay reaches it."""

    def __init__(self, logs: pd.DataFrame, turn_events: frozenset):
        self.groups = dict(tuple(logs.groupby("deal", sort=False)))
        self.turn_events = turn_events
        self.current = (None, None)

    def deal(self, number: int) -> _LoggedDeal:
        if self.current[0] != number:
            if number not in self.groups:
                raise LogMismatch(f"deal {number} is not in the logs")
            self.current = (number, _LoggedDeal(self.groups[number], self.turn_events))
        return self.current[1]


def replay_logs(directory: Path, deals: int | None = None) -> pd.DataFrame:
    """The records the engine writes when every seat plays as the run's event logs say (the run's first
    `deals` deals, default all): the same records as the run's, if the logs are complete."""
    from sim.runner import load_run

    config, ruleset = load_run(directory)
    family = family_of(ruleset)
    count = config.deals if deals is None else min(deals, config.deals)
    if config.session_length:
        count = -(-count // config.session_length) * config.session_length
        count = min(count, config.deals)
    logs = event_logs.read_logs(directory, range(count))
    logged = LoggedDeals(logs, family.event_log.TURN_EVENTS)
    seats = len(config.players)
    engine = family.engine
    players = engine.Players(
        np.full(seats, engine.USER, np.int64), np.zeros((seats, family.players.N_PARAMETERS)), tuple(config.players),
        tuple(PythonSeat(f"log replay, seat {seat}", LogFollower(logged)) for seat in range(seats)),
    )
    try:
        records = engine.play(ruleset, players, config.seed, count, 0, config.session_length)
    except PlayerFailure as error:  # a seat found no answer in the log
        raise LogMismatch(str(error)) from None
    return family.records_frame(records, ruleset)

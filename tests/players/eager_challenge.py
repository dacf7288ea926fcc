"""A Python player for the `erren-challenge` replay tests (tests/erren/challenge/test_replay.py): the greedy heuristic's
own choice, except that it wins whenever it may, makes every kong it may, and declares ready as soon as a discard
allows it, throwing the tile it just drew when that keeps the hand ready. The built-in heuristics rarely show
§7's rare situations (the non-dealer's 天听 on its first draw needs a ready dealt hand whose drawn tile is thrown;
杠上开花 needs kongs); this player makes them common enough to search for."""

import sys
from pathlib import Path

import numpy as np

from sim.core.actions import (
    ACTION_BASE,
    ADDED_KONG,
    CONCEALED_KONG,
    DISCARD_READY,
    KONG,
    WIN,
)

sys.path.insert(0, str(Path(__file__).parent))  # loaded by path as a user player: its sibling python_players.py
from python_players import Builtin  # noqa: E402


class Eager(Builtin):
    """Greedy's choice (tests/players/python_players.py's Builtin), overridden as the module says."""

    def act(self, observation):
        codes = observation.legal_codes
        by_kind = {}
        for code in codes:
            by_kind.setdefault(code // ACTION_BASE, []).append(code)
        if WIN in by_kind:
            return self.action(observation, by_kind[WIN][0])
        drawn = observation.drawn if observation.decision == "turn" else None
        if drawn is not None and DISCARD_READY * ACTION_BASE + drawn in codes:
            return self.action(observation, DISCARD_READY * ACTION_BASE + drawn)
        for kind in (CONCEALED_KONG, ADDED_KONG, KONG, DISCARD_READY):
            if kind in by_kind:
                return self.action(observation, by_kind[kind][0])
        return super().act(observation)

    @staticmethod
    def action(observation, code):
        return next(action for action in observation.legal_actions if action.code == code)


class Watcher(Eager):
    """Eager, and keeps what each of its decisions showed it of the table: (deal, seat, number of discards and
    melds on the table, the face-up bonus tiles, the visible copies). The replay tests read `seen`."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def act(self, observation):
        on_table = int(np.sum(observation.discards)) + int(np.sum(observation.n_melds))
        self.seen.append((observation.deal, observation.seat, on_table, observation.bonus, observation.visible))
        return super().act(observation)

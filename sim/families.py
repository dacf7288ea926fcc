"""Families of rules (RULES.md 1: 二人麻将 and 血战) and what differs between them outside the kernels.

A ruleset names its family (``Ruleset.family``; the ruleset itself says how many seats it allows). The
family says which engine and players play its deals, how its records become rows per win and money per
seat, which tables a run writes, how `mjsim replay` tells a deal, and which rooms file prices its money. This is the one place where code asks which family a ruleset belongs to; the
runner, the analysis commands and the duels go through it.
"""

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pandas as pd

from analysis import beans, money
from analysis.fan_tables import fan_column, outcome_summary
from analysis.rooms import ROOMS_DIR


@dataclass(frozen=True)
class Family:
    name: str
    engine_module: str  # plays deals: play(...), replay(...)
    players_class: str  # the engine's class of seated players, with parse(texts, seats)
    players_module: str  # the family's heuristics: parse_player(text) -> (id, parameters, canonical text), NAMES
    report_module: str  # `mjsim replay`'s telling of one deal: format_deal(log, ruleset, players, seed)
    money: ModuleType  # analysis.beans or analysis.money: seat_changes, seat_wins, units_moved, win_rows, run_tables
    outcome_summary: Callable[[pd.DataFrame], pd.DataFrame]
    rooms_file: Path  # the default rooms: stake (beans per fan, or the base stake per unit), fee, entry range
    currency: str  # what the rooms pay in

    @property
    def engine(self) -> ModuleType:
        # Imported on use: a worker playing one family need not compile the other's engine.
        return importlib.import_module(self.engine_module)

    @property
    def heuristics(self) -> ModuleType:
        return importlib.import_module(self.players_module)

    @property
    def report(self) -> ModuleType:
        return importlib.import_module(self.report_module)

    def parse_players(self, texts, seats: int):
        """One player per seat, from a list of texts or one string `A,B[,C...]`."""
        return getattr(self.engine, self.players_class).parse(texts, seats=seats)

    def records_frame(self, records, ruleset) -> pd.DataFrame:
        """An engine batch as a DataFrame: its columns plus the fan counts of the ruleset's fans (one
        ``fan_<id>`` column, or one ``fan_<id>_<seat>`` per seat where a deal has several wins)."""
        frame = pd.DataFrame(records.columns)
        fans = records.fans
        for fan in ruleset.fans:
            if fans.ndim == 2:
                frame[fan_column(fan)] = fans[:, fan]
            else:
                for seat in range(fans.shape[1]):
                    frame[f"{fan_column(fan)}_{seat}"] = fans[:, seat, fan]
        return frame

    def win_rows(self, records: pd.DataFrame, ruleset) -> pd.DataFrame:
        return self.money.win_rows(records, [fan_column(fan) for fan in ruleset.fans])


FAMILIES = {
    "erren": Family(
        name="erren", engine_module="sim.engine", players_class="Players", players_module="sim.heuristics",
        report_module="sim.replay_report", money=beans, outcome_summary=outcome_summary,
        rooms_file=ROOMS_DIR / "rooms.toml", currency="beans",
    ),
    "xuezhan": Family(
        name="xuezhan", engine_module="sim.xuezhan_engine", players_class="XuezhanPlayers",
        players_module="sim.xuezhan_players", report_module="sim.xuezhan_replay_report", money=money,
        outcome_summary=money.outcome_summary, rooms_file=ROOMS_DIR / "rooms-xuezhan.toml", currency="money",
    ),
}


def family_of(ruleset) -> Family:
    return FAMILIES[ruleset.family]

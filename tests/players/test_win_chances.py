"""Players' reported chances of winning (sim.core.win_chances, docs/write-a-player.md#reporting-your-chance-of-winning):
a numba, Python or exec: player may report one with each discard; the engine keeps exactly those, in
order, per seat and deal; a report that is not a chance is the player's fault; a run writes them beside the
records and a calibration table from them."""

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from sim.core.ruleset import load_ruleset
from sim.core.run_records import load_run, read_records, read_win_chances
from sim.erren import engine
from sim.players.user_players import PlayerFailure
from sim.runs.runner import RunConfig, run
from sim.xuezhan import engine as xuezhan_engine

ROOT = Path(__file__).resolve().parents[2]
NUMBA = ROOT / "tests" / "players" / "numba_players.py"
PYTHON = ROOT / "tests" / "players" / "python_players.py"
BOT = ROOT / "tests" / "players" / "reporting_bot.py"
DISCARD_EVENT = engine.EVENT_NAMES.index("discard")


def _discards_per_seat(ruleset, texts, seed, deal):
    """Each seat's discards in the deal, from its replayed event log."""
    log = engine.replay(load_ruleset(ruleset), engine.Players.parse(texts), seed, deal)
    events = log.events
    return [int(((events[:, 0] == DISCARD_EVENT) & (events[:, 1] == seat)).sum()) for seat in (0, 1)]


def _lists(records, seat):
    return records.win_chances[f"win_chances_{seat}"].to_pylist()


@pytest.mark.parametrize("player", [f"{NUMBA}:counts_its_discards", f"{PYTHON}:CountsItsDiscards",
                                    f"exec:{sys.executable} {BOT} 0.01"])
def test_the_reports_kept_are_those_made_with_each_discard_in_order(player):
    """The player reports at every decision (its discards so far / 100): only the reports made with a
    discard are kept, so each deal's list counts up from 0 by one hundredth, one per discard of the seat."""
    texts = [player, "greedy"]
    records = engine.play(load_ruleset("erren"), engine.Players.parse(texts), seed=4, n_deals=60, validate=True)
    assert not records.columns["violation"].any()
    assert list(records.win_chances) == ["win_chances_0"]  # the built-in seat reports nothing
    for deal, reports in enumerate(_lists(records, 0)):
        assert np.allclose(reports, np.arange(len(reports)) / 100, atol=1e-6), deal
        if deal < 5:
            assert len(reports) == _discards_per_seat("erren", texts, 4, deal)[0]


def test_a_xuezhan_seat_reports_too():
    records = xuezhan_engine.play(load_ruleset("liangmen-xuezhan"), f"greedy,{NUMBA}:counts_its_discards,greedy,greedy",
                                  seed=2, n_deals=40, validate=True)
    assert list(records.win_chances) == ["win_chances_1"]
    lists = _lists(records, 1)
    assert sum(len(reports) for reports in lists) > 40
    for reports in lists:
        assert np.allclose(reports, np.arange(len(reports)) / 100, atol=1e-6)


@pytest.mark.parametrize("player, message", [
    (f"{NUMBA}:reports_nonsense", "reported a win chance of nan, not a number from 0 to 1"),
    (f"{PYTHON}:CountsItsDiscards:scale=2", "reported a win chance of 2, not a number from 0 to 1"),
])
def test_a_report_that_is_not_a_chance_stops_the_run_naming_the_player(player, message):
    with pytest.raises(PlayerFailure, match=message):
        engine.play(load_ruleset("erren"), engine.Players.parse([player, "greedy"]), seed=4, n_deals=20)


def test_an_external_program_that_reports_no_chance_is_at_fault_for_that_deal_only(capfd):
    records = engine.play(load_ruleset("erren"), engine.Players.parse([f"exec:{sys.executable} {BOT} 2", "greedy"]),
                          seed=4, n_deals=5)
    assert (records.columns["violation"] == engine.PLAYER_FAULT).all()  # it discards on every deal
    assert "reported a win chance" in capfd.readouterr().err
    for reports in _lists(records, 0):
        assert reports == [0.0]  # its first discard's report (0 tiles discarded) is a chance; then the fault


def test_a_run_with_reports_writes_them_and_its_calibration_table(tmp_path):
    directory = tmp_path / "run"
    run(RunConfig("erren", (f"{NUMBA}:counts_its_discards", "greedy"), deals=300, seed=3, shard_size=100), directory,
        workers=1)
    config, ruleset = load_run(directory)
    chances = read_win_chances(directory, config, ruleset)
    assert len(chances) > 300 and set(chances["seat"]) == {0}
    assert "win_chances_0" not in read_records(directory, config, ruleset).columns  # one number a column
    table = pd.read_parquet(directory / "calibration.parquet")
    assert table["reports"].sum() == len(chances)
    assert json.loads(pq.read_schema(directory / "calibration.parquet").metadata[b"mjsim.config"])["seed"] == 3


def test_a_run_of_heuristics_writes_no_reports(tmp_path):
    directory = tmp_path / "run"
    run(RunConfig("erren", ("greedy", "value"), deals=200, seed=3), directory, workers=1)
    assert not (directory / "calibration.parquet").exists()
    assert read_win_chances(directory, *load_run(directory)).empty

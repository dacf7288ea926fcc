"""The behaviour-cloning example end to end on a small size: a decision dataset written by a run, a model
learned from it and saved, the saved model loaded by the cloned player, which plays only legal actions."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sim.core.ruleset import load_ruleset
from sim.erren import engine
from sim.rl.decisions import read_decisions
from sim.runs.runner import RunConfig, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "rl"


def _example(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_model_learned_from_a_dataset_is_saved_and_plays_legal_actions(tmp_path):
    directory, model_file = tmp_path / "dataset", tmp_path / "cloned.joblib"
    run(RunConfig("erren", ("greedy", "random"), 300, 5, shard_size=150), directory, workers=1, decision_seats=(0,))
    assert len(read_decisions(directory)) >= 2_000
    assert _example("behaviour_cloning").main([str(directory), str(model_file), "--hidden", "32"]) == 0

    player_text = f"{EXAMPLES / 'cloned_player.py'}:ClonedPlayer:model={model_file}"
    players = engine.Players.parse([player_text, "greedy"])
    try:
        # the engine checks every answer against its legal actions and stops the batch at an illegal one
        records = engine.play(load_ruleset("erren"), players, 9, 30, validate=True)
    finally:
        players.close()
    assert (records.columns["violation"] == engine.NO_VIOLATION).all()
    assert (records.columns["faulted_0"] == 0).all()

    # the saved file round-trips: the loaded player's model predicts as the one just fitted
    cloned = _example("cloned_player").ClonedPlayer(str(model_file))
    data = read_decisions(directory)
    fitted = _example("behaviour_cloning")
    model = fitted.train(directory, 32, 0)[0]
    sample = data.observations[:200].astype(np.float32)
    assert np.array_equal(cloned.model.predict(sample), model.predict(sample))

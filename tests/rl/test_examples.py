"""The learning examples (examples/rl/, docs/learning.md) run on small sizes: the policy-gradient loop steps the
batched form, sees deals end and changes its policy."""

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "rl"


def _module(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_policy_gradient_loop_trains_on_finished_deals_of_the_batched_form():
    example = _module("policy_gradient")
    means = example.train("erren", n_tables=8, iterations=3, seed=2, opponent="random")
    assert len(means) == 3 and np.isfinite(means).all()
    assert len(set(means)) > 1  # the batch moves on: each iteration ends other deals

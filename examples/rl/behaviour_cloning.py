"""Behaviour cloning from a decision dataset (docs/learning.md#decision-datasets): a classifier over the
seat's numeric observation learns which action a player took, and is saved for ``cloned_player.py``.

    mjsim run --players ev,greedy --deals 5000 --decisions 0 --out results/ev-decisions
    python examples/rl/behaviour_cloning.py results/ev-decisions results/cloned.joblib

The model is a scikit-learn pipeline: the observation standardised, then a small multi-layer perceptron
(``--hidden 0``: a logistic regression) predicting the action code. It never sees the legal actions: the
player masks its predictions to them at play time. Needs the ``rl`` extra (scikit-learn).
"""

import argparse
import sys
import time
from pathlib import Path

import joblib
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sim.core.run_directory import RunError
from sim.rl.decisions import read_decisions

VALIDATION_SHARE = 0.1  # the last tenth of the decisions (by deal) is held out to report the fit


def masked_choices(model, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The legal action each observation's row scores highest (the first legal one when the model knows none
    of them): the rule the cloned player plays by."""
    probabilities = model.predict_proba(observations)
    scores = np.full(masks.shape, -1.0)
    scores[:, model.classes_] = probabilities
    scores[~masks] = -np.inf
    return scores.argmax(axis=1)


def train(run_directory: Path, hidden: int, seed: int):
    """The fitted pipeline, and (held-out agreement, decisions) to report."""
    data = read_decisions(run_directory)
    if len(data) < 20:
        raise RunError(f"{run_directory} holds {len(data)} decisions: too few to learn from")
    held_out = data.deals >= np.quantile(data.deals, 1 - VALIDATION_SHARE)
    classifier = (LogisticRegression(max_iter=300) if hidden == 0
                  else MLPClassifier((hidden,), early_stopping=True, max_iter=60, random_state=seed))
    model = make_pipeline(StandardScaler(), classifier)
    model.fit(data.observations[~held_out].astype(np.float32), data.actions[~held_out])
    chosen = masked_choices(model, data.observations[held_out].astype(np.float32), data.masks[held_out])
    agreement = float(np.mean(chosen == data.actions[held_out])) if held_out.any() else float("nan")
    return model, data, agreement


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_directory", type=Path, help="a run written with mjsim run --decisions SEATS")
    parser.add_argument("model", type=Path, help="where to save the model (joblib)")
    parser.add_argument("--hidden", type=int, default=128, help="hidden units of the perceptron; 0: logistic regression")
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args(argv)
    if arguments.hidden < 0:
        parser.error("--hidden must not be negative")
    start = time.perf_counter()
    try:
        model, data, agreement = train(arguments.run_directory, arguments.hidden, arguments.seed)
    except RunError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    joblib.dump({"model": model, "ruleset": data.ruleset, "size": data.observations.shape[1]}, arguments.model)
    players = " v ".join(text.partition(":")[0] for text in data.players)
    print(f"{len(data):,} decisions of {data.ruleset} ({players}), seats "
          f"{','.join(map(str, sorted(set(data.seats.tolist()))))}: held-out agreement {agreement:.1%}, "
          f"{time.perf_counter() - start:.1f} s; model in {arguments.model}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

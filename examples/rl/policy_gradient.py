"""A policy-gradient loop on the batched step environment (docs/learning.md#a-policy-gradient-loop).

REINFORCE with a linear softmax policy over the encoded observation, masked to the legal actions: seat 0 of
every table learns, seat 1 is played by an opponent inside the engine. Each deal is an episode; its reward is
the deal's money for seat 0, given to every decision it took, less the mean reward of the batch (a baseline).
numpy only: it shows the loop, not a strong learner.

    python examples/rl/policy_gradient.py RULESET TABLES ITERATIONS SEED [OPPONENT]
"""

import sys

import numpy as np

from sim.families.environment import make_batch_environment

STEPS_PER_ITERATION = 64
LEARNING_RATE = 0.01


def train(ruleset: str, n_tables: int, iterations: int, seed: int, opponent: str = "random") -> list[float]:
    """The mean money per deal of the learning seat in each iteration."""
    batch = make_batch_environment(n_tables, ruleset, opponents={1: opponent}, seed=seed)
    batch.reset()
    _, high = batch.observation_bounds()
    scale = 1.0 / np.maximum(high.astype(np.float64), 1.0)  # every feature into [-1, 1]
    rng = np.random.default_rng(seed)
    weights = np.zeros((scale.shape[0], batch.masks.shape[1]))
    trajectories = [[] for _ in range(n_tables)]  # each table's (features, probabilities, action) of its deal so far
    means = []
    for _ in range(iterations):
        finished_episodes = []  # (reward, trajectory)
        for _ in range(STEPS_PER_ITERATION):
            features = batch.observations * scale
            logits = features @ weights
            logits[~batch.masks] = -np.inf
            probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
            probabilities /= probabilities.sum(axis=1, keepdims=True)
            # one action per table, drawn from its policy (the inverse of the cumulative distribution)
            actions = (probabilities.cumsum(axis=1) < rng.random((n_tables, 1))).sum(axis=1)
            actions = np.minimum(actions, batch.masks.shape[1] - 1)
            actions = np.where(batch.masks[np.arange(n_tables), actions], actions, batch.masks.argmax(axis=1))
            for table in range(n_tables):
                trajectories[table].append((features[table], probabilities[table], actions[table]))
            batch.step(actions)
            for table in np.flatnonzero(batch.terminated):
                finished_episodes.append((batch.rewards[table, 0], trajectories[table]))
                trajectories[table] = []
        if not finished_episodes:
            continue
        rewards = np.array([reward for reward, _ in finished_episodes])
        baseline = rewards.mean()
        steps = [(reward - baseline, step) for reward, trajectory in finished_episodes for step in trajectory]
        advantages = np.array([advantage for advantage, _ in steps])
        features = np.array([step[0] for _, step in steps])
        directions = -np.array([step[1] for _, step in steps])  # d log p(action) / d logits = one-hot - p
        directions[np.arange(len(steps)), [step[2] for _, step in steps]] += 1.0
        gradient = features.T @ (advantages[:, None] * directions)
        weights += LEARNING_RATE * gradient / len(finished_episodes)
        means.append(float(baseline))
    return means


def main(arguments) -> None:
    ruleset, n_tables, iterations, seed = arguments[0], int(arguments[1]), int(arguments[2]), int(arguments[3])
    opponent = arguments[4] if len(arguments) > 4 else "random"
    means = train(ruleset, n_tables, iterations, seed, opponent)
    print(f"{ruleset}: {n_tables} tables, {iterations} iterations of {STEPS_PER_ITERATION} steps, seed {seed}, "
          f"seat 0 learns against {opponent}")
    tenth = max(len(means) // 10, 1)
    print(f"  money per deal, first {tenth} iterations: {np.mean(means[:tenth]):+.2f}")
    print(f"  money per deal, last {tenth} iterations:  {np.mean(means[-tenth:]):+.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Two Python players written only against the player interface (docs/write-a-player.md).

Seat them with ``--players examples/players/simple.py:Isolated,greedy`` or
``--players examples/players/simple.py:Coin:win=0.9,greedy``.
"""

import numpy as np


class Isolated:
    """Wins whenever it may, never claims, and discards the tile with the fewest neighbours in its hand."""

    def act(self, observation):
        by_text = {action.text: action for action in observation.legal_actions}
        if "win" in by_text:
            return by_text["win"]
        if observation.decision != "turn":
            return by_text.get("pass", observation.legal_actions[0])
        hand = observation.hand
        best, best_score = None, None
        for action in observation.legal_actions:
            if not action.text.startswith("discard "):
                continue
            kind = action.code % 64
            score = 3 * (hand[kind] - 1)  # pairs and sets are worth keeping
            if kind < 27:  # suited: neighbours in the same suit count
                for other in (kind - 2, kind - 1, kind + 1, kind + 2):
                    if other // 9 == kind // 9 and 0 <= other < 27:
                        score += hand[other]
            if best_score is None or score < best_score:
                best, best_score = action, score
        return best


class Coin:
    """A stochastic player: takes a win with probability `win`, otherwise plays a uniformly random legal
    action, from the generator it is given for each deal (so its games replay exactly)."""

    def __init__(self, win: float = 1.0):
        self.win = float(win)
        self.rng = None

    def reset(self, seat, ruleset, rng: np.random.Generator):
        self.rng = rng

    def act(self, observation):
        actions = observation.legal_actions
        wins = [action for action in actions if action.text == "win"]
        if wins and self.rng.random() < self.win:
            return wins[0]
        return actions[self.rng.integers(len(actions))]

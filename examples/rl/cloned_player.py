"""A player that plays what a behaviour-cloned model predicts (``behaviour_cloning.py``), masked to the legal
actions: ``--players examples/rl/cloned_player.py:ClonedPlayer:model=results/cloned.joblib`` (docs/write-a-player.md).

It encodes its observation as the decision dataset did (``sim.erren.encoding``, the 二人 family's numeric
observation), asks the model for each action's probability and plays the legal action it scores highest
(the first legal one when the model has never seen any of them).
"""

import joblib
import numpy as np

from sim.core.actions import N_ACTIONS
from sim.erren import encoding
from sim.erren.engine import RECORD_COLUMNS, kernel_rules
from sim.erren.table import new_work


class ClonedPlayer:
    def __init__(self, model: str):
        saved = joblib.load(model)
        self.model, self.ruleset_id, size = saved["model"], saved["ruleset"], saved["size"]
        if size != encoding.SIZE:
            raise ValueError(f"{model} was trained on observations of {size} entries, not the 二人 encoding's {encoding.SIZE}")
        self.scores = np.full(N_ACTIONS, -1.0)
        self.vector = np.zeros(encoding.SIZE, np.int16)
        self.rules = self.wall = None
        # what encode takes beside the state and the rules; a 二人 seat's encoding reads neither
        self.work, self.record = new_work(), np.zeros(len(RECORD_COLUMNS), np.int32)

    def reset(self, seat, ruleset, rng):
        if self.rules is None:
            if ruleset.id != self.ruleset_id:
                raise ValueError(f"the model was trained on {self.ruleset_id}, not {ruleset.id}")
            self.rules, template = kernel_rules(ruleset)
            self.wall = template.copy()

    def act(self, observation):
        if self.rules is None:
            self.reset(observation.seat, observation.ruleset, None)
        # The observation's table state (read-only views of the engine's arrays), copied so that the cached
        # encoding kernel, compiled for writable arrays, takes it.
        state = type(observation._state)(*(np.array(array) for array in observation._state))
        encoding.encode(observation.seat, True, state, self.work, self.wall, self.record, self.rules, self.vector)
        probabilities = self.model.predict_proba(self.vector[None, :].astype(np.float32))[0]
        self.scores[:] = -1.0
        self.scores[self.model.classes_] = probabilities
        legal = observation.legal_codes
        return max(legal, key=lambda code: self.scores[code])

"""Players of equal strength that play different games: the same uniformly random play from a different
part of the seat's random stream, chosen by `salt`. No player is better than another with another salt, so
a test that finds one better is wrong."""


class SaltedCoin:
    """Takes every win it may, otherwise a uniformly random legal action; its stream for a deal is the seat's
    generator after `salt` draws."""

    def __init__(self, salt: int = 0):
        self.salt = int(salt)
        self.rng = None

    def reset(self, seat, ruleset, rng):
        self.rng = rng
        rng.random(self.salt)

    def act(self, observation):
        actions = observation.legal_actions
        for action in actions:
            if action.text == "win":
                return action
        return actions[self.rng.integers(len(actions))]

"""A player module that ends its process as it is imported."""

import sys

sys.exit(0)


class Player:
    def act(self, observation):
        return observation.legal_codes[0]

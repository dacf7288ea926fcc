"""Which mjsim deal each episode of a learning environment plays, and the options its ``reset`` takes.

Both libraries document ``reset(seed=None, options=None)``: a seeded reset starts a reproducible sequence of
episodes, an unseeded one continues the sequence (or, the first time, starts one from fresh entropy). Here
the sequence is mjsim's own: after ``reset(seed=s)`` the episodes play deals 0, 1, 2, ... of seed s, each
exactly as ``mjsim run --seed s`` and ``mjsim replay --seed s --deal k`` deal it. A deal in which no agent
ever has a choice (an opponent's heavenly win, say) is no episode: its number is used up and the next deal
is dealt. ``options`` may carry ``deal`` (the sequence goes on from that deal) and ``dealer`` (that seat deals
this episode instead of the seat ``mjsim run`` draws).
"""

import warnings

from sim.players.environment import checked_deal, checked_dealer, checked_seed

RESET_OPTIONS = ("deal", "dealer")


def checked_options(options, n_seats: int, unknown_keys: str) -> dict:
    """`options` of ``reset`` checked before anything moves: None or a dict whose ``deal`` and ``dealer`` are
    in range (TypeError or ValueError naming the bad one). A key that is not an option is refused
    (`unknown_keys` "refuse": ValueError) or ignored with a warning ("warn": PettingZoo's own ``api_test``
    passes ``options={"options": 1}`` to check that reset takes the argument at all)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(f"reset options are a dict (keys {', '.join(RESET_OPTIONS)}), not {type(options).__name__}")
    unknown = sorted(map(str, set(options) - set(RESET_OPTIONS)))
    if unknown:
        message = f"reset options: {', '.join(map(repr, unknown))} not known; the options are {', '.join(RESET_OPTIONS)}"
        if unknown_keys == "refuse":
            raise ValueError(message)
        warnings.warn(message + " (ignored)", stacklevel=3)
    checked = {}
    if options.get("deal") is not None:
        checked["deal"] = checked_deal(options["deal"])
    if options.get("dealer") is not None:
        checked["dealer"] = checked_dealer(options["dealer"], n_seats)
    return checked


class Episodes:
    """The seed of the current sequence of episodes and the number of the next deal to play in it."""

    def __init__(self):
        self.seed = None
        self.next_deal = 0
        self.deal = None  # the deal the current episode plays

    def begin(self, table, seed, options: dict, fresh_seed) -> None:
        """Deal the next episode on `table` (the family's step environment): with `seed`, deal 0 of that seed
        (or ``options["deal"]``); without, the next deal of the current sequence, or of a seed drawn by
        ``fresh_seed()`` if none has started. Deals where no agent has a choice are passed over."""
        if seed is not None:
            self.seed, self.next_deal = checked_seed(seed), 0
        elif self.seed is None:
            self.seed, self.next_deal = checked_seed(fresh_seed()), 0
        if "deal" in options:
            self.next_deal = options["deal"]
        while True:
            self.deal = checked_deal(self.next_deal)
            self.next_deal += 1
            table.reset(self.seed, self.deal, options.get("dealer"))
            if not table.terminated:
                return

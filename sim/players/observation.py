"""What a seat observes at a decision, the part every family shares (docs/write-a-player.md): the seat, the
decision, the legal actions and their mask, the seat's own tiles, what was drawn or is on offer, the melds
and discards on the table, the wall's size, turn and dealer. A family's ``Observation`` subclasses
``SeatObservation``, names the slots of its table (``TableSlots``) and adds what only its game shows.

Every field reads the engine's read-only views (sim.players.player_view) and hands out copies, which a
player may keep or change freely.
"""

from typing import NamedTuple

import numpy as np

from sim.core.actions import DECISION_CLAIM, DECISION_NAMES, DECISION_ROB, DECISION_TURN
from sim.core.notation import Meld, MeldKind
from sim.players.user_players import legal_list, legal_mask

HIDDEN = -1  # the kind a family shows for another seat's concealed kong, where it hides it


def meld_text(code: int, low: int) -> str:
    """A meld in the notation of hands: ``[345m]``, ``[555z]``, ``[5555z]``, ``(5555z)`` when concealed,
    ``(????)`` for a concealed kong whose kind is hidden."""
    if low == HIDDEN:
        return "(????)"
    return str(Meld(MeldKind(code), low))


class TableSlots(NamedTuple):
    """Where a family's table array holds the fields every observation reads."""

    actor: int
    decision: int
    drawn: int
    offer: int
    turn: int
    dealer: int
    n_melds: int  # the first of one slot per seat


class SeatObservation:
    """The fields every family's observation has: ``seat``, ``n_seats``, ``decision`` (its name),
    ``legal_codes``, ``legal_actions`` (``sim.players.user_players.Action``: ``code``, ``text``),
    ``legal_mask``, ``hand``, ``drawn``, ``tile``, ``melds``, ``n_melds``, ``meld_texts``, ``discards``,
    ``visible``, ``tiles_left``, ``turn``, ``dealer``, ``deal`` and ``ruleset``.

    ``win_chance`` is the player's to set: its chance of winning the deal, from 0 to 1, kept when it answers
    with a discard (sim.core.win_chances)."""

    SLOTS: TableSlots  # the family's table slots
    n_seats: int  # the family's seats: a class attribute where every table has as many, else set per table

    def __init_subclass__(cls, **keywords):
        super().__init_subclass__(**keywords)
        # each slot as a plain attribute (`_drawn_slot`, ...): read at every decision a Python player makes
        for name, slot in cls.SLOTS._asdict().items():
            setattr(cls, f"_{name}_slot", slot)

    def __init__(self, state, legal_codes, deal: int, ruleset):
        self.win_chance = None
        self._state = state  # the engine's read-only views (sim.players.player_view.read_only_state)
        self.legal_codes = tuple(legal_codes)  # a tuple of ints
        self.deal = deal
        self.ruleset = ruleset
        table = state.table
        self.seat = int(table[self._actor_slot])
        self.decision = DECISION_NAMES[table[self._decision_slot]]
        self._actions = None

    @staticmethod
    def _wall_left(table) -> int:
        """The tiles left to draw: the family's count (``table.wall_left``)."""
        raise NotImplementedError

    @property
    def legal_actions(self):
        if self._actions is None:
            self._actions = legal_list(self.legal_codes)
        return self._actions

    @property
    def legal_mask(self) -> np.ndarray:
        """bool (sim.core.actions.N_ACTIONS,): True at each legal action's code."""
        return legal_mask(self.legal_codes)

    @property
    def hand(self) -> np.ndarray:
        """int8 (34,): the seat's concealed tiles (the tile just drawn included)."""
        return self._state.hands[self.seat].copy()

    @property
    def drawn(self):
        """On a turn, the kind just drawn (None after a claim); None on other decisions."""
        table = self._state.table
        if table[self._decision_slot] != DECISION_TURN or table[self._drawn_slot] < 0:
            return None
        return int(table[self._drawn_slot])

    @property
    def tile(self):
        """On a claim or a rob, the kind on offer (the discard, the tile added to a kong); else None."""
        table = self._state.table
        if table[self._decision_slot] in (DECISION_CLAIM, DECISION_ROB):
            return int(table[self._offer_slot])
        return None

    @property
    def melds(self) -> np.ndarray:
        """int8 (n_seats, 4, 2): each seat's melds as (meld code, lowest kind); ``n_melds`` says how many count."""
        return self._state.melds[: self.n_seats].copy()

    @property
    def n_melds(self) -> tuple:
        table = self._state.table
        return tuple(int(table[self._n_melds_slot + seat]) for seat in range(self.n_seats))

    @property
    def meld_texts(self) -> tuple:
        """Each seat's melds as text: ``[555p]``, ``[345m]``, ``(1111s)`` for a concealed kong."""
        melds = self.melds
        return tuple(
            tuple(meld_text(int(melds[seat, index, 0]), int(melds[seat, index, 1])) for index in range(count))
            for seat, count in enumerate(self.n_melds)
        )

    @property
    def discards(self) -> np.ndarray:
        """int8 (n_seats, 34): what each seat has discarded."""
        return self._state.discarded[: self.n_seats].copy()

    @property
    def visible(self) -> np.ndarray:
        """int8 (34,): the copies on the table: discards and exposed melds (and 004's face-up bonus tiles)."""
        return self._state.visible.copy()

    @property
    def tiles_left(self) -> int:
        return int(self._wall_left(self._state.table))

    @property
    def turn(self) -> int:
        return int(self._state.table[self._turn_slot])

    @property
    def dealer(self) -> int:
        return int(self._state.table[self._dealer_slot])

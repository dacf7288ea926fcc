"""What a 二人 seat observes at a decision: the ``Observation`` a Python player's ``act`` receives, and the
``NumbaObservation`` a numba player's function receives (``numba_observation``).

It shows only what the seat may see of the deal (``sim.erren.table``): its own concealed tiles, both seats'
melds and discards, the copies on the table, the wall's size, the public fields (dealer, turn, ready,
doubles, flowers) and, once the seat has declared ready, the opponent's hand. Nothing a player does to
what it is shown can change the deal: the numba observation is built from copies of the deal's state, the
Python one reads read-only views of it (sim.players.player_view) and hands out copies, which a player may keep or
change freely.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.actions import DECISION_TURN
from sim.core.deal_rules import Rules
from sim.core.notation import format_tiles, tile_name
from sim.erren.table import (
    ACTOR,
    DEALER,
    DECISION,
    DOUBLES,
    DRAWN,
    FLOWERS,
    N_MELDS,
    OFFER,
    READY,
    TURN,
    WIN_POINTS,
    WIN_TOTAL,
    opponent_hand_visible,
    unseen_counts,
    wall_left,
)
from sim.players.observation import SeatObservation, TableSlots

N_SEATS = 2


class Observation(SeatObservation):
    """One decision of one seat. Fields: ``seat``, ``deal``, ``decision`` (``turn``, ``claim``, ``rob``,
    ``opening ready``), ``legal_actions`` (``sim.players.user_players.Action``: ``code``, ``text``),
    ``legal_codes``, ``legal_mask``, ``hand``, ``drawn``, ``tile``, ``melds``, ``meld_texts``,
    ``discards``, ``discards_after_ready``, ``visible``, ``opponent_hand``, ``tiles_left``, ``turn``,
    ``dealer``, ``ready``, ``doubles``, ``flowers``, ``bonus``, ``win_fans``, ``win_points``, ``ruleset``.

    ``win_chance`` is the player's to set: its chance of winning the deal, from 0 to 1, kept when it
    answers with a discard (sim.core.win_chances)."""

    SLOTS = TableSlots(actor=ACTOR, decision=DECISION, drawn=DRAWN, offer=OFFER, turn=TURN, dealer=DEALER, n_melds=N_MELDS)
    n_seats = N_SEATS
    _wall_left = staticmethod(wall_left)

    @property
    def discards_after_ready(self) -> np.ndarray:
        """int8 (2, 34): what each seat discarded after declaring ready."""
        return self._state.after_ready.copy()

    @property
    def visible(self) -> np.ndarray:
        """int8 (34,): the copies on the table: discards, exposed melds and face-up bonus tiles."""
        return self._state.visible.copy()

    @property
    def bonus(self) -> np.ndarray:
        """int8 (34,): the bonus tiles turned face up after the deal (erren-challenge's 花牌); zeros elsewhere."""
        return self._state.bonus.copy()

    @property
    def opponent_hand(self):
        """int8 (34,): the opponent's concealed tiles, once this seat has declared ready; else None."""
        if not opponent_hand_visible(self.seat, self._state.table):
            return None
        return self._state.hands[1 - self.seat].copy()

    @property
    def ready(self) -> tuple:
        table = self._state.table
        return tuple(bool(table[READY + seat]) for seat in range(N_SEATS))

    @property
    def doubles(self) -> tuple:
        table = self._state.table
        return tuple(int(table[DOUBLES + seat]) for seat in range(N_SEATS))

    @property
    def flowers(self) -> tuple:
        table = self._state.table
        return tuple(int(table[FLOWERS + seat]) for seat in range(N_SEATS))

    @property
    def win_fans(self):
        """The fan total (flowers aside, before doubling) of the win this decision offers; None if none."""
        total = int(self._state.table[WIN_TOTAL])
        return total if total >= 0 and self.decision != "opening ready" else None

    @property
    def win_points(self):
        """The points of the win this decision offers where the ruleset scores points (erren-challenge:
        a 役满 win has 0 fans and 10,000 points a 役满); None if there is no win or no points."""
        points = int(self._state.table[WIN_POINTS])
        return points if points > 0 and self.win_fans is not None else None

    def to_json(self) -> dict:
        """The observation as JSON values, tiles in MPSZ text (what an ``exec:`` player receives)."""
        opponent = self.opponent_hand
        drawn, tile = self.drawn, self.tile
        return {
            "deal": self.deal, "seat": self.seat, "decision": self.decision, "ruleset": self.ruleset.name,
            "hand": format_tiles(self.hand), "drawn": None if drawn is None else tile_name(drawn),
            "tile": None if tile is None else tile_name(tile),
            "melds": [list(texts) for texts in self.meld_texts],
            "discards": [format_tiles(row) for row in self.discards],
            "discards_after_ready": [format_tiles(row) for row in self.discards_after_ready],
            "opponent_hand": None if opponent is None else format_tiles(opponent),
            "tiles_left": self.tiles_left, "turn": self.turn, "dealer": self.dealer, "ready": list(self.ready),
            "doubles": list(self.doubles), "flowers": list(self.flowers), "bonus": format_tiles(self.bonus),
            "win_fans": self.win_fans, "win_points": self.win_points,
        }


class NumbaObservation(NamedTuple):
    """What a numba player's ``act`` receives (docs/write-a-player.md#a-numba-player). The arrays are the
    seat's own copies, made afresh at each decision (sim.players.player_view): a player may write into them, and the
    deal does not change."""

    seat: int
    decision: int  # sim.core.actions.DECISION_*
    legal: np.ndarray  # int64 (n,): the legal actions, in the engine's fixed order
    tile: int  # on a claim or a rob, the kind on offer; on a turn, the kind just drawn (-1 after a claim)
    hand: np.ndarray  # int8 (34,): the seat's concealed tiles
    n_melds: int  # the seat's melds
    opponent_hand: np.ndarray  # int8 (34,): the opponent's, once this seat has declared ready; zeros before
    melds: np.ndarray  # int8 (2, 4, 2): (meld code, lowest kind); table[N_MELDS + seat] of them count
    visible: np.ndarray  # int8 (34,): discards on the table and exposed melds
    discards: np.ndarray  # int8 (2, 34)
    discards_after_ready: np.ndarray  # int8 (2, 34)
    unseen: np.ndarray  # int8 (34,): the copies this seat cannot see (the wall and the opponent's hand)
    table: np.ndarray  # int64: the public fields, indexed by sim.erren.table's constants (DRAWN, OFFER, ...)
    rules: Rules  # the ruleset's kernel arrays (for sim.players.numba_players.shanten and the fan evaluator)
    work: tuple  # sim.erren.table.Work: scratch arrays (shanten_scratch, distances, ...) a player may use
    bonus: np.ndarray  # int8 (34,): the face-up bonus tiles (erren-challenge's 花牌), zeros elsewhere
    win_chance: np.ndarray  # float64 (1,): write your chance of winning the deal here with a discard (sim.core.win_chances)


@njit(cache=True, _nrt=False)
def show_to(seat, state, shown):
    """Copy into `shown` (a State) what `seat` may see of `state`: its hand, the opponent's once the seat has
    declared ready (zeros before), the melds, discards, table fields and bonus tiles."""
    opponent = 1 - seat
    opponent_shown = opponent_hand_visible(seat, state.table)
    for kind in range(state.hands.shape[1]):
        shown.hands[seat, kind] = state.hands[seat, kind]
        shown.hands[opponent, kind] = state.hands[opponent, kind] if opponent_shown else 0
        shown.visible[kind] = state.visible[kind]
        shown.bonus[kind] = state.bonus[kind]
        for each in range(N_SEATS):
            shown.discarded[each, kind] = state.discarded[each, kind]
            shown.after_ready[each, kind] = state.after_ready[each, kind]
    for each in range(N_SEATS):
        for index in range(state.melds.shape[1]):
            shown.melds[each, index, 0] = state.melds[each, index, 0]
            shown.melds[each, index, 1] = state.melds[each, index, 1]
    for field in range(state.table.shape[0]):
        shown.table[field] = state.table[field]


@njit(cache=True, inline="always")  # inlined: returning the tuple from a call would count references on its arrays
def numba_observation(seat, n_legal, state, rules, work, view, win_chance):
    """The observation of the actor, its legal actions the first `n_legal` of work.legal, built in the
    seat's copies `view` (sim.players.player_view.PlayerView); `win_chance` is the slot of
    sim.core.win_chances.WinChanceLog the seat may report in."""
    shown, scratch = view.state, view.work
    show_to(seat, state, shown)
    for index in range(n_legal):
        scratch.legal[index] = work.legal[index]
    unseen_counts(seat, state, rules.tile_set, scratch.unseen)
    table = shown.table
    tile = table[DRAWN] if table[DECISION] == DECISION_TURN else table[OFFER]
    return NumbaObservation(
        seat, table[DECISION], scratch.legal[:n_legal], tile, shown.hands[seat], table[N_MELDS + seat],
        shown.hands[1 - seat], shown.melds, shown.visible, shown.discarded, shown.after_ready, scratch.unseen, table,
        view.rules, scratch, shown.bonus, win_chance,
    )

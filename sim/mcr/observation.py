"""What an MCR seat observes at a decision: the ``Observation`` a Python or ``exec:`` player's ``act`` receives,
and the ``NumbaObservation`` a numba player's function receives (``numba_observation``).

It shows only what the seat may see of the deal (``sim.mcr.table``): its own concealed tiles, every seat's
exposed melds (another seat's concealed kongs without their kind), the discards and the copies on the
table, each seat's flowers (set aside face up), the wall's size, and the public facts: dealer, the round
wind and the seat's own wind, the turn, and, where the decision offers a win, the win's fan total (flowers
aside) and the ruleset's minimum. Other seats' answers to the tile on offer and the tile another seat just
drew are hidden. Nothing a player does to what it is shown can change the deal: the numba observation is
built from copies of the deal's state, the Python one reads read-only views of it
(sim.players.player_view) and hands out copies, which a player may keep or change freely.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from kernels.tiles import MELD_CONCEALED_KONG, N_KINDS
from sim.core.actions import DECISION_CLAIM, DECISION_ROB, DECISION_TURN, MAX_LEGAL
from sim.core.deal_rules import Rules
from sim.core.notation import format_tiles, tile_name
from sim.mcr.table import (
    ACTOR,
    CLAIM,
    CLAIMER,
    DEALER,
    DECISION,
    DRAWN,
    FLOWERS,
    MIN_FAN,
    N_MELDS,
    OFFER,
    ROUND_WIND,
    SEATS,
    TABLE_FIELDS,
    TURN,
    WIN_ALLOWED,
    WIN_TOTAL,
    seat_wind,
    unseen_counts,
    wall_left,
)
from sim.mcr.win_value import new_fan_work
from sim.players.observation import HIDDEN, SeatObservation, TableSlots

WIND_NAMES = ("east", "south", "west", "north")


class Observation(SeatObservation):
    """One decision of one seat. Fields: ``seat``, ``deal``, ``decision`` (``turn``, ``claim``, ``rob``),
    ``legal_actions`` (``sim.players.user_players.Action``: ``code``, ``text``), ``legal_codes``,
    ``legal_mask``, ``hand``, ``drawn``, ``tile``, ``melds``, ``n_melds``, ``meld_texts``, ``discards``,
    ``visible``, ``tiles_left``, ``turn``, ``dealer``, ``n_seats``, ``flowers``, ``round_wind``,
    ``seat_wind``, ``win_fans``, ``min_fan``, ``ruleset``.

    ``win_chance`` is the player's to set: its chance of winning the deal, from 0 to 1, kept when it
    answers with a discard (sim.core.win_chances)."""

    SLOTS = TableSlots(actor=ACTOR, decision=DECISION, drawn=DRAWN, offer=OFFER, turn=TURN, dealer=DEALER, n_melds=N_MELDS)
    n_seats = SEATS
    _wall_left = staticmethod(wall_left)

    def __init__(self, state, legal_codes, deal: int, ruleset):
        super().__init__(state, legal_codes, deal, ruleset)
        self.min_fan = int(ruleset.min_fan)

    @property
    def melds(self) -> np.ndarray:
        """int8 (4, 4, 2): each seat's melds as (meld code, lowest kind), another seat's concealed kong with
        kind -1; ``n_melds`` says how many count."""
        melds = self._state.melds.copy()
        for seat in range(SEATS):
            if seat != self.seat:
                melds[seat, :, 1][melds[seat, :, 0] == MELD_CONCEALED_KONG] = HIDDEN
        return melds

    @property
    def flowers(self) -> tuple:
        """Each seat's flowers set aside so far (face up: every seat sees them)."""
        table = self._state.table
        return tuple(int(table[FLOWERS + seat]) for seat in range(SEATS))

    @property
    def round_wind(self) -> int:
        """The deal's round wind, 0 east .. 3 north."""
        return int(self._state.table[ROUND_WIND])

    @property
    def seat_wind(self) -> int:
        """The seat's own wind this deal, 0 east (the dealer) .. 3 north, in turn order."""
        return int(seat_wind(self.seat, self._state.table))

    @property
    def win_fans(self):
        """The fan total (flowers aside) of the win this decision offers; None if it offers none (the hand is
        not complete, or below ``min_fan``)."""
        table = self._state.table
        if table[DECISION] not in (DECISION_TURN, DECISION_CLAIM, DECISION_ROB) or table[WIN_ALLOWED] == 0:
            return None
        return int(table[WIN_TOTAL])

    def to_json(self) -> dict:
        """The observation as JSON values, tiles in MPSZ text (what an ``exec:`` player receives)."""
        drawn, tile = self.drawn, self.tile
        return {
            "deal": self.deal, "seat": self.seat, "decision": self.decision, "ruleset": self.ruleset.name,
            "hand": format_tiles(self.hand), "drawn": None if drawn is None else tile_name(drawn),
            "tile": None if tile is None else tile_name(tile), "melds": [list(texts) for texts in self.meld_texts],
            "discards": [format_tiles(row) for row in self.discards], "tiles_left": self.tiles_left,
            "turn": self.turn, "dealer": self.dealer, "n_seats": self.n_seats, "flowers": list(self.flowers),
            "round_wind": WIND_NAMES[self.round_wind], "seat_wind": WIND_NAMES[self.seat_wind],
            "win_fans": self.win_fans, "min_fan": self.min_fan,
        }


class SeenWork(NamedTuple):
    """The numba observation's own arrays, copied into at each decision (``sim.players.player_view``): the
    legal actions, what the seat may know of the table, and the scratch arrays of the helpers."""

    legal: np.ndarray  # int64 (MAX_LEGAL,)
    unseen: np.ndarray  # int8 (34,)
    seen_table: np.ndarray  # int64 (TABLE_FIELDS,): the table's fields, what the seat may not know blanked
    seen_melds: np.ndarray  # int8 (4, 4, 2): the melds, other seats' concealed kongs without their kind
    flowers: np.ndarray  # int64 (4,)
    shanten_scratch: np.ndarray  # int16 (6, 10)
    distances: np.ndarray  # int64 (34,)
    shanten_after_discard: np.ndarray  # int64 (34,)
    knitted: np.ndarray  # int8 (34,): the knitted-shape check's scratch
    fans: np.ndarray  # the fan evaluator's work array (sim.mcr.win_value.new_fan_work)


def new_seen_work() -> SeenWork:
    return SeenWork(
        np.zeros(MAX_LEGAL, np.int64), np.zeros(N_KINDS, np.int8), np.zeros(TABLE_FIELDS, np.int64),
        np.zeros((SEATS, 4, 2), np.int8), np.zeros(SEATS, np.int64), np.zeros((6, 10), np.int16),
        np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.int64), np.zeros(N_KINDS, np.int8), new_fan_work(),
    )


class NumbaWork(NamedTuple):
    """Scratch arrays a numba player may use (and overwrite) for the helpers of ``sim.players.numba_players``
    and ``sim.mcr.numba_helpers``."""

    shanten_scratch: np.ndarray  # int16 (6, 10): for shanten and ukeire
    distances: np.ndarray  # int64 (34,): for ukeire
    shanten_after_discard: np.ndarray  # int64 (34,): free, e.g. for each discard's shanten
    knitted: np.ndarray  # int8 (34,): for mcr_win_fans
    fans: np.ndarray  # the fan evaluator's work, for mcr_win_fans


class NumbaObservation(NamedTuple):
    """What a numba player's ``act`` receives at an MCR table (docs/write-a-player.md#a-numba-player). The
    arrays are the seat's own copies, made afresh at each decision (sim.players.player_view): a player may
    write into them, and the deal does not change."""

    seat: int
    decision: int  # sim.core.actions.DECISION_*
    legal: np.ndarray  # int64 (n,): the legal actions, in the engine's fixed order
    tile: int  # on a claim or a rob, the kind on offer; on a turn, the kind just received (-1 after a claim)
    hand: np.ndarray  # int8 (34,): the seat's concealed tiles
    n_melds: int  # the seat's melds
    melds: np.ndarray  # int8 (4, 4, 2): (meld code, lowest kind), another seat's concealed kong with kind -1
    visible: np.ndarray  # int8 (34,): discards on the table and exposed melds
    discards: np.ndarray  # int8 (4, 34): what each seat has discarded
    unseen: np.ndarray  # int8 (34,): the copies this seat cannot see (the wall and the other hands)
    flowers: np.ndarray  # int64 (4,): each seat's flowers set aside
    dealer: int
    round_wind: int  # 0 east .. 3 north
    seat_wind: int  # the seat's own wind, 0 east (the dealer) .. 3 north
    win_fans: int  # the fan total (flowers aside) of the win this decision offers, -1 if it offers none
    min_fan: int  # the fewest fans a win needs (flowers aside)
    table: np.ndarray  # int64 (TABLE_FIELDS,): the public fields, indexed by sim.mcr.table's constants
    rules: Rules  # the ruleset's kernel arrays (for sim.players.numba_players.shanten and mcr_win_fans)
    work: NumbaWork  # scratch arrays for the helpers
    win_chance: np.ndarray  # float64 (1,): write your chance of winning the deal here with a discard (sim.core.win_chances)


@njit(cache=True, _nrt=False)
def show_to(seat, state, shown, scratch):
    """Copy into `shown` (a State) and `scratch` (a SeenWork) what `seat` may see: its own hand (the other
    hands stay zeros), the copies on the table, every seat's discards, the melds (other seats' concealed
    kongs without their kind), the flowers and the table's fields less the answers other seats gave in the
    round under way and, off its turn, the tile the actor last received."""
    table, melds, seen, seen_melds = state.table, state.melds, scratch.seen_table, scratch.seen_melds
    for kind in range(N_KINDS):
        shown.hands[seat, kind] = state.hands[seat, kind]
        shown.visible[kind] = state.visible[kind]
        for each in range(SEATS):
            shown.discarded[each, kind] = state.discarded[each, kind]
    for each in range(SEATS):
        for index in range(state.discard_order.shape[1]):
            shown.discard_order[each, index] = state.discard_order[each, index]
        scratch.flowers[each] = table[FLOWERS + each]
        for index in range(4):
            code = melds[each, index, 0]
            seen_melds[each, index, 0] = code
            hidden = each != seat and code == MELD_CONCEALED_KONG and index < table[N_MELDS + each]
            seen_melds[each, index, 1] = HIDDEN if hidden else melds[each, index, 1]
    for field in range(TABLE_FIELDS):
        seen[field] = table[field]
    seen[CLAIMER], seen[CLAIM] = -1, 0
    if table[DECISION] != DECISION_TURN:
        seen[DRAWN] = -1


@njit(cache=True, inline="always")  # inlined: returning the tuple from a call would count references on its arrays
def numba_observation(seat, n_legal, state, rules, work, view, win_chance):
    """The observation of the actor, its legal actions the first `n_legal` of work.legal, built in the
    seat's copies `view` (sim.players.player_view.PlayerView over a State and a ``SeenWork``); `win_chance`
    is the slot of sim.core.win_chances.WinChanceLog the seat may report in."""
    shown, scratch = view.state, view.work
    show_to(seat, state, shown, scratch)
    for index in range(n_legal):
        scratch.legal[index] = work.legal[index]
    unseen_counts(seat, state, rules.tile_set, scratch.unseen)
    table = state.table
    decision = table[DECISION]
    tile, win_fans = -1, -1
    if decision == DECISION_TURN:
        tile = table[DRAWN]
    elif decision == DECISION_CLAIM or decision == DECISION_ROB:
        tile = table[OFFER]
    if table[WIN_ALLOWED] != 0:
        win_fans = table[WIN_TOTAL]
    player_scratch = NumbaWork(scratch.shanten_scratch, scratch.distances, scratch.shanten_after_discard,
                               scratch.knitted, scratch.fans)
    return NumbaObservation(
        seat, decision, scratch.legal[:n_legal], tile, shown.hands[seat], table[N_MELDS + seat], scratch.seen_melds,
        shown.visible, shown.discarded, scratch.unseen, scratch.flowers, table[DEALER], table[ROUND_WIND],
        seat_wind(seat, table), win_fans, rules.settings[MIN_FAN], scratch.seen_table, view.rules, player_scratch, win_chance,
    )

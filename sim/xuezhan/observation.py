"""What a 血战 seat observes at a decision: the ``Observation`` a Python or ``exec:`` player's ``act``
receives, and the ``NumbaObservation`` a numba player's function receives (``numba_observation``).

It shows only what the seat may see of the deal (``sim.xuezhan.table``, and the deal's record row): its own
concealed tiles, every seat's exposed melds (another seat's concealed kongs without their kind), the
discards and the copies on the table, the wall's size, and the public facts: dealer, turn, each seat's 报叫
and its declared waits, its void suit once declared (定缺), who has won and left the deal, and each seat's
money so far in the deal. Nothing a player does to what it is shown can change the deal: the numba
observation is built from copies of the deal's state, the Python one reads read-only views of it
(sim.players.player_view) and hands out copies, which a player may keep or change freely.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from kernels.tiles import MELD_CONCEALED_KONG
from sim.core.actions import DECISION_CLAIM, DECISION_EXCHANGE, DECISION_ROB, DECISION_TURN
from sim.core.deal_rules import Rules
from sim.core.notation import format_tiles, tile_name
from sim.players.observation import HIDDEN, SeatObservation, TableSlots
from sim.xuezhan.table import (
    ACTOR,
    CLAIM,
    CLAIMER,
    DEALER,
    DECISION,
    DECLARED,
    DECLARED_VOID,
    DRAWN,
    MAX_SEATS,
    MISSED_VALUE,
    N_MELDS,
    N_SEATS,
    OFFER,
    PASSED_KONG,
    PICKED,
    PONG_LOCK,
    ROUND_WINNERS,
    TABLE_FIELDS,
    TURN,
    WIN_ALLOWED,
    WIN_LOCK,
    WIN_VALUE,
    WON,
    unseen_counts,
    wall_left,
)


class Observation(SeatObservation):
    """One decision of one seat. Fields: ``seat``, ``deal``, ``decision`` (``turn``, ``claim``, ``rob``,
    ``opening ready``, ``exchange``, ``void``), ``legal_actions`` (``sim.players.user_players.Action``: ``code``,
    ``text``), ``legal_codes``, ``legal_mask``, ``hand``, ``drawn``, ``tile``, ``picked``, ``melds``,
    ``n_melds``, ``meld_texts``, ``discards``, ``visible``, ``tiles_left``, ``turn``, ``dealer``,
    ``n_seats``, ``ready``, ``waits``, ``voids``, ``won``, ``money``, ``win_value``, ``ruleset``.

    ``win_chance`` is the player's to set: its chance of winning the deal, from 0 to 1, kept when it
    answers with a discard (sim.core.win_chances)."""

    SLOTS = TableSlots(actor=ACTOR, decision=DECISION, drawn=DRAWN, offer=OFFER, turn=TURN, dealer=DEALER, n_melds=N_MELDS)
    _wall_left = staticmethod(wall_left)

    def __init__(self, state, work, money, legal_codes, deal: int, ruleset):
        super().__init__(state, legal_codes, deal, ruleset)
        self.n_seats = int(state.table[N_SEATS])
        self._decision = int(state.table[DECISION])
        self._money = money  # each seat's units so far, from the deal's record (sim.xuezhan.engine)
        count = int(state.table[PICKED]) if self._decision == DECISION_EXCHANGE else 0
        self._picked = tuple(int(kind) for kind in work.exchange_choices[self.seat, :count])

    @property
    def picked(self) -> tuple:
        """In 换三张, the kinds the seat has chosen to give so far (the next is asked); else empty."""
        return self._picked

    @property
    def melds(self) -> np.ndarray:
        """int8 (n_seats, 4, 2): each seat's melds as (meld code, lowest kind), another seat's concealed kong
        with kind -1; ``n_melds`` says how many count."""
        melds = self._state.melds[: self.n_seats].copy()
        for seat in range(self.n_seats):
            if seat != self.seat:
                melds[seat, :, 1][melds[seat, :, 0] == MELD_CONCEALED_KONG] = HIDDEN
        return melds

    @property
    def ready(self) -> tuple:
        """Whether each seat has declared 报叫 (its hand locked, its waits public)."""
        table = self._state.table
        return tuple(bool(table[DECLARED + seat]) for seat in range(self.n_seats))

    @property
    def waits(self) -> tuple:
        """Each 报叫 declarer's public waits (a tuple of kinds), None for a seat that has not declared."""
        waits = self._state.waits
        return tuple(
            tuple(int(kind) for kind in np.flatnonzero(waits[seat])) if declared else None
            for seat, declared in enumerate(self.ready)
        )

    @property
    def voids(self) -> tuple:
        """Each seat's void suit (定缺) as its letter, ``p`` or ``s``, once declared; else None."""
        table = self._state.table
        starts = (int(table[DECLARED_VOID + seat]) for seat in range(self.n_seats))
        return tuple(tile_name(start)[1] if start >= 0 else None for start in starts)

    @property
    def won(self) -> tuple:
        """Each seat's win order (1 for the first win, simultaneous winners share it), 0 while still in."""
        table = self._state.table
        return tuple(int(table[WON + seat]) for seat in range(self.n_seats))

    @property
    def money(self) -> tuple:
        """Each seat's net units so far in the deal: wins paid and received, kong money (查叫 and 关死 come at
        the end)."""
        return self._money

    @property
    def win_value(self):
        """The raw value of the win this decision offers (the ruleset's fans combined, before any cap or
        payment rule); None if it offers none."""
        table = self._state.table
        if self._decision not in (DECISION_TURN, DECISION_CLAIM, DECISION_ROB) or table[WIN_ALLOWED] == 0:
            return None
        return int(table[WIN_VALUE])

    def to_json(self) -> dict:
        """The observation as JSON values, tiles in MPSZ text (what an ``exec:`` player receives)."""
        drawn, tile = self.drawn, self.tile
        waits = self.waits
        return {
            "deal": self.deal, "seat": self.seat, "decision": self.decision, "ruleset": self.ruleset.name,
            "hand": format_tiles(self.hand), "drawn": None if drawn is None else tile_name(drawn),
            "tile": None if tile is None else tile_name(tile), "picked": [tile_name(kind) for kind in self.picked],
            "melds": [list(texts) for texts in self.meld_texts],
            "discards": [format_tiles(row) for row in self.discards],
            "tiles_left": self.tiles_left, "turn": self.turn, "dealer": self.dealer, "n_seats": self.n_seats,
            "ready": list(self.ready),
            "waits": [None if kinds is None else [tile_name(kind) for kind in kinds] for kinds in waits],
            "voids": list(self.voids), "won": list(self.won), "money": list(self.money), "win_value": self.win_value,
        }


class NumbaWork(NamedTuple):
    """Scratch arrays a numba player may use (and overwrite) for the helpers of ``sim.players.numba_players``."""

    shanten_scratch: np.ndarray  # int16 (6, 10): for shanten and ukeire
    distances: np.ndarray  # int64 (34,): for ukeire
    shanten_after_discard: np.ndarray  # int64 (34,): free, e.g. for each discard's shanten
    fan_counts: np.ndarray  # int64 (N_FANS,): for xuezhan_win_value


class NumbaObservation(NamedTuple):
    """What a numba player's ``act`` receives at a 血战 table (docs/write-a-player.md#a-numba-player). The
    arrays are the seat's own copies, made afresh at each decision (sim.players.player_view): a player may write into
    them, and the deal does not change. Per-seat arrays have four rows; the first ``n_seats`` count."""

    seat: int
    n_seats: int
    decision: int  # sim.core.actions.DECISION_*
    legal: np.ndarray  # int64 (n,): the legal actions, in the engine's fixed order
    tile: int  # on a claim or a rob, the kind on offer; on a turn, the kind just received (-1 after a pong)
    hand: np.ndarray  # int8 (34,): the seat's concealed tiles
    n_melds: int  # the seat's melds
    melds: np.ndarray  # int8 (4, 4, 2): (meld code, lowest kind), another seat's concealed kong with kind -1
    visible: np.ndarray  # int8 (34,): discards on the table and exposed melds
    discards: np.ndarray  # int8 (4, 34): what each seat has discarded
    unseen: np.ndarray  # int8 (34,): the copies this seat cannot see (the wall and the other hands)
    voids: np.ndarray  # int64 (4,): each seat's void suit (定缺) as its first kind (9 筒, 18 条), -1 if none
    won: np.ndarray  # int64 (4,): each seat's win order (0 while still in the deal)
    declared: np.ndarray  # int64 (4,): 1 for each seat that declared 报叫
    waits: np.ndarray  # int8 (4, 34): each 报叫 declarer's public waits (zeros for the others)
    money: np.ndarray  # int64 (4,): each seat's units so far in the deal (wins and kongs; 查叫 and 关死 at the end)
    win_value: int  # the raw value of the win this decision offers, -1 if it offers none
    picked: np.ndarray  # int64: in 换三张, the kinds the seat has chosen to give so far; else empty
    table: np.ndarray  # int64 (TABLE_FIELDS,): the public fields, indexed by sim.xuezhan.table's constants
    rules: Rules  # the ruleset's kernel arrays (for sim.players.numba_players.shanten and xuezhan_win_value)
    work: NumbaWork  # scratch arrays for the helpers
    win_chance: np.ndarray  # float64 (1,): write your chance of winning the deal here with a discard (sim.core.win_chances)


@njit(cache=True, inline="always", _nrt=False)
def _seen_by(seat, state, work):
    """Fill work.seen_table and work.seen_melds with what `seat` may know: the answers other seats gave in
    the round under way, their locks (which tell what they passed) and, off its turn, the tile another seat
    last drew are blanked; other seats' concealed kongs lose their kind."""
    table, seen, melds, seen_melds = state.table, work.seen_table, state.melds, work.seen_melds
    for field in range(TABLE_FIELDS):
        seen[field] = table[field]
    seen[ROUND_WINNERS], seen[CLAIMER], seen[CLAIM] = 0, -1, 0
    if table[DECISION] != DECISION_TURN:
        seen[DRAWN] = -1
    for other in range(MAX_SEATS):
        if other != seat:
            seen[PONG_LOCK + other], seen[WIN_LOCK + other] = 0, 0
            seen[MISSED_VALUE + other], seen[PASSED_KONG + other] = -1, 0
        for index in range(4):
            code = melds[other, index, 0]
            seen_melds[other, index, 0] = code
            hidden = other != seat and code == MELD_CONCEALED_KONG and index < table[N_MELDS + other]
            seen_melds[other, index, 1] = HIDDEN if hidden else melds[other, index, 1]


@njit(cache=True, _nrt=False)
def show_to(seat, state, work, shown, scratch):
    """Copy into `shown` (a State) and `scratch` (a Work) what `seat` may see: its own hand (the other hands
    stay zeros), the table's copies, discards and declared waits, the melds and table fields as ``_seen_by``
    shows them, each seat's money so far (work.money) and, in 换三张, the kinds it has picked."""
    for kind in range(state.hands.shape[1]):
        shown.hands[seat, kind] = state.hands[seat, kind]
        shown.visible[kind] = state.visible[kind]
        for each in range(MAX_SEATS):
            shown.discarded[each, kind] = state.discarded[each, kind]
            shown.waits[each, kind] = state.waits[each, kind]
    for each in range(MAX_SEATS):
        scratch.money[each] = work.money[each]
        for index in range(work.exchange_choices.shape[1]):
            scratch.exchange_choices[each, index] = work.exchange_choices[seat, index] if each == seat else 0
    _seen_by(seat, state, scratch)


@njit(cache=True, inline="always")  # inlined: returning the tuple from a call would count references on its arrays
def numba_observation(seat, n_legal, state, rules, work, view, win_chance):
    """The observation of the actor, its legal actions the first `n_legal` of work.legal, built in the
    seat's copies `view` (sim.players.player_view.PlayerView); work.money must hold each seat's money so far (the
    engine fills it from the deal's record); `win_chance` is the slot of sim.core.win_chances.WinChanceLog the
    seat may report in."""
    shown, scratch = view.state, view.work
    show_to(seat, state, work, shown, scratch)
    for index in range(n_legal):
        scratch.legal[index] = work.legal[index]
    unseen_counts(seat, state, rules.tile_set, scratch.unseen)
    table = state.table
    decision = table[DECISION]
    tile, win_value = -1, -1
    if decision == DECISION_TURN:
        tile = table[DRAWN]
    elif decision == DECISION_CLAIM or decision == DECISION_ROB:
        tile = table[OFFER]
    if (decision == DECISION_TURN or decision == DECISION_CLAIM or decision == DECISION_ROB) and table[WIN_ALLOWED]:
        win_value = table[WIN_VALUE]
    picked = scratch.exchange_choices[seat, : table[PICKED] if decision == DECISION_EXCHANGE else 0]
    seen = scratch.seen_table
    player_scratch = NumbaWork(scratch.shanten_scratch, scratch.distances, scratch.shanten_after_discard,
                               scratch.fan_counts)
    return NumbaObservation(
        seat, table[N_SEATS], decision, scratch.legal[:n_legal], tile, shown.hands[seat], table[N_MELDS + seat],
        scratch.seen_melds, shown.visible, shown.discarded, scratch.unseen, seen[DECLARED_VOID : DECLARED_VOID + MAX_SEATS],
        seen[WON : WON + MAX_SEATS], seen[DECLARED : DECLARED + MAX_SEATS], shown.waits, scratch.money, win_value, picked,
        seen, view.rules, player_scratch, win_chance,
    )

"""What a 血战 seat observes at a decision: the ``Observation`` a user player's ``act`` receives.

It reads the live state of the deal (``sim.xuezhan.table``) and the deal's record row, and shows only what
the seat may see: its own concealed tiles, every seat's exposed melds (another seat's concealed kongs
without their kind), the discards and the copies on the table, the wall's size, and the public facts:
dealer, turn, each seat's 报叫 and its declared waits, its void suit once declared (定缺), who has won and
left the deal, and each seat's money so far in the deal. Arrays are numpy copies, built when first read,
so a player that reads little pays little; an observation describes one decision and must not be kept past
its ``act`` call (copy what you keep: the arrays are).
"""

import numpy as np

from kernels.tiles import MELD_CONCEALED_KONG, MELD_PONG
from sim.actions import DECISION_CLAIM, DECISION_EXCHANGE, DECISION_NAMES, DECISION_ROB, DECISION_TURN
from sim.notation import format_tiles, tile_name
from sim.user_players import legal_list, legal_mask
from sim.xuezhan.table import (
    ACTOR,
    DEALER,
    DECISION,
    DECLARED,
    DECLARED_VOID,
    DRAWN,
    N_MELDS,
    N_SEATS,
    OFFER,
    PICKED,
    TURN,
    WIN_ALLOWED,
    WIN_VALUE,
    WON,
    wall_left,
)

HIDDEN = -1  # the kind shown for another seat's concealed kong


def _meld_text(code: int, low: int) -> str:
    """A meld in the notation of hands: ``[555p]``, ``[5555p]``, ``(5555p)`` when concealed, ``(????)`` for
    another seat's concealed kong."""
    if low == HIDDEN:
        return "(????)"
    name = tile_name(low)
    if code == MELD_PONG:
        return f"[{name[0] * 3}{name[1]}]"
    tiles = f"{name[0] * 4}{name[1]}"
    return f"({tiles})" if code == MELD_CONCEALED_KONG else f"[{tiles}]"


class Observation:
    """One decision of one seat. Fields: ``seat``, ``deal``, ``decision`` (``turn``, ``claim``, ``rob``,
    ``opening ready``, ``exchange``, ``void``), ``legal_actions`` (``sim.user_players.Action``: ``code``,
    ``text``), ``legal_codes``, ``legal_mask``, ``hand``, ``drawn``, ``tile``, ``picked``, ``melds``,
    ``n_melds``, ``meld_texts``, ``discards``, ``visible``, ``tiles_left``, ``turn``, ``dealer``,
    ``n_seats``, ``ready``, ``waits``, ``voids``, ``won``, ``money``, ``win_value``, ``ruleset``."""

    def __init__(self, state, work, money, legal_codes, deal: int, ruleset):
        self._state, self._work = state, work
        self.legal_codes = legal_codes  # a tuple of ints
        self.deal = deal
        self.ruleset = ruleset
        table = state.table
        self.seat = int(table[ACTOR])
        self.n_seats = int(table[N_SEATS])
        self._decision = int(table[DECISION])
        self.decision = DECISION_NAMES[self._decision]
        self._money = money  # each seat's units so far, from the deal's record (sim.xuezhan.engine)
        self._actions = None

    @property
    def legal_actions(self):
        if self._actions is None:
            self._actions = legal_list(self.legal_codes)
        return self._actions

    @property
    def legal_mask(self) -> np.ndarray:
        """bool (sim.actions.N_ACTIONS,): True at each legal action's code."""
        return legal_mask(self.legal_codes)

    @property
    def hand(self) -> np.ndarray:
        """int8 (34,): the seat's concealed tiles (the tile just drawn included; in 换三张, the tiles it is
        giving too: see ``picked``)."""
        return self._state.hands[self.seat].copy()

    @property
    def drawn(self):
        """On a turn, the kind just received (None after a pong); None on other decisions."""
        table = self._state.table
        if self._decision != DECISION_TURN or table[DRAWN] < 0:
            return None
        return int(table[DRAWN])

    @property
    def tile(self):
        """On a claim or a rob, the kind on offer (the discard, the tile added to a pong); else None."""
        if self._decision in (DECISION_CLAIM, DECISION_ROB):
            return int(self._state.table[OFFER])
        return None

    @property
    def picked(self) -> tuple:
        """In 换三张, the kinds the seat has chosen to give so far (the next is asked); else empty."""
        if self._decision != DECISION_EXCHANGE:
            return ()
        count = int(self._state.table[PICKED])
        return tuple(int(kind) for kind in self._work.exchange_choices[self.seat, :count])

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
    def n_melds(self) -> tuple:
        table = self._state.table
        return tuple(int(table[N_MELDS + seat]) for seat in range(self.n_seats))

    @property
    def meld_texts(self) -> tuple:
        """Each seat's melds as text: ``[555p]``, ``[5555p]``, ``(1111s)`` for a concealed kong (``(????)``
        for another seat's)."""
        melds = self.melds
        return tuple(
            tuple(_meld_text(int(melds[seat, index, 0]), int(melds[seat, index, 1])) for index in range(count))
            for seat, count in enumerate(self.n_melds)
        )

    @property
    def discards(self) -> np.ndarray:
        """int8 (n_seats, 34): what each seat has discarded."""
        return self._state.discarded[: self.n_seats].copy()

    @property
    def visible(self) -> np.ndarray:
        """int8 (34,): the copies on the table: discards and exposed melds."""
        return self._state.visible.copy()

    @property
    def tiles_left(self) -> int:
        return int(wall_left(self._state.table))

    @property
    def turn(self) -> int:
        return int(self._state.table[TURN])

    @property
    def dealer(self) -> int:
        return int(self._state.table[DEALER])

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

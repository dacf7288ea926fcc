"""Seating a table, the part every family's engine shares: one player per seat read from its text (a built-in
heuristic, a built-in numba player such as ``ev``, or a user's player, hosted outside a worker process), the
Python side of a batch played with users' players (the bridge numba calls to ask a Python or ``exec:`` seat,
and the table that answers it), and how the batch's shared status names a player that failed.

What differs by family stays with the family: its heuristics module and kind codes, its ``Observation``
(``UserTable.observe``), its seat counts, and its loops inside numba."""

import copy
import threading
from dataclasses import dataclass

import numpy as np
from numba import njit, objmode

from sim.core.worker_processes import in_worker
from sim.players.numba_players import MAX_NUMBA_PARAMETERS
from sim.players.player_host import HostedSeat, HostedTable
from sim.players.player_text import split_players
from sim.players.player_view import read_only_state
from sim.players.user_players import builtin_numba_seat, error_text, family_seat, is_user_player, load_user_player

# The status a batch played with users' players shares with its parent (sim.core.worker_processes.engine_status):
# where the loop is, and why it stopped early.
STATUS_DEAL, STATUS_SEAT, STATUS_DECISION, STATUS_ILLEGAL, STATUS_ANSWER = range(5)
ILLEGAL_ANSWER, ILLEGAL_CHANCE = 1, 2  # status[STATUS_ILLEGAL]: an answer not offered, a report not a chance


@njit(cache=True, _nrt=False)
def offered(action, legal, n):
    """Whether `action` is one of the first `n` legal actions: every answer a user's player gives is checked
    against the engine's own list, never the observation's copy."""
    for index in range(n):
        if legal[index] == action:
            return True
    return False


@njit(cache=True)
def no_numba_player(observation, parameters, rng):
    """Stands in the loop for a seat without a numba player; never called."""
    return observation.legal[0], rng


# ------------------------------------------------------------------------------------- asking Python


# The batch each thread is playing with users' players (a Dask worker may play two shards at once).
ASKING = threading.local()


def _deal_begins(deal, row):
    ASKING.table.begin_deal(deal, row)


def _ask_user(n_legal):
    return ASKING.table.ask(n_legal)


# The two calls into Python are functions of their own: a loop holding an object-mode block cannot be
# inlined, and the engines' loops are inlined into a cached and an uncached copy.
@njit(cache=True)
def tell_deal_begins(deal, row):
    with objmode():
        _deal_begins(deal, row)


@njit(cache=True)
def ask_python(n_legal):
    with objmode(action="int64"):
        action = _ask_user(n_legal)
    return action


class UserTable:
    """The batch being played with users' players, for the Python calls of a family's loop: the state arrays
    (the same memory the engine writes, read-only here), the records, the seats and the deal in play. A
    family's subclass says what a seat observes (``observe``)."""

    def __init__(self, ruleset, seats, seed, state, work, chances, records=None):
        # the players' own copy of the ruleset: one that changes it cannot change the next batch's rules
        self.ruleset, self.seats, self.seed = copy.deepcopy(ruleset), seats, seed
        self.work, self.records, self.chances = work, records, chances
        self.state = read_only_state(state)  # what a Python player's observation reads: it cannot write there
        self.deal, self.row = -1, -1

    def begin_deal(self, deal, row):
        self.deal, self.row = deal, row
        for seat, user in enumerate(self.seats):
            if user is not None and user.kind != "numba":
                user.begin_deal(seat, self.ruleset, self.seed, deal)

    def observe(self, legal: list):
        """The family's ``Observation`` of the seat to act, offered `legal` (action codes)."""
        raise NotImplementedError

    def ask(self, n_legal):
        observation = self.observe(self.work.legal[:n_legal].tolist())
        action = self.seats[observation.seat].decide(observation)
        if observation.win_chance is not None:
            self.chances.chance[0] = observation.win_chance
        return action


def is_numba(user) -> bool:
    return user is not None and user.kind == "numba"


def numba_functions(users) -> tuple[list, np.ndarray, np.ndarray]:
    """The distinct numba functions of the seats in order of first seat, each seat's among them (-1: none)
    and each seat's parameter vector: the loop's type then depends on which functions play, not on where
    they sit."""
    acts = list(dict.fromkeys(user.act for user in users if is_numba(user)))
    functions = np.array([acts.index(user.act) if is_numba(user) else -1 for user in users], np.int64)
    parameters = np.stack([user.parameters if is_numba(user) else np.zeros(MAX_NUMBA_PARAMETERS) for user in users])
    return acts, functions, parameters


def numba_failure(users, status, error: BaseException):
    """The ``PlayerFailure`` of the numba player whose seat the loop was asking when `error` was raised, or
    None where no numba player was (the error is then the engine's own)."""
    seat = int(status[STATUS_SEAT])
    user = users[seat] if 0 <= seat < len(users) else None
    return user.failure(status, f"raised {error_text(error)}") if is_numba(user) else None


def check_answers(users, status, chances) -> None:
    """Raise the ``PlayerFailure`` of the seat whose answer or reported chance stopped the loop, if one did."""
    if status[STATUS_ILLEGAL] == ILLEGAL_ANSWER:
        user = users[int(status[STATUS_SEAT])]
        raise user.failure(status, f"answered {int(status[STATUS_ANSWER])}, not a legal action,")
    if status[STATUS_ILLEGAL] == ILLEGAL_CHANCE:
        user = users[int(status[STATUS_SEAT])]
        raise user.failure(status, f"reported a win chance of {float(chances.chance[0])!r}, not a number from 0 to 1,")


# ------------------------------------------------------------------------------------- the seats


@dataclass(frozen=True)
class SeatedPlayers:
    """Each seat's player: heuristic ids (the family's USER or NUMBA code for a user's player), parameter
    vectors, their canonical texts (``greedy:claim=1,...``, or the user player's text), and the user players'
    seats (None where built in). A family's ``engine.Players`` subclasses it with its own ``parse``."""

    kinds: np.ndarray
    parameters: np.ndarray
    names: tuple[str, ...]
    users: tuple = ()
    host: HostedTable | None = None  # where a table with users' players plays (sim.players.player_host)

    @property
    def has_users(self) -> bool:
        return any(user is not None for user in self.users)

    def close(self):
        """End the user players' programs (``exec:`` players) and their host; built-in and Python players
        need nothing."""
        for user in self.users:
            if user is not None:
                user.close()
        if self.host is not None:
            self.host.close()


def seat_texts(texts, heuristics, parse_player, engine: str, kinds: tuple[int, int], users=None) -> tuple:
    """The fields of a ``SeatedPlayers`` (kinds, parameter vectors, names, users, host) for `texts`, one per
    seat: a heuristic through `parse_player(text)`, a built-in numba player (``heuristics.NUMBA_PLAYERS``) or
    a user's player, whose kind is ``kinds`` = (USER, NUMBA). Users' players are loaded here only in a worker
    process; elsewhere the table is hosted in one (sim.players.player_host) by the engine module `engine`.
    `users`: user players already loaded, by seat (None where there is none), reused for their texts. A text
    with a prefix the family offers seats of its own for (``user_players.family_seat``) is seated by that class."""
    if isinstance(texts, str):
        texts = split_players(texts)
    user_kind, numba_kind = kinds
    hosted = not in_worker() and any(builtin_numba_seat(text, heuristics.NUMBA_PLAYERS) is None
                                     and (family_seat(text, heuristics) is not None
                                          or is_user_player(text, heuristics.NAMES)) for text in texts)
    codes, vectors, names, seated = [], [], [], []
    for seat, text in enumerate(texts):
        builtin = builtin_numba_seat(text, heuristics.NUMBA_PLAYERS)
        own = family_seat(text, heuristics)
        if builtin is not None or own is not None or is_user_player(text, heuristics.NAMES):
            known = users[seat] if users is not None and seat < len(users) and not hosted else None
            if known is not None or builtin is not None:
                user = known or builtin
            elif hosted:
                user = HostedSeat(text, own)
            else:
                user = own(text) if own is not None else load_user_player(text)
            seated.append(user)
            codes.append(numba_kind if user.kind == "numba" else user_kind)
            vectors.append(np.zeros(heuristics.N_PARAMETERS))
            names.append(user.text if builtin is not None else text.strip())
        else:
            kind, vector, name = parse_player(text)
            seated.append(None)
            codes.append(kind)
            vectors.append(vector)
            names.append(name)
    host = HostedTable(engine, list(texts), len(texts)) if hosted else None
    return np.array(codes, np.int64), np.stack(vectors), tuple(names), tuple(seated), host


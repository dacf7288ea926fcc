"""The step environment, the part every family shares (docs/write-a-player.md#a-step-environment): the engine
of `mjsim run` stopped at each decision of an agent's seat, for search and learning.

This module owns what does not depend on the game: seating any player as an opponent and asking the
Python ones (numba ones answer inside the families' kernels), refusing a
bad argument (a seed, deal or dealer out of range, an action that is not an integer code, an illegal
step) in Python before it reaches numba, which would wrap, truncate or read out of bounds, the legal-action
mask, the agent-environment cycle (the seat to
act observes, then acts) and the checks of the batched form. ``sim.families.environment`` finds the family
of a ruleset and builds its environment (``make_environment``, ``make_batch_environment``). Each family's ``sim.<family>.environment`` holds its numba kernels (running a deal on to the
next agent decision, settling a finished deal's money, stepping many tables at once) and subclasses
``StepEnvironment`` and ``BatchStepEnvironment``.
"""

import contextlib
import copy
import math
import operator
import warnings
from dataclasses import dataclass, field
from numbers import Real
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.core.actions import N_ACTIONS
from sim.core.ruleset import Ruleset, load_ruleset
from sim.core.win_chances import WinChanceLog, no_log
from sim.core.worker_processes import ENGINE_STATUS_SLOTS, players_in_this_process
from sim.players.player_text import PlayerError
from sim.players.player_view import PlayerView, new_player_view, read_only_state
from sim.players.seating import (
    STATUS_DEAL,
    STATUS_ILLEGAL,
    STATUS_SEAT,
    check_answers,
    no_numba_player,
    numba_failure,
    numba_functions,
    seat_texts,
)
from sim.players.user_players import Action, PlayerFailure

MAX_TABLES = 1_000_000
MAX_THREADS = 256
MAX_SEED = 2**64 - 1  # a seed is hashed as an unsigned 64-bit number (sim.core.random_streams)
MAX_DEAL = 2**63 - 1  # a deal's number is a signed 64-bit number in the engines


def whole_number(value, name: str, low: int, high: int) -> int:
    """`value` as an int, if it is a whole number from `low` to `high`: an int, a numpy integer or anything
    else Python takes as an index (``operator.index``), not a bool and not a float, even an integral one
    (a float where a count or a code belongs is a mistake more often than not). TypeError or ValueError."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a whole number, not the bool {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be a whole number, not {value!r} ({type(value).__name__})") from None
    if not low <= number <= high:
        raise ValueError(f"{name} must be from {low:,} to {high:,}, not {number:,}")
    return number


def checked_seed(seed) -> int:
    return whole_number(seed, "seed", 0, MAX_SEED)


def checked_deal(deal) -> int:
    return whole_number(deal, "deal", 0, MAX_DEAL)


def checked_dealer(dealer, n_seats: int) -> int:
    """A dealer seat given to ``reset``: one of the table's seats (the engine trusts it, so a seat the table
    does not have would be read out of its arrays' bounds)."""
    return whole_number(dealer, f"the dealer (a seat of this table of {n_seats})", 0, n_seats - 1)


def checked_money(stake, fee) -> tuple[float, float]:
    """(stake, fee) as floats: finite real numbers, the stake positive and the fee not negative, as a
    room's (sim.core.rooms)."""
    values = []
    for name, value, low in (("stake", stake, 0.0), ("fee", fee, 0.0)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
            raise TypeError(f"{name} must be a number, not {value!r} ({type(value).__name__})")
        value = float(value)
        if not math.isfinite(value) or value < low or (name == "stake" and value == 0):
            raise ValueError(f"{name} must be a finite number, {'positive' if name == 'stake' else 'not negative'}; "
                             f"not {value!r}")
        values.append(value)
    return values[0], values[1]


def step_code(action) -> int:
    """The integer code of an action given to ``step``: an ``Action`` or its code (an int or numpy integer).
    A float is refused even when integral: action codes are names, not quantities, and a float here is
    more likely a probability or a value passed by mistake (Gymnasium's Discrete spaces refuse them too).
    Whether the code is legal is the caller's check."""
    if isinstance(action, Action):
        action = action.code
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"an action is an Action or its integer code, not the bool {action!r}")
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action is an Action or its integer code, not {action!r} ({type(action).__name__})") from None


def ruleset_of(ruleset, family: str | None = None) -> Ruleset:
    """A ruleset given by name, file or ``Ruleset``; with `family`, one of that family's (a family's engine
    reads another's settings as its own)."""
    if isinstance(ruleset, (str, Path)):
        ruleset = load_ruleset(ruleset)
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"a ruleset is a name (such as 'erren'), a .toml file or a Ruleset, not {ruleset!r}")
    if family is not None and ruleset.family != family:
        raise ValueError(f"this environment plays family-{family} rulesets, not {ruleset.id} (family {ruleset.family}): "
                         f"make_environment finds a ruleset's own")
    return ruleset


ASKING_NUMBA = 3  # status[STATUS_ILLEGAL] while a numba opponent is asked: left there if it raises, naming it
OPPONENT = -3  # the kind of a seat whose Python or exec: opponent is asked through Python (agents: the engine's USER)


class QuietlyCompiled:
    """A kernel that takes the numba opponents' functions as values (a family's asking kernels). numba calls
    such values "first-class functions" and warns, as it compiles, that the feature is experimental; we rely
    on it knowingly (its use is pinned by the twin tests of the opponents), so the warning is hidden for the
    call that compiles, and later calls pay one check."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, *arguments):
        if self.kernel.signatures:
            return self.kernel(*arguments)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
            return self.kernel(*arguments)


@dataclass
class Opponents:
    """The players a step environment seats itself (``seat_opponents``): per seat, the engine's kind code
    (a heuristic's id, the family's NUMBA, ``OPPONENT`` for a Python or ``exec:`` player, the family's USER
    for an agent's seat), heuristic parameters, the user player's seat (None for a heuristic or an agent) and
    the name ``mjsim replay`` gives the player (None for an agent); and what a numba seat is answered with
    inside numba (``sim.players.seating.numba_functions``)."""

    kinds: np.ndarray
    parameters: np.ndarray
    users: tuple
    names: tuple
    acts: tuple  # the distinct numba functions, padded with ``no_numba_player`` to the family's count
    functions: np.ndarray  # each seat's index among `acts` (-1: none)
    user_parameters: np.ndarray  # each numba seat's parameter vector
    status: np.ndarray = field(default_factory=lambda: np.zeros(ENGINE_STATUS_SLOTS, np.int64))
    chances: WinChanceLog = field(default_factory=no_log)  # a numba seat's report of its chance, checked, not kept

    @property
    def numba(self) -> bool:
        """Whether a numba player sits at the table (its seats are answered by the numba kernels)."""
        return bool((self.functions >= 0).any())

    def close(self) -> None:
        for user in self.users:
            if user is not None:
                user.close()


def seat_opponents(opponents, n_seats: int, players, kinds: tuple[int, int], n_functions: int) -> Opponents:
    """The `opponents` ({seat: player text}) of a table of `n_seats`, read as ``mjsim run --players`` reads
    them (``sim.players.seating.seat_texts``: a heuristic, ``ev`` or another built-in numba player, a user's
    numba, Python or ``exec:`` player; `players` is the family's players module, `kinds` its (USER, NUMBA)),
    the other seats the agent's. Users' players are loaded in this process (docs/learning.md#opponents says
    why); an unknown or broken player raises its ``PlayerError``. At most `n_functions` distinct numba
    functions (the family's loops take that many)."""
    user_kind, numba_kind = kinds
    if opponents is not None and not isinstance(opponents, dict):
        raise TypeError(f"opponents must be a dict of seat: player text, not {type(opponents).__name__}")
    texts = {}
    for seat, text in (opponents or {}).items():
        seat = whole_number(seat, f"an opponent's seat (a table of {n_seats} seats)", 0, n_seats - 1)
        if not isinstance(text, str):
            raise TypeError(f"seat {seat}'s opponent must be a player's text, such as 'greedy' or 'ev', not {text!r}")
        texts[seat] = text
    if len(texts) == n_seats:
        # no seat would be left to the agent: the table would play on for ever without asking it
        raise ValueError(f"opponents fill all {n_seats} seats: leave at least one seat to the agent")
    kind_codes = np.full(n_seats, user_kind, np.int64)
    parameters = np.zeros((n_seats, players.N_PARAMETERS))
    users, names = [None] * n_seats, [None] * n_seats
    if texts:
        with players_in_this_process():  # load users' players here, as a worker would, never in a host
            seated_kinds, vectors, seated_names, seated_users, _ = seat_texts(
                list(texts.values()), players, players.parse_player, "", (OPPONENT, numba_kind))
        for index, seat in enumerate(texts):
            kind_codes[seat], parameters[seat] = seated_kinds[index], vectors[index]
            users[seat], names[seat] = seated_users[index], seated_names[index]
    acts, functions, user_parameters = numba_functions(users)
    if len(acts) > n_functions:
        raise PlayerError(f"at most {n_functions} different numba players can sit at one table, not {len(acts)}")
    return Opponents(kind_codes, parameters, tuple(users), tuple(names),
                     (*acts, *[no_numba_player] * (n_functions - len(acts))), functions, user_parameters)


def seated_in_batch(opponents, n_seats: int, players, kinds: tuple[int, int], n_functions: int) -> Opponents:
    """``seat_opponents`` for a batched table, which seats heuristics and numba players only: they answer
    inside the batch's numba loop, while a Python or exec: player answers through Python, one decision at a
    time. Those are refused (ValueError) with a pointer to the step environment, which seats them."""
    seated = seat_opponents(opponents, n_seats, players, kinds, n_functions)
    refused = [user.text for user in seated.users if user is not None and user.kind != "numba"]
    if refused:
        seated.close()
        raise PlayerError(f"{refused[0]}: a batched environment seats heuristics and numba players only (they answer "
                          "inside its numba loop); seat a Python or exec: player in the step environment (Environment)")
    return seated


class ThreadViews(NamedTuple):
    """What the numba opponents of a batch see through, one set per thread, each field stacked over the
    threads (numba's parallel loops take no tuple of named tuples): the family's State and Work of the
    player views (sim.players.player_view), the rules copied once, the parameters, and each thread's
    status and chance report (the loop's, as mjsim run's)."""

    states: tuple
    works: tuple
    rules: tuple
    parameters: np.ndarray
    statuses: np.ndarray
    reports: WinChanceLog

    def view(self, thread: int) -> PlayerView:
        return PlayerView(type(self.states)(*(array[thread] for array in self.states)),
                          type(self.works)(*(array[thread] for array in self.works)), self.rules,
                          self.parameters[thread])

    def reports_of(self, thread: int) -> WinChanceLog:
        return WinChanceLog(*(array[thread] for array in self.reports))


def _stacked(tuples):
    """Named tuples of arrays, one per thread, as one named tuple of arrays stacked field by field."""
    return type(tuples[0])(*(np.stack(arrays) for arrays in zip(*tuples, strict=True)))


class StepEnvironment:
    """One table stepped one decision at a time. A family's subclass sets ``ruleset``, ``n_seats``, ``state``,
    ``work`` (whose ``legal`` holds the pending decision's legal actions), ``wall``, ``record``, ``rules``, ``rewards``,
    ``ACTOR`` (the actor's slot of ``state.table``) and ``encoding`` (its ``sim.<family>.encoding``), and
    provides ``reset``, ``observation`` and the two engine calls below."""

    ACTOR = -1
    DECISION = -1
    NO_ANSWER = -1
    encoding = None
    deal = -1
    _legal = ()

    def encoding_bounds(self, oracle: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The low and high int16 vectors of ``encode``'s vector (docs/learning.md#the-observation)."""
        return self.encoding.bounds(bool(oracle))

    def encode(self, seat, oracle: bool = False) -> np.ndarray:
        """What `seat` sees of the deal as numbers (int16; the family's ``encoding`` names the blocks), at
        any moment after ``reset``, the end of the deal included; `oracle` adds the tiles it cannot see."""
        seat = whole_number(seat, f"seat (a table of {self.n_seats} seats)", 0, self.n_seats - 1)
        if self.deal < 0:
            raise ValueError("reset the environment before encoding what a seat sees")
        out = np.zeros(self.encoding.ORACLE_SIZE if oracle else self.encoding.SIZE, np.int16)
        self._prepare_encoding()
        self.encoding.encode(seat, seat == self.agent_selection, self.state, self.work, self.wall, self.record, self.rules,
                             out)
        return out

    def _prepare_encoding(self) -> None:
        """Fill what a family's encoding reads besides the state (the 血战 money so far in ``work``)."""

    def _seat(self, opponents, players, kinds: tuple[int, int], n_functions: int) -> None:
        """Seat `opponents` (``seat_opponents``) at this table, whose ``ruleset``, ``state`` and ``rules`` are set."""
        self.opponents = seat_opponents(opponents, self.n_seats, players, kinds, n_functions)
        self.kinds, self.parameters = self.opponents.kinds, self.opponents.parameters
        self._shown_ruleset = copy.deepcopy(self.ruleset)  # a Python opponent's own copy, as in mjsim run
        self._shown_state = read_only_state(self.state)  # what its observation reads: it cannot write there

    def _player_view(self, new_state, new_work, n_parameters: int):
        """What a numba opponent sees its decisions through (sim.players.player_view), None without one."""
        return new_player_view(new_state(), new_work(), self.rules, n_parameters) if self.opponents.numba else None

    def _begin_opponents(self, seed: int, deal: int) -> None:
        """Tell the Python and exec: opponents a deal begins, as mjsim run does (their deal's generator)."""
        status = self.opponents.status
        status[:] = 0
        status[STATUS_DEAL], status[STATUS_SEAT:STATUS_ILLEGAL] = deal, -1
        for seat, user in enumerate(self.opponents.users):
            if user is not None and user.kind != "numba":
                user.begin_deal(seat, self._shown_ruleset, seed, deal)

    def _run_engine(self, code: int) -> int:
        """Answer the pending decision with `code`, then every decision the engine answers itself (heuristics,
        numba opponents, single legal actions); the number of legal actions of the decision Python must
        answer (an agent's or a Python opponent's), 0 once the deal is over, -1 when a numba opponent
        answered illegally (its ``status`` says how)."""
        raise NotImplementedError

    def _opponent_observation(self, legal: list):
        """The family's ``Observation`` of the opponent to act, as mjsim run builds it for a Python player."""
        raise NotImplementedError

    def _opponent_fault(self, seat: int) -> int:
        """Mark an exec: opponent's fault in the deal's record; the engine's safe default answer."""
        raise NotImplementedError

    def _run_to_agent(self, code: int) -> int:
        """Answer the pending decision with `code` (already checked legal; NO_ANSWER after a deal), then
        every decision that is not an agent's choice, each opponent's answered by its player as in mjsim run;
        the agent's number of legal actions then (0: over). A failing opponent raises its PlayerFailure."""
        opponents = self.opponents
        while True:
            try:
                n = self._run_engine(code)
            except PlayerFailure:
                raise
            except Exception as error:  # raised inside a numba opponent
                failure = numba_failure(opponents.users, opponents.status, error)
                if failure is None:
                    raise
                raise failure from None
            if n < 0:
                check_answers(opponents.users, opponents.status, opponents.chances)
            if n <= 0:
                return 0
            seat = int(self.state.table[self.ACTOR])
            user = opponents.users[seat]
            if user is None:
                return n
            opponents.status[STATUS_SEAT:STATUS_ILLEGAL] = seat, self.state.table[self.DECISION]
            code = user.decide(self._opponent_observation(self.work.legal[:n].tolist()))
            if code < 0:  # an exec: player's fault: its seat plays the safe default for the rest of the deal
                code = self._opponent_fault(seat)

    def close(self) -> None:
        """End the opponents' programs (exec: players); nothing else needs closing. The table plays no more."""
        self.opponents.close()

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()

    def _settle(self):
        """Write the finished deal's money into ``rewards``."""
        raise NotImplementedError

    def _advance(self, code: int = NO_ANSWER):
        n = self._run_to_agent(code)
        self._legal = tuple(self.work.legal[:n].tolist())
        self.rewards[:] = 0.0
        if n == 0:
            self._settle()
        return self.observation

    @property
    def terminated(self) -> bool:
        return not self._legal

    @property
    def agent_selection(self):
        """The seat to act, None once the deal is over."""
        return None if self.terminated else int(self.state.table[self.ACTOR])

    @property
    def legal_mask(self) -> np.ndarray:
        """bool (sim.core.actions.N_ACTIONS,): True at each legal action's code of the pending decision."""
        mask = np.zeros(N_ACTIONS, bool)
        mask[list(self._legal)] = True
        return mask

    def step(self, action):
        """Answer the pending decision with `action` (an ``Action`` or its integer code); returns the next
        observation, None once the deal is over (then ``rewards`` holds its money). A value that is not an
        action is refused (TypeError), an illegal action too (``PlayerFailure``), and the table is left as
        it was."""
        code = step_code(action)
        if self.terminated:
            raise PlayerFailure("the deal is over: reset the environment before stepping it")
        if code not in self._legal:
            raise PlayerFailure(f"{code} is not a legal action here; legal: {', '.join(map(str, self._legal))}")
        return self._advance(code)


OBSERVATIONS = ("seat", "oracle", "none")  # what a batch encodes at each step (BatchStepEnvironment)


class BatchStepEnvironment:
    """Many tables stepped together inside numba. A family's subclass allocates the arrays of its tables
    (``_allocate`` those every family has: ``tables``, each table's scalar fields, all zero reading as a deal
    over; ``next_deal``, ``masks``, ``rewards``, ``finished``, ``steps``, the encodings, ...) and provides
    ``_step(actions)``, its numba kernel (a negative action: none, as at the start).

    Episodes end as Gymnasium's vector environments say of their "same-step" autoreset mode
    (``AUTORESET_MODE``): a table whose deal ends in a step is dealt its next deal in that same step, so what
    the step returns for it (``actors``, ``hands``, ``masks``, ``observations``) is the new deal's first
    decision, while ``terminated`` (also ``finished``) marks it, ``rewards`` holds the ended deal's money and
    ``final_observations`` every seat's encoding at the ended deal's end."""

    AUTORESET_MODE = "same-step"

    def __init__(self, n_tables: int, threads: int, observation: str = "seat"):
        n_tables = whole_number(n_tables, "n_tables", 1, MAX_TABLES)
        self.threads = whole_number(threads, "threads (at most the number of tables)", 1, min(n_tables, MAX_THREADS))
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        self.n, self.observation = n_tables, observation

    def _allocate(self, state, table_fields: int, template, n_seats: int, encoding) -> None:
        """The arrays every family's batch holds for its `n` tables: each table's deal (``hands_all``, ``melds``,
        ``visible``, ``tables``, ``discarded``: shaped as the family's `state`; ``walls`` from `template`), what
        a step hands back (``actors``, the seat to act; ``hands``, its concealed tiles; ``masks``, ``rewards``
        for `n_seats` seats, ``finished`` and ``deals_ended``; ``observations`` and ``final_observations``,
        the family's `encoding` of the seat to act and of every seat at a deal's end, with no entries when
        the batch encodes nothing), the decisions each thread answered (``steps``) and each table's next deal
        (table b plays deals b, b + n, ...). ``hands_all`` and ``walls`` hold what no seat sees: not for a
        policy's input."""
        n = self.n
        self.hands_all = np.zeros((n, *state.hands.shape), np.int8)
        self.melds = np.zeros((n, *state.melds.shape), np.int8)
        self.visible = np.zeros((n, *state.visible.shape), np.int8)
        self.tables = np.zeros((n, table_fields), np.int64)
        self.discarded = np.zeros((n, *state.discarded.shape), np.int8)
        self.walls = np.tile(template, (n, 1))
        self.actors = np.zeros(n, np.int64)
        self.hands = np.zeros((n, state.hands.shape[1]), np.int8)
        self.masks = np.zeros((n, N_ACTIONS), bool)
        self.rewards = np.zeros((n, n_seats))
        self.finished = np.zeros(n, bool)
        self.deals_ended = np.zeros(n, np.int64)
        size = {"seat": encoding.SIZE, "oracle": encoding.ORACLE_SIZE, "none": 0}[self.observation]
        self.observations = np.zeros((n, size), np.int16)
        self.final_observations = np.zeros((n, n_seats, size), np.int16)
        self.encoding = encoding
        self.steps = np.zeros(self.threads, np.int64)
        self.next_deal = np.arange(n, dtype=np.int64)

    def _step(self, actions):
        raise NotImplementedError

    def _thread_views(self, new_state, new_work, n_parameters: int) -> ThreadViews:
        """One player view per thread for the batch's numba opponents (the rules copied once for all)."""
        rules = new_player_view(new_state(), new_work(), self.rules, n_parameters).rules
        views = [new_player_view(new_state(), new_work(), rules, n_parameters, copy_rules=False)
                 for _ in range(self.threads)]
        return ThreadViews(_stacked([view.state for view in views]), _stacked([view.work for view in views]), rules,
                           np.zeros((self.threads, n_parameters)), np.zeros((self.threads, ENGINE_STATUS_SLOTS), np.int64),
                           _stacked([no_log() for _ in range(self.threads)]))

    @contextlib.contextmanager
    def _opponents_checked(self):
        """Around a step: a numba opponent that raised, answered illegally or reported no chance becomes its
        ``PlayerFailure``, naming the table, the player, the deal, the seat and the decision. The batch is
        then part stepped: reset it."""
        views = getattr(self, "_views", None)
        if views is None:
            yield
            return
        statuses, users = views.statuses, self.opponents.users
        statuses[:] = 0
        try:
            yield
        except PlayerFailure:
            raise
        except Exception as error:
            asked = np.flatnonzero(statuses[:, STATUS_ILLEGAL] == ASKING_NUMBA)
            failure = numba_failure(users, statuses[asked[0]], error) if asked.size else None
            if failure is None:
                raise
            raise failure from None
        for thread in np.flatnonzero(statuses[:, STATUS_ILLEGAL] != 0):
            table = int(np.flatnonzero(self.actors < 0)[0])
            try:
                check_answers(users, statuses[thread], views.reports_of(thread))
            except PlayerFailure as failure:
                raise PlayerFailure(f"table {table}: {failure}") from None

    def close(self) -> None:
        """The batch seats no program: nothing to end (for code that closes any environment)."""

    def reset(self):
        """Deal every table its first deal (table b: deal b); the next ``step`` answers their decisions."""
        self.next_deal[:] = np.arange(self.n)
        self.tables[:] = 0  # every table "over": the step below deals it
        self._step(np.full(self.n, -1, np.int64))
        self.finished[:] = False
        self.deals_ended[:] = 0
        self.final_observations[:] = 0
        self.rewards[:] = 0.0
        self.steps[:] = 0

    def step(self, actions):
        """Answer every table's pending decision: actions[b], an integer code, must be legal in masks[b].
        An array that is not one integer code per table is refused (TypeError, ValueError: floats are,
        even integral ones, as ``step`` of one table refuses them), an illegal action too
        (``PlayerFailure``), before any table moves."""
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions must be integer action codes, not an array of {actions.dtype}")
        if actions.shape != (self.n,):
            raise ValueError(f"one action per table: an array of shape ({self.n},), not {actions.shape}")
        in_range = (actions >= 0) & (actions < N_ACTIONS)
        if not in_range.all():
            table = int(np.flatnonzero(~in_range)[0])
            raise ValueError(f"table {table}: action {int(actions[table])} is not an action code (0 to {N_ACTIONS - 1})")
        actions = actions.astype(np.int64)
        chosen = self.masks[np.arange(self.n), actions]
        if not chosen.all():
            table = int(np.flatnonzero(~chosen)[0])
            raise PlayerFailure(f"table {table}: action {int(actions[table])} is not legal there")
        self._step(actions)

    @property
    def terminated(self) -> np.ndarray:
        """bool (n,): the tables whose deal ended in the last step (then dealt anew: ``AUTORESET_MODE``)."""
        return self.finished

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The low and high int16 vectors of one row of ``observations``."""
        if self.observation == "none":
            return np.zeros(0, np.int16), np.zeros(0, np.int16)
        return self.encoding.bounds(self.observation == "oracle")

    @property
    def decisions(self) -> int:
        """Decisions answered since ``reset``."""
        return int(self.steps.sum())

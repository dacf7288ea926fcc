"""A step environment over the 国标 (MCR) engine, for search and learning (docs/write-a-player.md#a-step-environment).

``Environment`` is one four-seat table stepped decision by decision (the agent-environment cycle of
``sim.players.environment``, which owns the stepping, its checks and the masks): ``reset(seed, deal)`` deals,
``observation`` is what the seat to act sees (``sim.mcr.observation.Observation``), ``step(action)`` answers
it and runs the deal on to the next decision of an agent's seat with a choice. Seats given to ``opponents``
are played inside the engine as ``mjsim run`` plays them: a heuristic or a user's numba player inside numba,
a Python or ``exec:`` player through Python. When the deal ends, ``rewards`` holds each seat's money as
``mjsim run`` settles it: the record's ``money_s`` points x ``stake``, less ``fee``.

A deal's dealer and round wind come from its place in the match (``sim.mcr.engine.match_position``), as in
``mjsim run``; ``reset`` may name another dealer, the round wind staying the match's.

``BatchEnvironment`` steps many tables at once inside numba, each finished table dealt its next deal at
once. Between decisions an MCR deal keeps nothing in the engine's work arrays but the seats' random
streams, so every table has its own streams and the tables one thread steps share that thread's work
arrays. The engine is the one ``mjsim run`` plays: driven with ``greedy``'s own answers, both give the
records of ``mjsim run`` deal for deal (a test).
"""

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from kernels.fan_ids import N_FANS
from sim.core import win_chances
from sim.core.event_logs import DealLog
from sim.mcr import encoding, engine
from sim.mcr import players as players_module
from sim.mcr.encoding import encode
from sim.mcr.engine import (
    MATCH_DEALER,
    MAX_EVENTS,
    NO_ANSWER,
    NO_VIOLATION,
    NUMBA,
    PLAYER_FAULT,
    R_FAULTED,
    R_MONEY,
    R_VIOLATION,
    RECORD_WIDTH,
    begin_deal,
    builtin_action,
    play_to_user,
)
from sim.mcr.observation import Observation, SeenWork, new_seen_work, numba_observation
from sim.mcr.table import ACTOR, DECISION, SEATS, TABLE_FIELDS, State, Work, legal_actions, new_state, new_work
from sim.players.environment import (
    ASKING_NUMBA,
    BatchStepEnvironment,
    QuietlyCompiled,
    StepEnvironment,
    checked_deal,
    checked_dealer,
    checked_money,
    checked_seed,
    ruleset_of,
    seated_in_batch,
    whole_number,
)
from sim.players.numba_players import MAX_NUMBA_PARAMETERS
from sim.players.player_view import PlayerView
from sim.players.seating import (
    ILLEGAL_ANSWER,
    ILLEGAL_CHANCE,
    STATUS_ANSWER,
    STATUS_DEAL,
    STATUS_DECISION,
    STATUS_ILLEGAL,
    STATUS_SEAT,
    offered,
)

SEAT_KINDS = (engine.USER, NUMBA)


def _seat_count(ruleset, n_seats):
    """MCR seats four: `n_seats` may be given (the learning environments pass every family's), and must be 4."""
    n_seats = ruleset.players[0] if n_seats is None else whole_number(n_seats, "n_seats", 0, SEATS)
    if n_seats not in ruleset.players:
        raise ValueError(f"{ruleset.id} is played by {' or '.join(map(str, ruleset.players))} players, not {n_seats}")
    return n_seats


@njit(cache=True, _nrt=False)
def _deal_money(record, stake, fee, rewards):
    """Add each seat's money from a finished deal's record to `rewards`: its points x stake, less the fee."""
    for seat in range(SEATS):
        rewards[seat] += record[R_MONEY + seat] * stake - fee


@njit(cache=True, _nrt=False)
def _run_to_agent(action, kinds, parameters, wall, rules, state, work, events, record, fans):
    """Answer the pending decision with `action` (NO_ANSWER: none), then every decision that is not an
    agent's choice: a heuristic seat's, or one with a single legal action. Returns the number of legal
    actions of the agent's decision now pending (0: the deal is over)."""
    while play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans, False):
        n = legal_actions(state, rules, work, work.legal)
        if n > 1:
            return n
        action = work.legal[0]
    return 0


@njit(inline="always", _nrt=False)
def _run_asking(act0, act1, act2, act3, seating, action, deal, kinds, parameters, wall, rules, state, work, events,
                record, fans):
    """`_run_to_agent` with numba opponents: a NUMBA seat is answered here, as mjsim run's loop answers it
    (sim.mcr.engine._deals_asking), by its function (act0 .. act3: `seating`'s functions[seat]) on its
    observation in the view's copies, its parameters and its own stream. `seating` is (functions,
    user_parameters, view, status, chances). Returns as `_run_to_agent`, or -1 at an answer not offered or a
    reported chance that is no chance (`status` says which and where)."""
    functions, user_parameters, view, status, chances = seating
    streams = work.streams
    while play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans, False):
        n = legal_actions(state, rules, work, work.legal)
        seat = state.table[ACTOR]
        if n == 1:
            action = work.legal[0]
            continue
        if kinds[seat] != NUMBA:
            return n
        status[STATUS_DEAL], status[STATUS_SEAT], status[STATUS_DECISION] = deal, seat, state.table[DECISION]
        status[STATUS_ILLEGAL] = ASKING_NUMBA  # left there if the player raises: this status names it
        win_chances.ask(chances)
        observation = numba_observation(seat, n, state, rules, work, view, chances.chance)
        shown_parameters = view.parameters
        for index in range(shown_parameters.shape[0]):
            shown_parameters[index] = user_parameters[seat, index]
        function = functions[seat]
        if function == 0:
            action, streams[seat] = act0(observation, shown_parameters, streams[seat])
        elif function == 1:
            action, streams[seat] = act1(observation, shown_parameters, streams[seat])
        elif function == 2:
            action, streams[seat] = act2(observation, shown_parameters, streams[seat])
        else:
            action, streams[seat] = act3(observation, shown_parameters, streams[seat])
        status[STATUS_ILLEGAL] = 0
        if not offered(action, work.legal, n):
            status[STATUS_ILLEGAL], status[STATUS_ANSWER] = ILLEGAL_ANSWER, action
            return -1
        if win_chances.keep(chances, 0, seat, action) != win_chances.KEPT:
            status[STATUS_ILLEGAL] = ILLEGAL_CHANCE
            return -1
    return 0


class Environment(StepEnvironment):
    """One MCR table of four seats. ``reset(seed, deal=0)``, then while not ``terminated``: read
    ``observation`` (of seat ``agent_selection``), ``step(action)``. ``rewards`` (one per seat) holds the
    deal's money once it is over."""

    ACTOR, DECISION = ACTOR, DECISION
    encoding = encoding

    def __init__(self, ruleset="mcr", opponents: dict | None = None, stake: float = 1.0, fee: float = 0.0,
                 n_seats: int | None = None):
        self.ruleset = ruleset_of(ruleset, "mcr")
        self.rules, self.template = engine.kernel_rules(self.ruleset)
        self.n_seats = _seat_count(self.ruleset, n_seats)
        self.stake, self.fee = checked_money(stake, fee)
        self.state, self.work = new_state(), new_work()
        self._seat(opponents, players_module, SEAT_KINDS, SEATS)
        view = self._player_view(new_state, new_seen_work, MAX_NUMBA_PARAMETERS)
        opponents = self.opponents
        self._seating = None if view is None else (opponents.functions, opponents.user_parameters, view,
                                                   opponents.status, opponents.chances)
        self.wall = self.template.copy()
        self.events = np.zeros((MAX_EVENTS, 4), np.int32)
        self.record = np.zeros(RECORD_WIDTH, np.int32)
        self.fans = np.zeros(N_FANS, np.uint8)
        self.rewards = np.zeros(self.n_seats)
        self.deal, self.seed, self._legal = -1, 0, ()

    def reset(self, seed: int, deal: int = 0, dealer: int | None = None):
        """Deal `deal` of `seed` (its dealer the match's, as ``mjsim run`` deals it, unless given); returns the
        first observation, or None if the deal ended without an agent's choice. Each argument is checked first
        (``sim.players.environment``): a bad one raises TypeError or ValueError and leaves the table as it was."""
        seed, deal = checked_seed(seed), checked_deal(deal)
        dealer = MATCH_DEALER if dealer is None else checked_dealer(dealer, self.n_seats)
        self.seed, self.deal = seed, deal
        self._begin_opponents(seed, deal)
        begin_deal(deal, dealer, np.uint64(seed), self.template, self.wall, self.rules, self.state, self.work,
                   self.events, self.record, self.fans, False)
        return self._advance()

    def _run_engine(self, code: int) -> int:
        arguments = (self.kinds, self.parameters, self.wall, self.rules, self.state, self.work, self.events,
                     self.record, self.fans)
        if self._seating is None:
            return _run_to_agent(code, *arguments)
        return _asking_kernels(self.opponents.acts).run(code, self.deal, self._seating, *arguments)

    def _opponent_observation(self, legal: list) -> Observation:
        return Observation(self._shown_state, legal, self.deal, self._shown_ruleset)

    def _opponent_fault(self, seat: int) -> int:
        if self.record[R_VIOLATION] == NO_VIOLATION:
            self.record[R_VIOLATION] = PLAYER_FAULT
        self.record[R_FAULTED + seat] = 1
        return int(engine.default_action(self.state, self.rules, self.work))

    def _settle(self):
        _deal_money(self.record, self.stake, self.fee, self.rewards)

    @property
    def observation(self):
        """What the seat to act sees (``sim.mcr.observation.Observation``), None once the deal is over."""
        if self.terminated:
            return None
        return Observation(self.state, self._legal, self.deal, self.ruleset)

    def builtin_action(self, heuristic: str = "greedy") -> int:
        """What the built-in `heuristic` would answer to the pending decision (from the acting seat's stream)."""
        kind, vector, _ = players_module.parse_player(heuristic)
        kinds = np.full(SEATS, kind, np.int64)
        return int(builtin_action(kinds, np.stack([vector] * SEATS), self.state, self.rules, self.work))

    @property
    def record_row(self) -> dict:
        """The finished deal's record (``engine.RECORD_COLUMNS``, plus `deal`)."""
        return {"deal": self.deal, **{name: int(value) for name, value in engine._columns_of(self.record).items()}}

    @property
    def deal_log(self) -> DealLog:
        """The deal so far as ``engine.replay`` gives a whole one (its record complete once the deal is over)."""
        rows = self.events[1 : self.events[0, 0] + 1]
        return DealLog(self.record_row, self.fans.copy(), self.wall.copy(), rows[:, :3].copy(), rows[:, 3].copy())


@njit(cache=True, inline="always", _nrt=False)
def _table_work(works, thread, streams):
    """The work arrays of a table stepped by `thread` (`works`: each field stacked over the threads): the
    thread's scratch, and the table's own `streams`, the one thing a deal keeps there between decisions."""
    return Work(
        works.unseen[thread], works.shanten_after_discard[thread], works.distances[thread],
        works.shanten_scratch[thread], streams, works.check_counts[thread], works.knitted[thread], works.fans[thread],
        works.fan_counts[thread], works.legal[thread], works.discard_choice[thread], works.luck[thread],
        works.luck_sums[thread], works.luck_tally[thread],
    )


# One step of a batch's table b (the loops below, with heuristic opponents and with numba ones): answer its
# pending decision with actions[b] (skipped where negative, as at the start), run it on to its next agent
# decision, dealing the next deal where one ended (``_deal_next``), then show the decision (``_show_decision``).
# The loops differ only in how a table is run on (numba inlines no function that calls a function it was given,
# so the run cannot be an argument of a shared body); the parts around it are shared.


@njit(cache=True, inline="always", _nrt=False)
def _begin_step(b, rewards, finished, deals_ended):
    for seat in range(SEATS):
        rewards[b, seat] = 0.0
    finished[b] = False
    deals_ended[b] = 0


@njit(cache=True, inline="always", _nrt=False)
def _deal_next(b, in_deal, seed, next_deal, stride, template, rules, stake, fee, state, work, walls, records, fans, events,
               rewards, finished, deals_ended, final_observations):
    """Table b's deal is over: settle it (`in_deal`: there was one; not at the start), with every seat's encoding
    at its end unless `final_observations` has no entries, and deal the table's next deal; returns its number.
    A new deal that also ends before any agent decision adds its money to the same step's."""
    if in_deal:
        _deal_money(records[b], stake, fee, rewards[b])
        finished[b] = True
        deals_ended[b] += 1
        if final_observations.shape[2] > 0:
            for seat in range(SEATS):
                encode(seat, False, state, work, walls[b], records[b], rules, final_observations[b, seat])
    deal = next_deal[b]
    next_deal[b] += stride
    begin_deal(deal, MATCH_DEALER, seed, template, walls[b], rules, state, work, events, records[b], fans[b], False)
    return deal


@njit(cache=True, inline="always", _nrt=False)
def _show_decision(b, n, state, work, walls, records, rules, hands, actors, observed_hands, masks, observations):
    """Table b's pending decision, its `n` legal actions in work.legal: the acting seat, its hand, its legal
    mask and, unless `observations` has no entries, its encoding."""
    actor = state.table[ACTOR]
    actors[b] = actor
    if observations.shape[1] > 0:
        encode(actor, True, state, work, walls[b], records[b], rules, observations[b])
    for kind in range(observed_hands.shape[1]):
        observed_hands[b, kind] = hands[b, actor, kind]
    mask = masks[b]
    for index in range(mask.shape[0]):
        mask[index] = False
    for index in range(n):
        mask[work.legal[index]] = True


@njit(cache=True, _nrt=False)
def _step_tables(thread, first, last, actions, seed, next_deal, stride, template, rules, kinds, parameters, stake, fee,
                 hands, melds, visible, tables, discarded, discard_order, walls, streams, records, fans, events, works,
                 actors, observed_hands, masks, rewards, finished, deals_ended, observations, final_observations):
    """One step of tables first .. last - 1 with heuristic opponents, on `thread`'s work arrays; returns the
    decisions answered."""
    answered = 0
    for b in range(first, last):
        state = State(hands[b], melds[b], visible[b], tables[b], discarded[b], discard_order[b])
        work = _table_work(works, thread, streams[b])
        _begin_step(b, rewards, finished, deals_ended)
        answered += actions[b] >= 0
        in_deal = actions[b] >= 0  # at the start a table has no deal yet
        n = _run_to_agent(actions[b], kinds, parameters, walls[b], rules, state, work, events, records[b], fans[b])
        while n == 0:
            _deal_next(b, in_deal, seed, next_deal, stride, template, rules, stake, fee, state, work, walls, records,
                       fans, events, rewards, finished, deals_ended, final_observations)
            in_deal = True
            n = _run_to_agent(NO_ANSWER, kinds, parameters, walls[b], rules, state, work, events, records[b], fans[b])
        _show_decision(b, n, state, work, walls, records, rules, hands, actors, observed_hands, masks, observations)
    return answered


@njit(cache=True, _nrt=False)
def _slice(n_tables, n_threads, thread):
    """The first and the past-the-last table of `thread`'s slice."""
    size = (n_tables + n_threads - 1) // n_threads
    return thread * size, min(n_tables, (thread + 1) * size)


@njit(cache=True, parallel=True)
def _step_in_parallel(n_threads, actions, seed, next_deal, stride, template, rules, kinds, parameters, stake, fee, hands,
                      melds, visible, tables, discarded, discard_order, walls, streams, records, fans, events, works,
                      actors, observed_hands, masks, rewards, finished, deals_ended, observations, final_observations,
                      steps):
    """`_step_tables` on one slice of the tables per thread, each thread with its own work arrays."""
    for thread in prange(n_threads):
        first, last = _slice(actions.shape[0], n_threads, thread)
        steps[thread] += _step_tables(thread, first, last, actions, seed, next_deal, stride, template, rules, kinds,
                                      parameters, stake, fee, hands, melds, visible, tables, discarded, discard_order,
                                      walls, streams, records, fans, events, works, actors, observed_hands, masks,
                                      rewards, finished, deals_ended, observations, final_observations)


@njit(cache=True, inline="always", _nrt=False)
def _thread_state(states, thread):
    """One thread's State (`states`: each field stacked over the threads)."""
    return State(states.hands[thread], states.melds[thread], states.visible[thread], states.table[thread],
                 states.discarded[thread], states.discard_order[thread])


@njit(cache=True, inline="always", _nrt=False)
def _thread_seen_work(seen_works, thread):
    """One thread's SeenWork (`seen_works`: each field stacked over the threads)."""
    return SeenWork(
        seen_works.legal[thread], seen_works.unseen[thread], seen_works.seen_table[thread], seen_works.seen_melds[thread],
        seen_works.flowers[thread], seen_works.shanten_scratch[thread], seen_works.distances[thread],
        seen_works.shanten_after_discard[thread], seen_works.knitted[thread], seen_works.fans[thread],
    )


class _AskingKernels(NamedTuple):
    run: object  # one table run on to Python's next decision (``_run_asking`` on these functions)
    step_tables: object  # the batch's step of a slice of tables with them
    step_in_parallel: object  # that step on every slice, each thread with its own view and status


_ASKING_KERNELS = {}


def _asking_kernels(acts) -> _AskingKernels:
    """The kernels of tables whose numba opponents play the functions `acts` (four, padded with
    ``no_numba_player``). numba makes a function part of a kernel's type, so these are compiled in each
    process, once per set of functions (their callees are cached), as mjsim run's loop with numba players is."""
    kernels = _ASKING_KERNELS.get(acts)
    if kernels is not None:
        return kernels
    act0, act1, act2, act3 = acts

    @njit(_nrt=False)
    def run(action, deal, seating, kinds, parameters, wall, rules, state, work, events, record, fans):
        return _run_asking(act0, act1, act2, act3, seating, action, deal, kinds, parameters, wall, rules, state, work,
                           events, record, fans)

    @njit(_nrt=False)
    def step_tables(seating, thread, first, last, actions, seed, next_deal, stride, template, rules, kinds, parameters,
                    stake, fee, hands, melds, visible, tables, discarded, discard_order, walls, streams, records, fans,
                    events, works, actors, observed_hands, masks, rewards, finished, deals_ended, observations,
                    final_observations):
        answered = 0
        for b in range(first, last):
            state = State(hands[b], melds[b], visible[b], tables[b], discarded[b], discard_order[b])
            work = _table_work(works, thread, streams[b])
            _begin_step(b, rewards, finished, deals_ended)
            answered += actions[b] >= 0
            in_deal = actions[b] >= 0
            n = run(actions[b], next_deal[b] - stride, seating, kinds, parameters, walls[b], rules, state, work, events,
                    records[b], fans[b])
            while n == 0:
                deal = _deal_next(b, in_deal, seed, next_deal, stride, template, rules, stake, fee, state, work, walls,
                                  records, fans, events, rewards, finished, deals_ended, final_observations)
                in_deal = True
                n = run(NO_ANSWER, deal, seating, kinds, parameters, walls[b], rules, state, work, events, records[b],
                        fans[b])
            if n < 0:  # a numba opponent failed (its status says how): the step stops here
                actors[b] = -1
                return answered
            _show_decision(b, n, state, work, walls, records, rules, hands, actors, observed_hands, masks, observations)
        return answered

    @njit(parallel=True)
    def step_in_parallel(functions, user_parameters, view_states, view_works, view_rules, view_parameters, statuses,
                         reports, n_threads, actions, seed, next_deal, stride, template, rules, kinds, parameters, stake,
                         fee, hands, melds, visible, tables, discarded, discard_order, walls, streams, records, fans,
                         events, works, actors, observed_hands, masks, rewards, finished, deals_ended, observations,
                         final_observations, steps):
        for thread in prange(n_threads):
            first, last = _slice(actions.shape[0], n_threads, thread)
            view = PlayerView(_thread_state(view_states, thread), _thread_seen_work(view_works, thread), view_rules,
                              view_parameters[thread])
            chances = win_chances.WinChanceLog(reports.chance[thread], reports.values[thread], reports.rows[thread],
                                               reports.seats[thread], reports.count[thread])
            seating = (functions, user_parameters, view, statuses[thread], chances)
            steps[thread] += step_tables(seating, thread, first, last, actions, seed, next_deal, stride, template,
                                         rules, kinds, parameters, stake, fee, hands, melds, visible, tables, discarded,
                                         discard_order, walls, streams, records, fans, events, works, actors,
                                         observed_hands, masks, rewards, finished, deals_ended, observations,
                                         final_observations)

    kernels = _ASKING_KERNELS[acts] = _AskingKernels(*map(QuietlyCompiled, (run, step_tables, step_in_parallel)))
    return kernels


class BatchEnvironment(BatchStepEnvironment):
    """`n_tables` MCR tables stepped together inside numba. Table b plays deals b, b + n, b + 2n, ... of
    `seed`, each with the dealer and round wind of its place in the match. After ``reset()`` and each
    ``step(actions)``: ``actors`` (the seat to act at each table), ``hands`` (that seat's concealed tiles),
    ``masks`` (its legal actions over ``N_ACTIONS`` codes), ``rewards`` (n, 4: the money of a deal that ended
    in this step) and ``finished`` (which tables ended a deal). Every table always has a decision pending: a
    finished one has been dealt its next deal. With `threads` > 1 the tables are split among that many numba
    threads."""

    def __init__(self, n_tables: int, ruleset="mcr", opponents: dict | None = None, seed: int = 0, stake: float = 1.0,
                 fee: float = 0.0, threads: int = 1, n_seats: int | None = None, observation: str = "seat"):
        super().__init__(n_tables, threads, observation)
        self.ruleset = ruleset_of(ruleset, "mcr")
        self.rules, self.template = engine.kernel_rules(self.ruleset)
        self.n_seats = _seat_count(self.ruleset, n_seats)
        self.seed, (self.stake, self.fee) = checked_seed(seed), checked_money(stake, fee)
        self.opponents = seated_in_batch(opponents, self.n_seats, players_module, SEAT_KINDS, SEATS)
        self.kinds, self.parameters = self.opponents.kinds, self.opponents.parameters
        n = self.n
        shapes = new_state()
        self._allocate(shapes, TABLE_FIELDS, self.template, self.n_seats, encoding)
        self.discard_order = np.zeros((n, *shapes.discard_order.shape), np.int8)
        self.streams = np.zeros((n, SEATS), np.uint64)
        self.records = np.zeros((n, RECORD_WIDTH), np.int32)
        self.fans = np.zeros((n, N_FANS), np.uint8)
        self.events = np.zeros((1, 4), np.int32)  # no event log: a one-row log records nothing
        self.works = Work(*(np.zeros((self.threads, *array.shape), array.dtype) for array in new_work()))
        self._views = self._thread_views(new_state, new_seen_work, MAX_NUMBA_PARAMETERS) if self.opponents.numba else None

    def _step(self, actions):
        with self._opponents_checked():
            self._step_all(actions)

    def _step_all(self, actions):
        arguments = (
            actions, np.uint64(self.seed), self.next_deal, self.n, self.template, self.rules, self.kinds,
            self.parameters, self.stake, self.fee, self.hands_all, self.melds, self.visible, self.tables,
            self.discarded, self.discard_order, self.walls, self.streams, self.records, self.fans, self.events,
            self.works, self.actors, self.hands, self.masks, self.rewards, self.finished, self.deals_ended,
            self.observations, self.final_observations,
        )
        views = self._views
        if views is not None:
            kernels = _asking_kernels(self.opponents.acts)
            seating = (self.opponents.functions, self.opponents.user_parameters)
            if self.threads == 1:
                self.steps[0] += kernels.step_tables(
                    (*seating, views.view(0), views.statuses[0], views.reports_of(0)), 0, 0, self.n, *arguments)
            else:
                kernels.step_in_parallel(*seating, views.states, views.works, views.rules, views.parameters,
                                         views.statuses, views.reports, self.threads, *arguments, self.steps)
        elif self.threads == 1:  # no thread pool for one thread
            self.steps[0] += _step_tables(0, 0, self.n, *arguments)
        else:
            _step_in_parallel(self.threads, *arguments, self.steps)

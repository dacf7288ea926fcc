"""A step environment over the 二人 engine, for search and learning (docs/write-a-player.md#a-step-environment).

``Environment`` is one table stepped decision by decision, in the style of PettingZoo's agent-environment
cycle: ``reset(seed, deal)`` deals, ``observation`` is what the seat to act sees (``sim.erren.observation``,
with its legal actions and mask), ``step(action)`` answers it and runs the deal on to the next decision of
a seat with a choice. Seats given to ``opponents`` are played by built-in heuristics inside the engine; the
others are the agents. When the deal ends, ``rewards`` holds each seat's money: the 富贵豆 settlement of
the deal at ``stake`` and ``fee`` (docs/rules/erren-table.md), F x stake to the winner from the loser.

``BatchEnvironment`` steps many tables at once inside numba: one array of actions in, the acting seats,
their hands, legal-action masks, rewards and finished flags out, each finished table dealt its next deal
at once. The engine is the one ``mjsim run`` plays: driven with ``greedy``'s own answers, both give the
records of ``mjsim run`` deal for deal (a test). The stepping, its checks and the masks are the families'
shared part (``sim.players.environment``); this module holds the 二人 kernels.
"""

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from kernels.fan_ids import N_FANS
from sim.core import win_chances
from sim.core.event_logs import DealLog
from sim.core.random_streams import random_below, stream_state
from sim.erren import encoding, engine
from sim.erren.encoding import encode
from sim.erren.engine import (
    EVENT_COLUMNS,
    MAX_EVENTS,
    NO_ANSWER,
    NO_VIOLATION,
    NUMBA,
    PLAYER_FAULT,
    R_DOUBLES,
    R_FAN_TOTAL,
    R_FAULTED,
    R_FLOWERS,
    R_POINTS,
    R_VIOLATION,
    R_WINNER,
    RECORD_COLUMNS,
    begin_deal,
    builtin_action,
    play_to_user,
)
from sim.erren.observation import Observation, numba_observation
from sim.erren.table import (
    ACTOR,
    DECISION,
    N_STREAMS,
    TABLE_FIELDS,
    State,
    Work,
    legal_actions,
    new_state,
    new_work,
)
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

N_SEATS = 2
SEAT_KINDS = (engine.USER, NUMBA)


@njit(cache=True, _nrt=False)
def _deal_money(record, stake, fee, rewards):
    """Add each seat's money from a finished deal's record to `rewards`: F x stake from loser to winner, the
    fee from both. F is the win's points where the ruleset scores points (erren-challenge), else its fans and
    doubling."""
    winner = record[R_WINNER]
    for seat in range(N_SEATS):
        rewards[seat] -= fee
    if winner >= 0:
        if record[R_POINTS] > 0:
            moved = record[R_POINTS] * stake
        else:
            moved = (record[R_FAN_TOTAL] + record[R_FLOWERS + winner]) * 2.0 ** record[R_DOUBLES + winner] * stake
        rewards[winner] += moved
        rewards[1 - winner] -= moved


@njit(cache=True, _nrt=False)
def _run_to_agent(action, kinds, parameters, wall, rules, state, work, events, record, fans):
    """Answer the pending decision with `action` (NO_ANSWER: none), then every decision that is not a
    choice Python makes: a heuristic seat's, or one with a single legal action. Returns the number of legal
    actions of the decision now pending, an agent's or a Python opponent's (0: the deal is over)."""
    while play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans, False):
        n = legal_actions(state, rules, work.shanten_scratch, work.legal)
        if n > 1:
            return n
        action = work.legal[0]
    return 0


@njit(inline="always", _nrt=False)
def _run_asking(act0, act1, seating, action, deal, kinds, parameters, wall, rules, state, work, events, record, fans):
    """`_run_to_agent` with numba opponents: a NUMBA seat is answered here, as mjsim run's loop answers it
    (sim.erren.engine._asking_loop), by its function (act0 or act1: `seating`'s functions[seat]) on its
    observation in the view's copies, its parameters and its own stream. `seating` is (functions,
    user_parameters, view, status, chances). Returns as `_run_to_agent`, or -1 at an answer not offered or a
    reported chance that is no chance (`status` says which and where)."""
    functions, user_parameters, view, status, chances = seating
    streams = work.streams
    while play_to_user(action, wall, rules, kinds, parameters, state, work, events, record, fans, False):
        n = legal_actions(state, rules, work.shanten_scratch, work.legal)
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
        for index in range(view.parameters.shape[0]):
            view.parameters[index] = user_parameters[seat, index]
        if functions[seat] == 0:
            action, streams[seat] = act0(observation, view.parameters, streams[seat])
        else:
            action, streams[seat] = act1(observation, view.parameters, streams[seat])
        status[STATUS_ILLEGAL] = 0
        if not offered(action, work.legal, n):
            status[STATUS_ILLEGAL], status[STATUS_ANSWER] = ILLEGAL_ANSWER, action
            return -1
        if win_chances.keep(chances, 0, seat, action) != win_chances.KEPT:
            status[STATUS_ILLEGAL] = ILLEGAL_CHANCE
            return -1
    return 0


@njit(cache=True, _nrt=False)
def _first_dealer(seed, deal):
    _, dealer = random_below(stream_state(seed, 0, deal), 2)
    return dealer


class Environment(StepEnvironment):
    """One 二人 table. ``reset(seed, deal=0)``, then while not ``terminated``: read ``observation`` (of seat
    ``agent_selection``), ``step(action)``. ``rewards`` holds the deal's money once it is over."""

    ACTOR, DECISION = ACTOR, DECISION
    encoding = encoding
    n_seats = N_SEATS

    def __init__(self, ruleset="erren", opponents: dict | None = None, stake: float = 1.0, fee: float = 0.0,
                 n_seats: int | None = None):
        """`n_seats`, if given, must be 2: a 二人 table has two (the option is there for code that builds any
        family's table alike)."""
        self.ruleset = ruleset_of(ruleset, "erren")
        if n_seats is not None:
            whole_number(n_seats, "n_seats (a 二人 table has 2)", N_SEATS, N_SEATS)
        self.rules, self.template = engine.kernel_rules(self.ruleset)
        self.stake, self.fee = checked_money(stake, fee)
        self.state, self.work = new_state(), new_work()
        self._seat(opponents, engine.heuristics, SEAT_KINDS, N_SEATS)
        view = self._player_view(new_state, new_work, MAX_NUMBA_PARAMETERS)
        opponents = self.opponents
        self._seating = None if view is None else (opponents.functions, opponents.user_parameters, view,
                                                   opponents.status, opponents.chances)
        self.wall = self.template.copy()
        self.events = np.zeros((MAX_EVENTS, EVENT_COLUMNS), np.int64)
        self.record = np.zeros(len(RECORD_COLUMNS), np.int32)
        self.fans = np.zeros(N_FANS, np.uint8)
        self.rewards = np.zeros(N_SEATS)
        self.deal, self.seed, self._legal = -1, 0, ()

    def reset(self, seed: int, deal: int = 0, dealer: int | None = None):
        """Deal `deal` of `seed` (its dealer drawn as ``mjsim run`` draws it unless given); returns the first
        observation, or None if the deal ended without an agent's choice. Each argument is checked first
        (``sim.players.environment``): a bad one raises TypeError or ValueError and leaves the table as it was."""
        seed, deal = checked_seed(seed), checked_deal(deal)
        dealer = _first_dealer(np.uint64(seed), deal) if dealer is None else checked_dealer(dealer, N_SEATS)
        self.seed, self.deal = seed, deal
        self._begin_opponents(seed, deal)
        begin_deal(deal, dealer, np.uint64(seed), self.template, self.wall, self.rules, self.state, self.work,
                   self.events, self.record, False)
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
        return int(engine.default_action(self.state))

    def _settle(self):
        _deal_money(self.record, self.stake, self.fee, self.rewards)

    @property
    def observation(self):
        """What the seat to act sees (``sim.erren.observation.Observation``), None once the deal is over."""
        return None if self.terminated else Observation(self.state, self._legal, self.deal, self.ruleset)

    def builtin_action(self, heuristic: str = "greedy") -> int:
        """What the built-in `heuristic` would answer to the pending decision (from the acting seat's stream)."""
        kind, vector, _ = engine.heuristics.parse_player(heuristic)
        kinds = np.full(N_SEATS, kind, np.int64)
        return int(builtin_action(kinds, np.stack([vector] * N_SEATS), self.state, self.rules, self.work))

    @property
    def record_row(self) -> dict:
        """The finished deal's record (``engine.RECORD_COLUMNS``, plus `deal`)."""
        return {"deal": self.deal, **{name: int(self.record[index]) for index, name in enumerate(RECORD_COLUMNS)}}

    @property
    def deal_log(self) -> DealLog:
        """The deal so far as ``engine.replay`` gives a whole one (its record complete once the deal is over)."""
        return DealLog(self.record_row, self.fans.copy(), self.wall.copy(), self.events[1 : self.events[0, 0] + 1].copy())


@njit(_nrt=False)
def _step_body(run, seating, first, last, actions, seed, next_deal, stride, template, rules, kinds, parameters, stake, fee,
                 hands, melds, visible, tables, discarded, after_ready, bonus, discard_order, walls, streams, records, fans,
                 events, work, actors, observed_hands, masks, rewards, finished, deals_ended, observations,
                 final_observations):
    """`_step_tables` with numba opponents, `run` running a table on (``_asking_kernels``' `run`, with its
    `seating`; passed as an argument, it cannot be inlined, and the heuristics' cached `_step_tables` stays a
    body of its own). One step of tables first .. last - 1: answer each one's pending decision with actions[b] (skipped
    where actions[b] < 0, as at the start), run it on to its next agent decision, deal the next deal where
    one ended. Writes the acting seat, its hand and legal mask, the money of the deals that ended (summed,
    should a new deal end before any agent decision), the finished flags and counts, and, unless their
    second axis is empty, the acting seat's encoding (`observations`) and every seat's at the end of the
    last deal that ended (`final_observations`); returns the decisions answered."""
    answered = 0
    for b in range(first, last):
        state = State(hands[b], melds[b], visible[b], tables[b], discarded[b], after_ready[b], bonus[b], discard_order[b])
        for index in range(N_STREAMS):
            work.streams[index] = streams[b, index]
        rewards[b, 0], rewards[b, 1] = 0.0, 0.0
        finished[b] = False
        deals_ended[b] = 0
        answered += actions[b] >= 0
        in_deal = actions[b] >= 0  # at the start a table has no deal yet
        n = run(actions[b], next_deal[b] - stride, seating, kinds, parameters, walls[b], rules, state, work, events, records[b], fans[b])
        while n == 0:  # the deal is over: settle it and deal the table's next one
            if in_deal:
                _deal_money(records[b], stake, fee, rewards[b])
                finished[b] = True
                deals_ended[b] += 1
                if final_observations.shape[2] > 0:
                    for seat in range(N_SEATS):
                        encode(seat, False, state, work, walls[b], records[b], rules, final_observations[b, seat])
            deal = next_deal[b]
            next_deal[b] += stride
            begin_deal(deal, _first_dealer(seed, deal), seed, template, walls[b], rules, state, work, events,
                       records[b], False)
            in_deal = True
            n = run(NO_ANSWER, deal, seating, kinds, parameters, walls[b], rules, state, work, events, records[b], fans[b])
        if n < 0:  # a numba opponent failed (its status says how): the step stops here
            actors[b] = -1
            return answered
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
        for index in range(N_STREAMS):
            streams[b, index] = work.streams[index]
    return answered


@njit(cache=True, _nrt=False)
def _step_tables(first, last, actions, seed, next_deal, stride, template, rules, kinds, parameters, stake, fee,
                 hands, melds, visible, tables, discarded, after_ready, bonus, discard_order, walls, streams, records, fans,
                 events, work, actors, observed_hands, masks, rewards, finished, deals_ended, observations,
                 final_observations):
    """One step of tables first .. last - 1: answer each one's pending decision with actions[b] (skipped
    where actions[b] < 0, as at the start), run it on to its next agent decision, deal the next deal where
    one ended. Writes the acting seat, its hand and legal mask, the money of the deals that ended (summed,
    should a new deal end before any agent decision), the finished flags and counts, and, unless their
    second axis is empty, the acting seat's encoding (`observations`) and every seat's at the end of the
    last deal that ended (`final_observations`); returns the decisions answered."""
    answered = 0
    for b in range(first, last):
        state = State(hands[b], melds[b], visible[b], tables[b], discarded[b], after_ready[b], bonus[b], discard_order[b])
        for index in range(N_STREAMS):
            work.streams[index] = streams[b, index]
        rewards[b, 0], rewards[b, 1] = 0.0, 0.0
        finished[b] = False
        deals_ended[b] = 0
        answered += actions[b] >= 0
        in_deal = actions[b] >= 0  # at the start a table has no deal yet
        n = _run_to_agent(actions[b], kinds, parameters, walls[b], rules, state, work, events, records[b], fans[b])
        while n == 0:  # the deal is over: settle it and deal the table's next one
            if in_deal:
                _deal_money(records[b], stake, fee, rewards[b])
                finished[b] = True
                deals_ended[b] += 1
                if final_observations.shape[2] > 0:
                    for seat in range(N_SEATS):
                        encode(seat, False, state, work, walls[b], records[b], rules, final_observations[b, seat])
            deal = next_deal[b]
            next_deal[b] += stride
            begin_deal(deal, _first_dealer(seed, deal), seed, template, walls[b], rules, state, work, events,
                       records[b], False)
            in_deal = True
            n = _run_to_agent(NO_ANSWER, kinds, parameters, walls[b], rules, state, work, events, records[b], fans[b])
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
        for index in range(N_STREAMS):
            streams[b, index] = work.streams[index]
    return answered


@njit(cache=True, inline="always", _nrt=False)
def _thread_work(works, thread):
    """One thread's work arrays (`works`: a Work of per-thread stacks, as numba's parallel loops take no tuple
    of named tuples)."""
    return Work(
        works.shanten_scratch[thread], works.distances[thread], works.unseen[thread], works.held[thread],
        works.shanten_after_discard[thread], works.fans[thread], works.streams[thread], works.hand_sizes[thread],
        works.check_counts[thread], works.legal[thread], works.no_tiles[thread], works.challenge_fans[thread],
        works.score[thread], works.luck[thread], works.luck_sums[thread], works.luck_tally[thread],
    )


@njit(cache=True, _nrt=False)
def _slice(n_tables, n_threads, thread):
    """The first and the past-the-last table of `thread`'s slice."""
    size = (n_tables + n_threads - 1) // n_threads
    return thread * size, min(n_tables, (thread + 1) * size)


@njit(cache=True, parallel=True)
def _step_in_parallel(actions, seed, next_deal, stride, template, rules, kinds, parameters, stake, fee, hands, melds, visible, tables, discarded, after_ready, bonus, discard_order, walls, streams, records, fans, events, works,
                      actors, observed_hands, masks, rewards, finished, deals_ended, observations, final_observations, steps):
    """`_step_tables` on one slice of the tables per thread, each thread with its own work arrays."""
    n_threads = works.legal.shape[0]
    for thread in prange(n_threads):
        first, last = _slice(actions.shape[0], n_threads, thread)
        steps[thread] += _step_tables(first, last, actions, seed, next_deal, stride, template, rules, kinds, parameters, stake, fee, hands, melds, visible, tables, discarded, after_ready, bonus, discard_order, walls, streams, records, fans, events,
                                      _thread_work(works, thread), actors, observed_hands, masks, rewards, finished, deals_ended, observations, final_observations)


class _AskingKernels(NamedTuple):
    run: object  # one table run on to Python's next decision (``_run_asking`` on these functions)
    step_tables: object  # ``_step_tables`` with them
    step_in_parallel: object  # ``_step_in_parallel`` with them, each thread with its own view and status


_ASKING_KERNELS = {}


def _asking_kernels(acts) -> _AskingKernels:
    """The kernels of tables whose numba opponents play the functions `acts` (two, padded with
    ``no_numba_player``). numba makes a function part of a kernel's type, so these are compiled in each
    process, once per set of functions (their callees are cached), as mjsim run's loop with numba players is."""
    kernels = _ASKING_KERNELS.get(acts)
    if kernels is not None:
        return kernels
    act0, act1 = acts

    @njit(_nrt=False)
    def run(action, deal, seating, kinds, parameters, wall, rules, state, work, events, record, fans):
        return _run_asking(act0, act1, seating, action, deal, kinds, parameters, wall, rules, state, work, events, record,
                           fans)

    @njit(_nrt=False)
    def step_tables(seating, first, last, actions, seed, next_deal, stride, template, rules, kinds, parameters, stake, fee, hands, melds, visible, tables, discarded, after_ready, bonus, discard_order, walls, streams, records, fans, events, work,
                    actors, observed_hands, masks, rewards, finished, deals_ended, observations, final_observations):
        return _step_body(run, seating, first, last, actions, seed, next_deal, stride, template, rules, kinds, parameters, stake, fee, hands, melds, visible, tables, discarded, after_ready, bonus, discard_order, walls, streams, records, fans, events, work,
                          actors, observed_hands, masks, rewards, finished, deals_ended, observations, final_observations)

    @njit(parallel=True)
    def step_in_parallel(functions, user_parameters, view_states, view_works, view_rules, view_parameters, statuses,
                         reports, actions, seed, next_deal, stride, template, rules, kinds, parameters, stake, fee, hands, melds, visible, tables, discarded, after_ready, bonus, discard_order, walls, streams, records, fans, events, works,
                         actors, observed_hands, masks, rewards, finished, deals_ended, observations, final_observations, steps):
        n_threads = works.legal.shape[0]
        for thread in prange(n_threads):
            first, last = _slice(actions.shape[0], n_threads, thread)
            view = PlayerView(_thread_state(view_states, thread), _thread_work(view_works, thread), view_rules,
                              view_parameters[thread])
            chances = win_chances.WinChanceLog(reports.chance[thread], reports.values[thread], reports.rows[thread],
                                               reports.seats[thread], reports.count[thread])
            seating = (functions, user_parameters, view, statuses[thread], chances)
            steps[thread] += step_tables(seating, first, last, actions, seed, next_deal, stride, template, rules, kinds, parameters, stake, fee, hands, melds, visible, tables, discarded, after_ready, bonus, discard_order, walls, streams, records, fans, events,
                                         _thread_work(works, thread), actors, observed_hands, masks, rewards, finished, deals_ended, observations, final_observations)

    kernels = _ASKING_KERNELS[acts] = _AskingKernels(*map(QuietlyCompiled, (run, step_tables, step_in_parallel)))
    return kernels


@njit(cache=True, inline="always", _nrt=False)
def _thread_state(states, thread):
    """One thread's State (`states`: each field stacked over the threads)."""
    return State(states.hands[thread], states.melds[thread], states.visible[thread], states.table[thread],
                 states.discarded[thread], states.after_ready[thread], states.bonus[thread],
                 states.discard_order[thread])


class BatchEnvironment(BatchStepEnvironment):
    """`n_tables` 二人 tables stepped together inside numba. Table b plays deals b, b + n, b + 2n, ... of
    `seed`. After ``reset()`` and each ``step(actions)``: ``actors`` (the seat to act at each table),
    ``hands`` (that seat's concealed tiles), ``masks`` (its legal actions over ``N_ACTIONS`` codes),
    ``rewards`` (n, 2: the money of a deal that ended in this step) and ``finished`` (which tables ended a
    deal). Every table always has a decision pending: a finished one has been dealt its next deal. With
    `threads` > 1 the tables are split among that many numba threads, each with its own work arrays."""

    def __init__(self, n_tables: int, ruleset="erren", opponents: dict | None = None, seed: int = 0,
                 stake: float = 1.0, fee: float = 0.0, threads: int = 1, observation: str = "seat"):
        super().__init__(n_tables, threads, observation)
        self.ruleset = ruleset_of(ruleset, "erren")
        self.rules, self.template = engine.kernel_rules(self.ruleset)
        self.seed, (self.stake, self.fee) = checked_seed(seed), checked_money(stake, fee)
        self.opponents = seated_in_batch(opponents, N_SEATS, engine.heuristics, SEAT_KINDS, N_SEATS)
        self.kinds, self.parameters = self.opponents.kinds, self.opponents.parameters
        n = self.n
        shapes = new_state()
        self._allocate(shapes, TABLE_FIELDS, self.template, N_SEATS, encoding)
        self.after_ready = np.zeros((n, *shapes.after_ready.shape), np.int8)
        self.bonus = np.zeros((n, *shapes.bonus.shape), np.int8)
        self.discard_order = np.zeros((n, *shapes.discard_order.shape), np.int8)
        self.streams = np.zeros((n, N_STREAMS), np.uint64)
        self.records = np.zeros((n, len(RECORD_COLUMNS)), np.int32)
        self.fans = np.zeros((n, N_FANS), np.uint8)
        self.events = np.zeros((1, EVENT_COLUMNS), np.int64)  # no event log: a one-row log records nothing
        # one set of work arrays per thread, stacked field by field
        self.works = Work(*(np.stack(arrays) for arrays in zip(*(new_work() for _ in range(self.threads)), strict=True)))
        self._views = self._thread_views(new_state, new_work, MAX_NUMBA_PARAMETERS) if self.opponents.numba else None

    def _step(self, actions):
        with self._opponents_checked():
            self._step_all(actions)

    def _step_all(self, actions):
        arguments = (
            actions, np.uint64(self.seed), self.next_deal, self.n, self.template, self.rules, self.kinds,
            self.parameters, self.stake, self.fee, self.hands_all, self.melds, self.visible, self.tables,
            self.discarded, self.after_ready, self.bonus, self.discard_order, self.walls, self.streams, self.records,
            self.fans, self.events,
        )
        outputs = (self.actors, self.hands, self.masks, self.rewards, self.finished, self.deals_ended, self.observations,
                   self.final_observations)
        views = self._views
        if views is not None:
            kernels = _asking_kernels(self.opponents.acts)
            seating = (self.opponents.functions, self.opponents.user_parameters)
            if self.threads == 1:
                self.steps[0] += kernels.step_tables(
                    (*seating, views.view(0), views.statuses[0], views.reports_of(0)), 0, self.n, *arguments,
                    Work(*(array[0] for array in self.works)), *outputs)
            else:
                kernels.step_in_parallel(*seating, views.states, views.works, views.rules, views.parameters,
                                         views.statuses, views.reports, *arguments, self.works, *outputs, self.steps)
        elif self.threads == 1:  # no thread pool for one thread
            self.steps[0] += _step_tables(0, self.n, *arguments, Work(*(array[0] for array in self.works)), *outputs)
        else:
            _step_in_parallel(*arguments, self.works, *outputs, self.steps)

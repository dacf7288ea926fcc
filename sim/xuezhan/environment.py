"""A step environment over the 血战 engine, for search and learning (docs/write-a-player.md#a-step-environment):
`liangmen-xuezhan` and `sanren-liangfang` at any of their seat counts.

``Environment`` is one table stepped decision by decision (the agent-environment cycle of
``sim.players.environment``, which owns the stepping, its checks and the masks): ``reset(seed, deal)`` deals,
``observation`` is what the seat to act sees (``sim.xuezhan.observation.Observation``), ``step(action)``
answers it and runs the deal on to the next decision of an agent's seat with a choice. Seats given to
``opponents`` are played by built-in heuristics inside the engine. When the deal ends, ``rewards`` holds
each seat's money as ``mjsim run`` settles it: the record's ``money_s`` units (wins, kongs, 查叫, 关死) x
``stake``, less ``fee``.

``BatchEnvironment`` steps many tables at once inside numba, each finished table dealt its next deal at
once. A 血战 deal keeps part of its state in the engine's work arrays between decisions (the 换三张
choices, kong money paid, the winners of a round), so every table has its own set of them. The engine is
the one ``mjsim run`` plays: driven with ``greedy``'s own answers, both give the records of ``mjsim run``
deal for deal (a test).
"""

import numpy as np
from numba import njit, prange

from kernels.fan_ids import N_FANS
from sim.core.event_logs import DealLog
from sim.core.random_streams import random_below, stream_state
from sim.players.environment import (
    BatchStepEnvironment,
    StepEnvironment,
    checked_deal,
    checked_dealer,
    checked_money,
    checked_seed,
    heuristic_seats,
    ruleset_of,
    whole_number,
)
from sim.xuezhan import encoding, engine
from sim.xuezhan import players as players_module
from sim.xuezhan.encoding import encode
from sim.xuezhan.engine import (
    MAX_EVENTS,
    NO_ANSWER,
    R_KONG_MONEY,
    R_MONEY,
    R_WIN_MONEY,
    RECORD_WIDTH,
    begin_deal,
    builtin_action,
    play_to_user,
)
from sim.xuezhan.observation import Observation
from sim.xuezhan.table import ACTOR, MAX_SEATS, TABLE_FIELDS, State, Work, legal_actions, new_state, new_work


def _seat_count(ruleset, n_seats):
    n_seats = ruleset.players[0] if n_seats is None else whole_number(n_seats, "n_seats", 0, MAX_SEATS)
    if n_seats not in ruleset.players:
        raise ValueError(f"{ruleset.id} is played by {' or '.join(map(str, ruleset.players))} players, not {n_seats}")
    return n_seats


@njit(cache=True, _nrt=False)
def _deal_money(record, n, stake, fee, rewards):
    """Add each seat's money from a finished deal's record to `rewards`: its units x stake, less the fee."""
    for seat in range(n):
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


@njit(cache=True, _nrt=False)
def _first_dealer(seed, deal, n):
    """The dealer ``mjsim run`` draws for a deal without sessions."""
    _, dealer = random_below(stream_state(seed, 0, deal), n)
    return dealer


class Environment(StepEnvironment):
    """One 血战 table of `n_seats` (the ruleset's first seat count unless given). ``reset(seed, deal=0)``,
    then while not ``terminated``: read ``observation`` (of seat ``agent_selection``), ``step(action)``.
    ``rewards`` (one per seat) holds the deal's money once it is over."""

    ACTOR = ACTOR
    encoding = encoding

    def __init__(self, ruleset="liangmen-xuezhan", opponents: dict | None = None, stake: float = 1.0,
                 fee: float = 0.0, n_seats: int | None = None):
        self.ruleset = ruleset_of(ruleset, "xuezhan")
        self.rules, self.template = engine.kernel_rules(self.ruleset)
        self.n_seats = _seat_count(self.ruleset, n_seats)
        self.kinds, self.parameters = heuristic_seats(opponents, self.n_seats, players_module, engine.USER)
        self.stake, self.fee = checked_money(stake, fee)
        self.state, self.work = new_state(), new_work()
        self.wall = self.template.copy()
        self.events = np.zeros((MAX_EVENTS, 4), np.int32)
        self.record = np.zeros(RECORD_WIDTH, np.int32)
        self.fans = np.zeros((MAX_SEATS, N_FANS), np.uint8)
        self.rewards = np.zeros(self.n_seats)
        self.deal, self.seed, self._legal = -1, 0, ()

    def reset(self, seed: int, deal: int = 0, dealer: int | None = None):
        """Deal `deal` of `seed` (its dealer drawn as ``mjsim run`` draws it without sessions, unless given);
        returns the first observation, or None if the deal ended without an agent's choice. Each argument is
        checked first (``sim.players.environment``): a bad one raises TypeError or ValueError and leaves the table as
        it was."""
        seed, deal = checked_seed(seed), checked_deal(deal)
        n = self.n_seats
        dealer = _first_dealer(np.uint64(seed), deal, n) if dealer is None else checked_dealer(dealer, n)
        self.seed, self.deal = seed, deal
        begin_deal(deal, dealer, self.n_seats, np.uint64(seed), self.template, self.wall, self.rules, self.state,
                   self.work, self.events, self.record, self.fans, False)
        return self._advance()

    def _run_to_agent(self, code: int) -> int:
        return _run_to_agent(code, self.kinds, self.parameters, self.wall, self.rules, self.state, self.work,
                             self.events, self.record, self.fans)

    def _settle(self):
        _deal_money(self.record, self.n_seats, self.stake, self.fee, self.rewards)

    @property
    def observation(self):
        """What the seat to act sees (``sim.xuezhan.observation.Observation``), None once the deal is over."""
        if self.terminated:
            return None
        money = tuple(int(self.record[R_WIN_MONEY + seat] + self.record[R_KONG_MONEY + seat])
                      for seat in range(self.n_seats))
        return Observation(self.state, self.work, money, self._legal, self.deal, self.ruleset)

    def builtin_action(self, heuristic: str = "greedy") -> int:
        """What the built-in `heuristic` would answer to the pending decision (from the acting seat's stream)."""
        kind, vector, _ = players_module.parse_player(heuristic)
        kinds = np.full(self.n_seats, kind, np.int64)
        return int(builtin_action(kinds, np.stack([vector] * self.n_seats), self.state, self.rules, self.work))

    @property
    def record_row(self) -> dict:
        """The finished deal's record (``engine.record_columns(n_seats)``, plus `deal`)."""
        return {"deal": self.deal, **{name: int(value) for name, value in engine._columns_of(self.record,
                                                                                            self.n_seats).items()}}

    @property
    def deal_log(self) -> DealLog:
        """The deal so far as ``engine.replay`` gives a whole one (its record complete once the deal is over)."""
        rows = self.events[1 : self.events[0, 0] + 1]
        return DealLog(self.record_row, self.fans[: self.n_seats].copy(), self.wall.copy(), rows[:, :3].copy(),
                       rows[:, 3].copy())


@njit(cache=True, inline="always", _nrt=False)
def _table_work(works, b):
    """Table b's work arrays (`works`: each field stacked over the tables)."""
    return Work(
        works.unseen[b], works.shanten_after_discard[b], works.held[b], works.waits_scratch[b],
        works.exchange_choices[b], works.streams[b], works.check_counts[b], works.kong_paid[b], works.won_sizes[b],
        works.fan_counts[b], works.shanten_scratch[b], works.winners[b], works.winner_flags[b], works.chajiao_paid[b],
        works.deal_stream[b], works.legal[b], works.seen_table[b], works.seen_melds[b], works.money[b],
        works.distances[b], works.luck[b], works.luck_sums[b], works.luck_tally[b],
    )


@njit(cache=True, _nrt=False)
def _step_tables(first, last, actions, seed, next_deal, stride, n_seats, template, rules, kinds, parameters, stake, fee,
                 hands, melds, visible, tables, discarded, waits, discard_order, walls, records, fans, events, works,
                 actors, observed_hands, masks, rewards, finished, deals_ended, observations, final_observations):
    """One step of tables first .. last - 1: answer each one's pending decision with actions[b] (skipped
    where actions[b] < 0, as at the start), run it on to its next agent decision, deal the next deal where
    one ended. Writes the acting seat, its hand and legal mask, the money of the deals that ended (summed,
    should a new deal end before any agent decision), the finished flags and counts, and, unless their
    second axis is empty, the acting seat's encoding (`observations`) and every seat's at the end of the
    last deal that ended (`final_observations`); returns the decisions answered."""
    answered = 0
    for b in range(first, last):
        state = State(hands[b], melds[b], visible[b], tables[b], discarded[b], waits[b], discard_order[b])
        work = _table_work(works, b)
        for seat in range(n_seats):
            rewards[b, seat] = 0.0
        finished[b] = False
        deals_ended[b] = 0
        answered += actions[b] >= 0
        in_deal = actions[b] >= 0  # at the start a table has no deal yet
        n = _run_to_agent(actions[b], kinds, parameters, walls[b], rules, state, work, events, records[b], fans[b])
        while n == 0:  # the deal is over: settle it and deal the table's next one
            if in_deal:
                _deal_money(records[b], n_seats, stake, fee, rewards[b])
                finished[b] = True
                deals_ended[b] += 1
                if final_observations.shape[2] > 0:
                    for seat in range(n_seats):
                        encode(seat, False, state, work, walls[b], records[b], rules, final_observations[b, seat])
            deal = next_deal[b]
            next_deal[b] += stride
            begin_deal(deal, _first_dealer(seed, deal, n_seats), n_seats, seed, template, walls[b], rules, state, work,
                       events, records[b], fans[b], False)
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
    return answered


@njit(cache=True, parallel=True)
def _step_in_parallel(n_threads, actions, seed, next_deal, stride, n_seats, template, rules, kinds, parameters, stake,
                      fee, hands, melds, visible, tables, discarded, waits, discard_order, walls, records, fans, events,
                      works, actors, observed_hands, masks, rewards, finished, deals_ended, observations, final_observations,
                      steps):
    """`_step_tables` on one slice of the tables per thread (each table has its own work arrays)."""
    size = (actions.shape[0] + n_threads - 1) // n_threads
    for thread in prange(n_threads):
        first, last = thread * size, min(actions.shape[0], (thread + 1) * size)
        steps[thread] += _step_tables(
            first, last, actions, seed, next_deal, stride, n_seats, template, rules, kinds, parameters, stake, fee,
            hands, melds, visible, tables, discarded, waits, discard_order, walls, records, fans, events, works, actors,
            observed_hands, masks, rewards, finished, deals_ended, observations, final_observations,
        )


class BatchEnvironment(BatchStepEnvironment):
    """`n_tables` 血战 tables of `n_seats` stepped together inside numba. Table b plays deals b, b + n,
    b + 2n, ... of `seed`. After ``reset()`` and each ``step(actions)``: ``actors`` (the seat to act at each
    table), ``hands`` (that seat's concealed tiles), ``masks`` (its legal actions over ``N_ACTIONS``
    codes), ``rewards`` (n, n_seats: the money of a deal that ended in this step) and ``finished`` (which
    tables ended a deal). Every table always has a decision pending: a finished one has been dealt its
    next deal. With `threads` > 1 the tables are split among that many numba threads."""

    def __init__(self, n_tables: int, ruleset="liangmen-xuezhan", opponents: dict | None = None, seed: int = 0,
                 stake: float = 1.0, fee: float = 0.0, threads: int = 1, n_seats: int | None = None,
                 observation: str = "seat"):
        super().__init__(n_tables, threads, observation)
        self.ruleset = ruleset_of(ruleset, "xuezhan")
        self.rules, self.template = engine.kernel_rules(self.ruleset)
        self.n_seats = _seat_count(self.ruleset, n_seats)
        self.kinds, self.parameters = heuristic_seats(opponents, self.n_seats, players_module, engine.USER)
        self.seed, (self.stake, self.fee) = checked_seed(seed), checked_money(stake, fee)
        n = self.n
        shapes = new_state()
        self._allocate(shapes, TABLE_FIELDS, self.template, self.n_seats, encoding)
        self.waits = np.zeros((n, *shapes.waits.shape), np.int8)
        self.discard_order = np.zeros((n, *shapes.discard_order.shape), np.int8)
        self.records = np.zeros((n, RECORD_WIDTH), np.int32)
        self.fans = np.zeros((n, MAX_SEATS, N_FANS), np.uint8)
        self.events = np.zeros((1, 4), np.int32)  # no event log: a one-row log records nothing
        self.works = Work(*(np.zeros((n, *array.shape), array.dtype) for array in new_work()))

    def _step(self, actions):
        arguments = (
            actions, np.uint64(self.seed), self.next_deal, self.n, self.n_seats, self.template, self.rules, self.kinds,
            self.parameters, self.stake, self.fee, self.hands_all, self.melds, self.visible, self.tables,
            self.discarded, self.waits, self.discard_order, self.walls, self.records, self.fans, self.events, self.works,
            self.actors, self.hands, self.masks, self.rewards, self.finished, self.deals_ended, self.observations,
            self.final_observations,
        )
        if self.threads == 1:  # no thread pool for one thread
            self.steps[0] += _step_tables(0, self.n, *arguments)
        else:
            _step_in_parallel(self.threads, *arguments, self.steps)

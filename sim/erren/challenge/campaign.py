"""Runs of 004's 闯关 campaign played inside numba (docs/rules/erren-challenge.md, "Levels and assists"): the
player (seat 0) against the computer (seat 1), level after level, its score carried over, until it clears
the last level, fails (its score below the bet before a deal) or stays in a level for its whole allowance
of deals.

A run is a pure function of (seed, run): its k-th deal is deal ``run * stride + k`` of the engine (the
stride: the most deals a run can play), so the same run of a campaign with one assist switched off is
dealt the same walls, decisions and assist coins until the two runs part. The first dealer is drawn from
the run's first deal; then the winner deals, and after a draw the dealer stays.
"""

import numpy as np
from numba import njit

from kernels.fan_ids import N_FANS
from sim.core.random_streams import random_below, stream_state
from sim.erren.challenge import assists
from sim.erren.engine import EVENT_COLUMNS, MAX_EVENTS, R_POINTS, R_VIOLATION, R_WINNER, RECORD_COLUMNS, _play_deal, kernel_rules
from sim.erren.table import new_state, new_work

# How a run left a level.
NOT_REACHED, CLEARED, FAILED, OUT_OF_DEALS = 0, 1, 2, 3
OUTCOMES = ("not reached", "cleared", "failed", "out of deals")
# One row per (run, level).
RUN_FIELDS = ("outcome", "deals", "end_score", "player_wins", "computer_wins", "draws", "exchanged", "picks",
              "pung_tiles", "violations")
(F_OUTCOME, F_DEALS, F_END_SCORE, F_PLAYER_WINS, F_COMPUTER_WINS, F_DRAWS, F_EXCHANGED, F_PICKS, F_PUNGS,
 F_VIOLATIONS) = range(len(RUN_FIELDS))
# level_figures columns
BET, PASS_SCORE, COMPUTER_FREE = range(3)


@njit(cache=True, _nrt=False)
def _count_assists(events, row):
    """Add the deal's assist events to the level's row: tiles exchanged after the deal, picked draws, and
    tiles given for offers of three."""
    for index in range(1, events[0, 0] + 1):
        code = events[index, 0]
        if code == assists.EV_PICK:
            row[F_PICKS] += 1
        elif code == assists.EV_EXCHANGE_GIVES:
            row[F_EXCHANGED] += 1
        elif code == assists.EV_PUNG_GIVES:
            row[F_PUNGS] += 1  # three tiles a pung: divided when the table is read


@njit(cache=True)
def _play_runs(seed, first_run, stride, template, rules, level_settings, level_figures, start_score, max_deals,
               kinds, parameters, work, validate, out):
    """Play out.shape[0] runs from first_run into out (runs, levels, RUN_FIELDS), zeroed by the caller;
    rules.settings takes each level's settings (level_settings rows) in turn."""
    state = new_state()
    wall = template.copy()
    events = np.zeros((MAX_EVENTS, EVENT_COLUMNS), np.int64)
    record = np.zeros(len(RECORD_COLUMNS), np.int32)
    fans = np.zeros(N_FANS, np.uint8)
    n_levels = level_figures.shape[0]
    for row in range(out.shape[0]):
        first_deal = (first_run + row) * stride
        score = start_score
        _, dealer = random_below(stream_state(seed, 0, first_deal), 2)
        deal = first_deal
        for level in range(n_levels):
            for field in range(level_settings.shape[1]):
                rules.settings[field] = level_settings[level, field]
            bet, pass_score = level_figures[level, BET], level_figures[level, PASS_SCORE]
            free = level_figures[level, COMPUTER_FREE]
            counts = out[row, level]
            outcome = OUT_OF_DEALS
            for _ in range(max_deals):
                if score < bet:
                    outcome = FAILED
                    break
                _play_deal(deal, dealer, seed, template, wall, rules, kinds, parameters, state, work, events, record,
                           fans, validate)
                deal += 1
                counts[F_DEALS] += 1
                winner, points = record[R_WINNER], record[R_POINTS]
                if winner == assists.ASSISTED_SEAT:
                    score += points
                    counts[F_PLAYER_WINS] += 1
                elif winner >= 0:
                    if free == 0:
                        score -= min(points, bet)
                    counts[F_COMPUTER_WINS] += 1
                else:
                    counts[F_DRAWS] += 1
                if winner >= 0:
                    dealer = winner
                _count_assists(events, counts)
                counts[F_VIOLATIONS] += record[R_VIOLATION] != 0
                if score >= pass_score:
                    outcome = CLEARED
                    break
            counts[F_OUTCOME], counts[F_END_SCORE] = outcome, score
            if outcome != CLEARED:
                break



def stride(levels) -> int:
    """The most deals one run can play: run r's deals are r * stride onward."""
    return len(levels.levels) * levels.max_deals_per_level


def play_runs(ruleset, levels, players, seed: int, first_run: int, n_runs: int, validate: bool = False) -> np.ndarray:
    """Runs first_run .. first_run + n_runs - 1 of the campaign `levels` (sim.erren.challenge.levels.Levels) on
    `ruleset`, between built-in players (sim.erren.engine.Players: the player, then the computer). Returns
    int64 (n_runs, levels, RUN_FIELDS); the levels a run did not reach stay zero (NOT_REACHED)."""
    rules, template = kernel_rules(ruleset)
    level_settings = np.stack([kernel_rules(level.ruleset(ruleset))[0].settings for level in levels.levels])
    level_figures = np.array([(level.bet, level.pass_score, int(level.computer_wins_free)) for level in levels.levels],
                             np.int64)
    out = np.zeros((n_runs, len(levels.levels), len(RUN_FIELDS)), np.int64)
    _play_runs(np.uint64(seed), np.int64(first_run), np.int64(stride(levels)), template, rules, level_settings,
               level_figures, np.int64(levels.start_score), np.int64(levels.max_deals_per_level), players.kinds,
               players.parameters, new_work(), validate, out)
    return out

"""The race to win over the draws left: the arithmetic the ``ev`` players of both families share.

The rest of a deal is a run of rounds, counted by how many are left (h rounds left: the round under way is
the h-th from the end). In each round the race may end before the player's turn with a hazard (in 二人,
the opponent wins; at a 血战 table, the last other player still in wins), which costs `loss`; else the
player may win on a discard, then it draws and may win on its own tile. The hazard of the round with h
rounds left is ``hazards[h]``, so it may grow as the deal goes on and the opponent gets closer to ready.

- ``ready_race_table``: a ready hand with fixed chances per round, for every number of rounds left, walked
  backwards from the end;
- ``far_chance``: a hand further from ready moves one step closer with each useful draw;
- ``opponent_hazards``: the hazards of an opponent whose hand is a walk of the same kind: from a typical
  distance at the start of the deal, one step closer with each useful draw, and once ready a win with a
  fixed chance per round; conditioned on its not having won in the rounds already played.

tests/kernels/naive.py walks each of them round by round, forwards.
"""

from numba import njit

MAX_LEVELS = 16  # distances from ready a walk can hold (a hand is at most 6 from ready)


@njit(cache=True, _nrt=False)
def ready_race_table(self_rate, self_value, ron_rate, ron_value, hazards, loss, rounds, out):
    """out[0, h], out[1, h] for h = 0 .. rounds: (EV, P(win)) of a ready hand with h rounds left: in each
    round the race ends with hazards[h] (costing `loss`), else the hand wins on a discard with `ron_rate`
    (worth `ron_value`), else on its draw with `self_rate` (worth `self_value`)."""
    out[0, 0], out[1, 0] = 0.0, 0.0
    win_self = (1.0 - ron_rate) * self_rate
    continuing = (1.0 - ron_rate) * (1.0 - self_rate)
    gain = win_self * self_value + ron_rate * ron_value
    for left in range(1, rounds + 1):
        hazard = hazards[left]
        out[0, left] = -hazard * loss + (1.0 - hazard) * (gain + continuing * out[0, left - 1])
        out[1, left] = (1.0 - hazard) * (win_self + ron_rate + continuing * out[1, left - 1])


@njit(cache=True, _nrt=False)
def far_chance(distance, advance, self_rate, ron_rate, hazards, rounds, levels):
    """P(win) of a hand `distance` useful draws from ready (0: ready) over `rounds` rounds: each round the
    race ends with hazards[rounds left]; a ready hand wins on a discard with `ron_rate`, then on its draw
    with `self_rate`; a hand not ready moves one step closer with its draw with chance `advance`.
    `levels`: float64 work array of at least ``MAX_LEVELS`` entries."""
    distance = min(max(distance, 0), MAX_LEVELS - 1)
    for level in range(distance + 1):
        levels[level] = 0.0
    levels[distance] = 1.0
    won = 0.0
    for left in range(rounds, 0, -1):
        for level in range(distance + 1):
            levels[level] *= 1.0 - hazards[left]
        won += levels[0] * ron_rate
        levels[0] *= 1.0 - ron_rate
        won += levels[0] * self_rate
        levels[0] *= 1.0 - self_rate
        for level in range(1, distance + 1):  # upward, so that no hand moves twice in one draw
            moved = levels[level] * advance
            levels[level - 1] += moved
            levels[level] -= moved
    return won


@njit(cache=True, inline="always", _nrt=False)
def _opponent_round(levels, top, advance, win_rate):
    """One round of the opponent's walk: a ready hand wins with `win_rate`, the others may step closer.
    Returns (the chance it was still in the deal, the chance it won in the round)."""
    alive = 0.0
    for level in range(top + 1):
        alive += levels[level]
    won = levels[0] * win_rate
    levels[0] -= won
    for level in range(1, top + 1):  # upward, so that no hand moves twice in one draw
        moved = levels[level] * advance
        levels[level - 1] += moved
        levels[level] -= moved
    return alive, won


@njit(cache=True, _nrt=False)
def opponent_hazards(start, advance, win_rate, played, rounds, levels, hazards):
    """hazards[h] for h = 1 .. rounds: the chance that the opponent wins in the round with h rounds left,
    if it has not won before (hazards[0] = 0). Its hand starts the deal `start` useful draws from ready (a
    fraction: that share of hands one step further, e.g. 2.5 is half at 2 and half at 3), moves one step
    closer with each of its draws with chance `advance`, and once ready wins with `win_rate` a round.
    `played`: the rounds it has already played without winning. Returns the chance it is ready now.
    `levels`: float64 work array of at least MAX_LEVELS entries."""
    base = min(max(int(start), 0), MAX_LEVELS - 2)
    further = min(max(start - base, 0.0), 1.0)
    for level in range(MAX_LEVELS):
        levels[level] = 0.0
    levels[base] = 1.0 - further
    levels[base + 1] = further
    top = base + 1
    for _ in range(played):
        _opponent_round(levels, top, advance, win_rate)
    alive = 0.0
    for level in range(top + 1):
        alive += levels[level]
    ready_now = levels[0] / alive if alive > 0 else 1.0
    hazards[0] = 0.0
    for left in range(rounds, 0, -1):
        alive, won = _opponent_round(levels, top, advance, win_rate)
        hazards[left] = won / alive if alive > 0 else win_rate
    return ready_now

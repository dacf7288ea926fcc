"""`erren` against the independent MCR calculator PyMahjongGB, fan by fan and in total, and the
evaluator's completeness and single-wait judgements against the naive twins.

The only mappings are those of docs/rules/erren.md: PyMahjongGB's 明暗杠 is 明杠 + 暗杠, a few names
differ, and both sides clear the context flags the tiles make impossible. PyMahjongGB is called with
seatWind = prevalentWind = 4 (no wind), so a wind pung is a plain 幺九刻.
"""

from collections import Counter

import numpy as np
import pytest
from MahjongGB import MahjongFanCalculator

from kernels.fan_ids import Fan
from kernels.fans.mcr import NOT_A_WIN, score_many
from sim.benchmark import pymahjonggb_arguments, random_hands, reference_fans
from sim.hand_generator import random_winning_hands
from sim.ruleset import load_ruleset

N_HANDS = 25_000
MIN_OCCURRENCES = 20
ERREN_ONLY = {Fan.HEAVENLY_HAND, Fan.EARTHLY_HAND, Fan.HUMAN_HAND, Fan.HEAVENLY_READY}


@pytest.fixture(scope="module")
def comparison():
    ruleset = load_ruleset("erren")
    by_name = {name: fan for fan, name in ruleset.fan_names.items()}
    hands = random_winning_hands(np.random.default_rng(2026), N_HANDS)
    counts, totals = score_many(*hands.kernel_arrays(), *ruleset.kernel_arrays())
    values = ruleset.values
    disagreements, seen = [], Counter()
    for index in range(N_HANDS):
        reference = reference_fans(MahjongFanCalculator(**pymahjonggb_arguments(hands, index)), by_name)
        ours = Counter({Fan(fan): int(count) for fan, count in enumerate(counts[index]) if count})
        reference_total = sum(values[fan] * count for fan, count in reference.items())
        our_total = int(totals[index]) + int(counts[index, Fan.FLOWER_TILES]) * int(values[Fan.FLOWER_TILES])
        seen.update(ours)
        if reference != ours or reference_total != our_total:
            disagreements.append((index, dict(reference), dict(ours)))
    return hands, counts, totals, disagreements, seen


def test_erren_equals_pymahjonggb_fan_by_fan_and_in_total(comparison):
    _, _, totals, disagreements, _ = comparison
    assert (totals != NOT_A_WIN).all()
    assert disagreements == [], f"{len(disagreements)} of {N_HANDS} hands disagree, e.g. {disagreements[:3]}"


def test_every_fan_shared_with_mcr_occurs_at_least_20_times(comparison):
    seen = comparison[4]
    shared = [fan for fan in load_ruleset("erren").fans if fan not in ERREN_ONLY]
    rare = {fan.name: seen[fan] for fan in shared if seen[fan] < MIN_OCCURRENCES}
    assert rare == {}


def test_a_hand_is_scored_exactly_when_the_naive_check_finds_it_complete(compiled_naive):
    """Random 14-tile hands of 万 and honours (almost all incomplete) and generated winning hands."""
    ruleset = load_ruleset("erren")
    rng = np.random.default_rng(7)
    kinds = np.r_[0:9, 27:34]
    full = random_hands(rng, 20_000, kinds, 14)
    winning = random_winning_hands(np.random.default_rng(8), 2_000)
    with_win = winning.concealed.astype(np.int64)
    with_win[np.arange(len(winning)), winning.win] += 1
    concealed = np.concatenate([full, winning.concealed])
    melds = np.concatenate([np.zeros((len(full), 4, 2), np.int8), winning.melds])
    n_melds = np.concatenate([np.zeros(len(full), np.int8), winning.n_melds])
    win = np.concatenate([np.array([rng.choice(np.flatnonzero(hand)) for hand in full]), winning.win]).astype(np.int8)
    concealed[np.arange(len(full)), win[: len(full)]] -= 1
    standing = np.concatenate([full, with_win]).astype(np.int64)
    _, totals = score_many(concealed, melds, n_melds, win, 0, 0, *ruleset.kernel_arrays())
    expected = np.array([compiled_naive.is_complete(standing[i], int(n_melds[i])) for i in range(len(standing))])
    assert expected[len(full) :].all()
    assert ((totals != NOT_A_WIN) == expected).all()
    assert 0 < expected[: len(full)].sum() < len(full)  # some random hands are complete, most are not


def test_wait_fans_only_when_the_shape_waits_on_one_kind(comparison, compiled_naive):
    """边张, 坎张 and 单钓将 need a single wait, read on shapes (a fifth copy counts as a wait)."""
    hands, counts, *_ = comparison
    wait_fans = [Fan.EDGE_WAIT, Fan.CLOSED_WAIT, Fan.SINGLE_WAIT]
    checked = 0
    for index in np.flatnonzero(counts[:, wait_fans].sum(axis=1) > 0)[:3_000]:
        hand = hands.concealed[index].astype(np.int64)
        waits = []
        for kind in [*range(9), *range(27, 34)]:
            hand[kind] += 1
            if compiled_naive.is_complete(hand, int(hands.n_melds[index])):
                waits.append(kind)
            hand[kind] -= 1
        assert waits == [int(hands.win[index])]
        checked += 1
    assert checked > 1_000

"""The three-suit MCR evaluator against the independent MCR calculator PyMahjongGB, fan by fan and in total.

Generated winning hands over all 136 tiles (``sim.core.all_suit_hands``: templates for every fan, the
irregular forms, melds and kongs, random win contexts, seat and round winds, flowers) are scored by both.
The only mapping is PyMahjongGB's own: its 明暗杠 (an exposed and a concealed kong) is 明杠 + 暗杠, and its
独听 names are the plain wait fans (docs/scoring.md). Totals are compared in MCR's values.

The run in CI scores 20,000 hands; ``MJSIM_MCR_REFERENCE_HANDS=100000`` (and ``MJSIM_MCR_REFERENCE_SEED``)
runs a larger sample the same way:

    MJSIM_MCR_REFERENCE_HANDS=100000 .venv/bin/python -m pytest tests/kernels/test_mcr_fan_reference.py -q -p no:xdist
"""

import os
from collections import Counter

import numpy as np
import pytest
from MahjongGB import MahjongFanCalculator

from kernels.fan_ids import Fan
from kernels.fans.mcr_all_suits import NOT_A_WIN, score_many
from sim.commands.benchmark import (
    GB_CODES,
    mcr_reference_fans,
    pymahjonggb_arguments,
    random_hands,
)
from sim.core.all_suit_hands import random_all_suit_hands
from sim.core.ruleset import load_ruleset

N_HANDS = int(os.environ.get("MJSIM_MCR_REFERENCE_HANDS", "20000"))
SEED = int(os.environ.get("MJSIM_MCR_REFERENCE_SEED", "2026"))
MIN_OCCURRENCES = 5


@pytest.fixture(scope="module")
def comparison():
    ruleset = load_ruleset("mcr")
    by_name = {name: fan for fan, name in ruleset.fan_names.items()}
    hands = random_all_suit_hands(np.random.default_rng(SEED), N_HANDS)
    counts, totals = score_many(*hands.kernel_arrays(), *ruleset.kernel_arrays())
    values = ruleset.values
    disagreements, seen = [], Counter()
    for index in range(N_HANDS):
        reference = mcr_reference_fans(MahjongFanCalculator(**pymahjonggb_arguments(hands, index, winds=True)), by_name)
        ours = Counter({Fan(fan): int(count) for fan, count in enumerate(counts[index]) if count})
        reference_total = sum(int(values[fan]) * count for fan, count in reference.items())
        our_total = int(totals[index]) + int(counts[index, Fan.FLOWER_TILES]) * int(values[Fan.FLOWER_TILES])
        seen.update(ours)
        if reference != ours or reference_total != our_total:
            disagreements.append((index, dict(reference), dict(ours)))
    return ruleset, totals, disagreements, seen


def test_every_generated_hand_scores_as_pymahjonggb_scores_it(comparison):
    _, totals, disagreements, _ = comparison
    assert (totals != NOT_A_WIN).all()
    assert disagreements == [], f"{len(disagreements)} of {N_HANDS} hands disagree, e.g. {disagreements[:3]}"


def test_the_sample_holds_every_mcr_fan_several_times(comparison):
    ruleset, _, _, seen = comparison
    assert len(ruleset.fans) == 81  # the 80 fans of the 2006 rules and 花牌
    rare = {ruleset.fan_names[fan]: seen[fan] for fan in ruleset.fans if seen[fan] < MIN_OCCURRENCES}
    assert rare == {}


def test_a_hand_is_a_win_exactly_when_pymahjonggb_finds_one():
    """Random 14-tile concealed hands (almost all incomplete) and ones close to the irregular forms."""
    ruleset = load_ruleset("mcr")
    rng = np.random.default_rng(11)
    uniform = random_hands(rng, 4_000, np.arange(34), 14)
    orphans = random_hands(rng, 1_000, np.r_[0, 8, 9, 17, 18, 26, 27:34], 14)  # near 十三幺 and 混幺九
    knitted = random_hands(rng, 1_000, np.r_[0, 3, 6, 10, 13, 16, 20, 23, 26, 27:34], 14)  # near 全不靠, 组合龙
    full = np.concatenate([uniform, orphans, knitted]).astype(np.int8)
    win = np.array([rng.choice(np.flatnonzero(hand)) for hand in full], np.int8)
    concealed = full.copy()
    concealed[np.arange(len(full)), win] -= 1
    _, totals = score_many(concealed, np.zeros((len(full), 4, 2), np.int8), 0, win, 0, 0, *ruleset.kernel_arrays())
    expected = []
    for hand, tile in zip(concealed, win, strict=True):
        standing = tuple(GB_CODES[kind] for kind in np.repeat(np.arange(34), hand))
        try:
            MahjongFanCalculator((), standing, GB_CODES[tile], 0, False, False, False, False, 0, 0)
            expected.append(True)
        except TypeError as error:
            assert "ERROR_NOT_WIN" in str(error)
            expected.append(False)
    expected = np.array(expected)
    assert ((totals != NOT_A_WIN) == expected).all()
    assert 0 < expected.sum() < len(full)  # some are wins, most are not

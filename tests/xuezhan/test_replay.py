"""`mjsim replay` for the 血战 family: the melds the report rebuilds from the event log are the engine's.

Deals are found by a search over one seed, as in tests/xuezhan/test_engine.py.
"""

import numpy as np
import pytest

from sim.core.notation import Meld, MeldKind, tile_name
from sim.core.ruleset import load_ruleset
from sim.runs import runner
from sim.xuezhan import engine, replay_report

SEED, DEALS = 21, 400


def robbed_kong_deals(ruleset_id):
    """(ruleset, players, deal indices) of the deals of SEED that hold a win on a robbed added kong."""
    rules = load_ruleset(ruleset_id)
    players = runner.seated_players(rules, None)
    records = engine.play(rules, players, SEED, DEALS)
    robbed = np.zeros(DEALS, bool)
    for seat in range(rules.players[0]):
        robbed |= np.asarray(records.columns[f"win_type_{seat}"]) == engine.ROBBED_KONG
    return rules, players, np.flatnonzero(robbed)


@pytest.mark.parametrize("ruleset_id", ["liangmen-xuezhan", "sanren-liangfang"])
def test_a_robbed_added_kong_leaves_the_robbed_seat_its_pong_in_the_replay(ruleset_id):
    rules, players, deals = robbed_kong_deals(ruleset_id)
    assert len(deals) > 0, f"no robbed kong in {DEALS} deals of seed {SEED}: search more deals"
    deal = int(deals[0])
    log = engine.replay(rules, players, SEED, deal)
    codes = log.events[:, 0].tolist()
    robbing = codes.index(engine.EV_WIN_ROBBED_KONG)
    added = robbing - 1
    while codes[added] == engine.EV_PASS:  # those who let the rob go
        added -= 1
    assert codes[added] == engine.EV_ADDED_KONG  # the robbers win right on the added tile, after the passes
    _, robbed_seat, tile = log.events[added].tolist()
    pong, kong = str(Meld(MeldKind.PONG, tile)), str(Meld(MeldKind.KONG, tile))

    lines = replay_report.format_deal(log, rules, players, SEED).splitlines()
    robbed_at = next(index for index, line in enumerate(lines) if " robs the kong: " in line)
    added_at = robbed_at - 1
    while " passes " in lines[added_at]:
        added_at -= 1
    assert lines[added_at] == f"seat {robbed_seat} adds {tile_name(tile)} to its pong"
    after = [line for line in lines[robbed_at + 1 :] if line.startswith(f"seat {robbed_seat}") and "hand: " in line]
    assert after, "the replay shows the robbed seat's hand after the robbery"
    assert after[0].startswith(f"seat {robbed_seat}'s kong fails: it keeps its pong")
    for line in after:
        melds = line.split("hand: ")[1]
        assert pong in melds and kong not in melds, line

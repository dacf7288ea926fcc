"""The players that weigh fan values read them from the ruleset: raise one fan's value in a copy of a
shipped ruleset and, on the same walls, they play differently and score that fan more often. ``greedy``
does not weigh values, so its play does not move.

The raised fan is 清一色 (``full_flush``): every shipped ruleset scores it, and every value-aware player
chases it. Each case plays the same seed under both rulesets, so the deals differ only by the players'
choices.
"""

import re

import numpy as np
import pytest

from kernels.fan_ids import Fan
from sim.core.ruleset import load_ruleset, parse_ruleset_text
from sim.families import family_of

SEED = 20261205
# record columns that only the play decides (not what a win is worth): who won, how, when, with what melds
PLAY_COLUMNS = ("turns", "tiles_left", "winner", "win_type", "win_order", "melds")


def play_changed(before: dict, after: dict) -> np.ndarray:
    """Per deal: whether the play differs between the two batches of records."""
    changed = np.zeros(len(before["deal"]), bool)
    for name in before:
        if name.startswith(PLAY_COLUMNS):
            changed |= before[name] != after[name]
    return changed


def raised(ruleset_id: str, fan: str, value: int):
    """The shipped ruleset with `fan` worth `value`, under an id of its own."""
    text = load_ruleset(ruleset_id).source
    block = re.compile(rf"(\[fans\.{fan}\][^\[]*?\nvalue = )(\d+)")
    assert block.search(text), f"{ruleset_id} has no {fan}"
    text = block.sub(lambda match: f"{match.group(1)}{value}", text, count=1)
    text = re.sub(r'\nid = "[^"]+"', f'\nid = "{ruleset_id}-raised"', text, count=1)
    variant = parse_ruleset_text(text, f"{ruleset_id} with {fan} = {value}")
    assert variant.values[Fan[fan.upper()]] == value
    return variant


def play(ruleset, players: str, deals: int):
    """(records columns, per deal the wins that scored 清一色)."""
    family = family_of(ruleset)
    texts = players.split(",")
    records = family.engine.play(ruleset, family.engine.Players.parse(texts, len(texts)), SEED, deals)
    scored = records.fans[..., Fan.FULL_FLUSH] > 0
    if scored.ndim == 2:  # 血战: a deal may have several winners
        scored = scored.sum(axis=1)
    return records.columns, scored


# (ruleset, players, raised value of 清一色, deals): the value player at every ruleset (its shipped value is
# 24 in the 二人 rulesets, 5 in erren-challenge, x4 in liangmen-xuezhan, 2 fans (x4) in sanren-liangfang),
# and ev at a 二人 table and a 血战 one.
CASES = [
    ("erren", "value,value", 40, 3000),
    ("erren-classic", "value,value", 40, 3000),
    ("erren-challenge", "value,value", 15, 10000),
    ("liangmen-xuezhan", "value,value,value,value", 16, 1500),
    ("sanren-liangfang", "value,value,value", 3, 1500),
    ("erren", "ev,ev", 40, 1500),
    ("sanren-liangfang", "ev,ev,ev", 3, 600),
]


@pytest.mark.parametrize(("ruleset_id", "players", "value", "deals"), CASES,
                         ids=[f"{case[0]}-{case[1].split(',')[0]}" for case in CASES])
def test_raising_a_fan_makes_value_aware_players_chase_it(ruleset_id, players, value, deals):
    shipped = load_ruleset(ruleset_id)
    before_columns, before = play(shipped, players, deals)
    after_columns, after = play(raised(ruleset_id, "full_flush", value), players, deals)
    assert play_changed(before_columns, after_columns).any(), "the same walls were played the same way: the fan's value was not read"
    # more deals end with 清一色 on the same walls: a paired (sign) test on the deals where it differs
    gained = int(np.maximum(after.astype(int) - before, 0).sum())
    lost = int(np.maximum(before.astype(int) - after, 0).sum())
    assert gained - lost > 2.0 * np.sqrt(gained + lost), (gained, lost)


@pytest.mark.parametrize("ruleset_id", ["erren", "liangmen-xuezhan"])
def test_greedy_plays_the_same_whatever_the_fan_values(ruleset_id):
    """greedy plays for speed alone (its docs say so): the values change what a win is worth, not its play."""
    family = family_of(load_ruleset(ruleset_id))
    seats = load_ruleset(ruleset_id).players[0]
    players = ",".join(["greedy"] * seats)
    before_columns, _ = play(load_ruleset(ruleset_id), players, 500)
    after_columns, _ = play(raised(ruleset_id, "full_flush", 40 if family.name == "erren" else 16), players, 500)
    assert not play_changed(before_columns, after_columns).any()

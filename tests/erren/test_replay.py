"""The engine's deals replayed on an independent, slow twin of the table procedure (tests/erren/naive_game.py).

Every event of a replayed deal must be legal for the twin, every tile must come from where the rules book says,
and every field of the record and every fan of the win must be what the twin derives from the history
alone. The sample covers both 二人 rulesets and all 16 ordered pairings of the four heuristics, plus sessions
and ruleset switches; the targeted tests search 300,000 deals per ruleset with ``engine.play`` (SEARCHES) for
the rare situations (robbed kongs, 天胡, 地胡, 人胡, 天听, 杠上开花, 妙手回春, 海底捞月, 和绝张, 加倍, kongs of
each kind, exhaustive draws, the voiding of special wins by a concealed kong) and replay them; the negative
controls corrupt logs and require the twin to object, so that a twin that accepts everything cannot pass.
The engine's compilation (minutes on a cold numba cache) is outside this file's ~40 s.
"""

import dataclasses
import functools
import itertools

import naive
import numpy as np
import pytest
from naive_game import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DEAL,
    DISCARD,
    DOUBLE,
    DRAW,
    EXHAUSTED,
    FIRST_FLOWER,
    HEAVENLY_READY,
    KONG,
    OUT_OF_PLAY,
    PONG,
    READY,
    REPLACEMENT,
    TILE_SET,
    WAIT,
    WALL,
    WIN_DISCARD,
    WIN_SELF_DRAWN,
    NaiveTable,
    check_deal,
    played,
)

from kernels.fan_ids import Fan
from sim.core.ruleset import load_ruleset
from sim.erren import engine

RULESETS = ("erren", "erren-classic")
HEURISTICS = ("random", "greedy", "value", "defensive")
PAIRINGS = tuple(f"{first},{second}" for first, second in itertools.product(HEURISTICS, HEURISTICS))
SAMPLE_SEED = 20261129
SAMPLE_DEALS = 400  # per ruleset and ordered pairing: 12,800 deals in all
SEARCH_SEED = 2024
# The random player takes every kind of action, rare ones included; greedy players always take a legal win,
# so they show the special first-turn wins (天胡, 地胡, 人胡) and 天听 far more often.
SEARCHES = {"random,random": 200_000, "greedy,greedy": 100_000}
SEARCH_PLAYERS = "random,random"
FIRST_TURN_PLAYERS = "greedy,greedy"
PER_CATEGORY = 4  # deals replayed per rare category


@functools.cache
def rules(ruleset_id):
    return load_ruleset(ruleset_id)


@functools.cache
def seats(text):
    return engine.Players.parse(text)


def checked(ruleset, players_text, seed, deal, session_length=0):
    """Replay one deal on the twin; returns (twin table, log). The failure names everything to reproduce it."""
    log = engine.replay(ruleset, seats(players_text), seed, deal, session_length)
    try:
        return check_deal(ruleset, log), log
    except AssertionError as error:
        raise AssertionError(
            f"{ruleset.id}, players {players_text}, seed {seed}, session_length {session_length}: {error}"
        ) from None


# ------------------------------------------------------------------------------------- (a) the sample


@pytest.mark.parametrize("players_text", PAIRINGS)
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_event_of_sampled_deals_follows_the_table_procedure(ruleset_id, players_text):
    ruleset = rules(ruleset_id)
    first = 1000 * PAIRINGS.index(players_text)
    outcomes = set()
    for deal in range(first, first + SAMPLE_DEALS):
        table, _ = checked(ruleset, players_text, SAMPLE_SEED, deal)
        outcomes.add(table.win_type)
    assert outcomes - {0}, "no deal of the sample was won"


def test_replay_reproduces_the_row_of_play():
    for ruleset_id, players_text in (("erren", "greedy,random"), ("erren-classic", "value,defensive")):
        ruleset = rules(ruleset_id)
        records = engine.play(ruleset, seats(players_text), SAMPLE_SEED, 40, first_deal=500)
        for row in range(40):
            log = engine.replay(ruleset, seats(players_text), SAMPLE_SEED, 500 + row)
            for name, value in log.record.items():
                assert records.columns[name][row] == value, (ruleset_id, 500 + row, name)
            assert np.array_equal(records.fans[row], log.fans), (ruleset_id, 500 + row)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_sessions_replay_and_the_dealer_keeps_the_seat_after_a_dealer_win_or_a_draw(ruleset_id):
    """Within a session the dealer stays after a dealer win or a draw; else the winner deals."""
    ruleset, players_text, session = rules(ruleset_id), "greedy,value", 6
    records = engine.play(ruleset, seats(players_text), SAMPLE_SEED, 4 * session, session_length=session)
    columns = records.columns
    for deal in range(4 * session):
        table, log = checked(ruleset, players_text, SAMPLE_SEED, deal, session)
        assert log.record["winner"] == columns["winner"][deal]
        if deal % session:
            previous_dealer, previous_winner = columns["dealer"][deal - 1], columns["winner"][deal - 1]
            expected = previous_dealer if previous_winner < 0 else previous_winner
            assert table.dealer == expected, f"deal {deal}: dealer {table.dealer}, expected {expected}"


def test_initial_shanten_after_the_flowers_matches_the_slow_reference():
    """The record's initial shanten (dealer 14 tiles, other 13, after flower replacement) by tests/kernels/naive.py."""
    for ruleset_id in RULESETS:
        for deal in range(50):
            table, _ = checked(rules(ruleset_id), "greedy,value", SAMPLE_SEED, deal)
            for seat in range(2):
                best = naive.shanten(np.array(table.initial_hands[seat], np.int64), 0)[0]
                assert best == table.initial_shanten[seat], (ruleset_id, deal, seat)


RULE_VARIANTS = {
    "max_doubles=1": {"max_doubles": 1},
    "max_doubles=0": {"max_doubles": 0},
    "ready_requires_concealed": {"ready_requires_concealed": True},
    "min_fan=16": {"min_fan": 16},
    "min_fan=0": {"min_fan": 0},
}


@pytest.mark.parametrize("variant", RULE_VARIANTS)
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_ruleset_switches_are_obeyed_at_the_table(ruleset_id, variant):
    """max_doubles, ready_requires_concealed and min_fan as the twin reads them."""
    ruleset = dataclasses.replace(rules(ruleset_id), **RULE_VARIANTS[variant])
    players_text = "random,greedy:double_below=20"
    most_doubles = 0
    for deal in range(40):
        table, _ = checked(ruleset, players_text, SAMPLE_SEED, deal)
        most_doubles = max(most_doubles, *(seat.doubles for seat in table.seats))
    if ruleset.max_doubles is not None:
        assert most_doubles <= ruleset.max_doubles


# ------------------------------------------------------------------------------------- (b) rare deals


@functools.cache
def search(ruleset_id, players_text):
    """The records of the searched deals of these players (SEARCHES) at SEARCH_SEED."""
    return engine.play(rules(ruleset_id), seats(players_text), SEARCH_SEED, SEARCHES[players_text])


def fan_won(fan):
    return lambda columns, fans: fans[:, fan] > 0


# name: (candidate mask from play()'s records, what the twin must have seen in the replay[, players searched])
RECORD_CATEGORIES = {
    "robbed kong (抢杠胡)": (
        lambda c, f: c["win_type"] == 3,
        lambda table, log: table.win_type == 3 and Fan.ROBBING_THE_KONG in table.score.counts,
    ),
    "heavenly hand (天胡)": (
        fan_won(Fan.HEAVENLY_HAND), lambda t, log: Fan.HEAVENLY_HAND in t.score.counts, FIRST_TURN_PLAYERS,
    ),
    "earthly hand (地胡)": (fan_won(Fan.EARTHLY_HAND), lambda t, log: Fan.EARTHLY_HAND in t.score.counts, FIRST_TURN_PLAYERS),
    "human hand (人胡)": (fan_won(Fan.HUMAN_HAND), lambda t, log: Fan.HUMAN_HAND in t.score.counts, FIRST_TURN_PLAYERS),
    "heavenly ready (天听) won": (
        fan_won(Fan.HEAVENLY_READY), lambda t, log: Fan.HEAVENLY_READY in t.score.counts, FIRST_TURN_PLAYERS,
    ),
    "out on a kong replacement (杠上开花)": (
        fan_won(Fan.OUT_WITH_REPLACEMENT_TILE),
        lambda t, log: Fan.OUT_WITH_REPLACEMENT_TILE in t.score.counts,
    ),
    "last wall tile (妙手回春)": (fan_won(Fan.LAST_TILE_DRAW), lambda t, log: Fan.LAST_TILE_DRAW in t.score.counts),
    "last discard (海底捞月)": (fan_won(Fan.LAST_TILE_CLAIM), lambda t, log: Fan.LAST_TILE_CLAIM in t.score.counts),
    "fourth tile (和绝张)": (fan_won(Fan.LAST_TILE), lambda t, log: Fan.LAST_TILE in t.score.counts),
    "win after doubling (加倍)": (
        lambda c, f: (c["winner"] >= 0) & (np.where(c["winner"] == 0, c["doubles_0"], c["doubles_1"]) > 0),
        lambda t, log: t.winner >= 0 and t.seats[t.winner].doubles > 0,
    ),
    "exhaustive draw (流局)": (lambda c, f: c["winner"] < 0, lambda t, log: t.winner < 0 and t.wall_left() == 0),
}
ERREN_ONLY = {"flowers (花牌) won": (fan_won(Fan.FLOWER_TILES), lambda t, log: Fan.FLOWER_TILES in t.score.counts)}
CLASSIC_ONLY = {"declared ready (报听) won": (fan_won(Fan.READY_HAND), lambda t, log: Fan.READY_HAND in t.score.counts)}


def _codes(log):
    return log.events[:, 0]


def _after(log, first, second):
    """Some row of code `first` is directly followed by one of code `second`."""
    codes = _codes(log)
    return bool(np.any((codes[:-1] == first) & (codes[1:] == second)))


def _ready_player_doubles(log):
    declared = {}
    for index, (code, seat, _) in enumerate(log.events):
        if code in (READY, HEAVENLY_READY):
            declared.setdefault(seat, index)
        elif code == DOUBLE and seat in declared:
            return True
    return False


def _dealer_kong_before_first_discard(log):
    dealer = log.record["dealer"]
    for code, seat, _ in log.events:
        if code == DISCARD:
            return False
        if code == CONCEALED_KONG and seat == dealer:
            return True
    return False


def _flower_replaces_kong_replacement_then_wins(log):
    codes, tiles = _codes(log), log.events[:, 2]
    if codes[-1] != WIN_SELF_DRAWN:
        return False
    index = len(codes) - 2
    while index >= 0 and codes[index] == REPLACEMENT:
        index -= 1
    return codes[index] in (KONG, CONCEALED_KONG, ADDED_KONG) and len(codes) - 2 - index >= 2 and tiles[index + 1] >= FIRST_FLOWER


def _wall_runs_out_in_flower_replacement(log):
    codes, tiles = _codes(log), log.events[:, 2]
    return codes[-1] == EXHAUSTED and codes[-2] in (DRAW, REPLACEMENT) and tiles[-2] >= FIRST_FLOWER


def _dealer_kong_then(log, codes):
    """The dealer declared a concealed kong before its first discard, which was followed by one of `codes`."""
    dealer, events, kong = log.record["dealer"], log.events, False
    for index, (code, seat, _) in enumerate(events):
        kong = kong or (code == CONCEALED_KONG and seat == dealer)
        if code == DISCARD:
            return kong and index + 1 < len(events) and events[index + 1, 0] in codes
    return False


def _dealer_heavenly_ready(log):
    return any(code == HEAVENLY_READY and seat == log.record["dealer"] for code, seat, _ in log.events)


def _non_dealer_heavenly_ready(log):
    return any(code == HEAVENLY_READY and seat != log.record["dealer"] for code, seat, _ in log.events)


def _melds(c):
    return (c["melds_0"] + c["melds_1"]) > 0


def _dealer_column(c, name):
    return np.where(c["dealer"] == 0, c[f"{name}_0"], c[f"{name}_1"])


def _other_column(c, name):
    return np.where(c["dealer"] == 0, c[f"{name}_1"], c[f"{name}_0"])


# name: (candidate mask from play()'s records, a test of the replayed log[, players searched])
EVENT_CATEGORIES = {
    "added kong (加杠) completed": (lambda c, f: _melds(c), lambda log: _after(log, ADDED_KONG, REPLACEMENT) or _after(log, ADDED_KONG, DOUBLE)),
    "加倍 instead of robbing a kong": (
        lambda c, f: (c["doubles_0"] + c["doubles_1"] > 0) & _melds(c),
        lambda log: _after(log, ADDED_KONG, DOUBLE),
    ),
    "exposed kong (明杠) on a discard": (lambda c, f: _melds(c), lambda log: bool(np.any(_codes(log) == KONG))),
    "concealed kong (暗杠)": (lambda c, f: _melds(c), lambda log: bool(np.any(_codes(log) == CONCEALED_KONG))),
    "dealer's concealed kong before its first discard": (
        lambda c, f: _dealer_column(c, "melds") > 0,
        _dealer_kong_before_first_discard,
    ),
    "dealer declares 天听 with its first discard": (lambda c, f: _dealer_column(c, "ready_turn") == 1, _dealer_heavenly_ready),
    "a concealed kong first: the dealer's ready is 报听, not 天听": (
        lambda c, f: (_dealer_column(c, "ready_turn") == 1) & (_dealer_column(c, "melds") > 0),
        lambda log: _dealer_kong_then(log, (READY,)),
        FIRST_TURN_PLAYERS,
    ),
    "non-dealer declares 天听 after the deal": (lambda c, f: _other_column(c, "ready_turn") == 0, _non_dealer_heavenly_ready),
    "a ready (locked) player doubles": (
        lambda c, f: ((c["doubles_0"] > 0) & (c["ready_turn_0"] >= 0)) | ((c["doubles_1"] > 0) & (c["ready_turn_1"] >= 0)),
        _ready_player_doubles,
    ),
    "加倍 on the last discard, then the draw": (
        lambda c, f: (c["winner"] < 0) & (c["doubles_0"] + c["doubles_1"] > 0),
        lambda log: _codes(log)[-1] == EXHAUSTED and _codes(log)[-2] == DOUBLE,
    ),
    "chow, pong and a win on a discard in one deal": (
        lambda c, f: c["win_type"] == 2,
        lambda log: bool(np.any(_codes(log) == CHOW) and np.any(_codes(log) == PONG)) and _codes(log)[-1] == WIN_DISCARD,
    ),
}
ERREN_ONLY_EVENTS = {
    "a kong replacement is a flower and its replacement wins (no 杠上开花)": (
        lambda c, f: (c["win_type"] == 1) & _melds(c),
        _flower_replaces_kong_replacement_then_wins,
    ),
    "the wall runs out while replacing a flower": (lambda c, f: c["winner"] < 0, _wall_runs_out_in_flower_replacement),
}

RECORD_CASES = [
    (ruleset_id, name)
    for ruleset_id in RULESETS
    for name in [*RECORD_CATEGORIES, *(ERREN_ONLY if ruleset_id == "erren" else CLASSIC_ONLY)]
]
EVENT_CASES = [
    (ruleset_id, name)
    for ruleset_id in RULESETS
    for name in [*EVENT_CATEGORIES, *(ERREN_ONLY_EVENTS if ruleset_id == "erren" else {})]
]


@pytest.mark.parametrize(("ruleset_id", "category"), RECORD_CASES)
def test_rare_wins_and_outcomes_replay_correctly(ruleset_id, category):
    candidates_of, seen, *players = {**RECORD_CATEGORIES, **ERREN_ONLY, **CLASSIC_ONLY}[category]
    players_text = players[0] if players else SEARCH_PLAYERS
    records = search(ruleset_id, players_text)
    deals = records.columns["deal"][candidates_of(records.columns, records.fans)]
    assert deals.size, f"no deal of {category} among {len(records)} deals of {ruleset_id}, {players_text}, seed {SEARCH_SEED}"
    for deal in deals[:PER_CATEGORY]:
        table, log = checked(rules(ruleset_id), players_text, SEARCH_SEED, int(deal))
        assert seen(table, played(log)), f"deal {deal}: the twin does not see {category}"


@pytest.mark.parametrize(("ruleset_id", "category"), EVENT_CASES)
def test_rare_actions_replay_correctly(ruleset_id, category):
    candidates_of, happens, *players = {**EVENT_CATEGORIES, **ERREN_ONLY_EVENTS}[category]
    players_text = players[0] if players else SEARCH_PLAYERS
    ruleset, records = rules(ruleset_id), search(ruleset_id, players_text)
    found = []
    for deal in records.columns["deal"][candidates_of(records.columns, records.fans)]:
        log = engine.replay(ruleset, seats(players_text), SEARCH_SEED, int(deal))
        if happens(played(log)):
            found.append(int(deal))
            if len(found) == PER_CATEGORY:
                break
    assert found, f"no deal with {category} among {len(records)} deals of {ruleset_id}, {players_text}, seed {SEARCH_SEED}"
    for deal in found:
        checked(ruleset, players_text, SEARCH_SEED, deal)


# Rarer still (about 4 in 1,000,000 deals): the windows were chosen where one occurs.
VOIDED_HUMAN_HAND = {"erren": (7, 200_000), "erren-classic": (7, 470_000)}


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_dealer_concealed_kong_before_the_first_discard_voids_the_human_hand(ruleset_id):
    """人胡  is void when the dealer declared a concealed kong first."""
    seed, first = VOIDED_HUMAN_HAND[ruleset_id]
    ruleset, players_text = rules(ruleset_id), FIRST_TURN_PLAYERS
    records = engine.play(ruleset, seats(players_text), seed, 20_000, first_deal=first)
    columns = records.columns
    candidates = columns["deal"][(_dealer_column(columns, "melds") > 0) & (columns["win_type"] == 2) & (columns["turns"] <= 2)]
    found = 0
    for deal in candidates:
        log = engine.replay(ruleset, seats(players_text), seed, int(deal))
        if _dealer_kong_then(played(log), (WIN_DISCARD,)):
            table, _ = checked(ruleset, players_text, seed, int(deal))
            assert Fan.HUMAN_HAND not in table.score.counts
            found += 1
    assert found, f"no win on the first discard after the dealer's concealed kong in deals {first}-{first + 19_999}"


# ------------------------------------------------------------------------------------- (c) negative controls


def corrupted(log, events=None, **changes):
    """A copy of the log with other events, record fields or arrays."""
    record = dict(log.record)
    record.update({key: value for key, value in changes.items() if key in record})
    arrays = {key: value for key, value in changes.items() if key in ("fans", "wall")}
    return dataclasses.replace(log, record=record, events=log.events.copy() if events is None else events, **arrays)


def table_before(ruleset, log, row):
    """The twin's table after the first `row` events (it stops where the shortened log ends)."""
    table = NaiveTable(ruleset, corrupted(log, events=log.events[:row].copy()))
    with pytest.raises(AssertionError, match="the log ends"):
        table.play()
    return table


def first_deal(ruleset_id, happens, players_text=SEARCH_PLAYERS, seed=SEARCH_SEED, limit=5000):
    ruleset = rules(ruleset_id)
    for deal in range(limit):
        log = engine.replay(ruleset, seats(players_text), seed, deal)
        if happens(played(log)):
            check_deal(ruleset, log)  # the control's control: the intact log passes
            return ruleset, log
    raise AssertionError(f"no deal for the negative control among {limit}")


def rows_of(log, code):
    return [int(index) for index in np.flatnonzero(log.events[:, 0] == code)]


def _discard_not_held(ruleset, log):
    row = rows_of(log, DISCARD)[0]
    table = table_before(ruleset, log, row)
    seat = log.events[row, 1]
    events = log.events.copy()
    events[row, 2] = next(kind for kind in range(34) if TILE_SET[kind] and table.seats[seat].hand[kind] == 0)
    return corrupted(log, events), "which it does not hold"


def _draw_not_at_the_front(ruleset, log):
    row = rows_of(log, DRAW)[0]
    events = log.events.copy()
    events[row, 2] = next(kind for kind in range(34) if TILE_SET[kind] and kind != events[row, 2])
    return corrupted(log, events), "front of the wall"


def _replacement_not_at_the_back(ruleset, log):
    row = rows_of(log, REPLACEMENT)[0]
    events = log.events.copy()
    events[row, 2] = next(kind for kind in range(34) if TILE_SET[kind] and kind != events[row, 2])
    return corrupted(log, events), "back of the wall"


def _dealt_tile_not_from_the_wall(ruleset, log):
    events, row = log.events.copy(), rows_of(log, DEAL)[5]
    events[row, 2] = next(kind for kind in range(34) if TILE_SET[kind] and kind != events[row, 2])
    return corrupted(log, events), "dealt"


def _draw_out_of_turn(ruleset, log):
    row = rows_of(log, DRAW)[0]
    events = log.events.copy()
    events[row, 1] = 1 - events[row, 1]
    return corrupted(log, events), "expected seat"


def _wall_not_the_tile_set(ruleset, log):
    events, wall = log.events.copy(), rows_of(log, WALL)
    events[wall[-1], 2] = events[wall[0], 2] if events[wall[0], 2] != events[wall[-1], 2] else events[wall[1], 2]
    return corrupted(log, events), "tile set"


def _fans_differ(ruleset, log):
    fans = log.fans.copy()
    fans[Fan.SELF_DRAWN] += 1
    return corrupted(log, fans=fans), "fans differ"


def _log_ends_before_the_win(ruleset, log):
    return corrupted(log, events=log.events[:-2].copy()), "the log ends"  # without the win and its payment


def _row_after_the_end(ruleset, log):
    return corrupted(log, events=np.vstack([log.events, [[DISCARD, 0, 0, 0]]]).astype(log.events.dtype)), "after the end"


def _win_on_another_tile(ruleset, log):
    events, row = log.events.copy(), rows_of(log, WIN_SELF_DRAWN)[-1]
    events[row, 2] = next(kind for kind in range(34) if TILE_SET[kind] and kind != events[row, 2])
    return corrupted(log, events), "the win is on"


def _claim_on_the_last_discard(ruleset, log):
    discard_row = rows_of(log, DISCARD)[-1]
    seat, tile = log.events[discard_row, 1], log.events[discard_row, 2]
    events = np.insert(log.events, discard_row + 1, [PONG, 1 - seat, tile, 0], axis=0)
    return corrupted(log, events), "on the last discard"


def _ready_player_passes_a_win(ruleset, log):
    for row in rows_of(log, DOUBLE):
        seat = log.events[row, 1]
        if log.events[row + 1, 0] == DISCARD and log.events[row + 1, 1] == seat:
            table = table_before(ruleset, log, row)
            if table.seats[seat].ready:
                return corrupted(log, np.delete(log.events, row, axis=0)), "instead of winning or doubling"
    raise AssertionError("no ready player's 加倍 on its own draw in this deal")


def _double_without_a_win(ruleset, log):
    row = next(index for index, (code, *_) in enumerate(log.events)
               if code not in (WALL, OUT_OF_PLAY, DEAL, REPLACEMENT, HEAVENLY_READY, WAIT))
    table = table_before(ruleset, log, row)
    events = np.insert(log.events, row, [DOUBLE, table.dealer, table.last_received, 0], axis=0)
    return corrupted(log, events), "incomplete hand"


def _ready_on_a_hand_that_is_not_ready(ruleset, log):
    for row in rows_of(log, DISCARD):
        if log.events[row + 1, 0] in (READY, HEAVENLY_READY):
            continue
        table = table_before(ruleset, log, row + 1)
        seat = log.events[row, 1]
        if not table.seats[seat].ready and not table.is_ready(seat):
            events = np.insert(log.events, row + 1, [READY, seat, 63, 0], axis=0)
            return corrupted(log, events), "not ready"
    raise AssertionError("no discard leaving an unready hand")


def _pong_without_a_pair(ruleset, log):
    for row in rows_of(log, DRAW):
        if log.events[row - 1, 0] != DISCARD:
            continue
        seat, tile = log.events[row, 1], log.events[row - 1, 2]
        table = table_before(ruleset, log, row)
        if not table.seats[seat].ready and table.seats[seat].hand[tile] < 2:
            events = log.events.copy()
            events[row] = [PONG, seat, tile, 0]
            return corrupted(log, events), "a pong of"
    raise AssertionError("no pass on a discard without a pair")


def _record_field(field, change=1):
    def corrupt(ruleset, log):
        return corrupted(log, **{field: log.record[field] + change}), f"record {field}"

    return corrupt


def _is_self_drawn_win(log):
    return _codes(log)[-1] == WIN_SELF_DRAWN


def _ends_on_the_last_discard(log):
    codes = _codes(log)
    return codes[-1] == EXHAUSTED and codes[-2] == DISCARD


def _ready_double_on_own_draw(log):
    return _ready_player_doubles(log) and _after(log, DOUBLE, DISCARD)


NEGATIVE_CONTROLS = {
    "discard of a tile not held": ("erren", _is_self_drawn_win, _discard_not_held),
    "draw of a tile not at the front of the wall": ("erren", _is_self_drawn_win, _draw_not_at_the_front),
    "replacement not from the back of the wall": ("erren", _is_self_drawn_win, _replacement_not_at_the_back),
    "dealt tile not from the wall": ("erren-classic", _is_self_drawn_win, _dealt_tile_not_from_the_wall),
    "draw out of turn": ("erren-classic", _is_self_drawn_win, _draw_out_of_turn),
    "wall that is not the tile set": ("erren", _is_self_drawn_win, _wall_not_the_tile_set),
    "a fan the win does not score": ("erren", _is_self_drawn_win, _fans_differ),
    "log that stops before the win": ("erren-classic", _is_self_drawn_win, _log_ends_before_the_win),
    "row after the end of the deal": ("erren", _is_self_drawn_win, _row_after_the_end),
    "self-drawn win on another tile": ("erren-classic", _is_self_drawn_win, _win_on_another_tile),
    "pong on the last discard": ("erren-classic", _ends_on_the_last_discard, _claim_on_the_last_discard),
    "ready player discards a winning draw without 加倍": ("erren", _ready_double_on_own_draw, _ready_player_passes_a_win),
    "加倍 without a winning hand": ("erren-classic", _is_self_drawn_win, _double_without_a_win),
    "ready declared on a hand that is not ready": ("erren", _is_self_drawn_win, _ready_on_a_hand_that_is_not_ready),
    "pong without a pair": ("erren-classic", _is_self_drawn_win, _pong_without_a_pair),
    **{
        f"record {field}": ("erren", _is_self_drawn_win, _record_field(field))
        for field in (
            "dealer", "winner", "win_type", "fan_total", "tiles_left", "turns", "flowers_0", "flowers_1",
            "doubles_0", "doubles_1", "melds_0", "melds_1", "ready_turn_0", "ready_turn_1",
            "initial_shanten_0", "initial_shanten_1", "violation",
        )
    },
}


@pytest.mark.parametrize("control", NEGATIVE_CONTROLS)
def test_the_twin_rejects_a_corrupted_log(control):
    ruleset_id, happens, corrupt = NEGATIVE_CONTROLS[control]
    ruleset, log = first_deal(ruleset_id, happens)
    bad_log, message = corrupt(ruleset, log)
    with pytest.raises(AssertionError, match=message):
        check_deal(ruleset, bad_log)

"""`erren-challenge` deals (seed 004's 闯关 game, RULES.md §7) replayed on the independent twin (tests/erren/naive_game.py).

The twin derives the challenge table from §7 alone: 136 tiles of which the first `tiles_in_play` (71) are in play,
the face-up bonus tile (花牌) turned from the back of them, chows in every suit, no minimum fan and no 加倍, the
non-dealer's 天听 on its first draw, and the extra draws of a declared-ready hand from the out-of-play tiles after an
exhausted wall. The sample covers all 16 ordered pairings of the four heuristics; the targeted tests search deals
with ``engine.play`` for the situations only §7 has (or that it changes) and replay a few; the negative controls
corrupt challenge logs and require the twin to object. Once the engine is compiled this file takes well under a
minute.
"""

import dataclasses
import functools
import itertools
from pathlib import Path

import naive
import numpy as np
import pytest
from naive_game import (
    BONUS,
    CHOW,
    DISCARD,
    DOUBLE,
    DRAW,
    EXHAUSTED,
    EXTRA_DRAW,
    HEAVENLY_READY,
    KONG,
    PAY_WIN,
    PONG,
    READY,
    REPLACEMENT,
    WIN_DISCARD,
    WIN_ROBBED_KONG,
    WIN_SELF_DRAWN,
    check_deal,
    played,
)

from kernels.fan_ids import Fan
from sim.core.notation import MeldKind
from sim.core.ruleset import load_ruleset
from sim.core.worker_processes import players_in_this_process
from sim.erren import engine

RULESET_ID = "erren-challenge"
HEURISTICS = ("random", "greedy", "value", "defensive")
PAIRINGS = tuple(f"{first},{second}" for first, second in itertools.product(HEURISTICS, HEURISTICS))
SAMPLE_SEED = 20261202
SAMPLE_DEALS = 250  # per ordered pairing: 4,000 deals in all
SEARCH_SEED = 4004
# Random players take every kind of action (kongs, claims in every suit, robbed kongs) and reach the end of the
# wall; greedy players win at once and declare ready, so they show 天听 and the extra draws.
SEARCHES = {"random,random": 100_000, "greedy,greedy": 40_000}
PER_CATEGORY = 3  # deals replayed per searched situation
IN_PLAY = 71  # §7: "随机选出71张牌"
FIRST_PIN = 9  # 筒 are kinds 9-17, 条 18-26 (RULES.md §2)
FIRST_SOU = 18


@functools.cache
def rules():
    return load_ruleset(RULESET_ID)


@functools.cache
def seats(text):
    return engine.Players.parse(text)


def checked(players_text, seed, deal, session_length=0, ruleset=None):
    """Replay one deal on the twin; returns (twin table, log). The failure names everything to reproduce it."""
    ruleset = ruleset or rules()
    log = engine.replay(ruleset, seats(players_text), seed, deal, session_length)
    try:
        return check_deal(ruleset, log), log
    except AssertionError as error:
        raise AssertionError(f"{ruleset.id}, players {players_text}, seed {seed}, session_length {session_length}: {error}") from None


def codes(log):
    return log.events[:, 0]


def rows_of(log, code):
    return [int(index) for index in np.flatnonzero(codes(log) == code)]


# ------------------------------------------------------------------------------------- (a) the ruleset's data


def test_the_ruleset_plays_section_7s_table():
    """The switches the twin reads are §7's: 71 of 136 in play, one bonus tile, three extra draws, no minimum fan,
    no 加倍, open 报听 and the non-dealer's 天听 on its first draw."""
    ruleset = rules()
    assert (ruleset.tile_set, ruleset.tiles_in_play, ruleset.bonus_tiles, ruleset.extra_draws) == ("all", IN_PLAY, 1, 3)
    assert (ruleset.min_fan, ruleset.max_doubles, ruleset.flowers) == (0, 0, False)
    assert not ruleset.ready_requires_concealed
    assert ruleset.non_dealer_heavenly_ready == "first_draw"


# ------------------------------------------------------------------------------------- (b) the sample


@pytest.mark.parametrize("players_text", PAIRINGS)
def test_every_event_of_sampled_challenge_deals_follows_section_7(players_text):
    first = 1000 * PAIRINGS.index(players_text)
    outcomes = set()
    for deal in range(first, first + SAMPLE_DEALS):
        table, log = checked(players_text, SAMPLE_SEED, deal)
        outcomes.add(table.win_type)
        # The wall is the 136 tiles; the bonus tile is wall[70] and the ordinary draws stop at the 71st tile.
        assert len(log.wall) == 136 and table.bonus == [int(log.wall[IN_PLAY - 1])]
        assert table.front <= table.back + 1 <= IN_PLAY - 1
    assert outcomes - {0}, "no deal of the sample was won"


def test_replay_reproduces_the_row_of_play():
    players_text = "greedy,random"
    records = engine.play(rules(), seats(players_text), SAMPLE_SEED, 40, first_deal=500)
    for row in range(40):
        log = engine.replay(rules(), seats(players_text), SAMPLE_SEED, 500 + row)
        for name, value in log.record.items():
            assert records.columns[name][row] == value, (500 + row, name)
        assert np.array_equal(records.fans[row], log.fans), 500 + row


def test_sessions_replay_and_the_winner_deals_next():
    """§7: the winner deals next; after a draw the dealer stays."""
    players_text, session = "greedy,value", 6
    records = engine.play(rules(), seats(players_text), SAMPLE_SEED, 4 * session, session_length=session)
    columns = records.columns
    for deal in range(4 * session):
        table, _ = checked(players_text, SAMPLE_SEED, deal, session)
        if deal % session:
            previous_dealer, previous_winner = columns["dealer"][deal - 1], columns["winner"][deal - 1]
            expected = previous_dealer if previous_winner < 0 else previous_winner
            assert table.dealer == expected, f"deal {deal}: dealer {table.dealer}, expected {expected}"


def test_initial_shanten_over_all_three_suits_matches_the_slow_reference():
    """The record's initial shanten (dealer 14 tiles, other 13) is the standard / seven-pairs shanten over all 34
    kinds, by tests/kernels/naive.py."""
    for deal in range(40):
        table, _ = checked("greedy,value", SAMPLE_SEED, deal)
        for seat in range(2):
            best = naive.shanten(np.array(table.initial_hands[seat], np.int64), 0)[0]
            assert best == table.initial_shanten[seat], (deal, seat)


def test_bonus_tiles_switch_turns_that_many_tiles_from_the_back():
    """bonus_tiles = 2: wall[70] then wall[69] are face up, and the deals replay with both in every win context."""
    ruleset = dataclasses.replace(rules(), bonus_tiles=2)
    for deal in range(60):
        table, log = checked("greedy,greedy", SAMPLE_SEED, deal, ruleset=ruleset)
        assert table.bonus == [int(log.wall[IN_PLAY - 1]), int(log.wall[IN_PLAY - 2])]


def test_extra_draws_switch_sets_how_many_out_of_play_tiles_are_drawn():
    """extra_draws = 5 (level 2's 五张海底摸牌): an extra-draw phase that fails takes wall[71] to wall[75]."""
    ruleset = dataclasses.replace(rules(), extra_draws=5)
    found = 0
    records = engine.play(ruleset, seats("greedy,greedy"), SEARCH_SEED, 4000)
    candidates = records.columns["deal"][(records.columns["winner"] < 0) & _anyone_ready(records.columns)]
    for deal in candidates[:PER_CATEGORY]:
        _, log = checked("greedy,greedy", SEARCH_SEED, int(deal), ruleset=ruleset)
        extra = [int(tile) for code, _, tile, *_ in log.events if code == EXTRA_DRAW]
        assert extra == [int(tile) for tile in log.wall[IN_PLAY : IN_PLAY + 5]], deal
        found += 1
    assert found, "no drawn deal with a declared-ready seat among 4,000 greedy deals"


# ------------------------------------------------------------------------------------- (c) searched situations


@functools.cache
def search(players_text):
    """The records of the searched deals of these players (SEARCHES) at SEARCH_SEED."""
    return engine.play(rules(), seats(players_text), SEARCH_SEED, SEARCHES[players_text])


def _anyone_ready(c):
    return (c["ready_turn_0"] >= 0) | (c["ready_turn_1"] >= 0)


def _dealer_column(c, name):
    return np.where(c["dealer"] == 0, c[f"{name}_0"], c[f"{name}_1"])


def _other_column(c, name):
    return np.where(c["dealer"] == 0, c[f"{name}_1"], c[f"{name}_0"])


def _fan_won(fan):
    return lambda c, f: f[:, fan] > 0


def _extra_draw_win(table, log):
    """The first declared seat wins on an out-of-play tile: self-drawn, 海底捞月, the in-play wall empty."""
    extra = rows_of(log, EXTRA_DRAW)
    declared = [seat for seat in range(2) if table.seats[seat].ready]
    first = min(declared, key=lambda seat: table.seats[seat].ready_turn)
    return (
        extra and codes(log)[-1] == WIN_SELF_DRAWN and log.events[-1, 1] == first
        and table.winner == first and table.win_type == 1 and table.wall_left() == 0
        and Fan.EXTRA_DRAW_WIN in table.score.counts and Fan.LAST_TILE_DRAW not in table.score.counts
        and [int(log.events[row, 2]) for row in extra] == [int(tile) for tile in log.wall[IN_PLAY : IN_PLAY + len(extra)]]
    )


def _extra_draws_fail(table, log):
    """All three extra draws are thrown and the deal is drawn."""
    extra = rows_of(log, EXTRA_DRAW)
    return (
        len(extra) == rules().extra_draws and codes(log)[-1] == EXHAUSTED and table.winner < 0
        and all(codes(log)[row + 1] == DISCARD for row in extra)
    )


def _no_ready_no_extra_draws(table, log):
    return codes(log)[-1] == EXHAUSTED and not rows_of(log, EXTRA_DRAW) and not any(seat.ready for seat in table.seats)


def _both_ready_first_declared_draws(table, log):
    extra = rows_of(log, EXTRA_DRAW)
    if not extra or not all(seat.ready for seat in table.seats):
        return False
    first = min(range(2), key=lambda seat: table.seats[seat].ready_turn)
    return all(log.events[row, 1] == first for row in extra)


def _non_dealer_heavenly_ready_on_first_draw(table, log):
    """天听 on the non-dealer's first draw: its first own turn, the tile drawn thrown at once, then declared."""
    other = 1 - table.dealer
    for row in rows_of(log, HEAVENLY_READY):
        if log.events[row, 1] == other:
            draw, discard = log.events[row - 2], log.events[row - 1]
            return (
                draw[0] == DRAW and draw[1] == other and discard[0] == DISCARD and discard[2] == draw[2]
                and table.seats[other].heavenly_ready and table.seats[other].ready_turn == 2
                and not any(code in (CHOW, PONG, KONG) for code in codes(log)[:row])
            )
    return False


def _non_dealer_plain_ready_on_first_draw(table, log):
    """A declaration on the first draw that throws another tile is a plain 报听."""
    other = 1 - table.dealer
    for row in rows_of(log, READY):
        draw, discard = log.events[row - 2], log.events[row - 1]
        if log.events[row, 1] == other and table.seats[other].ready_turn == 2 and draw[0] == DRAW:
            return discard[2] != draw[2] and not table.seats[other].heavenly_ready
    return False


def _dealer_heavenly_ready(table, log):
    return any(code == HEAVENLY_READY and seat == table.dealer for code, seat, _ in log.events) and table.seats[table.dealer].heavenly_ready


def _chow_in(first_kind):
    def happens(table, log):
        return any(code == CHOW and first_kind <= tile < first_kind + 9 for code, _, tile in log.events)

    return happens


def _robbed_kong(table, log):
    """抢杠记分按自摸计: a concealed hand robbing a kong also scores 门清自摸 (§7)."""
    if table.win_type != 3 or codes(log)[-1] != WIN_ROBBED_KONG:
        return False
    winner = table.seats[table.winner]
    concealed = winner.claimed_melds() == 0
    return Fan.FULLY_CONCEALED_HAND in table.score.counts if concealed else True


def _limit_win(table, log):
    """A 役满 hand scores only its 役满: fan_total 0, points N·10,000."""
    score = table.score
    return (
        score is not None and score.limits > 0 and score.total == 0 and score.points == 10_000 * score.limits
        and all(rules().is_limit[fan] for fan in score.counts)
    )


def _bonus_fan_won(table, log):
    """花牌: one fan per tile of the bonus kind in the winning hand and melds, a kong counting four."""
    if table.score is None or Fan.FLOWER_TILES not in table.score.counts:
        return False
    kind = table.bonus[0]
    winner = table.seats[table.winner]
    held = winner.hand[kind] + (0 if codes(log)[-1] == WIN_SELF_DRAWN else int(log.events[-1, 2] == kind))
    for meld_kind, low in winner.melds:
        if meld_kind == MeldKind.CHOW:
            held += int(low <= kind <= low + 2)
        else:
            held += (3 if meld_kind == MeldKind.PONG else 4) * int(low == kind)
    return table.score.counts[Fan.FLOWER_TILES] == held


def _seen_fan(fan):
    return lambda table, log: table.score is not None and fan in table.score.counts


# name: (candidate mask from play()'s records, what the twin must have seen in the replay, players searched).
# Not here: 天和, 地和 and 人和 (rarer than these searches; FIRST_TURN_LIMITS below replays known deals) and 杠上开花
# (none in them: the heuristics declare ready as soon as they can, and a ready hand makes no kongs).
SITUATIONS = {
    "extra draw won (海底捞月)": (_fan_won(Fan.EXTRA_DRAW_WIN), _extra_draw_win, "greedy,greedy"),
    "three extra draws thrown, then the draw": (
        lambda c, f: (c["winner"] < 0) & _anyone_ready(c), _extra_draws_fail, "greedy,greedy",
    ),
    "both seats ready: the first to declare takes the extra draws": (
        lambda c, f: (c["winner"] < 0) & (c["ready_turn_0"] >= 0) & (c["ready_turn_1"] >= 0),
        _both_ready_first_declared_draws,
        "random,random",
    ),
    "nobody ready: the exhausted wall is a draw": (
        lambda c, f: (c["winner"] < 0) & ~_anyone_ready(c), _no_ready_no_extra_draws, "random,random",
    ),
    "non-dealer ready on its first draw throwing another tile is 报听": (
        lambda c, f: _other_column(c, "ready_turn") == 2, _non_dealer_plain_ready_on_first_draw, "random,random",
    ),
    "dealer 天听 with its first discard": (
        lambda c, f: _dealer_column(c, "ready_turn") == 1, _dealer_heavenly_ready, "greedy,greedy",
    ),
    "chow of 筒": (lambda c, f: (c["melds_0"] + c["melds_1"]) > 0, _chow_in(FIRST_PIN), "random,random"),
    "chow of 条": (lambda c, f: (c["melds_0"] + c["melds_1"]) > 0, _chow_in(FIRST_SOU), "random,random"),
    "robbed kong scored as self-drawn": (lambda c, f: c["win_type"] == 3, _robbed_kong, "random,random"),
    "役满 win": (lambda c, f: c["limits"] > 0, _limit_win, "greedy,greedy"),
    "bonus tile (花牌) won": (_fan_won(Fan.FLOWER_TILES), _bonus_fan_won, "greedy,greedy"),
    "last wall tile (海底摸月)": (_fan_won(Fan.LAST_TILE_DRAW), _seen_fan(Fan.LAST_TILE_DRAW), "random,random"),
    "last discard (河底捞鱼)": (_fan_won(Fan.LAST_TILE_CLAIM), _seen_fan(Fan.LAST_TILE_CLAIM), "random,random"),
    "heavenly ready (天听) won": (_fan_won(Fan.HEAVENLY_READY), _seen_fan(Fan.HEAVENLY_READY), "greedy,greedy"),
    "declared ready (报听) won": (_fan_won(Fan.READY_HAND), _seen_fan(Fan.READY_HAND), "greedy,greedy"),
}


EAGER = f"{(Path(__file__).parents[2] / 'players') / 'eager_challenge.py'}:Eager"
EAGER_PLAYERS = f"{EAGER},{EAGER}"


def ready_dealt_non_dealer_hands():
    """Deals whose non-dealer was dealt a ready hand (initial shanten 0), the only hands that can declare 天听 on
    the first draw while throwing the tile drawn. The wall and the dealer do not depend on the players, so the
    random players' search finds them for any players."""
    columns = search("random,random").columns
    return columns["deal"][_other_column(columns, "initial_shanten") == 0]


def test_the_non_dealer_declaring_on_its_first_draw_throwing_the_drawn_tile_is_heavenly_ready():
    """§7's 天听 of the non-dealer: on its first draw (no claim before), discarding the drawn tile. The heuristics
    keep a drawn tile of equal use, so the eager test player (tests/players/eager_challenge.py) plays these deals."""
    found = []
    for deal in ready_dealt_non_dealer_hands():
        table, log = checked(EAGER_PLAYERS, SEARCH_SEED, int(deal))
        if _non_dealer_heavenly_ready_on_first_draw(table, log):
            found.append(int(deal))
    assert found, f"no 天听 on the non-dealer's first draw in the deals {ready_dealt_non_dealer_hands().tolist()}"


def test_the_bonus_tile_is_face_up_for_both_seats():
    """§7: the bonus tile is turned face up: both seats see it (as a bonus tile and among the visible copies) from
    their first decision; before any discard or meld it is the only visible tile."""
    watcher = f"{(Path(__file__).parents[2] / 'players') / 'eager_challenge.py'}:Watcher"
    with players_in_this_process():  # the Watchers are read after the deals
        players = engine.Players.parse(f"{watcher},{watcher}")
    watchers = [user.player for user in players.users]  # the Watcher instances behind the two seats
    asked = set()
    for deal in range(20):
        log = engine.replay(rules(), players, SAMPLE_SEED, deal)
        check_deal(rules(), log)
        face_up = np.zeros(34, np.int64)
        face_up[int(log.wall[IN_PLAY - 1])] = 1
        for watcher_seat in watchers:
            for seen_deal, seat, on_table, bonus, visible in watcher_seat.seen:
                assert seen_deal == deal and np.array_equal(bonus, face_up), (deal, seat)
                assert np.all(visible >= face_up), (deal, seat)
                if on_table == 0:
                    assert np.array_equal(visible, face_up), (deal, seat)
                asked.add(seat)
            watcher_seat.seen.clear()
    assert asked == {0, 1}


# 天和, 地和 and 人和 need a complete dealt hand (dealer) or a ready one (non-dealer): a few in 1,000,000 deals. These
# are the deals of seed 91 where they happen (found with the random players' initial shanten over 1,000,000
# deals, then replayed with greedy players, who take every win): replayed, not searched, to keep the file fast.
FIRST_TURN_SEED = 91
FIRST_TURN_LIMITS = {
    "heavenly hand (天和): the dealer's dealt hand is complete": (Fan.HEAVENLY_HAND, (106238, 155529, 235585)),
    "earthly hand (地和): the non-dealer self-draws on its first draw, no call before": (Fan.EARTHLY_HAND, (192322, 724370, 799455)),
    "human hand (人和): the non-dealer wins on the dealer's first discard": (Fan.HUMAN_HAND, (29308, 679485, 961492)),
}


@pytest.mark.parametrize("limit_hand", FIRST_TURN_LIMITS)
def test_first_turn_limit_hands_replay_and_score_one_limit(limit_hand):
    fan, deals = FIRST_TURN_LIMITS[limit_hand]
    for deal in deals:
        table, log = checked("greedy,greedy", FIRST_TURN_SEED, deal)
        log = played(log)
        after_bonus = [int(code) for code in codes(log)[rows_of(log, BONUS)[-1] + 1 :]]
        dealer, other = table.dealer, 1 - table.dealer
        if fan == Fan.HEAVENLY_HAND:
            assert table.initial_shanten[dealer] == -1 and after_bonus == [WIN_SELF_DRAWN], deal
            assert table.winner == dealer, deal
        elif fan == Fan.EARTHLY_HAND:
            assert after_bonus == [DISCARD, DRAW, WIN_SELF_DRAWN] and table.winner == other, deal
        else:
            assert after_bonus == [DISCARD, WIN_DISCARD] and table.winner == other, deal
        assert fan in table.score.counts and table.score.limits >= 1, deal
        assert (log.record["fan_total"], log.record["points"]) == (0, 10_000 * table.score.limits), deal


@pytest.mark.parametrize("situation", SITUATIONS)
def test_searched_challenge_situations_replay_correctly(situation):
    candidates_of, seen, players_text = SITUATIONS[situation]
    records = search(players_text)
    candidates = records.columns["deal"][candidates_of(records.columns, records.fans)]
    assert candidates.size, f"no candidate for {situation} among {len(records)} deals of {players_text}, seed {SEARCH_SEED}"
    found = []
    for deal in candidates[:200]:
        table, log = checked(players_text, SEARCH_SEED, int(deal))
        if seen(table, played(log)):
            found.append(int(deal))
            if len(found) == PER_CATEGORY:
                break
    assert found, f"the twin sees no {situation} among {min(200, candidates.size)} candidates of {players_text}, seed {SEARCH_SEED}"


# ------------------------------------------------------------------------------------- (d) negative controls


def corrupted(log, events=None, **changes):
    """A copy of the log with other events or record fields."""
    record = dict(log.record)
    record.update({key: value for key, value in changes.items() if key in record})
    arrays = {key: value for key, value in changes.items() if key in ("fans", "wall")}
    return dataclasses.replace(log, record=record, events=log.events.copy() if events is None else events, **arrays)


def found_deal(players_text, candidates_of, happens):
    """The first searched deal (SEARCHES) of these players whose replay shows `happens`; the intact log must pass."""
    records = search("random,random" if players_text == EAGER_PLAYERS else players_text)  # deals, for any players
    for deal in records.columns["deal"][candidates_of(records.columns, records.fans)][:300]:
        table, log = checked(players_text, SEARCH_SEED, int(deal))  # the control's control: the intact log passes
        if happens(table, played(log)):
            return log
    raise AssertionError(f"no deal for the negative control among the searched deals of {players_text}")


def other_kind(tile, *avoid):
    return next(kind for kind in range(34) if kind != tile and kind not in avoid)


def insert(log, row, *new_rows):
    """The log's rows with (code, seat, tile) rows inserted at `row` (no amount: none is a payment)."""
    return np.insert(log.events, row, np.array([[*new, 0] for new in new_rows], log.events.dtype), axis=0)


def last_play(log):
    """The row of the deal's last play: its win (before the payment) or the empty wall."""
    return len(log.events) - 2 if codes(log)[-1] == PAY_WIN else len(log.events) - 1


def _extra_draw_from_the_wrong_position(log):
    row = rows_of(log, EXTRA_DRAW)[0]
    events = log.events.copy()
    # The second out-of-play tile (or, when it is the same kind, any other kind) instead of wall[71].
    wrong = int(log.wall[IN_PLAY + 1])
    events[row, 2] = wrong if wrong != events[row, 2] else other_kind(events[row, 2])
    return corrupted(log, events), "the next out-of-play tile"


def _bonus_tile_not_from_the_back(log):
    row = rows_of(log, BONUS)[0]
    events = log.events.copy()
    events[row, 2] = other_kind(int(log.wall[IN_PLAY - 1]))
    return corrupted(log, events), "the bonus tile is"


def _bonus_tile_missing(log):
    return corrupted(log, np.delete(log.events, rows_of(log, BONUS)[0], axis=0)), "expected BONUS"


def _extra_draw_with_nobody_ready(log):
    tile = int(log.wall[IN_PLAY])
    return corrupted(log, insert(log, last_play(log), [EXTRA_DRAW, 0, tile], [DISCARD, 0, tile])), "nobody declared ready"


def _ordinary_draw_past_the_tiles_in_play(log):
    """The wall ends at the 71st tile: the next tile of the shuffled set is no ordinary draw."""
    events, last = log.events.copy(), last_play(log)
    events[last] = [DRAW, 1 - int(log.events[rows_of(log, DISCARD)[-1], 1]), int(log.wall[IN_PLAY]), 0]
    return corrupted(log, events), "expected EXHAUSTED"


def _extra_draw_by_the_second_declarer(log):
    row = rows_of(log, EXTRA_DRAW)[0]
    events = log.events.copy()
    events[row, 1] = 1 - events[row, 1]
    return corrupted(log, events), "expected seat"


def _winning_extra_draw_thrown(log):
    events = log.events.copy()
    events[last_play(log), 0] = DISCARD
    return corrupted(log, events), "the locked hand's extra draw wins"


def _win_on_a_thrown_extra_draw(log):
    row = rows_of(log, EXTRA_DRAW)[0] + 1  # its discard
    seat, tile = int(log.events[row, 1]), int(log.events[row, 2])
    return corrupted(log, insert(log, row + 1, [WIN_DISCARD, 1 - seat, tile])), "expected EXTRA_DRAW"


def _extra_draws_stop_short(log):
    last = rows_of(log, EXTRA_DRAW)[-1]
    return corrupted(log, np.delete(log.events, [last, last + 1], axis=0)), "expected EXTRA_DRAW"


def _replacement_from_the_back_of_all_136(log):
    row = rows_of(log, REPLACEMENT)[0]
    events = log.events.copy()
    wrong = int(log.wall[-1])
    events[row, 2] = wrong if wrong != events[row, 2] else other_kind(events[row, 2])
    return corrupted(log, events), "back of the wall"


def _chow_across_suits(log):
    row = rows_of(log, CHOW)[0] + 1  # the chow's lowest tile
    events = log.events.copy()
    events[row, 2] = FIRST_PIN + 7  # 8筒 9筒 1条 is no run
    return corrupted(log, events), "not a run of one suit"


def _double_in_a_game_without_it(log):
    win = last_play(log)
    seat, tile = int(log.events[win, 1]), int(log.events[win, 2])
    return corrupted(log, insert(log, win, [DOUBLE, seat, tile])), "max_doubles"


def _plain_ready_logged_as_heavenly(log):
    other = 1 - log.record["dealer"]
    row = next(row for row in rows_of(log, READY) if log.events[row, 1] == other)
    events = log.events.copy()
    events[row, 0] = HEAVENLY_READY
    return corrupted(log, events), "天听 is only"


def _first_draw_heavenly_ready_logged_as_plain(log):
    other = 1 - log.record["dealer"]
    row = next(row for row in rows_of(log, HEAVENLY_READY) if log.events[row, 1] == other)
    events = log.events.copy()
    events[row, 0] = READY
    return corrupted(log, events), "is 天听"


def _heavenly_ready_right_after_the_deal(log):
    other = 1 - log.record["dealer"]
    return corrupted(log, insert(log, rows_of(log, BONUS)[-1] + 1, [HEAVENLY_READY, other, 0])), "not an action"


def _bonus_fan_dropped(log):
    fans = log.fans.copy()
    fans[Fan.FLOWER_TILES] = 0
    return corrupted(log, fans=fans), "fans differ"


def _record_field(field, change=1):
    def corrupt(log):
        return corrupted(log, **{field: log.record[field] + change}), f"record {field}"

    return corrupt


def _extra_draw(table, log):
    return bool(rows_of(log, EXTRA_DRAW))


def _is_self_drawn_win(table, log):
    return codes(log)[-1] == WIN_SELF_DRAWN and not rows_of(log, EXTRA_DRAW)


def _won(c, f):
    return c["winner"] >= 0


def _drawn_with_someone_ready(c, f):
    return (c["winner"] < 0) & _anyone_ready(c)

# name: (players searched, candidate mask, the deal it needs, the corruption)
NEGATIVE_CONTROLS = {
    "extra draw from the wrong position": ("greedy,greedy", _drawn_with_someone_ready, _extra_draws_fail, _extra_draw_from_the_wrong_position),
    "bonus tile not from wall[70]": ("greedy,greedy", _won, _is_self_drawn_win, _bonus_tile_not_from_the_back),
    "no bonus tile turned": ("greedy,greedy", _won, _is_self_drawn_win, _bonus_tile_missing),
    "extra draw when nobody declared ready": (
        "random,random", lambda c, f: (c["winner"] < 0) & ~_anyone_ready(c), _no_ready_no_extra_draws, _extra_draw_with_nobody_ready,
    ),
    "an ordinary draw past the 71 tiles in play": (
        "random,random", lambda c, f: (c["winner"] < 0) & ~_anyone_ready(c), _no_ready_no_extra_draws, _ordinary_draw_past_the_tiles_in_play,
    ),
    "extra draw by the seat that declared second": (
        "random,random", SITUATIONS["both seats ready: the first to declare takes the extra draws"][0],
        _both_ready_first_declared_draws, _extra_draw_by_the_second_declarer,
    ),
    "a locked hand throws a winning extra draw": ("greedy,greedy", _fan_won(Fan.EXTRA_DRAW_WIN), _extra_draw_win, _winning_extra_draw_thrown),
    "a win on a thrown extra draw": ("greedy,greedy", _drawn_with_someone_ready, _extra_draws_fail, _win_on_a_thrown_extra_draw),
    "fewer extra draws than extra_draws": ("greedy,greedy", _drawn_with_someone_ready, _extra_draws_fail, _extra_draws_stop_short),
    "kong replacement from the back of all 136 tiles": (
        "random,random", lambda c, f: (c["melds_0"] + c["melds_1"]) > 0,
        lambda table, log: bool(rows_of(log, REPLACEMENT)), _replacement_from_the_back_of_all_136,
    ),
    "chow across two suits": ("random,random", lambda c, f: (c["melds_0"] + c["melds_1"]) > 0, _chow_in(FIRST_PIN), _chow_across_suits),
    "加倍 in a game without it": ("greedy,greedy", _won, _is_self_drawn_win, _double_in_a_game_without_it),
    "a first-draw ready throwing another tile logged as 天听": (
        "random,random", SITUATIONS["non-dealer ready on its first draw throwing another tile is 报听"][0],
        _non_dealer_plain_ready_on_first_draw, _plain_ready_logged_as_heavenly,
    ),
    "a first-draw 天听 logged as 报听": (
        EAGER_PLAYERS, lambda c, f: _other_column(c, "initial_shanten") == 0,
        _non_dealer_heavenly_ready_on_first_draw, _first_draw_heavenly_ready_logged_as_plain,
    ),
    "a non-dealer 天听 right after the deal": ("greedy,greedy", _won, _is_self_drawn_win, _heavenly_ready_right_after_the_deal),
    "a 花牌 the win does not lack": ("greedy,greedy", _fan_won(Fan.FLOWER_TILES), _bonus_fan_won, _bonus_fan_dropped),
    **{
        f"record {field}": ("greedy,greedy", _won, _is_self_drawn_win, _record_field(field))
        for field in ("fan_total", "limits", "points", "tiles_left", "turns", "ready_turn_0", "ready_turn_1")
    },
    "record limits of a 役满 win": ("greedy,greedy", lambda c, f: c["limits"] > 0, _limit_win, _record_field("limits")),
    "record turns after extra draws": ("greedy,greedy", _drawn_with_someone_ready, _extra_draws_fail, _record_field("turns")),
}


@pytest.mark.parametrize("control", NEGATIVE_CONTROLS)
def test_the_twin_rejects_a_corrupted_challenge_log(control):
    players_text, candidates_of, happens, corrupt = NEGATIVE_CONTROLS[control]
    log = found_deal(players_text, candidates_of, happens)
    bad_log, message = corrupt(log)
    with pytest.raises(AssertionError, match=message):
        check_deal(rules(), bad_log)


@pytest.mark.parametrize("ruleset_id", ["erren", "erren-classic"])
@pytest.mark.parametrize("field", ["limits", "points"])
def test_erren_and_classic_records_have_no_limits_and_no_points(ruleset_id, field):
    """Only the challenge game prices a win in points: erren and erren-classic records hold 0 in both columns."""
    ruleset = load_ruleset(ruleset_id)
    for deal in range(200):
        log = engine.replay(ruleset, seats("greedy,greedy"), SAMPLE_SEED, deal)
        if log.record["winner"] >= 0:
            break
    check_deal(ruleset, log)
    with pytest.raises(AssertionError, match=f"record {field}"):
        check_deal(ruleset, corrupted(log, **{field: 1}))

"""How the 国标 family scores a win (docs/rules/mcr-table.md#a-wins-fans-and-money): the family's scoring paths
(``sim.mcr.scoring`` for `mjsim score`, ``sim.mcr.win_value`` for the engine and the players) give the MCR
evaluator's fans (``kernels.fans.mcr_all_suits``, tested fan by fan in tests/kernels/test_mcr_fan*.py), and the
context the family hands it is the deal's: the seat and round winds of the match, the flowers (花牌, never
toward the minimum), 自摸, 和绝张, the last tile, 杠上开花 and 抢杠和.

The golden hands are written in MPSZ notation; the fans they must and must not score are the rules book's:
门风刻 and 圈风刻 are pungs of the seat's and the round's wind, whose pung is not also a 幺九刻; 不求人 (a
concealed self-draw) takes the place of 自摸 and 门前清; 妙手回春 and 杠上开花 take the place of 自摸; 抢杠和
that of 和绝张.
"""

import dataclasses

import numpy as np
import pytest

from kernels.fan_ids import CONTEXT_FLAG_BITS, N_FANS, ROUND_WIND_SHIFT, SEAT_WIND_SHIFT, WIND_NAMES, Fan
from kernels.fans.mcr_all_suits import score_many
from kernels.tiles import FIRST_FLOWER, N_KINDS
from sim.core.all_suit_hands import random_all_suit_hands
from sim.core.notation import Hand, Meld, MeldKind, parse_tiles
from sim.core.ruleset import load_ruleset
from sim.core.win_context import WinContext, parse_scoring_input
from sim.families.scoring import ScoringError, score
from sim.mcr import engine, win_value
from sim.mcr.table import new_work


@pytest.fixture(scope="module")
def mcr():
    return load_ruleset("mcr")


def scored(ruleset, concealed, win, melds=(), **context):
    hand, tile = parse_scoring_input(concealed, win, list(melds))
    return score(hand, tile, WinContext(**context), ruleset)


def count(result, fan):
    return result.counts.get(fan, 0)


# ------------------------------------------------------------------------------------- golden hands

EAST_PUNG = ("111z 123m 456p 789s 5z", "5z")  # a pung of 东, three chows, waiting on the pair of 白


@pytest.mark.parametrize(("seat_wind", "round_wind", "seat", "prevalent"), [
    ("east", "east", 1, 1),
    ("south", "east", 0, 1),
    ("east", "west", 1, 0),
    ("north", "south", 0, 0),
])
def test_a_wind_pung_scores_the_seat_and_round_winds_it_is(mcr, seat_wind, round_wind, seat, prevalent):
    result = scored(mcr, *EAST_PUNG, seat_wind=seat_wind, round_wind=round_wind)
    assert count(result, Fan.SEAT_WIND) == seat and count(result, Fan.PREVALENT_WIND) == prevalent
    # the wind's pung is a 幺九刻 only when it is neither the seat's nor the round's wind
    assert count(result, Fan.PUNG_OF_TERMINALS_OR_HONORS) == int(not seat and not prevalent)


def test_a_concealed_self_draw_is_fully_concealed_and_an_open_one_self_drawn(mcr):
    concealed_draw = scored(mcr, *EAST_PUNG, self_drawn=True)
    assert count(concealed_draw, Fan.FULLY_CONCEALED_HAND) == 1
    assert count(concealed_draw, Fan.SELF_DRAWN) == 0 and count(concealed_draw, Fan.CONCEALED_HAND) == 0
    on_discard = scored(mcr, *EAST_PUNG)
    assert count(on_discard, Fan.CONCEALED_HAND) == 1 and count(on_discard, Fan.FULLY_CONCEALED_HAND) == 0
    open_draw = scored(mcr, "111z 456p 789s 5z", "5z", ["[123m]"], self_drawn=True)
    assert count(open_draw, Fan.SELF_DRAWN) == 1 and count(open_draw, Fan.FULLY_CONCEALED_HAND) == 0
    assert count(open_draw, Fan.CONCEALED_HAND) == 0


def test_the_last_tile_is_drawn_or_claimed(mcr):
    drawn = scored(mcr, "111z 456p 789s 5z", "5z", ["[123m]"], self_drawn=True, last_tile=True)
    assert count(drawn, Fan.LAST_TILE_DRAW) == 1 and count(drawn, Fan.SELF_DRAWN) == 0  # 妙手回春
    claimed = scored(mcr, "111z 456p 789s 5z", "5z", ["[123m]"], last_tile=True)
    assert count(claimed, Fan.LAST_TILE_CLAIM) == 1 and count(claimed, Fan.LAST_TILE_DRAW) == 0  # 海底捞月


def test_a_win_on_a_kongs_replacement_is_out_with_a_replacement_tile(mcr):
    result = scored(mcr, "111z 456p 789s 5z", "5z", ["[5555s]"], self_drawn=True, kong_replacement=True)
    assert count(result, Fan.OUT_WITH_REPLACEMENT_TILE) == 1 and count(result, Fan.SELF_DRAWN) == 0  # 杠上开花


def test_robbing_a_kong_takes_the_place_of_the_fourth_tile(mcr):
    robbed = scored(mcr, "111z 456p 789s 13m 55z", "2m", robbing_kong=True, fourth_tile=True)
    assert count(robbed, Fan.ROBBING_THE_KONG) == 1 and count(robbed, Fan.LAST_TILE) == 0  # 抢杠和 excludes 和绝张
    fourth = scored(mcr, "111z 456p 789s 13m 55z", "2m", fourth_tile=True)
    assert count(fourth, Fan.LAST_TILE) == 1 and count(fourth, Fan.ROBBING_THE_KONG) == 0  # 和绝张


@pytest.mark.parametrize("flowers", [0, 1, 3, 8])
def test_flowers_are_one_fan_each_for_the_winner_and_never_toward_the_minimum(mcr, flowers):
    without = scored(mcr, "123m 345p 567s 678s 9m", "9m")
    assert without.total_without_flowers < mcr.min_fan  # the hand alone does not reach 8 fans
    result = scored(mcr, "123m 345p 567s 678s 9m", "9m", flowers=flowers)
    assert count(result, Fan.FLOWER_TILES) == flowers and int(mcr.values[Fan.FLOWER_TILES]) == 1
    assert result.total == result.total_without_flowers + flowers
    assert result.total_without_flowers == without.total_without_flowers
    assert not result.legal  # even with 8 flowers: the minimum counts fans without them


def test_flowers_in_the_hand_count_as_the_flower_count_does(mcr):
    hand, tile = parse_scoring_input("123m 345p 567s 678s 9m 1f 5f", "9m")
    assert hand.flowers == (FIRST_FLOWER, FIRST_FLOWER + 4)
    assert count(score(hand, tile, WinContext(), mcr), Fan.FLOWER_TILES) == 2
    with pytest.raises(ScoringError, match="not both"):
        score(hand, tile, WinContext(flowers=2), mcr)
    no_flowers = dataclasses.replace(mcr, flowers=False)
    with pytest.raises(ScoringError, match="without flowers"):
        scored(no_flowers, "123m 345p 567s 678s 9m", "9m", flowers=1)


@pytest.mark.parametrize(("context", "message"), [
    ({"robbing_kong": True, "self_drawn": True}, "not a self-draw"),
    ({"kong_replacement": True}, "self-drawn win"),
    ({"robbing_kong": True, "last_tile": True}, "cannot be on the last tile"),
    ({"ready": True}, "not a fan of mcr"),
])
def test_contexts_that_cannot_happen_at_the_mcr_table_are_refused(mcr, context, message):
    with pytest.raises(ScoringError, match=message):
        scored(mcr, *EAST_PUNG, **context)


# ------------------------------------------------------------------------------------- the two paths


def _context_of(flags: int) -> WinContext:
    """The WinContext whose flags are `flags` (its bits and its two wind fields)."""
    named = {name: bool(flags & bit) for name, bit in CONTEXT_FLAG_BITS.items()}
    return WinContext(**named, seat_wind=WIND_NAMES[flags >> SEAT_WIND_SHIFT & 3],
                      round_wind=WIND_NAMES[flags >> ROUND_WIND_SHIFT & 3])


def test_the_score_command_the_engine_and_the_evaluator_agree_on_generated_wins(mcr):
    hands = random_all_suit_hands(np.random.default_rng(38), 3000)
    counts, totals = score_many(hands.concealed, hands.melds, hands.n_melds, hands.win, hands.flags, hands.flowers,
                                *mcr.kernel_arrays())
    assert (totals >= 0).all()
    rules, _ = engine.kernel_rules(mcr)
    work = win_value.new_fan_work()
    fans = np.zeros(N_FANS, np.int64)
    compared = 0
    for index in range(len(totals)):
        # the engine's path: the hand as the engine holds it, the flags it builds
        total = win_value.score_win(hands.concealed[index].copy(), hands.melds[index].copy(), hands.n_melds[index],
                                    hands.win[index], hands.flags[index], hands.flowers[index], rules, work)
        win_value.copy_fans(work, fans)
        assert total == totals[index] and np.array_equal(fans, counts[index]), index
        if index % 10:
            continue
        # `mjsim score`'s path: the same hand as text reads it, the context as named switches
        melds = tuple(Meld(MeldKind(int(code)), int(low)) for code, low in hands.melds[index, : hands.n_melds[index]])
        hand = Hand(tuple(int(value) for value in hands.concealed[index]), melds)
        context = dataclasses.replace(_context_of(int(hands.flags[index])), flowers=int(hands.flowers[index]))
        try:
            result = score(hand, int(hands.win[index]), context, mcr)
        except ScoringError:  # the generator also writes contexts no MCR deal has (a robbed kong on the last tile)
            continue
        assert result.total_without_flowers == totals[index]
        assert result.counts == {Fan(fan): int(counts[index, fan]) for fan in mcr.order if counts[index, fan]}
        compared += 1
    assert compared > 200


# ------------------------------------------------------------------------------------- the deal's context


def _wall(dealer_hand: str) -> np.ndarray:
    """A 144-tile wall whose first 14 tiles (the dealer's) are `dealer_hand`, the rest every other tile in
    order of kind, the flowers last (dealt to nobody)."""
    first = [int(kind) for kind in np.repeat(np.arange(N_KINDS), parse_tiles(dealer_hand))]
    counts = np.full(N_KINDS, 4) - parse_tiles(dealer_hand)
    rest = [int(kind) for kind in np.repeat(np.arange(N_KINDS), counts)]
    return np.array(first + rest + list(range(FIRST_FLOWER, FIRST_FLOWER + 8)), np.int8)


@pytest.mark.parametrize(("deal", "seat_wind_pungs", "round_wind_pungs"), [
    (0, 1, 1),  # dealer seat 0 (东) in the 东 round: the 东 pung is both
    (5, 1, 1),  # dealer seat 1 (东) in the 南 round: 东 is the seat's, 南 the round's
    (9, 1, 0),  # the 西 round: neither pung is the round's
    (14, 1, 0),  # the 北 round
])
def test_the_engine_scores_the_dealers_win_with_the_winds_of_its_place_in_the_match(mcr, deal, seat_wind_pungs,
                                                                                     round_wind_pungs):
    ruleset = dataclasses.replace(mcr, min_fan=0)
    rules, _ = engine.kernel_rules(ruleset)
    players = engine.Players.parse("greedy,greedy,greedy,greedy")
    record = np.zeros(engine.RECORD_WIDTH, np.int32)
    fans = np.zeros(N_FANS, np.uint8)
    events = np.zeros((engine.MAX_EVENTS, 4), np.int32)
    engine.play_wall(deal, np.uint64(1), _wall("111z 222z 123m 456p 55s"), rules, players.kinds, players.parameters,
                     new_work(), True, record, fans, events)
    value = dict(zip(engine.RECORD_COLUMNS, record.tolist()))
    assert value["violation"] == 0 and value["winner"] == deal % 4 and value["win_type"] == engine.SELF_DRAWN
    assert fans[Fan.SEAT_WIND] == seat_wind_pungs and fans[Fan.PREVALENT_WIND] == round_wind_pungs
    assert fans[Fan.FULLY_CONCEALED_HAND] == 1  # the dealer's first turn is a self-draw of a concealed hand


def test_the_engine_gives_each_win_the_context_of_its_deal(mcr):
    """Over thousands of greedy deals: 自摸 and its replacements only on self-draws, the last tile exactly where
    the wall is empty, 抢杠和 exactly on robbed kongs, 花牌 the winner's flowers, and the fan total the
    ruleset's values of the fans, flowers aside."""
    records = engine.play(mcr, "greedy,greedy,greedy,greedy", seed=38, n_deals=3000)
    c, fans = records.columns, records.fans.astype(np.int64)
    won = c["winner"] >= 0
    self_drawn, discard, robbed = (c["win_type"] == engine.SELF_DRAWN), (c["win_type"] == engine.DISCARD_WIN), (
        c["win_type"] == engine.ROBBED_KONG)
    assert self_drawn.sum() > 100 and discard.sum() > 100 and robbed.sum() > 5
    drawn_fans = fans[:, [Fan.SELF_DRAWN, Fan.FULLY_CONCEALED_HAND, Fan.LAST_TILE_DRAW,
                          Fan.OUT_WITH_REPLACEMENT_TILE]].sum(axis=1)
    assert (drawn_fans[self_drawn] == 1).all() and (drawn_fans[~self_drawn] == 0).all()
    empty = c["tiles_left"] == 0
    assert np.array_equal(fans[:, Fan.LAST_TILE_DRAW] > 0, self_drawn & empty)
    assert np.array_equal(fans[:, Fan.LAST_TILE_CLAIM] > 0, discard & empty)
    assert np.array_equal(fans[:, Fan.ROBBING_THE_KONG] > 0, robbed)
    assert (fans[robbed, Fan.LAST_TILE] == 0).all()
    assert np.array_equal(fans[won, Fan.FLOWER_TILES], c["winner_flowers"][won])
    values = mcr.values.astype(np.int64).copy()
    values[Fan.FLOWER_TILES] = 0
    assert np.array_equal(fans[won] @ values[:N_FANS], c["fan_total"][won])
    assert (c["fan_total"][won] >= mcr.min_fan).all()
    assert (fans[~won] == 0).all()

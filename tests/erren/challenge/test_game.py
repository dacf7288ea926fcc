"""The deals of erren-challenge (004's 闯关 game, docs/rules/erren-challenge.md) as a specification: the
validating mode over every pairing of the built-in players, the initial hands from 136 tiles against their
exact shanten distribution, the bonus tile, the extra draws, points as the money, and the commands that
play deals (that a run split in two is the same run is in tests/erren/test_engine.py, with the other 二人
rulesets). The event logs are replayed on the independent twin in tests/erren/challenge/test_replay.py."""

import itertools

import numpy as np
import pandas as pd
import pytest
from exact_deals import agrees_with_exact, initial_shanten_distribution_all_suits
from numba import njit

from kernels.fan_ids import Fan
from sim.core.rooms import Room
from sim.core.ruleset import load_ruleset
from sim.erren import engine
from sim.erren import players as heuristics
from sim.erren.money import outcome_summary, seat_changes
from sim.erren.table import new_state, new_work

CHALLENGE = "erren-challenge"
PAIRINGS = [f"{a},{b}" for a, b in itertools.product(heuristics.NAMES, repeat=2)]
IN_PLAY, DEALT = 71, 27


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset(CHALLENGE)


# ------------------------------------------------------------------------------ validating mode


@pytest.mark.parametrize("pairing", PAIRINGS)
def test_validating_mode_finds_no_violation_in_ten_thousand_deals(ruleset, pairing):
    records = engine.play(ruleset, engine.Players.parse(pairing), seed=12, n_deals=10_000, validate=True)
    columns = records.columns
    violations = columns["violation"]
    first = np.flatnonzero(violations)
    assert not first.size, f"deal {first[0]}: {engine.VIOLATIONS[violations[first[0]]]}"
    wins = columns["winner"] >= 0
    # every win is priced by the ruleset's points: f·(f+1)·50 for f fans, 10,000 a 役满
    expected = [ruleset.points.of(fans, limits) for fans, limits in zip(columns["fan_total"][wins], columns["limits"][wins],
                                                                        strict=True)]
    assert np.array_equal(columns["points"][wins], expected)
    assert (columns["points"][wins] >= 100).all()  # no minimum fan, and 推倒胡 makes every win worth a fan
    assert (columns["points"][~wins] == 0).all() and (records.fans[~wins] == 0).all()
    assert (columns["flowers_0"] == 0).all() and (columns["doubles_0"] + columns["doubles_1"] == 0).all()


# ------------------------------------------------------------------------------ the deal


@njit(cache=True)
def _deal_many(seed, n_deals, template, rules, state, work, shanten):
    """Deal n_deals deals as the engine deals them (the dealer alternating) and keep each seat's initial
    shanten: row 0 the dealer's 14 tiles, row 1 the other seat's 13."""
    wall = template.copy()
    events = np.zeros((engine.MAX_EVENTS, 3), np.int16)
    record = np.zeros(len(engine.RECORD_COLUMNS), np.int32)
    for deal in range(n_deals):
        dealer = deal % 2
        engine.begin_deal(deal, dealer, seed, template, wall, rules, state, work, events, record, False)
        shanten[0, deal] = record[engine.R_INITIAL_SHANTEN + dealer]
        shanten[1, deal] = record[engine.R_INITIAL_SHANTEN + 1 - dealer]


N_STATISTICS = 300_000
STATISTICS_SEED = 20261202


@pytest.fixture(scope="module")
def dealt(ruleset):
    """The initial shanten of 300,000 deals: row 0 the dealer's 14 tiles, row 1 the other seat's 13 (the
    wall, and so the hands, do not depend on who deals)."""
    rules, template = engine.kernel_rules(ruleset)
    shanten = np.zeros((2, N_STATISTICS), np.int64)
    _deal_many(np.uint64(STATISTICS_SEED), N_STATISTICS, template, rules, new_state(), new_work(), shanten)
    return shanten


@pytest.mark.parametrize(("role", "n_tiles"), [(0, 14), (1, 13)])
def test_initial_shanten_of_hands_dealt_from_136_tiles_matches_the_exact_distribution(dealt, role, n_tiles):
    """The 136 tiles are shuffled and the first 27 dealt: each seat's hand is a uniform draw from the 136."""
    observed = np.bincount(dealt[role] + 1, minlength=10)
    agrees, chi_square = agrees_with_exact(observed, initial_shanten_distribution_all_suits(n_tiles), N_STATISTICS)
    assert agrees, f"chi-square {chi_square:.1f}: observed {observed.tolist()}"


def test_the_exact_distribution_sums_to_one_and_a_complete_hand_is_rarer_than_in_erren():
    dealer = initial_shanten_distribution_all_suits(14)
    assert abs(dealer.sum() - 1) < 1e-12
    assert 2.5e-6 < dealer[0] < 3.5e-6  # 天和 from 136 tiles: about one deal in 330,000
    assert initial_shanten_distribution_all_suits(13)[0] == 0


def test_the_wall_is_71_tiles_of_the_shuffled_136_and_the_bonus_tile_leaves_it(ruleset):
    players = engine.Players.parse("greedy,greedy")
    for deal in range(40):
        log = engine.replay(ruleset, players, 3, deal)
        assert np.array_equal(np.bincount(log.wall, minlength=34), np.full(34, 4))
        codes = log.events[:, 0]
        bonus = log.events[codes == engine.EV_BONUS]
        assert len(bonus) == 1 and bonus[0, 2] == log.wall[IN_PLAY - 1]  # turned from the back of the 71
        draws = log.events[codes == engine.EV_DRAW, 2]
        # ordinary draws come from the front, in order, after the 27 dealt tiles
        assert np.array_equal(draws, log.wall[DEALT : DEALT + len(draws)])
        replacements = log.events[codes == engine.EV_REPLACEMENT, 2]
        assert np.array_equal(replacements, log.wall[IN_PLAY - 2 : IN_PLAY - 2 - len(replacements) : -1])
        if log.record["winner"] < 0 or engine.EV_EXTRA_DRAW in codes:
            assert DEALT + len(draws) + len(replacements) == IN_PLAY - 1  # the wall was played out
        extra = log.events[codes == engine.EV_EXTRA_DRAW, 2]
        assert np.array_equal(extra, log.wall[IN_PLAY : IN_PLAY + len(extra)])


def test_every_bonus_tile_the_winner_holds_is_a_fan(ruleset):
    """花牌 counts the bonus kind in the winner's hand and melds, found here from the replayed tiles."""
    players = engine.Players.parse("greedy,greedy")
    records = engine.play(ruleset, players, seed=5, n_deals=3000)
    shown = 0
    for deal in np.flatnonzero(records.columns["winner"] >= 0)[:200]:
        log = engine.replay(ruleset, players, 5, int(deal))
        codes, seats, tiles, _ = log.events.T
        bonus = int(tiles[codes == engine.EV_BONUS][0])
        winner = log.record["winner"]
        # the winner's tiles: dealt, drawn, claimed, minus its discards; a kong's fourth tile counts too
        received = ((codes == engine.EV_DEAL) | (codes == engine.EV_DRAW) | (codes == engine.EV_REPLACEMENT)
                    | (codes == engine.EV_EXTRA_DRAW)) & (seats == winner)
        held = int((tiles[received] == bonus).sum()) - int(((codes == engine.EV_DISCARD) & (seats == winner)
                                                              & (tiles == bonus)).sum())
        for row, (code, seat, tile, _) in enumerate(log.events):
            if seat == winner and code in (engine.EV_PONG, engine.EV_KONG, engine.EV_CHOW):
                discards = np.flatnonzero(codes[:row] == engine.EV_DISCARD)
                held += int(tiles[discards[-1]] == bonus)  # the discard it claimed
        if log.record["win_type"] != engine.SELF_DRAWN:
            held += int(tiles[-2] == bonus)  # the winning tile came from the opponent (the last row is its payment)
        if log.record["limits"] == 0:
            assert log.fans[Fan.FLOWER_TILES] == held, f"deal {deal}"
            shown += held > 0
    assert shown > 10


def test_extra_draws_follow_an_empty_wall_for_the_first_declared_seat(ruleset):
    players = engine.Players.parse("greedy,greedy")
    records = engine.play(ruleset, players, seed=8, n_deals=4000)
    columns = records.columns
    extra_wins = records.fans[:, Fan.EXTRA_DRAW_WIN] > 0
    assert extra_wins.sum() > 20
    assert (columns["tiles_left"][extra_wins] == 0).all() and (columns["win_type"][extra_wins] == engine.SELF_DRAWN).all()
    for deal in np.flatnonzero(extra_wins)[:10]:
        log = engine.replay(ruleset, players, 8, int(deal))
        record = log.record
        turns = [turn if turn >= 0 else 10**6 for turn in (record["ready_turn_0"], record["ready_turn_1"])]
        first = int(np.argmin(turns))
        extra = log.events[log.events[:, 0] == engine.EV_EXTRA_DRAW]
        assert 1 <= len(extra) <= ruleset.extra_draws and (extra[:, 1] == first).all()
        assert record["winner"] == first
    # a wall played out with nobody ready is a plain draw: no extra draw
    never_ready = (columns["ready_turn_0"] < 0) & (columns["ready_turn_1"] < 0)
    assert not (extra_wins & never_ready).any()
    assert ((columns["winner"] < 0) & never_ready).any()


def test_chows_are_claimed_in_every_suit(ruleset):
    players = engine.Players.parse("random,random")
    suits = set()
    for deal in range(300):
        log = engine.replay(ruleset, players, 2, deal)
        for code, _, low, _ in log.events:
            if code == engine.EV_CHOW_LOWEST:
                suits.add(int(low) // 9)
    assert suits == {0, 1, 2}


def test_heavenly_ready_is_declared_with_the_first_discard_or_on_the_non_dealers_first_draw(ruleset, dealt):
    """004: the dealer's 天听 is its first discard's declaration; the non-dealer has none right after the deal,
    and its 天听 is a declaration on its first draw that throws the very tile drawn (another throw there is a
    plain 报听). Greedy declares every ready hand it may: the deals dealt ready show both seats' cases."""
    players = engine.Players.parse("greedy,greedy")
    declarations = {"dealer": [], "thrown drawn": [], "thrown other": []}
    for role in (0, 1):
        for deal in np.flatnonzero(dealt[role] == 0)[:40]:
            log = engine.replay(ruleset, players, STATISTICS_SEED, int(deal))
            events = log.events[~np.isin(log.events[:, 0], (engine.EV_WAIT, engine.EV_DECLINE_WIN, engine.EV_PASS)), :3].tolist()
            dealer = log.record["dealer"]
            seat = dealer if role == 0 else 1 - dealer
            turn = [row for row, (code, who, _) in enumerate(events) if who == seat and code != engine.EV_DEAL]
            if role == 1:
                # the non-dealer's first event after the deal is its first draw (or a claim of the first discard)
                if events[turn[0]][0] != engine.EV_DRAW or events[turn[1]][0] != engine.EV_DISCARD:
                    continue  # it claimed, kongs or won at once: no declaration to look at
                drawn, thrown = events[turn[0]][2], events[turn[1]][2]
                declared = events[turn[2]][0] if len(turn) > 2 else None
                declarations["thrown drawn" if drawn == thrown else "thrown other"].append(declared)
            elif events[turn[0]][0] == engine.EV_DISCARD:  # the dealer throws at once (no kong, no 天和)
                declarations["dealer"].append(events[turn[1]][0])
    assert set(declarations["dealer"]) == {engine.EV_HEAVENLY_READY}
    assert set(declarations["thrown drawn"]) == {engine.EV_HEAVENLY_READY}
    assert set(declarations["thrown other"]) <= {engine.EV_READY}
    assert all(len(found) >= 3 for found in declarations.values() if found is not declarations["thrown other"])


# ------------------------------------------------------------------------------ money and commands


def test_points_are_the_money_and_the_outcomes_report_them(ruleset):
    records = engine.play(ruleset, engine.Players.parse("greedy,greedy"), seed=4, n_deals=2000)
    frame = pd.DataFrame(records.columns)
    changes = seat_changes(frame, Room("闯关", 1, 0, 0, 0))
    winner = frame["winner"].to_numpy()
    won = winner >= 0
    assert np.array_equal(changes[won, winner[won]], frame["points"][won])
    assert np.array_equal(changes.sum(axis=1), np.zeros(len(frame)))  # the loser pays the winner
    summary = outcome_summary(frame).set_index("statistic")["value"]
    assert summary["mean_points"] == pytest.approx(frame["points"][won].mean())
    assert summary["mean_paid_per_win"] == summary["mean_points"]  # a win is paid its points, not its fans


def test_mjsim_run_and_replay_play_the_challenge_game(mjsim, tmp_path):
    out = tmp_path / "run"
    code, printed, err = mjsim("run", "--ruleset", CHALLENGE, "--deals", "400", "--out", str(out))
    assert code == 0, err
    assert "points" in pd.read_parquet(out / "outcomes.parquet")["statistic"].str.cat()
    beans = pd.read_parquet(out / "beans.parquet")
    assert beans["room"].unique().tolist() == ["闯关"]
    code, printed, err = mjsim("replay", "--ruleset", CHALLENGE, "--deal", "3")
    assert code == 0, err
    assert "wall as shuffled (71 in play)" in printed and "bonus tile turned face up" in printed and "points" in printed

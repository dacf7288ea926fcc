"""004's 闯关 campaign as a specification (docs/rules/erren-challenge.md, "Levels and assists"): the levels file,
the campaign's accounting against a plain Python twin that plays the same deals one by one, each assist's
moves on hand-made tables, the validating mode over assisted deals, the paired assist effects, and the
`mjsim challenge` command."""

import dataclasses
import io

import numpy as np
import pandas as pd
import pytest

import kernels
from kernels.fan_ids import N_FANS
from sim.core.notation import parse_hand, parse_tiles
from sim.core.result_files import read_metadata
from sim.core.ruleset import load_ruleset
from sim.erren import engine
from sim.erren.challenge import assists, campaign
from sim.erren.challenge import tables as challenge_tables
from sim.erren.challenge.levels import ASSISTS, Level, Levels, LevelsError, load_levels
from sim.erren.challenge.tables import assist_effects, level_table
from sim.erren.replay_report import format_deal
from sim.erren.table import N_MELDS, OUT_OF_PLAY, WALL_BACK, WALL_FRONT, new_state, new_work

CHALLENGE = "erren-challenge"
WALL_TILES, IN_PLAY = 136, 71


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset(CHALLENGE)


@pytest.fixture(scope="module")
def levels():
    return load_levels()


def small_levels(**changes) -> Levels:
    """Two quick levels, the second with every assist, for tests that play many runs."""
    first = Level("一", bet=100, pass_score=1_500)
    second = Level("二", bet=300, pass_score=4_000, start_exchange=True, extra_draws=5, pick_chance=0.2,
                   pung_offer_chance=0.1, computer_wins_free=True)
    levels = Levels(start_score=600, max_deals_per_level=60, levels=(first, second), source="", path="test")
    return dataclasses.replace(levels, **changes)


# ------------------------------------------------------------------------------ the levels file


def test_the_shipped_levels_file_has_four_levels_marked_as_assumptions(levels):
    assert len(levels.levels) == 4
    assert "ASSUMPTIONS" in levels.source
    assert [level.computer_wins_free for level in levels.levels] == [False, False, False, True]
    assert levels.levels[1].start_exchange and levels.levels[1].extra_draws == 5
    assert levels.levels[2].pick_chance > 0 and not levels.levels[0].start_exchange


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[campaign]\nstart_score = 10\n", "lacks 'max_deals_per_level'"),
        ("[campaign]\nstart_score = 10\nmax_deals_per_level = 5\n", "at least one [[levels]]"),
        ("[campaign]\nstart_score = 10\nmax_deals_per_level = 5\n[[levels]]\nname = 'a'\npass_score = 9\n", "lacks 'bet'"),
        ("[campaign]\nstart_score = 10\nmax_deals_per_level = 5\n[[levels]]\nname = 'a'\nbet = 1\npass_score = 9\n"
         "pick_chance = 1.5\n", "pick_chance = 1.5 must be a chance"),
        ("[campaign]\nstart_score = 10\nmax_deals_per_level = 5\n[[levels]]\nname = 'a'\nbet = true\npass_score = 9\n",
         "bet = True should be a whole number"),
        ("[campaign]\nstart_score = 10\nmax_deals_per_level = 5\n[[levels]]\nname = 'a'\nbet = 1\npass_score = 9\n"
         "bets = 2\n", "unknown key 'bets'"),
        ("[campaign]\nstart_score = 0\nmax_deals_per_level = 5\n", "start_score = 0 must be from 1"),
        ("[campaign\n", "not a readable TOML file"),
    ],
)
def test_a_bad_levels_file_is_refused_with_its_problem_named(tmp_path, text, message):
    path = tmp_path / "levels.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LevelsError, match=message.replace("[", r"\[").replace("(", r"\(")):
        load_levels(path)


def test_switching_an_assist_off_changes_only_that_assist(levels):
    for assist in ASSISTS:
        assert levels.uses(assist)
        off = levels.without(assist)
        assert not off.uses(assist)
        assert all(off.uses(other) for other in ASSISTS if other != assist)


# ------------------------------------------------------------------------------ the campaign's accounting


def naive_campaign(ruleset, levels, players, seed, run):
    """One run played deal by deal from Python, straight from the rules: the bet caps a loss, a win earns
    its points, a level is cleared at its pass score after a deal, failed when the score is below the bet
    before one; the winner deals next."""
    rules, template = engine.kernel_rules(ruleset)
    state, work = new_state(), new_work()
    wall, events = template.copy(), np.zeros((engine.MAX_EVENTS, 3), np.int16)
    record, fans = np.zeros(len(engine.RECORD_COLUMNS), np.int32), np.zeros(N_FANS, np.uint8)
    stride = len(levels.levels) * levels.max_deals_per_level
    deal = run * stride
    dealer = None
    score = levels.start_score
    rows = []
    for level in levels.levels:
        level_rules = engine.kernel_rules(level.ruleset(ruleset))[0]
        rules.settings[:] = level_rules.settings
        deals, outcome = 0, "out of deals"
        while deals < levels.max_deals_per_level:
            if score < level.bet:
                outcome = "failed"
                break
            if dealer is None:
                dealer = int(engine.random_below(np.uint64(engine.stream_state(np.uint64(seed), 0, deal)), 2)[1])
            engine._play_deal(deal, dealer, np.uint64(seed), template, wall, rules, players.kinds, players.parameters,
                              state, work, events, record, fans, False)
            deal, deals = deal + 1, deals + 1
            winner, points = int(record[engine.R_WINNER]), int(record[engine.R_POINTS])
            if winner == 0:
                score += points
            elif winner == 1 and not level.computer_wins_free:
                score -= min(points, level.bet)
            if winner >= 0:
                dealer = winner
            if score >= level.pass_score:
                outcome = "cleared"
                break
        rows.append((outcome, deals, score))
        if outcome != "cleared":
            break
    return rows


def test_a_run_follows_the_rules_of_the_levels_deal_for_deal(ruleset):
    levels = small_levels()
    players = engine.Players.parse(["greedy", "greedy"])
    out = campaign.play_runs(ruleset, levels, players, seed=5, first_run=3, n_runs=12)
    outcomes = set()
    for row in range(out.shape[0]):
        expected = naive_campaign(ruleset, levels, players, 5, 3 + row)
        for level, (outcome, deals, score) in enumerate(expected):
            got = out[row, level]
            assert campaign.OUTCOMES[got[campaign.F_OUTCOME]] == outcome
            assert (got[campaign.F_DEALS], got[campaign.F_END_SCORE]) == (deals, score)
            outcomes.add(outcome)
        assert (out[row, len(expected):, campaign.F_DEALS] == 0).all()  # levels not reached stay empty
    assert {"cleared", "failed"} <= outcomes  # both ends of a level were exercised


def test_a_run_is_the_same_whatever_shard_plays_it(ruleset):
    levels = small_levels()
    players = engine.Players.parse(["greedy", "value"])
    whole = campaign.play_runs(ruleset, levels, players, seed=2, first_run=0, n_runs=6)
    parts = [campaign.play_runs(ruleset, levels, players, seed=2, first_run=first, n_runs=3) for first in (0, 3)]
    assert np.array_equal(whole, np.concatenate(parts))


def test_the_computer_wins_cost_nothing_where_the_level_says_so(ruleset):
    free = small_levels(levels=(Level("free", bet=100, pass_score=3_000, computer_wins_free=True),))
    out = campaign.play_runs(ruleset, free, engine.Players.parse(["random", "greedy"]), seed=1, first_run=0, n_runs=40)
    level = out[:, 0]
    assert level[:, campaign.F_COMPUTER_WINS].sum() > 100
    assert (level[:, campaign.F_OUTCOME] != campaign.FAILED).all()  # the score never falls
    assert (level[:, campaign.F_END_SCORE] >= free.start_score).all()


# ------------------------------------------------------------------------------ the assists' moves


def assisted_table(ruleset, hand_text, out_of_play_text, wall_text="", **switches):
    """A table after the deal with the player's (seat 0) hand, the live wall (`wall_text`, in order) and the
    out-of-play tiles (in order) at the end of the 136; the positions between hold tiles no assist reads."""
    rules, _ = engine.kernel_rules(dataclasses.replace(ruleset, **switches))
    state, work = new_state(), new_work()
    state.hands[0][:] = parse_tiles(hand_text)
    live, out_of_play = _tiles_in_order(wall_text), _tiles_in_order(out_of_play_text)
    padding = [0] * (WALL_TILES - len(live) - len(out_of_play))
    wall = np.array(live + padding + out_of_play, np.int8)
    state.table[WALL_FRONT], state.table[WALL_BACK] = 0, len(live) - 1
    state.table[OUT_OF_PLAY] = WALL_TILES - len(out_of_play)
    return rules, state, work, wall


def _tiles_in_order(text):
    """'1m9p5z' -> kinds in the written order (notation counts lose the order)."""
    kinds, digits = [], ""
    for character in text:
        if character.isdigit():
            digits += character
        else:
            offset = {"m": 0, "p": 9, "s": 18, "z": 27}[character]
            kinds += [offset + int(digit) - 1 for digit in digits]
            digits = ""
    return kinds


def test_the_start_exchange_gives_every_isolated_tile_for_the_next_out_of_play_tile(ruleset):
    # 1m, 5p, 9s and 7z stand alone; 67m, 11p, 234s and 11z are kept. No tile received is isolated once in
    # hand, nor ends the isolation of a tile still to come.
    rules, state, work, wall = assisted_table(ruleset, "167m115p2349s117z", "8m1p2s1z", start_exchange=True)
    hand_before = state.hands[0].copy()
    first_out = int(state.table[OUT_OF_PLAY])
    events = np.zeros((engine.MAX_EVENTS, 3), np.int16)
    received = assists.start_exchange(0, wall, state, rules, work, events)
    log = [(int(code), int(tile)) for code, _, tile in events[1 : events[0, 0] + 1]]
    given = [tile for code, tile in log if code == assists.EV_EXCHANGE_GIVES]
    taken = [tile for code, tile in log if code == assists.EV_EXCHANGE_TAKES]
    assert given == _tiles_in_order("1m5p9s7z") and taken == _tiles_in_order("8m1p2s1z") and received == taken[-1]
    assert np.array_equal(state.hands[0], hand_before + parse_tiles("8m1p2s1z") - parse_tiles("1m5p9s7z"))
    # the tiles given lie at the bottom of the out-of-play tiles, in the order given
    assert wall[first_out:].tolist() == given
    assert state.table[OUT_OF_PLAY] == first_out


def test_the_start_exchange_keeps_a_tile_of_the_bonus_kind(ruleset):
    rules, state, work, wall = assisted_table(ruleset, "167m115p2349s117z", "8m1p2s1z", start_exchange=True)
    state.bonus[_tiles_in_order("7z")[0]] = 1
    events = np.zeros((engine.MAX_EVENTS, 3), np.int16)
    assists.start_exchange(0, wall, state, rules, work, events)
    assert state.hands[0][_tiles_in_order("7z")[0]] == 1


def test_a_picked_draw_is_the_winning_tile_when_one_is_left(ruleset):
    # ready on 3p (and nothing else): 3p lies only out of play; the wall's next tile is 9m
    rules, state, work, wall = assisted_table(ruleset, "123m456m789m12p55s", "3p", wall_text="9m1z2z")
    events = np.zeros((engine.MAX_EVENTS, 3), np.int16)
    three_pin = _tiles_in_order("3p")[0]
    assists._pick(0, wall, state, rules, work, events, np.uint64(7))
    assert wall[state.table[WALL_FRONT]] == three_pin
    assert wall[state.table[OUT_OF_PLAY]:].tolist().count(_tiles_in_order("9m")[0]) == 1  # the 9m took its place
    assert events[1, 0] == assists.EV_PICK and events[1, 2] == three_pin


def test_three_of_a_kind_are_taken_for_the_three_tiles_the_hand_needs_least(ruleset):
    # offered 5z (the only kind with three copies left to hand over): the hand gives its isolated 1z, 2z and 9p,
    # the honours first, and is ready after
    rules, state, work, wall = assisted_table(ruleset, "123m456m78s55p9p12z", "5z5z5z")
    before = state.hands[0].copy()
    events = np.zeros((engine.MAX_EVENTS, 3), np.int16)
    assists._offer_pung(0, wall, state, rules, work, events, np.uint64(3))
    assert np.array_equal(state.hands[0], before + parse_tiles("555z") - parse_tiles("9p12z"))
    given = [int(tile) for code, _, tile in events[1 : events[0, 0] + 1] if code == assists.EV_PUNG_GIVES]
    assert given == _tiles_in_order("12z9p")
    assert sorted(wall[state.table[OUT_OF_PLAY]:].tolist()) == sorted(given)  # they took the copies' places


def test_an_offer_of_three_that_does_not_help_is_declined(ruleset):
    rules, state, work, wall = assisted_table(ruleset, "123m456m789m123p5s", "5z5z5z")
    before, wall_before = state.hands[0].copy(), wall.copy()
    events = np.zeros((engine.MAX_EVENTS, 3), np.int16)
    assists._offer_pung(0, wall, state, rules, work, events, np.uint64(3))
    assert np.array_equal(state.hands[0], before) and np.array_equal(wall, wall_before)
    assert [int(code) for code in events[1 : events[0, 0] + 1, 0]] == [assists.EV_PUNG_OFFER]


def test_assisted_deals_keep_every_tile_and_rule_in_the_validating_mode(ruleset):
    levels = small_levels(levels=(Level("all", bet=1, pass_score=10**8, start_exchange=True, extra_draws=5,
                                        pick_chance=0.3, pung_offer_chance=0.3),), max_deals_per_level=2_000)
    for pairing in (["greedy", "greedy"], ["random", "defensive"]):
        out = campaign.play_runs(ruleset, levels, engine.Players.parse(pairing), seed=9, first_run=0, n_runs=1,
                                 validate=True)
        level = out[0, 0]
        assert level[campaign.F_DEALS] == 2_000
        assert level[campaign.F_VIOLATIONS] == 0
        assert level[campaign.F_EXCHANGED] > 2_000 and level[campaign.F_PICKS] > 1_000 and level[campaign.F_PUNGS] > 30


def test_picked_draws_win_the_player_more_deals(ruleset):
    plain = small_levels(levels=(Level("plain", bet=1, pass_score=10**8),), max_deals_per_level=600)
    picked = small_levels(levels=(Level("picked", bet=1, pass_score=10**8, pick_chance=0.5),), max_deals_per_level=600)
    players = engine.Players.parse(["greedy", "greedy"])
    wins = [campaign.play_runs(ruleset, levels, players, 4, 0, 1)[0, 0, campaign.F_PLAYER_WINS] for levels in (plain, picked)]
    assert wins[1] > wins[0] + 100


# ------------------------------------------------------------------------------ the tables


def test_the_tables_read_the_outcomes_the_campaign_writes():
    assert (challenge_tables.CLEARED, challenge_tables.FAILED, challenge_tables.OUT_OF_DEALS) == (
        campaign.CLEARED, campaign.FAILED, campaign.OUT_OF_DEALS)


def test_an_assists_effect_is_paired_run_by_run():
    # four runs of one level: with the assist runs 0, 1 and 2 clear it; without it runs 1 and 3
    rows = []
    for variant, cleared in (("all", (1, 1, 1, 0)), ("pick", (0, 1, 0, 1))):
        for run, clear in enumerate(cleared):
            rows.append({"variant": variant, "run": run, "level": 1, "name": "一", "outcome": 1 if clear else 2,
                         "deals": 5, "end_score": 0, "player_wins": 1, "computer_wins": 1, "draws": 0, "exchanged": 0,
                         "picks": 0, "pung_tiles": 0, "violations": 0})
    runs = pd.DataFrame(rows)
    effects = assist_effects(runs)
    row = effects.iloc[0]
    assert (row.assist, row.runs_cleared_only_with, row.runs_cleared_only_without) == ("pick", 2, 1)
    assert row.difference == pytest.approx(0.25)
    error = np.sqrt(3 - 1 / 4) / 4
    assert row.difference_low == pytest.approx(0.25 - 1.959963984540054 * error)
    table = level_table(runs)
    assert table.loc[table.variant == "all", "clear_share"].item() == 0.75


# ------------------------------------------------------------------------------ the command


def test_mjsim_challenge_prints_and_writes_the_level_table(mjsim, tmp_path):
    out = tmp_path / "campaign"
    code, text, error = mjsim("challenge", "--runs", "30", "--workers", "1", "--out", str(out), "--seed", "3")
    assert code == 0, error
    assert "第一关" in text and "paired 95% interval" in text and "without pick" in text
    runs = pd.read_parquet(out / "runs.parquet")
    assert set(runs["variant"]) == {"all", *ASSISTS}
    assert runs.groupby("variant")["run"].nunique().eq(30).all()
    table = pd.read_parquet(out / "levels.parquet")
    assert {"clear_share_low", "clear_share_high", "deals_q50", "end_score_q90"} <= set(table.columns)
    metadata = read_metadata(out / "levels.parquet")
    assert metadata["config"]["seed"] == 3 and "ASSUMPTIONS" in metadata["config"]["levels_source"]
    assert "numba" in metadata["versions"]
    # the same runs whatever the number of workers
    code, text, error = mjsim("challenge", "--runs", "30", "--workers", "2", "--out", str(tmp_path / "two"), "--seed",
                              "3", "--no-effects", "--validate")
    assert code == 0, error
    assert "validating mode: 0 deals broke a rule of the table" in text
    two = pd.read_parquet(tmp_path / "two" / "runs.parquet")
    pd.testing.assert_frame_equal(two, runs[runs["variant"] == "all"].reset_index(drop=True))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--levels", "missing.toml"], "levels file not found"),
        (["--players", "greedy"], "needs two players"),
        (["--players", "greedy,examples/players/simple.py:Coin"], "built-in players only"),
        (["--ruleset", "erren"], "does not score points"),
        (["--runs", "0"], "--runs must be from 1"),
    ],
)
def test_a_challenge_that_cannot_be_played_is_one_error_line(mjsim, arguments, message):
    code, text, error = mjsim("challenge", *arguments)
    assert code == 2 and text == ""
    assert error.startswith("error: ") and message in error and error.count("\n") == 1


def test_an_offer_of_three_to_a_hand_of_melds_with_too_few_tiles_is_declined(ruleset):
    rules, state, work, wall = assisted_table(ruleset, "5m", "5z5z5z")
    state.table[N_MELDS] = 4  # four melds beside the one tile: nothing to give three of
    events = np.zeros((engine.MAX_EVENTS, 3), np.int16)
    assists._offer_pung(0, wall, state, rules, work, events, np.uint64(3))
    assert state.hands[0].sum() == 1 and state.hands[0][4] == 1


def test_a_campaign_never_overwrites_other_results(mjsim, tmp_path):
    out = tmp_path / "campaign"
    arguments = ("challenge", "--runs", "3", "--workers", "1", "--no-effects", "--out", str(out))
    assert mjsim(*arguments)[0] == 0
    before = (out / "runs.parquet").read_bytes()
    assert mjsim(*arguments)[0] == 0  # the same campaign again: the same files
    assert pd.read_parquet(out / "runs.parquet").equals(pd.read_parquet(io.BytesIO(before)))
    code, _, error = mjsim(*arguments[:-2], "--seed", "2", "--out", str(out))
    assert code == 2 and "holds another campaign" in error
    assert (out / "runs.parquet").read_bytes() == before
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine", encoding="utf-8")
    code, _, error = mjsim(*arguments[:-2], "--out", str(other))
    assert code == 2 and "holds other files" in error and (other / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_replay_of_assisted_deals_shows_the_assists_and_the_hands_they_leave(ruleset):
    """`mjsim replay` follows the assists' swaps: each winner's hand it rebuilds from the events is complete."""
    assisted = dataclasses.replace(ruleset, start_exchange=True, pick_chance=0.3, pung_offer_chance=0.3)
    players = engine.Players.parse(["greedy", "greedy"])
    shown, wins = set(), 0
    for deal in range(30):
        log = engine.replay(assisted, players, 1, deal)
        text = format_deal(log, assisted, players, 1)
        shown |= {word for word in ("(起始换牌)", "(搓牌)", "(换刻子)", "gives") if word in text}
        if log.record["winner"] >= 0:
            hand = parse_hand(text.split("result: ")[1].split(" with ")[1].split("\n")[0], sizes=None)
            assert kernels.shanten_many(hand.counts, len(hand.melds))[0] == -1, text
            wins += 1
    assert shown == {"(起始换牌)", "(搓牌)", "(换刻子)", "gives"} and wins >= 20

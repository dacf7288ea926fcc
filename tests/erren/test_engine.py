"""The game engine as a specification: whole deals of both 二人 rulesets, checked by the validating mode,
against exact deal statistics, for reproducibility, dealer rotation, honest information and play
strength. The independent replay of event logs is in tests/erren/test_replay.py."""

import itertools

import numpy as np
import pytest
from exact_deals import agrees_with_exact, initial_shanten_distribution

import kernels
from kernels.fan_ids import Fan
from kernels.tiles import N_KINDS
from sim.commands.demo import deal_initial_hands
from sim.core.ruleset import load_ruleset
from sim.erren import engine
from sim.erren import players as heuristics
from sim.erren.table import new_state, new_work
from sim.players.player_text import PlayerError, split_players

RULESETS = ("erren", "erren-classic")
HEURISTICS = heuristics.NAMES
PAIRINGS = [f"{a},{b}" for a, b in itertools.product(HEURISTICS, repeat=2)]


@pytest.fixture(scope="module", params=RULESETS)
def ruleset(request):
    return load_ruleset(request.param)


# ------------------------------------------------------------------------------ validating mode


@pytest.mark.parametrize("pairing", PAIRINGS)
def test_validating_mode_finds_no_violation_in_ten_thousand_deals(ruleset, pairing):
    records = engine.play(ruleset, engine.Players.parse(pairing), seed=11, n_deals=10_000, validate=True)
    violations = records.columns["violation"]
    first = np.flatnonzero(violations)
    assert not first.size, f"deal {first[0]}: {engine.VIOLATIONS[violations[first[0]]]}"
    wins = records.columns["winner"] >= 0
    assert (records.columns["fan_total"][wins] >= ruleset.min_fan).all()
    assert (records.fans[~wins] == 0).all()


def test_a_builtin_players_illegal_answer_is_recorded_as_an_illegal_action():
    # the validating mode's code for it once shared its name with a status code of the loop with users'
    # players, which took its value: such a deal would have read "tiles not conserved"
    assert engine.VIOLATIONS[engine.ILLEGAL_ACTION] == "illegal action"
    assert engine.VIOLATIONS[engine.PLAYER_FAULT].startswith("a user player's answer was refused")


def test_validating_mode_sees_a_broken_table(ruleset):
    """The check itself: a table missing a tile, or with a hand of the wrong size, is reported."""
    rules, template = engine.kernel_rules(ruleset)
    state = new_state()
    wall = template.copy()
    hands = state.hands
    hands[0, :9] = 1  # 9 tiles in hand, wall untouched: 9 copies too many
    sizes = np.array([13, 13])
    counts = np.zeros((2, N_KINDS), np.int64)
    state.table[engine.WALL_BACK] = len(wall) - 1
    state.table[engine.OUT_OF_PLAY] = len(wall)  # every tile in play
    assert engine._check_table(state, wall, rules, sizes, counts) != engine.NO_VIOLATION
    hands[0, :9] = 0
    assert engine._check_table(state, wall, rules, np.array([0, 0]), counts) == engine.NO_VIOLATION
    assert engine._check_table(state, wall, rules, sizes, counts) == engine.WRONG_HAND_SIZE


def test_every_mechanic_happens_across_the_pairings(ruleset):
    """Claims, kongs, ready hands, doubling, all three kinds of win and exhaustive draws all occur."""
    seen = {name: False for name in ("chow", "pong", "kong", "concealed kong", "added kong", "ready", "double")}
    win_types = set()
    for pairing in ("random,random", "random,greedy:double_below=40"):
        players = engine.Players.parse(pairing)
        records = engine.play(ruleset, players, seed=5, n_deals=3000)
        win_types.update(records.columns["win_type"].tolist())
        for deal in range(0, 3000, 15):
            for code in engine.replay(ruleset, players, 5, deal).events[:, 0]:
                name = engine.EVENT_NAMES[code]
                if name in seen:
                    seen[name] = True
                if name == "heavenly ready":
                    seen["ready"] = True
    assert all(seen.values()), seen
    assert win_types == {engine.DRAW_GAME, engine.SELF_DRAWN, engine.DISCARD_WIN, engine.ROBBED_KONG}


# ------------------------------------------------------------------------------ deal statistics

N_STATISTICS = 300_000


@pytest.fixture(scope="module")
def random_deals(ruleset):
    return engine.play(ruleset, engine.Players.parse("random,random"), seed=20261130, n_deals=N_STATISTICS)


@pytest.mark.parametrize(("role", "n_tiles"), [("dealer", 14), ("non-dealer", 13)])
def test_initial_shanten_after_flowers_matches_the_exact_distribution(random_deals, role, n_tiles):
    """Flowers are replaced from the back, so the 万 and honour tiles a seat ends with are still a uniform
    draw from the 64: the shanten distribution of each seat must be the exact one."""
    columns = random_deals.columns
    dealer_shanten = np.where(columns["dealer"] == 0, columns["initial_shanten_0"], columns["initial_shanten_1"])
    other_shanten = np.where(columns["dealer"] == 0, columns["initial_shanten_1"], columns["initial_shanten_0"])
    shanten = dealer_shanten if role == "dealer" else other_shanten
    observed = np.bincount(shanten + 1, minlength=10)
    agrees, chi_square = agrees_with_exact(observed, initial_shanten_distribution(n_tiles), N_STATISTICS)
    assert agrees, f"chi-square {chi_square:.1f}: observed {observed.tolist()}"


def test_both_seats_deal_equally_often(random_deals):
    dealers = random_deals.columns["dealer"]
    assert abs(dealers.mean() - 0.5) < 5 * np.sqrt(0.25 / N_STATISTICS)


def test_a_complete_initial_hand_is_a_heavenly_win_for_greedy(ruleset):
    """天胡 (at least 48 fans) is always legal, and greedy takes every legal win: the deals won by 天胡 are
    exactly those where the dealer's initial hand is complete."""
    records = engine.play(ruleset, engine.Players.parse("greedy,greedy"), seed=3, n_deals=200_000)
    columns = records.columns
    dealer_shanten = np.where(columns["dealer"] == 0, columns["initial_shanten_0"], columns["initial_shanten_1"])
    heavenly = records.fans[:, Fan.HEAVENLY_HAND] > 0
    assert heavenly.sum() > 10
    assert np.array_equal(heavenly, dealer_shanten == -1)
    assert (columns["winner"][heavenly] == columns["dealer"][heavenly]).all()
    assert (columns["turns"][heavenly] == 1).all()


# ------------------------------------------------------------------------------ reproducibility


@pytest.mark.parametrize("name", [*RULESETS, "erren-challenge"])
def test_a_deal_depends_only_on_seed_and_index_however_a_run_is_split(name):
    ruleset = load_ruleset(name)
    players = engine.Players.parse("value,defensive")
    whole = engine.play(ruleset, players, seed=9, n_deals=400)
    part = engine.play(ruleset, players, seed=9, n_deals=150, first_deal=200)
    for name, column in part.columns.items():
        assert np.array_equal(column, whole.columns[name][200:350]), name
    assert np.array_equal(part.fans, whole.fans[200:350])
    other_seed = engine.play(ruleset, players, seed=10, n_deals=400)
    assert not np.array_equal(other_seed.columns["winner"], whole.columns["winner"])


def test_replay_plays_the_same_deal_as_the_run(ruleset):
    players = engine.Players.parse("random,greedy")
    records = engine.play(ruleset, players, seed=4, n_deals=60)
    for deal in (0, 17, 59):
        log = engine.replay(ruleset, players, 4, deal)
        for name, column in records.columns.items():
            assert log.record[name] == column[deal], name
        assert np.array_equal(log.fans, records.fans[deal])
        wins = (engine.EV_WIN_SELF_DRAWN, engine.EV_WIN_DISCARD, engine.EV_WIN_ROBBED_KONG)
        last = log.events[-1, 0]
        assert last == engine.EV_EXHAUSTED or (last == engine.EV_PAY_WIN and log.events[-2, 0] in wins)


def test_dealer_rotates_within_sessions(ruleset):
    """The dealer stays after a dealer win or a draw, otherwise the winner deals next; each
    session's first dealer is drawn at random."""
    players = engine.Players.parse("random,greedy")
    length = 8
    records = engine.play(ruleset, players, seed=2, n_deals=800, session_length=length)
    dealer, winner = records.columns["dealer"], records.columns["winner"]
    for deal in range(799):
        if (deal + 1) % length:
            expected = winner[deal] if winner[deal] >= 0 else dealer[deal]
            assert dealer[deal + 1] == expected, deal
    firsts = dealer[::length]
    assert 0 < firsts.mean() < 1
    log = engine.replay(ruleset, players, 2, 13, session_length=length)
    assert log.record["dealer"] == dealer[13] and log.record["winner"] == winner[13]
    with pytest.raises(ValueError, match="session"):
        engine.play(ruleset, players, seed=2, n_deals=5, first_deal=3, session_length=length)


# ------------------------------------------------------------------------------ the players


def _random_table(rng, ruleset, n_visible):
    """A mid-deal table: seat 0 on turn with 14 tiles, seat 1 with 13, some discards on the table."""
    rules, template = engine.kernel_rules(ruleset)
    tiles = rng.permutation(template[template < N_KINDS])
    state = new_state()
    hands, visible = state.hands, state.visible
    np.add.at(hands[0], tiles[:14], 1)
    np.add.at(hands[1], tiles[14:27], 1)
    np.add.at(visible, tiles[27 : 27 + n_visible], 1)
    table = state.table
    table[engine.WALL_FRONT] = 27 + n_visible
    table[engine.WALL_BACK] = len(template) - 1
    unseen = tiles[27 + n_visible :]
    return state, rules, unseen


@pytest.mark.parametrize("name", ["greedy", "value", "defensive"])
def test_players_do_not_see_the_opponents_concealed_hand(ruleset, name):
    """Swapping the opponent's concealed tiles with tiles the player cannot see changes no decision."""
    rng = np.random.default_rng(8)
    kind, parameters, _ = heuristics.parse_player(name)
    work = new_work()
    for _ in range(150):
        state, rules, unseen = _random_table(rng, ruleset, n_visible=int(rng.integers(0, 20)))
        stream = np.uint64(1)
        turn = heuristics.turn_action(kind, parameters, 0, -1, False, True, state, rules, work, stream)[0]
        discard = int(rng.choice(np.flatnonzero(state.hands[1])))
        state.hands[1, discard] -= 1
        state.visible[discard] += 1
        claim = heuristics.claim_action(kind, parameters, 0, discard, -1, False, True, state, rules, work, stream)[0]
        # The opponent's 12 tiles go back among the unseen ones and 12 others take their place.
        opponent = np.repeat(np.arange(N_KINDS), state.hands[1])
        pool = rng.permutation(np.concatenate([opponent, unseen]))
        state.hands[1] = 0
        np.add.at(state.hands[1], pool[: len(opponent)], 1)
        assert heuristics.claim_action(kind, parameters, 0, discard, -1, False, True, state, rules, work, stream)[0] == claim
        state.hands[1, discard] += 1
        state.visible[discard] -= 1
        assert heuristics.turn_action(kind, parameters, 0, -1, False, True, state, rules, work, stream)[0] == turn


def _duel(ruleset, first, second, n_deals=3000):
    """Win rates of `first` and `second` over the same deals played twice with the seats swapped."""
    wins = np.zeros(2)
    for seats, flipped in (((first, second), False), ((second, first), True)):
        winner = engine.play(ruleset, engine.Players.parse(list(seats)), seed=21, n_deals=n_deals).columns["winner"]
        wins += [(winner == int(flipped)).mean(), (winner == int(not flipped)).mean()]
    return wins / 2


def test_greedy_beats_random_by_a_wide_margin(ruleset):
    greedy, random = _duel(ruleset, "greedy", "random")
    assert greedy > 0.85 and random < 0.05


def test_defensive_deals_in_less_than_greedy(ruleset):
    """Against the same greedy opponent, defensive loses on its own discard less often than greedy does."""
    rates = []
    for name in ("greedy", "defensive"):
        records = engine.play(ruleset, engine.Players.parse([name, "greedy"]), seed=22, n_deals=6000)
        columns = records.columns
        rates.append(((columns["winner"] == 1) & (columns["win_type"] == engine.DISCARD_WIN)).mean())
    assert rates[1] < 0.8 * rates[0], rates


def test_value_wins_bigger_hands_than_greedy(ruleset):
    totals = []
    for name in ("greedy", "value"):
        columns = engine.play(ruleset, engine.Players.parse([name, "greedy"]), seed=23, n_deals=6000).columns
        totals.append(columns["fan_total"][columns["winner"] == 0].mean())
    assert totals[1] > totals[0] + 0.5, totals


def test_policy_parameters_change_play(ruleset):
    players = engine.Players.parse("greedy:claim=0,ready=0,random")
    records = engine.play(ruleset, players, seed=6, n_deals=2000)
    assert (records.columns["ready_turn_0"] == -1).all()
    for deal in range(0, 2000, 50):
        events = engine.replay(ruleset, players, 6, deal).events
        claims = events[np.isin(events[:, 0], [engine.EV_CHOW, engine.EV_PONG, engine.EV_KONG])]
        assert (claims[:, 1] != 0).all()
    doubling = engine.play(ruleset, engine.Players.parse("greedy:double_below=30,double_wall=0,greedy"), seed=6, n_deals=2000)
    columns = doubling.columns
    assert columns["doubles_0"].sum() > 0 and columns["doubles_1"].sum() == 0
    won = columns["winner"] == 0
    assert (columns["fan_total"][won & (columns["doubles_0"] > 0)] >= ruleset.min_fan).all()


def test_max_doubles_caps_doubling(tmp_path):
    text = load_ruleset("erren").source.replace('max_doubles = "unlimited"', "max_doubles = 1").replace('id = "erren"', 'id = "capped"')
    path = tmp_path / "capped.toml"
    path.write_text(text, encoding="utf-8")
    capped = load_ruleset(str(path))
    records = engine.play(capped, engine.Players.parse("random,greedy:double_below=100,double_wall=0"), seed=6, n_deals=3000)
    assert records.columns["doubles_1"].max() == 1


def test_min_fan_is_respected_and_easy_to_sweep(tmp_path):
    text = load_ruleset("erren").source.replace("min_fan = 8", "min_fan = 16").replace('id = "erren"', 'id = "sixteen"')
    path = tmp_path / "sixteen.toml"
    path.write_text(text, encoding="utf-8")
    sixteen = load_ruleset(str(path))
    records = engine.play(sixteen, engine.Players.parse("greedy,greedy"), seed=6, n_deals=2000, validate=True)
    columns = records.columns
    assert (columns["fan_total"][columns["winner"] >= 0] >= 16).all()
    assert not columns["violation"].any()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("greedy,cheater", "unknown heuristic 'cheater'"),
        ("greedy:speed=3,greedy", "unknown parameter"),
        ("value:speed=fast,greedy", "needs a number"),
        ("greedy", "2 players are needed"),
        ("greedy,greedy,greedy", "2 players are needed"),
    ],
)
def test_bad_players_are_one_clear_error(text, message):
    with pytest.raises(PlayerError, match=message):
        engine.Players.parse(text)


def test_players_text_keeps_parameters_with_their_player():
    assert split_players("greedy:claim=0,ready=1,value:speed=4") == ["greedy:claim=0,ready=1", "value:speed=4"]
    players = engine.Players.parse("defensive:caution=5,threat_wall=12,random")
    assert players.names[0].startswith("defensive:") and "caution=5" in players.names[0]
    assert players.parameters[0, heuristics.CAUTION] == 5 and players.parameters[0, heuristics.THREAT_WALL] == 12
    assert players.kinds.tolist() == [heuristics.DEFENSIVE, heuristics.RANDOM]


# ----------------------------------------------------------------------------------------------------
# Dealt hands against exact probabilities: the shanten of the dealer's 14 and the other player's 13
# initial tiles, over enough deals that a biased shuffle or a wrong deal would show.


N_DEALS = 300_000


@pytest.fixture(scope="module")
def dealt():
    return deal_initial_hands(seed=20261129, n_deals=N_DEALS)


@pytest.mark.parametrize(("seat", "n_tiles"), [(0, 14), (1, 13)])
def test_initial_shanten_of_dealt_hands_matches_the_exact_distribution(dealt, seat, n_tiles):
    hands = dealt[seat]
    assert (hands.sum(axis=1) == n_tiles).all()
    observed = np.bincount(kernels.shanten_many(hands) + 1, minlength=10)
    agrees, chi_square = agrees_with_exact(observed, initial_shanten_distribution(n_tiles), N_DEALS)
    assert agrees, f"chi-square {chi_square:.1f}: observed {observed.tolist()}"


def test_the_check_sees_a_biased_deal():
    """Dealing with replacement (each tile kind equally likely, copies unlimited) must fail the check."""
    rng = np.random.default_rng(1)
    kinds = np.r_[0:9, 27:34]
    hands = np.zeros((N_DEALS, 34), np.int8)
    for column in rng.choice(kinds, size=(14, N_DEALS)):
        np.add.at(hands, (np.arange(N_DEALS), column), 1)
    hands = hands[hands.max(axis=1) <= 4]
    observed = np.bincount(kernels.shanten_many(hands) + 1, minlength=10)
    agrees, _ = agrees_with_exact(observed, initial_shanten_distribution(14), len(hands))
    assert not agrees


def test_exact_distribution_sums_to_one_and_a_complete_hand_is_rare():
    dealer = initial_shanten_distribution(14)
    assert abs(dealer.sum() - 1) < 1e-12
    assert 2.2e-4 < dealer[0] < 2.4e-4  # 天胡 before flowers: about 232 deals in a million
    assert initial_shanten_distribution(13)[0] == 0  # 13 tiles are never complete

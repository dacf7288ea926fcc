"""The MCR engine as a specification: the validating mode over mixed players, reproducibility, the match's
dealers and winds, the money of every kind of win, and each table rule pinned on a golden deal: a wall laid
out tile by tile and stepped decision by decision (``engine.start_wall`` and ``engine.apply``), the test
answering for every seat."""

import dataclasses

import numpy as np
import pytest

from kernels.fan_ids import (
    FOURTH_TILE_FLAG,
    LAST_WALL_TILE_FLAG,
    N_FANS,
    ROBBING_KONG_FLAG,
    ROUND_WIND_SHIFT,
    SEAT_WIND_SHIFT,
    SELF_DRAWN_FLAG,
)
from kernels.tiles import FIRST_FLOWER, MELD_KONG, MELD_PONG, N_FLOWERS, N_KINDS
from sim.core.actions import (
    ADDED_KONG,
    CHOW,
    DECISION_CLAIM,
    DECISION_ROB,
    DECISION_TURN,
    DISCARD,
    NO_TILE,
    PASS,
    PONG,
    WIN,
    action_code,
    encode,
)
from sim.core.notation import parse_tile, parse_tiles
from sim.core.ruleset import load_ruleset
from sim.mcr import engine as E
from sim.mcr import table as T
from sim.players.player_text import PlayerError

MIXES = ("greedy,greedy,greedy,greedy", "random,random,random,random", "greedy,random,greedy,random")


@pytest.fixture(scope="module")
def mcr():
    return load_ruleset("mcr")


def variant(ruleset, **changes):
    """The ruleset with other settings (min_fan, flowers) or table switches (base, match_deals)."""
    switches = {key: changes.pop(key) for key in ("base", "match_deals") if key in changes}
    if switches:
        changes["family_switches"] = dataclasses.replace(ruleset.family_switches, **switches)
    return dataclasses.replace(ruleset, **changes)


def without_flowers(ruleset):
    """The ruleset as a file with flowers = false would give it: no flowers, flower_tiles not scored."""
    return variant(ruleset, flowers=False)


# ------------------------------------------------------------------------------ batches


@pytest.mark.parametrize("mix", MIXES)
@pytest.mark.parametrize("min_fan", [0, 8])
def test_validating_mode_finds_no_violation_with_mixed_players(mcr, mix, min_fan):
    records = E.play(variant(mcr, min_fan=min_fan), mix, seed=11, n_deals=1500, validate=True)
    violations = records.columns["violation"]
    assert np.all(violations == E.NO_VIOLATION), [E.VIOLATIONS[v] for v in np.unique(violations)]


def test_validating_mode_finds_no_violation_without_flowers(mcr):
    records = E.play(variant(without_flowers(mcr), min_fan=0), MIXES[2], seed=12, n_deals=1000, validate=True)
    assert np.all(records.columns["violation"] == E.NO_VIOLATION)
    assert np.all(records.columns["winner_flowers"] == 0)


def test_a_slice_of_a_long_run_equals_a_short_run(mcr):
    ruleset = variant(mcr, min_fan=0)
    long = E.play(ruleset, MIXES[2], seed=3, n_deals=300)
    short = E.play(ruleset, MIXES[2], seed=3, n_deals=100, first_deal=150)
    for column, values in short.columns.items():
        assert np.array_equal(values, long.columns[column][150:250]), column
    assert np.array_equal(short.fans, long.fans[150:250])
    checked = E.play(ruleset, MIXES[2], seed=3, n_deals=300, validate=True)
    for column, values in long.columns.items():
        if column != "violation":
            assert np.array_equal(values, checked.columns[column]), column


def test_dealers_and_round_winds_follow_the_match(mcr):
    # deal d of a 16-deal match: dealer d % 4, round wind d // 4 % 4; the next match starts again at 东
    c = E.play(mcr, MIXES[1], seed=1, n_deals=40).columns
    deals = np.arange(40)
    assert np.array_equal(c["dealer"], deals % 4)
    assert np.array_equal(c["round_wind"], deals % 16 // 4)
    longer = E.play(variant(mcr, match_deals=32), MIXES[1], seed=1, n_deals=40).columns
    assert np.array_equal(longer["round_wind"], deals % 32 // 8)


@pytest.mark.parametrize("base", [8, 0, 3])
def test_money_is_base_for_every_payer_and_f_more_for_the_discarder_or_a_self_draw_s_payers(mcr, base):
    records = E.play(variant(mcr, min_fan=0, base=base), MIXES[2], seed=5, n_deals=800)
    c = records.columns
    money = np.stack([c[f"money_{seat}"] for seat in range(4)], axis=1)
    assert np.all(money.sum(axis=1) == 0)
    price = c["fan_total"] + c["winner_flowers"]  # F
    kinds_seen = set()
    for deal in range(len(records)):
        winner, discarder, win_type = c["winner"][deal], c["discarder"][deal], c["win_type"][deal]
        expected = np.zeros(4, np.int64)
        if winner >= 0:
            kinds_seen.add(int(win_type))
            for payer in range(4):
                if payer != winner:
                    pays = base + (price[deal] if win_type == E.SELF_DRAWN or payer == discarder else 0)
                    expected[payer] -= pays
                    expected[winner] += pays
            assert (discarder >= 0) == (win_type != E.SELF_DRAWN)
        assert np.array_equal(money[deal], expected), deal
    assert {E.SELF_DRAWN, E.DISCARD_WIN} <= kinds_seen


def test_flowers_are_counted_per_seat_and_all_eight_are_somewhere(mcr):
    c = E.play(variant(mcr, min_fan=0), MIXES[0], seed=6, n_deals=500).columns
    flowers = np.stack([c[f"flowers_{seat}"] for seat in range(4)], axis=1)
    exhausted = c["winner"] < 0
    # an exhausted deal has drawn the whole wall, so every flower was set aside by someone
    assert np.all(flowers[exhausted].sum(axis=1) == N_FLOWERS)
    assert np.all(flowers.sum(axis=1) <= N_FLOWERS)
    won = ~exhausted
    assert np.array_equal(c["winner_flowers"][won], flowers[won, c["winner"][won]])


def test_players_are_four_and_only_the_built_in_heuristics_for_now():
    assert E.Players.parse("greedy,random,greedy:claim=0,random").names[2] == "greedy:claim=0"
    with pytest.raises(PlayerError, match="four players"):
        E.Players.parse("greedy,greedy,greedy")
    with pytest.raises(PlayerError, match="unknown parameter"):
        E.Players.parse("greedy:speed=2,greedy,greedy,greedy")


def test_greedy_wins_more_than_random_at_the_same_table(mcr):
    c = E.play(variant(mcr, min_fan=0), "greedy,random,random,random", seed=9, n_deals=1000).columns
    wins = np.bincount(c["winner"][c["winner"] >= 0], minlength=4)
    assert wins[0] > 2 * wins[1:].max()


def test_replay_gives_the_deal_of_the_run(mcr):
    ruleset = variant(mcr, min_fan=0)
    run = E.play(ruleset, MIXES[2], seed=7, n_deals=20)
    log = E.replay(ruleset, MIXES[2], seed=7, deal=13)
    for name, value in log.record.items():
        if name != "deal":
            assert value == run.columns[name][13], name
    assert np.array_equal(log.fans, run.fans[13])
    assert log.events[: len(log.wall), 0].tolist() == [E.EV_WALL] * len(log.wall)


# ------------------------------------------------------------------------------ golden deals


def tiles(text):
    """Tile kinds in written order: '123m5z' -> [0, 1, 2, 31]; 'f' is a flower (the next unused one)."""
    kinds = []
    for part in text.split():
        counts = parse_tiles(part)
        kinds += [int(kind) for kind in np.repeat(np.arange(N_KINDS), counts)]
    return kinds


def build_wall(hands, front=(), back=(), flowers=0, with_flowers=True):
    """A wall dealing `hands` (dealer first, then turn order) whose ordinary draws are `front` and whose
    replacements, from the back, are `back`; `flowers` of the dealer's 14 tiles are flowers (the last ones).
    The other tiles fill the middle in order of kind, so that every tile is in the wall once."""
    laid = []
    next_flower = FIRST_FLOWER
    for index, hand in enumerate(hands):
        laid += hand
        if index == 0:
            laid += list(range(next_flower, next_flower + flowers))
            next_flower += flowers
    counts = np.full(N_KINDS, 4)
    for kind in laid + list(front) + list(back):
        if kind < FIRST_FLOWER:
            counts[kind] -= 1
    assert counts.min() >= 0, "a kind is used more than four times"
    used_flowers = [kind for kind in list(back) + list(front) if kind >= FIRST_FLOWER]
    middle = [int(kind) for kind in np.repeat(np.arange(N_KINDS), counts)]
    if with_flowers:
        middle += [kind for kind in range(next_flower, FIRST_FLOWER + N_FLOWERS) if kind not in used_flowers]
    wall = laid + list(front) + middle + list(reversed(back))
    assert len(wall) == (144 if with_flowers else 136)
    return np.array(wall, np.int8)


class Table:
    """One deal stepped decision by decision, the test answering for every seat."""

    def __init__(self, ruleset, wall, deal=0, seed=1):
        self.rules, _ = E.kernel_rules(ruleset)
        self.wall = wall
        self.state = T.new_state()
        self.work = T.new_work()
        self.events = np.zeros((E.MAX_EVENTS, 4), np.int32)
        self.record = np.zeros(E.RECORD_WIDTH, np.int32)
        self.fans = np.zeros(N_FANS, np.uint8)
        self.pending = E.start_wall(deal, np.uint64(seed), wall, self.rules, self.state, self.work, self.events,
                                    self.record, self.fans, True)

    @property
    def seat(self):
        return int(self.state.table[T.ACTOR])

    @property
    def decision(self):
        return int(self.state.table[T.DECISION])

    def legal(self):
        n = T.legal_actions(self.state, self.rules, self.work, self.work.legal)
        return [int(action) for action in self.work.legal[:n]]

    def answer(self, action):
        assert self.pending and action in self.legal(), (self.seat, action, self.legal())
        self.pending = E.apply(action, self.wall, self.rules, self.state, self.work, self.events, self.record,
                               self.fans, True)

    def discard_drawn(self, times=1):
        """Each turn throws the tile it drew (a claim of it is passed), `times` turns."""
        for _ in range(times):
            while self.decision != DECISION_TURN:
                self.answer(encode(PASS, NO_TILE))
            self.answer(encode(DISCARD, int(self.state.table[T.DRAWN])))

    def value(self, column):
        return int(self.record[E.RECORD_COLUMNS.index(column)])


def flags_wind(flags, shift):
    return (flags >> shift) & 3


def test_the_first_seat_in_turn_order_that_wins_takes_the_discard_and_chow_is_only_from_the_left(mcr):
    ruleset = variant(mcr, min_fan=0)
    five = parse_tile("5m")
    hands = [
        tiles("5m 9m 9p 1s 2s 3s 5s 7s 3z 4z 5z 6z 7z 8m"),  # dealer, seat 0: throws 5m first
        tiles("6m7m 1p1p 2p 3p 9s9s 6s 4s 8s 1z 2z"),  # seat 1: may chow 5m (567m)
        tiles("1m2m3m 4p5p6p 7s8s9s 1z1z1z 5m"),  # seat 2: waits on 5m
        tiles("4m6m 1p2p3p 4s5s6s 2z2z2z 7z7z"),  # seat 3: waits on 5m too, and holds 4m6m
    ]
    for second_passes in (False, True):
        table = Table(ruleset, build_wall(hands, front=tiles("9m 9m")))
        assert (table.seat, table.decision) == (0, DECISION_TURN)
        table.answer(encode(DISCARD, five))
        assert (table.seat, table.decision) == (1, DECISION_CLAIM)
        assert encode(CHOW, five) in table.legal() and encode(WIN, NO_TILE) not in table.legal()
        table.answer(encode(CHOW, five))  # a chow is kept until a higher claim is known
        assert (table.seat, table.decision) == (2, DECISION_CLAIM)
        assert encode(WIN, NO_TILE) in table.legal()
        assert not any(action_code(action) == CHOW for action in table.legal())  # seat 2 is not after seat 0
        if not second_passes:
            table.answer(encode(WIN, NO_TILE))
            assert not table.pending  # seat 3 is never asked: 截和
            assert (table.value("winner"), table.value("discarder"), table.value("win_type")) == (2, 0, E.DISCARD_WIN)
        else:
            table.answer(encode(PASS, NO_TILE))
            assert (table.seat, table.decision) == (3, DECISION_CLAIM)
            assert not any(action_code(action) == CHOW for action in table.legal())  # 4m6m, but not on the left
            table.answer(encode(WIN, NO_TILE))
            assert table.value("winner") == 3
        assert table.value("violation") == E.NO_VIOLATION


def test_a_pong_beats_the_chow_of_the_seat_on_the_left(mcr):
    five = parse_tile("5m")
    hands = [
        tiles("5m 9m 9p 1s 2s 3s 5s 7s 3z 4z 5z 6z 7z 8m"),
        tiles("6m7m 1p1p 2p 3p 9s9s 6s 4s 8s 1z 2z"),  # chows 567m
        tiles("5m5m 2m 4p5p6p 7s8s9s 1z1z 3m 2z"),  # pongs 5m
        tiles("4m 1p2p3p 4s5s6s 2z2z 7z7z 8p 9p"),
    ]
    table = Table(mcr, build_wall(hands))
    table.answer(encode(DISCARD, five))
    table.answer(encode(CHOW, five))
    assert table.seat == 2 and encode(PONG, five) in table.legal()
    table.answer(encode(PONG, five))
    while table.decision != DECISION_TURN:
        table.answer(encode(PASS, NO_TILE))
    assert table.seat == 2 and int(table.state.table[T.DRAWN]) == -1  # it discards without drawing
    assert table.state.melds[2, 0].tolist() == [MELD_PONG, five] and table.state.table[T.N_MELDS + 1] == 0


def test_a_seat_that_pongs_discards_without_a_kong_of_its_own_tiles(mcr):
    five = parse_tile("5m")
    hands = [
        tiles("5m 9m 9p 2s 3s 5s 7s 3z 4z 5z 6z 7z 8m 8m"),  # throws 5m
        tiles("6m7m 1p1p 2p 3p 9s9s 6s 4s 8s 1z 2z"),
        tiles("5m5m 1s1s1s1s 1p2p3p 7s8s 2z 3m"),  # pongs 5m, holding four 1s
        tiles("4m 1p2p3p 4s5s6s 2z2z 7z7z 8p 9p"),
    ]
    table = Table(mcr, build_wall(hands))
    table.answer(encode(DISCARD, five))
    while table.seat != 2:
        table.answer(encode(PASS, NO_TILE))
    table.answer(encode(PONG, five))
    while table.decision != DECISION_TURN:
        table.answer(encode(PASS, NO_TILE))
    assert table.seat == 2 and int(table.state.table[T.DRAWN]) == -1
    # the four 1s would be a concealed kong on a turn that began with a tile received; after a pong it discards
    assert {action_code(action) for action in table.legal()} == {DISCARD}


def test_an_added_kong_is_robbed_by_the_first_seat_that_may_win_on_it_and_the_pong_stays(mcr):
    ruleset = variant(mcr, min_fan=0)
    eight = parse_tile("8s")
    hands = [
        tiles("8s 1m 9m 1p 9p 2z 3z 4z 5z 6z 1z 5m 5p 4m"),  # throws 8s
        tiles("8s8s 2m3m4m 3p4p5p 6m7m 1s 2s 9s"),  # pongs 8s, later draws the fourth
        tiles("1m2m3m 7p8p9p 3s4s5s 6z6z 7z 9p"),
        tiles("7s9s 2p3p4p 6p7p8p 5s5s5s 7z7z"),  # waits on 8s (closed wait)
    ]
    front = tiles("5z 5z 5z 8s")  # seats 2, 3, 0 draw and throw; seat 1 draws the fourth 8s
    table = Table(ruleset, build_wall(hands, front=front))
    table.answer(encode(DISCARD, eight))
    while table.seat != 1:
        table.answer(encode(PASS, NO_TILE))
    table.answer(encode(PONG, eight))
    while table.decision != DECISION_TURN:  # seat 3 may win on the 8s, and lets it go
        table.answer(encode(PASS, NO_TILE))
    table.answer(encode(DISCARD, parse_tile("1s")))
    table.discard_drawn(3)
    while table.decision != DECISION_TURN:
        table.answer(encode(PASS, NO_TILE))
    assert table.seat == 1 and encode(ADDED_KONG, eight) in table.legal()
    table.answer(encode(ADDED_KONG, eight))
    assert (table.seat, table.decision) == (3, DECISION_ROB)
    assert table.legal() == [encode(PASS, NO_TILE), encode(WIN, NO_TILE)]
    flags = int(table.state.table[T.WIN_FLAGS])
    assert flags & ROBBING_KONG_FLAG and not flags & SELF_DRAWN_FLAG
    assert flags & FOURTH_TILE_FLAG  # the three copies of the pong are on the table
    table.answer(encode(WIN, NO_TILE))
    assert (table.value("winner"), table.value("discarder"), table.value("win_type")) == (3, 1, E.ROBBED_KONG)
    assert table.state.melds[1, 0].tolist() == [MELD_PONG, eight]  # the kong failed
    assert table.value("violation") == E.NO_VIOLATION


def test_a_robbable_kong_asks_nobody_who_cannot_win_and_then_stands(mcr):
    eight = parse_tile("8s")
    hands = [
        tiles("8s 1m 9m 1p 9p 2z 3z 4z 5z 6z 1z 5m 5p 4m"),
        tiles("8s8s 2m3m4m 3p4p5p 6m7m 1s 2s 9s"),
        tiles("1m2m3m 7p8p9p 3s4s5s 6z6z 7z 9p"),
        tiles("7s 2p3p4p 6p7p8p 5s5s5s 7z7z 1s"),  # cannot win on the fourth 8s
    ]
    table = Table(mcr, build_wall(hands, front=tiles("5z 5z 5z 8s"), back=tiles("3m")))
    table.answer(encode(DISCARD, eight))
    while table.seat != 1:
        table.answer(encode(PASS, NO_TILE))
    table.answer(encode(PONG, eight))
    table.answer(encode(DISCARD, parse_tile("1s")))
    table.discard_drawn(3)
    while table.decision != DECISION_TURN:
        table.answer(encode(PASS, NO_TILE))
    table.answer(encode(ADDED_KONG, eight))
    assert (table.seat, table.decision) == (1, DECISION_TURN)  # nobody could rob: the replacement is drawn
    assert int(table.state.table[T.DRAWN]) == parse_tile("3m") and int(table.state.table[T.SOURCE]) == E.FROM_KONG
    assert table.state.melds[1, 0].tolist() == [MELD_KONG, eight]


def test_flowers_are_replaced_from_the_back_and_paid_with_the_fans(mcr):
    ruleset = variant(mcr, min_fan=0, base=8)
    hands = [
        tiles("1m2m3m 4p5p6p 7s8s9s 1z1z1z 5m"),  # 13 tiles and a flower: the replacement completes it
        tiles("2m3m4m 5p6p7p 2s3s4s 2z2z2z 6m"),
        tiles("4m5m6m 7p8p9p 4s5s6s 3z3z3z 7m"),
        tiles("6m7m8m 1p2p3p 5s6s7s 4z4z4z 9m"),
    ]
    wall = build_wall(hands, back=[FIRST_FLOWER + 5, parse_tile("5m")], flowers=1)
    table = Table(ruleset, wall)
    assert (table.seat, table.decision) == (0, DECISION_TURN)
    assert int(table.state.table[T.FLOWERS + 0]) == 2  # the dealt flower and the first replacement
    assert int(table.state.table[T.DRAWN]) == parse_tile("5m")
    assert table.state.hands[0].sum() == 14
    assert table.legal()[0] == encode(WIN, NO_TILE)
    table.answer(encode(WIN, NO_TILE))
    price = table.value("fan_total") + 2
    assert table.value("win_type") == E.SELF_DRAWN and table.value("winner_flowers") == 2
    assert [table.value(f"money_{seat}") for seat in range(4)] == [3 * (8 + price), -(8 + price), -(8 + price),
                                                                  -(8 + price)]
    assert table.value("violation") == E.NO_VIOLATION


def test_the_last_discard_may_be_won_but_not_claimed_and_an_unwon_last_discard_exhausts_the_deal(mcr):
    ruleset = variant(without_flowers(mcr), min_fan=0)
    last = parse_tile("3z")
    hands = [
        tiles("3z3z 1m9m 1p9p 1s9s 5z6z7z 2m 2p 2s"),  # could pong the last discard: may not
        tiles("1m2m3m 4p5p6p 7s8s9s 1z1z1z 3z"),  # waits on 3z alone
        tiles("4m5m6m 7p8p9p 3s4s5s 2z2z2z 8m"),
        tiles("6m7m8m 1p2p3p 6s7s8s 4z4z4z 9m"),
    ]
    wall = build_wall(hands, back=[last], with_flowers=False)
    assert wall[-1] == last  # with every tile drawn, seat (1 + 82) % 4 = 3 makes the 83rd and last draw
    for won in (True, False):
        table = Table(ruleset, wall)
        table.answer(encode(DISCARD, parse_tile("2m")))
        while not (table.decision == DECISION_TURN and T.wall_left(table.state.table) == 0):
            if table.decision == DECISION_TURN:
                table.answer(encode(DISCARD, int(table.state.table[T.DRAWN])))
            else:
                table.answer(encode(PASS, NO_TILE))
        assert table.seat == 3 and T.wall_left(table.state.table) == 0
        table.answer(encode(DISCARD, last))
        while table.pending and table.seat != 1:
            assert table.seat != 0 or table.legal() == [encode(PASS, NO_TILE)]
            table.answer(encode(PASS, NO_TILE))
        assert table.pending and table.legal() == [encode(PASS, NO_TILE), encode(WIN, NO_TILE)]
        assert int(table.state.table[T.WIN_FLAGS]) & LAST_WALL_TILE_FLAG  # 海底捞月
        table.answer(encode(WIN if won else PASS, NO_TILE))
        assert not table.pending
        assert table.value("winner") == (1 if won else -1)
        assert table.value("tiles_left") == 0
        if not won:
            assert all(table.value(f"money_{seat}") == 0 for seat in range(4))
        assert table.value("violation") == E.NO_VIOLATION


@pytest.mark.parametrize("deal", [0, 5, 10, 15, 16])
def test_the_win_context_carries_the_seat_wind_and_the_round_wind(mcr, deal):
    ruleset = variant(mcr, min_fan=0)
    hands = [tiles("1m2m3m 4p5p6p 7s8s9s 1z1z1z 5m"), tiles("2m3m4m 5p6p7p 2s3s4s 2z2z2z 6m"),
             tiles("4m5m6m 7p8p9p 4s5s6s 3z3z3z 7m"), tiles("6m7m8m 1p2p3p 5s6s7s 4z4z4z 9m")]
    hands[0] = hands[0] + tiles("5m")  # the dealer's 14th tile completes its hand
    table = Table(ruleset, build_wall(hands), deal=deal)
    dealer, round_wind = deal % 4, deal % 16 // 4
    assert (table.seat, table.decision) == (dealer, DECISION_TURN)
    flags = int(table.state.table[T.WIN_FLAGS])
    assert flags_wind(flags, SEAT_WIND_SHIFT) == 0  # the dealer is 东
    assert flags_wind(flags, ROUND_WIND_SHIFT) == round_wind
    table.answer(encode(DISCARD, parse_tile("5m")))
    claim_seat = table.seat  # the next seat that may do more than pass: its wind is its distance from the dealer
    assert flags_wind(int(table.state.table[T.WIN_FLAGS]), SEAT_WIND_SHIFT) == (claim_seat - dealer) % 4


def test_no_pong_or_kong_of_the_last_discard(mcr):
    ruleset = variant(without_flowers(mcr), min_fan=0)
    hands = [
        tiles("1m2m3m 4p5p6p 7s8s9s 1z 2z 3z 4z 5z"),
        tiles("2m3m4m 5p6p7p 2s3s4s 5m 6m 7m 8m"),
        tiles("4m5m6m 7p8p9p 4s5s6s 6z6z6z 1p"),  # holds three 6z, the last tile's kind
        tiles("6m7m8m 1p2p3p 5s6s7s 7z7z 2p 3p"),
    ]
    table = Table(ruleset, build_wall(hands, back=tiles("6z"), with_flowers=False))
    table.answer(encode(DISCARD, parse_tile("5z")))
    while not (table.decision == DECISION_TURN and T.wall_left(table.state.table) == 0):
        if table.decision == DECISION_TURN:
            table.answer(encode(DISCARD, int(table.state.table[T.DRAWN])))
        else:
            table.answer(encode(PASS, NO_TILE))
    assert table.seat == 3 and int(table.state.table[T.DRAWN]) == parse_tile("6z")
    assert all(action_code(action) == DISCARD for action in table.legal())  # no kong without a replacement
    table.answer(encode(DISCARD, parse_tile("6z")))
    assert not table.pending  # seat 2 is not asked: it could only pong or kong, and may not
    assert table.value("winner") == -1 and table.value("violation") == E.NO_VIOLATION

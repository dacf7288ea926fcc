"""The 血战 engine as a specification : the two-suit hand measures against the general shanten
kernel, the validating mode over mixed players of both rulesets, reproducibility, money, each table
rule pinned on deals found by a search over seeds, and the optional opening (换三张, 定缺). Deal logs are followed by a plain-Python table
(``LogTable``), independent of the engine, which knows where every tile is after each event."""

import dataclasses
import itertools

import numpy as np
import pytest

from kernels.fan_ids import Fan
from kernels.fans.xuezhan import best_discard_value
from kernels.shanten import shanten_many
from kernels.tables import load_tables
from kernels.tiles import MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_KINDS
from kernels.win_check import load_complete_bits
from sim.core.notation import parse_tile, parse_tiles
from sim.core.ruleset import load_ruleset
from sim.players.player_text import PlayerError
from sim.xuezhan import engine
from sim.xuezhan import table as xuezhan_table

E = engine
GAMES = [("liangmen-xuezhan", 4), ("sanren-liangfang", 3), ("sanren-liangfang", 2)]
MIXES = ("greedy,value,defensive,random", "random,defensive,value,greedy", "random,random,random,random")


def seats_of(mix, n):
    return ",".join(mix.split(",")[:n])


@pytest.fixture(scope="module")
def liangmen():
    return load_ruleset("liangmen-xuezhan")


@pytest.fixture(scope="module")
def sanren():
    return load_ruleset("sanren-liangfang")


def with_switches(ruleset, **changes):
    return dataclasses.replace(ruleset, xuezhan=dataclasses.replace(ruleset.xuezhan, **changes))


# ------------------------------------------------------------------------------ the event log, followed


class LogTable:
    """Every seat's tiles, melds, wins and the wall, followed event by event through a deal log."""

    def __init__(self, log, n_tiles=72):
        self.log = log
        self.n = log.record["n_seats"]
        self.hands = np.zeros((self.n, N_KINDS), np.int8)
        self.melds = [[] for _ in range(self.n)]
        self.won = set()
        self.declared = set()
        self.voids = {}  # seat -> first kind of its declared void suit (定缺)
        self.wall_left = n_tiles

    def meld_array(self, seat):
        melds = np.zeros((4, 2), np.int8)
        for index, (code, kind) in enumerate(self.melds[seat]):
            melds[index] = code, kind
        return melds

    def events(self):
        """Yields (index, code, seat, tile, amount) with the table as it was before the event, then applies it."""
        for index, ((code, seat, tile), amount) in enumerate(zip(self.log.events.tolist(), self.log.amounts.tolist())):
            yield index, code, seat, tile, amount
            if code in (E.EV_DEAL, E.EV_DRAW, E.EV_REPLACEMENT):
                self.hands[seat, tile] += 1
                self.wall_left -= 1
            elif code == E.EV_DISCARD:
                self.hands[seat, tile] -= 1
            elif code == E.EV_PONG:
                self.hands[seat, tile] -= 2
                self.melds[seat].append((MELD_PONG, tile))
            elif code == E.EV_KONG:
                self.hands[seat, tile] -= 3
                self.melds[seat].append((MELD_KONG, tile))
            elif code == E.EV_CONCEALED_KONG:
                self.hands[seat, tile] -= 4
                self.melds[seat].append((MELD_CONCEALED_KONG, tile))
            elif code == E.EV_ADDED_KONG:
                self.hands[seat, tile] -= 1
                after = [code for code in self.log.events[index + 1 :, 0] if code != E.EV_PASS]  # robbers win after the passes
                robbed = after[0] == E.EV_WIN_ROBBED_KONG
                if not robbed:
                    self.melds[seat] = [(MELD_KONG if (c, k) == (MELD_PONG, tile) else c, k) for c, k in self.melds[seat]]
            elif code == E.EV_DECLARE:
                self.declared.add(seat)
            elif code == E.EV_EXCHANGE:
                for kind in E.exchanged_tiles(amount):
                    self.hands[seat, kind] -= 1
                    self.hands[tile, kind] += 1  # the tile slot names the receiver
            elif code == E.EV_VOID_SUIT:
                self.voids[seat] = tile
            elif code in (E.EV_WIN_SELF_DRAWN, E.EV_WIN_DISCARD, E.EV_WIN_ROBBED_KONG):
                self.won.add(seat)

    def complete_with(self, seat, tile):
        hand = self.hands[seat].copy()
        hand[tile] += 1
        return shanten_many(hand[None], np.array([len(self.melds[seat])]))[0] == -1

    def still_in(self):
        return [seat for seat in range(self.n) if seat not in self.won]

    def void_held(self, seat):
        """Tiles of the seat's void suit in its concealed hand (0 without 定缺)."""
        if seat not in self.voids:
            return 0
        return int(self.hands[seat, self.voids[seat] : self.voids[seat] + 9].sum())


def logs_of(ruleset, mix, seed, deals, session_length=0):
    """Replays of the deals of one run (each replay plays its deal again)."""
    return [E.replay(ruleset, mix, seed, deal, session_length) for deal in deals]


# ------------------------------------------------------------------------------ two-suit measures


def random_two_suit_hands(rng, count, size):
    hands = np.zeros((count, N_KINDS), np.int8)
    for row in range(count):
        tiles = rng.choice(np.repeat(np.arange(9, 27), 4), size, replace=False)
        np.add.at(hands[row], tiles, 1)
    return hands


@pytest.mark.parametrize("n_melds", [0, 1, 2, 3])
def test_two_suit_measures_agree_with_the_general_shanten_kernel(n_melds):
    rng = np.random.default_rng(5)
    tables, bits = load_tables(), load_complete_bits()
    size = 14 - 3 * n_melds
    hands = random_two_suit_hands(rng, 3000, size)
    # Complete hands are rare at random: add some built from sets.
    built = np.zeros((600, N_KINDS), np.int8)
    for row in range(600):
        while True:
            hand = np.zeros(N_KINDS, np.int8)
            hand[rng.integers(9, 27)] += 2
            for _ in range(4 - n_melds):
                low = rng.integers(9, 27)
                if rng.random() < 0.5 and (low - 9) % 9 <= 6:
                    hand[low : low + 3] += 1
                else:
                    hand[low] += 3
            if hand.max() <= 4:
                break
        built[row] = hand
    hands = np.concatenate([hands, built])
    general = shanten_many(hands, np.full(len(hands), n_melds))
    for hand, expected in zip(hands, general):
        assert xuezhan_table.shanten(hand, n_melds, tables.suit) == expected
        assert xuezhan_table.is_complete(hand, n_melds, bits) == (expected == -1)


def test_two_suit_ukeire_counts_the_live_tiles_that_lower_the_shanten():
    """Slow twin: draw each kind, recompute the shanten with the general kernel, add its live copies."""
    rng = np.random.default_rng(9)
    tables = load_tables()
    for hand in random_two_suit_hands(rng, 400, 13):
        live = (4 - hand).astype(np.int8)
        live[:9] = 0
        live[27:] = 0
        base = shanten_many(hand[None], np.array([0]))[0]
        expected = 0
        for kind in range(9, 27):
            if live[kind] > 0 and hand[kind] < 4:
                drawn = hand.copy()
                drawn[kind] += 1
                if shanten_many(drawn[None], np.array([0]))[0] < base:
                    expected += live[kind]
        assert xuezhan_table.ukeire(hand, 0, live, tables.suit) == (base, expected)


def test_find_waits_lists_exactly_the_completing_kinds():
    rng = np.random.default_rng(3)
    bits = load_complete_bits()
    for hand in random_two_suit_hands(rng, 1000, 13):
        out = np.zeros(N_KINDS, np.int8)
        xuezhan_table.find_waits(hand.copy(), 0, bits, out)
        expected = [
            int(9 <= kind <= 26 and hand[kind] < 4 and shanten_many(_plus(hand, kind)[None], np.array([0]))[0] == -1)
            for kind in range(N_KINDS)
        ]
        assert out.tolist() == expected


def _plus(hand, kind):
    out = hand.copy()
    out[kind] += 1
    return out


# ------------------------------------------------------------------------------ validating mode


# Deals per mix: over MIXES, 12,000 deals of each ruleset at its usual seat count (the issue asks for 10,000).
VALIDATED_DEALS = {4: 4000, 3: 4000, 2: 1500}


def assert_no_violation(records):
    violations = records.columns["violation"]
    first = np.flatnonzero(violations)
    assert not first.size, f"deal {records.columns['deal'][first[0]]}: {E.VIOLATIONS[violations[first[0]]]}"


@pytest.mark.parametrize("name,n", GAMES)
@pytest.mark.parametrize("mix", MIXES)
def test_validating_mode_finds_no_violation_with_mixed_players(name, n, mix):
    n_deals = VALIDATED_DEALS[n]
    records = E.play(load_ruleset(name), seats_of(mix, n), seed=11, n_deals=n_deals, validate=True)
    assert_no_violation(records)
    assert records.fans.shape == (n_deals, n, len(Fan))


def test_validating_mode_sees_a_broken_table(liangmen):
    """The check itself: a missing tile, a count over four and a hand of the wrong size are reported."""
    rules, template = E.kernel_rules(liangmen)
    state = xuezhan_table.new_state()
    wall = template.copy()
    table = state.table
    table[xuezhan_table.N_SEATS] = 4
    table[xuezhan_table.WALL_FRONT], table[xuezhan_table.WALL_BACK] = 0, len(wall) - 1
    won_size = np.zeros(4, np.int64)
    counts = np.zeros((2, N_KINDS), np.int64)
    assert E._check_table(state, wall, rules, -1, won_size, counts) == E.WRONG_HAND_SIZE
    # Deal 13 to each seat from the front: a sound table.
    for position in range(52):
        state.hands[position // 13, wall[position]] += 1
    table[xuezhan_table.WALL_FRONT] = 52
    assert E._check_table(state, wall, rules, -1, won_size, counts) == E.NO_VIOLATION
    state.hands[0, wall[0]] -= 1
    state.hands[0, wall[60]] += 1  # a tile still in the wall also in a hand
    assert E._check_table(state, wall, rules, -1, won_size, counts) == E.TILES_NOT_CONSERVED
    state.hands[0, wall[60]] -= 1
    state.hands[0, wall[0]] += 1
    state.visible[9] = 5
    assert E._check_table(state, wall, rules, -1, won_size, counts) == E.COUNT_OUT_OF_RANGE
    state.visible[9] = 0
    assert E._check_table(state, wall, rules, 0, won_size, counts) == E.WRONG_HAND_SIZE


def test_an_illegal_decision_is_recorded_as_one():
    """Legality as the validating mode checks it: a declarer may not pong, winners may not act."""
    state = xuezhan_table.new_state()
    rules, _ = E.kernel_rules(load_ruleset("liangmen-xuezhan"))
    work = xuezhan_table.new_work()
    table = state.table
    table[xuezhan_table.N_SEATS] = 4
    table[xuezhan_table.WALL_BACK] = 40
    table[xuezhan_table.WALL_FRONT] = 53
    state.hands[1, 9] = 2
    pong = E.encode(E.PONG, 9)
    assert xuezhan_table.is_legal_claim(pong, 1, 9, False, True, state, rules, work)
    table[xuezhan_table.DECLARED + 1] = 1
    assert not xuezhan_table.is_legal_claim(pong, 1, 9, False, True, state, rules, work)
    table[xuezhan_table.DECLARED + 1] = 0
    table[xuezhan_table.WON + 1] = 1
    assert not xuezhan_table.is_legal_claim(E.encode(E.PASS, E.NO_TILE), 1, 9, False, True, state, rules, work)


# ------------------------------------------------------------------------------ reproducibility and money


@pytest.mark.parametrize("name,n", GAMES)
def test_a_slice_of_a_long_run_equals_a_short_run(name, n):
    ruleset = load_ruleset(name)
    mix = seats_of(MIXES[0], n)
    long = E.play(ruleset, mix, seed=3, n_deals=400)
    short = E.play(ruleset, mix, seed=3, n_deals=100, first_deal=250)
    for column, values in short.columns.items():
        assert np.array_equal(values, long.columns[column][250:350]), column
    assert np.array_equal(short.fans, long.fans[250:350])
    checked = E.play(ruleset, mix, seed=3, n_deals=400, validate=True)
    for column, values in long.columns.items():
        if column != "violation":
            assert np.array_equal(values, checked.columns[column]), column


def test_sessions_replay_identically_from_their_start(liangmen):
    mix = MIXES[0]
    long = E.play(liangmen, mix, seed=4, n_deals=40, session_length=8)
    short = E.play(liangmen, mix, seed=4, n_deals=8, first_deal=16, session_length=8)
    for column, values in short.columns.items():
        assert np.array_equal(values, long.columns[column][16:24]), column


@pytest.mark.parametrize("name,n", GAMES)
def test_money_is_a_sum_of_transfers_and_each_seat_s_money_is_its_four_parts(name, n):
    kong_paid = chajiao_paid = False
    for mix in MIXES[:2]:  # two lineups, so that kong money and 查叫 both occur (greedy v value at two seats
        # rarely leaves the wall empty with both in)
        records = E.play(load_ruleset(name), seats_of(mix, n), seed=5, n_deals=3000)
        c = records.columns
        total = sum(c[f"money_{seat}"] for seat in range(n))
        assert (total == 0).all()
        for seat in range(n):
            parts = sum(c[f"{part}_money_{seat}"] for part in ("win", "kong", "chajiao", "guansi"))
            assert np.array_equal(parts, c[f"money_{seat}"])
        kong_paid |= bool((c["kong_money_0"] != 0).any())
        chajiao_paid |= bool((c["chajiao_money_0"] != 0).any())
    assert kong_paid and chajiao_paid


def test_record_columns_name_only_the_seats_in_play(sanren):
    records = E.play(sanren, "greedy,greedy", seed=1, n_deals=5)
    assert "money_1" in records.columns and "money_2" not in records.columns
    assert set(records.columns) == {"deal", *E.record_columns(2)}


# ------------------------------------------------------------------------------ the table rules, pinned


def find_deals(ruleset, mix, condition, seed=21, n_deals=2000, limit=20, session_length=0):
    records = E.play(ruleset, mix, seed=seed, n_deals=n_deals, session_length=session_length)
    rows = np.flatnonzero(condition(records.columns))[:limit]
    assert rows.size, "no deal of the search shows the rule"
    return records, rows


WITNESS_ROWS = (E.EV_PASS, E.EV_WAIT, E.EV_LAST_TILE, E.EV_DECLINE_WIN)  # choices let go, 报叫's waits, 海底


def next_moves(log, index):
    """The indices of the events after event `index` that are moves, the log's witness rows left out."""
    after = np.arange(index + 1, len(log.events))
    return after[~np.isin(log.events[after, 0], WITNESS_ROWS)]


def payments_after(log, index, code):
    """The payments of kind `code` right after event `index` (payer, payee, amount)."""
    out = []
    for (event, payer, payee), amount in zip(log.events[index + 1 :].tolist(), log.amounts[index + 1 :].tolist()):
        if event != code:
            break
        out.append((payer, payee, amount))
    return out


@pytest.mark.parametrize("name,n", GAMES)
def test_kong_money_is_paid_at_once_by_the_players_still_in(name, n):
    ruleset = load_ruleset(name)
    switches = ruleset.xuezhan
    mix = seats_of(MIXES[0], n)
    _, rows = find_deals(ruleset, mix, lambda c: sum(c[f"kong_money_{s}"] != 0 for s in range(n)) > 0, limit=40)
    seen = set()
    for row in rows:
        log = E.replay(ruleset, mix, 21, int(row))
        table = LogTable(log)
        last_discard = None
        for index, code, seat, tile, _ in table.events():
            if code == E.EV_DISCARD:
                last_discard = seat
            if code not in (E.EV_KONG, E.EV_CONCEALED_KONG, E.EV_ADDED_KONG):
                continue
            if code == E.EV_ADDED_KONG and log.events[next_moves(log, index)[0], 0] == E.EV_WIN_ROBBED_KONG:
                continue
            paid = payments_after(log, index, E.EV_PAY_KONG)
            others = [s for s in table.still_in() if s != seat]
            if code == E.EV_KONG:
                expected = [(s, seat, switches.exposed_discarder if s == last_discard else switches.exposed_others) for s in others]
            elif code == E.EV_CONCEALED_KONG:
                expected = [(s, seat, switches.concealed_others) for s in others]
            else:
                passed = any(c == MELD_PONG and k == tile for c, k in table.melds[seat]) and _ponged_holding_three(log, seat, tile)
                amount = 0 if passed and not switches.passed_kong_pays else switches.added_others
                expected = [(s, seat, amount) for s in others]
            assert paid == [p for p in expected if p[2] > 0], (row, index)
            seen.add(code)
    assert seen >= {E.EV_CONCEALED_KONG, E.EV_KONG}


def _ponged_holding_three(log, seat, tile):
    """Whether the seat's pong of `tile` was made while it held three (过手杠), from the log."""
    table = LogTable(log)
    for _, code, who, kind, _ in table.events():
        if code == E.EV_PONG and who == seat and kind == tile:
            return table.hands[seat, tile] == 3 and table.wall_left > 0
    return False


def test_passed_kong_earns_no_kong_money_in_sanren_but_does_in_liangmen(liangmen, sanren):
    """过手杠: pong a tile one could have konged, add the fourth later: no kong money where the switch says so."""
    for ruleset, pays in ((sanren, False), (liangmen, True)):
        n = ruleset.players[0]
        mix = ",".join(["random"] * n)
        records = E.play(ruleset, mix, seed=8, n_deals=4000)
        found = 0
        for row in np.flatnonzero(records.columns["melds_0"] + records.columns["melds_1"] > 0)[:1500]:
            log = E.replay(ruleset, mix, 8, int(row))
            table = LogTable(log)
            holding = {}
            for index, code, seat, tile, _ in table.events():
                if code == E.EV_PONG:
                    holding[(seat, tile)] = table.hands[seat, tile] == 3 and table.wall_left > 0
                if code == E.EV_ADDED_KONG and holding.get((seat, tile)) and log.events[next_moves(log, index)[0], 0] != E.EV_WIN_ROBBED_KONG:
                    assert bool(payments_after(log, index, E.EV_PAY_KONG)) == pays
                    found += 1
            if found >= 3:
                break
        assert found, ruleset.id


def test_several_players_win_on_one_discard_and_the_discarder_pays_each(liangmen):
    mix = MIXES[0]
    _, rows = find_deals(liangmen, mix, lambda c: c["multi_win"] == 1)
    for row in rows[:5]:
        log = E.replay(liangmen, mix, 21, int(row))
        codes = log.events[:, 0]
        wins = np.flatnonzero((codes == E.EV_WIN_DISCARD) | (codes == E.EV_WIN_ROBBED_KONG))
        # two wins on the same tile, each followed by one payment from the same player
        groups = itertools.groupby(wins, key=lambda index: log.events[index, 2])
        multi = [list(group) for _, group in groups if len(list(group)) > 0]
        assert multi
        payers = {payments_after(log, index, E.EV_PAY_WIN)[0][0] for index in wins}
        for index in wins:
            paid = payments_after(log, index, E.EV_PAY_WIN)
            assert len(paid) == 1 and paid[0][1] == log.events[index, 1]
        orders = [log.record[f"win_order_{s}"] for s in range(4) if log.record[f"win_order_{s}"]]
        assert len(orders) > len(set(orders))  # simultaneous winners share their order
        assert payers


def test_robbing_an_added_kong_wins_for_every_robber_and_the_kong_fails(liangmen):
    mix = "random,random,random,random"
    records = E.play(liangmen, mix, seed=2, n_deals=20000)
    rows = np.flatnonzero(sum(records.columns[f"win_type_{s}"] == E.ROBBED_KONG for s in range(4)))
    assert rows.size
    for row in rows[:5]:
        log = E.replay(liangmen, mix, 2, int(row))
        table = LogTable(log)
        for index, code, seat, tile, _ in table.events():
            if code != E.EV_ADDED_KONG:
                continue
            move = next_moves(log, index)[0]
            if log.events[move, 0] == E.EV_WIN_ROBBED_KONG:
                robber = log.events[move, 1]
                assert log.events[move, 2] == tile
                assert table.complete_with(robber, tile)
                paid = payments_after(log, move, E.EV_PAY_WIN)
                assert [(p, r) for p, r, _ in paid] == [(seat, robber)]
                assert E.EV_PAY_KONG not in log.events[move : move + 3, 0]
                break


def test_chajiao_at_an_exhaustive_draw_makes_every_player_not_ready_pay_every_ready_one(liangmen, sanren):
    for ruleset in (liangmen, sanren):
        n = max(ruleset.players)
        mix = seats_of(MIXES[1], n)
        _, rows = find_deals(ruleset, mix, lambda c: (c["draw"] == 1) & (c["chajiao_money_0"] != 0), limit=6)
        values, priority, start, target = ruleset.kernel_arrays()
        for row in rows:
            log = E.replay(ruleset, mix, 21, int(row))
            table = LogTable(log)
            for _ in table.events():
                pass
            best = {}
            for seat in table.still_in():
                flags = E.READY_FLAG if seat in table.declared else 0
                best[seat], _ = best_discard_value(table.hands[seat], table.meld_array(seat), len(table.melds[seat]), flags,
                                                   values, priority, start, target, ruleset.combine == "multiply")
            ready = [s for s in best if best[s] > 0]
            not_ready = [s for s in best if best[s] == 0]
            assert ready and not_ready
            paid = [(p, r) for (code, p, r), _ in zip(log.events.tolist(), log.amounts) if code == E.EV_PAY_CHAJIAO]
            assert sorted(paid) == sorted((p, r) for p in not_ready for r in ready)
            for seat in range(n):
                assert log.record[f"ready_{seat}"] == int(seat in ready)
            if ruleset.combine == "multiply":
                for (code, p, r), amount in zip(log.events.tolist(), log.amounts.tolist()):
                    if code == E.EV_PAY_CHAJIAO:
                        assert amount == min(ruleset.cap, best[r])


def test_chajiao_payers_return_their_kong_money_in_sanren(sanren):
    mix = "greedy,random,random"
    _, rows = find_deals(sanren, mix, lambda c: sum((c[f"chajiao_money_{s}"] < 0) & (c[f"kong_money_{s}"] != 0) for s in range(3)) > 0,
                         n_deals=6000, limit=5)
    refunds = 0
    for row in rows:
        log = E.replay(sanren, mix, 21, int(row))
        payers = {p for (code, p, _), _ in zip(log.events.tolist(), log.amounts) if code == E.EV_PAY_CHAJIAO}
        for seat in payers:
            # what it received as kong money, less what it returned, is nothing
            received = sum(a for (code, p, r), a in zip(log.events.tolist(), log.amounts.tolist()) if code == E.EV_PAY_KONG and r == seat)
            returned = sum(a for (code, p, r), a in zip(log.events.tolist(), log.amounts.tolist()) if code == E.EV_REFUND_KONG and p == seat)
            assert received == returned
            refunds += returned
    assert refunds > 0


def test_guansi_a_declarer_who_did_not_win_pays_every_ready_player(liangmen):
    mix = "greedy,greedy,greedy,greedy"
    _, rows = find_deals(liangmen, mix, lambda c: sum(c[f"guansi_money_{s}"] < 0 for s in range(4)) > 0, limit=5)
    for row in rows:
        log = E.replay(liangmen, mix, 21, int(row))
        record = log.record
        payers = {p for (code, p, _) in log.events.tolist() if code == E.EV_PAY_GUANSI}
        payees = {r for (code, _, r) in log.events.tolist() if code == E.EV_PAY_GUANSI}
        for seat in payers:
            assert record[f"declared_{seat}"] == 1 and record[f"win_order_{seat}"] == 0
        for seat in payees:
            assert record[f"ready_{seat}"] == 1 and record[f"win_order_{seat}"] == 0


def test_a_declarer_wins_at_its_first_chance_and_otherwise_discards_what_it_draws(liangmen):
    mix = "random,random,random,random"
    _, rows = find_deals(liangmen, mix, lambda c: sum(c[f"declared_{s}"] for s in range(4)) > 0, limit=30)
    for row in rows:
        log = E.replay(liangmen, mix, 21, int(row))
        table = LogTable(log)
        last_drawn = {}
        for index, code, seat, tile, _ in table.events():
            if code in (E.EV_DRAW, E.EV_REPLACEMENT):
                last_drawn[seat] = tile
            if seat in table.declared and seat not in table.won:
                if code == E.EV_DISCARD:
                    assert tile == last_drawn[seat]
                assert code != E.EV_PONG
            if code == E.EV_DISCARD:
                for other in table.still_in():
                    if other != seat and other in table.declared and table.complete_with(other, tile):
                        following = log.events[next_moves(log, index)[:5], :2].tolist()
                        assert [E.EV_WIN_DISCARD, other] in following


def test_pass_pong_lock_forbids_ponging_the_passed_kind_until_the_next_action(liangmen):
    """过手碰, followed on random players' logs; without the switch the same situation does lead to pongs."""
    for ruleset, locked in ((liangmen, True), (with_switches(liangmen, pass_pong_lock=False), False)):
        mix = "random,random,random,random"
        pongs_while_locked, chances = 0, 0
        for deal in range(300):
            log = E.replay(ruleset, mix, 13, deal)
            table = LogTable(log)
            locks = [set() for _ in range(4)]
            for index, code, seat, tile, _ in table.events():
                if code == E.EV_DISCARD:
                    locks[seat].clear()
                    moves = next_moves(log, index)
                    nxt = log.events[moves[0]] if len(moves) else None
                    claimed = nxt is not None and nxt[0] in (E.EV_PONG, E.EV_KONG, E.EV_WIN_DISCARD)
                    for other in table.still_in():
                        if other == seat or other in table.declared or table.hands[other, tile] < 2 or len(table.melds[other]) >= 4:
                            continue
                        if tile in locks[other]:
                            chances += 1
                            if nxt is not None and nxt[0] == E.EV_PONG and nxt[1] == other:
                                pongs_while_locked += 1
                        elif not claimed:
                            locks[other].add(tile)
                if code in (E.EV_PONG, E.EV_KONG):
                    locks[seat].clear()
        assert chances > 0
        assert (pongs_while_locked == 0) == locked, (ruleset.xuezhan.pass_pong_lock, pongs_while_locked, chances)


def test_pass_win_lock_forbids_winning_on_a_discard_until_the_next_action(liangmen):
    """过水胡: a player that passed a win on a discard does not win on a discard before its next discard or
    claim (random players pass wins; the rule's own bookkeeping is pinned in the next test)."""
    for ruleset, locked in ((liangmen, True),):
        mix = "random,random,random,random"
        wins_while_locked, chances = 0, 0
        for deal in range(400):
            log = E.replay(ruleset, mix, 17, deal)
            table = LogTable(log)
            lock = set()
            for index, code, seat, tile, _ in table.events():
                if code in (E.EV_DISCARD, E.EV_PONG, E.EV_KONG):
                    lock.discard(seat)
                if code == E.EV_DISCARD:
                    winners = {int(w) for c, w, _ in log.events[next_moves(log, index)[:7]].tolist() if c == E.EV_WIN_DISCARD}
                    for other in table.still_in():
                        if other == seat or not table.complete_with(other, tile):
                            continue
                        if other in lock:
                            chances += 1
                            wins_while_locked += other in winners
                        elif other not in winners:
                            lock.add(other)
        assert chances > 0
        assert (wins_while_locked == 0) == locked


def test_win_locks_bind_until_the_player_acts_and_only_where_the_switches_say():
    """The bookkeeping of 过水胡 and 漏胡: passing a win sets the lock the ruleset has; a discard win is then
    refused (过水胡) or refused unless worth more (漏胡); a self-draw is free of 过水胡; acting clears both."""
    for pass_win, missed in ((1, 0), (0, 1), (0, 0)):
        table = np.zeros(xuezhan_table.TABLE_FIELDS, np.int64)
        table[xuezhan_table.MISSED_VALUE : xuezhan_table.MISSED_VALUE + 4] = -1
        settings = np.zeros(xuezhan_table.SETTINGS_FIELDS, np.int64)
        settings[xuezhan_table.PASS_WIN_LOCK], settings[xuezhan_table.MISSED_WIN_LOCK] = pass_win, missed
        assert E._may_win(1, 4, True, table)
        E._passed_win(1, 4, table, settings)
        assert E._may_win(1, 4, True, table) == (not pass_win and not missed)
        assert E._may_win(1, 8, True, table) == (not pass_win)
        assert E._may_win(1, 4, False, table) == (not missed)  # self-drawn, same value
        assert E._may_win(2, 4, True, table)  # another seat is free
        E._hand_changed(1, table)
        assert E._may_win(1, 4, True, table)


def test_no_kong_once_the_wall_is_empty_but_the_last_discard_may_be_ponged(sanren, liangmen):
    ponged_last = 0
    for ruleset in (sanren, liangmen):
        n = ruleset.players[0]
        mix = ",".join(["random"] * n)
        for deal in range(400):
            log = E.replay(ruleset, mix, 23, deal)
            table = LogTable(log)
            for _, code, seat, tile, _ in table.events():
                if table.wall_left == 0:
                    assert code not in (E.EV_KONG, E.EV_CONCEALED_KONG, E.EV_ADDED_KONG)
                    ponged_last += code == E.EV_PONG
    assert ponged_last > 0


def test_the_dealer_passes_to_the_first_winner_or_the_discarder_of_a_multiple_win(liangmen):
    mix = MIXES[0]
    records = E.play(liangmen, mix, seed=6, n_deals=600, session_length=6)
    c = records.columns
    for row in range(600):
        if c["deal"][row] % 6:
            assert c["dealer"][row] == c["next_dealer"][row - 1]
        if c["winners"][row] == 0:
            assert c["next_dealer"][row] == c["dealer"][row]
    singles = [row for row in range(600) if c["winners"][row] and not c["multi_win"][row]]
    assert all(c["next_dealer"][row] == c["first_winner"][row] for row in singles[:50])
    multi = [row for row in range(600) if c["multi_win"][row]]
    for row in multi[:10]:
        log = E.replay(liangmen, mix, 6, int(row), session_length=6)
        wins = [(i, s) for i, (code, s, _) in enumerate(log.events.tolist()) if code in (E.EV_WIN_DISCARD, E.EV_WIN_ROBBED_KONG, E.EV_WIN_SELF_DRAWN)]
        first_index, first_seat = wins[0]
        shares = sum(1 for s in range(4) if log.record[f"win_order_{s}"] == 1)
        if shares > 1:
            discarder = [s for code, s, _ in log.events[:first_index].tolist() if code in (E.EV_DISCARD, E.EV_ADDED_KONG)][-1]
            assert log.record["next_dealer"] == discarder
        else:
            assert log.record["next_dealer"] == first_seat


def test_win_context_flags_reach_the_fans(liangmen, sanren):
    """杠上花, 杠上炮, 天胡/地胡 and 扫底/海底 appear over enough deals, and self-drawn wins carry 自摸."""
    records = E.play(liangmen, "random,random,random,random", seed=31, n_deals=20000)
    fans = records.fans
    self_drawn = np.stack([records.columns[f"win_type_{s}"] == E.SELF_DRAWN for s in range(4)], axis=1)
    assert (fans[..., Fan.SELF_DRAWN][self_drawn] == 1).all()
    assert (fans[..., Fan.SELF_DRAWN][~self_drawn] == 0).all()
    for fan in (Fan.OUT_WITH_REPLACEMENT_TILE, Fan.READY_HAND):
        assert fans[..., fan].sum() > 0, fan.name
    greedy = E.play(sanren, "greedy,greedy,greedy", seed=31, n_deals=20000).fans
    for fan in (Fan.LAST_TILE_DRAW, Fan.DISCARD_AFTER_KONG, Fan.HEAVENLY_HAND, Fan.EARTHLY_HAND):
        assert greedy[..., fan].sum() + fans[..., fan].sum() > 0, fan.name


def test_players_parse_per_seat_and_reject_a_wrong_count(liangmen):
    seated = E.Players.parse("greedy:declare=0,value,defensive:threat_wall=4,random", seats=4)
    assert seated.names[0] == "greedy:claim=1,declare=0"
    with pytest.raises(PlayerError):
        E.Players.parse("greedy,greedy", seats=3)
    with pytest.raises(ValueError):
        E.play(liangmen, "greedy,greedy,greedy", seed=1, n_deals=1)
    from sim.erren.engine import Players

    erren_style = Players.parse("greedy,random,greedy,random", seats=4)
    a = E.play(liangmen, erren_style, seed=1, n_deals=50)
    b = E.play(liangmen, "greedy,random,greedy,random", seed=1, n_deals=50)
    assert np.array_equal(a.columns["money_0"], b.columns["money_0"])


def test_declare_zero_never_declares(liangmen):
    records = E.play(liangmen, "greedy:declare=0,greedy:declare=0,greedy:declare=0,greedy:declare=0", seed=2, n_deals=2000)
    assert sum(records.columns[f"declared_{s}"].sum() for s in range(4)) == 0
    assert sum(records.columns[f"guansi_money_{s}"].astype(bool).sum() for s in range(4)) == 0



# ------------------------------------------------------------------------------ 地胡 by a non-dealer's first self-draw


def won_on_first_draw_before_any_meld(log, seat):
    """From the log: the seat's first draw from the wall is followed at once by its self-drawn win, and
    nobody ponged or konged before."""
    for index, (code, who, _) in enumerate(log.events.tolist()):
        if code in (E.EV_PONG, E.EV_KONG, E.EV_CONCEALED_KONG, E.EV_ADDED_KONG):
            return False
        if code == E.EV_DRAW and who == seat:
            return log.events[next_moves(log, index)[0], :2].tolist() == [E.EV_WIN_SELF_DRAWN, seat]
    return False


def test_earthly_hand_by_a_non_dealer_s_first_self_draw_counts_in_sanren_and_not_in_liangmen(liangmen, sanren):
    """003: 地胡 = "庄打出第一张闲形成胡牌以及闲摸第一张形成胡牌"; 002's 地胡 is only a win on the dealer's first
    discard. The search plays a copy with the switch on to find the deals, whose logs then show the situation."""
    for ruleset, scored in ((sanren, True), (liangmen, False)):
        assert ruleset.xuezhan.earthly_hand_self_drawn == scored
        n = ruleset.players[0]
        mix = ",".join(["greedy"] * n)
        probe = E.play(with_switches(ruleset, earthly_hand_self_drawn=True), mix, seed=21, n_deals=4000)
        records = E.play(ruleset, mix, seed=21, n_deals=4000)
        c = probe.columns
        found = 0
        for row in range(4000):
            for seat in range(n):
                if seat == c["dealer"][row] or c[f"win_type_{seat}"][row] != E.SELF_DRAWN or not probe.fans[row, seat, Fan.EARTHLY_HAND]:
                    continue
                log = E.replay(ruleset, mix, 21, row)
                assert won_on_first_draw_before_any_meld(log, seat), (ruleset.id, row)
                assert log.fans[seat, Fan.SELF_DRAWN] == 1
                assert log.fans[seat, Fan.EARTHLY_HAND] == int(scored) == records.fans[row, seat, Fan.EARTHLY_HAND], (ruleset.id, row)
                found += 1
        assert found >= 3, ruleset.id


# ------------------------------------------------------------------------------ 换三张 and 定缺


OPENINGS = ({"exchange_three": True}, {"void_suit": True}, {"exchange_three": True, "void_suit": True})
EXCHANGE_OFFSETS = {4: {1, 2, 3}, 3: {1, 2}, 2: {1}}  # next seat (counter-clockwise), across, previous (clockwise)


def suit_of(kind):
    return 9 if kind < 18 else 18


def smaller_suit(hand, least):
    """The players' suit for 换三张 (least 3) and 定缺 (least 0): fewer tiles; ties: fewer tiles in pairs, then 筒."""
    candidates = []
    for start in (9, 18):
        tiles = hand[start : start + 9]
        if tiles.sum() >= least:
            candidates.append((int(tiles.sum()), int(tiles[tiles >= 2].sum()), start))
    return min(candidates)[2]


@pytest.mark.parametrize("name,n", GAMES)
@pytest.mark.parametrize("switches", OPENINGS, ids=lambda switches: "+".join(switches))
def test_validating_mode_finds_no_violation_with_exchange_three_and_void_suit(name, n, switches):
    ruleset = with_switches(load_ruleset(name), **switches)
    for mix in MIXES[:2]:
        records = E.play(ruleset, seats_of(mix, n), seed=12, n_deals=2000, validate=True)
        assert_no_violation(records)
        assert sum(records.columns[f"win_order_{seat}"].astype(bool).sum() for seat in range(n)) > 0


@pytest.mark.parametrize("name,n", GAMES)
def test_exchange_three_moves_three_tiles_of_one_suit_from_every_seat_in_the_drawn_direction(name, n):
    """On logs: right after the deal one exchange per seat, dealer first; three tiles of one suit the giver
    held; every receiver at the same offset, one of the directions for n seats, all of which occur; the
    tiles are conserved (each seat keeps 13 or 14, the tiles in hands are the dealt ones) and the log still
    agrees with the table to the end of the deal; greedy-like players give from the smaller suit they hold
    three of."""
    ruleset = with_switches(load_ruleset(name), exchange_three=True)
    mix = seats_of(MIXES[0], n)
    kinds = [text.split(":")[0] for text in mix.split(",")]
    offsets = set()
    for deal in range(60):
        log = E.replay(ruleset, mix, 9, deal)
        dealer = log.record["dealer"]
        dealt = int(np.flatnonzero(log.events[:, 0] == E.EV_DEAL)[-1]) + 1  # after the wall's rows and the deal
        rows = log.events[dealt : dealt + n]
        assert rows[:, 0].tolist() == [E.EV_EXCHANGE] * n
        assert rows[:, 1].tolist() == [(dealer + step) % n for step in range(n)]
        deal_offsets = {(receiver - giver) % n for _, giver, receiver in rows.tolist()}
        assert len(deal_offsets) == 1 and deal_offsets <= EXCHANGE_OFFSETS[n]
        offsets |= deal_offsets
        table = LogTable(log)
        for index, code, seat, tile, amount in table.events():
            if index == dealt:
                dealt_hands = table.hands.copy()
            if code == E.EV_EXCHANGE:
                given = E.exchanged_tiles(amount)
                assert len({suit_of(kind) for kind in given}) == 1 and list(given) == sorted(given)
                assert all(dealt_hands[seat, kind] >= given.count(kind) for kind in given)
                if kinds[seat] != "random":
                    assert suit_of(given[0]) == smaller_suit(dealt_hands[seat], 3)
            elif index == dealt + n:
                assert table.hands.sum(axis=1).tolist() == [14 if s == dealer else 13 for s in range(n)]
                assert np.array_equal(table.hands.sum(axis=0), dealt_hands.sum(axis=0))
            # The log and the engine's table agree for the rest of the deal: every discard holds 3k+2 tiles
            # of which it is one, every win is complete.
            if code == E.EV_DISCARD:
                assert table.hands[seat, tile] > 0 and table.hands[seat].sum() + 3 * len(table.melds[seat]) == 14
            if code == E.EV_WIN_SELF_DRAWN:
                assert shanten_many(table.hands[seat][None], np.array([len(table.melds[seat])]))[0] == -1
            if code in (E.EV_WIN_DISCARD, E.EV_WIN_ROBBED_KONG):
                assert table.complete_with(seat, tile)
            assert (table.hands >= 0).all(), (deal, index)
    assert offsets == EXCHANGE_OFFSETS[n]


@pytest.mark.parametrize("name,n", GAMES)
def test_exchange_three_leaves_the_wall_and_the_dealt_hands_as_they_are_without_it(name, n):
    base = load_ruleset(name)
    opened = with_switches(base, exchange_three=True, void_suit=True)
    mix = seats_of(MIXES[1], n)
    for deal in range(30):
        plain, exchanged = E.replay(base, mix, 5, deal), E.replay(opened, mix, 5, deal)
        assert np.array_equal(plain.wall, exchanged.wall)
        assert plain.record["dealer"] == exchanged.record["dealer"]
        dealt = plain.events[plain.events[:, 0] == E.EV_DEAL]
        assert np.array_equal(dealt, exchanged.events[exchanged.events[:, 0] == E.EV_DEAL])
        assert (exchanged.events[:, 0] == E.EV_EXCHANGE).sum() == n


@pytest.mark.parametrize("name,n", GAMES)
@pytest.mark.parametrize("exchange", [False, True])
def test_void_suit_is_discarded_first_never_claimed_and_never_held_in_a_win(name, n, exchange):
    """On logs: each seat declares one suit, before any draw (players: the smaller suit); while a seat holds
    tiles of it, every discard is one; no pong or kong of it; no win with it in the hand (melds included);
    no 报叫 with it in the hand; a hand still holding it at the end is not ready."""
    ruleset = with_switches(load_ruleset(name), void_suit=True, exchange_three=exchange)
    mix = seats_of(MIXES[0], n)
    kinds = [text.split(":")[0] for text in mix.split(",")]
    wins = forced = 0
    for deal in range(80):
        log = E.replay(ruleset, mix, 14, deal)
        table = LogTable(log)
        for _, code, seat, tile, _ in table.events():
            if code == E.EV_VOID_SUIT:
                assert tile in (9, 18) and seat not in table.voids and table.wall_left == 72 - 13 * n - 1
                if kinds[seat] != "random":
                    assert tile == smaller_suit(table.hands[seat], 0)
                continue
            if code == E.EV_DRAW:
                assert len(table.voids) == n
            void = table.voids.get(seat, -100)
            if code == E.EV_DISCARD and table.void_held(seat):
                assert void <= tile < void + 9, (deal, seat, tile)
                forced += 1
            if code in (E.EV_PONG, E.EV_KONG, E.EV_CONCEALED_KONG, E.EV_ADDED_KONG):
                assert not void <= tile < void + 9
            if code == E.EV_DECLARE:
                assert table.void_held(seat) == 0
            if code in (E.EV_WIN_SELF_DRAWN, E.EV_WIN_DISCARD, E.EV_WIN_ROBBED_KONG):
                hand = table.hands[seat].copy()
                hand[tile] += code != E.EV_WIN_SELF_DRAWN
                assert hand[void : void + 9].sum() == 0 and not any(void <= kind < void + 9 for _, kind in table.melds[seat])
                wins += 1
        for seat in table.still_in():
            if table.void_held(seat):
                assert log.record[f"ready_{seat}"] == 0
    assert wins > 0 and forced > 0


def test_the_validating_mode_catches_decisions_that_break_exchange_three_or_void_suit(liangmen):
    """The legality the validating mode checks every decision against: seat 0 declared 条 void (定缺)."""
    ruleset = with_switches(liangmen, exchange_three=True, void_suit=True)
    rules, _ = E.kernel_rules(ruleset)
    work = xuezhan_table.new_work()
    state = xuezhan_table.new_state()
    xuezhan_table.reset_state(state)
    hands, table = state.hands, state.table
    table[xuezhan_table.N_SEATS] = 4
    table[xuezhan_table.WALL_FRONT], table[xuezhan_table.WALL_BACK] = 53, 71
    table[xuezhan_table.DECLARED_VOID] = parse_tile("1s")
    hands[0] = parse_tiles("123456789p123p55s")  # complete, but holding its void suit
    discard = lambda tile: E.encode(E.DISCARD, parse_tile(tile))
    assert not xuezhan_table.is_legal_turn_action(discard("1p"), 0, False, parse_tile("5s"), False, state, rules, work)
    assert xuezhan_table.is_legal_turn_action(discard("5s"), 0, False, parse_tile("5s"), False, state, rules, work)
    assert E._first_held(0, state, parse_tile("1p")) == parse_tile("5s")  # the stand-in after an illegal discard
    assert E._win_value(0, parse_tile("5s"), 0, True, state, rules, work) == -1
    assert E._holds_void_suit(0, state)
    table[xuezhan_table.DECLARED_VOID] = -1  # the same hand without 定缺 wins
    assert E._win_value(0, parse_tile("5s"), 0, True, state, rules, work) > 0
    assert xuezhan_table.is_legal_turn_action(discard("1p"), 0, False, parse_tile("5s"), False, state, rules, work)
    # claims and kongs of the void suit
    table[xuezhan_table.DECLARED_VOID + 1] = parse_tile("1s")
    hands[1] = parse_tiles("77s7777p1234p")
    assert not xuezhan_table.is_legal_claim(E.encode(E.PONG, parse_tile("7s")), 1, parse_tile("7s"), False, True, state, rules, work)
    hands[1] = parse_tiles("777s7777p123p")
    assert not xuezhan_table.is_legal_claim(E.encode(E.KONG, parse_tile("7s")), 1, parse_tile("7s"), False, True, state, rules, work)
    hands[1] = parse_tiles("7777s777p123p")
    assert not xuezhan_table.concealed_kong_legal(1, parse_tile("7s"), state, rules, work)
    assert xuezhan_table.is_legal_claim(E.encode(E.KONG, parse_tile("7p")), 1, parse_tile("7p"), False, True, state, rules, work)
    # 换三张: three held tiles of one suit
    hands[2] = parse_tiles("1123p456789s")
    for tiles, legal in (("123p", True), ("112p", True), ("111p", False), ("13p4s", False), ("456s", True), ("119p", False)):
        chosen = np.sort(np.flatnonzero(parse_tiles(tiles)).repeat(parse_tiles(tiles)[parse_tiles(tiles) > 0])).astype(np.int64)
        assert xuezhan_table.is_legal_exchange(2, chosen, state) == legal, tiles


def test_a_builtin_players_illegal_answer_is_recorded_as_an_illegal_action():
    # the validating mode's code for it once shared its name with a status code of the loop with users'
    # players, which took its value: such a deal would have read "tiles not conserved"
    assert engine.VIOLATIONS[engine.ILLEGAL_ACTION] == "illegal action"
    assert engine.VIOLATIONS[engine.PLAYER_FAULT].startswith("a user player's answer was refused")

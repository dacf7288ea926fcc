"""Slow, obvious twins of the families' encoders (sim/<family>/encoding.py): each block built as a Python list
from the deal's state, by name, then laid end to end in the layout's order."""

import numpy as np

from kernels.tiles import MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_PONG, N_KINDS
from sim.core.actions import DECISION_CLAIM, DECISION_EXCHANGE, DECISION_NAMES, DECISION_OPENING_READY, DECISION_ROB, DECISION_TURN
from sim.erren import encoding as erren_encoding
from sim.erren import table as erren
from sim.mcr import encoding as mcr_encoding
from sim.mcr import engine as mcr_engine
from sim.mcr import table as mcr
from sim.players.encoding import LARGEST
from sim.xuezhan import encoding as xuezhan_encoding
from sim.xuezhan import engine as xuezhan_engine
from sim.xuezhan import table as xuezhan


def _one_hot(size, index):
    return [int(position == index) for position in range(size)]


def _meld_tiles(melds, count, shows_concealed):
    """(tiles per kind in the melds, concealed kongs)."""
    tiles, concealed = [0] * N_KINDS, 0
    for code, low in melds[:count]:
        code, low = int(code), int(low)
        if code == MELD_CHOW:
            for kind in (low, low + 1, low + 2):
                tiles[kind] += 1
        elif code in (MELD_PONG, MELD_KONG):
            tiles[low] += 3 if code == MELD_PONG else 4
        elif code == MELD_CONCEALED_KONG:
            concealed += 1
            if shows_concealed:
                tiles[low] += 4
    return tiles, concealed


def _history(order, count, length):
    kept = [int(kind) + 1 for kind in order[:count]][-length:]
    return kept + [0] * (length - len(kept))


def _laid_out(layout, blocks):
    vector = []
    for block in layout.blocks:
        values = blocks[block.name]
        assert len(values) == block.size * block.copies, block.name
        vector += values
    return np.clip(np.array(vector, np.int64), -LARGEST, LARGEST).astype(np.int16)


def erren_vector(seat, deciding, state, wall, rules, oracle=False):
    table = [int(value) for value in state.table]
    T = erren
    decision = table[T.DECISION]
    shows_details = deciding and decision != DECISION_OPENING_READY
    win = table[T.WIN_TOTAL] if shows_details else -1
    blocks = {
        "decision": _one_hot(len(DECISION_NAMES), decision if deciding else -1),
        "drawn": _one_hot(N_KINDS, table[T.DRAWN] if deciding and decision == DECISION_TURN else -1),
        "offer": _one_hot(N_KINDS, table[T.OFFER] if shows_details and decision != DECISION_TURN else -1),
        "win_on_offer": [win],
        "win_points": [table[T.WIN_POINTS] if win >= 0 else 0],
        "may_double": [table[T.CAN_DOUBLE] if win >= 0 else 0],
        "hand": list(state.hands[seat]),
        "opponent_hand": list(state.hands[1 - seat]) if table[T.READY + seat] == 1 else [0] * N_KINDS,
        "visible": list(state.visible),
        "bonus": list(state.bonus),
    }
    slots = [seat, 1 - seat]
    for name in ("melds", "concealed_kongs", "claimed_melds", "discards", "discards_after_ready", "discard_order", "ready",
                 "heavenly_ready", "ready_turn", "doubles", "flowers"):
        blocks[name] = []
    for slot, other in enumerate(slots):
        tiles, concealed = _meld_tiles(state.melds[other], table[T.N_MELDS + other], slot == 0)
        blocks["melds"] += tiles
        blocks["concealed_kongs"].append(concealed)
        blocks["claimed_melds"].append(table[T.CLAIMED_MELDS + other])
        blocks["discards"] += list(state.discarded[other])
        blocks["discards_after_ready"] += list(state.after_ready[other])
        blocks["discard_order"] += _history(state.discard_order[other], table[T.N_DISCARDS + other], erren_encoding.HISTORY)
        blocks["ready"].append(table[T.READY + other])
        blocks["heavenly_ready"].append(table[T.HEAVENLY_READY + other])
        blocks["ready_turn"].append(table[T.READY_TURN + other])
        blocks["doubles"].append(table[T.DOUBLES + other])
        blocks["flowers"].append(table[T.FLOWERS + other])
    blocks["dealer"] = _one_hot(2, slots.index(table[T.DEALER]))
    blocks["seat"] = _one_hot(2, seat)
    blocks["wall_left"] = [max(0, table[T.WALL_BACK] - table[T.WALL_FRONT] + 1)]
    blocks["turn"] = [table[T.TURN]]
    blocks["switches"] = [int(value) for value in rules.settings]
    if not oracle:
        return _laid_out(erren_encoding.LAYOUT, blocks)
    left = [int(tile) for tile in wall[table[T.WALL_FRONT] : table[T.WALL_BACK] + 1]]
    blocks["hidden_hand"] = list(state.hands[1 - seat])
    blocks["wall_counts"] = [left.count(kind) for kind in range(N_KINDS)]
    following = [tile + 1 if tile < N_KINDS else erren_encoding.FLOWER_CODE for tile in left[: erren_encoding.NEXT_DRAWS]]
    blocks["next_draws"] = following + [0] * (erren_encoding.NEXT_DRAWS - len(following))
    return _laid_out(erren_encoding.ORACLE_LAYOUT, blocks)


def xuezhan_vector(seat, deciding, state, work, wall, record, rules, oracle=False):
    table = [int(value) for value in state.table]
    T = xuezhan
    n = table[T.N_SEATS]
    decision = table[T.DECISION]
    on_offer = deciding and decision in (DECISION_CLAIM, DECISION_ROB)
    may_win = deciding and decision in (DECISION_TURN, DECISION_CLAIM, DECISION_ROB) and table[T.WIN_ALLOWED]
    picked = [0] * N_KINDS
    if deciding and decision == DECISION_EXCHANGE:
        for kind in work.exchange_choices[seat, : table[T.PICKED]]:
            picked[kind] += 1
    money = np.zeros(T.MAX_SEATS, np.int64)
    xuezhan_engine.seat_money(record, n, money)
    blocks = {
        "decision": _one_hot(len(DECISION_NAMES), decision if deciding else -1),
        "drawn": _one_hot(N_KINDS, table[T.DRAWN] if deciding and decision == DECISION_TURN else -1),
        "offer": _one_hot(N_KINDS, table[T.OFFER] if on_offer else -1),
        "offered_by": _one_hot(T.MAX_SEATS, (table[T.OFFERED_BY] - seat) % n if on_offer else -1),
        "win_on_offer": [table[T.WIN_VALUE] if may_win else -1],
        "exchange_picked": picked,
        "hand": list(state.hands[seat]),
        "pong_lock": [(table[T.PONG_LOCK + seat] >> kind) & 1 for kind in range(N_KINDS)],
        "passed_kong": [(table[T.PASSED_KONG + seat] >> kind) & 1 for kind in range(N_KINDS)],
        "win_lock": [table[T.WIN_LOCK + seat]],
        "missed_value": [table[T.MISSED_VALUE + seat]],
        "visible": list(state.visible),
    }
    per_seat = {"in_deal": 1, "melds": N_KINDS, "concealed_kongs": 1, "discards": N_KINDS,
                "discard_order": xuezhan_encoding.HISTORY, "declared": 1, "waits": N_KINDS, "won": 1, "money": 1, "void_suit": 1}
    for name in per_seat:
        blocks[name] = []
    slots = [(seat + slot) % n for slot in range(n)]
    for slot, other in enumerate(slots):
        tiles, concealed = _meld_tiles(state.melds[other], table[T.N_MELDS + other], slot == 0)
        blocks["in_deal"].append(1)
        blocks["melds"] += tiles
        blocks["concealed_kongs"].append(concealed)
        blocks["discards"] += list(state.discarded[other])
        blocks["discard_order"] += _history(state.discard_order[other], table[T.N_DISCARDS + other], xuezhan_encoding.HISTORY)
        blocks["declared"].append(table[T.DECLARED + other])
        blocks["waits"] += list(state.waits[other])
        blocks["won"].append(table[T.WON + other])
        blocks["money"].append(int(money[other]))
        void = table[T.DECLARED_VOID + other]
        blocks["void_suit"].append(0 if void < 0 else void // 9 + 1)
    for name, size in per_seat.items():  # the absent slots
        blocks[name] += [0] * size * (T.MAX_SEATS - n)
    blocks["dealer"] = _one_hot(T.MAX_SEATS, slots.index(table[T.DEALER]))
    blocks["seat"] = _one_hot(T.MAX_SEATS, seat)
    blocks["seats"] = [n]
    blocks["wall_left"] = [max(0, table[T.WALL_BACK] - table[T.WALL_FRONT] + 1)]
    blocks["turn"] = [table[T.TURN]]
    blocks["switches"] = [int(value) for value in rules.settings]
    if not oracle:
        return _laid_out(xuezhan_encoding.LAYOUT, blocks)
    blocks["hidden_hands"] = []
    for slot in range(1, T.MAX_SEATS):
        blocks["hidden_hands"] += list(state.hands[slots[slot]]) if slot < n else [0] * N_KINDS
    left = [int(tile) for tile in wall[table[T.WALL_FRONT] : table[T.WALL_BACK] + 1]]
    blocks["wall_counts"] = [left.count(kind) for kind in range(N_KINDS)]
    following = [tile + 1 for tile in left[: xuezhan_encoding.NEXT_DRAWS]]
    blocks["next_draws"] = following + [0] * (xuezhan_encoding.NEXT_DRAWS - len(following))
    return _laid_out(xuezhan_encoding.ORACLE_LAYOUT, blocks)


def mcr_vector(seat, deciding, state, wall, record, rules, oracle=False):
    table = [int(value) for value in state.table]
    T = mcr
    seats = T.SEATS
    decision = table[T.DECISION]
    on_offer = deciding and decision in (DECISION_CLAIM, DECISION_ROB)
    blocks = {
        "decision": _one_hot(len(DECISION_NAMES), decision if deciding else -1),
        "drawn": _one_hot(N_KINDS, table[T.DRAWN] if deciding and decision == DECISION_TURN else -1),
        "offer": _one_hot(N_KINDS, table[T.OFFER] if on_offer else -1),
        "offered_by": _one_hot(seats, (table[T.OFFERED_BY] - seat) % seats if on_offer else -1),
        "win_on_offer": [table[T.WIN_TOTAL] if deciding and table[T.WIN_ALLOWED] else -1],
        "hand": list(state.hands[seat]),
        "visible": list(state.visible),
    }
    for name in ("chows", "pongs", "kongs", "concealed_kongs", "discards", "discard_order", "flowers", "money"):
        blocks[name] = []
    slots = [(seat + slot) % seats for slot in range(seats)]
    for slot, other in enumerate(slots):
        chows, pongs, kongs, concealed = [0] * N_KINDS, [0] * N_KINDS, [0] * N_KINDS, 0
        for code, low in state.melds[other][: table[T.N_MELDS + other]]:
            code, low = int(code), int(low)
            if code == MELD_CHOW:
                chows[low] += 1
            elif code == MELD_PONG:
                pongs[low] = 1
            elif code == MELD_KONG or (code == MELD_CONCEALED_KONG and slot == 0):
                kongs[low] = 1
            if code == MELD_CONCEALED_KONG:
                concealed += 1
        blocks["chows"] += chows
        blocks["pongs"] += pongs
        blocks["kongs"] += kongs
        blocks["concealed_kongs"].append(concealed)
        blocks["discards"] += list(state.discarded[other])
        blocks["discard_order"] += _history(state.discard_order[other], table[T.N_DISCARDS + other], mcr_encoding.HISTORY)
        blocks["flowers"].append(table[T.FLOWERS + other])
        blocks["money"].append(int(record[mcr_engine.R_MONEY + other]))
    blocks["dealer"] = _one_hot(seats, slots.index(table[T.DEALER]))
    blocks["seat"] = _one_hot(seats, seat)
    blocks["seat_wind"] = _one_hot(T.WINDS, (seat - table[T.DEALER]) % seats)
    blocks["round_wind"] = _one_hot(T.WINDS, table[T.ROUND_WIND])
    blocks["wall_left"] = [max(0, table[T.WALL_BACK] - table[T.WALL_FRONT] + 1)]
    blocks["turn"] = [table[T.TURN]]
    blocks["switches"] = [int(value) for value in rules.settings]
    if not oracle:
        return _laid_out(mcr_encoding.LAYOUT, blocks)
    blocks["hidden_hands"], blocks["hidden_kongs"] = [], []
    for other in slots[1:]:
        blocks["hidden_hands"] += list(state.hands[other])
        kongs = [0] * N_KINDS
        for code, low in state.melds[other][: table[T.N_MELDS + other]]:
            if int(code) == MELD_CONCEALED_KONG:
                kongs[int(low)] = 1
        blocks["hidden_kongs"] += kongs
    left = [int(tile) for tile in wall[table[T.WALL_FRONT] : table[T.WALL_BACK] + 1]]
    blocks["wall_counts"] = [left.count(kind) for kind in range(N_KINDS)]
    blocks["wall_flowers"] = [sum(tile >= N_KINDS for tile in left)]
    following = [tile + 1 if tile < N_KINDS else mcr_encoding.FLOWER_CODE for tile in left[: mcr_encoding.NEXT_DRAWS]]
    blocks["next_draws"] = following + [0] * (mcr_encoding.NEXT_DRAWS - len(following))
    return _laid_out(mcr_encoding.ORACLE_LAYOUT, blocks)


def naive_vector(env, seat, oracle=False):
    """The twin of ``env.encode(seat, oracle)`` for a family's step environment."""
    deciding = seat == env.agent_selection
    if env.ruleset.family == "erren":
        return erren_vector(seat, deciding, env.state, env.wall, env.rules, oracle)
    if env.ruleset.family == "mcr":
        return mcr_vector(seat, deciding, env.state, env.wall, env.record, env.rules, oracle)
    return xuezhan_vector(seat, deciding, env.state, env.work, env.wall, env.record, env.rules, oracle)

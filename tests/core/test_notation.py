"""MPSZ notation (docs/rules/README.md): what parses, what it means, and the one message for each mistake."""

import numpy as np
import pytest

from sim.core.notation import (
    Hand,
    Meld,
    MeldKind,
    NotationError,
    format_hand,
    parse_hand,
    parse_tile,
    parse_tiles,
    tile_name,
)


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("123456789m1122z", "123456789m1122z"),
        ("1122z 987654321m", "123456789m1122z"),
        ("1m1m1m2m3m4m5m6m7m8m9m9m9m", "1112345678999m"),
        ("123m456p789s12z55z", "123m456p789s1255z"),
        ("45m66z (2222m) [6666m] 11z1z", "45m11166z (2222m) [6666m]"),
        ("[123m][456m][789m][111z]1z", "1z [123m] [456m] [789m] [111z]"),
        ("1112345678999m1m 12f", "11112345678999m 12f"),
        ("1z [1111m] [2222m] [3333m] (4444m)", "1z [1111m] [2222m] [3333m] (4444m)"),
    ],
)
def test_valid_hands_parse_and_format_canonically(text, canonical):
    hand = parse_hand(text)
    assert format_hand(hand) == canonical
    assert parse_hand(canonical) == hand  # round trip


def test_kinds_follow_rules_section_2():
    assert [tile_name(kind) for kind in (0, 8, 9, 17, 18, 26, 27, 30, 31, 33, 34, 41)] == [
        "1m", "9m", "1p", "9p", "1s", "9s", "1z", "4z", "5z", "7z", "1f", "8f"
    ]
    assert parse_tile("6z") == 32 and parse_tile("1p") == 9


def test_melds_keep_their_kind_and_tiles():
    hand = parse_hand("45m66z (2222m) [6666m]", sizes=None)
    assert hand.melds == (Meld(MeldKind.CONCEALED_KONG, 1), Meld(MeldKind.KONG, 5))
    assert hand.n_tiles == 4
    assert hand.meld_counts[1] == 4 and hand.meld_counts[5] == 4
    chow = parse_hand("[789p]", sizes=None).melds[0]
    assert chow.kind == MeldKind.CHOW and chow.tiles == (15, 16, 17)
    assert parse_hand("[555z]", sizes=None).melds[0].kind == MeldKind.PONG


def test_flowers_are_kept_apart_from_the_hand():
    hand = parse_hand("123456789m1122z 3f1f")
    assert hand.flowers == (34, 36)
    assert hand.n_tiles == 13


def test_random_hands_round_trip():
    rng = np.random.default_rng(3)
    for _ in range(500):
        counts = np.zeros(34, np.int8)
        for kind in rng.choice(np.repeat(np.arange(34), 4), 13, replace=False):
            counts[kind] += 1
        hand = Hand(tuple(int(c) for c in counts))
        assert parse_hand(format_hand(hand)) == hand


@pytest.mark.parametrize(
    "text, message",
    [
        ("123456789m1122x", "unknown token '1122x'"),
        ("123456789m1122z?", "unknown token '?'"),
        ("0123456789m112z", "unknown token '0m'"),
        ("123456789m1128z", "unknown token '8z'"),
        ("123456789m11229f", "unknown token '9f'"),
        ("11111m23456789m11z", "1m appears 5 times"),
        ("11m [111m] [234m] [567m] [999m]", "1m appears 5 times"),
        ("(1111m) [111m] 2345678m", "1m appears 7 times"),
        ("123456789m112z", "12 concealed tiles with 0 melds; expected 13 or 14"),
        ("123456789m112233z", "15 concealed tiles"),
        ("[123m] 456789m112233z", "12 concealed tiles with 1 meld; expected 10 or 11"),
        ("[124m] 456789m122z", "not a chow"),
        ("[123z] 456789m122z", "not a chow"),
        ("[899m] 1234567m122z", "not a chow"),
        ("[12m] 456789m1122z", "a meld has 3 tiles"),
        ("(555m) 456789m1122z", "parentheses mark a concealed kong"),
        ("[1f23m] 456789m122z", "flowers cannot be in a meld"),
        ("123456789m1122z 11f", "flower 1f appears 2 times"),
        ("[123m 456789m1122z", "unclosed '['"),
        ("123m] 456789m1122z", "unexpected ']'"),
        ("[111m][222m][333m][444m][555m]", "5 melds"),
    ],
)
def test_malformed_hands_are_rejected_with_one_clear_message(text, message):
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace("[", r"\[").replace("?", r"\?")):
        parse_hand(text)


def test_loose_tiles_and_single_tiles():
    assert parse_tiles("19m77z").sum() == 4
    with pytest.raises(NotationError):
        parse_tiles("[123m]")
    for bad in ("", "12m", "1f", "5x"):
        with pytest.raises(NotationError):
            parse_tile(bad)

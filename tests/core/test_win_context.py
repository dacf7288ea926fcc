"""The win context: the seat and round winds MCR's 门风刻 and 圈风刻 read, as fields, as bits of the
evaluator's flags, and as keys of a `mjsim score --batch` line."""

import json

import pytest

from kernels.fan_ids import (
    CONTEXT_FLAG_BITS,
    ROUND_WIND_SHIFT,
    SEAT_WIND_SHIFT,
    WIND_FIELD_MASK,
    WIND_NAMES,
)
from sim.core.win_context import ScoringError, WinContext, batch_record


def winds_of(flags):
    return WIND_NAMES[(flags >> SEAT_WIND_SHIFT) & WIND_FIELD_MASK], WIND_NAMES[(flags >> ROUND_WIND_SHIFT) & WIND_FIELD_MASK]


def test_the_wind_fields_sit_above_every_context_bit():
    assert max(CONTEXT_FLAG_BITS.values()) < 1 << SEAT_WIND_SHIFT
    assert ROUND_WIND_SHIFT == SEAT_WIND_SHIFT + 2


def test_winds_default_to_east_and_leave_the_other_bits_alone():
    assert WinContext().flags == 0
    assert WinContext(self_drawn=True, fourth_tile=True).flags == CONTEXT_FLAG_BITS["self_drawn"] | CONTEXT_FLAG_BITS["fourth_tile"]


@pytest.mark.parametrize("seat", WIND_NAMES)
@pytest.mark.parametrize("prevailing", WIND_NAMES)
def test_every_pair_of_winds_reads_back_from_the_flags(seat, prevailing):
    flags = WinContext(self_drawn=True, seat_wind=seat, round_wind=prevailing).flags
    assert winds_of(flags) == (seat, prevailing)
    assert flags & CONTEXT_FLAG_BITS["self_drawn"]


def test_a_batch_line_names_its_winds():
    _, _, context = batch_record('{"hand": "123m456p789s1234z", "win": "4z", "seat_wind": "north", "round_wind": "south"}')
    assert winds_of(context.flags) == ("north", "south")


@pytest.mark.parametrize("value", ['"up"', "3", "true", '"East"'])
def test_a_wind_that_is_not_a_wind_name_is_one_error(value):
    with pytest.raises(ScoringError, match='"seat_wind" must be one of east, south, west, north'):
        batch_record(f'{{"hand": "123m456p789s1234z", "win": "4z", "seat_wind": {value}}}')
    with pytest.raises(ScoringError, match="must be one of"):
        WinContext(round_wind="up")


@pytest.mark.parametrize(("ruleset", "suit"), [("erren", "m"), ("erren-challenge", "m"), ("liangmen-xuezhan", "p")])
def test_only_mcr_scores_winds_so_a_wind_named_elsewhere_is_an_error_not_ignored(ruleset, suit):
    from sim.core.ruleset import load_ruleset
    from sim.families.scoring import parse_scoring_input, score

    tiles, win = parse_scoring_input(f"111{suit}234{suit}567{suit}789{suit}9{suit}", f"9{suit}")
    with pytest.raises(ScoringError, match="does not score the seat and round winds"):
        score(tiles, win, WinContext(seat_wind="south"), load_ruleset(ruleset))


def test_mjsim_score_takes_the_seat_and_round_winds_at_an_mcr_table(mjsim):
    hand = ["score", "123m456p789s2221z", "--win", "1z", "--ruleset", "mcr", "--json"]
    _, east, _ = mjsim(*hand)
    _, south, _ = mjsim(*hand, "--seat-wind", "south", "--round-wind", "south")
    # a pung of 南 is 门风刻 and 圈风刻 when both winds are south, and neither in the east round's east seat
    names = [json.loads(text)["fans"] for text in (east, south)]
    assert "门风刻" not in names[0] and "圈风刻" not in names[0]
    assert "门风刻" in names[1] and "圈风刻" in names[1]

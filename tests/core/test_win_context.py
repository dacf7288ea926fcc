"""The win context: the seat and round winds MCR's 门风刻 and 圈风刻 read, as fields, as bits of the
evaluator's flags, and as keys of a `mjsim score --batch` line."""

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

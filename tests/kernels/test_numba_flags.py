"""numba's compile flags, compared quickly (kernels/numba_flags.py), answer as numba's own code does: the same
values, the same hash, the same equality."""

import pytest
from numba.core import targetconfig
from numba.core.compiler import Flags

from kernels.numba_flags import compare_flags_quickly


def _numbas_values(flags):
    return {name: getattr(flags, name) for name in flags.options}  # through each option's property


def _flags(**options):
    flags = Flags()
    for name, value in options.items():
        setattr(flags, name, value)
    return flags


SETTINGS = [
    {},
    {"nrt": True},
    {"nrt": True, "no_cpython_wrapper": True},
    {"boundscheck": True, "fastmath": True},
    {"inline": "always", "nrt": False},
]


@pytest.mark.parametrize("options", SETTINGS)
def test_the_quick_values_are_the_values_numbas_properties_give(options):
    compare_flags_quickly()
    flags = _flags(**options)
    assert flags.values() == _numbas_values(flags)
    assert hash(flags) == hash(tuple(sorted(_numbas_values(flags))))


def test_flags_equal_exactly_when_their_values_are_equal():
    compare_flags_quickly()
    for first in SETTINGS:
        for second in SETTINGS:
            same = _numbas_values(_flags(**first)) == _numbas_values(_flags(**second))
            assert (_flags(**first) == _flags(**second)) == same


def test_the_patch_is_installed_once():
    compare_flags_quickly()
    installed = targetconfig.TargetConfig.values
    compare_flags_quickly()
    assert targetconfig.TargetConfig.values is installed and installed.reads_stored_values

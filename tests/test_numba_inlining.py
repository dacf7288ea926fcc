"""numba's inliner copies a callee's scope once per inlined call (kernels/numba_inlining.py), and the code it
inlines still computes what the callee does."""

import numpy as np
from numba import njit
from numba.core import inline_closurecall, ir
from numba.core.compiler import run_frontend

from kernels.numba_inlining import _CopierSharingScopes


def _branchy(counts):
    total = 0
    for kind in range(counts.shape[0]):
        if counts[kind] >= 3:
            total += 3
        elif counts[kind] == 2:
            total += 2
        else:
            total -= counts[kind]
    return total


def test_the_blocks_of_one_function_are_copied_with_one_scope_shared_as_in_the_original():
    function_ir = run_frontend(_branchy)
    blocks = list(function_ir.blocks.values())
    assert len(blocks) > 5 and len({id(block.scope) for block in blocks}) == 1
    copier = _CopierSharingScopes()
    copies = [copier.deepcopy(block) for block in blocks]
    assert len({id(block.scope) for block in copies}) == 1 and copies[0].scope is not blocks[0].scope
    assert [str(statement) for block in copies for statement in block.body] == \
           [str(statement) for block in blocks for statement in block.body]
    assert all(isinstance(variable, ir.Var) for variable in copies[0].scope.localvars._con.values())


def test_the_patch_is_installed_once_on_numbas_inliner():
    assert inline_closurecall.InlineWorker.inline_ir.copies_each_scope_once
    assert inline_closurecall.copy.__name__ == "copy"  # the copy module is back outside an inlined call


@njit(inline="always")
def _inner(counts, kind):
    return counts[kind] * 2 if counts[kind] > 1 else -counts[kind]


@njit(inline="always")
def _middle(counts):
    total = 0
    for kind in range(counts.shape[0]):
        total += _inner(counts, kind)
        if total > 10:
            total -= _inner(counts, 0)
    return total


@njit
def _outer(counts):
    return _middle(counts) + _middle(counts[::-1]) * 3


def _outer_in_python(counts):
    def middle(values):
        total = 0
        for kind in range(values.shape[0]):
            total += values[kind] * 2 if values[kind] > 1 else -values[kind]
            if total > 10:
                total -= values[0] * 2 if values[0] > 1 else -values[0]
        return total

    return middle(counts) + middle(counts[::-1]) * 3


def test_code_inlined_two_levels_deep_computes_what_python_does():
    generator = np.random.default_rng(20261205)
    for _ in range(200):
        counts = generator.integers(0, 5, size=generator.integers(1, 12)).astype(np.int64)
        assert _outer(counts) == _outer_in_python(counts)

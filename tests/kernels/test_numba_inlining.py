"""numba's inliner copies a callee's scope once per inlined call and skips its discarded second copy
(kernels/numba_inlining.py), and the code it inlines still computes what the callee does."""

import numpy as np
from numba import njit
from numba.core import inline_closurecall, ir
from numba.core.compiler import run_frontend

from kernels.numba_inlining import (
    _CopierSharingScopes,
    copy_each_scope_once,
    translate_each_callee_once,
)


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


def test_blocks_this_copier_made_are_not_copied_again_and_others_still_are():
    blocks = list(run_frontend(_branchy).blocks.values())
    copier = _CopierSharingScopes()
    copies = [copier.deepcopy(block) for block in blocks]
    assert all(copier.deepcopy(block) is block for block in copies)  # numba's second copy: handed back
    fresh = [_CopierSharingScopes().deepcopy(block) for block in copies]
    assert all(new is not old for new, old in zip(fresh, copies))  # another inlined call copies them
    assert all(copier.deepcopy(block) is not block for block in blocks)  # the original is copied again


def test_the_inliners_unread_original_is_none_so_no_caller_reads_blocks_it_changed():
    calls = []

    class _Probe:
        def inline_ir(self, *arguments, **keywords):
            calls.append(arguments)
            return "original", "blocks", "variables", "new blocks"

    saved = inline_closurecall.InlineWorker.inline_ir
    try:
        inline_closurecall.InlineWorker.inline_ir = _Probe.inline_ir
        copy_each_scope_once()
        answer = inline_closurecall.InlineWorker.inline_ir(object(), "caller", "block", 3)
    finally:
        inline_closurecall.InlineWorker.inline_ir = saved
    assert answer == (None, "blocks", "variables", "new blocks") and len(calls) == 1


class _Flags:
    enable_ssa = True

    def __str__(self):
        return f"Flags(enable_ssa={self.enable_ssa})"


class _Worker:
    typingctx, targetctx, pipeline, locals = object(), object(), object, {}

    def __init__(self):
        self.flags = _Flags()


def test_a_callee_is_translated_once_per_function_and_settings_and_each_site_gets_that_translation():
    translated = []

    def numbas_translation(self, func, enable_ssa=False):
        self.flags.enable_ssa = enable_ssa
        translated.append(func)
        return object()

    saved = inline_closurecall.InlineWorker.run_untyped_passes
    try:
        inline_closurecall.InlineWorker.run_untyped_passes = numbas_translation
        translate_each_callee_once()
        translate = inline_closurecall.InlineWorker.run_untyped_passes
        worker = _Worker()
        first, again = translate(worker, _branchy), translate(worker, _branchy)
        assert first is again and translated == [_branchy] and worker.flags.enable_ssa is False
        assert translate(worker, _outer_in_python) is not first
        assert translate(worker, _branchy, enable_ssa=True) is not first  # other settings: translated again
        assert translate(_Worker(), _branchy) is first  # another worker with the same settings shares it
    finally:
        inline_closurecall.InlineWorker.run_untyped_passes = saved
    assert translated == [_branchy, _outer_in_python, _branchy]


def test_the_patch_is_installed_once_on_numbas_inliner():
    assert inline_closurecall.InlineWorker.inline_ir.copies_each_scope_once
    assert inline_closurecall.InlineWorker.run_untyped_passes.translates_each_callee_once
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

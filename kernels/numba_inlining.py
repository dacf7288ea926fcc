"""numba's inliner without its quadratic copying: one copy of a callee's variables per inlined call.

numba (0.68) inlines an ``inline="always"`` callee by deep-copying its IR one block at a time, each block
with a memo of its own. Every block refers to the function's scope, which holds every variable of the
function, so the scope and all its variables are copied once per block: blocks x variables. A callee that
has itself inlined others has hundreds of each, and that copying was about two fifths of a cold main job's
CPU time (a profile of ``mjsim run``). ``copy_each_scope_once`` makes the copies of one IR share a memo, as
the blocks of the original share their scope. The copied IR holds the same statements and variables, so
numba types and lowers the same code: the compiled kernels and the records they give do not change.
"""

import copy

from numba.core import inline_closurecall


class _CopierSharingScopes:
    """Stands in for the ``copy`` module inside numba's inliner for one inlined call: blocks of one scope are
    copied with one memo (the inliner copies the callee, then that copy, each a scope of its own)."""

    def __init__(self):
        self._memo_of_scope = {}

    def deepcopy(self, value, memo=None):
        if memo is None:
            memo = self._memo_of_scope.setdefault(id(getattr(value, "scope", None)), {})
        return copy.deepcopy(value, memo)

    def __getattr__(self, name):  # the rest of the copy module, should numba's inliner use it
        return getattr(copy, name)


def copy_each_scope_once() -> None:
    original = inline_closurecall.InlineWorker.inline_ir
    if getattr(original, "copies_each_scope_once", False):
        return

    def inline_ir(self, *arguments, **keywords):
        outside = inline_closurecall.copy
        inline_closurecall.copy = _CopierSharingScopes()
        try:
            return original(self, *arguments, **keywords)
        finally:
            inline_closurecall.copy = outside

    inline_ir.copies_each_scope_once = True
    inline_closurecall.InlineWorker.inline_ir = inline_ir

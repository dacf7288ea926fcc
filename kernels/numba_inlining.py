"""numba's inliner without its quadratic copying: one copy of a callee's variables per inlined call.

numba (0.68) inlines an ``inline="always"`` callee by deep-copying its IR one block at a time, each block
with a memo of its own. Every block refers to the function's scope, which holds every variable of the
function, so the scope and all its variables are copied once per block: blocks x variables. A callee that
has itself inlined others has hundreds of each, and that copying was about two fifths of a cold main job's
CPU time (a profile of ``mjsim run``). ``copy_each_scope_once`` makes the copies of one IR share a memo, as
the blocks of the original share their scope.

numba then copies its copy once more, to return an "unmutated original" that none of its callers reads (they
all discard the first item of ``inline_ir``'s answer). That second copy is skipped: the blocks are handed
back as they are, and the first item of the answer is None, so a caller that did read it would fail at once
rather than read blocks the inliner has since changed.

Before it copies, numba translates the callee from its bytecode (the untyped passes, its own inlining
included) at every call site: a helper three levels down is translated once per path to it.
``translate_each_callee_once`` keeps each translation, keyed by the function and the compiler's settings, and
hands it to the inliner, which copies it before it changes anything.

The copied IR holds the same statements and variables, so numba types and lowers the same code: the compiled
kernels and the records they give do not change.
"""

import copy

from numba.core import inline_closurecall


class _CopierSharingScopes:
    """Stands in for the ``copy`` module inside numba's inliner for one inlined call: blocks of one scope are
    copied with one memo, and blocks already copied in this call (the inliner's second copy, whose scope is
    one this copier made) are handed back as they are."""

    def __init__(self):
        self._memo_of_scope = {}
        self._scopes_made = set()

    def deepcopy(self, value, memo=None):
        scope = getattr(value, "scope", None)
        if memo is not None or scope is None:
            return copy.deepcopy(value, memo)
        if id(scope) in self._scopes_made:
            return value
        copied = copy.deepcopy(value, self._memo_of_scope.setdefault(id(scope), {}))
        self._scopes_made.add(id(copied.scope))
        return copied

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
            _, callee_blocks, variables, new_blocks = original(self, *arguments, **keywords)
        finally:
            inline_closurecall.copy = outside
        return None, callee_blocks, variables, new_blocks

    inline_ir.copies_each_scope_once = True
    inline_closurecall.InlineWorker.inline_ir = inline_ir
    translate_each_callee_once()


def translate_each_callee_once() -> None:
    original = inline_closurecall.InlineWorker.run_untyped_passes
    if getattr(original, "translates_each_callee_once", False):
        return
    translations = {}

    def run_untyped_passes(self, func, enable_ssa=False):
        self.flags.enable_ssa = enable_ssa  # numba's first step, so that the key holds the flags it compiles with
        key = (func, id(self.typingctx), id(self.targetctx), self.pipeline, str(self.flags), str(self.locals))
        if key not in translations:
            translations[key] = (original(self, func, enable_ssa), self.flags.enable_ssa)
        function_ir, enable_ssa_after = translations[key]
        self.flags.enable_ssa = enable_ssa_after  # as a translation leaves it
        return function_ir

    run_untyped_passes.translates_each_callee_once = True
    inline_closurecall.InlineWorker.run_untyped_passes = run_untyped_passes

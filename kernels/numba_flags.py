"""numba's compile flags compared without rebuilding them: the same answers, a fraction of the time.

While typing, numba looks up every call it resolves through an overload template (``min``, ``np.zeros``,
an ``@overload``) in a cache keyed by, among other things, the current compile flags
(``numba.core.targetconfig.TargetConfig``). Each lookup hashes the flags and compares them with the flags of
the keys already there, and each hash and each comparison builds a dict of every option's value (about sixty)
through a property per option. A cold ``mjsim run`` makes hundreds of thousands of such lookups: in a
profile, about a tenth of its CPU time.

``compare_flags_quickly`` gives ``TargetConfig`` a ``values`` that reads the stored values directly, and a
``__hash__`` that is the one numba computes (the hash of the sorted option names: numba sorts the dict,
that is its keys) without building anything. Both answer exactly as numba's own.
"""

from numba.core import targetconfig

_HASH_OF_CLASS: dict[type, int] = {}


def _values(self):
    stored = self._values
    return {name: stored.get(name, option.default) for name, option in self.options.items()}


def _hash(self):
    kind = type(self)
    if kind not in _HASH_OF_CLASS:
        _HASH_OF_CLASS[kind] = hash(tuple(sorted(self.options)))
    return _HASH_OF_CLASS[kind]


def compare_flags_quickly() -> None:
    if getattr(targetconfig.TargetConfig.values, "reads_stored_values", False):
        return
    _values.reads_stored_values = True
    targetconfig.TargetConfig.values = _values
    targetconfig.TargetConfig.__hash__ = _hash

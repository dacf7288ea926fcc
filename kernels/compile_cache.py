"""Where mjsim keeps what it computes once: the shanten tables and numba's compiled kernels, and what keys them.

Both live under ``$MJSIM_CACHE_DIR`` (default ``~/.cache/mjsim``); the kernels in its ``numba`` folder, or
in ``NUMBA_CACHE_DIR`` when that is set. numba (0.68) keys a cached function by its own file's content,
the argument types and the CPU. It does not notice a change in a function compiled into it from another
file, nor in a constant it reads from another module, so a cached caller could run stale code.

Every function numba caches in an mjsim process therefore carries one more key, ``compiled_code_digest``:
a digest of the code numba compiles into it. That is the function's bytecode and constants and the values
of the globals it reads, and the same for every jitted function it calls (inlined or not), transitively, and
for every function passed to it as an argument. An edit to ``analysis/``, the command line, the docs or one
family changes no key of the kernels that do not call it: only what compiles the edited code compiles again.
An edit to a function's own file still recompiles that file's functions (numba's own key).

``compile_calls_without_literals`` makes numba compile a function once per argument types, not once per
constant it is called with. Every package's ``__init__`` calls ``use_code_keyed_numba_cache`` before any kernel
is defined.

Two processes that miss the same cached function at once (two test workers, two runs started together)
would both compile it and both write it. A process that misses therefore takes an exclusive lock on the
function's index (a ``.lock`` file beside it) and looks again once it has the lock: if another process
compiled the function meanwhile, it loads that. The lock is let go when its compile ends, saved or failed.
A process holds locks only along the chain of functions it is compiling, each a callee of the one before,
and numba caches no recursive function, so two processes never wait for each other.
"""

import builtins
import hashlib
import os
import sys
import types as python_types
from pathlib import Path

import numba
import numpy as np
from numba.core import types
from numba.core.caching import FunctionCache
from numba.core.dispatcher import Dispatcher

from kernels.numba_flags import compare_flags_quickly
from kernels.numba_inlining import copy_each_scope_once

try:
    import fcntl
except ImportError:  # not on Windows: there, two processes may compile the same function at once
    fcntl = None

PACKAGES = ("kernels", "sim", "analysis")
# numba's own objects (types, numpy functions it implements) print the same in every process; anything else
# printed with its address would give a key that never matches again, so only its type is kept.
_ADDRESS_MARK = " at 0x"


def cache_dir() -> Path:
    return Path(os.environ.get("MJSIM_CACHE_DIR") or Path.home() / ".cache" / "mjsim")


def numba_cache_dir() -> Path:
    return Path(os.environ.get("NUMBA_CACHE_DIR") or cache_dir() / "numba")


def source_key() -> str:
    """A digest of every module of the three packages: the version of the code that a run's files record."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def use_code_keyed_numba_cache() -> None:
    numba.config.CACHE_DIR = str(numba_cache_dir())
    if not getattr(Dispatcher.enable_caching, "code_keyed", False):
        def enable_caching(self):
            self._cache = CodeKeyedCache(self.py_func)

        enable_caching.code_keyed = True
        Dispatcher.enable_caching = enable_caching
    compile_calls_without_literals()
    if not getattr(Dispatcher.compile, "lets_go_of_the_compile_lock", False):
        Dispatcher.compile = _letting_go_of_the_compile_lock(Dispatcher.compile)
    copy_each_scope_once()  # kernels/numba_inlining.py: what numba compiles is unchanged, only faster
    compare_flags_quickly()  # kernels/numba_flags.py: likewise


_INDEXES_USED: set[str] = set()  # the index file of every function this process loaded from or saved to the cache


_COMPILE_LOCKS_HELD: dict[str, int] = {}  # lock file -> its open descriptor, while this process compiles


class CodeKeyedCache(FunctionCache):
    """numba's function cache, with ``compiled_code_digest`` added to each entry's key, and a lock that lets
    one process at a time compile a function that is not cached yet."""

    def load_overload(self, sig, target_context):
        self._note_index_used()
        loaded = super().load_overload(sig, target_context)
        if loaded is None and self._waited_for_compile_lock():
            loaded = super().load_overload(sig, target_context)  # compiled meanwhile by the process it waited for
        return loaded

    def save_overload(self, sig, data):
        super().save_overload(sig, data)
        self._note_index_used()

    def _index_path(self):
        return getattr(self._cache_file, "_index_path", None)  # numba's own name for it (0.60 to 0.68)

    def _note_index_used(self):
        index = self._index_path()
        if index is not None:
            _INDEXES_USED.add(index)

    def _index_key(self, sig, codegen):
        try:
            code = compiled_code_digest(self._py_func, sig)
        except Exception:  # noqa: BLE001  (a value the digest cannot read: key by the whole tree, as before)
            code = f"tree:{source_key()}"
        return (*super()._index_key(sig, codegen), code)

    def _compile_lock_path(self):
        index = self._index_path()
        return None if index is None else index + ".lock"

    def _waited_for_compile_lock(self) -> bool:
        """Take the function's compile lock, waiting while another process holds it; False when this process
        holds it already (another thread's compile) or cannot lock (no fcntl, a cache it cannot write)."""
        path = self._compile_lock_path()
        if fcntl is None or path is None or path in _COMPILE_LOCKS_HELD:
            return False
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return False
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        _COMPILE_LOCKS_HELD[path] = descriptor
        return True

    def let_go_of_compile_lock(self):
        descriptor = _COMPILE_LOCKS_HELD.pop(self._compile_lock_path(), None)
        if descriptor is not None:
            fcntl.flock(descriptor, fcntl.LOCK_UN)
            os.close(descriptor)


def _letting_go_of_the_compile_lock(compile_function):
    """numba's ``Dispatcher.compile``, then the compile lock of the function let go, whether the compile saved
    it, found it cached or failed (a failed compile would otherwise keep other processes waiting)."""

    def compile(self, sig):
        try:
            return compile_function(self, sig)
        finally:
            let_go = getattr(self._cache, "let_go_of_compile_lock", None)
            if let_go is not None:
                let_go()

    compile.lets_go_of_the_compile_lock = True
    return compile


def cache_files_used() -> dict[str, bytes]:
    """The cache files of the functions this process has compiled or loaded so far, by their path under
    ``numba_cache_dir()``: each function's index and its compiled code, for another process to start from
    (a Dask worker: sim/runs/worker_cache.py)."""
    root = numba_cache_dir().resolve()
    files = {}
    for index in sorted(_INDEXES_USED):
        index_path = Path(index).resolve()
        if not index_path.is_relative_to(root) or not index_path.exists():
            continue  # not under this cache (numba put it elsewhere), or never written
        base = index_path.name.removesuffix(".nbi")
        for path in [index_path, *sorted(index_path.parent.glob(f"{base}.*.nbc"))]:
            files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def compiled_code_digest(py_func, sig=()) -> str:
    """A digest of all the code numba compiles into `py_func` called with `sig` (see the module docstring)."""
    digest = hashlib.sha256(_THIS_FILE_DIGEST)
    functions = _reachable_functions([py_func, *_functions_in_signature(sig)])
    for function in sorted(functions, key=_function_name):
        digest.update(_function_digest(function))
    return digest.hexdigest()


_THIS_FILE_DIGEST = hashlib.sha256(Path(__file__).read_bytes()).digest()  # the typing rule above changes code too
_function_digests: dict = {}
_function_callees: dict = {}
_array_digests: dict = {}


def _function_name(function) -> str:
    return f"{getattr(function, '__module__', '')}.{getattr(function, '__qualname__', '')}"


def _functions_in_signature(sig) -> list:
    argument_types = getattr(sig, "args", sig)
    found, pending = [], list(argument_types if isinstance(argument_types, (tuple, list)) else ())
    while pending:
        numba_type = pending.pop()
        if isinstance(numba_type, types.Dispatcher):
            found.append(numba_type.dispatcher.py_func)
        elif isinstance(numba_type, types.BaseTuple):
            pending.extend(numba_type.types)
    return found


def _reachable_functions(start: list) -> set:
    seen, pending = set(), list(start)
    while pending:
        function = pending.pop()
        if function in seen:
            continue
        seen.add(function)
        _function_digest(function)
        pending.extend(_function_callees[function])
    return seen


def _code_objects(code):
    pending = [code]
    while pending:
        code = pending.pop()
        yield code
        pending.extend(constant for constant in code.co_consts if isinstance(constant, python_types.CodeType))


def _function_digest(function) -> bytes:
    """The digest of one function's own part (its code, defaults, closure and the globals it reads); the
    functions it reaches are listed in _function_callees."""
    if function in _function_digests:
        return _function_digests[function]
    digest, callees = hashlib.sha256(_function_name(function).encode()), []
    names = set()
    for code in _code_objects(function.__code__):
        constants = [constant for constant in code.co_consts if not isinstance(constant, python_types.CodeType)]
        if code is function.__code__ and function.__doc__ is not None and constants[:1] == [function.__doc__]:
            constants = constants[1:]  # the docstring is not compiled
        for part in (code.co_code, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars,
                     code.co_argcount, code.co_kwonlyargcount, code.co_flags):
            digest.update(repr(part).encode())
        digest.update(_value_text(tuple(constants), callees).encode())
        names.update(code.co_names)
    digest.update(_value_text((function.__defaults__, function.__kwdefaults__), callees).encode())
    cells = tuple(cell.cell_contents for cell in function.__closure__ or ())
    digest.update(_value_text(cells, callees).encode())
    global_names = getattr(function, "__globals__", {})
    for name in sorted(names):
        if name in global_names:
            digest.update(f"{name}={_value_text(global_names[name], callees, names)};".encode())
        elif not hasattr(builtins, name):
            digest.update(f"{name}?;".encode())
    _function_callees[function] = callees
    _function_digests[function] = digest.digest()
    return _function_digests[function]


def _is_library(module_name) -> bool:
    """numpy, numba, the standard library and other installed packages: what they lend a kernel is theirs to
    version (numba's key holds its own version), so the digest names it and does not read it."""
    root = str(module_name or "").partition(".")[0]
    if root in sys.stdlib_module_names or root in ("numpy", "numba", "llvmlite"):
        return True
    path = str(getattr(sys.modules.get(root), "__file__", None) or "")
    return "site-packages" in path or "dist-packages" in path


def _value_text(value, callees: list, attribute_names: set = frozenset(), depth: int = 0) -> str:
    """How a global, constant, default or closure value enters the compiled code; jitted and Python functions
    met on the way are appended to `callees`."""
    if isinstance(value, Dispatcher):
        callees.append(value.py_func)
        return f"jit:{_function_name(value.py_func)}:{sorted(value.targetoptions.items())!r}"
    if isinstance(value, python_types.FunctionType):
        if not _is_library(value.__module__):
            callees.append(value)
        return f"function:{_function_name(value)}"
    if isinstance(value, python_types.ModuleType):
        if _is_library(value.__name__) or depth > 4:
            return f"module:{value.__name__}"
        # module.attribute (or module.module.attribute): the attribute names are among the function's names
        attributes = [f"{name}={_value_text(getattr(value, name), callees, attribute_names, depth + 1)}"
                      for name in sorted(attribute_names) if name in vars(value)]
        return f"module:{value.__name__}[{','.join(attributes)}]"
    if isinstance(value, np.ndarray):
        key = id(value)
        if key not in _array_digests or _array_digests[key][0] is not value:
            _array_digests[key] = (value, hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest())
        return f"array:{value.dtype.str}:{value.shape}:{_array_digests[key][1]}"
    if isinstance(value, (tuple, list)):
        inner = ",".join(_value_text(item, callees) for item in value)
        return f"{type(value).__qualname__}({inner})"
    if isinstance(value, (set, frozenset)):  # printed in hash order, which differs between processes for text
        return f"{type(value).__qualname__}({','.join(sorted(_value_text(item, callees) for item in value))})"
    if isinstance(value, type):
        return f"class:{value.__module__}.{value.__qualname__}{getattr(value, '_fields', '')!r}"
    definition = getattr(value, "_defn", None)  # an @intrinsic: its Python definition is what compiles
    if isinstance(definition, python_types.FunctionType):
        callees.append(definition)
    text = repr(value)
    if _ADDRESS_MARK in text:
        text = ""
    return f"{type(value).__module__}.{type(value).__qualname__}:{text}"


def compile_calls_without_literals() -> None:
    """Type calls between jitted functions by their arguments' plain types. numba (0.68) compiles a callee
    once for each combination of constants it is called with (``f(x, True)``, ``f(x, False)``, ``f(-1, y)``
    are three compilations of f), and no kernel here needs such a specialisation: the deal state machine
    was compiled four times, the win settlement eight. Constants then convert to the plain signature, as
    they do in calls from Python."""
    if getattr(Dispatcher.get_call_template, "plain_types", False):
        return
    typed_with_literals = Dispatcher.get_call_template

    def get_call_template(self, args, kws):
        return typed_with_literals(self, tuple(types.unliteral(arg) for arg in args),
                                   {name: types.unliteral(arg) for name, arg in kws.items()})

    get_call_template.plain_types = True
    Dispatcher.get_call_template = get_call_template

"""The house's layers (docs/layout.md): every module of kernels/, sim/ and analysis/ imports only its own layer
and the layers below it, a family never imports another family, and no modules import each other in a
circle. Imports are read from the source, those inside functions included, so none can hide there."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kernels", "sim", "analysis")

# Bottom to top: a module may import from its own layer and from any layer listed before it.
LAYERS = (
    ("kernels",),
    ("sim",),  # the package's __init__: the Ctrl-C guard and the compile cache, before any kernel
    ("sim.core",),
    ("sim.players",),
    ("sim.erren", "sim.xuezhan", "sim.mcr"),  # the families: each imports no other family nor anything above
    ("sim.families",),  # the registry: which family a ruleset belongs to, and what picks it
    ("analysis",),
    ("sim.runs",),
    ("sim.rl",),  # the learning environments: PettingZoo and Gymnasium over the step environments
    ("sim.commands",),
    ("sim.cli",),
)


def _modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


MODULES = _modules()


def _resolved(name: str) -> str | None:
    """The module of ours that an imported name lies in (a package's name resolves to its __init__)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> set[str]:
    """Every module of ours that `module` imports, at the top or inside a function."""
    found = set()
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            # `from package import module` needs the module, not what the package's __init__ defines
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        for name in names:
            target = _resolved(name) if name.partition(".")[0] in PACKAGES else None
            if target is not None and target != module:
                found.add(target)
    return found


def layer_of(module: str) -> tuple[int, str]:
    """(the layer's height, the group within it: the family's package for a family, else the layer's name)."""
    best = None
    for height, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[1])):
                best = (height, prefix)
    if best is None:
        raise AssertionError(f"{module} is in no layer of LAYERS (docs/layout.md)")
    return best


def upward_imports(graph: dict) -> dict[str, list[str]]:
    """Each module's imports that its layer may not make: of a layer above, or of another group of its own."""
    found = {}
    for module, targets in graph.items():
        height, group = layer_of(module)
        wrong = []
        for target in sorted(targets):
            target_height, target_group = layer_of(target)
            if target_height > height or (target_height == height and target_group != group):
                wrong.append(target)
        if wrong:
            found[module] = wrong
    return found


def circles(graph: dict) -> list[list[str]]:
    """Every circle a depth-first walk of the graph closes: a module met again while still on the path."""
    state, path, found = {}, [], []

    def visit(module):
        state[module] = "open"
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                found.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def test_every_module_belongs_to_a_layer():
    for module in MODULES:
        layer_of(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_its_own_layer_and_the_layers_below(module):
    upward = upward_imports({module: GRAPH[module]})
    assert not upward, f"{module} ({layer_of(module)[1]}) imports {', '.join(upward[module])}, which its layer may not"


def test_no_modules_import_each_other_in_a_circle():
    found = circles(GRAPH)
    assert not found, "circles: " + "; ".join(" -> ".join(circle) for circle in found)


# The imports made by a module's name at run time, which the parse above cannot follow: the two that reach a
# family from below, and a user's own module (docs/layout.md#lookups-by-name).
LOOKUPS_BY_NAME = {
    "sim.core.ruleset": "a family's switches (sim.<family>.switches), found by the name a ruleset file gives",
    "sim.players.player_host": "the engine a family's Players hand to a player host process, by its module name",
    "sim.players.user_players": "a user's Python player (module:function), not a module of ours",
}


def lookups_by_name(module: str) -> bool:
    """Whether `module` imports by a name computed at run time: it names importlib.import_module or __import__
(called, or handed on to be called)."""
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if name in ("import_module", "__import__"):
            return True
    return False


def test_only_the_documented_modules_import_by_a_name_computed_at_run_time():
    assert sorted(module for module in MODULES if lookups_by_name(module)) == sorted(LOOKUPS_BY_NAME)


def test_the_checks_see_an_upward_import_a_familys_import_of_another_and_a_circle():
    made_up = {
        "analysis.report": {"sim.runs.runner", "sim.core.ruleset"},  # up into the runs
        "sim.erren.engine": {"sim.xuezhan.table", "sim.players.seating"},  # across to the other family
        "sim.core.notation": {"sim.core.actions"},
        "sim.core.actions": {"sim.core.notation"},  # a circle within a layer
        "sim.runs.runner": {"analysis.report", "sim.core.ruleset"},  # down: allowed
    }
    assert upward_imports(made_up) == {"analysis.report": ["sim.runs.runner"], "sim.erren.engine": ["sim.xuezhan.table"]}
    assert sorted(map(tuple, circles(made_up))) == [("analysis.report", "sim.runs.runner", "analysis.report"),
                                                    ("sim.core.actions", "sim.core.notation", "sim.core.actions")]
    assert _resolved("sim.core.ruleset.Ruleset") == "sim.core.ruleset"
    assert layer_of("sim.families.scoring") == layer_of("sim.families")

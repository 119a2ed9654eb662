"""The shape figures of the code, counted from its source with ``ast``, for anyone to rerun.

``python -m tests.shape_counts`` prints, for ``bot`` and ``conversations``:

* imports from ``conversations`` into ``bot`` (the core must import nothing of it);
* package-level circles and imports against ``bot.layers``' floors;
* module-level mutable state: ``ContextVar`` objects, Prometheus registries and families made
  at import, and module-level names a function writes (``global``, an item or attribute set,
  or a mutating method such as ``append`` or ``update`` called on them);
* the largest classes, in lines.

``tests/test_shape_counts.py`` runs it and holds the figures the issue asked for.

A run parses each module once (``parsed``) and builds the import graph once: every figure
walks the same trees (parsing and walking the ~600 modules six times took most of the test's
time).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from tests.test_import_layers import MODULES, circles, import_graph, package_graph, upward

MUTATING_METHODS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "update",
        "add",
        "clear",
        "pop",
        "popitem",
        "remove",
        "discard",
        "setdefault",
        "set",
    }
)
STATE_MAKERS = frozenset(
    {"ContextVar", "CollectorRegistry", "Counter", "Gauge", "Histogram", "Summary", "Info"}
)


@dataclass(frozen=True)
class Place:
    """A name in a module, with its line."""

    module: str
    name: str
    line: int

    def __str__(self) -> str:
        return f"{self.module}:{self.line} {self.name}"


Trees = Mapping[str, ast.Module]


def parsed() -> dict[str, ast.Module]:
    """Every module of ``bot`` and ``conversations``, parsed: its name to its tree (the trees
    are read once per process and shared: read them, do not change them)."""
    return dict(_parsed_once())


@functools.cache
def _parsed_once() -> dict[str, ast.Module]:
    return {
        module: ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for module, path in MODULES.items()
    }


def core_imports_of_bot(graph: Mapping[str, set[str]] | None = None) -> list[str]:
    """``conversations`` modules importing a ``bot`` module: ``importer -> imported``
    (``graph``: the import graph when already built)."""
    graph = import_graph() if graph is None else graph
    return sorted(
        f"{importer} -> {imported}"
        for importer, imports in graph.items()
        if importer.split(".")[0] == "conversations"
        for imported in imports
        if imported.split(".")[0] == "bot"
    )


def _called_name(node: ast.expr) -> str | None:
    func = node.func if isinstance(node, ast.Call) else None
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _module_names(tree: ast.Module) -> dict[str, ast.stmt]:
    """Names a module binds by assignment at its top level (not imports, functions, classes)."""
    bound: dict[str, ast.stmt] = {}
    for statement in tree.body:
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets = [statement.target]
        for target in targets:
            if isinstance(target, ast.Name):
                bound[target.id] = statement
    return bound


def _statements(node: ast.AST, *, into_functions: bool = True) -> Iterator[ast.stmt]:
    """Every statement under ``node``, through compound statements' bodies (and, unless
    ``into_functions`` is False, into functions' bodies): classes and functions are statements
    only, so their search need not visit the expressions that make up most of a tree."""
    for value in vars(node).values():
        if not isinstance(value, list):
            continue
        for child in value:
            if isinstance(child, ast.stmt):
                yield child
                if into_functions or not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield from _statements(child, into_functions=into_functions)
            elif isinstance(child, ast.excepthandler | ast.match_case):
                yield from _statements(child, into_functions=into_functions)


def _written_in_functions(tree: ast.Module, names: set[str]) -> Iterator[str]:
    # The outermost functions only: a nested function is walked as part of the one around it.
    functions = [
        statement
        for statement in _statements(tree, into_functions=False)
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    for function in functions:
        for node in ast.walk(function):
            if isinstance(node, ast.Global):
                yield from (name for name in node.names if name in names)
            elif isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Subscript | ast.Attribute):
                        base = target.value
                        if isinstance(base, ast.Name) and base.id in names:
                            yield base.id
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                base = node.func.value
                if (
                    node.func.attr in MUTATING_METHODS
                    and isinstance(base, ast.Name)
                    and base.id in names
                ):
                    yield base.id


def module_state(trees: Trees | None = None) -> list[Place]:
    """Every module-level name holding state that outlives a call (see the module docstring);
    ``trees``: the modules when already parsed."""
    if trees is None:
        return list(_packages_module_state())
    found: set[Place] = set()
    for module, tree in trees.items():
        bound = _module_names(tree)
        for name, statement in bound.items():
            value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
            if value is not None and _called_name(value) in STATE_MAKERS:
                found.add(Place(module, name, statement.lineno))
        for name in set(_written_in_functions(tree, set(bound))):
            found.add(Place(module, name, bound[name].lineno))
    return sorted(found, key=lambda place: (place.module, place.line))


@functools.cache
def _packages_module_state() -> tuple[Place, ...]:
    # Asked by the shape tests and the printed counts alike: walked once per process.
    return tuple(module_state(_parsed_once()))


def context_vars(trees: Trees | None = None) -> list[Place]:
    """The module-level ``ContextVar`` objects (``trees``: the modules when already parsed)."""
    places = []
    for module, tree in (trees or parsed()).items():
        for name, statement in _module_names(tree).items():
            value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
            if value is not None and _called_name(value) == "ContextVar":
                places.append(Place(module, name, statement.lineno))
    return sorted(places, key=lambda place: (place.module, place.line))


def largest_classes(count: int = 10, trees: Trees | None = None) -> list[tuple[int, str]]:
    """The ``count`` largest classes: (lines, ``module.Class``), largest first (``trees``: the
    modules when already parsed)."""
    sizes = []
    for module, tree in (trees or parsed()).items():
        for node in _statements(tree):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                sizes.append((node.end_lineno - node.lineno + 1, f"{module}.{node.name}"))
    return sorted(sizes, reverse=True)[:count]


def main() -> None:
    graph = import_graph()
    trees = parsed()
    packages = package_graph(graph)
    core_imports = core_imports_of_bot(graph)
    print(f"imports from conversations into bot: {len(core_imports)}")
    for line in core_imports:
        print(f"  {line}")
    print(f"package circles: {len(circles(packages))}")
    print(f"imports against the floors: {len(upward(graph))}")
    state = module_state(trees)
    print(f"module-level mutable state: {len(state)}")
    for place in state:
        print(f"  {place}")
    print(f"module-level ContextVars: {len(context_vars(trees))}")
    print("largest classes (lines):")
    for lines, name in largest_classes(trees=trees):
        print(f"  {lines:4d} {name}")


if __name__ == "__main__":
    main()

"""The shape figures of the code, counted from its source with ``ast``, for anyone to rerun.

``python -m tests.shape_counts`` prints, for ``bot`` and ``conversations``:

* imports from ``conversations`` into ``bot`` (the core must import nothing of it);
* package-level circles and imports against ``bot.layers``' floors;
* module-level mutable state: ``ContextVar`` objects, Prometheus registries and families made
  at import, and module-level names a function writes (``global``, an item or attribute set,
  or a mutating method such as ``append`` or ``update`` called on them);
* the largest classes, in lines.

``tests/test_shape_counts.py`` runs it and holds the figures the issue asked for.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
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


def _tree(module: str) -> ast.Module:
    path = MODULES[module]
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def core_imports_of_bot() -> list[str]:
    """``conversations`` modules importing a ``bot`` module: ``importer -> imported``."""
    graph = import_graph()
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


def _written_in_functions(tree: ast.Module, names: set[str]) -> Iterator[str]:
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
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


def module_state() -> list[Place]:
    """Every module-level name holding state that outlives a call (see the module docstring)."""
    found: set[Place] = set()
    for module in MODULES:
        tree = _tree(module)
        bound = _module_names(tree)
        for name, statement in bound.items():
            value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
            if value is not None and _called_name(value) in STATE_MAKERS:
                found.add(Place(module, name, statement.lineno))
        for name in set(_written_in_functions(tree, set(bound))):
            found.add(Place(module, name, bound[name].lineno))
    return sorted(found, key=lambda place: (place.module, place.line))


def context_vars() -> list[Place]:
    """The module-level ``ContextVar`` objects."""
    places = []
    for module in MODULES:
        for name, statement in _module_names(_tree(module)).items():
            value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
            if value is not None and _called_name(value) == "ContextVar":
                places.append(Place(module, name, statement.lineno))
    return sorted(places, key=lambda place: (place.module, place.line))


def largest_classes(count: int = 10) -> list[tuple[int, str]]:
    """The ``count`` largest classes: (lines, ``module.Class``), largest first."""
    sizes = []
    for module in MODULES:
        for node in ast.walk(_tree(module)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                sizes.append((node.end_lineno - node.lineno + 1, f"{module}.{node.name}"))
    return sorted(sizes, reverse=True)[:count]


def main() -> None:
    graph = import_graph()
    packages = package_graph(graph)
    print(f"imports from conversations into bot: {len(core_imports_of_bot())}")
    for line in core_imports_of_bot():
        print(f"  {line}")
    print(f"package circles: {len(circles(packages))}")
    print(f"imports against the floors: {len(upward(graph))}")
    state = module_state()
    print(f"module-level mutable state: {len(state)}")
    for place in state:
        print(f"  {place}")
    print(f"module-level ContextVars: {len(context_vars())}")
    print("largest classes (lines):")
    for lines, name in largest_classes():
        print(f"  {lines:4d} {name}")


if __name__ == "__main__":
    main()

"""The modules of ``bot`` and ``conversations`` import each other without a circle, and the
agent channels stand beside the core, not above it.

The imports are read from the source with ``ast`` (all of them: at the top, under
``TYPE_CHECKING`` and inside functions), so a circle that only type checking or a late import
would close is found too. ``from a.b import c`` counts as importing ``a.b.c`` when that is a
module, else ``a.b``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "conversations")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imported(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and not node.level:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                yield whole if whole in MODULES else node.module


def import_graph() -> dict[str, set[str]]:
    """Each module of the packages and the modules of the packages it imports."""
    return {
        name: {found for found in _imported(ast.parse(path.read_text())) if found in MODULES}
        - {name}
        for name, path in MODULES.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_back_into_a_circle() -> None:
    assert circles(import_graph()) == []


def test_the_agent_channels_do_not_import_the_core() -> None:
    graph = import_graph()
    upward = {
        name: sorted(target for target in targets if target == "bot.bot_core")
        for name, targets in graph.items()
        if name == "bot.agents" or name.startswith("bot.agents.")
    }
    assert {name: found for name, found in upward.items() if found} == {}


def test_a_circle_is_found() -> None:
    # The check above must be able to fail: two modules importing each other, and a third
    # hanging off them, are one circle of two.
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": set()}
    assert circles(graph) == [["a", "b"]]

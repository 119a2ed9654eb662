"""The modules of ``bot`` and ``conversations`` import each other without a circle, their
packages keep the order ``bot.layers`` declares (no import from a floor to a higher one, no
circle of packages), and the agent channels stand beside the core, not above it.

The imports are read from the source with ``ast`` (all of them: at the top, under
``TYPE_CHECKING`` and inside functions), so a circle or an upward import that only type checking
or a late import would make is found too. ``from a.b import c`` counts as importing ``a.b.c``
when that is a module, else ``a.b``.
"""

from __future__ import annotations

import ast
import functools
import textwrap
from collections.abc import Iterator
from pathlib import Path

from bot.layers import FLOORS, KNOWN_CROSSINGS, floor_of, package_of

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
    """Each module of the packages and the modules of the packages it imports (a copy the
    caller may change)."""
    return {name: set(imported) for name, imported in _read_import_graph().items()}


@functools.cache
def _read_import_graph() -> dict[str, frozenset[str]]:
    # Read once per test process: every module parsed and walked is seconds of CPU, and the
    # layer tests and the shape counts ask for the graph six times.
    return {
        name: frozenset(
            found for found in _imported(ast.parse(path.read_text())) if found in MODULES
        )
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


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Each package (``bot.layers.package_of``) and the other packages its modules import."""
    named = set(graph).union(*graph.values())
    packages: dict[str, set[str]] = {package_of(name): set() for name in named}
    for name, targets in graph.items():
        packages[package_of(name)] |= {package_of(target) for target in targets}
    return {package: targets - {package} for package, targets in packages.items()}


def upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The imports ``(importer, imported)`` from a floor to a higher one; a package no floor
    names counts as above every floor for what imports it and below for what it imports, so
    any import touching it is listed."""
    found = set()
    for name, targets in graph.items():
        here = floor_of(package_of(name))
        for target in targets:
            there = floor_of(package_of(target))
            if here is None or there is None or there > here:
                found.add((name, target))
    return found


def test_every_package_stands_on_exactly_one_floor() -> None:
    declared = [package for floor in FLOORS for package in floor.packages]
    found = set(package_graph(import_graph()))
    assert sorted(found - set(declared)) == []  # a new package: give it a floor in bot.layers
    assert sorted(set(declared) - found) == []  # a package that is gone: take it off
    assert len(declared) == len(set(declared))


def test_no_package_imports_one_on_a_higher_floor() -> None:
    known = {(crossing.importer, crossing.imported) for crossing in KNOWN_CROSSINGS}
    found = upward(import_graph())
    assert sorted(found - known) == []  # move the code down, or pass the service in
    assert sorted(known - found) == []  # gone from the code: take it off the known list


def test_no_packages_import_each_other_in_a_circle() -> None:
    assert circles(package_graph(import_graph())) == []


def test_an_import_in_a_function_or_for_type_checking_counts() -> None:
    source = textwrap.dedent(
        """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from bot.runtime import runtime
        def late() -> None:
            import bot.cli
            from bot.bot_core import build_core
        """
    )
    found = {name for name in _imported(ast.parse(source)) if name in MODULES}
    assert found == {"bot.runtime.runtime", "bot.cli", "bot.bot_core"}


def test_an_upward_import_and_an_unplaced_package_are_found() -> None:
    # The checks above must be able to fail: the store importing ordering runs up four floors;
    # a package no floor names is reported whichever way its imports go.
    graph = {
        "bot.store.sessions": {"bot.ordering.chats", "bot.clocks"},
        "bot.ordering.chats": {"bot.store.sessions"},
        "bot.nowhere.thing": {"bot.clocks"},
    }
    assert upward(graph) == {
        ("bot.store.sessions", "bot.ordering.chats"),
        ("bot.nowhere.thing", "bot.clocks"),
    }
    assert circles(package_graph(graph)) == [["bot.ordering", "bot.store"]]


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

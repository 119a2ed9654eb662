"""The shape figures ``python -m tests.shape_counts`` prints hold: a core that imports nothing
of ``bot``, no package circle, and module-level state only where it is meant to be."""

from __future__ import annotations

import ast

import pytest

from tests import shape_counts
from tests.shape_counts import Place, core_imports_of_bot, module_state


def test_the_core_imports_nothing_of_bot() -> None:
    assert core_imports_of_bot() == []


def test_the_only_module_state_is_the_log_correlation_context() -> None:
    """Texts, metrics, the turn's creates and replies are a business's, passed to whoever needs
    them; the one ContextVar left carries the log lines' correlation ids (issue 35)."""
    assert [(place.module, place.name) for place in module_state()] == [
        ("bot.log_context", "_context")
    ]


def test_module_state_is_found_in_each_of_its_forms() -> None:
    source = """
from contextvars import ContextVar
from prometheus_client import Counter
LANGUAGE = ContextVar("language")
SEEN = Counter("seen", "Seen.")
_cache = {}
_switch = {"on": False}
_count = 0
_rows = []
NAMES = ("a", "b")

def remember(key, value):
    _cache[key] = value

def switch_on():
    _switch.update(on=True)

def count():
    global _count
    _count += 1

def read():
    return _rows[0], NAMES
"""
    tree = ast.parse(source)
    bound = shape_counts._module_names(tree)
    written = set(shape_counts._written_in_functions(tree, set(bound)))
    assert written == {"_cache", "_switch", "_count"}
    makers = {
        name
        for name, statement in bound.items()
        if isinstance(statement, ast.Assign)
        and shape_counts._called_name(statement.value) in shape_counts.STATE_MAKERS
    }
    assert makers == {"LANGUAGE", "SEEN"}


def test_the_counts_print_as_the_docstring_says(capsys: pytest.CaptureFixture[str]) -> None:
    # ``python -m tests.shape_counts`` runs ``main``; run here, it reuses this process's parse
    # of every module (a new interpreter parsed them all again: 7-30 s of a loaded run).
    shape_counts.main()
    printed = capsys.readouterr().out
    assert "imports from conversations into bot: 0" in printed
    assert "package circles: 0" in printed
    assert f"module-level mutable state: {len(module_state())}" in printed
    assert "largest classes (lines):" in printed


def test_a_place_reads_as_module_line_and_name() -> None:
    assert str(Place("bot.x", "_state", 3)) == "bot.x:3 _state"

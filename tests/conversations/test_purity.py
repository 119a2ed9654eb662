"""``conversations`` stays pure: it imports nothing of ``bot`` and no I/O library (DESIGN.md,
rules of the house). It owns the order's vocabulary (``conversations.order``); ``bot.partner``
builds the wire format from it.

Every import counts, wherever it is written: at the top, under ``TYPE_CHECKING``, inside a
function, or through ``importlib.import_module`` / ``__import__`` with a literal name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import conversations

PACKAGE = Path(conversations.__file__).parent
FORBIDDEN_ROOTS = {
    "bot",
    "telegram",
    "httpx",
    "sqlite3",
    "aiosqlite",
    "asyncpg",
    "geopy",
    "starlette",
    "uvicorn",
}
# Pure computation inside an otherwise forbidden package (geopy's distances; not its geocoders).
PURE_MODULES = ("geopy.distance",)
DYNAMIC_IMPORTERS = {"import_module", "__import__"}


def _dynamic_name(node: ast.Call) -> str | None:
    """The module a call such as ``importlib.import_module("bot.x")`` imports, if it is one."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called not in DYNAMIC_IMPORTERS or not node.args:
        return None
    first = node.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def _imported(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # "from bot.partner import models" imports bot.partner.models: judge the full name.
            names += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and (name := _dynamic_name(node)) is not None:
            names.append(name)
    return names


def _offences(path: Path) -> list[str]:
    found = []
    for name in _imported(path):
        root = name.split(".")[0]
        pure = any(name == m or name.startswith(m + ".") for m in PURE_MODULES)
        if root in FORBIDDEN_ROOTS and not pure:
            found.append(f"{path.name}: {name}")
    return found


def test_conversations_imports_nothing_of_bot_and_no_io():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 10
    assert [offence for path in modules for offence in _offences(path)] == []


def test_the_check_catches_forbidden_imports_wherever_they_are(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import importlib\n"
        "from typing import TYPE_CHECKING\n"
        "import httpx\n"
        "from bot.partner import models\n"
        "from bot.partner.models import Coords\n"
        "from telegram.ext import Application\n"
        "from geopy.geocoders import Nominatim\n"
        "from geopy.distance import great_circle\n"
        "from conversations.order.locations import Warehouse\n"
        "if TYPE_CHECKING:\n"
        "    from bot.store import Store\n"
        "def later():\n"
        "    import bot.ordering\n"
        "    importlib.import_module('bot.relay')\n"
        "    __import__('bot.web')\n"
    )
    assert _offences(bad) == [
        "bad.py: httpx",
        "bad.py: bot.partner.models",
        "bad.py: bot.partner.models.Coords",
        "bad.py: telegram.ext.Application",
        "bad.py: geopy.geocoders.Nominatim",
        "bad.py: bot.store.Store",
        "bad.py: bot.ordering",
        "bad.py: bot.relay",
        "bad.py: bot.web",
    ]

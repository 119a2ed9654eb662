"""``conversations`` stays pure: it imports ``bot.partner.models`` and nothing else of ``bot``,
and no I/O library (DESIGN.md, rules of the house)."""

from __future__ import annotations

import ast
from pathlib import Path

import conversations

PACKAGE = Path(conversations.__file__).parent
FORBIDDEN_ROOTS = {"telegram", "httpx", "sqlite3", "aiosqlite", "geopy", "starlette", "uvicorn"}
ALLOWED_FROM_BOT = "bot.partner.models"
# Pure computation inside an otherwise forbidden package (geopy's distances; not its geocoders).
PURE_MODULES = ("geopy.distance",)


def _imported(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # "from bot.partner import models" imports bot.partner.models: judge the full name.
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def _offences(path: Path) -> list[str]:
    found = []
    for name in _imported(path):
        root = name.split(".")[0]
        allowed_bot = name == ALLOWED_FROM_BOT or name.startswith(ALLOWED_FROM_BOT + ".")
        pure = any(name == m or name.startswith(m + ".") for m in PURE_MODULES)
        if (root in FORBIDDEN_ROOTS and not pure) or (root == "bot" and not allowed_bot):
            found.append(f"{path.name}: {name}")
    return found


def test_conversations_imports_only_the_domain_vocabulary_of_bot_and_no_io():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 10
    assert [offence for path in modules for offence in _offences(path)] == []


def test_the_check_catches_forbidden_imports(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import httpx\n"
        "from bot.partner import errors, models\n"
        "from bot.partner.models import Coords\n"
        "from telegram.ext import Application\n"
        "from geopy.geocoders import Nominatim\n"
        "from geopy.distance import great_circle\n"
    )
    assert _offences(bad) == [
        "bad.py: httpx",
        "bad.py: bot.partner.errors",
        "bad.py: telegram.ext.Application",
        "bad.py: geopy.geocoders.Nominatim",
    ]

"""No two modules of ``bot`` and ``conversations`` share a file name (``__init__.py`` aside).

A name used twice tells a reader, a traceback or a log line nothing about which module it
means; each module's name says what it holds instead.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "conversations")


def shared_names(root: Path, packages: Iterable[str]) -> dict[str, list[str]]:
    """Each module file name (without ``.py``) found more than once, with its paths."""
    found: defaultdict[str, list[str]] = defaultdict(list)
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if path.name != "__init__.py":
                found[path.stem].append(path.relative_to(root).as_posix())
    return {name: paths for name, paths in found.items() if len(paths) > 1}


def test_no_two_modules_share_a_file_name() -> None:
    assert shared_names(ROOT, PACKAGES) == {}


def test_a_shared_name_is_found_wherever_it_is(tmp_path: Path) -> None:
    for file in (
        "bot/__init__.py",
        "bot/store/__init__.py",
        "bot/store/errors.py",
        "bot/store/deep/er/engine.py",
        "bot/web/errors.py",
        "conversations/__init__.py",
        "conversations/engine.py",
        "conversations/only_here.py",
    ):
        (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / file).write_text("")

    assert shared_names(tmp_path, PACKAGES) == {
        "errors": ["bot/store/errors.py", "bot/web/errors.py"],
        "engine": ["bot/store/deep/er/engine.py", "conversations/engine.py"],
    }

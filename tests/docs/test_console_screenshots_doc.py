"""The console's screenshots and the staff's docs agree: every ``console-*.png`` that
docs/operators.md shows is in docs/, drawn at the size ``make console-screenshots`` draws
(``tests.staff_console.screenshots``), and every one in docs/ is shown somewhere."""

from __future__ import annotations

import re
import struct
from pathlib import Path

from tests.staff_console.screenshots import WINDOW

DOCS = Path(__file__).resolve().parents[2] / "docs"
_SHOWN = re.compile(r"!\[[^\]]+\]\((console-[a-z0-9-]+\.png)\)")
_PNG = b"\x89PNG\r\n\x1a\n"


def _size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == _PNG, path
    width, height = struct.unpack(">II", head[16:24])  # the IHDR chunk comes first
    return width, height


def test_every_console_screenshot_the_docs_show_exists_at_its_size() -> None:
    shown = _SHOWN.findall((DOCS / "operators.md").read_text(encoding="utf-8"))
    assert {"console-signin.png", "console-deliveries.png", "console-delivery.png"} <= set(shown)
    for name in shown:
        assert (DOCS / name).is_file(), f"docs/operators.md shows {name}: make console-screenshots"
        assert _size(DOCS / name) == (WINDOW["width"], WINDOW["height"]), name
    drawn = sorted(path.name for path in DOCS.glob("console-*.png"))
    assert sorted(set(shown)) == drawn

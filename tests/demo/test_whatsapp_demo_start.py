"""How ``deliverybot demo`` starts with and without ``--channel whatsapp``: the console demo
(``make demo``) never loads the WhatsApp channel or pywa; the WhatsApp demo reads typed lines
from any input to its end, as the console demo does."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from bot.demo.demo_cli import interactive

ROOT = Path(__file__).resolve().parents[2]

# The console demo in its own interpreter, its input /dev/null; then the modules it loaded.
MODULES_OF_THE_DEMO = """\
import contextlib, json, os, sys
from bot.cli import main
with open(os.devnull) as nothing, contextlib.redirect_stdout(open(os.devnull, "w")):
    sys.stdin = nothing
    code = main(["demo"])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""
WHATSAPP_ONLY = (
    "pywa",
    "pywa_async",
    "bot.demo.whatsapp_customer",
    "bot.runtime.whatsapp_wiring",
    "bot.whatsapp",
)


def test_the_console_demo_loads_nothing_of_whatsapp() -> None:
    result = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [sys.executable, "-c", MODULES_OF_THE_DEMO],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=60,
    )
    found = json.loads(result.stdout)
    modules = set(found["modules"])
    assert found["code"] == 0 and "bot.demo.stack" in modules  # the demo did run
    loaded = [m for m in modules for name in WHATSAPP_ONLY if m == name or m.startswith(f"{name}.")]
    assert loaded == []


async def test_the_whatsapp_demo_reads_typed_lines_to_their_end() -> None:
    typed = io.StringIO("new\n7\n1\n")
    shown = io.StringIO()
    assert await interactive(None, stdin=typed, stdout=shown, channel="whatsapp") == 0
    out = shown.getvalue()
    assert "you are Ada (+2348031234567) on WhatsApp" in out
    assert "       1. ✓ Pickup & delivery" in out
    assert "demo: there is no choice 7: type 1 to 4 or a title" in out
    assert "bot: Where should the rider pick the package up?" in out
    assert "[Send location]" in out

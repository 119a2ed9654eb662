"""``docs/agents.md`` runs as written: the sandbox, ``deliverybot run`` with a channel, the curl
walk-through to a created delivery (its photo uploaded), its events, list, status and cancel,
then the MCP client script, which orders again for the now returning customer and fails loudly
unless its order ends ``created``."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from .doc_runner import ROOT, code_blocks, run_document

DOCUMENT = ROOT / "docs" / "agents.md"
PORTS = [8787, 8080, 8765]

pytestmark = pytest.mark.skipif(
    not (shutil.which("curl") and shutil.which("jq") and shutil.which("openssl")),
    reason="the walk-through uses curl, jq and openssl",
)


def test_every_block_the_walk_through_runs_is_shell_or_the_named_script() -> None:
    blocks = code_blocks(DOCUMENT)
    langs = {block.lang for block in blocks}
    assert langs <= {"sh", "python", "toml", "json"}, langs
    python = [block for block in blocks if block.lang == "python"]
    assert len(python) == 1 and python[0].text.startswith("# mcp_order.py:")


def test_the_walk_through_and_the_mcp_client_run_as_written(tmp_path: Path) -> None:
    done = run_document(DOCUMENT, tmp_path, PORTS)

    said = done.stdout
    assert done.returncode == 0, f"{said}\n{done.stderr}\n" + _logs(tmp_path)
    turns = _turns(said)
    assert turns and all(turn["refused"] is None and not turn["reask"] for turn in turns), said
    assert any(turn["status"] == "created" for turn in turns)
    assert '"outcome":"cancelled"' in said.replace(" ", "")
    assert said.rstrip().splitlines()[-1].startswith("created {"), said


def _turns(said: str) -> list[dict[str, Any]]:
    """Every turn curl printed (its answers end without a line break)."""
    decoder = json.JSONDecoder()
    starts = [found.start() for found in re.finditer(r'\{"id": ?"conv_', said)]
    return [decoder.raw_decode(said, start)[0] for start in starts]


def _logs(workdir: Path) -> str:
    return "\n".join(log.read_text() for log in sorted(workdir.glob("server-*.log")))

"""``docs/sandbox.md`` runs as written: the sandbox in process (a delivery created, paid and
picked up), and the standalone sandbox with curl (a create, a rule broken, the admin API)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .doc_runner import ROOT, code_blocks, run_document

DOCUMENT = ROOT / "docs" / "sandbox.md"
PORTS = [8787, 8790]

pytestmark = pytest.mark.skipif(
    not (shutil.which("curl") and shutil.which("jq")), reason="the examples use curl and jq"
)


def test_the_page_has_the_in_process_script_and_the_curl_examples() -> None:
    blocks = code_blocks(DOCUMENT)
    assert [block.lang for block in blocks if block.lang not in ("sh",)] == ["python"]
    shell = "".join(block.text for block in blocks if block.lang == "sh")
    for what in ("/api/v1/deliveries", "/sandbox/admin/", "packageImages = []"):
        assert what in shell


def test_every_block_runs_as_written(tmp_path: Path) -> None:
    done = run_document(DOCUMENT, tmp_path, PORTS)

    said = done.stdout.replace(" ", "")
    logs = "\n".join(log.read_text() for log in sorted(tmp_path.glob("server-*.log")))
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{logs}"
    assert "matched->picked_up" in said  # the in-process script
    assert '{"ok":true,"delivery":{' in said  # the create with curl
    assert '"code":"validation_error"' in said and '"packageImages":["needs' in said
    assert '"picked_up"' in said and '"create_delivery":2' in said  # the admin API

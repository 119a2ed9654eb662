"""What the deployment kit's tests share: where ``deploy/`` is, and the system tools they run.

The tools (``caddy``, ``nginx``, ``systemd-analyze``, ``openssl``, ``promtool``) are Debian
packages that ``make test`` installs when they are missing (the Makefile's ``deploy-tools``
target), as it does for PostgreSQL. A test that cannot find one fails with the command that
installs it: none of these tests is skipped.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"

# The package each tool comes from, for the failure message.
PACKAGES = {"caddy": "caddy", "nginx": "nginx-light", "systemd-analyze": "systemd",
            "openssl": "openssl", "promtool": "prometheus"}  # fmt: skip


def system_tool(name: str) -> str:
    """The path of ``name`` on PATH (or in /usr/sbin); the test fails when it is missing."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
    if found is None:
        pytest.fail(
            f"{name} is not installed: `make test` installs it "
            f"(apt-get install {PACKAGES.get(name, name)})"
        )
    return found


async def promtool_check_metrics(exposition: str) -> subprocess.CompletedProcess[str]:
    """``promtool check metrics`` over a ``/metrics`` exposition (in a thread: it blocks)."""
    return await asyncio.to_thread(
        subprocess.run,
        [system_tool("promtool"), "check", "metrics"],
        input=exposition,
        capture_output=True,
        text=True,
        timeout=60,
    )


def replaced(text: str, old: str, new: str, *, count: int) -> str:
    """``text`` with ``old`` replaced by ``new``, which must occur exactly ``count`` times: a
    test adapting a shipped file to this machine notices when the file no longer says that."""
    found = text.count(old)
    assert found == count, f"expected {old!r} {count} times in the shipped file, found {found}"
    return text.replace(old, new)

"""Runs a document's code blocks as written, in order, as one shell session would.

A reader runs the ``sh`` blocks in one shell from the repository, each server (a
``.venv/bin/deliverybot sandbox`` or ``run`` line, a ``python -m http.server``) in a terminal of
its own; a ``python`` block whose first line names a file (``# mcp_order.py: …``) is that file,
saved where a later block runs it. ``run_document`` does the same in a scratch directory that
links the repository's files and venv, with one change only: each port the document uses
becomes a free one, so parallel runs never collide. Servers are started in the background,
waited for, and stopped when the session ends, whatever happens.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB_APP_PORT = 8080  # the bot's web app, in the documents as in the config's defaults
_FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>\w*)\n(?P<body>.*?)^(?P=indent)```", re.S | re.M)
_FILE_NAME = re.compile(r"#\s*([\w.-]+\.py):")
# Lines that start a server, which runs until stopped.
_SERVER = re.compile(
    r"^\.venv/bin/(?:deliverybot (?:sandbox|run)|python -m http\.server) .*$", re.M
)
_PRELUDE = """\
set -euo pipefail
stop_servers() { kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; }
trap stop_servers EXIT
wait_for_port() {
  for _ in $(seq 1 300); do
    (echo > /dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on port $1" >&2; cat server-*.log >&2; return 1
}
"""


@dataclass(frozen=True)
class Block:
    """One fenced code block: its language and its text, unindented."""

    lang: str
    text: str


def code_blocks(document: Path) -> list[Block]:
    """The document's fenced blocks, in order."""
    found = []
    for match in _FENCE.finditer(document.read_text(encoding="utf-8")):
        indent = len(match["indent"])
        lines = [line[indent:] for line in match["body"].splitlines()]
        found.append(Block(match["lang"], "\n".join(lines) + "\n"))
    return found


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def with_ports(text: str, ports: dict[int, int]) -> str:
    """``text`` with each of the document's ports replaced by its free one."""
    for port, free in ports.items():
        text = re.sub(rf"(?<![\d]){port}(?![\d])", str(free), text)
    return text


def session_script(blocks: list[Block], workdir: Path, ports: dict[int, int]) -> str:
    """The ``sh`` blocks as one script (servers in the background); ``python`` blocks that
    name their file are written into ``workdir``."""
    parts = [_PRELUDE]
    servers = 0
    for block in blocks:
        text = with_ports(block.text, ports)
        if block.lang == "python":
            named = _FILE_NAME.match(text)
            if named:
                (workdir / named[1]).write_text(text, encoding="utf-8")
            continue
        if block.lang != "sh":
            continue

        def in_background(line: re.Match[str]) -> str:
            nonlocal servers
            servers += 1
            named = [port for port in ports.values() if re.search(rf"\b{port}\b", line[0])]
            # ``deliverybot run`` listens where its config says: the web app's port.
            port = named[0] if named else ports[WEB_APP_PORT]
            return f"{line[0]} > server-{servers}.log 2>&1 &\nwait_for_port {port}"

        parts.append(_SERVER.sub(in_background, text))
    return "\n".join(parts)


def run_document(
    document: Path, workdir: Path, ports: list[int], timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run ``document``'s blocks in ``workdir``; ``ports`` are the ones it uses."""
    for entry in ROOT.iterdir():  # a clone of the repository, its venv made
        if entry.name not in (".git", "data") and not entry.name.endswith(".sqlite3"):
            (workdir / entry.name).symlink_to(entry)
    free = {port: free_port() for port in ports}
    script = session_script(code_blocks(document), workdir, free)
    (workdir / "session.sh").write_text(script, encoding="utf-8")
    environment = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    return subprocess.run(  # noqa: S603 - the repository's own document, run on purpose
        [shutil.which("bash") or "/bin/bash", "session.sh"],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
        check=False,
    )

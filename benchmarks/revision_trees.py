"""Before/after in one run: another revision's source tree, and a benchmark run against it.

A benchmark that compares this tree with an earlier revision exports that revision with
``git archive`` (``export``), then runs itself in a fresh process once per tree with
``--json`` (``run_json``): the script is this tree's, the code it imports is the tree's
given on ``PYTHONPATH``, and its last line of output is the JSON result.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any


def export(revision: str, into: Path) -> Path:
    """``revision``'s files, extracted under ``into``; the tree's path."""
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        argv = ["git", "archive", revision]
        subprocess.run(argv, stdout=out, check=True, cwd=Path(__file__).parent)  # noqa: S603
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def run_json(script: str, tree: Path) -> list[dict[str, Any]]:
    """``script --json`` against the code in ``tree``, in a fresh process; its result."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    argv = [sys.executable, str(Path(script).resolve()), "--json"]
    done = subprocess.run(argv, env=env, check=True, capture_output=True, text=True)  # noqa: S603
    result: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result

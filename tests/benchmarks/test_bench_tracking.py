"""``benchmarks/bench_tracking.py`` still runs, small, and prints every figure it promises.

The benchmark prints timings and never asserts them; this test runs it with 5 deliveries and 7
passes (the fewest that take each delivery through every status, with a pass after the last
one ends) on both key limits, and checks only that it finishes and prints each figure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FIGURES = (
    "GET /riders a minute",
    "passes with nothing tracked",
    "Partner 429s",
    "sendLocation",
    "editMessageLiveLocation",
    "editMessageText",
    "stopMessageLiveLocation",
    "Telegram 429s",
    "pass real s p50 / p99 / max",
    "CPU per delivery a pass",
    "customer's send mid-pass",
)


def test_a_small_run_prints_its_figures() -> None:
    result = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_tracking.py"),
            "--deliveries",
            "5",
            "--passes",
            "7",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    missing = [figure for figure in FIGURES if figure not in result.stdout]
    assert not missing, result.stdout

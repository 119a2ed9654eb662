"""``benchmarks/bench_many_businesses.py --quick`` still runs, and what it measures is real.

The benchmark prints timings and never asserts them; this test runs its quick mode smaller
still (3 businesses, a second of load) and checks what is not a timing: every business built on
demand answered, the added one too, every turn of the load was taken (200) and answered along
the script's buttons, on the host and on the single-business ``deliverybot run``, the fake Bot
API was called for nothing it does not serve and refused nothing (the bot keeps Telegram's
limits), and every webhook the run needed was set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_quick_run_answers_every_turn(tmp_path: Path) -> None:
    summary_file = tmp_path / "summary.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_many_businesses.py"),
            "--quick",
            "--businesses",  # fewer than the quick run's 10, and a shorter load: each part
            "3",  # still runs (several businesses, the added one, the single-business run)
            "--seconds",
            "1",
            "--json",
            str(summary_file),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "per idle business" in result.stdout
    assert "host CPU per turn / single-business CPU per turn" in result.stdout
    summary = json.loads(summary_file.read_text())
    assert summary["first_answer_status"] == 200
    assert summary["added_answered"]
    assert summary["warm_up_unanswered"] == 0
    for load in (summary["host_load"], summary["single_load"]):
        assert load["turns"] > 0
        assert load["answered"] == load["turns"]
        assert load["statuses"] == {"200": load["turns"]}
        assert load["restarts"] == 0  # every scripted button was on the chat's keyboard
        assert load["too_many"] == 0
    fake = summary["fake"]
    assert fake["unknown"] == {}
    assert fake["too_many"] == 0
    assert fake["webhooks_set"] == 2  # the added one and the single one (the rest: before)

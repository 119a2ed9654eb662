"""Start-up: how long ``deliverybot --help`` and a config check take, beside a bare interpreter.

Each command is a fresh ``python`` process (``python -m bot ...``, the same code as the
``deliverybot`` script), timed from spawn to exit, hyperfine-style: ``RUNS`` alternating
rounds, min and median. The anchor is ``python -c pass`` (the interpreter and ``site``), so
the ratio shows what the bot's own imports add. Then ``python -X importtime`` names the
heaviest imports of ``--help``.
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 15
CONFIG = """\
[partner]
base_url = "https://partner.example.com"
api_key = "sk_live_benchmarkbenchmarkbenchmark"

[telegram]
token = "7000000001:AABenchmarkTokenForStartupBench0001"
"""


def commands(config: Path) -> dict[str, list[str]]:
    python = sys.executable
    return {
        "python -c pass (anchor)": [python, "-c", "pass"],
        "deliverybot --help": [python, "-m", "bot", "--help"],
        "deliverybot --version": [python, "-m", "bot", "--version"],
        "deliverybot check-config": [python, "-m", "bot", "check-config", str(config)],
    }


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=False, capture_output=True, env=os.environ.copy())  # noqa: S603
    return time.perf_counter() - started


def heaviest_imports(argv: list[str], count: int = 5) -> list[str]:
    """The ``count`` imports with the largest cumulative time under ``-X importtime``."""
    traced = [argv[0], "-X", "importtime", *argv[1:]]
    err = subprocess.run(traced, check=False, capture_output=True, text=True).stderr  # noqa: S603
    rows = []
    for row in err.splitlines():
        parts = row.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    rows.sort(reverse=True)
    return [f"{micros / 1000:6.1f} ms {name.strip()}" for micros, name in rows[:count]]


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        config = Path(scratch) / "bot.toml"
        config.write_text(CONFIG, encoding="utf-8")
        argvs = commands(config)
        seconds: dict[str, list[float]] = {name: [] for name in argvs}
        for run in range(RUNS):
            names = list(argvs) if run % 2 == 0 else list(reversed(argvs))
            for name in names:
                seconds[name].append(timed(argvs[name]))
        anchor = statistics.median(seconds["python -c pass (anchor)"])
        print(f"Start-up: {RUNS} alternating runs each, fresh processes; min / median, and the")
        print("median as a ratio of the bare interpreter's:")
        for name, runs in seconds.items():
            median = statistics.median(runs)
            print(
                f"  {name:<26} {min(runs) * 1000:6.0f} / {median * 1000:6.0f} ms"
                f"   {median / anchor:5.2f}x"
            )
        print("heaviest imports of deliverybot --help (cumulative, python -X importtime):")
        for row in heaviest_imports(argvs["deliverybot --help"]):
            print(f"  {row}")


if __name__ == "__main__":
    main()

"""Start-up: how long ``deliverybot --help`` and a config check take, beside a bare interpreter.

Each command is a fresh ``python`` process (``python -m bot ...``, the same code as the
``deliverybot`` script), timed from spawn to exit, hyperfine-style: ``RUNS`` alternating
rounds, min and median. The anchor is ``python -c pass`` (the interpreter and ``site``), so
the ratio shows what the bot's own imports add; importing pydantic is timed too, the floor
under any validation with it. ``check-config`` is timed on a minimal file
and on ``config.example.toml`` (which also sets the locale and phone region, checked with
Babel and phonenumbers). Every command must exit 0: a check that fails would time the error
path. Then ``python -X importtime`` says which packages ``check-config``'s time goes to.

``--against DIR`` times another source tree in the same alternating rounds, for a before/after
on one noisy machine: ``git archive main | tar -x -C /tmp/before``, then
``PYTHONPATH=. .venv/bin/python benchmarks/bench_startup.py --against /tmp/before``.
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

RUNS = 15
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "config.example.toml"
MINIMAL_CONFIG = """\
[partner]
base_url = "https://partner.example.com/api/v1"
api_key = "sk_live_benchmarkbenchmarkbenchmark"

[telegram]
token = "7000000001:AABenchmarkTokenForStartupBench0001"
"""
# The secrets config.example.toml names by *_env keys.
EXAMPLE_ENV = {
    "DELIVERYBOT_PARTNER_API_KEY": "sk_live_benchmarkbenchmarkbenchmark",
    "DELIVERYBOT_TELEGRAM_TOKEN": "7000000001:AABenchmarkTokenForStartupBench0001",
}
ANCHOR = "python -c pass (anchor)"
# What any pydantic validation costs before the first model: the floor under check-config.
PYDANTIC_FLOOR = "import pydantic (floor)"


@dataclass(frozen=True)
class Tree:
    """A source tree to run ``python -m bot`` from (this one, or ``--against``'s)."""

    label: str
    path: Path

    def env(self) -> dict[str, str]:
        return {**os.environ, **EXAMPLE_ENV, "PYTHONPATH": str(self.path)}


def commands(config: Path) -> dict[str, list[str]]:
    python = sys.executable
    return {
        ANCHOR: [python, "-c", "pass"],
        PYDANTIC_FLOOR: [python, "-c", "from pydantic import BaseModel, SecretStr"],
        "deliverybot --help": [python, "-m", "bot", "--help"],
        "deliverybot --version": [python, "-m", "bot", "--version"],
        "check-config minimal file": [python, "-m", "bot", "check-config", str(config)],
        "check-config example file": [python, "-m", "bot", "check-config", str(EXAMPLE)],
    }


def timed(argv: list[str], tree: Tree) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=False, capture_output=True, env=tree.env(), cwd=tree.path)  # noqa: S603
    return time.perf_counter() - started


def failures(argvs: dict[str, list[str]], trees: list[Tree]) -> list[str]:
    """The commands that do not exit 0 in a tree, with the first line they printed on stderr."""
    found = []
    for tree in trees:
        for name, argv in argvs.items():
            done = subprocess.run(  # noqa: S603
                argv, check=False, capture_output=True, text=True, env=tree.env(), cwd=tree.path
            )
            if done.returncode != 0:
                first = (done.stderr.strip().splitlines() or ["(no output)"])[0]
                found.append(f"{tree.label}: {name} exited {done.returncode}: {first}")
    return found


def import_time_by_package(argv: list[str], tree: Tree, count: int = 8) -> list[str]:
    """The ``count`` top-level packages whose modules take the most time under
    ``-X importtime``, each module's own time (not its imports') summed by package: where
    the time goes, without a package counted again in every module that imports it."""
    traced = [argv[0], "-X", "importtime", *argv[1:]]
    err = subprocess.run(  # noqa: S603
        traced, check=False, capture_output=True, text=True, env=tree.env(), cwd=tree.path
    ).stderr
    by_package: Counter[str] = Counter()
    for row in err.splitlines():
        parts = row.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[0].strip().isdigit():
            by_package[parts[2].strip().split(".")[0]] += int(parts[0])
    total = sum(by_package.values())
    rows = [f"{micros / 1000:6.1f} ms {name}" for name, micros in by_package.most_common(count)]
    return [*rows, f"{total / 1000:6.1f} ms in all (importtime's own overhead included)"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--against", type=Path, default=None, help="another source tree to time alongside"
    )
    parser.add_argument("--runs", type=int, default=RUNS, help="rounds (default: %(default)s)")
    options = parser.parse_args()
    trees = [Tree("this tree", ROOT)]
    if options.against is not None:
        trees.append(Tree("against", options.against.resolve()))
    with tempfile.TemporaryDirectory() as scratch:
        config = Path(scratch) / "bot.toml"
        config.write_text(MINIMAL_CONFIG, encoding="utf-8")
        argvs = commands(config)
        for problem in failures(argvs, trees):
            print(f"warning: {problem}")
        # The anchor and the floor do not depend on the tree: timed once per round.
        shared = (ANCHOR, PYDANTIC_FLOOR)
        jobs = [(t, n) for t in trees for n in argvs if t is trees[0] or n not in shared]
        seconds: dict[tuple[str, str], list[float]] = {(t.label, n): [] for t, n in jobs}
        for run in range(options.runs):
            for tree, name in jobs if run % 2 == 0 else reversed(jobs):
                seconds[tree.label, name].append(timed(argvs[name], tree))
        report(seconds, trees, list(argvs), options.runs)
        for tree in trees:
            print(f"check-config minimal file, {tree.label}: import time by package")
            for row in import_time_by_package(argvs["check-config minimal file"], tree):
                print(f"  {row}")


def report(
    seconds: dict[tuple[str, str], list[float]], trees: list[Tree], names: list[str], runs: int
) -> None:
    anchor = statistics.median(seconds[trees[0].label, ANCHOR])
    print(f"Start-up: {runs} alternating runs each, fresh processes; min / median, and the")
    print("median as a ratio of the bare interpreter's:")
    header = "".join(f"  {tree.label:>28}" for tree in trees)
    print(f"  {'':<26}{header}")
    for name in names:
        cells = []
        for tree in trees:
            times = seconds.get((tree.label, name)) or seconds[trees[0].label, name]
            median = statistics.median(times)
            cells.append(
                f"  {min(times) * 1000:6.0f} / {median * 1000:6.0f} ms {median / anchor:6.2f}x"
            )
        print(f"  {name:<26}{''.join(cells)}")
    if len(trees) == 2:
        print(f"medians, {trees[0].label} / {trees[1].label}:")
        for name in names[2:]:
            ours = statistics.median(seconds[trees[0].label, name])
            theirs = statistics.median(seconds[trees[1].label, name])
            print(f"  {name:<26} {ours / theirs:5.2f}")


if __name__ == "__main__":
    main()

"""A newcomer's first ``make demo``: the size of ``.venv`` and the time to the first question.

The repository is cloned (its committed ``HEAD``, as a newcomer's ``git clone`` gets it) into a
temporary directory, and ``make demo`` is run there with a customer's order piped in: the
clock runs from spawning ``make`` until the demo's first question shows on its output (the
venv created, pip upgraded, the project and its runtime dependencies installed, the bot
started). The piped order must then reach "Done!", so the figure is of a demo that works, and
``.venv`` is measured once the demo has exited (with the ``.pyc`` files its imports wrote).

The goals (issue 34): at most 200 MiB in ``.venv`` and at most 45 s to the first question, on
the project's 2-core machine. pip's download cache is the user's, as it is (a machine that has
installed these wheels before); ``--cold-cache`` runs pip without it, so every wheel is
downloaded again. ``--with-test-tools`` then times the same in a second fresh clone whose
``.venv`` first gets the test tools (``make .venv/.installed``, what ``make demo`` installed
before it was made light): the anchor the light demo is compared with.

Run: ``.venv/bin/python benchmarks/bench_demo_setup.py [--cold-cache] [--with-test-tools]``.
"""

from __future__ import annotations

import argparse
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRST_QUESTION = "What would you like to order?"
DONE = "Done!"
GOAL_MIB = 200
GOAL_SECONDS = 45.0
TIMEOUT_SECONDS = 900.0


def tiny_png() -> bytes:
    """A valid 1x1 PNG: the package photo of the piped order."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(bytes([0, 255, 0, 0]))
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def order_lines(photo: Path) -> str:
    """A pickup & delivery ordered and confirmed, as a customer types it, then ``:quit``."""
    lines = [
        "1",
        "location 6.5095 3.3711 12 Herbert Macaulay Way, Yaba",
        "1",
        "contact 08031234567 Ada Obi",
        "Bola Ahmed 0802 222 3333",
        "A pair of shoes in a box",
        "1",
        str(photo),
        "1",
        ":quit",
    ]
    return "".join(f"{line}\n" for line in lines)


@dataclass(frozen=True)
class Setup:
    label: str
    seconds_to_question: float
    seconds_total: float
    venv_mib: float
    ordered: bool


def disk_mib(path: Path) -> float:
    """What ``du`` counts: blocks on disk, in MiB (``.venv`` has no hard links of its own)."""
    total = 0
    for directory, _, files in os.walk(path):
        for name in files:
            info = os.lstat(os.path.join(directory, name))
            total += info.st_blocks * 512
    return total / 2**20


def clone(into: Path) -> str:
    subprocess.run(  # noqa: S603
        ["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(into)],  # noqa: S607
        check=True,
    )
    described = subprocess.run(  # noqa: S603
        ["git", "-C", str(into), "log", "-1", "--format=%h %s"],  # noqa: S607
        check=True,
        capture_output=True,
        text=True,
    )
    return described.stdout.strip()


def run_make(label: str, checkout: Path, targets: list[str], env: dict[str, str]) -> Setup:
    """``make <targets>`` in ``checkout`` with the order piped in, timed to the first question."""
    photo = checkout.parent / "parcel.png"
    photo.write_bytes(tiny_png())
    started = time.perf_counter()
    process = subprocess.Popen(  # noqa: S603
        ["make", "--no-print-directory", *targets],  # noqa: S607
        cwd=checkout,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    # The whole order is in the pipe from the start, as `make demo < order.txt` would have it.
    process.stdin.write(order_lines(photo))
    process.stdin.close()
    to_question: float | None = None
    ordered = False
    output: list[str] = []
    for line in process.stdout:
        output.append(line)
        if to_question is None and FIRST_QUESTION in line:
            to_question = time.perf_counter() - started
        ordered = ordered or DONE in line
    process.wait(timeout=TIMEOUT_SECONDS)
    total = time.perf_counter() - started
    if process.returncode != 0 or to_question is None:
        sys.stderr.write("".join(output[-40:]))
        raise SystemExit(f"{label}: make {' '.join(targets)} exited {process.returncode}")
    return Setup(label, to_question, total, disk_mib(checkout / ".venv"), ordered)


def measure(label: str, targets: list[str], env: dict[str, str]) -> Setup:
    with tempfile.TemporaryDirectory(prefix="bench-demo-") as scratch:
        checkout = Path(scratch) / "deliverybot"
        commit = clone(checkout)
        print(f"{label}: fresh clone of {commit}", flush=True)
        return run_make(label, checkout, targets, env)


def report(setup: Setup) -> None:
    size_goal = "met" if setup.venv_mib <= GOAL_MIB else "NOT met"
    time_goal = "met" if setup.seconds_to_question <= GOAL_SECONDS else "NOT met"
    print(
        f"{setup.label}:\n"
        f"  .venv on disk:          {setup.venv_mib:6.0f} MiB  (goal <= {GOAL_MIB}: {size_goal})\n"
        f"  first question after:   {setup.seconds_to_question:6.1f} s    "
        f"(goal <= {GOAL_SECONDS:.0f}: {time_goal})\n"
        f"  whole run (order, quit): {setup.seconds_total:5.1f} s; "
        f"the piped order {'was created' if setup.ordered else 'was NOT created'}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold-cache", action="store_true", help="pip without its cache")
    parser.add_argument(
        "--with-test-tools",
        action="store_true",
        help="also time a clone whose .venv gets the test tools first (the old make demo)",
    )
    args = parser.parse_args()
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    if args.cold_cache:
        env["PIP_NO_CACHE_DIR"] = "1"
    cache = "no pip cache" if args.cold_cache else "pip's cache as it is"
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {cache}")
    report(measure("make demo (runtime dependencies)", ["demo"], env))
    if args.with_test_tools:
        targets = [".venv/.installed", "demo"]
        report(measure("make .venv/.installed demo (test tools too)", targets, env))


if __name__ == "__main__":
    main()

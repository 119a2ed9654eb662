"""A host of 1,000 businesses: reading their files (``scan_businesses``), and what one costs.

Writes a host file and ``COUNT`` business files (each with its own Telegram bot in webhook
mode, partner webhooks, an agent channel and a WhatsApp number) in a scratch directory, then:

- **cold scan**: every file read, hashed, validated into its ``Config``, and the duplicates
  checked across all; what a starting instance pays before it serves anything;
- **rescan, nothing changed**: what each instance pays every ``[host] watch_seconds``: a
  ``stat`` per file, nothing read (the files are dated back past the scan's racy window, as a
  file written more than two seconds before the previous scan is);
- **rescan, all touched**: every file read and hashed again, none re-validated (same content);
- **one file changed**: the rescan after one business's file was rewritten;
- **memory per business**: tracemalloc's growth over the cold scan, per business (the
  ``Config`` with its entry, hashes and fingerprints), against the host's target of 0.5 MB per
  idle business, and a bare ``Config`` alone.

Each timing is ``RUNS`` runs, min / median. The anchor is ``ANCHOR``: the time to read (not
parse) the same files, the floor under any scan. Run:
``PYTHONPATH=. .venv/bin/python benchmarks/bench_business_scan.py [--count 1000]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from bot.config.business_files import business_config
from bot.config.business_scan import BusinessScan, scan_businesses
from bot.config.host_loading import load_host
from tests.config.host_texts import business_text, make_host

RUNS = 5
LONG_AGO_NS = 1_000_000_000_000_000_000


def timed(action: Callable[[], object], runs: int = RUNS) -> tuple[float, float]:
    """Min and median wall time of ``action``, in seconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="business files (default 1000)")
    count = parser.parse_args().count
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        texts = {f"business-{n:04d}": business_text(n, whatsapp=True) for n in range(count)}
        host_file = make_host(root, texts)
        files = sorted((root / "businesses").iterdir())
        for file in files:
            os.utime(file, ns=(LONG_AGO_NS, LONG_AGO_NS))
        host = load_host(host_file)

        anchor = timed(lambda: [file.read_bytes() for file in files])
        cold = timed(lambda: scan_businesses(host))
        first = scan_businesses(host)
        assert len(first.ready) == count, first.problems()[:3]
        unchanged = timed(lambda: scan_businesses(host, first))

        def touched() -> BusinessScan:
            for file in files:  # within the racy window: read and hashed, not re-checked
                os.utime(file)
            return scan_businesses(host, first)

        touched_all = timed(touched)
        for file in files:
            os.utime(file, ns=(LONG_AGO_NS, LONG_AGO_NS))
        settled = scan_businesses(host)
        changed = files[count // 2]

        def one_changed() -> BusinessScan:
            changed.write_text(changed.read_text(encoding="utf-8") + "\n", encoding="utf-8")
            return scan_businesses(host, settled)

        one = timed(one_changed)
        scan_bytes = traced_growth(lambda: scan_businesses(host))
        config_bytes = traced_growth(
            lambda: [
                business_config(host, file.stem, file.read_bytes(), file, base_dir=file.parent)
                for file in files
            ]
        )

    ms = 1000
    print(f"{count} business files, {RUNS} runs each: min / median")
    rows = [
        ("anchor: read the files", anchor),
        ("cold scan", cold),
        ("rescan, nothing changed", unchanged),
        ("rescan, all touched (re-read)", touched_all),
        ("rescan, one file changed", one),
    ]
    for label, (least, middle) in rows:
        print(f"  {label:<31} {least * ms:8.1f} / {middle * ms:8.1f} ms")
    print(f"  cold scan per business          {cold[0] / count * 1e6:8.0f} µs (min)")
    print(f"  memory per business, its entry  {scan_bytes / count / 1024:8.1f} KiB")
    print(f"  memory per business, Config     {config_bytes / count / 1024:8.1f} KiB")
    print("  host's targets: start-up <= 10 s with 1,000; <= 512 KiB per idle business")


def traced_growth(build: Callable[[], object]) -> int:
    """The bytes still allocated (tracemalloc) by what ``build`` returns, while it is kept."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = build()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    del kept
    return grown


if __name__ == "__main__":
    main()

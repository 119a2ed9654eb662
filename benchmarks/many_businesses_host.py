"""``deliverybot run --config HOST_TOML``, with a switch for a cProfile of the host under load.

Run as ``python benchmarks/many_businesses_host.py HOST_TOML [--profile PATH]``: it is
``bot.cli.main(["run", "--config", HOST_TOML])``, the very command an operator runs on a
host file (``bot.hosting.host_serving``), in a process that also takes two signals: SIGUSR1
starts a cProfile of the main thread's CPU time (the event loop's, where the host's requests,
turns and jobs run), SIGUSR2 stops it and writes it to PATH. Without ``--profile`` the
signals are left as they are. ``bench_many_businesses.py`` profiles the host it has warmed up
and measured, instead of building a thousand businesses again in a second, profiled, host.
"""

from __future__ import annotations

import argparse
import cProfile
import signal
import sys
import time
from pathlib import Path
from types import FrameType

from bot.cli import main


def profile_on_signals(path: Path) -> None:
    """SIGUSR1 starts profiling the main thread, SIGUSR2 stops and writes it to ``path``."""
    # The main thread's CPU time, not the wall clock: on a shared machine the time the
    # process waits for a core would otherwise land on whatever function was running.
    profiler = cProfile.Profile(time.thread_time)

    def start(signum: int, frame: FrameType | None) -> None:
        profiler.enable()

    def stop(signum: int, frame: FrameType | None) -> None:
        profiler.disable()
        profiler.dump_stats(path)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("host_file", type=Path)
    parser.add_argument("--profile", type=Path, help="where SIGUSR2 writes the cProfile")
    arguments = parser.parse_args()
    if arguments.profile is not None:
        profile_on_signals(arguments.profile)
    sys.exit(main(["run", "--config", str(arguments.host_file)]))

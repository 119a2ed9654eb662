"""The P2 harness shared by ``bench_ingest`` (partner events) and ``bench_telegram_ingest``
(Telegram updates): servers in processes of their own, ``wrk`` posting pre-written unique
requests, runs alternating between the servers, and the figures printed side by side.

Each server is uvicorn + Starlette on 127.0.0.1 in a spawned process with a fresh SQLite file
in WAL mode, and answers ``GET /bench/stored`` with how many requests it has stored and in how
many commits (``{"stored": n, "commits": k}``). Per server and run: requests/s and wrk's p99,
and two figures a busy machine does not move much: the **server process's CPU time per
request** (user + system, from ``/proc``; what the server costs, whoever else runs beside it)
and the **rows per commit** (how well the commits are grouped).

With ``--fsync-delay-ms N`` (``slowed_disk``) the benchmark runs again under ``strace``, which
makes every ``fsync``/``fdatasync`` of every process N ms slower (strace's fault injection, with
a seccomp filter so no other system call is stopped): a disk whose flush takes as long as a
networked cloud volume's, where a commit per request shows what it costs. On a local SSD (this
machine's: about 0.15 ms) the naive floor barely waits for the disk.

Each wrk thread posts the lines of its own file (``<prefix>-<thread>.<suffix>``), in order, one
request per line; a line is the body, or ``<header value>\\t<body>`` when the server wants a
per-request header (the partner's signature), so nothing is signed or encoded while timed.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Literal

import httpx
import uvicorn

Synchronous = Literal["NORMAL", "FULL"]
FSYNC_DELAY_FLAG = "--fsync-delay-ms"
_FSYNC_DELAY_ENV = "BENCH_FSYNC_DELAY_MS"  # set once this process runs under strace
WRK_THREADS = 2
WRK_CONNECTIONS = 16
# A server process's entry point: (database file, synchronous, queue for its port).
ServerTarget = Callable[[str, Synchronous, "Queue[int]"], None]

# Each wrk thread reads its own file and posts its lines in order; with ``header`` set, each
# line is "<that header's value>\t<body>".
_WRK_SCRIPT = """
local counter = 1
local threads = 0
function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end
function init(args)
  lines = {}
  for line in io.lines(args[1] .. "-" .. index .. ".%(suffix)s") do
    local tab = %(split)s
    if tab then
      lines[#lines + 1] = {line:sub(1, tab - 1), line:sub(tab + 1)}
    else
      lines[#lines + 1] = {nil, line}
    end
  end
end
function request()
  local line = lines[counter]
  if line == nil then
    line = lines[#lines]
  else
    counter = counter + 1
  end
  local headers = {["Content-Type"] = "application/json"%(fixed)s}
  if line[1] then headers["%(header)s"] = line[1] end
  return wrk.format("POST", "%(path)s", headers, line[2])
end
"""


def wrk_script(
    path: str,
    *,
    per_line_header: str | None = None,
    fixed_headers: dict[str, str] | None = None,
    suffix: str = "lines",
) -> str:
    """The Lua script posting each thread's file of lines to ``path``."""
    fixed = "".join(f', ["{name}"] = "{value}"' for name, value in (fixed_headers or {}).items())
    return _WRK_SCRIPT % {
        "suffix": suffix,
        "split": 'line:find("\\t", 1, true)' if per_line_header else "nil",
        "fixed": fixed,
        "header": per_line_header or "",
        "path": path,
    }


def write_lines(prefix: Path, lines_of_thread: Callable[[int, int], list[str]], count: int) -> None:
    """``count`` request lines split across one file per wrk thread (``lines_of_thread(thread,
    how_many)`` makes a thread's lines, each ending in a newline)."""
    per_thread = count // WRK_THREADS
    for thread in range(WRK_THREADS):
        Path(f"{prefix}-{thread}.lines").write_text("".join(lines_of_thread(thread, per_thread)))


def slowed_disk(argv: list[str]) -> None:
    """With ``--fsync-delay-ms N`` in ``argv``: run this script again under strace, every
    fsync of it and of the processes it starts N ms slower (module docstring). Returns at once
    without the flag, or when already under strace."""
    if FSYNC_DELAY_FLAG not in argv or os.environ.get(_FSYNC_DELAY_ENV):
        return
    at = argv.index(FSYNC_DELAY_FLAG)
    try:
        delay_ms = float(argv[at + 1])
    except (IndexError, ValueError):
        sys.exit(f"{FSYNC_DELAY_FLAG} needs a number of milliseconds, e.g. {FSYNC_DELAY_FLAG} 1")
    strace = shutil.which("strace")
    if strace is None:
        sys.exit(f"{FSYNC_DELAY_FLAG} needs strace (Debian/Ubuntu: `sudo apt-get install strace`)")
    command = [
        strace,
        "-f",  # every thread and child: the servers are spawned processes
        "-qq",
        "--seccomp-bpf",  # stop only at the system calls named below
        "-e",
        "trace=fsync,fdatasync",
        "-e",
        f"inject=fsync,fdatasync:delay_exit={round(delay_ms * 1000)}",
        "-o",
        os.devnull,
        sys.executable,
        *argv,
    ]
    os.execve(strace, command, {**os.environ, _FSYNC_DELAY_ENV: str(delay_ms)})  # noqa: S606


def disk_note() -> str:
    """How the disk was slowed for this run (``slowed_disk``), for the figures' header."""
    delay = os.environ.get(_FSYNC_DELAY_ENV)
    return f", each fsync {delay} ms slower (strace)" if delay else ""


@dataclass(frozen=True)
class WrkRun:
    """One wrk run's figures, and the server's own for it."""

    requests_per_second: float
    p99_ms: float
    requests: int
    refused: int
    cpu_us_per_request: float | None = None
    rows_per_commit: float | None = None


def ensure_wrk() -> str:
    """wrk's path, installing the system package when missing and allowed to."""
    found = shutil.which("wrk")
    if found:
        return found
    command = ["apt-get", "install", "-y", "wrk"]
    if os.geteuid() != 0 and shutil.which("sudo"):
        command = ["sudo", "-n", *command]
    if shutil.which("apt-get"):
        print("wrk is missing: running " + " ".join(command), flush=True)
        subprocess.run(command, check=False, stdout=subprocess.DEVNULL)  # noqa: S603 - fixed argv
    found = shutil.which("wrk")
    if not found:
        sys.exit(
            "wrk is needed: install it from the system packages (Debian/Ubuntu: "
            "`sudo apt-get install wrk`; macOS: `brew install wrk`), then run this again."
        )
    return found


_DURATION_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def run_wrk(wrk: str, script: Path, prefix: Path, port: int, seconds: float) -> WrkRun:
    """One ``wrk -t2 -c16`` run against ``port``; its requests/s, p99 and counts."""
    result = subprocess.run(  # noqa: S603 - our own argv, no shell
        [
            wrk,
            f"-t{WRK_THREADS}",
            f"-c{WRK_CONNECTIONS}",
            f"-d{seconds}s",
            "--latency",
            "-s",
            str(script),
            f"http://127.0.0.1:{port}/",  # the script names the path
            "--",
            str(prefix),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    out = result.stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    refused = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return WrkRun(
        rate,
        float(value) * _DURATION_UNITS[unit],
        requests,
        int(refused.group(1)) if refused else 0,
    )


async def serve(app: Callable[..., Awaitable[None]], ready: Queue[int]) -> None:
    """Serve ``app`` on a free loopback port, told to the parent through ``ready``."""
    # IPPROTO_TCP spelled out: asyncio sets TCP_NODELAY only on sockets that say so, and
    # without it every response waits ~40 ms for the peer's delayed ACK (Nagle).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    ready.put(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    await server.serve(sockets=[sock])  # until the parent terminates this process


@dataclass(frozen=True)
class Served:
    """A server process: its port and process id."""

    port: int
    pid: int


@contextlib.contextmanager
def server(target: ServerTarget, database: Path, sync: Synchronous) -> Iterator[Served]:
    """``target`` serving in its own process; yields it once it answers."""
    import multiprocessing  # the parent's only: spawned servers import this module too

    context = multiprocessing.get_context("spawn")
    ready: Queue[int] = context.Queue()
    process = context.Process(target=target, args=(str(database), sync, ready))
    process.start()
    try:
        port = ready.get(True, 60)
        for _ in range(500):  # uvicorn has no ready signal over a process boundary
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/bench/stored").status_code == 200:
                    break
            time.sleep(0.02)
        assert process.pid is not None
        yield Served(port, process.pid)
    finally:
        process.terminate()
        process.join(10)


def stored_counts(port: int) -> tuple[int, int]:
    """What a server has stored so far, and in how many commits."""
    answer = httpx.get(f"http://127.0.0.1:{port}/bench/stored").json()
    return int(answer["stored"]), int(answer["commits"])


class Commits:
    """The statements that committed stored rows in this server process (``/bench/stored``):
    those of ``GroupedInserts`` and ``WorkerGroupedInserts`` once ``count_grouped()`` is
    called, and whatever calls ``add``."""

    count = 0

    @classmethod
    def add(cls) -> None:
        cls.count += 1

    @classmethod
    def count_grouped(cls) -> None:
        """Count each statement of every grouped insert from now on."""
        import sqlite3

        from bot.store.grouped_inserts import GroupedInserts
        from bot.store.worker_group_inserts import WorkerGroupedInserts

        insert = GroupedInserts._insert
        on_worker = WorkerGroupedInserts._insert

        async def counted(self: GroupedInserts, rows: list[Sequence[object]]) -> list[bool]:
            cls.add()
            return await insert(self, rows)

        def counted_on_worker(
            self: WorkerGroupedInserts, conn: sqlite3.Connection, rows: list[Sequence[object]]
        ) -> list[bool]:
            cls.add()  # on the worker thread: one statement at a time, under the GIL
            return on_worker(self, conn, rows)

        GroupedInserts._insert = counted  # type: ignore[method-assign]
        WorkerGroupedInserts._insert = counted_on_worker  # type: ignore[method-assign]


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of process ``pid`` (all its threads), where ``/proc`` has it."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Contender:
    """One server of the comparison: its label, the line it is printed under, its target."""

    label: str
    title: str
    target: ServerTarget


@dataclass
class Comparison:
    """What to run: the servers, the requests and how each run is judged."""

    name: str  # "P2 signed webhook ingest"
    unit: str  # "events"
    script: str  # ``wrk_script(...)``
    write_requests: Callable[[Path, int], None]  # (file prefix, count), fresh ones each call
    contenders: list[Contender]
    ratios: list[tuple[str, str, str]]  # (label, over label, goal text)
    runs: int = 3
    seconds: int = 4
    figures: dict[str, list[WrkRun]] = field(default_factory=dict)


P2_GOAL = "goal: at least 1.5x under FULL, bot p99 at most 10 ms"


def against_floor(
    name: str,
    unit: str,
    script: str,
    write_requests: Callable[[Path, int], None],
    servers: tuple[ServerTarget, Contender, Contender],
    *,
    runs: int,
    seconds: int,
) -> Comparison:
    """P2's comparison: the naive floor, the bot (labelled "bot") and a variant of it, the
    ratios bot/floor (against P2's goal) and bot/variant."""
    floor, bot, variant = servers
    return Comparison(
        name=name,
        unit=unit,
        script=script,
        write_requests=write_requests,
        contenders=[Contender("floor", "naive floor (insert+commit)", floor), bot, variant],
        ratios=[("bot", "floor", P2_GOAL), ("bot", variant.label, "")],
        runs=runs,
        seconds=seconds,
    )


def compare(comparison: Comparison, directory: Path, sync: Synchronous) -> None:
    """Warm every server up, run them alternately (the order flips every round), print."""
    wrk = ensure_wrk()
    script = directory / f"{comparison.unit}.lua"
    script.write_text(comparison.script)
    per_run = 8_000 * comparison.seconds  # enough that a fast run never repeats a request
    figures: dict[str, list[WrkRun]] = {c.label: [] for c in comparison.contenders}
    loads = []
    with contextlib.ExitStack() as servers:
        served = {
            c.label: servers.enter_context(
                server(c.target, directory / f"{c.label.replace(' ', '-')}-{sync}.db", sync)
            )
            for c in comparison.contenders
        }
        for running in served.values():  # warm up: imports, caches, the WAL file
            comparison.write_requests(directory / "warm", 2_000)
            run_wrk(wrk, script, directory / "warm", running.port, 1)
        for number in range(comparison.runs):
            order = list(served) if number % 2 == 0 else list(reversed(served))
            for label in order:
                prefix = directory / f"run-{number}-{label.replace(' ', '-')}"
                comparison.write_requests(prefix, per_run)
                figures[label].append(_measured(wrk, script, prefix, served[label], comparison))
            loads.append(os.getloadavg()[0])
    comparison.figures = figures
    print(
        f"{comparison.name}, wrk -t{WRK_THREADS} -c{WRK_CONNECTIONS}, {comparison.seconds} s x "
        f"{comparison.runs} alternating runs each, synchronous={sync}{disk_note()}, load average "
        f"{min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores"
    )
    print(
        f"  {'':31} {comparison.unit + '/s median':>16} {'(max)':>7}   {'p99 median':>10} "
        f"{'(min)':>7}   CPU µs/request   rows/commit"
    )
    for contender in comparison.contenders:
        print("  " + _line(contender.title, figures[contender.label]))
    for label, base, goal in comparison.ratios:
        ratio = _median_rate(figures[label]) / _median_rate(figures[base])
        paired = [
            mine.requests_per_second / theirs.requests_per_second
            for mine, theirs in zip(figures[label], figures[base], strict=True)
        ]
        print(
            f"  ratio {label}/{base:<22} {ratio:5.2f}x of the medians; run by run "
            + ", ".join(f"{r:.2f}" for r in paired)
            + (f"   ({goal})" if goal else "")
        )


def _measured(
    wrk: str, script: Path, prefix: Path, running: Served, comparison: Comparison
) -> WrkRun:
    stored_before, commits_before = stored_counts(running.port)
    cpu_before = cpu_seconds(running.pid)
    run = run_wrk(wrk, script, prefix, running.port, comparison.seconds)
    cpu_after = cpu_seconds(running.pid)
    stored_after, commits_after = stored_counts(running.port)
    stored = stored_after - stored_before
    if stored < run.requests - WRK_CONNECTIONS:
        print(f"  note: {stored} stored of {run.requests} requests (requests ran out and repeated)")
    cpu = None
    if cpu_before is not None and cpu_after is not None and run.requests:
        cpu = (cpu_after - cpu_before) / run.requests * 1e6
    commits = commits_after - commits_before
    return WrkRun(
        run.requests_per_second,
        run.p99_ms,
        run.requests,
        run.refused,
        cpu,
        stored / commits if commits else None,
    )


def _median_rate(runs: list[WrkRun]) -> float:
    return statistics.median(run.requests_per_second for run in runs)


def _line(title: str, runs: list[WrkRun]) -> str:
    rates = [run.requests_per_second for run in runs]
    tails = [run.p99_ms for run in runs]
    cpus = [run.cpu_us_per_request for run in runs if run.cpu_us_per_request is not None]
    grouping = [run.rows_per_commit for run in runs if run.rows_per_commit is not None]
    refused = sum(run.refused for run in runs)
    return (
        f"{title:31} {statistics.median(rates):16.0f} {max(rates):7.0f}   "
        f"{statistics.median(tails):7.2f} ms {min(tails):7.2f}   "
        + (f"{statistics.median(cpus):14.0f}" if cpus else f"{'-':>14}")
        + (f"   {statistics.median(grouping):11.1f}" if grouping else f"   {'-':>11}")
        + (f"   {refused} refused!" if refused else "")
    )

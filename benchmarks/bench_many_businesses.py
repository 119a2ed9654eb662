"""Issue #38's figures: a thousand businesses on one host, on this machine.

Three kinds of process, so the host's memory and CPU are its own:

* the services (``many_businesses_services.py``): one fake Bot API serving every business's
  bot token (``many_bots_fake.ManyBots``), one sandbox organisation per business (the default
  scenario, its own key and signing secret) and the customers, who push Telegram updates to
  the host's ``/telegram`` with their business's secret token and time the answers;
* the host: ``deliverybot run --config host.toml`` on a host file and one file per business
  (``launch_host``; through ``many_businesses_host.py``, which is that command with a switch to
  profile it under the load);
* for the anchor, today's single-business ``deliverybot run`` on one business's file.

Figures, each printed with how it was measured (never asserted):

* start-up: launch to the first 200 from ``/health`` with N business files (announced before,
  as after a restart), and the first answer of one business, built on demand;
* memory: the host's RSS with N idle businesses against the empty host (0 businesses), per
  business; and again once each business was built by a turn (N built);
* add: a business file written while the host runs, to its bot's first answer;
* mixed load: turns at RATE a second spread over the N businesses (10 chats each), for
  SECONDS: achieved rate, latency from the push to the first and to the last message of the
  answer (p50/p95/p99), the fake's 429s, the host's CPU per turn beside the same turns' CPU on
  the single-business ``deliverybot run``; when p99 misses 50 ms, lower rates until one meets
  it, and a cProfile of the host under the load (top functions).

Subprocesses run with Python's bytecode cache on (as an installed package has it).
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_many_businesses.py`` (``--quick``: a few
businesses and seconds, what the smoke test runs; ``--businesses N``, ``--rates 10,20,40`` and
``--seconds S`` change the plan).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pstats
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, cast

import httpx

from benchmarks.many_businesses_world import (
    host_toml,
    name_of,
    single_toml,
    write_business,
)
from bot.config import Config
from bot.config.business_scan import content_sha256
from bot.hosting.announcements import Announcements
from bot.hosting.hosted_business import HostedBusiness

ROOT: Final = Path(__file__).resolve().parents[1]
BENCH: Final = ROOT / "benchmarks"
CHATS: Final = 10
P99_GOAL: Final = 0.050
WATCH_SECONDS: Final = 1.0
IDLE_MINUTES: Final = 15
TICKS: Final = os.sysconf("SC_CLK_TCK")
JSON = dict[str, Any]


@dataclass(frozen=True)
class Plan:
    """How big a run is."""

    businesses: int
    rate: float
    seconds: float
    single_rate: float
    single_seconds: float
    profile_seconds: float
    sweep: tuple[float, ...]  # the rates before ``rate``, rising
    pause: float  # a wait for a steady state (a rescan, a settled heap, an idle minute)
    overlap: bool  # the single-business run starts while the host is measured (quick only)


FULL = Plan(1000, 200.0, 15.0, 8.0, 15.0, 10.0, (25.0, 50.0, 100.0, 150.0), 3.0, False)
QUICK = Plan(10, 20.0, 2.0, 5.0, 1.5, 0.0, (), 0.3, True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def child_env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode
    return env


@dataclass
class Child:
    """A process of the benchmark: its CPU time and RSS read from ``/proc``."""

    process: subprocess.Popen[bytes]
    launched: float

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise LookupError("no VmRSS")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def spawn(command: list[str], cwd: Path, **options: Any) -> Child:
    """Start one of the benchmark's own commands (this interpreter, this tree's files)."""
    process = subprocess.Popen(command, env=child_env(), cwd=cwd, **options)  # noqa: S603
    return Child(process, time.time())


def launch_host(host_file: Path, profile: Path | None = None) -> Child:
    """``deliverybot run --config host_file``; with ``profile``, SIGUSR1 and SIGUSR2 start
    and stop a cProfile written there (``many_businesses_host.py``)."""
    command = [sys.executable, str(BENCH / "many_businesses_host.py"), str(host_file)]
    if profile is not None:
        command += ["--profile", str(profile)]
    return spawn(command, host_file.parent)


def launch_single(config: Path) -> Child:
    """Today's ``deliverybot run`` on one business's file."""
    command = [sys.executable, "-m", "bot", "run", "--config", str(config)]
    return spawn(command, config.parent, stderr=subprocess.DEVNULL)


async def known(metrics_url: str, child: Child, count: int, timeout: float = 120.0) -> float:
    """Seconds from ``child``'s launch to its ``/metrics`` counting ``count`` businesses
    known (``deliverybot_host_businesses{state="known"}``: the host has read every file)."""
    expected = f'deliverybot_host_businesses{{state="known"}} {float(count)}'
    async with httpx.AsyncClient(timeout=5.0) as client:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if expected in (await client.get(metrics_url)).text:
                    return time.time() - child.launched
            await asyncio.sleep(0.01)
    raise TimeoutError(f"{metrics_url} did not count {count} businesses in {timeout} s")


async def healthy(url: str, child: Child, timeout: float = 120.0) -> float:
    """Seconds from ``child``'s launch to the first 200 from ``url``/health."""
    async with httpx.AsyncClient(timeout=5.0) as client:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if child.process.poll() is not None:
                raise RuntimeError(f"{url}: exited with {child.process.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"{url}/health")).status_code == 200:
                    return time.time() - child.launched
            await asyncio.sleep(0.01)
    raise TimeoutError(f"{url} did not answer /health in {timeout} s")


@contextlib.asynccontextmanager
async def services(port: int) -> AsyncIterator[tuple[httpx.AsyncClient, Child]]:
    """A client at the services' controls, and their process."""
    command = [sys.executable, str(BENCH / "many_businesses_services.py"), str(port)]
    child = spawn(command, ROOT, stdout=subprocess.PIPE)
    process = child.process
    try:
        assert process.stdout is not None
        line = await asyncio.to_thread(process.stdout.readline)
        if line.strip() != b"ready":
            raise RuntimeError("the services' process did not start")
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=600) as client:
            yield client, child
    finally:
        child.stop()


async def control(client: httpx.AsyncClient, command: str, **request: Any) -> Any:
    response = await client.post(f"/_bench/{command}", json=request)
    response.raise_for_status()
    return response.json()


def announced(directory: Path, names: list[str]) -> None:
    """Note each business announced with its file as written, as a host that ran before
    leaves it (a first start announces every new file: a build each)."""
    markers = Announcements(directory)
    for name in names:
        fingerprint = content_sha256((directory / f"{name}.toml").read_bytes())
        # ``record`` reads the name and fingerprint only: no Config is parsed for it.
        markers.record(HostedBusiness(name, cast(Config, None), fingerprint))


def ms(seconds: float | None) -> str:
    return "  none" if seconds is None else f"{seconds * 1000:6.1f}"


def latency_line(label: str, figures: JSON) -> str:
    return (
        f"{label}: p50 {ms(figures['p50'])} ms, p95 {ms(figures['p95'])} ms, "
        f"p99 {ms(figures['p99'])} ms, max {ms(figures['max'])} ms"
    )


async def measured_load(
    client: httpx.AsyncClient,
    child: Child,
    fakes: Child,
    names: list[str],
    chats: int,
    rate: float,
    seconds: float,
) -> tuple[JSON, float]:
    """A load's figures and the CPU seconds ``child`` spent meanwhile; the figures say how
    busy the services' process (``fakes``) was, so a saturated fake is not taken for a slow
    host."""
    cpu, fakes_cpu = child.cpu_seconds(), fakes.cpu_seconds()
    figures = await control(
        client,
        "load",
        names=names,
        chats=chats,
        rate=rate,
        seconds=seconds,
        settle=min(1.0, seconds / 2),
    )
    figures["fakes_busy"] = (fakes.cpu_seconds() - fakes_cpu) / figures["seconds"]
    return figures, child.cpu_seconds() - cpu


def print_load(label: str, figures: JSON, cpu: float, idle: float = 0.0) -> None:
    """A load's figures; ``idle``: the process's CPU share with no turn, whose part of
    ``cpu`` is also shown taken off (what the turns themselves cost)."""
    turns = max(1, figures["turns"])
    per_turn = cpu / turns * 1000
    net = (cpu - idle * figures["seconds"]) / turns * 1000
    print(
        f"  {label}: {figures['turns']} turns in {figures['seconds']:.1f} s"
        f" ({figures['rate']:.0f}/s achieved), {figures['answered']} answered,"
        f" statuses {figures['statuses']}, {figures['restarts']} restarted,"
        f" 429s at the fake {figures['too_many']}, CPU {per_turn:.2f} ms/turn"
        f" ({net:.2f} without the idle CPU)"
    )
    print(
        f"    push errors {figures['push_errors']}; the services' process (fakes and"
        f" customers) used {figures['fakes_busy'] * 100:.0f} % of a core"
    )
    print(f"    {latency_line('first message', figures['first'])}")
    print(f"    {latency_line('last message ', figures['last'])}")
    calls = ", ".join(
        f"{m} {n / max(1, figures['turns']):.2f}" for m, n in sorted(figures["calls"].items())
    )
    print(f"    Bot API calls per turn: {calls}")


async def run(plan: Plan, scratch: Path) -> JSON:
    """Every figure, printed; what a test checks is returned (answers and refusals, never
    timings)."""
    summary: JSON = {}
    names = [name_of(number) for number in range(1, plan.businesses + 1)]
    added, solo = name_of(plan.businesses + 1), name_of(plan.businesses + 2)
    services_port, host_port, single_port = free_port(), free_port(), free_port()
    metrics_port, single_metrics_port = free_port(), free_port()
    metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
    services_url = f"http://127.0.0.1:{services_port}"
    host_url = f"http://127.0.0.1:{host_port}"
    print(f"Many businesses on one host: {plan.businesses} businesses, {os.cpu_count()} cores,")
    print(f"load average {os.getloadavg()[0]:.1f} at the start (other work shares the machine)")
    empty = scratch / "empty"
    (empty / "businesses").mkdir(parents=True)
    (empty / "host.toml").write_text(
        host_toml(host_port, metrics_port, idle_minutes=IDLE_MINUTES, watch_seconds=WATCH_SECONDS)
    )
    host = launch_host(empty / "host.toml")  # while the services start
    async with services(services_port) as (client, fakes):
        empty_start = await healthy(host_url, host)
        await asyncio.sleep(plan.pause)
        empty_rss = host.rss_mb()
        host.stop()
        await control(
            client, "register", names=[*names, added], host_url=host_url, services_url=services_url
        )
        single_url = f"http://127.0.0.1:{single_port}"
        await control(
            client, "register", names=[solo], host_url=single_url, services_url=services_url
        )
        single = scratch / "single"
        single.mkdir()
        (single / "bot.toml").write_text(
            single_toml(solo, services_url, single_port, single_metrics_port)
        )
        one = launch_single(single / "bot.toml") if plan.overlap else None
        # --- start-up and memory ----------------------------------------------------------
        full = scratch / "full"
        directory = full / "businesses"
        directory.mkdir(parents=True)
        (full / "host.toml").write_text(
            host_toml(
                host_port, metrics_port, idle_minutes=IDLE_MINUTES, watch_seconds=WATCH_SECONDS
            )
        )
        for name in names:
            write_business(directory, name, services_url)
        announced(directory, names)
        host = launch_host(full / "host.toml", profile=full / "host.prof")
        try:
            start = await healthy(host_url, host)
            loaded = await known(metrics_url, host, plan.businesses)
            start_cpu = host.cpu_seconds()
            await asyncio.sleep(max(plan.pause, WATCH_SECONDS))  # a rescan: the steady state
            idle_rss = host.rss_mb()
            print("start-up (from launch; wall time, and the CPU of the host by then):")
            print(
                f"  empty host {empty_start:.2f} s; {plan.businesses} businesses: /health"
                f" {start:.2f} s, every business known (the host's /metrics) {loaded:.2f} s,"
                f" {start_cpu:.2f} s CPU (goal <= 10 s)"
            )
            per_idle = (idle_rss - empty_rss) / plan.businesses * 1024
            print("memory (RSS of the host, /proc; none of the businesses built):")
            print(
                f"  empty host {empty_rss:.1f} MB, {plan.businesses} idle businesses"
                f" {idle_rss:.1f} MB: {per_idle:.0f} KB per idle business (goal <= 512 KB)"
            )
            [first] = await control(client, "turns", pairs=[[names[0], 0]])
            summary["first_answer_status"] = first["status"]
            print(
                f"first answer of one business, built on demand: {ms(first['first'])} ms "
                f"(status {first['status']}; push to its bot's first message at the fake)"
            )
            # --- add ----------------------------------------------------------------------
            written = time.perf_counter()
            write_business(directory, added, services_url)
            while True:
                [turn] = await control(client, "turns", pairs=[[added, 0]])
                if turn["first"] is not None:
                    break
                await asyncio.sleep(0.02)
            took = time.perf_counter() - written
            summary["added_answered"] = True
            print(
                f"add: a business file written to its bot's first answer {took:.2f} s"
                f" ([host] watch_seconds = {WATCH_SECONDS:g}; pushes every 20 ms until"
                f" one is answered; goal <= 1 s)"
            )
            # --- warm-up: every business built ------------------------------------------
            cpu, started = host.cpu_seconds(), time.perf_counter()
            warm = await control(client, "turns", pairs=[[n, 1] for n in names], concurrency=4)
            built_in = time.perf_counter() - started
            build_cpu = (host.cpu_seconds() - cpu) / len(names) * 1000
            built_rss = host.rss_mb()
            unanswered = sum(turn["first"] is None for turn in warm)
            summary["warm_up_unanswered"] = unanswered
            print(
                f"warm-up: one turn to each business (4 at a time) built them all in"
                f" {built_in:.1f} s, {build_cpu:.0f} ms CPU each, {unanswered} unanswered;"
                f" RSS {built_rss:.0f} MB:"
                f" {(built_rss - idle_rss) / len(names):.1f} MB per built business"
            )
            cpu = host.cpu_seconds()
            await asyncio.sleep(plan.pause)
            idle_cpu = (host.cpu_seconds() - cpu) / plan.pause
            print(
                f"  the host with every business built and no turn: {idle_cpu * 100:.0f} % CPU"
                f" (over {plan.pause:g} s)"
            )
            # --- mixed load ---------------------------------------------------------------
            print(
                f"mixed load: turns over {plan.businesses} businesses x {CHATS} chats (push to"
                f" /telegram -> message at the fake), rising rates of {plan.seconds:g} s each"
                f" up to {plan.rate:g}/s, the host settled between them:"
            )
            kept: float | None = None  # the highest rate whose p99 met the goal
            kept_cpu_turn: float | None = None
            kept_net = 0.0
            for rate in [*plan.sweep, plan.rate]:
                await settled(host)
                figures, cpu_used = await measured_load(
                    client, host, fakes, names, CHATS, rate, plan.seconds
                )
                print_load(f"host at {rate:g}/s", figures, cpu_used, idle_cpu)
                summary["host_load"] = figures
                p99 = figures["first"]["p99"]
                if p99 is not None and p99 <= P99_GOAL and figures["answered"] == figures["turns"]:
                    kept, kept_cpu_turn = rate, cpu_used / max(1, figures["turns"])
                    kept_net = (cpu_used - idle_cpu * figures["seconds"]) / max(1, figures["turns"])
                elif rate < plan.rate:
                    print(f"  p99 over 50 ms at {rate:g}/s: the lower rates are skipped")
                    break
            if rate != plan.rate:  # the target rate, for its figures, whatever the misses
                await settled(host)
                figures, cpu_used = await measured_load(
                    client, host, fakes, names, CHATS, plan.rate, plan.seconds
                )
                print_load(f"host at {plan.rate:g}/s", figures, cpu_used, idle_cpu)
                summary["host_load"] = figures
            if kept is None:
                print("  no rate tried kept p99 <= 50 ms with every turn answered")
            else:
                print(
                    f"  the highest rate tried with p99 <= 50 ms, every turn answered: {kept:g}/s"
                )
            host_cpu_turn = kept_cpu_turn or cpu_used / max(1, figures["turns"])
            host_net_turn = kept_net or (cpu_used - idle_cpu * figures["seconds"]) / max(
                1, figures["turns"]
            )
            if plan.profile_seconds:
                await settled(host)
                await profile(client, full / "host.prof", host, names, kept or plan.sweep[0], plan)
        finally:
            host.stop()
        # --- the same turns on today's single-business run ---------------------------------
        one = one or launch_single(single / "bot.toml")
        try:
            await healthy(single_url, one)
            await control(client, "turns", pairs=[[solo, index] for index in range(5)])
            chats = int(plan.single_rate * plan.single_seconds)
            figures, single_cpu = await measured_load(
                client, one, fakes, [solo], chats, plan.single_rate, plan.single_seconds
            )
        finally:
            one.stop()
        print(f"the same turns on a single-business `deliverybot run` ({chats} chats):")
        print_load(f"single at {plan.single_rate:g}/s", figures, single_cpu)
        summary["single_load"] = figures
        single_cpu_turn = single_cpu / max(1, figures["turns"])
        print(
            f"  host CPU per turn / single-business CPU per turn:"
            f" {host_cpu_turn / single_cpu_turn:.2f}x ({host_net_turn / single_cpu_turn:.2f}x"
            f" without the host's idle CPU; host at {kept or plan.rate:g}/s)"
        )
        stats = summary["fake"] = await control(client, "stats")
        print(f"the fake Bot API: 429s {stats['too_many']}, unknown methods {stats['unknown']},")
        print(f"  webhooks set {stats['webhooks_set']}, sandbox organisations {stats['sandboxes']}")
    return summary


async def settled(host: Child, most: float = 30.0) -> None:
    """Return once ``host`` spent under half a core for half a second (the previous load's
    queues are done), or after ``most`` seconds."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        cpu = host.cpu_seconds()
        await asyncio.sleep(0.5)
        if host.cpu_seconds() - cpu < 0.25:
            return


async def profile(
    client: httpx.AsyncClient, output: Path, host: Child, names: list[str], rate: float, plan: Plan
) -> None:
    """A cProfile of the host (its event loop's thread) under ``rate``: its top functions."""
    host.process.send_signal(signal.SIGUSR1)
    await control(client, "load", names=names, chats=CHATS, rate=rate, seconds=plan.profile_seconds)
    host.process.send_signal(signal.SIGUSR2)
    await asyncio.to_thread(_wait_for, output)
    stats = pstats.Stats(str(output))
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"where the host's time goes ({plan.profile_seconds:g} s at {rate:g}/s, cProfile of")
    print("  the event loop thread's CPU time; own time of the top functions, share of the total):")
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)  # type: ignore[attr-defined]
    for (file, line, function), (_, calls, own, _cumulative, _) in rows[:15]:
        where = file.replace(str(ROOT) + "/", "").split("site-packages/")[-1]
        print(f"  {own / total * 100:5.1f} %  {calls:8d} calls  {function} ({where}:{line})")


def _wait_for(path: Path) -> None:
    """Return once ``path`` is written (the profile, dumped at SIGUSR2)."""
    while not path.exists():
        time.sleep(0.1)
    time.sleep(0.5)  # written whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few businesses and seconds")
    parser.add_argument("--json", type=Path, help="also write the checked figures here")
    parser.add_argument("--businesses", type=int, help="how many (default 1000; quick 10)")
    parser.add_argument(
        "--rates", help="turns a second, rising, comma-separated; the last is the target's"
    )
    parser.add_argument("--seconds", type=float, help="of each rate's load")
    arguments = parser.parse_args()
    plan = QUICK if arguments.quick else FULL
    if arguments.businesses:
        plan = replace(plan, businesses=arguments.businesses)
    if arguments.rates:
        *sweep, rate = (float(each) for each in arguments.rates.split(","))
        plan = replace(plan, sweep=tuple(sweep), rate=rate)
    if arguments.seconds:
        plan = replace(plan, seconds=arguments.seconds)
    with tempfile.TemporaryDirectory(prefix="bench-many-") as scratch:
        summary = asyncio.run(run(plan, Path(scratch)))
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()

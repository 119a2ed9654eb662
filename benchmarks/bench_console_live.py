"""The console over HTTP with 10,000 deliveries, and its live list: the figures of issue 36.

- the list page and a delivery's page, whole (session, query, HTML), as the server answers
  them (``httpx.ASGITransport``: no socket), median and p95 of RUNS (goal: median <= 100 ms);
- from a signed status webhook's POST to the changed row's event on an open live stream
  (uvicorn on loopback; the relay's pass run as soon as the POST is answered, as the web app
  wakes its job), median and p95 of EVENTS (goal: <= 1 s);
- the memory one open live list costs the server: STREAMS streams opened over raw sockets,
  the process's traced allocations (``tracemalloc``) and RSS before and after, per stream.

The deliveries are ``bench_console_list.fill``'s. SQLite, then PostgreSQL when the local
server helper can start one.
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_console_live.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import statistics
import time
import tracemalloc
from collections.abc import AsyncIterator

import httpx

from benchmarks.bench_console_list import DELIVERIES, SEARCHED_ID, fill, on_both_backends
from bot.bot_core import BotCore, build_core
from bot.config import ConsoleConfig
from bot.settings import CoreSettings
from bot.staff.staff_door import StaffDoor
from bot.staff_console.console_guard import SESSION_COOKIE
from bot.store import Store
from bot.store.delivery_list import ListQuery
from tests.staff_console.live_webhook import SECRET, post_status
from tests.support.served import loopback_socket, serve_on, stop_serving

RUNS = 40
EVENTS = 30
STREAMS = 100
PUBLIC = "https://bot.example.com"
CONSOLE = ConsoleConfig(enabled=True, link_minutes=5, idle_minutes=60, session_hours=8)
PHONE = "%2B2348031234567"  # bench_console_list's searched phone, in a URL
STATUSES = ("picked_up", "in_transit", "matched")  # each event a second newer than the last
EARLY = ("awaiting_price", "pending", "matched")


def _figures(samples: list[float]) -> tuple[float, float]:
    """Median and p95, in milliseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95) - 1] * 1000


async def _signed_in(core: BotCore, store: Store) -> httpx.AsyncClient:
    door = StaffDoor(store, CONSOLE, PUBLIC, clock=store.clock)
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=core.web_app), base_url=PUBLIC)
    answer = await client.post((await door.invite("Bench", "viewer")).removeprefix(PUBLIC))
    assert answer.status_code == 303, answer.text
    return client


async def _page_times(client: httpx.AsyncClient, path: str) -> tuple[float, float]:
    samples = []
    for _ in range(RUNS):
        started = time.perf_counter()
        answer = await client.get(path)
        samples.append(time.perf_counter() - started)
        assert answer.status_code == 200, (path, answer.status_code)
    return _figures(samples)


@contextlib.asynccontextmanager
async def _served(core: BotCore) -> AsyncIterator[str]:
    sock = loopback_socket()
    server = await serve_on(sock, core.web_app, log_config=None, access_log=False)
    try:
        yield "http://{}:{}".format(*sock.getsockname()[:2])
    finally:
        assert core.console is not None
        core.console.close_streams()
        await stop_serving(server, sock)


async def _webhook_to_event(core: BotCore, store: Store, base: str, cookie: str) -> list[float]:
    """Seconds from each webhook's POST to its row's event, over EVENTS webhooks."""
    # A Telegram order on the list's first page before pickup: the first event moves it on.
    first_page = await store.delivery_list.page(ListQuery(), limit=50)
    newest = next(
        row.delivery_id
        for row in first_page
        if row.status in EARLY and row.chat.channel == "telegram"
    )
    headers = {"Cookie": f"{SESSION_COOKIE}={cookie}"}
    samples: list[float] = []
    timeout = httpx.Timeout(10.0, read=None)
    async with (
        httpx.AsyncClient(base_url=base, timeout=timeout) as client,
        client.stream("GET", "/console/deliveries/live", headers=headers) as stream,
    ):
        lines = stream.aiter_lines()
        assert (await anext(lines)).startswith("retry:")
        previous = "pending"
        for n in range(EVENTS):
            status = STATUSES[n % len(STATUSES)]
            started = time.perf_counter()
            await post_status(client, newest, status, previous=previous, seq=n + 1)
            await core.relay.process_pending()
            async with asyncio.timeout(10):
                async for line in lines:
                    if line.startswith("data:") and _shows(json.loads(line[5:]), newest, status):
                        break
            samples.append(time.perf_counter() - started)
            previous = status
    return samples


async def _memory_per_stream(base: str, cookie: str) -> tuple[float, float]:
    """Traced bytes and RSS bytes per open stream, over STREAMS streams."""
    host, port = base.removeprefix("http://").split(":")
    request = (
        f"GET /console/deliveries/live HTTP/1.1\r\nHost: {host}\r\n"
        f"Cookie: {SESSION_COOKIE}={cookie}\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()
    tracemalloc.start()
    traced_before, rss_before = tracemalloc.get_traced_memory()[0], _rss()
    opened = []
    for _ in range(STREAMS):
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(request)
        opened.append((reader, writer))
    for reader, _ in opened:
        await reader.readuntil(b"retry:")
    traced = (tracemalloc.get_traced_memory()[0] - traced_before) / STREAMS
    rss = (_rss() - rss_before) / STREAMS
    tracemalloc.stop()
    for _, writer in opened:
        writer.close()
    return traced, rss


def _shows(data: dict[str, str], delivery_id: str, status: str) -> bool:
    """Whether an event's data is ``delivery_id``'s row showing ``status``."""
    return data["id"] == delivery_id and f'class="status-{status}"' in data.get("html", "")


def _rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


async def measure(store: Store, backend: str) -> None:
    started = time.perf_counter()
    await fill(store)
    print(f"\n{backend}: {DELIVERIES:,} deliveries filled in {time.perf_counter() - started:.1f} s")
    settings = CoreSettings(
        partner_base_url="http://127.0.0.1:9",
        partner_api_key="sk_live_" + "0" * 32,
        public_base_url=PUBLIC,
        console=CONSOLE,
        signing_secrets=(SECRET,),
    )
    core = build_core(settings, store)
    try:
        client = await _signed_in(core, store)
        cookie = client.cookies[SESSION_COOKIE]
        print(f"{'server time':<44} {'median ms':>10} {'p95 ms':>8}")
        for name, path in (
            ("the list, first page", "/console/deliveries"),
            ("the list, pending, by phone", f"/console/deliveries?status=pending&q={PHONE}"),
            ("a delivery's page (50 events)", f"/console/deliveries/{SEARCHED_ID[:8]}"),
        ):  # fmt: skip
            median, p95 = await _page_times(client, path)
            print(f"{name:<44} {median:>10.1f} {p95:>8.1f}")
        await client.aclose()
        async with _served(core) as base:
            median, p95 = _figures(await _webhook_to_event(core, store, base, cookie))
            name = f"webhook POST -> row event ({EVENTS})"
            print(f"{name:<44} {median:>10.1f} {p95:>8.1f}")
            traced, rss = await _memory_per_stream(base, cookie)
            print(f"memory per open live list ({STREAMS} open): {traced / 1024:.1f} KiB traced, "
                  f"{rss / 1024:.1f} KiB RSS")  # fmt: skip
    finally:
        await core.aclose()


async def main() -> None:
    await on_both_backends(measure, "bench-console-live")


if __name__ == "__main__":
    asyncio.run(main())

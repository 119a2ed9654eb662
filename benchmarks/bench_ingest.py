"""P2, signed webhook ingest: the bot's endpoint beside a naive floor, driven by ``wrk``.

Three servers, each uvicorn + Starlette in its own process on 127.0.0.1, each with a fresh
SQLite file in WAL mode and the same ``synchronous`` setting:

* bot: the bot's real ``POST /hooks/partner`` from ``build_core`` (size limit, signature,
  full event parsing, ``store.inbox.add``, relay wake-up), answering 2xx only once the event
  is committed;
* floor: the naive ingest the issue names as the anchor: read the body, verify the same HMAC,
  one aiosqlite ``INSERT`` and ``commit()`` per event, answer;
* bot alone: the bot again, with its inbox's grouped commits taken out (each event committed
  by its own statement), to show what grouping is worth.

``wrk -t2 -c16`` posts pre-signed unique events (``event_body``, about 1.6 KB each; a Lua
script hands each connection the next line of a file written before the run, so signing is
not measured and no event repeats). Runs alternate between the servers (the order flips every
round) and each figure is the median of the runs, with the minimum beside it; p99 is wrk's own
latency percentile. The ratio bot/floor of the medians is the P2 figure (goal at least 0.9x,
with the bot's p99 at most 10 ms). Printed for ``synchronous=FULL`` (the default: each commit
waits for fsync, so the figure follows the disk) and ``NORMAL``.

Then, as before, the relay's latency: events posted at a steady 100 per second with the relay
running, time from posting each to ``Channel.send`` for it (median and p99).

wrk comes from the system packages: the benchmark runs ``apt-get install -y wrk`` when it is
missing and it may (as root, or with passwordless sudo), and otherwise says how to install it.
Prints figures only. Run: ``.venv/bin/python benchmarks/bench_ingest.py`` (about two minutes;
``--quick`` for one short run of each).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Literal

import aiosqlite
import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.bot_core import build_core
from bot.channels import ChannelRegistration
from bot.chat_ref import TELEGRAM, ChatRef
from bot.jobs import Scheduler
from bot.partner.signing import SIGNATURE_HEADER, SignatureError, sign, verify
from bot.runtime.heap import freeze_start_up_heap
from bot.settings import CoreSettings
from bot.store import Inbox, Store

SECRET = "whsec_benchmark_ingest_secret_01"
RELAY_RATE_PER_SECOND = 100
RELAY_EVENTS = 500
Synchronous = Literal["NORMAL", "FULL"]


def event_body(event_id: str, delivery_id: str, created: int) -> bytes:
    """A realistic ``delivery.status_changed`` body (about 1.6 KB, like the sandbox's)."""
    body = {
        "id": event_id,
        "type": "delivery.status_changed",
        "created": created,
        "data": {
            "object": {
                "id": delivery_id,
                "status": "matched",
                "title": "A pair of shoes in a box",
                "service_kind": "pickup_delivery",
                "request_source": "api",
                "package": {"description": "A pair of shoes in a box", "size": "small"},
                "payment": {
                    "delivery_fee": 2400,
                    "delivery_payment_status": "unpaid",
                    "currency_code": "NGN",
                    "customer_collection_method": "cash_on_delivery",
                },
                "pickup": {"address": "12 Herbert Macaulay Way, Yaba", "latitude": 6.509},
                "dropoff": {"address": "5 Awolowo Road, Ikoyi", "latitude": 6.45},
                "customer": {"sender_name": "Adaeze", "receiver_phone": "+2348098765432"},
                "tracking": {"url": f"https://track.bench/track/{delivery_id}/AC12"},
                "rider_assigned": True,
                "rider": {"id": "rdr_tunde", "name": "Tunde Bakare", "vehicle_type": "motorbike"},
                "created_at": "2027-01-15T08:00:00.000Z",
                "updated_at": "2027-01-15T08:00:05.000Z",
            },
            "previous_status": "pending",
        },
        "summary": "Delivery 3F2A9C1E was assigned to rider Tunde Bakare (motorbike).",
        "customer_message_hint": "Good news: Tunde is your rider and is heading to the pickup.",
        "docs_url": "https://docs.example/webhooks#delivery.status_changed",
        "agent_notes": ["Tell the customer who their rider is.", "The rider can be changed."],
    }
    return json.dumps(body, separators=(",", ":")).encode()


# --- the bot process ---------------------------------------------------------------------------


class Recorder:
    """A ``Channel`` that notes when each chat was sent to (monotonic clock)."""

    def __init__(self) -> None:
        self.sent_at: dict[int, float] = {}

    async def send(self, chat: ChatRef, text: str) -> int | None:
        chat_id = chat.id  # the channel's own id for the chat
        self.sent_at[chat_id] = time.monotonic()
        return None

    def otp_link(self, token: str) -> str:
        return f"/start otp_{token}"


async def serve_bot(with_relay: bool, database: Path, sync: Synchronous, ready: Queue[int]) -> None:
    store = await Store.connect(database, synchronous=sync)
    recorder = Recorder()
    settings = CoreSettings(
        partner_base_url="http://127.0.0.1:9/api/v1",  # never called: this figure is ingest
        partner_api_key="sk_live_bench_never_sent",
        signing_secrets=(SECRET,),
    )

    async def sent_times(request: Request) -> Response:
        return JSONResponse({str(chat): at for chat, at in recorder.sent_at.items()})

    async def stored(request: Request) -> Response:
        counts = await store.inbox.counts()
        return JSONResponse({"stored": counts.pending + counts.processed})

    routes = [Route("/bench/sent", sent_times), Route("/bench/stored", stored)]
    core = build_core(settings, store)
    core.register(ChannelRegistration(TELEGRAM, recorder, routes=routes))
    relay, app = core.relay, core.web_app
    jobs = Scheduler(leadership=store.leadership)
    if with_relay:
        jobs.add(relay)
    jobs.start()
    for n in range(RELAY_EVENTS if with_relay else 0):
        await store.deliveries.add(
            f"dlv-relay-{n}", ChatRef(TELEGRAM, n + 1), n + 1, time.time(), None, None
        )
    freeze_start_up_heap()  # as ``deliverybot run`` does once started
    await serve(app, ready)
    await jobs.stop()
    await core.aclose()
    await store.close()


def bot_process(with_relay: bool, database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_bot(with_relay, Path(database), sync, ready))


def ungrouped_bot_process(
    with_relay: bool, database: str, sync: Synchronous, ready: Queue[int]
) -> None:
    """The bot with each event committed alone (its inbox's grouped commits taken out), to
    show what grouping them is worth."""

    async def add_alone(
        inbox: Inbox, event_id: str, delivery_id: str, event_type: str, created: int, raw: bytes
    ) -> bool:
        sql = (
            "INSERT INTO inbox (event_id, delivery_id, event_type, created, raw_body, received_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING"
        )
        row = (event_id, delivery_id, event_type, created, raw, time.time())
        return await inbox._db.execute(sql, row) > 0

    Inbox.add = add_alone  # type: ignore[method-assign]
    bot_process(with_relay, database, sync, ready)


@contextlib.asynccontextmanager
async def running_bot(
    with_relay: bool, database: Path, sync: Synchronous
) -> AsyncIterator[httpx.AsyncClient]:
    """The bot in its own process; yields a client for it, and stops the process after."""
    context = multiprocessing.get_context("spawn")
    ready: Queue[int] = context.Queue()
    process = context.Process(target=bot_process, args=(with_relay, str(database), sync, ready))
    process.start()
    try:
        port = await asyncio.to_thread(ready.get, True, 30)
        base_url = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base_url) as client:
            for _ in range(300):  # uvicorn has no ready signal over a process boundary
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/health")).status_code == 200:
                        break
                await asyncio.sleep(0.02)
            yield client
    finally:
        process.terminate()
        await asyncio.to_thread(process.join, 10)


# --- the naive floor ----------------------------------------------------------------------------

FLOOR_SCHEMA = """CREATE TABLE IF NOT EXISTS inbox (event_id TEXT PRIMARY KEY, delivery_id TEXT,
    event_type TEXT, created INTEGER, raw_body BLOB, received_at REAL)"""


async def serve_floor(database: Path, sync: Synchronous, ready: Queue[int]) -> None:
    """The anchor: same HMAC, one aiosqlite insert + commit per event, nothing else."""
    conn = await aiosqlite.connect(database)
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute(f"PRAGMA synchronous={sync}")
    await conn.execute(FLOOR_SCHEMA)
    await conn.commit()

    async def ingest(request: Request) -> Response:
        raw = await request.body()
        try:
            verify(raw, request.headers.get(SIGNATURE_HEADER), SECRET)
        except SignatureError:
            return Response(status_code=400)
        event = json.loads(raw)
        await conn.execute(
            "INSERT INTO inbox VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (
                event["id"],
                event["data"]["object"]["id"],
                event["type"],
                event["created"],
                raw,
                time.time(),
            ),
        )
        await conn.commit()
        return JSONResponse({"ok": True})

    async def stored(request: Request) -> Response:
        rows = await conn.execute_fetchall("SELECT count(*) FROM inbox")
        return JSONResponse({"stored": next(iter(rows))[0]})

    app = Starlette(
        routes=[
            Route("/hooks/partner", ingest, methods=["POST"]),
            Route("/health", stored),
            Route("/bench/stored", stored),
        ]
    )
    await serve(app, ready)


def floor_process(with_relay: bool, database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_floor(Path(database), sync, ready))


async def serve(app: Callable[..., Awaitable[None]], ready: Queue[int]) -> None:
    # IPPROTO_TCP spelled out: asyncio sets TCP_NODELAY only on sockets that say so, and
    # without it every response waits ~40 ms for the peer's delayed ACK (Nagle).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    ready.put(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    await server.serve(sockets=[sock])  # until the parent terminates this process


# --- wrk ----------------------------------------------------------------------------------------

# Each wrk thread reads its own file of "<signature>\t<body>" lines and posts them in order.
WRK_SCRIPT = """
local counter = 1
local threads = 0
function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end
function init(args)
  events = {}
  for line in io.lines(args[1] .. "-" .. index .. ".tsv") do
    local tab = line:find("\t", 1, true)
    events[#events + 1] = {line:sub(1, tab - 1), line:sub(tab + 1)}
  end
end
function request()
  local event = events[counter]
  if event == nil then
    exhausted = true
    event = events[#events]
  else
    counter = counter + 1
  end
  return wrk.format("POST", "/hooks/partner",
    {["Content-Type"] = "application/json", ["Service-Signature"] = event[1]}, event[2])
end
"""
WRK_THREADS = 2
WRK_CONNECTIONS = 16


@dataclass(frozen=True)
class WrkRun:
    """One wrk run's figures."""

    events_per_second: float
    p99_ms: float
    requests: int
    refused: int


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


def write_events(prefix: Path, label: str, count: int) -> None:
    """``count`` pre-signed unique events, split across one file per wrk thread."""
    now = int(time.time())
    per_thread = count // WRK_THREADS
    for thread in range(WRK_THREADS):
        lines = []
        for n in range(per_thread):
            body = event_body(f"evt_{label}_{thread}_{n}", f"dlv-{n % 500}", now)
            lines.append(f"{sign(body, SECRET, now)}\t{body.decode()}\n")
        Path(f"{prefix}-{thread}.tsv").write_text("".join(lines))


_DURATION_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def run_wrk(
    wrk: str, script: Path, prefix: Path, port: int, seconds: int, *, path: str = "/hooks/partner"
) -> WrkRun:
    """One ``wrk -t2 -c16`` run against ``port`` (``path``); its events/s, p99 and counts."""
    result = subprocess.run(  # noqa: S603 - our own argv, no shell
        [
            wrk,
            f"-t{WRK_THREADS}",
            f"-c{WRK_CONNECTIONS}",
            f"-d{seconds}s",
            "--latency",
            "-s",
            str(script),
            f"http://127.0.0.1:{port}{path}",
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


@contextlib.contextmanager
def server(
    target: Callable[[bool, str, Synchronous, Queue[int]], None], database: Path, sync: Synchronous
) -> Iterator[int]:
    """``target`` serving in its own process; yields its port once it answers."""
    context = multiprocessing.get_context("spawn")
    ready: Queue[int] = context.Queue()
    process = context.Process(target=target, args=(False, str(database), sync, ready))
    process.start()
    try:
        port = ready.get(True, 60)
        for _ in range(500):  # uvicorn has no ready signal over a process boundary
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                    break
            time.sleep(0.02)
        yield port
    finally:
        process.terminate()
        process.join(10)


def stored_count(port: int) -> int:
    return int(httpx.get(f"http://127.0.0.1:{port}/bench/stored").json()["stored"])


def ingest_figures(directory: Path, sync: Synchronous, runs: int, seconds: int) -> None:
    wrk = ensure_wrk()
    script = directory / "ingest.lua"
    script.write_text(WRK_SCRIPT)
    # Enough unique events for a fast run; wrk repeats the last one only if they run out.
    per_run = 8_000 * seconds
    figures: dict[str, list[WrkRun]] = {"floor": [], "bot": [], "alone": []}
    with (
        server(floor_process, directory / f"floor-{sync}.db", sync) as floor_port,
        server(bot_process, directory / f"bot-{sync}.db", sync) as bot_port,
        server(ungrouped_bot_process, directory / f"alone-{sync}.db", sync) as alone_port,
    ):
        ports = {"floor": floor_port, "bot": bot_port, "alone": alone_port}
        for label, port in ports.items():  # warm both up: imports, caches, the WAL file
            write_events(directory / "warm", f"warm{sync}{label}", 2_000)
            run_wrk(wrk, script, directory / "warm", port, 1)
        for number in range(runs):
            order = ("floor", "bot", "alone")
            for label in order if number % 2 == 0 else reversed(order):
                prefix = directory / f"run-{label}"
                write_events(prefix, f"{sync}{label}{number}", per_run)
                before = stored_count(ports[label])
                run = run_wrk(wrk, script, prefix, ports[label], seconds)
                stored = stored_count(ports[label]) - before
                if stored < run.requests - WRK_CONNECTIONS:
                    print(
                        f"  note: {label} stored {stored} of {run.requests} requests "
                        "(events ran out and repeated)"
                    )
                figures[label].append(run)
    print(
        f"P2 signed webhook ingest, wrk -t{WRK_THREADS} -c{WRK_CONNECTIONS}, {seconds} s x "
        f"{runs} alternating runs each, synchronous={sync}"
    )
    medians = {}
    titles = {
        "floor": "naive floor (insert+commit)",
        "bot": "bot /hooks/partner",
        "alone": "bot, each event committed alone",
    }
    for label, title in titles.items():
        rates = [run.events_per_second for run in figures[label]]
        tails = [run.p99_ms for run in figures[label]]
        refused = sum(run.refused for run in figures[label])
        medians[label] = statistics.median(rates)
        print(
            f"  {title:31} {medians[label]:7.0f} events/s (min {min(rates):6.0f})   "
            f"p99 {statistics.median(tails):6.2f} ms (min {min(tails):5.2f})"
            + (f"   {refused} refused!" if refused else "")
        )
    print(
        f"  ratio bot/floor                 {medians['bot'] / medians['floor']:7.2f}x"
        "          (goal: at least 0.9x, bot p99 at most 10 ms)"
    )
    print(f"  ratio bot/bot alone             {medians['bot'] / medians['alone']:7.2f}x")


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


async def relay_latency_figures(directory: Path, sync: Synchronous) -> None:
    posted_at: dict[int, float] = {}
    async with running_bot(True, directory / f"relay-{sync}.db", sync) as client:

        async def post(n: int) -> None:
            body = event_body(f"evt_relay_{n}", f"dlv-relay-{n}", int(time.time()))
            headers = {SIGNATURE_HEADER: sign(body, SECRET, int(time.time()))}
            posted_at[n + 1] = time.monotonic()
            response = await client.post("/hooks/partner", content=body, headers=headers)
            if response.status_code != 200:
                raise RuntimeError(f"/hooks/partner answered {response.status_code}")

        started = time.monotonic()
        posts = []
        for n in range(RELAY_EVENTS):
            # A steady rate: each event leaves at its own time, whatever the previous one did.
            delay = started + n / RELAY_RATE_PER_SECOND - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            posts.append(asyncio.create_task(post(n)))
        await asyncio.gather(*posts)
        sent_at: dict[str, float] = {}
        async with asyncio.timeout(30):
            while len(sent_at) < RELAY_EVENTS:
                sent_at = (await client.get("/bench/sent")).json()
                await asyncio.sleep(0.05)

    delays = [sent_at[str(chat)] - at for chat, at in posted_at.items()]
    print(
        f"Webhook posted -> Channel.send issued: {RELAY_EVENTS} events at "
        f"{RELAY_RATE_PER_SECOND}/s, relay running, synchronous={sync}"
    )
    print(
        f"  median {statistics.median(delays) * 1000:6.2f} ms   p99 {p99(delays) * 1000:6.2f} ms"
        "   (goal: p99 at most 100 ms)"
    )


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    runs, seconds = (1, 2) if quick else (3, 4)
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as directory:
        for sync in ("FULL", "NORMAL"):
            ingest_figures(Path(directory), sync, runs, seconds)
        if not quick:
            asyncio.run(relay_latency_figures(Path(directory), "NORMAL"))
            asyncio.run(relay_latency_figures(Path(directory), "FULL"))


if __name__ == "__main__":
    main()

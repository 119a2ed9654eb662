"""P2, signed webhook ingest: the bot's endpoint beside a naive floor, driven by ``wrk``.

Three servers, each uvicorn + Starlette in its own process on 127.0.0.1, each with a fresh
SQLite file in WAL mode and the same ``synchronous`` setting:

* bot: the bot's real ``POST /hooks/partner`` from ``build_core`` (size limit, signature,
  full event parsing, ``store.inbox.add``, relay wake-up), answering 2xx only once the event
  is committed;
* floor: the naive ingest the issue names as the anchor: read the body, verify the same HMAC,
  one aiosqlite ``INSERT`` and ``commit()`` per event (autocommit: each event its own
  transaction and fsync), answer;
* bot alone: the bot again, with its inbox's grouped commits taken out (each event committed
  by its own statement), to show what grouping is worth.

``wrk -t2 -c16`` posts pre-signed unique events (``event_body``, about 1.6 KB each; a Lua
script hands each connection the next line of a file written before the run, so signing is
not measured and no event repeats). The harness is ``wrk_ingest``'s (shared with
``bench_telegram_ingest``): runs alternate between the servers (the order flips every round),
each figure is the median of the runs with the best beside it, p99 is wrk's own latency
percentile, and each server's CPU time per request and rows per commit are printed too (what
a busy machine moves least). The ratio bot/floor of the medians is the P2 figure (goal at
least 1.5x under ``synchronous=FULL``, with the bot's p99 at most 10 ms). Printed for
``synchronous=FULL`` (the default: each commit waits for fsync, so the figure follows the
disk) and ``NORMAL``.

Then, as before, the relay's latency: events posted at a steady 100 per second with the relay
running, time from posting each to ``Channel.send`` for it (median and p99).

wrk comes from the system packages: the benchmark runs ``apt-get install -y wrk`` when it is
missing and it may (as root, or with passwordless sudo), and otherwise says how to install it.
Prints figures only. Run: ``.venv/bin/python benchmarks/bench_ingest.py`` (about two minutes;
``--quick`` for one short run of each; ``--fsync-delay-ms 1`` with each fsync 1 ms slower, as on
a networked cloud volume: ``wrk_ingest.slowed_disk``, needs strace).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from multiprocessing.queues import Queue
from pathlib import Path

import aiosqlite
import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from wrk_ingest import (  # beside this script: the P2 harness
    Commits,
    Comparison,
    Contender,
    Synchronous,
    against_floor,
    compare,
    serve,
    slowed_disk,
    write_lines,
    wrk_script,
)

from bot.bot_core import build_core
from bot.channels import ChannelRegistration
from bot.chat_ref import TELEGRAM, ChatRef
from bot.jobs import Scheduler
from bot.partner.signing import SIGNATURE_HEADER, SignatureError, sign, verify
from bot.runtime.heap import freeze_start_up_heap
from bot.settings import CoreSettings
from bot.store import Inbox, Store
from bot.telegram.telegram_kind import TELEGRAM_KIND

SECRET = "whsec_benchmark_ingest_secret_01"
RELAY_RATE_PER_SECOND = 100
RELAY_EVENTS = 500


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
    Commits.count_grouped()
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
        return JSONResponse({"stored": counts.pending + counts.processed, "commits": Commits.count})

    routes = [Route("/bench/sent", sent_times), Route("/bench/stored", stored)]
    core = build_core(settings, store)
    core.register(ChannelRegistration(TELEGRAM_KIND, recorder, routes=routes))
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


def bot_process(database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_bot(False, Path(database), sync, ready))


def relaying_bot_process(database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_bot(True, Path(database), sync, ready))


def ungrouped_bot_process(database: str, sync: Synchronous, ready: Queue[int]) -> None:
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
        Commits.add()
        return await inbox._db.execute(sql, row) > 0

    Inbox.add = add_alone  # type: ignore[method-assign]
    bot_process(database, sync, ready)


@contextlib.asynccontextmanager
async def running_bot(
    with_relay: bool, database: Path, sync: Synchronous
) -> AsyncIterator[httpx.AsyncClient]:
    """The bot in its own process; yields a client for it, and stops the process after."""
    context = multiprocessing.get_context("spawn")
    ready: Queue[int] = context.Queue()
    target = relaying_bot_process if with_relay else bot_process
    process = context.Process(target=target, args=(str(database), sync, ready))
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
    # Autocommit: each INSERT is its own transaction. In sqlite3's default mode the INSERT opens
    # a transaction that the next request's INSERT joins whenever it is queued before the first
    # one's commit(), so 16 connections shared commits by accident (about 3.3 rows an fsync,
    # counted with strace): not the naive one-commit-per-request this floor stands for.
    conn = await aiosqlite.connect(database, isolation_level=None)
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
        count = next(iter(rows))[0]
        return JSONResponse({"stored": count, "commits": count})

    app = Starlette(
        routes=[
            Route("/hooks/partner", ingest, methods=["POST"]),
            Route("/health", stored),
            Route("/bench/stored", stored),
        ]
    )
    await serve(app, ready)


def floor_process(database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_floor(Path(database), sync, ready))


def partner_lines(label: str) -> Callable[[int, int], list[str]]:
    """A wrk thread's pre-signed unique events: ``<signature>\t<body>`` lines."""

    def lines(thread: int, count: int) -> list[str]:
        now = int(time.time())
        made = []
        for n in range(count):
            body = event_body(f"evt_{label}_{thread}_{n}", f"dlv-{n % 500}", now)
            made.append(f"{sign(body, SECRET, now)}\t{body.decode()}\n")
        return made

    return lines


def partner_comparison(runs: int, seconds: int) -> Comparison:
    batches = itertools.count()

    def write_requests(prefix: Path, count: int) -> None:
        write_lines(prefix, partner_lines(f"b{next(batches)}"), count)

    return against_floor(
        "P2 signed webhook ingest",
        "events",
        wrk_script("/hooks/partner", per_line_header=SIGNATURE_HEADER),
        write_requests,
        (
            floor_process,
            Contender("bot", "bot /hooks/partner", bot_process),
            Contender("alone", "bot, each event committed alone", ungrouped_bot_process),
        ),
        runs=runs,
        seconds=seconds,
    )


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
    slowed_disk(sys.argv)
    quick = "--quick" in sys.argv[1:]
    runs, seconds = (1, 2) if quick else (3, 4)
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as directory:
        for sync in ("FULL", "NORMAL"):
            compare(partner_comparison(runs, seconds), Path(directory), sync)
        if not quick:
            asyncio.run(relay_latency_figures(Path(directory), "NORMAL"))
            asyncio.run(relay_latency_figures(Path(directory), "FULL"))


if __name__ == "__main__":
    main()

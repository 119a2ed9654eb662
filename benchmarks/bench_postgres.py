"""PostgreSQL beside SQLite: webhook ingest and relay latency, measured in the same run.

The bot side runs in its own process (uvicorn on 127.0.0.1), built by the one wiring
(``build_core``) over each store in turn:

* SQLite, ``synchronous=FULL`` (the default: every commit waits for the disk);
* SQLite, ``synchronous=NORMAL``;
* PostgreSQL on a throwaway local server with its durable defaults (``fsync`` on, every commit
  flushed: the fair twin of SQLite ``FULL``), over loopback TCP.

For each, as ``bench_ingest`` does and each on a fresh database: (1) ingest, signed events
posted to the real ``POST /hooks/partner`` by a few concurrent senders with the relay off
(events per second, p99 per request); (2) relay latency, events posted at a steady rate with
the relay running, from posting each to the relay calling ``Channel.send`` for it (median,
p99). The event bodies, the recording channel and ``p99`` are ``bench_ingest``'s (which
now drives its own ingest with wrk); the concurrent senders are this file's. Prints figures
only.
Run: ``.venv/bin/python benchmarks/bench_postgres.py`` (about a minute; needs the PostgreSQL
server binaries, which ``make bench`` installs).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import shutil
import socket
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from multiprocessing.queues import Queue
from pathlib import Path

import httpx
import uvicorn
from bench_ingest import SECRET, Recorder, event_body, p99
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.bot_core import build_core
from bot.channels import ChannelRegistration
from bot.chat_ref import TELEGRAM, ChatRef
from bot.jobs import Scheduler
from bot.partner.signing import SIGNATURE_HEADER, sign
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.settings import CoreSettings
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres
from bot.telegram.telegram_kind import TELEGRAM_KIND

INGEST_EVENTS = 1_500
RELAY_EVENTS = 400
RELAY_RATE_PER_SECOND = 100
SENDERS = 4  # concurrent senders of the ingest phase

# (label, backend, where): where is a SQLite file name or a PostgreSQL DSN.
Target = tuple[str, str, str]


async def open_store(backend: str, where: str, media: Path) -> Store:
    if backend == "postgres":
        return await Store.connect_postgres(where, media_dir=media, channels=SHIPPED_CHANNEL_KINDS)
    return await Store.connect(
        where, media_dir=media, synchronous="FULL" if backend == "sqlite:FULL" else "NORMAL"
    )


async def serve_bot(
    backend: str, where: str, media: str, with_relay: bool, ready: Queue[int]
) -> None:
    store = await open_store(backend, where, Path(media))
    recorder = Recorder()
    settings = CoreSettings(
        partner_base_url="http://127.0.0.1:9/api/v1",  # never called: these figures are relay
        partner_api_key="sk_live_bench_never_sent",
        signing_secrets=(SECRET,),
    )

    async def sent_times(request: Request) -> Response:
        return JSONResponse({str(chat): at for chat, at in recorder.sent_at.items()})

    core = build_core(settings, store)
    core.register(
        ChannelRegistration(TELEGRAM_KIND, recorder, routes=[Route("/bench/sent", sent_times)])
    )
    jobs = Scheduler(leadership=store.leadership)
    if with_relay:
        jobs.add(core.relay)
    jobs.start()
    for n in range(RELAY_EVENTS if with_relay else 0):
        await store.deliveries.add(
            f"dlv-relay-{n}", ChatRef(TELEGRAM, n + 1), n + 1, time.time(), None, None
        )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    ready.put(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(core.web_app, log_level="warning", access_log=False))
    await server.serve(sockets=[sock])
    await jobs.stop()
    await core.aclose()
    await store.close()


def bot_process(backend: str, where: str, media: str, with_relay: bool, ready: Queue[int]) -> None:
    asyncio.run(serve_bot(backend, where, media, with_relay, ready))


@contextlib.asynccontextmanager
async def running_bot(
    backend: str, where: str, media: Path, with_relay: bool
) -> AsyncIterator[httpx.AsyncClient]:
    context = multiprocessing.get_context("spawn")
    ready: Queue[int] = context.Queue()
    args = (backend, where, str(media), with_relay, ready)
    process = context.Process(target=bot_process, args=args)
    process.start()
    try:
        port = await asyncio.to_thread(ready.get, True, 60)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            for _ in range(300):  # uvicorn has no ready signal over a process boundary
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/health")).status_code == 200:
                        break
                await asyncio.sleep(0.02)
            yield client
    finally:
        process.terminate()
        await asyncio.to_thread(process.join, 10)


async def send_all(
    client: httpx.AsyncClient, path: str, bodies: Sequence[bytes]
) -> tuple[float, list[float]]:
    """Post ``bodies`` signed, from ``SENDERS`` concurrent senders; (seconds taken, the time
    of each request)."""
    queue = list(reversed(bodies))
    latencies: list[float] = []

    async def sender() -> None:
        while queue:
            body = queue.pop()
            headers = {SIGNATURE_HEADER: sign(body, SECRET, int(time.time()))}
            started = time.perf_counter()
            response = await client.post(path, content=body, headers=headers)
            latencies.append(time.perf_counter() - started)
            if response.status_code != 200:
                raise RuntimeError(f"{path} answered {response.status_code}")

    started = time.perf_counter()
    await asyncio.gather(*(sender() for _ in range(SENDERS)))
    return time.perf_counter() - started, latencies


async def ingest(backend: str, where: str, media: Path) -> tuple[float, float]:
    """(events/s, p99 seconds per request) of ``POST /hooks/partner``, relay not running."""
    now = int(time.time())
    async with running_bot(backend, where, media, with_relay=False) as client:
        warm = [event_body(f"evt_warm_{n}", f"dlv-warm-{n}", now) for n in range(100)]
        await send_all(client, "/hooks/partner", warm)
        bodies = [event_body(f"evt_in_{n}", f"dlv-in-{n}", now) for n in range(INGEST_EVENTS)]
        taken, latencies = await send_all(client, "/hooks/partner", bodies)
    return INGEST_EVENTS / taken, p99(latencies)


async def relay_latency(backend: str, where: str, media: Path) -> tuple[float, float]:
    """(median, p99) seconds from posting an event to the relay's ``Channel.send`` for it."""
    posted_at: dict[int, float] = {}
    async with running_bot(backend, where, media, with_relay=True) as client:

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
            delay = started + n / RELAY_RATE_PER_SECOND - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            posts.append(asyncio.create_task(post(n)))
        await asyncio.gather(*posts)
        sent_at: dict[str, float] = {}
        async with asyncio.timeout(120):
            while len(sent_at) < RELAY_EVENTS:
                sent_at = (await client.get("/bench/sent")).json()
                await asyncio.sleep(0.05)
    delays = [sent_at[str(chat)] - at for chat, at in posted_at.items()]
    return statistics.median(delays), p99(delays)


async def main() -> None:
    base = Path(tempfile.mkdtemp(prefix="bench-postgres-"))
    # A directory of its own: when run as root it is handed to the server's user.
    server_dir = Path(tempfile.mkdtemp(prefix="bench-postgres-server-"))
    try:
        server = LocalPostgres.start(server_dir, durable=True)
    except BaseException:
        shutil.rmtree(base, ignore_errors=True)
        shutil.rmtree(server_dir, ignore_errors=True)
        raise
    try:
        targets: list[Target] = [
            ("SQLite synchronous=FULL", "sqlite:FULL", str(base / "full")),
            ("SQLite synchronous=NORMAL", "sqlite:NORMAL", str(base / "normal")),
            ("PostgreSQL (fsync on)", "postgres", "bench"),
        ]
        print(
            f"Webhook ingest ({INGEST_EVENTS} signed events, {SENDERS} concurrent senders, "
            f"POST /hooks/partner over loopback, relay off) and relay latency (webhook posted -> "
            f"Channel.send, {RELAY_EVENTS} events at {RELAY_RATE_PER_SECOND}/s, a fresh store), "
            "same run:"
        )
        columns = ("ingest", "ingest p99", "relay med", "relay p99")
        print(f"  {'store':27} {columns[0]:>12} {columns[1]:>11} {columns[2]:>10} {columns[3]:>10}")
        for label, backend, where in targets:

            async def fresh(phase: str, backend: str = backend, where: str = where) -> str:
                if backend == "postgres":
                    return await server.create_database(f"{where}_{phase}")
                return f"{where}-{phase}.db"

            media = base / f"media-{backend}"
            rate, ingest_p99 = await ingest(backend, await fresh("ingest"), media)
            median, relay_p99 = await relay_latency(backend, await fresh("relay"), media)
            print(
                f"  {label:27} {rate:7.0f} ev/s {ingest_p99 * 1000:8.2f} ms "
                f"{median * 1000:7.2f} ms {relay_p99 * 1000:7.2f} ms"
            )
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)
        shutil.rmtree(server_dir, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())

"""Ingest figures: signed Partner webhooks into the durable inbox over loopback HTTP.

The bot side runs in its own process (uvicorn on 127.0.0.1, one store), so the figures are not
mixed with the senders' own work. Both endpoints are served by the same server over the same
store and fed the same kind of signed events by the same few concurrent httpx senders, in
alternating rounds:

* (a) the bot's real ``POST /hooks/partner`` (size limit, signature, full event parsing, inbox,
  relay wake-up);
* (b) a minimal endpoint: read the body, verify the signature, one inbox insert.

The ratio (a)/(b) of events per second is what the real endpoint's care costs (goal: at least
0.8x). Then, with the relay running in the bot process, events are posted at a steady 100 per
second and the time from posting each to the relay calling ``Channel.send`` for it is measured
(goal: p99 at most 100 ms). It includes the loopback HTTP hop, so it is an upper bound of
"received to send". Both processes read the same monotonic clock.

The ingest comparison runs the store with ``synchronous=NORMAL``, so it measures the endpoints
rather than the disk. The latency is measured twice: with ``NORMAL``, and with ``FULL`` (the
bot's default, every commit waits for fsync), whose tail follows the disk's fsync times: a
relayed event costs three commits (the inbox insert, the claim before the send, and one for
everything after it: marked sent, the chat's view, the tracking link, processed), so the disk
has to keep up with 300 fsyncs a second. Prints figures only.
Run: ``.venv/bin/python benchmarks/bench_ingest.py`` (about 25 seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import socket
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Literal

import httpx
import uvicorn
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.bot_core import CoreSettings, build_core
from bot.console import CONSOLE_WORDS
from bot.partner.signing import SIGNATURE_HEADER, SignatureError, sign, verify
from bot.store import Store

SECRET = "whsec_benchmark_ingest_secret_01"
REQUESTS_PER_ENDPOINT = 2_000
ROUNDS = 4
SENDERS = 4
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


def minimal_route(store: Store) -> Route:
    """The baseline: verify, then one insert; no size limit, no model, no wake-up."""

    async def ingest(request: Request) -> Response:
        raw = await request.body()
        try:
            verify(raw, request.headers.get(SIGNATURE_HEADER), SECRET)
        except SignatureError:
            return Response(status_code=400)
        event = json.loads(raw)
        await store.inbox.add(
            event["id"], event["data"]["object"]["id"], event["type"], event["created"], raw
        )
        return JSONResponse({"ok": True})

    return Route("/minimal", ingest, methods=["POST"])


class Recorder:
    """A ``Channel`` that notes when each chat was sent to (monotonic clock)."""

    def __init__(self) -> None:
        self.sent_at: dict[int, float] = {}

    async def send(self, chat_id: int, text: str) -> int | None:
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

    routes = [minimal_route(store), Route("/bench/sent", sent_times)]
    core = build_core(settings, store, recorder, CONSOLE_WORDS, web_routes=routes)
    relay, app = core.relay, core.web_app
    worker = asyncio.create_task(relay.run()) if with_relay else None
    for n in range(RELAY_EVENTS if with_relay else 0):
        await store.deliveries.add(f"dlv-relay-{n}", n + 1, n + 1, time.time(), None, None)
    # IPPROTO_TCP spelled out: asyncio sets TCP_NODELAY only on sockets that say so, and
    # without it every response waits ~40 ms for the peer's delayed ACK (Nagle).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    ready.put(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    await server.serve(sockets=[sock])  # until the parent terminates this process
    if worker is not None:
        worker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await worker
    await core.aclose()
    await store.close()


def bot_process(with_relay: bool, database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_bot(with_relay, Path(database), sync, ready))


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


# --- the senders ---------------------------------------------------------------------------------


async def send_all(
    client: httpx.AsyncClient, path: str, bodies: Sequence[bytes]
) -> tuple[float, list[float]]:
    """Post ``bodies`` from ``SENDERS`` concurrent senders; (seconds taken, per-request times)."""
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


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


async def ingest_figures(directory: Path, sync: Synchronous) -> None:
    paths = ("/hooks/partner", "/minimal")
    seconds = dict.fromkeys(paths, 0.0)
    latencies: dict[str, list[float]] = {path: [] for path in paths}
    per_round = REQUESTS_PER_ENDPOINT // ROUNDS
    now = int(time.time())
    async with running_bot(False, directory / "ingest.db", sync) as client:
        warm = [event_body(f"evt_warm_{n}", f"dlv-warm-{n}", now) for n in range(200)]
        await send_all(client, "/minimal", warm[:100])
        await send_all(client, "/hooks/partner", warm[100:])
        for round_number in range(ROUNDS):
            # Alternate which endpoint goes first, so neither always meets a fuller inbox.
            for path in paths[:: 1 if round_number % 2 == 0 else -1]:
                bodies = [
                    event_body(f"evt{path}/{round_number}/{n}", f"dlv-{n}", now)
                    for n in range(per_round)
                ]
                taken, times = await send_all(client, path, bodies)
                seconds[path] += taken
                latencies[path] += times

    rates = {path: REQUESTS_PER_ENDPOINT / seconds[path] for path in paths}
    print(
        f"Signed webhook ingest over loopback HTTP: {REQUESTS_PER_ENDPOINT} events per endpoint, "
        f"{SENDERS} concurrent senders, synchronous={sync}"
    )
    for label, path in (("(a) /hooks/partner", paths[0]), ("(b) verify + insert", paths[1])):
        print(
            f"  {label:21} {rates[path]:7.0f} events/s   p99 {p99(latencies[path]) * 1000:6.2f} ms"
        )
    ratio = rates[paths[0]] / rates[paths[1]]
    print(f"  ratio (a)/(b)         {ratio:7.2f}x          (goal: at least 0.8x)")


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


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as directory:
        await ingest_figures(Path(directory), "NORMAL")
        await relay_latency_figures(Path(directory), "NORMAL")
        await relay_latency_figures(Path(directory), "FULL")


if __name__ == "__main__":
    asyncio.run(main())

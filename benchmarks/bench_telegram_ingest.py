"""P2 for Telegram: updates into the durable update inbox, beside a naive floor, with ``wrk``.

The harness of ``bench_ingest`` (uvicorn + Starlette in a process of its own on 127.0.0.1, a
fresh SQLite file in WAL mode, ``wrk -t2 -c16`` posting pre-written unique updates, runs
alternating, medians with the minimum beside them), for ``POST /telegram``:

* bot: the bot's real route (``bot.telegram.webhook_route``) over PTB's Application in webhook
  mode: the secret token compared, the body read and checked (``update_check``), the update
  stored in ``store.telegram_inbox`` (grouped commits, the partner inbox's write path) and put
  on PTB's queue, 200 only once it is committed. The queue is drained by a task that drops
  each update: what is measured is ingest, as for the partner events;
* no inbox: the same route without the inbox (the bot before it): nothing is stored;
* floor: the naive durable ingest: compare the token, parse the JSON, one aiosqlite
  ``INSERT`` and ``commit()`` per update, answer.

Printed: updates/s and wrk's p99 for each, the ratio bot/floor (goal, as for partner events:
at least 1.5x under ``synchronous=FULL``, p99 at most 10 ms) and bot/no inbox (what storing
costs ingest). Run: ``.venv/bin/python benchmarks/bench_telegram_ingest.py`` (``--quick`` for
one short run of each).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing.queues import Queue
from pathlib import Path

import aiosqlite
from bench_ingest import (  # beside this script: the harness of P2
    WRK_CONNECTIONS,
    WRK_THREADS,
    Synchronous,
    WrkRun,
    ensure_wrk,
    run_wrk,
    serve,
    server,
    stored_count,
)
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from bot.config import Config
from bot.store import Store
from bot.telegram.application import build_application
from bot.telegram.webhook_route import SECRET_TOKEN_HEADER, TELEGRAM_PATH, telegram_route

TOKEN = "7000000001:AABenchmarkTokenForTelegramBench01"
SECRET_TOKEN = "bench-ingest-secret-token"

# Each wrk thread posts the lines of its own file, in order, with the secret token header.
WRK_SCRIPT = """
local counter = 1
local threads = 0
function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end
function init(args)
  updates = {}
  for line in io.lines(args[1] .. "-" .. index .. ".jsonl") do
    updates[#updates + 1] = line
  end
end
function request()
  local update = updates[counter]
  if update == nil then
    update = updates[#updates]
  else
    counter = counter + 1
  end
  return wrk.format("POST", "/telegram",
    {["Content-Type"] = "application/json",
     ["X-Telegram-Bot-Api-Secret-Token"] = "bench-ingest-secret-token"}, update)
end
"""


def update_body(update_id: int, chat_id: int) -> str:
    """A customer's text message, as Telegram sends it (about 400 bytes)."""
    user = {"id": chat_id, "is_bot": False, "first_name": "Ada", "language_code": "en"}
    message = {
        "message_id": update_id,
        "date": int(time.time()),
        "chat": {"id": chat_id, "type": "private", "first_name": "Ada"},
        "from": user,
        "text": "The parcel is at the reception, ask for Bola on the second floor please.",
    }
    return json.dumps({"update_id": update_id, "message": message})


def write_updates(prefix: Path, first_id: int, count: int) -> None:
    per_thread = count // WRK_THREADS
    for thread in range(WRK_THREADS):
        start = first_id + thread * per_thread
        lines = [update_body(start + n, 100_000 + n % 500) + "\n" for n in range(per_thread)]
        Path(f"{prefix}-{thread}.jsonl").write_text("".join(lines))


def bench_telegram_config(directory: Path) -> Config:
    data = {
        "partner": {"base_url": "http://127.0.0.1:9/api/v1", "api_key": "sk_live_never_sent"},
        "telegram": {
            "token": TOKEN,
            "mode": "webhook",
            "public_base_url": "https://localhost",
            "secret_token": SECRET_TOKEN,
        },
        "operators": {},
        "storage": {"path": "bot.sqlite3"},
        "geocoding": {},
        "relay": {},
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": directory})


async def serve_route(
    with_inbox: bool, database: Path, sync: Synchronous, ready: Queue[int]
) -> None:
    store = await Store.connect(database, synchronous=sync)
    application = build_application(bench_telegram_config(database.parent).telegram)
    inbox = store.telegram_inbox if with_inbox else None
    route = telegram_route(application, SECRET_TOKEN, inbox=inbox)
    taken = 0

    async def drain() -> None:
        nonlocal taken
        while True:
            await application.update_queue.get()
            taken += 1

    async def stored(request: Request) -> Response:
        count = await store.telegram_inbox.count() if with_inbox else taken
        return JSONResponse({"stored": count})

    draining = asyncio.create_task(drain())
    app = Starlette(routes=[route, Route("/health", stored), Route("/bench/stored", stored)])
    await serve(app, ready)
    draining.cancel()
    await store.close()


def bot_process(with_relay: bool, database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_route(True, Path(database), sync, ready))


def no_inbox_process(with_relay: bool, database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_route(False, Path(database), sync, ready))


FLOOR_SCHEMA = """CREATE TABLE IF NOT EXISTS updates (update_id INTEGER PRIMARY KEY,
    chat_id INTEGER, body TEXT, received_at REAL)"""


async def serve_floor(database: Path, sync: Synchronous, ready: Queue[int]) -> None:
    """The anchor: the same token check, one insert + commit per update, nothing else."""
    conn = await aiosqlite.connect(database)
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute(f"PRAGMA synchronous={sync}")
    await conn.execute(FLOOR_SCHEMA)
    await conn.commit()
    expected = SECRET_TOKEN.encode()

    async def ingest(request: Request) -> Response:
        given = request.headers.get(SECRET_TOKEN_HEADER, "").encode()
        if not hmac.compare_digest(given, expected):
            return PlainTextResponse("Forbidden", 403)
        raw = await request.body()
        update = json.loads(raw)
        chat_id = update["message"]["chat"]["id"]
        await conn.execute(
            "INSERT INTO updates VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (update["update_id"], chat_id, raw.decode(), time.time()),
        )
        await conn.commit()
        return PlainTextResponse("OK")

    async def stored(request: Request) -> Response:
        rows = await conn.execute_fetchall("SELECT count(*) FROM updates")
        return JSONResponse({"stored": next(iter(rows))[0]})

    app = Starlette(
        routes=[
            Route(TELEGRAM_PATH, ingest, methods=["POST"]),
            Route("/health", stored),
            Route("/bench/stored", stored),
        ]
    )
    await serve(app, ready)


def floor_process(with_relay: bool, database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_floor(Path(database), sync, ready))


def ingest_figures(directory: Path, sync: Synchronous, runs: int, seconds: int) -> None:
    wrk = ensure_wrk()
    script = directory / "telegram.lua"
    script.write_text(WRK_SCRIPT)
    per_run = 8_000 * seconds
    figures: dict[str, list[WrkRun]] = {"floor": [], "bot": [], "no inbox": []}
    next_id = 1
    with (
        server(floor_process, directory / f"floor-{sync}.db", sync) as floor_port,
        server(bot_process, directory / f"bot-{sync}.db", sync) as bot_port,
        server(no_inbox_process, directory / f"plain-{sync}.db", sync) as plain_port,
    ):
        ports = {"floor": floor_port, "bot": bot_port, "no inbox": plain_port}
        for port in ports.values():  # warm up: imports, caches, the WAL file
            write_updates(directory / "warm", next_id, 2_000)
            next_id += 2_000
            run_wrk(wrk, script, directory / "warm", port, 1, path=TELEGRAM_PATH)
        for number in range(runs):
            order = tuple(ports)
            for label in order if number % 2 == 0 else reversed(order):
                prefix = directory / f"run-{number}"
                write_updates(prefix, next_id, per_run)
                next_id += per_run
                before = stored_count(ports[label])
                run = run_wrk(wrk, script, prefix, ports[label], seconds, path=TELEGRAM_PATH)
                stored = stored_count(ports[label]) - before
                if stored < run.requests - WRK_CONNECTIONS:
                    print(f"  note: {label} took {stored} of {run.requests} requests")
                figures[label].append(run)
    print(
        f"P2 Telegram update ingest, wrk -t{WRK_THREADS} -c{WRK_CONNECTIONS}, {seconds} s x "
        f"{runs} alternating runs each, synchronous={sync}"
    )
    titles = {
        "floor": "naive floor (insert+commit)",
        "bot": "bot /telegram, update inbox",
        "no inbox": "bot /telegram, no inbox",
    }
    medians = {}
    for label, title in titles.items():
        rates = [run.events_per_second for run in figures[label]]
        tails = [run.p99_ms for run in figures[label]]
        refused = sum(run.refused for run in figures[label])
        medians[label] = statistics.median(rates)
        print(
            f"  {title:31} {medians[label]:7.0f} updates/s (min {min(rates):6.0f})   "
            f"p99 {statistics.median(tails):6.2f} ms (min {min(tails):5.2f})"
            + (f"   {refused} refused!" if refused else "")
        )
    print(
        f"  ratio bot/floor                 {medians['bot'] / medians['floor']:7.2f}x"
        "          (goal: at least 1.5x under FULL, bot p99 at most 10 ms)"
    )
    print(f"  ratio bot/no inbox              {medians['bot'] / medians['no inbox']:7.2f}x")


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    runs, seconds = (1, 2) if quick else (3, 4)
    multiprocessing.set_start_method("spawn", force=True)
    with tempfile.TemporaryDirectory(prefix="bench-telegram-ingest-") as directory:
        for sync in ("FULL", "NORMAL"):
            try:
                ingest_figures(Path(directory), sync, runs, seconds)
            except subprocess.CalledProcessError as error:
                sys.exit(f"wrk failed: {error.stderr}")


if __name__ == "__main__":
    main()

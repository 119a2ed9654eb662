"""P2 for Telegram: updates into the durable update inbox, beside a naive floor, with ``wrk``.

The harness of ``bench_ingest`` (``wrk_ingest``: uvicorn + Starlette in a process of its own on
127.0.0.1, a fresh SQLite file in WAL mode, ``wrk -t2 -c16`` posting pre-written unique
updates, runs alternating, medians with the best beside them, CPU time per request and rows
per commit), for ``POST /telegram``:

* bot: the bot's real route (``bot.telegram.webhook_route``) over PTB's Application in webhook
  mode, the door and nothing past it: the secret token compared, the body read, ``json.loads``,
  the dict checks (``update_check``), the chat id read off the dict (``received_update``), the
  update stored in ``store.telegram_inbox`` (grouped commits, the partner inbox's write path)
  and its ``ReceivedUpdate`` put on PTB's queue, 200 only once it is committed. The queue is
  drained by a task that drops each queued object: what is measured is ingest, as for the
  partner events. PTB's parse (``Update.de_json``) is part of handling now, so it is not in
  these figures; P1 (``bench_telegram.py --inbox --rounds 8``) includes it;
* no inbox: the same route without the inbox (the bot before it): nothing is stored;
* floor: the naive durable ingest: compare the token, parse the JSON, one aiosqlite
  ``INSERT`` and ``commit()`` per update (autocommit: each update its own transaction and
  fsync), answer.

Printed: updates/s and wrk's p99 for each, the ratio bot/floor (goal, as for partner events:
at least 1.5x under ``synchronous=FULL``, p99 at most 10 ms) and bot/no inbox (what storing
costs ingest). Run: ``.venv/bin/python benchmarks/bench_telegram_ingest.py`` (``--quick`` for
one short run of each; ``--fsync-delay-ms 1`` with each fsync 1 ms slower:
``wrk_ingest.slowed_disk``).
"""

from __future__ import annotations

import asyncio
import hmac
import itertools
import json
import multiprocessing
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from multiprocessing.queues import Queue
from pathlib import Path

import aiosqlite
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
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

from bot.config import Config
from bot.runtime.heap import freeze_start_up_heap
from bot.store import Store
from bot.telegram.application import build_application
from bot.telegram.webhook_route import SECRET_TOKEN_HEADER, TELEGRAM_PATH, telegram_route

TOKEN = "7000000001:AABenchmarkTokenForTelegramBench01"
SECRET_TOKEN = "bench-ingest-secret-token"


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


def update_lines(first_id: int) -> Callable[[int, int], list[str]]:
    """A wrk thread's unique updates, ids counted from ``first_id`` (500 chats)."""

    def lines(thread: int, count: int) -> list[str]:
        start = first_id + thread * count
        return [update_body(start + n, 100_000 + n % 500) + "\n" for n in range(count)]

    return lines


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
    with_inbox: bool,
    database: Path,
    sync: Synchronous,
    ready: Queue[int],
    *,
    path: str = TELEGRAM_PATH,
) -> None:
    store = await Store.connect(database, synchronous=sync)
    Commits.count_grouped()
    application = build_application(bench_telegram_config(database.parent).telegram)
    inbox = store.telegram_inbox if with_inbox else None
    route = telegram_route(application, SECRET_TOKEN, inbox=inbox, path=path)
    taken = 0

    async def drain() -> None:
        nonlocal taken
        while True:
            await application.update_queue.get()
            taken += 1

    async def stored(request: Request) -> Response:
        count = await store.telegram_inbox.count() if with_inbox else taken
        return JSONResponse({"stored": count, "commits": Commits.count})

    draining = asyncio.create_task(drain())
    app = Starlette(routes=[route, Route("/bench/stored", stored)])
    freeze_start_up_heap()  # as ``deliverybot run`` does once started (and bench_ingest's bot)
    await serve(app, ready)
    draining.cancel()
    await store.close()


def bot_process(database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_route(True, Path(database), sync, ready))


def no_inbox_process(database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_route(False, Path(database), sync, ready))


FLOOR_SCHEMA = """CREATE TABLE IF NOT EXISTS updates (update_id INTEGER PRIMARY KEY,
    chat_id INTEGER, body TEXT, received_at REAL)"""


async def serve_floor(database: Path, sync: Synchronous, ready: Queue[int]) -> None:
    """The anchor: the same token check, one insert + commit per update, nothing else."""
    # Autocommit: each INSERT is its own transaction. In sqlite3's default mode the INSERT opens
    # a transaction that the next request's INSERT joins whenever it is queued before the first
    # one's commit(), so 16 connections shared commits by accident (about 3.3 rows an fsync,
    # counted with strace): not the naive one-commit-per-request this floor stands for.
    conn = await aiosqlite.connect(database, isolation_level=None)
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
        count = next(iter(rows))[0]
        return JSONResponse({"stored": count, "commits": count})

    app = Starlette(
        routes=[Route(TELEGRAM_PATH, ingest, methods=["POST"]), Route("/bench/stored", stored)]
    )
    await serve(app, ready)


def floor_process(database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_floor(Path(database), sync, ready))


def telegram_comparison(runs: int, seconds: int) -> Comparison:
    next_ids = itertools.count(1, 100_000)  # a fresh range of update ids for each batch

    def write_requests(prefix: Path, count: int) -> None:
        write_lines(prefix, update_lines(next(next_ids)), count)

    return against_floor(
        "P2 Telegram update ingest",
        "updates",
        wrk_script(TELEGRAM_PATH, fixed_headers={SECRET_TOKEN_HEADER: SECRET_TOKEN}),
        write_requests,
        (
            floor_process,
            Contender("bot", "bot /telegram, update inbox", bot_process),
            Contender("no inbox", "bot /telegram, no inbox", no_inbox_process),
        ),
        runs=runs,
        seconds=seconds,
    )


def main() -> None:
    slowed_disk(sys.argv)
    quick = "--quick" in sys.argv[1:]
    runs, seconds = (1, 2) if quick else (3, 4)
    multiprocessing.set_start_method("spawn", force=True)
    with tempfile.TemporaryDirectory(prefix="bench-telegram-ingest-") as directory:
        for sync in ("FULL", "NORMAL"):
            try:
                compare(telegram_comparison(runs, seconds), Path(directory), sync)
            except subprocess.CalledProcessError as error:
                sys.exit(f"wrk failed: {error.stderr}")


if __name__ == "__main__":
    main()

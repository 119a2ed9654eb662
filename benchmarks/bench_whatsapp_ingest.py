"""WhatsApp pushes into the durable WhatsApp inbox, beside Telegram's updates, with ``wrk``.

The harness of ``bench_ingest`` (``wrk_ingest``: uvicorn + Starlette in a process of its own on
127.0.0.1, a fresh SQLite file in WAL mode, ``wrk -t2 -c16`` posting pre-written unique
requests, runs alternating, medians with the best beside them, CPU time per request and rows
per commit), for two doors in the same run:

* whatsapp: the bot's real ``POST /whatsapp`` (``bot.whatsapp.whatsapp_webhook``): the
  ``X-Hub-Signature-256`` HMAC of the raw body checked, the body read and parsed
  (``bot.web.body``), the push read strictly (``bot.whatsapp.payload``), the message stored
  in ``store.whatsapp_inbox`` (grouped commits), 200 only once it is committed. Each request
  is one customer's text message in Meta's envelope (about 500 bytes), pre-signed. Handling
  after the 200 is left out (as the Telegram door's queue is drained unhandled): what is
  measured is ingest;
* telegram: ``bench_telegram_ingest``'s bot, ``POST /telegram`` with the update inbox, on the
  same path and with updates of the same text.

Printed: messages/s and wrk's p99 for each, side by side, and the ratio whatsapp/telegram.
Run: ``.venv/bin/python benchmarks/bench_whatsapp_ingest.py`` (``--quick`` for one short run of
each; ``--fsync-delay-ms 1`` with each fsync 1 ms slower: ``wrk_ingest.slowed_disk``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import subprocess
import sys
import tempfile
import time
from multiprocessing.queues import Queue
from pathlib import Path

from bench_telegram_ingest import SECRET_TOKEN, serve_route, update_lines
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from wrk_ingest import (  # beside this script: the P2 harness
    Commits,
    Comparison,
    Contender,
    Synchronous,
    compare,
    serve,
    slowed_disk,
    write_lines,
    wrk_script,
)

from bot.runtime.heap import freeze_start_up_heap
from bot.store import Store
from bot.telegram.webhook_route import SECRET_TOKEN_HEADER
from bot.whatsapp.inbox_handling import InboxHandling
from bot.whatsapp.signature import SIGNATURE_HEADER, sign
from bot.whatsapp.whatsapp_webhook import whatsapp_routes

PATH = "/whatsapp"  # both doors listen here, so one wrk script drives both
PHONE_NUMBER_ID = "106540352242922"
APP_SECRET = "0123456789abcdef0123456789abcdef"
TEXT = "The parcel is at the reception, ask for Bola on the second floor please."


def push_body(wamid: str, wa_id: str) -> str:
    """One customer's text message as Meta pushes it (about 500 bytes)."""
    value = {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "2348000000000", "phone_number_id": PHONE_NUMBER_ID},
        "contacts": [{"profile": {"name": "Ada"}, "wa_id": wa_id}],
        "messages": [
            {
                "from": wa_id,
                "id": wamid,
                "timestamp": str(int(time.time())),
                "type": "text",
                "text": {"body": TEXT},
            }
        ],
    }
    change = {"field": "messages", "value": value}
    push = {"object": "whatsapp_business_account", "entry": [{"id": "1", "changes": [change]}]}
    return json.dumps(push, separators=(",", ":"))


def push_lines(batch: int, thread: int, count: int) -> list[str]:
    """A wrk thread's pre-signed unique pushes: ``<signature>\\t<body>`` lines (500 chats)."""
    lines = []
    for n in range(count):
        body = push_body(f"wamid.b{batch}t{thread}n{n}", str(2348010000000 + n % 500))
        lines.append(f"{sign(body.encode(), APP_SECRET)}\t{body}\n")
    return lines


class IngestOnly(InboxHandling):
    """No handling after the 200: ingest is measured, as for Telegram's door."""

    def soon(self, chat_id: int) -> None:
        return


async def serve_whatsapp(database: Path, sync: Synchronous, ready: Queue[int]) -> None:
    store = await Store.connect(database, synchronous=sync)
    Commits.count_grouped()
    handling = IngestOnly(store.whatsapp_inbox, store.updates, store.chat_locks, None, None)  # type: ignore[arg-type]
    routes = whatsapp_routes(
        phone_number_id=PHONE_NUMBER_ID,
        app_secret=APP_SECRET,
        verify_token="bench-verify-token",
        inbox=store.whatsapp_inbox,
        handling=handling,
    )

    async def stored(request: Request) -> Response:
        count = await store.whatsapp_inbox.count_pending()
        return JSONResponse({"stored": count, "commits": Commits.count})

    app = Starlette(routes=[*routes, Route("/bench/stored", stored)])
    freeze_start_up_heap()
    await serve(app, ready)
    await store.close()


def whatsapp_process(database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_whatsapp(Path(database), sync, ready))


def telegram_process(database: str, sync: Synchronous, ready: Queue[int]) -> None:
    asyncio.run(serve_route(True, Path(database), sync, ready, path=PATH))


CONTENDERS = (
    Contender("whatsapp", "bot /whatsapp, WhatsApp inbox", whatsapp_process),
    Contender("telegram", "bot /telegram, update inbox", telegram_process),
)


def whatsapp_comparison(runs: int, seconds: int) -> Comparison:
    batches = itertools.count()
    next_ids = itertools.count(1, 100_000)
    warmed = itertools.count()

    def write_requests(prefix: Path, count: int) -> None:
        # Each server gets its own door's requests: a run's prefix names its contender, and
        # the warm-ups go in the contenders' order.
        label = next(
            (c.label for c in CONTENDERS if prefix.name.endswith(c.label)),
            CONTENDERS[next(warmed) % len(CONTENDERS)].label,
        )
        if label == "whatsapp":
            batch = next(batches)
            write_lines(prefix, lambda thread, n: push_lines(batch, thread, n), count)
        else:
            write_lines(prefix, update_lines(next(next_ids)), count)

    return Comparison(
        name="WhatsApp push ingest beside Telegram's",
        unit="messages",
        script=wrk_script(
            PATH,
            per_line_header=SIGNATURE_HEADER,
            fixed_headers={SECRET_TOKEN_HEADER: SECRET_TOKEN},
        ),
        write_requests=write_requests,
        contenders=list(CONTENDERS),
        ratios=[("whatsapp", "telegram", "")],
        runs=runs,
        seconds=seconds,
    )


def main() -> None:
    slowed_disk(sys.argv)
    quick = "--quick" in sys.argv[1:]
    runs, seconds = (1, 2) if quick else (3, 4)
    multiprocessing.set_start_method("spawn", force=True)
    with tempfile.TemporaryDirectory(prefix="bench-whatsapp-ingest-") as directory:
        for sync in ("FULL", "NORMAL"):
            try:
                compare(whatsapp_comparison(runs, seconds), Path(directory), sync)
            except subprocess.CalledProcessError as error:
                sys.exit(f"wrk failed: {error.stderr}")


if __name__ == "__main__":
    main()

"""Telegram figures: a full flow turn through PTB versus a bare PTB echo handler.

Both run in this process, in the same run, over the same in-process request layer
(``InstantBotApi``, a PTB ``BaseRequest`` that answers every Bot API call at once), so the
network is not what is measured. Each update goes into ``application.update_queue`` and is
timed until the Application has finished with it (every reply and edit issued):

* echo: a bare Application with one handler that sends one message back;
* full: the bot's own Application from ``bot.runtime`` (webhook mode, so no updater), with
  the gatekeeper's SQLite dedupe, the conversation handlers, the engine, ``ChatService``'s
  session save, the sender and its limiter, and the in-process sandbox as the Partner API
  (a pickup & delivery order: taps, typing, a location pin, a contact, a photo re-hosted and
  fetched by the sandbox, and the create). The store runs with ``synchronous=NORMAL`` so the
  disk's fsync is not what is measured; Telegram's send limits are lifted.

Goal: the full turn's median at most 1.5x the echo's. Also printed: how much of a full turn
is ``ChatService`` (engine + session in SQLite), the part that is not Telegram's.
Prints figures only. Run: ``.venv/bin/python benchmarks/bench_telegram.py`` (a few seconds).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import statistics
import struct
import tempfile
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from telegram import Update
from telegram.ext import ApplicationBuilder, ContextTypes, TypeHandler
from telegram.request import BaseRequest, RequestData

from bot.config import Config
from bot.demo.transports import AppSwitch, loopback_resolver
from bot.runtime import Runtime, Seams
from bot.sandbox import Sandbox, default_scenario
from bot.telegram.application import ChatOrderedProcessor
from bot.telegram.limits import RateLimiter, SendLimits, Window

ORDERS = 40
TOKEN = "7000000001:AABenchmarkTokenForTelegramBench01"
BOT = {"id": 7000000001, "is_bot": True, "first_name": "Bench", "username": "bench_bot"}
JSON = dict[str, Any]


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    body = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0\0\0\0")) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


PHOTO = tiny_png()


class InstantBotApi(BaseRequest):
    """The Bot API answered in process, at once; what the bot sent is kept for the driver."""

    def __init__(self) -> None:
        self.last_keyboard: dict[int, tuple[JSON, JSON]] = {}  # chat -> (message, markup)
        self.sent_at: list[float] = []  # when each sendMessage was issued
        self._ids = itertools.count(1_000_000)

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return None

    async def do_request(
        self, url: str, method: str, request_data: RequestData | None = None, *args: Any, **kw: Any
    ) -> tuple[int, bytes]:
        if "/file/bot" in url:
            return 200, PHOTO
        params: JSON = dict(request_data.parameters) if request_data else {}
        result = self._answer(url.rsplit("/", 1)[-1], params)
        return 200, json.dumps({"ok": True, "result": result}).encode()

    def _answer(self, name: str, params: JSON) -> Any:
        if name == "getMe":
            return BOT
        if name == "getFile":
            return {"file_id": params["file_id"], "file_unique_id": "u", "file_path": "p/1.png"}
        if name == "sendMessage":
            self.sent_at.append(time.perf_counter())
        if name in ("sendMessage", "editMessageText"):
            chat_id = int(params["chat_id"])
            message_id = params.get("message_id") or next(self._ids)
            message = {
                "message_id": message_id,
                "date": int(time.time()),
                "chat": {"id": chat_id, "type": "private"},
                "from": BOT,
                "text": params["text"],
            }
            markup = params.get("reply_markup")
            if isinstance(markup, dict) and "inline_keyboard" in markup:
                self.last_keyboard[chat_id] = (message, markup)
            return message
        return True  # setMyCommands, setWebhook, answerCallbackQuery ...

    def callback_data(self, chat_id: int, label: str) -> tuple[JSON, str]:
        message, markup = self.last_keyboard[chat_id]
        for row in markup["inline_keyboard"]:
            for button in row:
                if button["text"] == label:
                    return message, button["callback_data"]
        raise LookupError(f"no button {label!r}")


class TimedProcessor(ChatOrderedProcessor):
    """The bot's update processor, resolving a future when an update is done with."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting: dict[int, asyncio.Future[None]] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        await super().do_process_update(update, coroutine)
        if isinstance(update, Update) and update.update_id in self.waiting:
            self.waiting.pop(update.update_id).set_result(None)


class Updates:
    """Update JSON as Telegram sends it."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self._message_ids = itertools.count(1)

    def _message(self, chat_id: int, **content: Any) -> JSON:
        user = {"id": chat_id, "is_bot": False, "first_name": "Ada", "last_name": "Obi"}
        message = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private", "first_name": "Ada"},
            "from": user,
            **content,
        }
        return {"update_id": next(self._ids), "message": message}

    def text(self, chat_id: int, text: str) -> JSON:
        if text.startswith("/"):
            entity = {"type": "bot_command", "offset": 0, "length": len(text.split()[0])}
            return self._message(chat_id, text=text, entities=[entity])
        return self._message(chat_id, text=text)

    def location(self, chat_id: int, lat: float, lng: float) -> JSON:
        return self._message(chat_id, location={"latitude": lat, "longitude": lng})

    def contact(self, chat_id: int, phone: str) -> JSON:
        contact = {"phone_number": phone, "first_name": "Ada", "user_id": chat_id}
        return self._message(chat_id, contact=contact)

    def photo(self, chat_id: int) -> JSON:
        size = {"file_id": "photo-1", "file_unique_id": "u1", "width": 800, "height": 600}
        return self._message(chat_id, photo=[{**size, "file_size": len(PHOTO)}])

    def tap(self, chat_id: int, message: JSON, data: str) -> JSON:
        user = {"id": chat_id, "is_bot": False, "first_name": "Ada"}
        query = {"id": str(next(self._ids)), "from": user, "message": message, "data": data}
        query["chat_instance"] = "1"
        return {"update_id": next(self._ids), "callback_query": query}


Step = Callable[[Updates, InstantBotApi, int], JSON]


def _tap(label: str) -> Step:
    def step(updates: Updates, api: InstantBotApi, chat_id: int) -> JSON:
        message, data = api.callback_data(chat_id, label)
        return updates.tap(chat_id, message, data)

    return step


ORDER: list[Step] = [
    lambda u, a, c: u.text(c, "/new"),
    _tap("✓ Pickup & delivery"),
    _tap("A rider picks it up from an address"),
    lambda u, a, c: u.location(c, 6.5095, 3.3711),
    lambda u, a, c: u.text(c, "12 Herbert Macaulay Way, Yaba"),
    _tap("UNILAG Main Gate"),
    lambda u, a, c: u.contact(c, "+2348031234567"),
    _tap("Skip"),
    _tap("Me"),
    lambda u, a, c: u.text(c, "Bola Ahmed"),
    lambda u, a, c: u.text(c, "+2348022223333"),
    lambda u, a, c: u.text(c, "A pair of shoes in a box"),
    _tap("Small"),
    _tap("No"),
    lambda u, a, c: u.photo(c),
    _tap("Done"),
    _tap("Cash on delivery"),
    _tap("No cash to collect"),
    _tap("Confirm and send"),
]


@dataclass
class Timings:
    """Per update: until the reply's last message was issued, and until all work was done."""

    reply: list[float] = field(default_factory=list)
    done: list[float] = field(default_factory=list)


async def timed(
    application: Any, api: InstantBotApi, processor: TimedProcessor, update: JSON, into: Timings
) -> None:
    finished = asyncio.get_running_loop().create_future()
    processor.waiting[update["update_id"]] = finished
    sends = len(api.sent_at)
    started = time.perf_counter()
    await application.update_queue.put(Update.de_json(update, application.bot))
    await finished
    ended = time.perf_counter()
    issued = api.sent_at[sends:]
    into.reply.append((issued[-1] if issued else ended) - started)
    into.done.append(ended - started)


def bench_config(directory: Path, sandbox: Sandbox) -> Config:
    data = {
        "partner": {"base_url": sandbox.base_url, "api_key": sandbox.api_key},
        "telegram": {
            "token": TOKEN,
            "mode": "webhook",  # no updater: updates are fed to the queue directly
            "public_base_url": "https://localhost",
            "secret_token": "bench-secret",
        },
        "webhooks": {"enabled": True, "signing_secret": sandbox.signing_secret},
        "operators": {},
        "storage": {"path": "bot.sqlite3"},
        "geocoding": {},
        "relay": {},
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": directory})


async def run_full(directory: Path) -> tuple[Timings, list[float]]:
    switch = AppSwitch()
    sandbox = Sandbox(
        default_scenario(),
        image_transport=httpx.ASGITransport(app=switch),
        resolver=loopback_resolver,
    )
    api, processor = InstantBotApi(), TimedProcessor()
    unlimited = Window(10**9, 1.0)
    seams = Seams(
        partner_transport=httpx.ASGITransport(app=sandbox.app),
        telegram_request=api,
        telegram_updates_request=api,
        processor=processor,
        limiter=RateLimiter(SendLimits(unlimited, unlimited, unlimited)),
        synchronous="NORMAL",
    )
    runtime = await Runtime.build(bench_config(directory, sandbox), seams)
    switch.app = runtime.web_app
    chats, handled = runtime.ctx.chats, []
    real_handle = chats.handle

    async def handle(*args: Any) -> Any:
        started = time.perf_counter()
        try:
            return await real_handle(*args)
        finally:
            handled.append(time.perf_counter() - started)

    chats.handle = handle  # type: ignore[method-assign]
    await runtime.start(workers=False)
    updates, turns = Updates(), Timings()
    try:
        for order in range(ORDERS):
            chat_id = 10_000 + order
            for step in ORDER:
                update = step(updates, api, chat_id)
                await timed(runtime.application, api, processor, update, turns)
            assert await runtime.store.deliveries.count_for_user(chat_id) == 1
    finally:
        await runtime.stop()
        await sandbox.aclose()
    return turns, handled


async def run_echo() -> Timings:
    api, processor = InstantBotApi(), TimedProcessor()
    application = (
        ApplicationBuilder()
        .token(TOKEN)
        .request(api)
        .get_updates_request(api)
        .updater(None)
        .concurrent_updates(processor)
        .build()
    )

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await context.bot.send_message(update.effective_chat.id, "echo")

    application.add_handler(TypeHandler(Update, echo))
    updates, turns = Updates(), Timings()
    async with application:
        await application.start()
        for order in range(ORDERS):
            for _ in ORDER:
                update = updates.text(20_000 + order, "hello")
                await timed(application, api, processor, update, turns)
        await application.stop()
    return turns


def describe(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"{name:<38} n={len(ms):<5} median {statistics.median(ms):7.3f} ms   p95 {p95:7.3f} ms"


async def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        await run_echo()  # warm-up: imports, PTB's first-call paths
        echo = await run_echo()
        full, handled = await run_full(Path(scratch))
    print(f"Telegram turns through PTB, {ORDERS} orders of {len(ORDER)} updates each")
    print("update in -> the reply's last sendMessage issued:")
    print(describe("  echo handler (bare PTB)", echo.reply))
    print(describe("  full flow turn (the bot)", full.reply))
    print("update in -> all work done (the bot also edits the answered prompt, answers taps):")
    print(describe("  echo handler (bare PTB)", echo.done))
    print(describe("  full flow turn (the bot)", full.done))
    print(describe("  of which ChatService.handle", handled))
    ratio = statistics.median(full.reply) / statistics.median(echo.reply)
    verdict = "meets" if ratio <= 1.5 else "misses"
    print(f"ratio full/echo, reply issued (medians): {ratio:.2f}x ({verdict} the goal of <= 1.5x)")


if __name__ == "__main__":
    asyncio.run(main())

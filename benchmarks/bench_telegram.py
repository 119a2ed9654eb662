"""P1: a full flow turn through the real PTB ``Application``, beside two echo anchors.

Everything runs in this process, in the same run, over the same in-process request layer
(``InstantBotApi``, a PTB ``BaseRequest`` that answers every Bot API call at once), so the
network is not what is measured. Updates go into ``application.update_queue`` one after the
other, each once the previous one is processed; a run's figure is its wall time divided by its
updates (µs/update), so work a turn leaves running (the tidy-up edit) is paid by the next
update and by the final wait for it, never hidden. The variants, run alternately ``ROUNDS``
times so a noisy neighbour hits them alike:

* bare echo: a bare Application with one handler that sends one message back;
* same-traffic echo: a bare Application whose handler makes the traffic a turn makes,
  two sendMessage and one editMessageText, through PTB's own methods;
* full: the bot's own Application from ``bot.runtime`` (webhook mode, so no updater), with
  the gatekeeper's SQLite dedupe, the conversation handlers, the engine, ``ChatService``'s
  session save, the sender and its limiter, and the in-process sandbox as the Partner API
  (a pickup & delivery order: taps, typing, a location pin, a contact, a photo re-hosted and
  fetched by the sandbox, and the create); once with ``synchronous=full`` (the default) and
  once with ``normal``. Telegram's send limits are lifted. Each update is handed in as the
  webhook route does before its 200 (``bot.telegram.stored_updates.hand_in``: durable in the
  Telegram update inbox, or handled by a turn that commits within a moment); the "no inbox"
  variants feed the queue directly with the processor's inbox hand-off off (the bot before the
  inbox), so the inbox's cost per turn is printed beside them (goal: at most 10 %).

Goals: full at most 1.5x the bare echo and 1.2x the same-traffic echo in wall time, and
(issue #38) the full turn's CPU time at most 1.8x the same-traffic echo's, printed with and
without the in-process sandbox's own CPU time (a real Partner API spends it on another
machine; the bot's web app serving the sandbox the order's photo stays in the turn's share).
Also printed: Bot API calls per update, and the time from an update to its reply's last
sendMessage.
Prints figures only. Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_telegram.py``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import statistics
import struct
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from telegram import Update
from telegram.ext import ApplicationBuilder, ContextTypes, TypeHandler
from telegram.request import BaseRequest, RequestData

from bot.chat_ref import TELEGRAM, UserRef
from bot.config import Config
from bot.demo.transports import AppSwitch, loopback_resolver
from bot.runtime import Runtime, Seams
from bot.sandbox import Sandbox, default_scenario
from bot.store import Store
from bot.store.database import Synchronous
from bot.telegram.application import ChatOrderedProcessor
from bot.telegram.limits import RateLimiter, SendLimits, Window
from bot.telegram.received_update import ReceivedUpdate, received_update
from bot.telegram.stored_updates import hand_in, stored_body

ORDERS = 10  # per run; each run is one variant
ROUNDS = 5
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
        self.calls: list[str] = []  # every Bot API method called, in order
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
        self.calls.append(name)
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
            if isinstance(markup, dict) and ("inline_keyboard" in markup or "keyboard" in markup):
                self.last_keyboard[chat_id] = (message, markup)
            return message
        return True  # setMyCommands, setWebhook, answerCallbackQuery ...

    def button(self, chat_id: int, label: str) -> tuple[JSON, JSON]:
        """The last keyboard's message and its button labelled ``label``."""
        message, markup = self.last_keyboard[chat_id]
        for row in markup.get("inline_keyboard") or markup["keyboard"]:
            for button in row:
                if button["text"] == label:
                    return message, button
        raise LookupError(f"no button {label!r}")


class TimedProcessor(ChatOrderedProcessor):
    """The bot's update processor, resolving a future when an update is done with."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting: dict[int, asyncio.Future[None]] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        await super().do_process_update(update, coroutine)
        if isinstance(update, Update | ReceivedUpdate) and update.update_id in self.waiting:
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
        message, button = api.button(chat_id, label)
        if "callback_data" not in button:  # a reply keyboard's button sends its label
            return updates.text(chat_id, label)
        return updates.tap(chat_id, message, button["callback_data"])

    return step


ORDER: list[Step] = [
    lambda u, a, c: u.text(c, "/new"),
    _tap("✓ Pickup & delivery"),
    lambda u, a, c: u.location(c, 6.5095, 3.3711),
    lambda u, a, c: u.text(c, "12 Herbert Macaulay Way, Yaba"),
    _tap("UNILAG Main Gate"),
    lambda u, a, c: u.contact(c, "+2348031234567"),
    lambda u, a, c: u.text(c, "Bola Ahmed"),
    lambda u, a, c: u.text(c, "+2348022223333"),
    lambda u, a, c: u.text(c, "A pair of shoes in a box"),
    _tap("Small"),
    lambda u, a, c: u.photo(c),
    _tap("Confirm and send"),
]


@dataclass
class Run:
    """One variant's run: its wall time, per-update reply latencies and Bot API calls.

    ``partner_seconds``: the time the in-process sandbox spent serving the Partner API (less
    the bot's own web app serving it the order's photo), which a deployment's Partner API
    spends on another machine; ``partner_cpu_seconds`` the same in this process's CPU time."""

    updates: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time meanwhile (all its threads)
    reply: list[float] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)
    partner_seconds: float = 0.0
    partner_cpu_seconds: float = 0.0

    @property
    def us_per_update(self) -> float:
        return self.seconds / self.updates * 1e6

    @property
    def cpu_us_per_update(self) -> float:
        return self.cpu_seconds / self.updates * 1e6

    @property
    def bot_us_per_update(self) -> float:
        """``us_per_update`` less the simulated Partner API's own work."""
        return (self.seconds - self.partner_seconds) / self.updates * 1e6

    @property
    def bot_cpu_us_per_update(self) -> float:
        """``cpu_us_per_update`` less the simulated Partner API's own CPU time."""
        return (self.cpu_seconds - self.partner_cpu_seconds) / self.updates * 1e6


class TimedApp:
    """An ASGI app's wall time and the process's CPU time while it serves, summed (its
    requests never overlap here, and the turn that called it waits for its answer)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.seconds = 0.0
        self.cpu_seconds = 0.0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        started, cpu = time.perf_counter(), time.process_time()
        try:
            await self.app(scope, receive, send)
        finally:
            self.seconds += time.perf_counter() - started
            self.cpu_seconds += time.process_time() - cpu


async def feed(
    application: Any,
    api: InstantBotApi,
    processor: TimedProcessor,
    update: JSON,
    run: Run,
    store: Store | None = None,
) -> None:
    """Put one update in as the webhook route does before its 200 (``hand_in``: with
    ``store``, the update durable in its inbox or handled) and wait until the Application has
    processed it."""
    finished = asyncio.get_running_loop().create_future()
    processor.waiting[update["update_id"]] = finished
    sends = len(api.sent_at)
    raw = json.dumps(update).encode()  # what Telegram posts
    started = time.perf_counter()
    data = json.loads(raw)
    received = received_update(data, application.bot)  # as the route: parsed when handled
    assert isinstance(received, ReceivedUpdate)
    if store is None:
        await hand_in(application.update_queue, received, None, "")
    else:
        body = stored_body(raw, data)
        await hand_in(
            application.update_queue, received, store.telegram_inbox, body, seen=store.updates
        )
    await finished
    issued = api.sent_at[sends:]
    run.reply.append((issued[-1] if issued else time.perf_counter()) - started)
    run.updates += 1


def bench_config(directory: Path, sandbox: Sandbox, *, metrics: bool = False) -> Config:
    data: dict[str, object] = {
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
    if metrics:  # recorded; its own address keeps a token out (nothing listens in a bench)
        data["metrics"] = {"enabled": True, "listen_port": 9}
    return Config.model_validate(data, context={"environ": {}, "base_dir": directory})


async def run_full(
    directory: Path, synchronous: Synchronous, *, inbox: bool = True, metrics: bool = False
) -> Run:
    switch = AppSwitch()
    photos_served = TimedApp(switch)  # the bot's web app, serving the sandbox the photo
    sandbox = Sandbox(
        default_scenario(),
        image_transport=httpx.ASGITransport(app=photos_served),
        resolver=loopback_resolver,
    )
    partner_served = TimedApp(sandbox.app)
    api, processor = InstantBotApi(), TimedProcessor()
    unlimited = Window(10**9, 1.0)
    seams = Seams(
        partner_transport=httpx.ASGITransport(app=partner_served),
        telegram_request=api,
        telegram_updates_request=api,
        processor=processor,
        limiter=RateLimiter(SendLimits(unlimited, unlimited, unlimited)),
        synchronous=synchronous,
    )
    runtime = await Runtime.build(bench_config(directory, sandbox, metrics=metrics), seams)
    switch.app = runtime.web_app
    if not inbox:
        processor.inbox = None  # as before the inbox: no stored updates to hand on
    await runtime.start(workers=False)
    updates, run = Updates(), Run()
    api.calls.clear()
    try:
        started, cpu = time.perf_counter(), time.process_time()
        for order in range(ORDERS):
            chat_id = 10_000 + order
            for step in ORDER:
                update = step(updates, api, chat_id)
                store = runtime.store if inbox else None
                await feed(runtime.application, api, processor, update, run, store)
        await settle(runtime)
        run.seconds = time.perf_counter() - started
        run.cpu_seconds = time.process_time() - cpu
        run.calls = Counter(api.calls)
        run.partner_seconds = partner_served.seconds - photos_served.seconds
        run.partner_cpu_seconds = partner_served.cpu_seconds - photos_served.cpu_seconds
        for order in range(ORDERS):
            customer = UserRef(TELEGRAM, 10_000 + order)
            assert await runtime.store.deliveries.count_for_user(customer) == 1
    finally:
        await runtime.stop()
        await sandbox.aclose()
    return run


async def settle(runtime: Runtime) -> None:
    """Wait for what the last turn left running (its tidy-up edit), when the bot has any."""
    settling = getattr(runtime.conversation, "settle", None)
    if settling is not None:
        await settling()


async def run_echo(traffic: bool) -> Run:
    """A bare PTB Application: one send per update, or a turn's traffic (2 sends, 1 edit)."""
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
    processor.application = application  # it parses the fed updates, as in the bot

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        chat_id = update.effective_chat.id
        sent = await context.bot.send_message(chat_id, "echo")
        if traffic:
            await context.bot.send_message(chat_id, "echo again")
            await context.bot.edit_message_text("echoed", chat_id, sent.message_id)

    application.add_handler(TypeHandler(Update, echo))
    updates, run = Updates(), Run()
    async with application:
        await application.start()
        api.calls.clear()
        started, cpu = time.perf_counter(), time.process_time()
        for order in range(ORDERS):
            for _ in ORDER:
                update = updates.text(20_000 + order, "hello")
                await feed(application, api, processor, update, run)
        run.seconds = time.perf_counter() - started
        run.cpu_seconds = time.process_time() - cpu
        run.calls = Counter(api.calls)
        await application.stop()
    return run


VARIANTS: dict[str, Callable[[Path], Awaitable[Run]]] = {
    "bare echo": lambda _: run_echo(traffic=False),
    "same-traffic echo": lambda _: run_echo(traffic=True),
    "full turn, synchronous=full": lambda d: run_full(d, "FULL"),
    "full turn, synchronous=normal": lambda d: run_full(d, "NORMAL"),
    "no inbox, synchronous=full": lambda d: run_full(d, "FULL", inbox=False),
    "no inbox, synchronous=normal": lambda d: run_full(d, "NORMAL", inbox=False),
}


INBOX_PAIRS = {
    mode: (f"full turn, synchronous={mode}", f"no inbox, synchronous={mode}")
    for mode in ("full", "normal")
}


def summary(name: str, runs: list[Run]) -> str:
    per_update = [run.us_per_update for run in runs]
    cpu = statistics.median(run.cpu_us_per_update for run in runs)
    reply = statistics.median(s * 1e6 for run in runs for s in run.reply)
    calls = sum(runs[0].calls.values()) / runs[0].updates
    return (
        f"  {name:<31} {min(per_update):7.0f} {statistics.median(per_update):7.0f} µs/update"
        f" {cpu:7.0f} CPU µs   reply issued after {reply:6.0f} µs (median)"
        f"   {calls:4.2f} Bot API calls/update"
    )


async def main(rounds: int, names: list[str]) -> None:
    runs: dict[str, list[Run]] = {name: [] for name in names}
    loads = []
    with tempfile.TemporaryDirectory() as scratch:
        await run_echo(traffic=True)  # warm-up: imports, PTB's first-call paths
        await run_full(Path(scratch) / "warm-up", "NORMAL")
        for round_number in range(rounds):
            order = list(names)
            if round_number % 2:
                order.reverse()  # alternate the order, so drift hits every variant alike
            for name in order:
                directory = Path(scratch) / f"{round_number}-{list(VARIANTS).index(name)}"
                runs[name].append(await VARIANTS[name](directory))
            loads.append(os.getloadavg()[0])
    print(f"P1 Telegram turns through PTB: {rounds} alternating rounds of {ORDERS} orders x")
    print(
        f"{len(ORDER)} updates per variant, load average {min(loads):.1f}-{max(loads):.1f} on "
        f"{os.cpu_count()} cores; wall time min and median over the rounds, CPU time median:"
    )
    print(f"  {'':<31} {'min':>7} {'median':>7}")
    for name, variant_runs in runs.items():
        print(summary(name, variant_runs))
    if "bare echo" in runs:
        anchors(runs)
    for mode, (inbox, without) in INBOX_PAIRS.items():
        if inbox in runs and without in runs:
            inbox_cost(mode, runs[inbox], runs[without])
    if "full turn, synchronous=normal" in runs:
        full = runs["full turn, synchronous=normal"][0]
        per_method = ", ".join(
            f"{name} {count / full.updates:.2f}" for name, count in sorted(full.calls.items())
        )
        print(f"  full turn's Bot API calls per update: {per_method}")


def anchors(runs: dict[str, list[Run]]) -> None:
    """The full turns against the echoes (goals 1.5x and 1.2x), with and without the sandbox;
    then their CPU time against the same-traffic echo's (issue #38's goal: at most 1.8x)."""
    for name in ("full turn, synchronous=full", "full turn, synchronous=normal"):
        median = statistics.median(run.us_per_update for run in runs[name])
        for anchor, goal in (("bare echo", 1.5), ("same-traffic echo", 1.2)):
            base = statistics.median(run.us_per_update for run in runs[anchor])
            ratio = median / base
            verdict = "meets" if ratio <= goal else "misses"
            print(f"  {name} / {anchor}: {ratio:4.2f}x ({verdict} the goal <= {goal}x)")
    print("  the same less the in-process sandbox's own work (a real Partner API's, elsewhere):")
    for name in ("full turn, synchronous=full", "full turn, synchronous=normal"):
        own = statistics.median(run.bot_us_per_update for run in runs[name])
        base = statistics.median(run.us_per_update for run in runs["bare echo"])
        traffic = statistics.median(run.us_per_update for run in runs["same-traffic echo"])
        print(
            f"  {name}: {own:5.0f} µs/update, {own / base:4.2f}x the bare echo,"
            f" {own / traffic:4.2f}x the same-traffic echo"
        )
    print("  CPU time per update against the same-traffic echo's (goal <= 1.8x), with and")
    print("  without the in-process sandbox's own CPU time:")
    traffic_cpu = statistics.median(run.cpu_us_per_update for run in runs["same-traffic echo"])
    for name in ("full turn, synchronous=full", "full turn, synchronous=normal"):
        cpu = statistics.median(run.cpu_us_per_update for run in runs[name])
        own = statistics.median(run.bot_cpu_us_per_update for run in runs[name])
        verdict = "meets" if own / traffic_cpu <= 1.8 else "misses"
        print(
            f"  {name}: {cpu:5.0f} CPU µs, {cpu / traffic_cpu:4.2f}x; less the sandbox"
            f" {own:5.0f} CPU µs, {own / traffic_cpu:4.2f}x ({verdict} the goal)"
        )


def inbox_cost(mode: str, with_inbox: list[Run], without: list[Run]) -> None:
    """What the inbox adds to a turn: wall time by the minima, the medians and round by round
    (each round runs both, one after the other), CPU time, and the reply's latency."""

    def cost(pairs: list[tuple[float, float]], pick: Callable[[list[float]], float]) -> str:
        mine, theirs = pick([m for m, _ in pairs]), pick([t for _, t in pairs])
        return f"{(mine / theirs - 1) * 100:+.1f} %"

    walls = [(r.us_per_update, o.us_per_update) for r, o in zip(with_inbox, without, strict=True)]
    cpus = [
        (r.cpu_us_per_update, o.cpu_us_per_update) for r, o in zip(with_inbox, without, strict=True)
    ]
    by_round = statistics.median(mine / theirs for mine, theirs in walls)
    replies = [
        statistics.median(s * 1e6 for r in runs for s in r.reply) for runs in (without, with_inbox)
    ]
    verdict = "meets" if min(m for m, _ in walls) <= 1.10 * min(t for _, t in walls) else "misses"
    print(
        f"  the update inbox, synchronous={mode}: {cost(walls, min)} per turn by the minima"
        f" ({verdict} the goal <= 10 %), {cost(walls, statistics.median)} by the medians,"
        f" {(by_round - 1) * 100:+.1f} % round by round (median); CPU time"
        f" {cost(cpus, statistics.median)}; reply issued after {replies[0]:6.0f} ->"
        f" {replies[1]:6.0f} µs (median)"
    )


if __name__ == "__main__":
    # --inbox: only the four variants that price the update inbox, --rounds N: N rounds.
    arguments = sys.argv[1:]
    chosen = [name for pair in INBOX_PAIRS.values() for name in pair]
    rounds = int(arguments[arguments.index("--rounds") + 1]) if "--rounds" in arguments else ROUNDS
    asyncio.run(main(rounds, chosen if "--inbox" in arguments else list(VARIANTS)))

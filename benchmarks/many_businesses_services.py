"""The services' process of ``bench_many_businesses.py``: the Bot API, the Partner API and the
customers, on one loopback port, in a process of their own (the host's CPU and memory are its).

Run as ``python benchmarks/many_businesses_services.py PORT``; it prints ``ready`` once it
serves. On its one port:

* ``/bot<token>/...``, ``/file/bot<token>/...``: ``ManyBots``, one fake Bot API for every
  business's bot;
* ``/o/{name}/api/v1/...``: business ``name``'s sandbox organisation (``bot.sandbox.Sandbox``
  with the default scenario, its own key and signing secret), built on its first call;
* ``/_bench/...``: the benchmark's controls (JSON in, JSON out): ``register`` the businesses,
  play ``turns`` one after another, run a ``load`` at a given rate, read the ``stats``.

A customer's turn is an update posted to the host's ``/telegram`` with the business's secret
token, as Telegram pushes it; its latency runs from the push to the first message the bot
sends to that chat arriving here (``time.perf_counter``, one clock for every process of this
machine). Each chat follows the ordering flow (``SCRIPT``): "hi" (answered with how to start
an order), "/new", then the choices and answers of a pickup & delivery order up to its photo,
then "/cancel" and "Yes, cancel it", and "hi" again; a step whose button is not on the
chat's last keyboard starts the chat over with "hi" (counted as ``restarts``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import httpx

from benchmarks.many_bots_fake import JSON, Arrival, ManyBots
from benchmarks.many_businesses_world import (
    SANDBOX_PREFIX,
    scenario_for,
    secret_of,
    token_of,
)
from bot.runtime.serving import listening_socket, start_web_server
from bot.sandbox import Sandbox, parse_scenario

ANSWER_TIMEOUT: Final = 10.0
FIRST_CHAT: Final = 500_001


class Updates:
    """Update JSON as Telegram sends it; ids increase across every bot (each bot's do too)."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)

    def message(self, chat_id: int, **content: Any) -> JSON:
        text = content.get("text", "")
        if text.startswith("/"):
            entity = {"type": "bot_command", "offset": 0, "length": len(text.split()[0])}
            content = {**content, "entities": [entity]}
        user = {"id": chat_id, "is_bot": False, "first_name": "Ada", "language_code": "en"}
        message = {
            "message_id": next(self._ids),
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private", "first_name": "Ada"},
            "from": user,
            **content,
        }
        return {"update_id": next(self._ids), "message": message}

    def tap(self, chat_id: int, message: JSON, data: str) -> JSON:
        user = {"id": chat_id, "is_bot": False, "first_name": "Ada", "language_code": "en"}
        query = {"id": str(next(self._ids)), "from": user, "message": message, "data": data}
        return {"update_id": next(self._ids), "callback_query": {**query, "chat_instance": "1"}}


Step = Callable[[Updates, ManyBots, str, int], JSON | None]


def say(text: str) -> Step:
    def step(updates: Updates, bots: ManyBots, token: str, chat_id: int) -> JSON:
        return updates.message(chat_id, text=text)

    return step


def tap(label: str) -> Step:
    """Tap ``label`` on the chat's last keyboard (a reply keyboard's button sends its label)."""

    def step(updates: Updates, bots: ManyBots, token: str, chat_id: int) -> JSON | None:
        found = bots.button(token, chat_id, label)
        if found is None:
            return None
        message, button = found
        if "callback_data" not in button:
            return updates.message(chat_id, text=label)
        return updates.tap(chat_id, message, button["callback_data"])

    return step


def pin(latitude: float, longitude: float) -> Step:
    def step(updates: Updates, bots: ManyBots, token: str, chat_id: int) -> JSON:
        return updates.message(chat_id, location={"latitude": latitude, "longitude": longitude})

    return step


def contact(phone: str) -> Step:
    def step(updates: Updates, bots: ManyBots, token: str, chat_id: int) -> JSON:
        shared = {"phone_number": phone, "first_name": "Ada", "user_id": chat_id}
        return updates.message(chat_id, contact=shared)

    return step


SCRIPT: list[Step] = [
    say("hi"),
    say("/new"),
    tap("✓ Pickup & delivery"),
    pin(6.5095, 3.3711),
    say("12 Herbert Macaulay Way, Yaba"),
    tap("UNILAG Main Gate"),
    contact("+2348031234567"),
    say("Bola Ahmed"),
    say("+2348022223333"),
    say("A pair of shoes in a box"),
    tap("Small"),
    say("/cancel"),
    tap("Yes, cancel it"),
]


@dataclass
class Chat:
    """One customer of one business, and where they are in ``SCRIPT``."""

    name: str
    chat_id: int
    step: int = 0
    turn: Turn | None = None  # the latest


@dataclass
class Turn:
    """One push and the messages that reached its chat after it (until the chat's next)."""

    started: float  # time.perf_counter() at the push
    status: int = 0  # the host's HTTP status for the push
    restarted: bool = False
    error: str = ""  # the push's own failure (no HTTP answer), if any
    arrivals: list[float] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def first(self) -> float | None:
        """Seconds from the push to its first answer, or None."""
        return self.arrivals[0] - self.started if self.arrivals else None

    @property
    def last(self) -> float | None:
        """Seconds from the push to the last message of its answer, or None."""
        return self.arrivals[-1] - self.started if self.arrivals else None


@dataclass
class Services:
    """Everything this process serves, and the customers it plays."""

    client: httpx.AsyncClient
    services_url: str = ""
    doors: dict[str, str] = field(default_factory=dict)  # business -> where its bot is pushed
    bots: ManyBots = field(default_factory=ManyBots)
    sandboxes: dict[str, Sandbox] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # token -> business
    businesses: set[str] = field(default_factory=set)
    chats: dict[tuple[str, int], Chat] = field(default_factory=dict)  # (business, chat id)
    updates: Updates = field(default_factory=Updates)
    transcript: list[str] | None = None  # when set: what each turn got (a debugging aid)

    def __post_init__(self) -> None:
        self.bots.listener = self._arrived

    def register(self, names: list[str], host_url: str, services_url: str) -> None:
        """Serve ``names``'s bots and organisations; push their customers' turns to
        ``host_url``."""
        self.services_url = services_url
        for name in names:
            self.names[token_of(name)] = name
            self.businesses.add(name)
            self.doors[name] = f"{host_url}/telegram"
            self.bots.add(token_of(name))

    def sandbox(self, name: str) -> Sandbox | None:
        """Organisation ``name``'s sandbox, built on its first call."""
        if name not in self.businesses:
            return None
        if name not in self.sandboxes:
            host_url = self.doors[name].removesuffix("/telegram")
            scenario = parse_scenario(scenario_for(name, host_url))
            base_url = f"{self.services_url}{SANDBOX_PREFIX}{name}/api/v1"
            self.sandboxes[name] = Sandbox(scenario, base_url=base_url)
        return self.sandboxes[name]

    def chat(self, name: str, index: int) -> Chat:
        """Customer ``index`` of business ``name``."""
        key = (name, FIRST_CHAT + index)
        if key not in self.chats:
            self.chats[key] = Chat(name, FIRST_CHAT + index)
        return self.chats[key]

    def _arrived(self, token: str, chat_id: int, arrival: Arrival) -> None:
        chat = self.chats.get((self.names.get(token, ""), chat_id))
        if chat is None or chat.turn is None:
            return
        chat.turn.arrivals.append(arrival.at)
        chat.turn.answered.set()
        if self.transcript is not None:
            self.transcript.append(f"{chat.name} step {chat.step}: {arrival.text[:60]!r}")

    async def turn(self, chat: Chat) -> Turn:
        """The chat's next step pushed to the host; returns once its first answer arrived
        (or ``ANSWER_TIMEOUT`` passed, or the host refused it)."""
        token = token_of(chat.name)
        update = SCRIPT[chat.step](self.updates, self.bots, token, chat.chat_id)
        restarted = update is None
        if update is None:
            chat.step = 0
            update = SCRIPT[0](self.updates, self.bots, token, chat.chat_id)
            assert update is not None
        chat.step = (chat.step + 1) % len(SCRIPT)
        body = json.dumps(update).encode()
        headers = {
            "content-type": "application/json",
            "x-telegram-bot-api-secret-token": secret_of(chat.name),
        }
        turn = chat.turn = Turn(time.perf_counter(), restarted=restarted)
        try:
            response = await self.client.post(self.doors[chat.name], content=body, headers=headers)
        except httpx.HTTPError as error:  # the host dropped the connection or timed out
            turn.status = 0
            turn.error = type(error).__name__
            chat.step = 0
            return turn
        turn.status = response.status_code
        if response.status_code != 200:  # refused (not a business yet) or not taken
            chat.step = 0
            return turn
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(turn.answered.wait(), ANSWER_TIMEOUT)
        return turn

    async def turns(self, pairs: list[tuple[str, int]], concurrency: int) -> list[Turn]:
        """The turns of ``pairs`` (business, chat), ``concurrency`` at a time."""
        gate = asyncio.Semaphore(concurrency)

        async def one(name: str, index: int) -> Turn:
            async with gate:
                return await self.turn(self.chat(name, index))

        return await asyncio.gather(*(one(name, index) for name, index in pairs))

    async def load(
        self, names: list[str], chats: int, rate: float, seconds: float, settle: float
    ) -> JSON:
        """Turns at ``rate`` a second for ``seconds``, spread over ``names`` and ``chats``
        each (business after business, so every business has a turn each round); a chat
        whose previous turn is still waited for is skipped to the next. The figures once
        every turn was answered and ``settle`` seconds more (a turn's later messages)."""
        order = [(name, index) for index in range(chats) for name in names]
        busy: set[tuple[str, int]] = set()
        results: list[Turn] = []
        running: set[asyncio.Task[None]] = set()
        calls_before, too_many_before = Counter(self.bots.calls), self.bots.too_many
        skipped = 0

        async def one(key: tuple[str, int]) -> None:
            busy.add(key)
            try:
                results.append(await self.turn(self.chat(*key)))
            finally:
                busy.discard(key)

        position = 0
        started = time.perf_counter()
        for number in range(int(rate * seconds)):
            delay = started + number / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            key = order[position % len(order)]
            position += 1
            while key in busy:
                skipped += 1
                key = order[position % len(order)]
                position += 1
            task = asyncio.create_task(one(key))
            running.add(task)
            task.add_done_callback(running.discard)
        pushed = time.perf_counter() - started
        await asyncio.gather(*running)
        await asyncio.sleep(settle)
        calls = Counter(self.bots.calls)
        calls.subtract(calls_before)
        first = sorted(t.first for t in results if t.first is not None)
        last = sorted(t.last for t in results if t.last is not None)
        return {
            "turns": len(results),
            "answered": len(first),
            "seconds": pushed,
            "rate": len(results) / pushed,
            "first": _quantiles(first),
            "last": _quantiles(last),
            "statuses": Counter(str(t.status) for t in results),
            "push_errors": Counter(t.error for t in results if t.error),
            "restarts": sum(t.restarted for t in results),
            "skipped": skipped,
            "too_many": self.bots.too_many - too_many_before,
            "calls": {method: count for method, count in calls.items() if count},
        }

    def stats(self) -> JSON:
        return {
            "calls": dict(self.bots.calls),
            "too_many": self.bots.too_many,
            "unknown": dict(self.bots.unknown),
            "sandboxes": len(self.sandboxes),
            "webhooks_set": sum(bot.webhook is not None for bot in self.bots.bots.values()),
        }


def _quantiles(ordered: list[float]) -> JSON:
    """p50, p95, p99, max and mean of ``ordered`` (seconds), None where there is none."""
    if not ordered:
        return {"p50": None, "p95": None, "p99": None, "max": None, "mean": None}
    return {
        **{f"p{round(q * 100)}": _quantile(ordered, q) for q in (0.50, 0.95, 0.99)},
        "max": ordered[-1],
        "mean": statistics.fmean(ordered),
    }


def _quantile(ordered: list[float], q: float) -> float | None:
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class App:
    """The one ASGI app of the module docstring."""

    def __init__(self, services: Services) -> None:
        self.services = services

    async def __call__(self, scope: JSON, receive: Any, send: Any) -> None:
        path: str = scope.get("path", "")
        if scope["type"] == "http" and path.startswith(SANDBOX_PREFIX):
            name, _, rest = path[len(SANDBOX_PREFIX) :].partition("/")
            sandbox = self.services.sandbox(name)
            if sandbox is None:
                await _json(send, 404, {"error": "no such organisation"})
                return
            inner = {**scope, "path": "/" + rest, "raw_path": ("/" + rest).encode()}
            await sandbox.app(inner, receive, send)
        elif scope["type"] == "http" and path.startswith("/_bench/"):
            body = b""
            while True:
                message = await receive()
                body += message.get("body", b"")
                if not message.get("more_body"):
                    break
            answer = await self.control(path[len("/_bench/") :], json.loads(body or b"{}"))
            await _json(send, 200, answer)
        else:
            await self.services.bots(scope, receive, send)

    async def control(self, command: str, request: JSON) -> Any:
        services = self.services
        if command == "register":
            services.register(request["names"], request["host_url"], request["services_url"])
            return {"registered": len(services.names)}
        if command == "turns":
            pairs = [(name, index) for name, index in request["pairs"]]
            results = await services.turns(pairs, request.get("concurrency", 1))
            return [{"first": t.first, "status": t.status} for t in results]
        if command == "load":
            return await services.load(
                request["names"],
                request["chats"],
                request["rate"],
                request["seconds"],
                request.get("settle", 1.0),
            )
        if command == "transcript":
            services.transcript = [] if request.get("on") else None
            return {}
        if command == "read_transcript":
            return services.transcript or []
        return services.stats()


async def _json(send: Any, status: int, answer: Any) -> None:
    body = json.dumps(answer).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def serve(port: int) -> None:
    limits = httpx.Limits(max_connections=256, max_keepalive_connections=256)
    async with httpx.AsyncClient(limits=limits, timeout=30.0) as client:
        services = Services(client=client)
        sockets = [listening_socket("127.0.0.1", port)]
        server = await start_web_server(App(services), sockets)  # type: ignore[arg-type]
        print("ready", flush=True)
        try:
            await asyncio.Event().wait()  # until the benchmark terminates this process
        finally:
            await server.shutdown(sockets=sockets)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("port", type=int)
    asyncio.run(serve(parser.parse_args().port))

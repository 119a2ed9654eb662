"""Parts for killing the real ``deliverybot run`` with SIGKILL while it relays partner events.

* ``SlowSends``: an ASGI wrapper around the fake Bot API. A ``sendMessage`` is put in its chat
  at once (Telegram has it), then its answer is held for ``delay`` seconds (a slow Bot API), so
  a kill can land while the bot waits for it. Every send's arrival is an awaitable event.
* ``BotProcess``: ``python -m bot run`` as a child process over one SQLite file (started as
  ``real_instances`` starts every instance); ``start`` returns once the new process polls
  Telegram, ``kill`` is ``kill -9``.
* ``EventRecorder`` takes the sandbox's signed webhook requests as it sends them;
  ``PartnerDelivery`` posts them to the running bot over loopback, each until the bot
  acknowledges it with a 2xx, waiting for the next start when the bot is down, as the service
  retries.
"""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.preloaded_runs import RunningProcess
from tests.e2e.real_instances import start_instance

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class Arrival:
    """A ``sendMessage`` the fake took: ``message_id`` is its id in chat ``chat_id``."""

    chat_id: int
    message_id: int
    text: str


class SlowSends:
    """The fake Bot API, slow to answer ``sendMessage``; see the module docstring.

    ``arrivals`` lists every send the fake took, in order; ``unanswered`` those whose answer
    is still held; ``calls`` every method called, in order.
    """

    def __init__(self, app: Asgi, *, delay: float) -> None:
        self._app = app
        self._delay = delay
        self.arrivals: list[Arrival] = []
        self.unanswered: set[Arrival] = set()
        self.calls: list[str] = []
        self._changed = asyncio.Condition()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = str(scope.get("path", "")).rsplit("/", 1)[-1]
        if scope["type"] == "http":
            await self._note(lambda: self.calls.append(method))
        if scope["type"] != "http" or method.lower() != "sendmessage":
            await self._app(scope, receive, send)
            return
        held: list[Message] = []

        async def hold(message: Message) -> None:
            held.append(message)

        await self._app(scope, receive, hold)  # the message is in the chat from here on
        body = b"".join(m.get("body", b"") for m in held if m["type"] == "http.response.body")
        result = json.loads(body).get("result") or {}
        chat_id = int(result.get("chat", {}).get("id", 0))
        arrival = Arrival(chat_id, int(result.get("message_id", 0)), str(result.get("text", "")))
        await self._note(lambda: (self.arrivals.append(arrival), self.unanswered.add(arrival)))
        try:
            # The slowness of the Bot API itself, not a wait of the test: the answer is late.
            await asyncio.sleep(self._delay)
            for message in held:
                await send(message)
        finally:
            self.unanswered.discard(arrival)
            await self._note(lambda: None)

    async def _note(self, change: Callable[[], object]) -> None:
        async with self._changed:
            change()
            self._changed.notify_all()

    async def sends_reach(self, count: int, *, timeout: float = 20.0) -> None:
        """Return once the fake has taken ``count`` sends in all."""
        await self._wait(lambda: len(self.arrivals) >= count, timeout)

    async def all_answered(self, distinct: int, *, timeout: float = 20.0) -> None:
        """Return once ``distinct`` different messages (chat and text) arrived and the fake
        answered every send it took."""

        def done() -> bool:
            arrived = {(a.chat_id, a.text) for a in self.arrivals}
            return len(arrived) >= distinct and not self.unanswered

        await self._wait(done, timeout)

    async def called_since(self, method: str, seen: int, *, timeout: float = 20.0) -> None:
        """Return once ``method`` is called after the first ``seen`` calls."""
        await self._wait(lambda: method in self.calls[seen:], timeout)

    async def _wait(self, ready: Callable[[], bool], timeout: float) -> None:
        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(ready)


class BotProcess:
    """``deliverybot run --config <config>`` as a child process; one at a time."""

    def __init__(self, config: Path, telegram: SlowSends, log: Path) -> None:
        self._config = config
        self._telegram = telegram
        self._log = log
        self._child: RunningProcess | None = None
        self.starts = 0
        self._started = asyncio.Condition()

    async def start(self) -> None:
        """Start the bot and return once it polls Telegram (its web app listens by then)."""
        seen = len(self._telegram.calls)
        # Polling: no port of its own to name (the instance's port is for webhook mode).
        self._child = (await start_instance(self._config, 0, self._log)).process
        await self._telegram.called_since("getUpdates", seen)
        async with self._started:
            self.starts += 1
            self._started.notify_all()

    async def started_after(self, starts: int) -> None:
        """Return once the bot has been started more than ``starts`` times."""
        async with self._started:
            await self._started.wait_for(lambda: self.starts > starts)

    async def kill(self) -> None:
        """``kill -9``: nothing in the process runs after it."""
        child = self._require()
        child.send_signal(signal.SIGKILL)
        assert await child.wait() == -signal.SIGKILL

    async def stop(self) -> int:
        """SIGTERM, the way an operator stops it; its exit code."""
        child = self._require()
        child.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(child.wait(), timeout=15)

    async def ensure_dead(self) -> None:
        """Kill the child if a failed test left it running."""
        if self._child is not None and self._child.returncode is None:
            await self.kill()

    def _require(self) -> RunningProcess:
        if self._child is None:
            raise RuntimeError("the bot was never started")
        return self._child


@dataclass(frozen=True)
class SignedEvent:
    """One webhook request as the sandbox sent it: the raw body and its headers."""

    event_id: str
    delivery_id: str
    event_type: str
    body: bytes
    headers: dict[str, str]


class EventRecorder(httpx.AsyncBaseTransport):
    """The sandbox's webhook transport: keeps each signed request and answers 200."""

    def __init__(self) -> None:
        self.events: list[SignedEvent] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        event = json.loads(body)
        headers = {
            name: value
            for name, value in request.headers.items()
            if name.lower() in {"content-type", "service-event", "service-signature"}
        }
        self.events.append(
            SignedEvent(event["id"], event["data"]["object"]["id"], event["type"], body, headers)
        )
        return httpx.Response(200)


class PartnerDelivery:
    """Posts signed events to the bot in order, each until it is acknowledged (2xx)."""

    def __init__(self, url: str, bot: BotProcess) -> None:
        self._url = url
        self._bot = bot
        self.acknowledged: list[str] = []
        self.refused = 0  # attempts that found the bot down or were cut off by a kill

    async def post_all(self, events: list[SignedEvent]) -> None:
        """Deliver every event; a failed attempt is retried once the bot started again."""
        # No keep-alive: a pooled connection of a killed process would fail the next post.
        limits = httpx.Limits(max_keepalive_connections=0)
        async with httpx.AsyncClient(limits=limits, timeout=10) as web:
            for event in events:
                while True:
                    starts = self._bot.starts
                    try:
                        response = await web.post(
                            self._url, content=event.body, headers=event.headers
                        )
                    except httpx.TransportError:
                        self.refused += 1
                        await self._bot.started_after(starts)
                        continue
                    response.raise_for_status()  # anything but a 2xx from a live bot is a bug
                    self.acknowledged.append(event.event_id)
                    break

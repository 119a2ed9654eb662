"""Fakes for the Partner client tests: a clock, sleeps that never sleep, a scripted API."""

from __future__ import annotations

import asyncio
import json
import random
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from bot.partner.client import PartnerClient
from bot.partner.options import ClientOptions
from bot.partner.request_limiter import RequestLimiter
from tests.support.clock import FakeClock
from tests.support.partner_json import Payloads

BASE_URL = "https://partner.test/api/v1"
API_KEY = "sk_live_TESTKEY0123456789abcdef"
START = 1_700_000_000.0


class FakeSleep:
    """Records each wait and moves the clock by it, instead of sleeping."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        self.clock.advance(seconds)
        await asyncio.sleep(0)  # still a suspension point, like a real sleep


class GatedSleep:
    """A sleep that waits until the test releases it, so waiters can be looked at mid-wait."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.pending: list[tuple[float, asyncio.Future[None]]] = []
        self.started = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((seconds, future))
        self.started.set()
        await future

    def release_all(self) -> None:
        """Advance the clock by the longest pending wait and wake every sleeper."""
        if not self.pending:
            return
        self.clock.advance(max(seconds for seconds, _ in self.pending))
        for _, future in self.pending:
            if not future.done():
                future.set_result(None)
        self.pending.clear()
        self.started.clear()


class FixedRandom(random.Random):
    """``uniform(a, b)`` always lands at the same fraction of the interval."""

    def __init__(self, fraction: float) -> None:
        super().__init__(0)
        self.fraction = fraction

    def uniform(self, a: float, b: float) -> float:
        return a + (b - a) * self.fraction


Reply = httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


class FakeApi:
    """A MockTransport handler: scripted replies per ``(method, path)``, every request kept.

    The last reply queued for a route is repeated once the others are used up. An exception
    reply is raised as the transport would raise it.
    """

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self._replies: dict[tuple[str, str], deque[Reply]] = defaultdict(deque)

    def on(self, method: str, path: str, *replies: Reply) -> None:
        self._replies[(method, "/api/v1" + path)].extend(replies)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        queue = self._replies.get((request.method, request.url.path))
        if not queue:
            return reply(404, {"ok": False, "error": "no route in test", "code": "not_found"})
        current = queue.popleft() if len(queue) > 1 else queue[0]
        if isinstance(current, Exception):
            raise current
        if callable(current) and not isinstance(current, httpx.Response):
            return current(request)
        return current

    def bodies(self) -> list[Any]:
        return [json.loads(r.content) if r.content else None for r in self.requests]

    @staticmethod
    def reply(
        status: int, body: Any = None, headers: dict[str, str] | None = None
    ) -> httpx.Response:
        return reply(status, body, headers)

    @staticmethod
    def error(
        status: int, code: str | None, message: str = "failed", **extra: Any
    ) -> httpx.Response:
        return error_reply(status, code, message, **extra)


def reply(status: int, body: Any = None, headers: dict[str, str] | None = None) -> httpx.Response:
    """A JSON answer (or raw bytes/str when ``body`` is bytes or str)."""
    if isinstance(body, bytes | str):
        return httpx.Response(status, content=body, headers=headers)
    return httpx.Response(status, json=body, headers=headers)


def error_reply(
    status: int, code: str | None, message: str = "failed", **extra: Any
) -> httpx.Response:
    headers = extra.pop("headers", None)
    body: dict[str, Any] = {"ok": False, "error": message, **extra}
    if code is not None:
        body["code"] = code
    return reply(status, body, headers)


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def payloads() -> type[Payloads]:
    return Payloads


@pytest.fixture
def api_key() -> str:
    return API_KEY


@pytest.fixture
def base_url() -> str:
    return BASE_URL


@pytest.fixture
def fixed_rng() -> Callable[[float], random.Random]:
    """``fixed_rng(f)``: a Random whose ``uniform(a, b)`` is always ``a + (b - a) * f``."""
    return FixedRandom


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def sleeper(clock: FakeClock) -> FakeSleep:
    return FakeSleep(clock)


@pytest.fixture
def gated_sleep(clock: FakeClock) -> GatedSleep:
    return GatedSleep(clock)


@pytest.fixture
def api() -> FakeApi:
    return FakeApi()


ClientFactory = Callable[..., PartnerClient]


@pytest.fixture
async def make_client(
    api: FakeApi, clock: FakeClock, sleeper: FakeSleep
) -> AsyncIterator[ClientFactory]:
    """Builds clients over ``api`` on the fake clock; all are closed after the test."""
    made: list[PartnerClient] = []

    def build(**kwargs: Any) -> PartnerClient:
        kwargs.setdefault("options", ClientOptions())
        kwargs.setdefault("transport", httpx.MockTransport(api))
        kwargs.setdefault("clock", clock)
        kwargs.setdefault("sleep", sleeper)
        kwargs.setdefault("rng", FixedRandom(0.5))
        kwargs.setdefault("limiter", RequestLimiter(clock=clock, sleep=sleeper))
        client = PartnerClient(BASE_URL, API_KEY, **kwargs)
        made.append(client)
        return client

    yield build
    for client in made:
        await client.aclose()


@pytest.fixture
def client(make_client: ClientFactory) -> PartnerClient:
    return make_client()

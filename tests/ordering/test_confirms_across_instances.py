"""100 customers confirming at once across three instances on one PostgreSQL database.

Each instance is what ``build_core`` makes of its own ``Store.connect_postgres``: its own
Partner client (with the shared rate budget), capability cache, engine and ``ChatService``;
turns are run under the store's chat locks, as the Telegram update processor runs them. They
share the database and one sandbox whose key allows 60 requests a minute. Each customer fills
an order on one instance and then taps confirm twice, the two taps landing on two different
instances at the same moment. Time is the sandbox's and the bot's fake clock (a rate wait
moves it on), so a minute's budget costs no real minute.

Expected: every customer gets exactly one delivery (0 duplicates), and the service never
refuses a request for the rate limit (0 refusals caused by the bot).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.ordering import ChatService, build_engine
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.partner.shared_request_limiter import SharedRequestLimiter, key_fingerprint
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.sandbox import Sandbox, parse_scenario
from bot.store import Store
from bot.store.pg_database import PgDatabase
from bot.store.pg_local_server import LocalPostgres
from bot.store.pg_rate_budget import PgRateBudget
from conversations import Answer
from tests.ordering.conftest import CONFIRM_ANSWER, TO_SUMMARY, _photo, public_resolver
from tests.support.clock import FakeClock

CUSTOMERS = 100
INSTANCES = 3


class RefusalCounter(httpx.AsyncBaseTransport):
    """The instances' way to the sandbox, counting the service's 429 answers."""

    def __init__(self, sandbox: Sandbox) -> None:
        self._inner = httpx.ASGITransport(app=sandbox.app)
        self.refused = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        if response.status_code == 429:
            self.refused += 1
        return response


@dataclass
class Instance:
    store: Store
    client: PartnerClient
    chats: ChatService

    async def turn(self, chat_id: int, answer: Answer | None = None) -> None:
        """A turn of the private Telegram chat ``chat_id``, as the update processor runs it."""
        chat, user = ChatRef(TELEGRAM, chat_id), UserRef(TELEGRAM, chat_id)
        async with self.store.chat_locks.hold(chat):
            if answer is None:
                await self.chats.start(chat, user)
            else:
                await self.chats.handle(chat, user, answer)


@pytest.fixture
async def instances(
    postgres_server: LocalPostgres,
    tmp_path: Path,
    clock: FakeClock,
    scenario_data: dict[str, Any],
) -> AsyncIterator[tuple[list[Instance], Sandbox, RefusalCounter]]:
    scenario_data["organization"]["rate_limit_per_minute"] = 60
    sandbox = Sandbox(
        parse_scenario(scenario_data),
        clock=clock,
        sleep=clock.sleep,
        image_transport=httpx.MockTransport(_photo),
        resolver=public_resolver,
    )
    transport = RefusalCounter(sandbox)
    dsn = await postgres_server.create_database("confirms_across_instances")
    made: list[Instance] = []
    try:
        for _ in range(INSTANCES):
            store = await Store.connect_postgres(
                dsn, media_dir=tmp_path / "media", clock=clock, channels=SHIPPED_CHANNEL_KINDS
            )
            assert isinstance(store._db, PgDatabase)
            budget = PgRateBudget(store._db, clock=clock)
            limiter = SharedRequestLimiter(
                budget, key_fingerprint(sandbox.api_key), clock=clock, sleep=clock.sleep
            )
            client = PartnerClient(
                sandbox.base_url,
                sandbox.api_key,
                transport=transport,
                limiter=limiter,
                clock=clock,
                sleep=clock.sleep,
            )
            cache = CapabilityCache.for_client(client, clock=clock)
            engine = build_engine(client, cache, store=store)
            made.append(Instance(store, client, ChatService(engine, store, clock=clock)))
        yield made, sandbox, transport
    finally:
        for instance in made:
            await instance.chats.aclose()
            await instance.client.aclose()
            await instance.store.close()
        await sandbox.aclose()


async def test_a_hundred_confirms_on_three_instances_make_one_delivery_each_without_a_429(
    instances: tuple[list[Instance], Sandbox, RefusalCounter],
) -> None:
    nodes, sandbox, transport = instances

    async def customer(number: int) -> None:
        chat_id = 5000 + number
        home = nodes[number % INSTANCES]
        await home.turn(chat_id)
        for answer in TO_SUMMARY:
            await home.turn(chat_id, answer)
        # A double tap: the two updates reach two instances at once.
        other = nodes[(number + 1) % INSTANCES]
        await asyncio.gather(
            home.turn(chat_id, CONFIRM_ANSWER), other.turn(chat_id, CONFIRM_ANSWER)
        )

    await asyncio.gather(*(customer(number) for number in range(CUSTOMERS)))

    store = nodes[0].store
    counts = [
        await store.deliveries.count_for_user(UserRef("telegram", 5000 + n))
        for n in range(CUSTOMERS)
    ]
    assert counts == [1] * CUSTOMERS
    assert sandbox.call_counts()["create_delivery"] == CUSTOMERS
    assert transport.refused == 0

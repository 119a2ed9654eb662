"""100 customers confirming at once on three real ``deliverybot run`` processes, one database.

The harness of ``real_instances``: each instance a subprocess in webhook mode on its own
loopback port, the fake Bot API in this process, the database on the session's throwaway
PostgreSQL server. The Partner sandbox is served on loopback too, its key allowed 60 requests a
minute (the sandbox's fixed 60-second windows), and every answer it gives is counted here, so a
429 the bot provoked cannot go unseen.

The 100 orders are not typed into the chats one answer at a time (1,600 updates would cost more
than the minute the test is about): one customer's order is filled in this process by the same
engine over the same database, and its session, as the engine wrote it at the summary, is saved
for each of the 100 chats (with its own session id and customer). Then, through Telegram
updates sent round-robin to the instances' webhook, each customer says /start (the summary is
shown again) and all 100 tap "Confirm and send" at once.

Expected, and asserted: 100 deliveries, one per customer (0 duplicates), and not one 429 from
the sandbox. Printed, not asserted: how many customers waited more than 3 s for their answer and
how many of them were told first (and who was not). The notice is decided just before each
create from the key's shared budget (``SharedRequestLimiter.expected_wait``); the turns that
asked at the same moment on other instances are not in that forecast, so a create it saw no
wait for is watched and its customer told if it still waits 1.5 s later. Not asserted because
it is a matter of time on a loaded machine: a turn slower than 3 s to reach its create would
count as untold. Real time: one to two minutes (the key's budget is spent in the first
window; the rest go in the next).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.chat_ref import UserRef
from bot.store import Store
from conversations.texts import dialogue
from conversations.texts.catalogue import DEFAULT_TEXTS
from tests.e2e.real_instances import (
    Instance,
    Partner,
    deployment,
    is_summary,
    push,
    seed_sessions_at_the_summary,
)
from tests.fakes import FakeTelegram, TgUser
from tests.support.words import say

CUSTOMERS = 100
INSTANCES = 3
RATE_PER_MINUTE = 60
QUIET_SECONDS = 3.0  # ``bot.ordering.create_wait.QUIET_SECONDS``: longer waits are said
FIRST_CHAT = 810_000
# Long enough for the second window and a loaded machine; the test ends as soon as all answer.
ANSWER_TIMEOUT = 240.0
# "Many orders are going out ..."
WAITING = dialogue.create_waiting(DEFAULT_TEXTS.business_catalogue(), 60).split(" about ")[0]
CREATED = say("dialogue.created", ref="@@").split("@@")[0]


@pytest.fixture
async def cluster(
    tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[tuple[list[Instance], FakeTelegram, Store, Partner]]:
    async with deployment(
        "postgres", tmp_path, request, rate_limit_per_minute=RATE_PER_MINUTE, pool_size=None
    ) as world:
        instances = await world.start_many(INSTANCES)
        yield instances, world.tg, world.backing.store, world.partner


async def test_a_hundred_customers_confirming_at_once_on_three_processes(
    cluster: tuple[list[Instance], FakeTelegram, Store, Partner],
) -> None:
    instances, tg, store, partner = cluster
    customers = [TgUser(FIRST_CHAT + number, f"Customer {number}") for number in range(CUSTOMERS)]
    for user in customers:
        tg.add_chat(user)
    await seed_sessions_at_the_summary(store, partner, [user.id for user in customers])
    turn = itertools.count()

    async def push_next(client: httpx.AsyncClient, update: dict[str, Any]) -> None:
        await push(client, instances[next(turn) % len(instances)], update)  # round-robin

    async with httpx.AsyncClient(timeout=30) as client:
        # /start shows each customer's summary again, with its buttons.
        for user in customers:
            await push_next(client, tg.updates.command(user, "start"))
        summaries = {}
        for user in customers:
            summaries[user.id] = await tg.wait_for_message(user.id, is_summary, timeout=60)
        seen = {user.id: len(tg.sent_messages(user.id)) for user in customers}
        taps = [tg.updates.tap(summaries[user.id], "Confirm and send") for user in customers]
        tapped_at = time.monotonic()
        await asyncio.gather(*(push_next(client, tap) for tap in taps))

        async def answered(user: TgUser) -> float:
            await tg.wait_for_message(user.id, lambda m: CREATED in (m.text or ""),
                                      after=seen[user.id], timeout=ANSWER_TIMEOUT)  # fmt: skip
            return time.monotonic() - tapped_at

        waited = await asyncio.gather(*(answered(user) for user in customers))

    counts = [
        await store.deliveries.count_for_user(UserRef("telegram", user.id)) for user in customers
    ]
    told = [
        any(WAITING in (m.text or "") for m in tg.sent_messages(user.id)[seen[user.id] :])
        for user in customers
    ]
    long_waits = [seconds for seconds in waited if seconds > QUIET_SECONDS]
    untold = [
        (user.id, round(seconds, 1))
        for user, seconds, said in zip(customers, waited, told, strict=True)
        if seconds > QUIET_SECONDS and not said
    ]
    print(
        f"{CUSTOMERS} confirms on {INSTANCES} processes: {sum(counts)} deliveries, "
        f"{partner.sandbox.call_counts()['create_delivery']} creates, "
        f"{partner.counter.refused} refused (429), {len(long_waits)} waited > {QUIET_SECONDS} s "
        f"({sum(told)} told), longest {max(waited):.1f} s"
    )
    assert counts == [1] * CUSTOMERS
    assert partner.sandbox.call_counts()["create_delivery"] == CUSTOMERS
    assert partner.counter.refused == 0
    # Not asserted: that every customer who waited more than 3 s was told (a matter of time on
    # a loaded machine, see the module docstring). Printed instead, with who was not.
    print(f"waited > {QUIET_SECONDS} s without being told: {untold}")

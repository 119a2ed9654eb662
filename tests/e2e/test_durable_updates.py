"""Telegram updates stored before their webhook's 200, on real ``deliverybot run`` processes.

The harness of ``real_instances`` (instances in webhook mode on loopback, the fake Bot API and
the sandbox in this process).

* A kill between the 200 and the handling: a customer's message reaches an instance while their
  chat is busy (its create waits in the sandbox), is answered 200 and waits for the chat; the
  instance is killed with SIGKILL. On SQLite the restarted instance handles it, on PostgreSQL
  the other instance: nothing acknowledged is lost.
* Order across instances: two instances on PostgreSQL, 20 chats each sending 10 messages back to
  back (each sent once the previous one was answered 200), alternately to one instance and the
  other: every chat's messages are handled in the order they were sent (the order of the times
  their ids were recorded as handled), 0 out of order.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from pathlib import Path

import httpx
import pytest

from bot.store import Store
from tests.e2e.real_instances import (
    CreateArrivals,
    at_the_summary,
    confirm_held,
    deployment,
    kill,
    push,
)
from tests.fakes import TgUser

CUSTOMER = TgUser(840_001, "Acknowledged Then Killed")
HANDLED_WITHIN = 60.0
CHATS = 20
# A chat's replies are paced (3 at once, then one a second), so each message more is a second
# more: 10 give each chat 9 hand-overs between the instances to keep in order.
MESSAGES = 10
FIRST_CHAT = 850_000


async def handled(store: Store, update_ids: list[int], timeout: float) -> dict[int, float]:
    """When each of ``update_ids`` was recorded as handled, once all are (polled: the handling
    happens in other processes)."""
    marks = ",".join("?" * len(update_ids))
    query = f"SELECT update_id, seen_at FROM seen_updates WHERE update_id IN ({marks})"  # noqa: S608
    deadline = time.monotonic() + timeout
    while True:
        rows = await store._db.fetch_all(query, update_ids)
        if len(rows) == len(update_ids) or time.monotonic() > deadline:
            return {int(row[0]): float(row[1]) for row in rows}
        await asyncio.sleep(0.2)


async def inbox_empties(store: Store, timeout: float) -> bool:
    """Whether the update inbox is empty within ``timeout`` (polled, like ``handled``)."""
    deadline = time.monotonic() + timeout
    while True:
        if await store.telegram_inbox.count() == 0:
            return True
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.1)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_an_update_acknowledged_before_a_kill_is_handled_after_it(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    async with deployment(backend, tmp_path, request, counter=CreateArrivals()) as world:
        tg = world.tg
        first, summary = await at_the_summary(world, CUSTOMER)
        # The chat stays busy: its create waits in the sandbox.
        tapping = await confirm_held(world, first, summary, 6.0)
        waiting = tg.updates.text(CUSTOMER, "Is it on its way?")
        await push(world.client, first, waiting)  # 200: stored, waiting for the chat
        await kill(first)
        killed_at = time.monotonic()
        with contextlib.suppress(httpx.HTTPError):
            await tapping
        if backend == "sqlite":
            await world.start(port=first.port)

        store = await world.backing.reopen()
        update_id = int(waiting["update_id"])
        seen = await handled(store, [update_id], HANDLED_WITHIN)
        assert update_id in seen, "the acknowledged update was lost"
        seconds = time.monotonic() - killed_at
        print(f"{backend}: an update acknowledged before a kill, handled {seconds:.1f} s later")
        # Handled, so it left the inbox (the handling commits first: wait for the removal).
        assert await inbox_empties(store, timeout=10)


async def test_back_to_back_updates_on_two_instances_are_handled_in_order(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    customers = [TgUser(FIRST_CHAT + number, f"Customer {number}") for number in range(CHATS)]
    async with deployment("postgres", tmp_path, request) as world:
        tg, store = world.tg, world.backing.store
        instances = await world.start_many(2)
        for user in customers:
            tg.add_chat(user)
        sent: dict[int, list[int]] = {}

        async def chat(number: int, user: TgUser) -> None:
            turn = itertools.count(number)  # chats start on alternate instances
            sent[user.id] = []
            for message in range(MESSAGES):
                update = tg.updates.text(user, f"message {message}")
                sent[user.id].append(int(update["update_id"]))
                await push(world.client, instances[next(turn) % 2], update)

        await asyncio.gather(*(chat(n, user) for n, user in enumerate(customers)))
        every = [update_id for ids in sent.values() for update_id in ids]
        seen = await handled(store, every, HANDLED_WITHIN)
        assert len(seen) == len(every)
        out_of_order = [
            user_id
            for user_id, ids in sent.items()
            if [seen[i] for i in ids] != sorted(seen[i] for i in ids)
        ]
        print(f"{CHATS} chats x {MESSAGES} updates on 2 instances: "
              f"{len(out_of_order)} chats out of order")  # fmt: skip
        assert out_of_order == []

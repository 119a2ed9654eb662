"""Three real ``deliverybot run`` processes on one PostgreSQL database, one killed mid-way.

Each instance is a subprocess (``python -m bot run``) in webhook mode on its own loopback port,
with the same config and secrets: the fake Bot API and the Partner sandbox run in this process,
the database on the session's throwaway server. 1,000 signed Partner events (200 deliveries,
five events each, in order) are posted round-robin to the instances, a few at a time, as the
service would (an event an instance does not acknowledge is sent to another). Half-way one
instance is killed with SIGKILL. Then every acknowledged event must reach its chat (0 lost),
messages sent twice must be no more than the events that were leased (in flight) at the kill,
and no chat may be told an older update after a newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.chat_ref import ChatRef
from bot.partner.signing import sign
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.sandbox import default_scenario
from bot.sandbox.server import SandboxServer
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres, free_loopback_port
from bot.telegram.webhook_route import SECRET_TOKEN_HEADER, TELEGRAM_PATH
from tests.e2e.real_instances import (
    SECRET_TOKEN,
    Instance,
    config_text,
    start_instance,
    stop_instances,
    wait_until_serving,
)
from tests.fakes import FakeTelegram, TgUser
from tests.support.partner_json import compact, webhook_event

SIGNING_SECRET = "whsec_several_instances_secret_01"
DELIVERIES = 200
STEPS = ("matched", "picked_up", "in_transit", "in_transit", "delivered")
LEASE_SECONDS = 4.0
HINT = re.compile(r"Update (\d+)-(\d+)\.")


def instance_config(
    partner: SandboxServer, tg: FakeTelegram, dsn: str, port: int, media: Path
) -> str:
    storage = (
        f'[storage]\nbackend = "postgres"\nmedia_dir = "{media}"\n\n'
        f'[storage.postgres]\ndsn = "{dsn}"\npool_size = 4\nlease_seconds = {LEASE_SECONDS}'
    )
    webhooks = f'[webhooks]\nenabled = true\nsigning_secret = "{SIGNING_SECRET}"'
    return config_text(partner.sandbox, tg, port, storage, operators="", extra=webhooks)


def event_body(number: int, step: int) -> bytes:
    body = webhook_event(
        f"evt_{number:04d}_{step}",
        {"id": f"dlv-{number:04d}", "status": STEPS[step], "rider_assigned": True},
        created=1_800_000_000 + step * 60,
        previous_status=STEPS[step - 1] if step else "pending",
        summary=f"Delivery {number} is {STEPS[step]}.",
        hint=f"Update {number}-{step}.",
        docs_url="https://docs.example/webhooks",
    )
    return compact(body)


def chat_of(number: int) -> int:
    return 700_000 + number


@pytest.fixture
async def cluster(
    postgres_server: LocalPostgres, tmp_path: Path
) -> AsyncIterator[tuple[list[Instance], FakeTelegram, Store]]:
    dsn = await postgres_server.create_database("several_instances")
    media = tmp_path / "media"
    store = await Store.connect_postgres(
        dsn, media_dir=media, channels=SHIPPED_CHANNEL_KINDS
    )  # migrates before the instances
    async with (
        SandboxServer(default_scenario(), port=0) as partner,
        FakeTelegram.running() as tg,
        httpx.AsyncClient(timeout=10) as client,
    ):
        for number in range(DELIVERIES):
            tg.add_chat(TgUser(chat_of(number), f"Customer {number}"))
        instances: list[Instance] = []
        try:
            for index in range(3):
                port = free_loopback_port()
                config = tmp_path / f"bot{index}.toml"
                text = instance_config(partner, tg, dsn, port, media)
                config.write_text(text, encoding="utf-8")
                instances.append(await start_instance(config, port, tmp_path / f"bot{index}.log"))
            for index, instance in enumerate(instances):
                await wait_until_serving(instance, client, tmp_path / f"bot{index}.log")
            yield instances, tg, store
        finally:
            await stop_instances(instances)
            await store.close()


async def test_a_killed_instance_loses_no_event_and_repeats_only_what_was_in_flight(
    cluster: tuple[list[Instance], FakeTelegram, Store],
) -> None:
    instances, tg, store = cluster
    for number in range(DELIVERIES):
        chat = ChatRef("telegram", chat_of(number))
        await store.deliveries.add(f"dlv-{number:04d}", chat, chat.id, 1.0, None, None)
    events = [(number, step) for step in range(len(STEPS)) for number in range(DELIVERIES)]
    alive = list(instances)
    turn = itertools.count()
    acknowledged: set[tuple[int, int]] = set()
    in_flight_at_kill = -1

    async def post(client: httpx.AsyncClient, number: int, step: int) -> None:
        body = event_body(number, step)
        while True:  # as the service does: an event not acknowledged is sent again
            target = alive[next(turn) % len(alive)]
            headers = {
                "Content-Type": "application/json",
                "Service-Event": "delivery.status_changed",
                "Service-Signature": sign(body, SIGNING_SECRET, int(time.time())),
            }
            with contextlib.suppress(httpx.HTTPError):
                answer = await client.post(f"{target.base_url}/hooks/partner",
                                           content=body, headers=headers)  # fmt: skip
                if answer.status_code == 200:
                    acknowledged.add((number, step))
                    return

    async with httpx.AsyncClient(timeout=10) as client:
        for start in range(0, len(events), 10):
            if start == len(events) // 2:
                victim = alive.pop(0)
                victim.process.send_signal(signal.SIGKILL)
                await victim.process.wait()
                row = await store._db.fetch_one(
                    "SELECT count(*) FROM inbox WHERE processed_at IS NULL"
                    " AND lease_until > extract(epoch FROM clock_timestamp())"
                )
                assert row is not None
                in_flight_at_kill = int(row[0])
            await asyncio.gather(*(post(client, *event) for event in events[start : start + 10]))

    # Every event must be relayed: wait for the inbox to drain (the leases of the killed
    # instance run out first). Nothing crosses the process boundary to wait on but the table.
    for _ in range(300):
        if not (await store.inbox.counts()).pending:
            break
        await asyncio.sleep(0.2)
    assert (await store.inbox.counts()).pending == 0

    told: dict[int, list[int]] = {}
    for message in tg.sent_messages():
        # A chat's backlog may go out as one message that tells several updates in turn.
        for found in HINT.finditer(message.text or ""):
            told.setdefault(int(found.group(1)), []).append(int(found.group(2)))
    assert len(acknowledged) == len(events)
    lost = [event for event in acknowledged if event[1] not in told.get(event[0], [])]
    assert lost == []
    duplicates = sum(len(steps) - len(set(steps)) for steps in told.values())
    print(f"{len(events)} events, {in_flight_at_kill} leased at the kill, {duplicates} sent twice")
    assert duplicates <= in_flight_at_kill
    # Never backwards: with repeats removed, each chat heard its updates in order.
    for steps in told.values():
        unique = [step for index, step in enumerate(steps) if step not in steps[:index]]
        assert unique == sorted(unique)
    for number in range(DELIVERIES):
        link = await store.deliveries.get(f"dlv-{number:04d}")
        assert link is not None and link.status == "delivered"


async def test_an_update_delivered_to_every_instance_is_answered_once(
    cluster: tuple[list[Instance], FakeTelegram, Store],
) -> None:
    instances, tg, _ = cluster
    dara, eze = TgUser(9001, "Dara"), TgUser(9002, "Eze")
    followers = [TgUser(9100 + index, f"Follower {index}") for index in range(len(instances))]
    for user in (dara, eze, *followers):
        tg.add_chat(user)
    headers = {SECRET_TOKEN_HEADER: SECRET_TOKEN}

    async def push(client: httpx.AsyncClient, instance: Instance, update: dict[str, Any]) -> None:
        url = f"{instance.base_url}{TELEGRAM_PATH}"
        answer = await client.post(url, json=update, headers=headers)
        assert answer.status_code == 200

    async with httpx.AsyncClient(timeout=10) as client:
        # Telegram repeating one update (a lost answer) lands on every instance at once.
        repeated = tg.updates.command(dara, "new")
        await asyncio.gather(*(push(client, instance, repeated) for instance in instances))
        # The same command once, for comparison; then one update per instance, queued after
        # the repeats, whose answers say each instance got through its queue.
        await push(client, instances[0], tg.updates.command(eze, "new"))
        for instance, follower in zip(instances, followers, strict=True):
            await push(client, instance, tg.updates.command(follower, "new"))
        for user in (dara, eze, *followers):
            await tg.wait_for_message(user.id, timeout=20)

    once = [message.text for message in tg.sent_messages(eze.id)]
    assert once and [message.text for message in tg.sent_messages(dara.id)] == once

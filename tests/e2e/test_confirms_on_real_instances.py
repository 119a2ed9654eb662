"""100 customers confirming at once on three real ``deliverybot run`` processes, one database.

The harness of ``test_several_instances``: each instance a subprocess in webhook mode on its own
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
import contextlib
import itertools
import json
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.bot_core import build_core
from bot.channels import ChannelRegistration
from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.sandbox.operations import API_PREFIX
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres, free_loopback_port
from bot.telegram.webhook_route import SECRET_TOKEN_HEADER, TELEGRAM_PATH
from conversations.texts import dialogue
from conversations.texts.catalogue import say
from tests.agents.conftest import LoopbackServer, RecordingChannel
from tests.e2e.test_several_instances import (
    SECRET_TOKEN,
    Instance,
    start_instance,
    stop_instances,
    wait_until_serving,
)
from tests.fakes import FakeTelegram, SentMessage, TgUser
from tests.ordering.conftest import TO_SUMMARY, _photo, public_resolver

CUSTOMERS = 100
INSTANCES = 3
RATE_PER_MINUTE = 60
QUIET_SECONDS = 3.0  # ``bot.ordering.create_wait.QUIET_SECONDS``: longer waits are said
FIRST_CHAT = 810_000
# Long enough for the second window and a loaded machine; the test ends as soon as all answer.
ANSWER_TIMEOUT = 240.0
WAITING = dialogue.create_waiting(60).split(" about ")[0]  # "Many orders are going out ..."
CREATED = say("dialogue.created", ref="@@").split("@@")[0]


class RefusalCounter:
    """The sandbox's ASGI app, counting the answers with status 429 it gives."""

    def __init__(self) -> None:
        self.app: Any = None
        self.refused = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def counting_send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and message["status"] == 429:
                self.refused += 1
            await send(message)

        await self.app(scope, receive, counting_send)


@dataclass
class Partner:
    """The sandbox served on loopback, with its 429 counter."""

    sandbox: Sandbox
    counter: RefusalCounter
    server: LoopbackServer = field(repr=False)


@contextlib.asynccontextmanager
async def served_partner() -> AsyncIterator[Partner]:
    counter = RefusalCounter()
    server = LoopbackServer(counter)
    data = default_scenario_data()
    data["organization"]["rate_limit_per_minute"] = RATE_PER_MINUTE
    sandbox = Sandbox(
        parse_scenario(data),
        base_url=f"{server.url}{API_PREFIX}",
        image_transport=httpx.MockTransport(_photo),  # the package photo's host
        resolver=public_resolver,
    )
    counter.app = sandbox.app
    await server.start()
    try:
        yield Partner(sandbox, counter, server)
    finally:
        await server.stop()
        await sandbox.aclose()


def config_text(partner: Sandbox, tg: FakeTelegram, dsn: str, port: int, media: Path) -> str:
    return f"""
[partner]
base_url = "{partner.base_url}"
api_key = "{partner.api_key}"

[telegram]
token = "{tg.token}"
api_base_url = "{tg.api_base_url}"
mode = "webhook"
public_base_url = "http://127.0.0.1:{port}"
listen_port = {port}
secret_token = "{SECRET_TOKEN}"

[operators]

[storage]
backend = "postgres"
media_dir = "{media}"

[storage.postgres]
dsn = "{dsn}"

[geocoding]

[relay]
"""


async def seed_sessions_at_the_summary(store: Store, partner: Partner, chats: list[int]) -> None:
    """One order filled in by the engine over ``store``; its session saved for every chat."""
    settings = CoreSettings(partner_base_url=partner.sandbox.base_url,
                            partner_api_key=partner.sandbox.api_key)  # fmt: skip
    # Over the counter too, and through the shared request budget like the instances.
    core = build_core(
        settings, store, Seams(partner_transport=httpx.ASGITransport(app=partner.counter))
    )
    core.register(ChannelRegistration(TELEGRAM, RecordingChannel()))
    try:
        filler = chats[0]
        chat, user = ChatRef(TELEGRAM, filler), UserRef(TELEGRAM, filler)
        await core.chats.start(chat, user)
        for answer in TO_SUMMARY:
            turn = await core.chats.handle(chat, user, answer)
        assert turn.prompt is not None and turn.prompt.step == "summary"
    finally:
        await core.aclose()
    record = await store.sessions.get(ChatRef("telegram", filler))
    assert record is not None
    written = json.loads(record.data)
    for chat in chats:
        own = {**written, "id": uuid.uuid4().hex, "customer": str(chat)}
        await store.sessions.save(
            ChatRef("telegram", chat), chat, json.dumps(own, separators=(",", ":"))
        )


@pytest.fixture
async def cluster(
    postgres_server: LocalPostgres, tmp_path: Path
) -> AsyncIterator[tuple[list[Instance], FakeTelegram, Store, Partner]]:
    dsn = await postgres_server.create_database("confirms_on_real_instances")
    media = tmp_path / "media"
    store = await Store.connect_postgres(dsn, media_dir=media)  # migrates before the instances
    async with (
        served_partner() as partner,
        FakeTelegram.running() as tg,
        httpx.AsyncClient(timeout=10) as client,
    ):
        instances: list[Instance] = []
        try:
            for index in range(INSTANCES):
                port = free_loopback_port()
                config = tmp_path / f"bot{index}.toml"
                text = config_text(partner.sandbox, tg, dsn, port, media)
                config.write_text(text, encoding="utf-8")
                instances.append(await start_instance(config, port, tmp_path / f"bot{index}.log"))
            for index, instance in enumerate(instances):
                await wait_until_serving(instance, client, tmp_path / f"bot{index}.log")
            yield instances, tg, store, partner
        finally:
            await stop_instances(instances)
            await store.close()


def is_summary(message: SentMessage) -> bool:
    return any(
        button.get("text") == "Confirm and send"
        for row in (message.reply_markup or {}).get("inline_keyboard", [])
        for button in row
    )


async def test_a_hundred_customers_confirming_at_once_on_three_processes(
    cluster: tuple[list[Instance], FakeTelegram, Store, Partner],
) -> None:
    instances, tg, store, partner = cluster
    customers = [TgUser(FIRST_CHAT + number, f"Customer {number}") for number in range(CUSTOMERS)]
    for user in customers:
        tg.add_chat(user)
    await seed_sessions_at_the_summary(store, partner, [user.id for user in customers])
    turn = itertools.count()
    headers = {SECRET_TOKEN_HEADER: SECRET_TOKEN}

    async def push(client: httpx.AsyncClient, update: dict[str, Any]) -> None:
        target = instances[next(turn) % len(instances)]
        answer = await client.post(f"{target.base_url}{TELEGRAM_PATH}", json=update,
                                   headers=headers)  # fmt: skip
        assert answer.status_code == 200

    async with httpx.AsyncClient(timeout=30) as client:
        # /start shows each customer's summary again, with its buttons.
        for user in customers:
            await push(client, tg.updates.command(user, "start"))
        summaries = {}
        for user in customers:
            summaries[user.id] = await tg.wait_for_message(user.id, is_summary, timeout=60)
        seen = {user.id: len(tg.sent_messages(user.id)) for user in customers}
        taps = [tg.updates.tap(summaries[user.id], "Confirm and send") for user in customers]
        tapped_at = time.monotonic()
        await asyncio.gather(*(push(client, tap) for tap in taps))

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

"""A real ``deliverybot run`` killed with SIGKILL while a customer's create is in flight.

The harness of ``test_confirms_on_real_instances``: instances are subprocesses in webhook mode on
loopback ports, the fake Bot API and the Partner sandbox run in this process. One customer's
session is seeded at the summary; they say /start (the summary again) and tap "Confirm and
send" on the first instance. The sandbox holds that create ``LATENCY_SECONDS`` before handling
it (a ``latency`` fault ``when=before``: the request has arrived, the delivery is made once the
wait is over, whether or not its client is still there), and the instance is killed with
SIGKILL as soon as the create arrived.

* PostgreSQL: a second instance on the same database takes the create over;
* SQLite: the same instance is started again on the file.

Two latencies: shorter than an intent's lease (the create has landed when the follow-up reads
back: found, not sent again), and longer (PostgreSQL only: not found, so sent again with the
same key while the first still waits in the sandbox; when that one lands, the service's key
deduplication answers it with the same delivery).

Asserted: the customer is told the order went through within ``TOLD_WITHIN`` seconds of the
kill (the figure is printed), exactly one delivery exists, and it is linked to the chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.chat_ref import ChatRef
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.sandbox.operations import API_PREFIX
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres, free_loopback_port
from bot.telegram.webhook_route import SECRET_TOKEN_HEADER, TELEGRAM_PATH
from conversations.texts.catalogue import say
from tests.agents.conftest import LoopbackServer
from tests.e2e.test_confirms_on_real_instances import (
    Partner,
    RefusalCounter,
    is_summary,
    seed_sessions_at_the_summary,
)
from tests.e2e.test_several_instances import (
    SECRET_TOKEN,
    Instance,
    start_instance,
    stop_instances,
    wait_until_serving,
)
from tests.fakes import FakeTelegram, SentMessage, TgUser
from tests.ordering.conftest import _photo, public_resolver

CUSTOMER = TgUser(830_001, "Killed Mid-Create")
LANDED_SECONDS = 6.0  # shorter than an intent's lease (15 s)
LATE_SECONDS = 25.0  # longer than the lease and the follow-up's read-back after it
TOLD_WITHIN = 60.0
WENT_THROUGH = say("dialogue.went_through")


class CreateArrivals(RefusalCounter):
    """The sandbox's ASGI app; ``arrived`` is set once a create's whole request reached it
    (from then on the sandbox applies it, whatever happens to its client)."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived = asyncio.Event()
        self.finished = 0  # creates the sandbox is done with (answered, or applied unheard)
        self._changed = asyncio.Condition()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        creating = (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and str(scope["path"]).endswith("/deliveries")
        )

        async def watched() -> Any:
            message = await receive()
            if creating and message["type"] == "http.request" and not message.get("more_body"):
                self.arrived.set()
            return message

        await super().__call__(scope, watched, send)
        if creating:
            async with self._changed:
                self.finished += 1
                self._changed.notify_all()

    async def wait_finished(self, count: int, timeout: float) -> None:
        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(lambda: self.finished >= count)


@contextlib.asynccontextmanager
async def served_partner() -> AsyncIterator[tuple[Partner, CreateArrivals]]:
    arrivals = CreateArrivals()
    server = LoopbackServer(arrivals)
    sandbox = Sandbox(
        parse_scenario(default_scenario_data()),
        base_url=f"{server.url}{API_PREFIX}",
        image_transport=httpx.MockTransport(_photo),  # the package photo's host
        resolver=public_resolver,
    )
    arrivals.app = sandbox.app
    await server.start()
    try:
        yield Partner(sandbox, arrivals, server), arrivals
    finally:
        await server.stop()
        await sandbox.aclose()


def config_text(partner: Sandbox, tg: FakeTelegram, port: int, storage: str) -> str:
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

{storage}

[geocoding]

[relay]
"""


@dataclass
class Backing:
    """The store the instances share: its ``[storage]`` section and this process's view."""

    backend: str
    storage: str
    store: Store
    path: Path
    media: Path

    async def hand_to_instances(self) -> None:
        """A SQLite file is the running instance's alone: closed here meanwhile."""
        if self.backend == "sqlite":
            await self.store.close()

    async def reopen(self) -> Store:
        """This process's view again (SQLite: opened anew)."""
        if self.backend == "sqlite":
            self.store = await Store.connect(self.path, media_dir=self.media)
        return self.store


async def open_backing(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Backing:
    """A fresh SQLite file or PostgreSQL database for the instances, migrated."""
    media = tmp_path / "media"
    path = tmp_path / "bot.sqlite3"
    if backend == "postgres":
        server: LocalPostgres = request.getfixturevalue("postgres_server")
        dsn = await server.create_database(f"durable_{free_loopback_port()}")
        storage = f'[storage]\nbackend = "postgres"\nmedia_dir = "{media}"\n\n'
        storage += f'[storage.postgres]\ndsn = "{dsn}"\npool_size = 4'
        store = await Store.connect_postgres(dsn, media_dir=media)
    else:
        storage = f'[storage]\nbackend = "sqlite"\npath = "{path}"\nmedia_dir = "{media}"'
        store = await Store.connect(path, media_dir=media)
    return Backing(backend, storage, store, path, media)


class Deployment:
    """The instances' configs over one store, started and killed on demand."""

    def __init__(self, tmp_path: Path, partner: Sandbox, tg: FakeTelegram, storage: str) -> None:
        self._tmp = tmp_path
        self._partner = partner
        self.tg = tg
        self._storage = storage
        self.running: list[Instance] = []
        self._started = 0

    async def start(self, client: httpx.AsyncClient, port: int | None = None) -> Instance:
        port = port or free_loopback_port()
        index = self._started
        self._started += 1
        config = self._tmp / f"bot{index}.toml"
        text = config_text(self._partner, self.tg, port, self._storage)
        config.write_text(text, encoding="utf-8")
        log = self._tmp / f"bot{index}.log"
        instance = await start_instance(config, port, log)
        self.running.append(instance)
        await wait_until_serving(instance, client, log)
        return instance

    async def stop(self) -> None:
        """Stop every instance still running."""
        await stop_instances(self.running)


async def push(client: httpx.AsyncClient, instance: Instance, update: dict[str, Any]) -> None:
    answer = await client.post(f"{instance.base_url}{TELEGRAM_PATH}", json=update,
                               headers={SECRET_TOKEN_HEADER: SECRET_TOKEN})  # fmt: skip
    assert answer.status_code == 200


async def kill(instance: Instance) -> None:
    instance.process.kill()  # SIGKILL: nothing in the process runs after it
    await instance.process.wait()


async def at_the_summary(
    deployment: Deployment,
    backing: Backing,
    partner: Partner,
    client: httpx.AsyncClient,
    user: TgUser,
) -> tuple[Instance, SentMessage]:
    """``user``'s session seeded at the summary, the instances started (a second one on
    PostgreSQL), and /start sent to the first: that instance, and the summary it showed."""
    tg = deployment.tg
    tg.add_chat(user)
    await seed_sessions_at_the_summary(backing.store, partner, [user.id])
    await backing.hand_to_instances()
    first = await deployment.start(client)
    if backing.backend == "postgres":
        await deployment.start(client)  # the one that takes over
    await push(client, first, tg.updates.command(user, "start"))
    return first, await tg.wait_for_message(user.id, is_summary, timeout=30)


async def confirm_held(
    client: httpx.AsyncClient,
    tg: FakeTelegram,
    instance: Instance,
    summary: SentMessage,
    partner: Partner,
    arrivals: CreateArrivals,
    latency: float,
) -> asyncio.Task[None]:
    """Tap "Confirm and send" on ``instance``; return (the tap's post) once its create is in
    the sandbox, held there ``latency`` seconds."""
    partner.sandbox.inject_fault(
        "create_delivery", "latency", 1, latency_seconds=latency, when="before"
    )
    tap = tg.updates.tap(summary, "Confirm and send")
    tapping = asyncio.create_task(push(client, instance, tap))
    await asyncio.wait_for(arrivals.arrived.wait(), timeout=30)
    return tapping


@pytest.mark.parametrize(
    ("backend", "latency"),
    [("sqlite", LANDED_SECONDS), ("postgres", LANDED_SECONDS), ("postgres", LATE_SECONDS)],
)
async def test_a_create_in_flight_when_its_instance_is_killed_is_told_and_linked(
    backend: str, latency: float, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    backing = await open_backing(backend, tmp_path, request)
    store = backing.store
    async with (
        served_partner() as (partner, arrivals),
        FakeTelegram.running() as tg,
        httpx.AsyncClient(timeout=30) as client,
    ):
        deployment = Deployment(tmp_path, partner.sandbox, tg, backing.storage)
        try:
            first, summary = await at_the_summary(deployment, backing, partner, client, CUSTOMER)
            seen = len(tg.sent_messages(CUSTOMER.id))
            tapping = await confirm_held(client, tg, first, summary, partner, arrivals, latency)
            await kill(first)
            killed_at = time.monotonic()
            with contextlib.suppress(httpx.HTTPError):
                await tapping  # the webhook's answer may or may not have come before the kill
            if backend == "sqlite":
                await deployment.start(client, port=first.port)

            told = await tg.wait_for_message(CUSTOMER.id, lambda m: WENT_THROUGH in (m.text or ""),
                                             after=seen, timeout=TOLD_WITHIN)  # fmt: skip
            seconds = time.monotonic() - killed_at
            print(f"{backend}, create landing {latency:.0f} s after it was sent: killed "
                  f"mid-create, the customer was told {seconds:.1f} s later")  # fmt: skip
            late = latency > LANDED_SECONDS
            # The first create and (when it landed late) the one the follow-up sent again.
            await arrivals.wait_finished(2 if late else 1, timeout=TOLD_WITHIN)
            (made,) = partner.sandbox.deliveries()
            assert made["id"] in (told.text or "")
            store = await backing.reopen()
            link = await store.deliveries.get(made["id"])
            assert link is not None and link.chat == ChatRef("telegram", CUSTOMER.id)
            assert await store.create_intents.count() == 0
            assert partner.sandbox.call_counts()["create_delivery"] == (2 if late else 1)
        finally:
            await deployment.stop()
            await store.close()

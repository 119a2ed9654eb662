"""Real ``deliverybot run`` processes over one store, for the multi-instance end-to-end tests.

::

    async with deployment("postgres", tmp_path, request) as world:
        first, second = await world.start_many(2)          # subprocesses, webhook mode
        await push(world.client, first, world.tg.updates.command(user, "new"))
        await world.tg.wait_for_message(user.id, timeout=30)

Each instance is ``python -m bot run`` in webhook mode on its own loopback port, with the same
config and secrets; the fake Bot API (``FakeTelegram``) and the Partner sandbox (served on
loopback, every answer passing a ``RefusalCounter``) run in this process. The store is a fresh
SQLite file (the running instance's alone: this process closes its view meanwhile) or a
database on the session's throwaway PostgreSQL server (``Backing``). Nothing crosses the
process boundary but HTTP and the store, so helpers wait on the fake's messages or poll /health.

Also here: ``seed_sessions_at_the_summary`` (a customer's order filled in by the engine in this
process and saved at the summary for many chats, so a confirm costs one update), ``is_summary``
(the message with "Confirm and send"), and for kills mid-create: ``CreateArrivals`` (the
sandbox's counter, telling when a create arrived and finished), ``at_the_summary`` and
``confirm_held`` (a confirm whose create the sandbox holds).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
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
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.sandbox.operations import API_PREFIX
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres, free_loopback_port
from bot.telegram.telegram_kind import TELEGRAM_KIND
from bot.telegram.webhook_route import SECRET_TOKEN_HEADER, TELEGRAM_PATH
from tests.agents.conftest import LoopbackServer, RecordingChannel
from tests.e2e.preloaded_runs import SOCKET_VARIABLE, RunningProcess, launch
from tests.fakes import FakeTelegram, SentMessage, TgUser
from tests.ordering.conftest import TO_SUMMARY, _photo, public_resolver

SECRET_TOKEN = "several-instances-secret-token"
START_TIMEOUT = 60.0
REPO = Path(__file__).resolve().parents[2]


# --- one process ------------------------------------------------------------------------------


@dataclass
class Instance:
    """A running ``deliverybot run``: its webhook port and its process."""

    port: int
    process: RunningProcess

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


async def start_instance(config: Path, port: int, log: Path) -> Instance:
    """``python -m bot run --config config`` (its output in ``log``); not serving yet.

    Forked by the session's preloader when one runs (``preloaded_runs``: the same command
    without importing the bot again), else a new interpreter."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "PTB_TIMEDELTA": "true"}
    preloaded = env.pop(SOCKET_VARIABLE, None)
    if preloaded is not None:
        argv = ["run", "--config", str(config)]
        return Instance(port, await launch(preloaded, argv, cwd=REPO, env=env, output=log))
    with log.open("ab") as out:  # appended: a restarted instance keeps its earlier lines
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", "--config", str(config),
            cwd=REPO, env=env, stdout=out, stderr=out,
        )  # fmt: skip
    return Instance(port, process)


def tail(log: Path) -> str:
    return log.read_text(errors="replace")[-3000:]


async def wait_until_serving(instance: Instance, client: httpx.AsyncClient, log: Path) -> None:
    """Return once the instance answers /health; fail with its log if it exits or is slow."""
    # No event crosses the process boundary: ask /health until it answers.
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if instance.process.returncode is not None:
            pytest.fail(f"instance on {instance.port} exited:\n{tail(log)}")
        with contextlib.suppress(httpx.HTTPError):
            if (await client.get(f"{instance.base_url}/health")).status_code == 200:
                return
        await asyncio.sleep(0.1)
    pytest.fail(f"instance on {instance.port} did not start:\n{tail(log)}")


async def stop_instances(instances: list[Instance]) -> None:
    """SIGTERM to every instance still running, then SIGKILL to any not gone within 15 s."""
    for instance in instances:
        if instance.process.returncode is None:
            instance.process.send_signal(signal.SIGTERM)
    for instance in instances:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(instance.process.wait(), timeout=15)
        if instance.process.returncode is None:
            instance.process.kill()
            await instance.process.wait()


async def kill(instance: Instance) -> None:
    """SIGKILL: nothing in the process runs after it."""
    instance.process.kill()
    await instance.process.wait()


async def push(client: httpx.AsyncClient, instance: Instance, update: dict[str, Any]) -> None:
    """Telegram's webhook call of ``update`` to ``instance``; it must answer 200 (stored)."""
    answer = await client.post(f"{instance.base_url}{TELEGRAM_PATH}", json=update,
                               headers={SECRET_TOKEN_HEADER: SECRET_TOKEN})  # fmt: skip
    assert answer.status_code == 200


async def shell(config: Path, *args: str) -> str:
    """``deliverybot ARGS --config config`` from the shell, as an operator runs it beside the
    instances; its output (it must succeed). Forked by the preloader when one runs, its
    output through a file beside the config."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    preloaded = env.pop(SOCKET_VARIABLE, None)
    if preloaded is not None:
        output = config.parent / f"shell-{uuid.uuid4().hex}.out"
        argv = [*args, "--config", str(config)]
        child = await launch(preloaded, argv, cwd=REPO, env=env, output=output)
        code = await child.wait()
        said = output.read_text(errors="replace")
        assert code == 0, said
        return said
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, "--config", str(config),
        cwd=REPO, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await process.communicate()
    said = output.decode(errors="replace")
    assert process.returncode == 0, said
    return said


# --- the Partner API --------------------------------------------------------------------------


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
    """The sandbox served on loopback, behind its 429 counter."""

    sandbox: Sandbox
    counter: RefusalCounter
    server: LoopbackServer = field(repr=False)


@contextlib.asynccontextmanager
async def served_partner(
    counter: RefusalCounter | None = None,
    *,
    rate_limit_per_minute: int | None = None,
    webhook_url: str | None = None,
    scenario: dict[str, Any] | None = None,
) -> AsyncIterator[Partner]:
    """The default scenario's sandbox (or ``scenario``'s) on loopback, every request through
    ``counter`` (a subclass may watch more); ``rate_limit_per_minute`` sets the key's
    allowance; ``webhook_url`` is where its signed events go (None: the scenario's, which
    nobody serves)."""
    counter = counter or RefusalCounter()
    server = LoopbackServer(counter)
    data = scenario or default_scenario_data()
    if rate_limit_per_minute is not None:
        data["organization"]["rate_limit_per_minute"] = rate_limit_per_minute
    if webhook_url is not None:
        data["webhooks"][0]["url"] = webhook_url
    sandbox = Sandbox(
        parse_scenario(data),
        base_url=f"{server.url}{API_PREFIX}",
        image_transport=httpx.MockTransport(_photo),  # the package photo's host
        resolver=public_resolver,
    )
    counter.app = sandbox.app
    await server.start()
    if webhook_url is not None:
        await sandbox.start()  # its worker posts the events as they fall due
    try:
        yield Partner(sandbox, counter, server)
    finally:
        await server.stop()
        await sandbox.aclose()


# --- the store --------------------------------------------------------------------------------


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


async def open_backing(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest, *, pool_size: int | None = 4
) -> Backing:
    """A fresh SQLite file or PostgreSQL database for the instances, migrated before they
    start; ``pool_size`` None leaves each instance's pool at its default."""
    media = tmp_path / "media"
    path = tmp_path / "bot.sqlite3"
    if backend == "postgres":
        server: LocalPostgres = request.getfixturevalue("postgres_server")
        dsn = await server.create_database(f"instances_{free_loopback_port()}")
        storage = f'[storage]\nbackend = "postgres"\nmedia_dir = "{media}"\n\n'
        storage += f'[storage.postgres]\ndsn = "{dsn}"'
        if pool_size is not None:
            storage += f"\npool_size = {pool_size}"
        store = await Store.connect_postgres(dsn, media_dir=media, channels=SHIPPED_CHANNEL_KINDS)
    else:
        storage = f'[storage]\nbackend = "sqlite"\npath = "{path}"\nmedia_dir = "{media}"'
        store = await Store.connect(path, media_dir=media)
    return Backing(backend, storage, store, path, media)


# --- the instances together -------------------------------------------------------------------


def config_text(
    partner: Sandbox, tg: FakeTelegram, port: int, storage: str, *, operators: str, extra: str
) -> str:
    """One instance's TOML: ``operators`` is the body of ``[operators]``, ``extra`` more
    sections (``[limits]``)."""
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
drain_seconds = 0  # stopped with SIGTERM: no proxy to drain for
secret_token = "{SECRET_TOKEN}"

[operators]
{operators}

{storage}

[geocoding]

[relay]

{extra}
"""


@dataclass
class Deployment:
    """Instances sharing one config (but their port) over one store, started, restarted and
    killed on demand; ``client`` is this process's HTTP client to them."""

    tmp_path: Path
    partner: Partner
    tg: FakeTelegram
    backing: Backing
    client: httpx.AsyncClient
    operators: str = ""
    extra: str = ""
    running: list[Instance] = field(default_factory=list)
    configs: dict[int, Path] = field(default_factory=dict)  # by port

    async def start(self, port: int | None = None) -> Instance:
        """An instance (on ``port``: one restarted), returned once it serves."""
        instance = await self._spawn(port)
        await wait_until_serving(instance, self.client, self._log(instance.port))
        return instance

    async def start_many(self, count: int) -> list[Instance]:
        """``count`` instances started together, returned once all of them serve."""
        instances = [await self._spawn(None) for _ in range(count)]
        for instance in instances:
            await wait_until_serving(instance, self.client, self._log(instance.port))
        return instances

    async def restart(self, instance: Instance) -> Instance:
        """A redeploy of ``instance``: SIGTERM, then the same config again on its port."""
        await stop_instances([instance])
        self.running.remove(instance)
        return await self.start(instance.port)

    async def stop(self) -> None:
        """Stop every instance still running."""
        await stop_instances(self.running)

    async def shell(self, *args: str) -> str:
        """``deliverybot ARGS --config <an instance's config>`` from the shell, as an operator
        runs it beside the instances; its output (it must succeed)."""
        return await shell(next(iter(self.configs.values())), *args)

    async def _spawn(self, port: int | None) -> Instance:
        port = port or free_loopback_port()
        config = self.tmp_path / f"bot-{port}.toml"
        text = config_text(self.partner.sandbox, self.tg, port, self.backing.storage,
                           operators=self.operators, extra=self.extra)  # fmt: skip
        config.write_text(text, encoding="utf-8")
        self.configs[port] = config
        instance = await start_instance(config, port, self._log(port))
        self.running.append(instance)
        return instance

    def _log(self, port: int) -> Path:
        return self.tmp_path / f"bot-{port}.log"


@contextlib.asynccontextmanager
async def deployment(
    backend: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    *,
    counter: RefusalCounter | None = None,
    rate_limit_per_minute: int | None = None,
    pool_size: int | None = 4,
    operators: str = "",
    extra: str = "",
    webhook_url: str | None = None,
) -> AsyncIterator[Deployment]:
    """The store, the sandbox, FakeTelegram and a client, with no instance running yet;
    every instance started is stopped, and this process's store closed, at the end. The
    sandbox posts its events to ``webhook_url`` (an instance's ``/hooks/partner``) if given."""
    backing = await open_backing(backend, tmp_path, request, pool_size=pool_size)
    async with (
        served_partner(
            counter, rate_limit_per_minute=rate_limit_per_minute, webhook_url=webhook_url
        ) as partner,
        FakeTelegram.running() as tg,
        httpx.AsyncClient(timeout=30) as client,
    ):
        world = Deployment(tmp_path, partner, tg, backing, client, operators, extra)
        try:
            yield world
        finally:
            await world.stop()
            await world.backing.store.close()


# --- customers at the summary -----------------------------------------------------------------


async def seed_sessions_at_the_summary(store: Store, partner: Partner, chats: list[int]) -> None:
    """One order filled in by the engine over ``store``; its session saved for every chat."""
    settings = CoreSettings(partner_base_url=partner.sandbox.base_url,
                            partner_api_key=partner.sandbox.api_key)  # fmt: skip
    # Over the counter too, and through the shared request budget like the instances.
    core = build_core(
        settings, store, Seams(partner_transport=httpx.ASGITransport(app=partner.counter))
    )
    core.register(ChannelRegistration(TELEGRAM_KIND, RecordingChannel()))
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
    for chat_id in chats:
        own = {**written, "id": uuid.uuid4().hex, "customer": str(chat_id)}
        await store.sessions.save(
            ChatRef("telegram", chat_id), chat_id, json.dumps(own, separators=(",", ":"))
        )


def is_summary(message: SentMessage) -> bool:
    return any(
        button.get("text") == "Confirm and send"
        for row in (message.reply_markup or {}).get("inline_keyboard", [])
        for button in row
    )


# --- a create held in the sandbox ------------------------------------------------------------


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


async def at_the_summary(world: Deployment, user: TgUser) -> tuple[Instance, SentMessage]:
    """``user``'s session seeded at the summary, the instances started (a second one on
    PostgreSQL), and /start sent to the first: that instance, and the summary it showed."""
    tg, backing = world.tg, world.backing
    tg.add_chat(user)
    await seed_sessions_at_the_summary(backing.store, world.partner, [user.id])
    await backing.hand_to_instances()
    first = await world.start()
    if backing.backend == "postgres":
        await world.start()  # the one that takes over
    await push(world.client, first, tg.updates.command(user, "start"))
    return first, await tg.wait_for_message(user.id, is_summary, timeout=30)


async def confirm_held(
    world: Deployment, instance: Instance, summary: SentMessage, latency: float
) -> asyncio.Task[None]:
    """Tap "Confirm and send" on ``instance``; return (the tap's post) once its create is in
    the sandbox, held there ``latency`` seconds (the sandbox's counter is ``CreateArrivals``)."""
    arrivals = world.partner.counter
    assert isinstance(arrivals, CreateArrivals)
    world.partner.sandbox.inject_fault(
        "create_delivery", "latency", 1, latency_seconds=latency, when="before"
    )
    tap = world.tg.updates.tap(summary, "Confirm and send")
    tapping = asyncio.create_task(push(world.client, instance, tap))
    await asyncio.wait_for(arrivals.arrived.wait(), timeout=30)
    return tapping

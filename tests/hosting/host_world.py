"""A host of several businesses in this process, each with its own fake Bot API (its own bot
token) and its own sandbox organisation (its own API key and signing secret), all reaching
the host's one web app the way the real services reach it: Telegram's pushes and the Partner
API's events over HTTP into ``HostRuntime.app``.

The businesses' configs are written as the host's loader derives them (``/b/{name}`` on the
public host, a SQLite file per business); ``Directory`` plays the businesses' directory, whose
``scan`` the host runs (a test adds, changes and removes businesses in it).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from starlette.types import ASGIApp

from bot.config import Config
from bot.config.business_files import lock_namespace_for, schema_for
from bot.config.storage import DEFAULT_LOCK_NAMESPACE
from bot.hosting.announcements import Announcements
from bot.hosting.built_runtime import RuntimeBusiness, build_runtime_business, with_shared_tls
from bot.hosting.business_slot import BuiltBusiness
from bot.hosting.host_metrics import HostMetrics
from bot.hosting.host_runtime import HostRuntime, Scan
from bot.hosting.hosted_business import HostedBusiness
from bot.runtime import Seams
from bot.sandbox import Sandbox
from bot.sandbox.scenario import default_scenario_data, parse_scenario
from bot.store.pg_host import PgHost
from bot.store.waiting_work import waiting_in, waiting_in_sqlite
from conversations.texts.business_texts import SharedTexts
from tests.fakes import FakeTelegram
from tests.support.clock import FakeClock
from tests.support.tracking_processor import TrackingProcessor

HOST = "https://host.example"
IDLE_SECONDS = 900.0


def token_of(number: int) -> str:
    """A bot token of the fake's shape, one per business."""
    return f"{7000000000 + number}:AAFakeTelegramTokenForHostTests{number:05d}"


def secret_of(name: str) -> str:
    """The Telegram secret token business ``name``'s bot is given."""
    return f"tg-secret-{name}-0123456789"


def agent_key_of(name: str) -> str:
    """The key of business ``name``'s agent channel."""
    return f"agent-key-{name}-0123456789abcdef"


def whatsapp_of(name: str) -> dict[str, str]:
    """Business ``name``'s WhatsApp number and Meta app (never dialled here: only its webhook's
    doors are probed)."""
    digest = hashlib.sha256(name.encode()).hexdigest()
    return {
        "phone_number_id": str(int(digest[:12], 16)),
        "access_token": f"EAAG{digest[:24]}",
        "app_secret": digest[:32],
        "verify_token": f"verify-{name}-0123",
        "graph_api_base_url": "http://127.0.0.1:9",
    }


def scenario_for(name: str, host: str = HOST) -> dict[str, Any]:
    """The default sandbox scenario as business ``name``'s own organisation: its API key, its
    signing secret, its events posted to its prefix on ``host``."""
    data = default_scenario_data()
    data["organization"] = {**data["organization"], "id": f"org_{name}", "slug": name}
    plain = name.replace("-", "")  # the key and secret allow letters and digits only
    data["api_keys"] = [{**data["api_keys"][0], "secret": f"sk_live_{plain}Key0000000000000001"}]
    data["webhooks"] = [
        {
            **data["webhooks"][0],
            "url": f"{host}/b/{name}/hooks/partner",
            "secret": f"whsec_{plain}Secret000000000000001",
        }
    ]
    return data


@dataclass
class Shop:
    """One business of the host: its bot's fake Bot API and its sandbox organisation."""

    name: str
    telegram: FakeTelegram
    sandbox: Sandbox
    tmp: Path
    texts: dict[str, Any] = field(default_factory=dict)
    processor: TrackingProcessor | None = None  # its latest build's
    dsn: str | None = None  # the host's PostgreSQL database; None: a SQLite file each
    token: str | None = None  # its file's bot token, when not its fake's (a revoked one)

    def storage(self) -> dict[str, Any]:
        """Its ``[storage]``, as the host's loader derives it."""
        media = f"media/{self.name}"
        if self.dsn is None:
            return {"path": f"businesses/{self.name}.sqlite3", "media_dir": media}
        postgres = {
            "dsn": self.dsn,
            "pool_size": 4,
            "db_schema": schema_for(self.name),
            "lock_namespace": lock_namespace_for(self.name, DEFAULT_LOCK_NAMESPACE),
        }
        return {"backend": "postgres", "media_dir": media, "postgres": postgres}

    def config(self) -> Config:
        """The business's whole config, as the host's loader derives it."""
        data = {
            "partner": {"base_url": self.sandbox.base_url, "api_key": self.sandbox.api_key},
            "telegram": {
                "token": self.token or self.telegram.token,
                "mode": "webhook",
                "secret_token": secret_of(self.name),
                "api_base_url": self.telegram.api_base_url,
                "file_base_url": self.telegram.file_base_url,
            },
            "server": {"public_base_url": f"{HOST}/b/{self.name}"},
            "webhooks": {"enabled": True, "signing_secret": self.sandbox.signing_secret},
            "storage": self.storage(),
            "geocoding": {"provider": "none"},
            "agents": {"channels": [{"name": "shop", "key": agent_key_of(self.name)}]},
            "webapp": {"enabled": True},
            "console": {"enabled": True},
            "whatsapp": whatsapp_of(self.name),
            "texts": self.texts,
        }
        return Config.model_validate(data, context={"environ": {}, "base_dir": self.tmp})

    def hosted(self) -> HostedBusiness:
        """The business as the directory gives it; its fingerprint follows its config."""
        written = json.dumps(self.texts, sort_keys=True) + self.telegram.token
        return HostedBusiness(
            self.name, self.config(), hashlib.sha256(written.encode()).hexdigest()
        )


@dataclass
class Directory:
    """The businesses' directory as the host scans it."""

    shops: dict[str, Shop] = field(default_factory=dict)

    async def scan(self) -> Scan:
        return Scan({name: shop.hosted() for name, shop in self.shops.items()})


@dataclass
class HostWorld:
    """The host, its directory, its clock (monotonic, for idleness) and a client at its door."""

    host: HostRuntime
    directory: Directory
    clock: FakeClock
    web: httpx.AsyncClient
    exits: contextlib.AsyncExitStack
    tmp: Path
    dsn: str | None = None
    builds: list[tuple[str, bool]] = field(default_factory=list)  # (name, announced)
    events: list[str] = field(default_factory=list)  # "built acme", "stopped acme", in order

    async def open_shop(self, name: str, number: int) -> Shop:
        """A new business's services (its fake Bot API and sandbox), not yet in the directory."""
        door = httpx.ASGITransport(app=self.host.app)
        telegram = await self.exits.enter_async_context(
            FakeTelegram.running(
                token=token_of(number), webhook_transport=door, webhook_retry_delay=0.01
            )
        )
        sandbox = Sandbox(parse_scenario(scenario_for(name)), webhook_transport=door)
        self.exits.push_async_callback(sandbox.aclose)
        return Shop(name, telegram, sandbox, self.tmp, dsn=self.dsn)

    def built(self) -> set[str]:
        """The businesses built now."""
        return {
            name for name in self.host.businesses if (slot := self.host.slot(name)) and slot.built
        }


@dataclass
class Watched:
    """A built business whose stop is noted in ``events``."""

    built: RuntimeBusiness
    events: list[str]
    name: str

    @property
    def web_app(self) -> ASGIApp:
        return self.built.web_app

    @property
    def releasable(self) -> bool:
        return self.built.releasable

    async def pending_work(self) -> int:
        return await self.built.pending_work()

    async def stop(self) -> None:
        await self.built.stop()
        self.events.append(f"stopped {self.name}")


@contextlib.asynccontextmanager
async def host_world(
    tmp_path: Path,
    names: tuple[str, ...],
    metrics: HostMetrics | None = None,
    *,
    dsn: str | None = None,
) -> AsyncIterator[HostWorld]:
    """A host serving ``names``, loaded (none of them built yet) and its jobs not running: a
    test drives the scans and idle releases itself. ``metrics``: the host's (shared series,
    no business label, unless given); ``dsn``: its PostgreSQL database (each business in its
    own schema, on the host's shared connections), else a SQLite file per business."""
    metrics = metrics or HostMetrics(business_label=False, cap=0)
    pg_host: PgHost | None = None
    tls = httpx.create_ssl_context()  # one for every business, as the host makes it
    shared_texts = SharedTexts()
    directory = Directory()
    clock = FakeClock(1_000.0)
    exits = contextlib.AsyncExitStack()
    world: HostWorld | None = None

    async def build(business: HostedBusiness, announce: bool) -> BuiltBusiness:
        shop = directory.shops[business.name]
        shop.processor = TrackingProcessor()
        seams = Seams(
            partner_transport=httpx.ASGITransport(app=shop.sandbox.app),
            synchronous="NORMAL",
            metrics=metrics.for_business(business.name),
            processor=shop.processor,
            shared_texts=shared_texts,  # one catalogue for the businesses whose texts match
        )
        seams = with_shared_tls(seams, tls)
        assert world is not None
        world.builds.append((business.name, announce))
        built = await build_runtime_business(
            business, announce, host_url=HOST, seams=seams, pg_host=pg_host
        )
        shop.processor.locks = built.runtime.store.chat_locks  # as wiring does for its own
        world.events.append(f"built {business.name}")
        return Watched(built, world.events, business.name)

    async def waiting(business: HostedBusiness) -> int:
        postgres = business.config.storage.postgres
        if pg_host is not None and postgres is not None:
            return await waiting_in(pg_host.database(postgres.db_schema))
        return await waiting_in_sqlite(business.config.storage.path)

    host = HostRuntime(
        directory.scan,
        build,
        Announcements(tmp_path / "businesses"),
        idle_seconds=IDLE_SECONDS,
        watch_seconds=2.0,
        clock=clock,
        drain_seconds=5.0,
        metrics=metrics,
        waiting=waiting,
    )
    web = httpx.AsyncClient(transport=httpx.ASGITransport(app=host.app), base_url=HOST)
    async with exits:
        if dsn is not None:
            pg_host = await PgHost.connect(dsn, pool_size=4)
            exits.push_async_callback(pg_host.close)  # last: after every business's store
        world = HostWorld(host, directory, clock, web, exits, tmp_path, dsn)
        exits.push_async_callback(web.aclose)
        for number, name in enumerate(names, start=1):
            directory.shops[name] = await world.open_shop(name, number)
        await host.load()
        try:
            yield world
        finally:  # before the services: a business stops while its fakes still answer
            await host.stop()

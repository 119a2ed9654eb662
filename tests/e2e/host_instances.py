"""Real ``deliverybot run --config host.toml`` processes serving several businesses, for the
hosting end-to-end tests.

Each business has its own fake Bot API (its own token, which pushes its updates to the host
over HTTP, as Telegram does once the host has set the webhook) and its own sandbox
organisation on loopback. The business files are written into the host's ``businesses_dir``
(by this process, or by ``deliverybot businesses add`` from the shell); each instance is
``python -m bot run`` with a host file of its own (its port) over the same directory and
store: a fresh SQLite directory, or a database on the session's throwaway PostgreSQL server.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx
import pytest

from bot.store.pg_local_server import LocalPostgres, free_loopback_port
from tests.e2e.real_instances import (
    Instance,
    Partner,
    served_partner,
    shell,
    start_instance,
    stop_instances,
    wait_until_serving,
)
from tests.fakes import FakeTelegram
from tests.hosting.host_world import scenario_for, secret_of, token_of


@dataclass
class HostedShop:
    """One business: its fake Bot API and its sandbox organisation."""

    name: str
    telegram: FakeTelegram
    partner: Partner
    texts: str = ""

    def file_text(self) -> str:
        """Its business file, as an operator writes one."""
        return f"""
[partner]
base_url = "{self.partner.sandbox.base_url}"
api_key = "{self.partner.sandbox.api_key}"

[telegram]
token = "{self.telegram.token}"
api_base_url = "{self.telegram.api_base_url}"
mode = "webhook"
secret_token = "{secret_of(self.name)}"

[geocoding]

{self.texts}
"""


@dataclass
class HostDeployment:
    """The businesses' directory, the store's tables of the host file, the shops, and the
    instances started; ``client`` is this process's HTTP client."""

    tmp_path: Path
    storage: str
    client: httpx.AsyncClient
    exits: contextlib.AsyncExitStack
    dsn: str | None = None
    shops: dict[str, HostedShop] = field(default_factory=dict)
    running: list[Instance] = field(default_factory=list)
    host_files: list[Path] = field(default_factory=list)

    @property
    def businesses(self) -> Path:
        return self.tmp_path / "businesses"

    async def open_shop(self, name: str, number: int) -> HostedShop:
        """A business's services; its file is not written yet."""
        telegram = await self.exits.enter_async_context(
            FakeTelegram.running(
                token=token_of(number),
                webhook_transport=httpx.AsyncHTTPTransport(),  # to the host, over loopback
                webhook_retry_delay=0.05,
            )
        )
        partner = await self.exits.enter_async_context(served_partner(scenario=scenario_for(name)))
        shop = HostedShop(name, telegram, partner)
        self.shops[name] = shop
        return shop

    def draft(self, shop: HostedShop) -> Path:
        """``shop``'s business file written outside the directory (for ``businesses add``)."""
        file = self.tmp_path / "drafts" / f"{shop.name}.toml"
        file.parent.mkdir(exist_ok=True)
        file.write_text(shop.file_text(), encoding="utf-8")
        return file

    def write(self, shop: HostedShop) -> None:
        """``shop``'s business file put straight into the directory."""
        (self.businesses / f"{shop.name}.toml").write_text(shop.file_text(), encoding="utf-8")

    async def start(self) -> Instance:
        """An instance with a host file of its own, returned once it serves."""
        port = free_loopback_port()
        host_file = self.tmp_path / f"host-{port}.toml"
        host_file.write_text(self._host_text(port), encoding="utf-8")
        self.host_files.append(host_file)
        log = self.tmp_path / f"host-{port}.log"
        instance = await start_instance(host_file, port, log)
        self.running.append(instance)
        await wait_until_serving(instance, self.client, log)
        return instance

    async def shell(self, *args: str) -> str:
        """``deliverybot ARGS --config <the first host file>``; its output (it must succeed)."""
        return await shell(self.host_files[0], *args)

    async def schemas(self) -> set[str]:
        """The schemas of the host's PostgreSQL database."""
        assert self.dsn is not None, "a PostgreSQL host"
        connection = await asyncpg.connect(self.dsn)
        try:
            rows = await connection.fetch("SELECT schema_name FROM information_schema.schemata")
        finally:
            await connection.close()
        return {row["schema_name"] for row in rows}

    def _host_text(self, port: int) -> str:
        return f"""
[host]
businesses_dir = "{self.businesses}"
watch_seconds = 0.2
idle_minutes = 60

[server]
listen_port = {port}
public_base_url = "http://127.0.0.1:{port}"
drain_seconds = 0

{self.storage}
"""


@contextlib.asynccontextmanager
async def host_deployment(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[HostDeployment]:
    """The directory and store, with no shop and no instance yet; everything started is
    stopped at the end."""
    media = tmp_path / "media"
    dsn = None
    if backend == "postgres":
        server: LocalPostgres = request.getfixturevalue("postgres_server")
        dsn = await server.create_database(f"host_{free_loopback_port()}")
        storage = f'[storage]\nbackend = "postgres"\nmedia_dir = "{media}"\n\n'
        storage += f'[storage.postgres]\ndsn = "{dsn}"\npool_size = 4'
    else:
        storage = f'[storage]\npath = "{tmp_path / "data" / "host.sqlite3"}"\n'
        storage += f'media_dir = "{media}"'
    async with contextlib.AsyncExitStack() as exits:
        client = await exits.enter_async_context(httpx.AsyncClient(timeout=30))
        world = HostDeployment(tmp_path, storage, client, exits, dsn)
        world.businesses.mkdir()
        try:
            yield world
        finally:
            await stop_instances(world.running)

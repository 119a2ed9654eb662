"""``open_store``: the store ``[storage]`` names, opened for a process of the bot; and
``reach_database``, ``check-config --connect``'s look at a shared database.

Config to store is the composition's step, not the store's: ``bot.store`` knows its backends
and nothing of the TOML, and everything that opens the bot's store from its config (``Runtime``
for ``deliverybot run`` and ``deliverybot mcp``) calls this.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.channel_kind import ChannelKind
from bot.clocks import Clock
from bot.config.storage import PostgresConfig, StorageConfig
from bot.store import Store, StoreError
from bot.store.database import Synchronous

if TYPE_CHECKING:  # asyncpg is loaded only for a shared database
    from bot.store.pg_host import PgHost
from bot.store.store_owner import DEFAULT_BUSINESS


async def open_store(
    storage: StorageConfig,
    clock: Clock,
    synchronous: Synchronous = "FULL",
    *,
    channels: Iterable[ChannelKind] = (),
    business: str = DEFAULT_BUSINESS,
    pg_host: PgHost | None = None,
) -> Store:
    """The shared PostgreSQL database, or the SQLite file (its directory made);
    ``synchronous`` other than FULL (a test's seam) overrides the config's. ``channels``:
    every channel the bot knows, whose chats it may lock (``Store.declare_channel``);
    ``business``: the one the store belongs to (``StoreOwnedByAnother`` for another's);
    ``pg_host``: the connections a host's businesses share on its database."""
    database = storage.shared_database
    if database is not None:
        return await Store.connect_postgres(
            database.dsn.get_secret_value(),
            media_dir=storage.media_dir,
            clock=clock,
            pool_size=database.pool_size,
            lease_seconds=database.lease_seconds,
            channels=channels,
            lock_namespace=database.lock_namespace,
            db_schema=database.db_schema,
            business=business,
            host=pg_host,
        )
    await asyncio.to_thread(storage.path.parent.mkdir, parents=True, exist_ok=True)
    return await Store.connect(
        storage.path,
        media_dir=storage.media_dir,
        clock=clock,
        synchronous=synchronous if synchronous != "FULL" else storage.sqlite_synchronous,
        channels=channels,
        business=business,
    )


async def reach_database(database: PostgresConfig) -> tuple[bool, str]:
    """Connect to ``database`` the way ``run`` would: whether it was reached, and the line that
    says so (its address and server version), or why not (naming the key, never the
    password)."""
    from bot.store.pg_database import PgDatabase  # only a shared database needs asyncpg

    try:
        db = await PgDatabase.connect(database.dsn.get_secret_value(), pool_size=2)
        try:
            row = await db.fetch_one("SELECT current_setting('server_version')")
        finally:
            await db.close()
    except StoreError as exc:
        return False, f"storage.postgres.dsn: {exc}"
    version = row[0] if row else "?"
    return True, f"# storage: connected to {db.label} (PostgreSQL {version})"

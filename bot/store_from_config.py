"""``open_store``: the store ``[storage]`` names, opened for a process of the bot.

Config to store is the composition's step, not the store's: ``bot.store`` knows its backends
and nothing of the TOML, and everything that opens the bot's store from its config (``Runtime``
for ``deliverybot run`` and ``deliverybot mcp``) calls this.
"""

from __future__ import annotations

import asyncio

from bot.clocks import Clock
from bot.config.storage import StorageConfig
from bot.store import Store
from bot.store.database import Synchronous


async def open_store(
    storage: StorageConfig, clock: Clock, synchronous: Synchronous = "FULL"
) -> Store:
    """The shared PostgreSQL database, or the SQLite file (its directory made);
    ``synchronous`` other than FULL (a test's seam) overrides the config's."""
    if storage.backend == "postgres" and storage.postgres is not None:
        return await Store.connect_postgres(
            storage.postgres.dsn.get_secret_value(),
            media_dir=storage.media_dir,
            clock=clock,
            pool_size=storage.postgres.pool_size,
            lease_seconds=storage.postgres.lease_seconds,
        )
    await asyncio.to_thread(storage.path.parent.mkdir, parents=True, exist_ok=True)
    return await Store.connect(
        storage.path,
        media_dir=storage.media_dir,
        clock=clock,
        synchronous=synchronous if synchronous != "FULL" else storage.sqlite_synchronous,
    )

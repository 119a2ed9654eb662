"""Several instances of the bot on one PostgreSQL database, for the tests that make them share
something: one ``Store`` per instance, each with its own connections."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

from bot.clocks import Clock
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres
from tests.support.store_fixture import empty_postgres_database


@contextlib.asynccontextmanager
async def pg_instances(
    server: LocalPostgres, media_dir: Path, *, count: int = 2, clock: Clock = time.time
) -> AsyncIterator[list[Store]]:
    """``count`` stores on one emptied database of ``server``, closed on the way out."""
    dsn = await empty_postgres_database(server)
    stores: list[Store] = []
    try:
        for _ in range(count):
            stores.append(
                await Store.connect_postgres(
                    dsn, media_dir=media_dir, clock=clock, channels=SHIPPED_CHANNEL_KINDS
                )
            )
        yield stores
    finally:
        for store in stores:
            await store.close()

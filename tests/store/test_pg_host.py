"""``PgHost``: many business stores on one database borrow the host's connections. However
many stores, the connections stay within the host's (``pg_stat_activity``), and each store
still sees only its own rows, leads its own jobs and locks its own chats."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg

from bot.chat_ref import TELEGRAM, ChatRef
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import Store
from bot.store.pg_host import PgHost
from bot.store.pg_local_server import LocalPostgres

BUSINESSES = 4  # alone, each store would open 4 connections or more: 16 against 5
CHAT = ChatRef(TELEGRAM, 4242)  # one Telegram user, talking to every business's bot


async def open_business(host: PgHost, number: int, media: Path) -> Store:
    return await Store.connect_postgres(
        host.dsn,
        media_dir=media / f"b{number}",
        channels=SHIPPED_CHANNEL_KINDS,
        lock_namespace=100 + number,
        db_schema=f"b_{number}",
        business=f"business-{number}",
        host=host,
    )


async def test_business_stores_on_one_host_share_its_connections_and_keep_their_rows(
    postgres_server: LocalPostgres, tmp_path: Path
) -> None:
    dsn = await postgres_server.create_database("one_host")
    host = await PgHost.connect(dsn, pool_size=2, lock_pool_size=1)
    opening = (open_business(host, number, tmp_path) for number in range(BUSINESSES))
    stores = list(await asyncio.gather(*opening))  # migrated side by side, on the host's pool
    try:

        async def work(number: int, store: Store) -> None:
            await store.sessions.save(CHAT, 4242, f'{{"business": {number}}}')
            assert await store.inbox.add(f"e{number}", f"d{number}", "status", 1, b"{}")
            async with store.chat_locks.hold(CHAT):  # no business waits for another's
                await asyncio.sleep(0)
            assert await store.leadership.leads()

        await asyncio.wait_for(
            asyncio.gather(*(work(n, store) for n, store in enumerate(stores))), timeout=10
        )
        for number, store in enumerate(stores):
            session = await store.sessions.get(CHAT)
            assert session is not None and session.data == f'{{"business": {number}}}'
            assert [event.event_id for event in await store.inbox.next_batch()] == [f"e{number}"]
        assert 0 < await _connections(dsn) <= host.most_connections == 2 + 1 + 2
    finally:
        for store in stores:
            await store.close()
        await host.close()
    assert await _connections(dsn) == 0


async def test_a_business_leads_on_one_host_until_its_store_closes_there(
    postgres_server: LocalPostgres, tmp_path: Path
) -> None:
    dsn = await postgres_server.create_database("two_hosts")
    first, second = await PgHost.connect(dsn, pool_size=2), await PgHost.connect(dsn, pool_size=2)
    try:
        on_first = await open_business(first, 1, tmp_path)
        on_second = await open_business(second, 1, tmp_path)
        other_on_second = await open_business(second, 2, tmp_path)
        assert await on_first.leadership.leads()
        assert not await on_second.leadership.leads()
        assert await other_on_second.leadership.leads()  # its own namespace, its own lock
        await on_first.close()  # the business leaves the first host: the second takes over
        assert await on_second.leadership.leads()
        assert await other_on_second.leadership.leads()
        await on_second.close()
        await other_on_second.close()
    finally:
        await first.close()
        await second.close()


async def _connections(dsn: str) -> int:
    """Client connections to the database, this one's aside."""
    conn = await asyncpg.connect(dsn)
    try:
        return int(
            await conn.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
            )
        )
    finally:
        await conn.close()

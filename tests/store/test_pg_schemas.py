"""Businesses on one PostgreSQL database, each store in a schema of its own
(``[storage.postgres] db_schema``): every connection a store opens searches its schema only,
the first migration makes the schema, and neither store sees a row of the other."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg

from bot.chat_ref import TELEGRAM, ChatRef
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres

CHAT = ChatRef(TELEGRAM, 4242)  # the same Telegram user, talking to both businesses' bots


async def open_in(dsn: str, schema: str, media: Path, namespace: int) -> Store:
    return await Store.connect_postgres(
        dsn,
        media_dir=media,
        channels=SHIPPED_CHANNEL_KINDS,
        lock_namespace=namespace,
        db_schema=schema,
    )


async def test_two_stores_in_two_schemas_of_one_database_see_none_of_each_other_s_rows(
    postgres_server: LocalPostgres, tmp_path: Path
) -> None:
    dsn = await postgres_server.create_database("two_schemas")
    acme = await open_in(dsn, "b_acme", tmp_path / "acme", 11)
    zeta = await open_in(dsn, "b_zeta", tmp_path / "zeta", 12)
    try:
        await acme.sessions.save(CHAT, 4242, '{"flow": "acme"}')
        await acme.deliveries.add("d-acme", CHAT, 4242, 100.0, None, None)
        assert await acme.inbox.add("e-acme", "d-acme", "status", 100, b"{}")
        await zeta.sessions.save(CHAT, 4242, '{"flow": "zeta"}')

        acme_session = await acme.sessions.get(CHAT)
        zeta_session = await zeta.sessions.get(CHAT)
        assert acme_session is not None and zeta_session is not None
        assert (acme_session.data, zeta_session.data) == (
            '{"flow": "acme"}',
            '{"flow": "zeta"}',
        )
        assert await zeta.deliveries.get("d-acme") is None
        assert await zeta.inbox.next_batch() == []
        assert [event.event_id for event in await acme.inbox.next_batch()] == ["e-acme"]
        assert await acme.leadership.leads() and await zeta.leadership.leads()
        # The same Telegram user's chat with each business: two locks, neither waits.
        async with acme.chat_locks.hold(CHAT):
            await asyncio.wait_for(_held_once(zeta, CHAT), timeout=5)
    finally:
        await acme.close()
        await zeta.close()
    assert await _tables_by_schema(dsn) == {"b_acme", "b_zeta"}  # none in public


async def _held_once(store: Store, chat: ChatRef) -> None:
    async with store.chat_locks.hold(chat):
        pass


async def _tables_by_schema(dsn: str) -> set[str]:
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            "SELECT DISTINCT schemaname FROM pg_tables"
            " WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
        )
        return {str(row[0]) for row in rows}
    finally:
        await conn.close()

"""Retention of drafts (``prune_kind(store, "drafts", ...)``) on each backend: unfinished orders
idle past the limit are dropped, not a second earlier; on PostgreSQL two passes may overlap (a
leader handing over) and each finishes cleanly."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.chat_ref import ChatRef
from bot.privacy.retention import prune_kind
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres
from tests.support.clock import FakeClock
from tests.support.store_fixture import empty_postgres_database

IDLE = 14 * 86_400.0


async def _chats(store: Store) -> list[int]:
    return sorted(record.chat.id for record in await store.sessions.list_open())


async def test_sessions_idle_past_the_limit_are_dropped_and_not_before(
    store: Store, fake_clock: FakeClock
) -> None:
    await store.sessions.save(ChatRef("telegram", 1), 1, '{"step": "pickup"}')
    fake_clock.advance(3 * 86_400)
    await store.sessions.save(ChatRef("telegram", 2), 2, '{"step": "dropoff"}')

    fake_clock.advance(IDLE - 3 * 86_400 - 1)  # chat 1: one second short of the limit
    await prune_kind(store, "drafts", store.clock() - IDLE)
    assert await _chats(store) == [1, 2]

    fake_clock.advance(2)  # chat 1: one second past it; chat 2 answered three days later
    await prune_kind(store, "drafts", store.clock() - IDLE)
    assert await _chats(store) == [2]
    assert await store.sessions.get(ChatRef("telegram", 1)) is None

    await prune_kind(store, "drafts", store.clock() - IDLE)  # a second pass finds nothing more
    assert await _chats(store) == [2]


async def test_a_session_saved_again_is_idle_from_its_last_save(
    store: Store, fake_clock: FakeClock
) -> None:
    await store.sessions.save(ChatRef("telegram", 1), 1, '{"step": "pickup"}')
    fake_clock.advance(IDLE - 60)
    await store.sessions.save(
        ChatRef("telegram", 1), 1, '{"step": "dropoff"}'
    )  # the customer answered
    fake_clock.advance(120)
    await prune_kind(store, "drafts", store.clock() - IDLE)
    assert await _chats(store) == [1]


async def test_instances_passing_at_once_on_postgres_each_finish_cleanly(
    postgres_server: LocalPostgres, tmp_path: Path, fake_clock: FakeClock
) -> None:
    dsn = await empty_postgres_database(postgres_server)
    media = tmp_path / "shared-media"
    first = await Store.connect_postgres(
        dsn, media_dir=media, clock=fake_clock, channels=SHIPPED_CHANNEL_KINDS
    )
    second = await Store.connect_postgres(
        dsn, media_dir=media, clock=fake_clock, channels=SHIPPED_CHANNEL_KINDS
    )
    try:
        for chat in range(1, 41):
            await first.sessions.save(ChatRef("telegram", chat), chat, "{}")
        fake_clock.advance(IDLE + 1)
        await second.sessions.save(ChatRef("telegram", 99), 99, "{}")  # answered just now: kept

        passes = [prune_kind(s, "drafts", s.clock() - IDLE) for s in (first, second)] * 2
        await asyncio.gather(*passes)

        assert await _chats(first) == [99]
        assert await _chats(second) == [99]
    finally:
        await first.close()
        await second.close()

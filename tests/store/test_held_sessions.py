"""While an update is answered, its chat's session is read at most once, and never stale."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.chat_ref import ChatRef
from bot.store import Store


class Reads:
    """Counts the session reads that reach the database."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        self._depth = 0  # SQLite's fetch_one reads through fetch_all: count the outer call
        db = store._db
        for name in ("fetch_all", "fetch_one"):
            monkeypatch.setattr(db, name, self._counted(getattr(db, name)))

    def _counted(self, fetch: Any) -> Any:
        async def counted(sql: str, *args: Any) -> Any:
            if "FROM sessions" in sql and "chat_id = ?" in sql and self._depth == 0:
                self.count += 1
            self._depth += 1
            try:
                return await fetch(sql, *args)
            finally:
                self._depth -= 1

        return counted


async def in_turn(store: Store, update_id: int, chat_id: int, turn: Any) -> Any:
    """``turn`` run as the Telegram adapter runs an update: begin, handlers, finish."""

    async def run() -> Any:
        assert await store.updates.begin(update_id, ChatRef("telegram", chat_id))
        result = await turn()
        await store.updates.finish(update_id, ChatRef("telegram", chat_id))
        return result

    return await asyncio.create_task(run())


async def test_a_turn_reads_its_chats_session_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    await store.sessions.save(ChatRef("telegram", 5), 5, '{"step": "a"}')
    reads = Reads(store, monkeypatch)

    async def turn() -> None:
        first = await store.sessions.get(
            ChatRef("telegram", 5)
        )  # the screen asks, then the chat service
        again = await store.sessions.get(ChatRef("telegram", 5))
        assert first is not None and again is not None and again.data == '{"step": "a"}'
        await store.sessions.save(ChatRef("telegram", 5), 5, '{"step": "b"}')
        after = await store.sessions.get(ChatRef("telegram", 5))
        assert after is not None and after.data == '{"step": "b"}'

    await in_turn(store, 1, 5, turn)
    assert reads.count == 1


async def test_a_chat_without_a_session_is_read_once_too(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = Reads(store, monkeypatch)

    async def turn() -> None:
        assert await store.sessions.get(ChatRef("telegram", 6)) is None
        assert await store.sessions.get(ChatRef("telegram", 6)) is None

    await in_turn(store, 2, 6, turn)
    assert reads.count == 1


async def test_nothing_is_held_once_the_update_is_done(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    for chat in range(50):
        await in_turn(
            store, 100 + chat, chat, lambda chat=chat: store.sessions.get(ChatRef("telegram", chat))
        )
    assert store.sessions._held == {}
    reads = Reads(store, monkeypatch)
    await store.sessions.get(ChatRef("telegram", 1))  # outside any turn: from the database
    await store.sessions.get(ChatRef("telegram", 1))
    assert reads.count == 2


async def test_a_write_from_elsewhere_is_seen_by_the_turn(store: Store) -> None:
    await store.sessions.save(ChatRef("telegram", 7), 7, '{"step": "a"}')
    held = asyncio.Event()
    written = asyncio.Event()

    async def turn() -> str:
        await store.sessions.get(ChatRef("telegram", 7))
        held.set()
        await written.wait()
        record = await store.sessions.get(ChatRef("telegram", 7))
        assert record is not None
        return record.data

    answering = asyncio.create_task(in_turn(store, 3, 7, turn))
    await held.wait()
    await store.sessions.save(
        ChatRef("telegram", 7), 7, '{"step": "from elsewhere"}'
    )  # e.g. another worker
    written.set()
    assert await answering == '{"step": "from elsewhere"}'


async def test_a_task_started_by_the_turn_reads_afresh_once_the_turn_is_over(
    store: Store,
) -> None:
    await store.sessions.save(ChatRef("telegram", 8), 8, '{"step": "a"}')
    go_on = asyncio.Event()
    later: list[asyncio.Task[Any]] = []

    async def turn() -> None:
        await store.sessions.get(ChatRef("telegram", 8))

        async def afterwards() -> str | None:  # like a create re-sent after a rate limit
            await go_on.wait()
            record = await store.sessions.get(ChatRef("telegram", 8))
            return record.data if record else None

        later.append(asyncio.create_task(afterwards()))

    await in_turn(store, 4, 8, turn)
    await in_turn(
        store, 5, 8, lambda: store.sessions.save(ChatRef("telegram", 8), 8, '{"step": "next turn"}')
    )
    go_on.set()
    assert await later[0] == '{"step": "next turn"}'


async def test_a_purge_of_idle_sessions_is_seen_by_the_turn(store: Store) -> None:
    await store.sessions.save(ChatRef("telegram", 9), 9, '{"step": "a"}')

    async def turn() -> None:
        assert await store.sessions.get(ChatRef("telegram", 9)) is not None
        assert await store.sessions.purge_idle(before=store.clock() + 1) == 1
        assert await store.sessions.get(ChatRef("telegram", 9)) is None

    await in_turn(store, 6, 9, turn)

"""One commit per Telegram turn: the answered update's id is recorded with the session."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.chat_ref import ChatRef
from bot.store import Store


class Commits:
    """Counts what reaches SQLite as its own commit: lone statements and transactions."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.lone = 0
        self.transactions = 0
        db = store._db
        execute, transaction = db.execute, db.transaction

        async def counted_execute(*args: Any) -> int:
            self.lone += 1
            return await execute(*args)

        def counted_transaction() -> Any:
            self.transactions += 1
            return transaction()

        monkeypatch.setattr(db, "execute", counted_execute)
        monkeypatch.setattr(db, "transaction", counted_transaction)


ONE, TWO = ChatRef("telegram", 1), ChatRef("telegram", 2)


async def answer(store: Store, update_id: int, turn: Any, chat: ChatRef = ONE) -> bool:
    """What the Telegram adapter does per update from ``chat``, in a task of its own like PTB."""

    async def run() -> bool:
        if not await store.updates.begin(update_id, chat):
            return False
        await turn()
        await store.updates.finish(update_id, chat)
        return True

    return await asyncio.create_task(run())


async def test_a_turn_that_saves_its_session_commits_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    commits = Commits(store, monkeypatch)
    assert await answer(
        store, 7001, lambda: store.sessions.save(ChatRef("telegram", 1), 1, '{"step": "a"}')
    )
    assert (commits.transactions, commits.lone) == (0, 1)  # one statement does both writes
    assert not await answer(
        store, 7001, lambda: store.sessions.save(ChatRef("telegram", 1), 1, '{"step": "b"}')
    )
    record = await store.sessions.get(ChatRef("telegram", 1))
    assert record is not None and record.data == '{"step": "a"}'


async def test_only_the_first_write_of_a_turn_records_the_update(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    commits = Commits(store, monkeypatch)

    async def two_writes() -> None:  # the save before a create, then the one after it
        await store.sessions.save(ChatRef("telegram", 1), 1, '{"key": "k"}')
        await store.sessions.delete(ChatRef("telegram", 1))

    assert await answer(store, 7002, two_writes)
    assert (commits.transactions, commits.lone) == (0, 2)
    assert not await store.updates.begin(7002, ONE)


async def test_a_turn_without_a_session_write_is_recorded_after_its_handlers(
    store: Store,
) -> None:
    async def nothing() -> None:
        pass

    assert await answer(store, 7003, nothing)
    assert not await answer(store, 7003, nothing)


async def test_a_failed_session_write_leaves_the_update_unrecorded(store: Store) -> None:
    async def failing() -> None:
        # A user id of None breaks the NOT NULL column: the transaction rolls back whole.
        with pytest.raises(Exception, match=r"(?i)not[ -]null"):
            await store.sessions.save(ChatRef("telegram", 1), None, "{}")  # type: ignore[arg-type]
        assert store.updates.unrecorded_in(ONE) is not None

    async def run() -> None:
        assert await store.updates.begin(7004, ONE)
        await failing()

    await asyncio.create_task(run())  # no finish: as if the process stopped here
    assert await store.updates.begin(7004, ONE)  # so Telegram's repeat is handled


async def test_writes_outside_a_turn_record_nothing(store: Store) -> None:
    await store.sessions.save(ChatRef("telegram", 1), 1, "{}")
    assert store.updates.unrecorded_in(ONE) is None
    assert await store.updates.begin(1, ONE)


async def test_a_turn_that_ends_its_session_records_the_update_with_the_delete(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    await store.sessions.save(ChatRef("telegram", 2), 2, "{}")
    commits = Commits(store, monkeypatch)
    assert await answer(store, 7005, lambda: store.sessions.delete(TWO), TWO)
    assert (commits.transactions, commits.lone) == (1, 0)
    assert await store.sessions.get(ChatRef("telegram", 2)) is None
    assert not await store.updates.begin(7005, TWO)


async def test_a_write_of_another_chats_session_leaves_the_update_to_finish(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The update answered in chat one is found by the chat a write names: a write of chat
    two's session (an operator's block dropping a customer's draft) is its own commit, and
    the update is recorded when its handlers are done."""
    commits = Commits(store, monkeypatch)

    async def elsewhere() -> None:
        await store.sessions.save(TWO, 2, "{}")
        assert store.updates.unrecorded_in(ONE) is not None
        assert store.updates.unrecorded_in(TWO) is None

    assert await answer(store, 7006, elsewhere)
    assert (commits.transactions, commits.lone) == (0, 2)  # the save, then finish's record
    assert not await store.updates.begin(7006, ONE)

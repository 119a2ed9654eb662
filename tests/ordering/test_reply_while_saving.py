"""ChatService.handle(reply=...): the reply is drawn while the turn's session is written, sees
what is being written, and a write that fails still fails the turn."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.ordering import ChatService
from bot.store import Store
from conversations import Session, TextAnswer, Turn

from .conftest import TO_SUMMARY, Org

CHAT, USER = ChatRef(TELEGRAM, 42), UserRef(TELEGRAM, 7)
GUARD_SECONDS = 10  # only ever reached when the reply waits for the write: the test fails then


def gated_saves(store: Store, gate: asyncio.Event) -> list[str]:
    """Every statement the store's database runs waits for ``gate`` (a slow disk), after the
    session save started; returns the saves' log."""
    log: list[str] = []
    real_save = store.sessions.save
    db = store.sessions._db  # the statements of every repository go through it
    real_execute = db.execute

    async def save(chat: ChatRef, user_id: int, data_json: str) -> None:
        log.append("save started")
        await real_save(chat, user_id, data_json)
        log.append("saved")

    async def execute(sql: str, params: Any = ()) -> int:
        await gate.wait()
        return await real_execute(sql, params)

    store.sessions.save = save  # type: ignore[method-assign]
    db.execute = execute  # type: ignore[method-assign]
    return log


async def started(org: Org) -> ChatService:
    assert org.store is not None
    chats = ChatService(org.engine(), org.store, clock=org.clock)
    await chats.start(CHAT, USER)
    return chats


def replying(
    log: list[str], gate: asyncio.Event, look: Callable[[], Coroutine[Any, Any, None]] | None = None
) -> Callable[[Turn], Coroutine[Any, Any, None]]:
    async def reply(turn: Turn) -> None:
        log.append(f"reply {turn.prompt.step if turn.prompt else None}")
        if look is not None:
            await look()
        gate.set()

    return reply


async def test_the_reply_goes_out_while_the_session_is_written(org: Org) -> None:
    chats = await started(org)
    assert org.store is not None
    gate = asyncio.Event()
    log = gated_saves(org.store, gate)
    async with asyncio.timeout(GUARD_SECONDS):
        turn = await chats.handle(CHAT, USER, TO_SUMMARY[0], reply=replying(log, gate))
    assert turn.prompt is not None
    assert log == ["save started", f"reply {turn.prompt.step}", "saved"]
    record = await org.store.sessions.get(CHAT)
    assert record is not None
    assert Session.model_validate_json(record.data).step == turn.prompt.step


async def test_the_reply_reads_the_session_being_written(org: Org) -> None:
    chats = await started(org)
    assert org.store is not None
    gate = asyncio.Event()
    log = gated_saves(org.store, gate)
    seen: list[str | None] = []

    async def look() -> None:
        session = await chats.session(CHAT)
        seen.append(session.step if session else None)

    # As a Telegram turn does: the chat's update is being answered in this task.
    assert await org.store.updates.begin(1001, CHAT)
    async with asyncio.timeout(GUARD_SECONDS):
        turn = await chats.handle(CHAT, USER, TO_SUMMARY[0], reply=replying(log, gate, look))
    await org.store.updates.finish(1001, CHAT)
    assert turn.prompt is not None and seen == [turn.prompt.step]
    assert not await org.store.updates.begin(1001, CHAT)  # recorded with the session


async def test_a_write_that_fails_fails_the_turn_after_the_reply(org: Org) -> None:
    chats = await started(org)
    assert org.store is not None
    replies: list[Turn] = []

    async def broken_save(chat: ChatRef, user_id: int, data_json: str) -> None:
        raise OSError("disk full")

    async def reply(turn: Turn) -> None:
        replies.append(turn)

    org.store.sessions.save = broken_save  # type: ignore[method-assign]
    with pytest.raises(OSError, match="disk full"):
        await chats.handle(CHAT, USER, TO_SUMMARY[0], reply=reply)
    assert len(replies) == 1


async def test_a_failing_reply_still_waits_for_the_write(org: Org) -> None:
    chats = await started(org)
    assert org.store is not None

    async def reply(turn: Turn) -> None:
        raise ConnectionError("telegram is down")

    with pytest.raises(ConnectionError):
        await chats.handle(CHAT, USER, TO_SUMMARY[0], reply=reply)
    record = await org.store.sessions.get(CHAT)
    assert record is not None and Session.model_validate_json(record.data).step != "service_kind"


async def test_no_reply_without_an_open_order(org: Org) -> None:
    assert org.store is not None
    chats = ChatService(org.engine(), org.store, clock=org.clock)
    replies: list[Turn] = []

    async def reply(turn: Turn) -> None:
        replies.append(turn)

    await chats.handle(CHAT, USER, TextAnswer(text="hello"), reply=reply)
    assert replies == []

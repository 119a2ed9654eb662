"""A block that lands while a customer's turn waits for its chat is seen by that turn: the
block is read under the chat's lock, not before it (a turn that read it before would run once
more for a blocked customer)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.chatlocks import ChatTurnLocks
from bot.ordering import ChatService
from conversations import Turn
from tests.support.words import say

from .conftest import TO_SUMMARY, Org

CHAT, USER = ChatRef(TELEGRAM, 42), UserRef(TELEGRAM, 7)


class AnnouncingLocks:
    """The store's chat locks, announcing each ``hold`` asked for (the turn is then waiting:
    nothing runs between the ask and the wait)."""

    def __init__(self, locks: ChatTurnLocks) -> None:
        self.locks = locks
        self.asked = asyncio.Event()

    @contextlib.asynccontextmanager
    async def hold(self, chat: ChatRef) -> AsyncIterator[None]:
        self.asked.set()
        async with self.locks.hold(chat):
            yield


Call = Callable[[ChatService], Awaitable[Turn]]
CALLS: dict[str, Call] = {
    "answer": lambda chats: chats.handle(CHAT, USER, TO_SUMMARY[1]),
    "new order": lambda chats: chats.start(CHAT, USER),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
async def test_a_block_made_while_the_turn_waits_refuses_it(org: Org, call: Call) -> None:
    store = org.store
    assert store is not None
    locks = AnnouncingLocks(store.chat_locks)
    store.chat_locks = locks
    chats = ChatService(org.engine(), store, clock=org.clock)
    await chats.start(CHAT, USER)
    await chats.handle(CHAT, USER, TO_SUMMARY[0])
    step = (await chats.session(CHAT) or pytest.fail("no session")).step

    held, release = asyncio.Event(), asyncio.Event()

    async def busy_chat() -> None:  # another turn of the chat, still running
        async with locks.locks.hold(CHAT):
            held.set()
            await release.wait()

    busy = asyncio.create_task(busy_chat())
    await held.wait()
    locks.asked.clear()
    waiting = asyncio.create_task(call(chats))
    await locks.asked.wait()
    await store.customer_blocks.block(USER, by="telegram:1900", reason="spam")
    release.set()
    await busy

    turn = await waiting
    assert turn.messages == (say("safety.blocked"),)
    session = await chats.session(CHAT)
    assert session is not None and session.step == step  # the turn did not run

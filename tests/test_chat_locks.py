"""``ChatLocks``: one chat's work one at a time, re-entrant for the task that holds it."""

from __future__ import annotations

import asyncio

from bot.chat_ref import AGENTS, TELEGRAM, ChatRef
from bot.chatlocks import ChatLocks

CHAT = ChatRef(TELEGRAM, 7)


async def test_the_task_holding_a_chat_holds_it_again_at_once() -> None:
    locks = ChatLocks()
    async with asyncio.timeout(5), locks.hold(CHAT):
        assert locks.holds(CHAT)
        async with locks.hold(CHAT):  # a deadlock here would time out
            assert locks.holds(CHAT)
        assert locks.holds(CHAT)  # the inner block did not let go of the outer one
    assert not locks.holds(CHAT)


async def test_a_task_started_inside_a_hold_waits_its_turn() -> None:
    locks = ChatLocks()
    order: list[str] = []

    async def later() -> None:
        async with locks.hold(CHAT):
            order.append("later")

    async with locks.hold(CHAT):
        # The new task copies this task's context, but not its lock.
        task = asyncio.create_task(later())
        await asyncio.sleep(0)  # let it run up to the lock
        assert not task.done()
        order.append("holder")
    await task
    assert order == ["holder", "later"]


async def test_equal_ids_of_two_channels_are_two_chats() -> None:
    locks = ChatLocks()
    agents_chat = ChatRef(AGENTS, CHAT.id)

    async def other_task() -> bool:
        async with locks.hold(agents_chat):
            return locks.holds(agents_chat)

    async with locks.hold(CHAT):
        # Another task, so re-entrance cannot explain it: one lock for both would time out.
        async with asyncio.timeout(5):
            assert await asyncio.create_task(other_task())

"""``ChatLocks``: one chat's work one at a time, re-entrant for the task that holds it."""

from __future__ import annotations

import asyncio

from bot.chatlocks import ChatLocks


async def test_the_task_holding_a_chat_holds_it_again_at_once() -> None:
    locks = ChatLocks()
    async with asyncio.timeout(5), locks.hold(7):
        assert locks.holds(7)
        async with locks.hold(7):  # a deadlock here would time out
            assert locks.holds(7)
        assert locks.holds(7)  # the inner block did not let go of the outer one
    assert not locks.holds(7)


async def test_a_task_started_inside_a_hold_waits_its_turn() -> None:
    locks = ChatLocks()
    order: list[str] = []

    async def later() -> None:
        async with locks.hold(7):
            order.append("later")

    async with locks.hold(7):
        # The new task copies this task's context, but not its lock.
        task = asyncio.create_task(later())
        await asyncio.sleep(0)  # let it run up to the lock
        assert not task.done()
        order.append("holder")
    await task
    assert order == ["holder", "later"]

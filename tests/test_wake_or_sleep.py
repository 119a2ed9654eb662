"""``bot.clocks.wake_or_sleep``: the wait of every background worker. A worker looping on it
must stop when cancelled, whichever step of the wait the cancel lands in; one whose cancel was
swallowed would loop on and keep the bot's shutdown waiting for ever."""

from __future__ import annotations

import asyncio

import pytest

from bot.clocks import wake_or_sleep


async def test_it_returns_on_the_wake_or_after_the_delay() -> None:
    wake = asyncio.Event()
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    await wake_or_sleep(wake, 5.0, sleep)  # the (instant) sleep ends it
    assert slept == [5.0]
    await wake_or_sleep(wake, 0.0, sleep)  # nothing to wait for
    wake.set()
    await wake_or_sleep(wake, None, asyncio.sleep)  # only the wake: set already
    assert slept == [5.0]


@pytest.mark.parametrize("steps", range(12))
async def test_a_worker_looping_on_it_stops_when_cancelled_at_any_step(steps: int) -> None:
    wake = asyncio.Event()
    rounds = 0

    async def worker() -> None:
        nonlocal rounds
        while True:
            rounds += 1
            wake.set()  # work always waiting: the wait ends at once, again and again
            await wake_or_sleep(wake, 60.0, asyncio.sleep)
            wake.clear()

    task = asyncio.create_task(worker())
    for _ in range(steps):  # the cancel lands that many loop steps in
        await asyncio.sleep(0)
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=5)
    assert done == {task} and task.cancelled()

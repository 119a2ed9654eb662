"""Telegram's sending limits, in time the tests move by hand."""

from __future__ import annotations

import asyncio

import pytest

from bot.telegram.limits import RateLimiter, SendLimits, SlidingWindow, Window
from tests.support.clock import WaitingClock


def limiter(time: WaitingClock, **limits: object) -> RateLimiter:
    """A limiter with Telegram's windows exactly (no margin), unless told otherwise."""
    limits = {"margin": 0.0, **limits}
    return RateLimiter(SendLimits(**limits), clock=time.clock, sleep=time.sleep)  # type: ignore[arg-type]


def test_a_window_books_the_earliest_slot_it_allows() -> None:
    window = SlidingWindow(Window(3, 3.0))
    assert [window.book(10.0) for _ in range(4)] == [10.0, 10.0, 10.0, 13.0]
    assert window.book(10.5) == 13.0  # the 2nd booking at 10.0 frees its place at 13.0
    assert window.book(20.0) == 20.0
    assert window.book(20.0, not_before=25.0) == 25.0


def test_a_window_is_idle_once_its_last_booking_no_longer_counts() -> None:
    window = SlidingWindow(Window(1, 1.0))
    assert window.idle(0.0)
    slot = window.book(5.0)
    assert not window.idle(5.0)  # a sender waits for its slot
    window.take(slot)
    window.settle(5.0)
    assert not window.idle(5.5) and window.idle(6.0)


def test_nonsense_limits_are_refused() -> None:
    with pytest.raises(ValueError):
        Window(0, 1.0)
    with pytest.raises(ValueError):
        Window(1, 0.0)
    with pytest.raises(ValueError):
        SendLimits(max_attempts=0)
    with pytest.raises(ValueError):
        SendLimits(margin=-0.001)


async def test_the_margin_keeps_each_window_a_little_longer(manual_time: WaitingClock) -> None:
    limits = limiter(manual_time, overall=Window(1, 1.0), margin=0.002)
    await limits.acquire(1001)
    assert limits.delay_for(1002) == pytest.approx(1.002)


async def test_a_private_chat_gets_a_short_burst_then_one_a_second(
    manual_time: WaitingClock,
) -> None:
    limits = limiter(manual_time)
    for _ in range(3):
        await limits.acquire(1001)
    assert manual_time.slept == []
    fourth = asyncio.create_task(limits.acquire(1001))
    await manual_time.sleepers(1)
    assert manual_time.slept == [3.0]
    manual_time.advance(3.0)
    await fourth


async def test_a_group_gets_twenty_a_minute(manual_time: WaitingClock) -> None:
    limits = limiter(manual_time, group_burst=Window(20, 60.0))  # the minute's limit alone
    for _ in range(20):
        await limits.acquire(-100200)
    assert manual_time.slept == []
    later = asyncio.create_task(limits.acquire(-100200))
    await manual_time.sleepers(1)
    assert manual_time.slept == [60.0]
    manual_time.advance(60.0)
    await later


async def test_a_busy_group_gets_its_twenty_spread_over_the_minute(
    manual_time: WaitingClock,
) -> None:
    limits = limiter(manual_time)
    for _ in range(3):
        await limits.acquire(-100200)  # a reply of three messages goes at once
    sent_at = []
    for _ in range(6):
        wait = limits.delay_for(-100200)
        turn = asyncio.create_task(limits.acquire(-100200))
        if wait:
            await manual_time.sleepers(1)
            manual_time.advance(wait)
        await turn
        sent_at.append(manual_time.now - 1000.0)
    assert sent_at == [9.0, 9.0, 9.0, 18.0, 18.0, 18.0]  # 3 in any 9 s: never a minute's gap
    assert limits.delay_for(-100100) == 0.0  # another group is not held by this one


async def test_thirty_a_second_overall(manual_time: WaitingClock) -> None:
    limits = limiter(manual_time)
    for chat in range(1, 31):
        await limits.acquire(chat)
    assert manual_time.slept == []
    thirty_first = asyncio.create_task(limits.acquire(31))
    await manual_time.sleepers(1)
    assert manual_time.slept == [1.0]
    manual_time.advance(1.0)
    await thirty_first


async def test_a_hold_delays_only_its_chat(manual_time: WaitingClock) -> None:
    limits = limiter(manual_time)
    limits.hold(1001, 7.0)
    assert limits.held_for(1001) == 7.0 and limits.held_for(1002) == 0.0
    held = asyncio.create_task(limits.acquire(1001))
    await manual_time.sleepers(1)
    await limits.acquire(1002)  # not held: goes at once
    assert manual_time.slept == [7.0]
    assert not held.done()
    manual_time.advance(7.0)
    await held
    assert limits.held_for(1001) == 0.0


async def test_a_shorter_hold_never_shortens_a_longer_one(manual_time: WaitingClock) -> None:
    limits = limiter(manual_time)
    limits.hold(1001, 30.0)
    limits.hold(1001, 5.0)
    assert limits.held_for(1001) == 30.0


async def test_idle_chats_are_forgotten_when_many_were_seen(manual_time: WaitingClock) -> None:
    limits = limiter(manual_time, private_chat=Window(100, 1.0), overall=Window(5000, 1.0))
    for chat in range(1, 1025):
        await limits.acquire(chat)
    manual_time.advance(2.0)
    await limits.acquire(5000)
    assert len(limits._chats) == 1  # only the chat just served is remembered


async def test_the_delay_a_chat_would_wait_is_told_without_booking(
    manual_time: WaitingClock,
) -> None:
    limits = limiter(manual_time, overall=Window(4, 1.0))
    assert limits.delay_for(1001) == 0.0
    for _ in range(3):
        await limits.acquire(1001)
    assert limits.delay_for(1001) == 3.0  # its own burst is spent
    assert limits.delay_for(1002) == 0.0  # another chat is not behind
    await limits.acquire(1002)
    assert limits.delay_for(1003) == 1.0  # the overall window is full for everyone
    assert limits.delay_for(1003) == 1.0  # asking booked nothing
    limits.hold(1004, 5.0)
    assert limits.delay_for(1004) == 5.0


async def test_a_send_made_late_holds_back_the_send_booked_after_it(
    manual_time: WaitingClock,
) -> None:
    limits = limiter(manual_time, overall=Window(1, 1.0))
    await limits.acquire(1001)  # sent at 1000.0
    second = asyncio.create_task(limits.acquire(1002))  # booked for 1001.0
    third = asyncio.create_task(limits.acquire(1003))  # booked for 1002.0
    await manual_time.sleepers(2)
    manual_time.advance(1.5)  # the second's sleeper wakes late: it goes at 1001.5
    await second
    manual_time.advance(0.5)  # the third's slot: only half a second after the second went
    await manual_time.sleepers(1)
    assert not third.done()
    assert manual_time.slept == [1.0, 2.0, 0.5]  # judged again on when the second went
    manual_time.advance(0.5)
    await third


async def test_a_reserved_turn_is_waited_for_once_and_used_by_the_next_send(
    manual_time: WaitingClock,
) -> None:
    limits = limiter(manual_time, overall=Window(1, 1.0))
    await limits.acquire(1001)
    turn = asyncio.create_task(limits.reserve(1003))
    await manual_time.sleepers(1)
    manual_time.advance(1.0)
    assert await turn == 1.0  # the seconds waited
    assert limits.delay_for(1004) > 0  # the reserved turn counts as a send from now
    manual_time.advance(0.25)  # composing the message
    await limits.acquire(1003)  # goes at once, on the reserved turn
    assert manual_time.slept == [1.0]
    assert limits.delay_for(1004) == 1.0  # counted from when it really went, not reserved


async def test_a_released_turn_is_given_back(manual_time: WaitingClock) -> None:
    limits = limiter(manual_time, overall=Window(1, 1.0))
    assert await limits.reserve(1001) == 0.0
    assert limits.delay_for(1002) > 0
    limits.release(1001)
    limits.release(1001)  # nothing left to give back
    assert limits.delay_for(1002) == 0.0
    await limits.acquire(1002)
    assert manual_time.slept == []


async def test_a_cancelled_wait_gives_its_slots_back(manual_time: WaitingClock) -> None:
    limits = limiter(manual_time, overall=Window(1, 1.0))
    await limits.acquire(1001)
    waiting = asyncio.create_task(limits.acquire(1002))
    await manual_time.sleepers(1)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert limits.delay_for(1003) == 1.0  # only the send really made limits the next


async def test_a_free_turn_reserved_reports_no_wait_though_time_moves() -> None:
    ticks = iter(range(1000))
    moving = RateLimiter(SendLimits(), clock=lambda: 1000.0 + next(ticks) / 1000)
    assert await moving.reserve(1001) == 0.0  # no backlog: the chat keeps up
    await moving.acquire(1001)

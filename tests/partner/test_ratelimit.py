"""RequestLimiter on a fake clock: never more than N starts in a window, fair, and talkative."""

from __future__ import annotations

import asyncio
import tracemalloc

import pytest

from bot.partner.request_limiter import IN_USE_LIMIT_SECONDS, RequestLimiter
from tests.partner.conftest import START


@pytest.fixture
def limiter(clock, sleeper):
    return RequestLimiter(3, clock=clock, sleep=sleeper)


async def one_request(limiter: RequestLimiter) -> None:
    """A request answered the moment it starts."""
    async with limiter.request():
        pass


def most_in_any_window(starts: list[float], window: float = 60.0) -> int:
    return max(sum(1 for s in starts if t <= s < t + window) for t in starts)


async def test_no_window_sees_more_than_the_limit(limiter, clock):
    starts: list[float] = []

    async def request() -> None:
        await one_request(limiter)
        starts.append(clock.now)

    await asyncio.gather(*(request() for _ in range(10)))
    offsets = [s - starts[0] for s in starts]
    assert offsets == [0, 0, 0, 60, 60, 60, 120, 120, 120, 180]
    assert most_in_any_window(starts) == 3


async def test_a_sliding_window_not_a_fixed_one(limiter, clock):
    # Starts at 0, 30 and 59: the fourth must wait until 60 (one minute after the first),
    # the fifth until 90, whatever the service's window alignment.
    starts = []
    for gap in (0, 30, 29):
        clock.advance(gap)
        await one_request(limiter)
        starts.append(clock.now)
    await one_request(limiter)
    starts.append(clock.now)
    await one_request(limiter)
    starts.append(clock.now)
    assert [s - starts[0] for s in starts] == [0, 30, 59, 60, 90]


async def test_a_slot_counts_from_its_answer_not_its_start(clock, sleeper):
    # The service counts a request when it arrives: somewhere between its start and its
    # answer. Counted from the answer, the slot's next request surely arrives a window later.
    limiter = RequestLimiter(1, clock=clock, sleep=sleeper)
    slot = await limiter.acquire()
    started = clock.now
    clock.advance(4)  # a slow answer
    limiter.release(slot)
    await one_request(limiter)
    assert clock.now - started == 64
    assert sleeper.delays == [60]


async def test_a_slot_in_use_holds_its_place_until_released(clock, gated_sleep):
    limiter = RequestLimiter(1, clock=clock, sleep=gated_sleep)
    slot = await limiter.acquire()
    clock.advance(70)  # a window after its start, its request still has no answer
    assert limiter.wait_time() == 60.0  # counted as in use now
    waiting = asyncio.create_task(limiter.acquire())
    await gated_sleep.started.wait()
    assert not waiting.done()
    clock.advance(2)
    gated_sleep.started.clear()
    limiter.release(slot)  # answered at 72: the waiter wakes, its goal now 132, no later
    async with asyncio.timeout(5):
        await gated_sleep.started.wait()
    assert gated_sleep.pending[-1][0] == 60.0
    gated_sleep.release_all()
    async with asyncio.timeout(5):
        second = await waiting
    assert second.at == clock.now == START + 132


async def test_a_slot_never_released_counts_as_answered_after_the_in_use_limit(clock, sleeper):
    limiter = RequestLimiter(1, clock=clock, sleep=sleeper)
    await limiter.acquire()  # a request that never ends
    await one_request(limiter)
    assert sleeper.delays[-1] > 0 and clock.now == START + IN_USE_LIMIT_SECONDS + 60


async def test_releasing_twice_changes_nothing(clock, sleeper):
    limiter = RequestLimiter(1, clock=clock, sleep=sleeper)
    slot = await limiter.acquire()
    limiter.release(slot)
    clock.advance(30)
    limiter.release(slot)
    assert limiter.wait_time() == 30.0


async def test_wait_time_tells_a_newcomer_how_long(limiter, clock):
    assert limiter.wait_time() == 0.0
    for _ in range(3):
        await one_request(limiter)
    assert limiter.wait_time() == 60.0
    clock.advance(45)
    assert limiter.wait_time() == 15.0
    clock.advance(15)
    assert limiter.wait_time() == 0.0


async def test_wait_time_counts_everyone_already_in_line(clock, gated_sleep):
    limiter = RequestLimiter(2, clock=clock, sleep=gated_sleep)
    await one_request(limiter)
    await one_request(limiter)
    order: list[int] = []

    async def waiter(n: int) -> None:
        await one_request(limiter)
        order.append(n)

    tasks = [asyncio.create_task(waiter(n)) for n in range(3)]
    await gated_sleep.started.wait()
    # Three in line for a limit of two: two go at +60, the third at +120, a newcomer too.
    assert limiter.wait_time() == 120.0
    while not all(t.done() for t in tasks):
        gated_sleep.release_all()
        await asyncio.sleep(0)
    assert order == [0, 1, 2]  # first come, first served


async def test_no_cap_never_waits(clock, sleeper):
    limiter = RequestLimiter(None, clock=clock, sleep=sleeper)
    for _ in range(1000):
        await one_request(limiter)
    assert sleeper.delays == []
    assert limiter.wait_time() == 0.0


async def test_no_cap_keeps_a_bounded_record_of_starts(clock, sleeper):
    # A bot without a cap may run for months: uncapped starts must not pile up in memory.
    limiter = RequestLimiter(None, clock=clock, sleep=sleeper)
    await one_request(limiter)  # the first call sets up asyncio's lock machinery
    tracemalloc.start()
    try:
        for _ in range(20_000):
            clock.advance(0.001)
            await one_request(limiter)
        grown, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert grown < 50_000  # recording each start would hold ~600 kB here


async def test_starts_before_the_cap_is_known_count_against_it(clock, sleeper):
    # The capabilities call that tells the cap goes out before the cap is set: the first
    # window must still admit the cap, not the cap plus that call.
    limiter = RequestLimiter(None, clock=clock, sleep=sleeper)
    await one_request(limiter)
    starts = [clock.now]
    limiter.set_rate(3)
    for _ in range(3):
        await one_request(limiter)
        starts.append(clock.now)
    assert [s - starts[0] for s in starts] == [0, 0, 0, 60]
    assert most_in_any_window(starts) == 3


async def test_uncapped_starts_older_than_the_window_are_forgotten(clock, sleeper):
    limiter = RequestLimiter(None, clock=clock, sleep=sleeper)
    for _ in range(5):
        await one_request(limiter)
    clock.advance(60)
    await one_request(limiter)
    limiter.set_rate(2)
    assert limiter.wait_time() == 0.0
    await one_request(limiter)
    assert limiter.wait_time() == 60.0


async def test_set_rate_changes_the_cap_for_waiters(limiter, clock):
    for _ in range(3):
        await one_request(limiter)
    limiter.set_rate(5)
    assert limiter.wait_time() == 0.0
    limiter.set_rate(1)
    assert limiter.wait_time() == 60.0
    limiter.set_rate(None)
    assert limiter.requests_per_minute is None
    assert limiter.wait_time() == 0.0


async def test_a_shorter_window(clock, sleeper):
    limiter = RequestLimiter(1, window_seconds=10, clock=clock, sleep=sleeper)
    await one_request(limiter)
    await one_request(limiter)
    assert sleeper.delays == [10.0]


async def test_block_for_holds_everyone_back(limiter, clock, sleeper):
    limiter.block_for(12)
    assert limiter.wait_time() == 12.0
    await one_request(limiter)
    assert sleeper.delays == [12.0]
    limiter.block_for(-5)  # nonsense is ignored
    assert limiter.wait_time() == 0.0


async def test_a_cancelled_waiter_leaves_the_line(clock, gated_sleep):
    limiter = RequestLimiter(1, clock=clock, sleep=gated_sleep)
    await one_request(limiter)
    waiting = asyncio.create_task(limiter.acquire())
    await gated_sleep.started.wait()
    assert limiter.wait_time() == 120.0
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert limiter.wait_time() == 60.0


@pytest.mark.parametrize("bad", [0, -3])
def test_a_cap_below_one_is_refused(bad):
    with pytest.raises(ValueError, match="at least 1"):
        RequestLimiter(bad)


def test_repr_shows_the_rate():
    assert repr(RequestLimiter(60)) == "RequestLimiter(requests_per_minute=60, window=60.0)"


async def test_a_request_that_never_ends_does_not_make_the_log_grow(clock, sleeper):
    limiter = RequestLimiter(3, clock=clock, sleep=sleeper)
    await limiter.acquire()  # in use for ever, at the front of the log
    for _ in range(200):
        await one_request(limiter)
    # The slot in use, and what the last window's released slots need: never all 201.
    assert len(limiter._slots) <= 4

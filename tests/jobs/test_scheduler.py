"""``bot.jobs.Scheduler``: waking, due times, ``look_seconds``, back-off, leader-only jobs and
cancellation, for every background job at once. The jobs here are scripted: each pass returns
(or raises) what the test lined up; the scheduler's sleep is a fake that records each wait and
returns when the test says, so no test waits on the wall clock."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

import pytest

from bot.jobs import Job, Scheduler
from bot.jobs.scheduler import BEAT_FROM_SECONDS, FOLLOWER_LOOK_SECONDS, _on_the_beat, wake_or_sleep
from bot.store.coordination import ALWAYS_LEADS

Result = float | None | Exception


class Scripted(Job):
    """A job whose passes return (or raise) ``results`` in turn, then None; counts its passes
    and its stops."""

    name = "scripted"

    def __init__(
        self,
        *results: Result,
        look_seconds: float | None = None,
        follower_look: float | None = None,
    ) -> None:
        super().__init__(look_seconds=look_seconds, follower_look=follower_look)
        self.results: deque[Result] = deque(results)
        self.passes = 0
        self.stops = 0
        self.stopped = asyncio.Event()
        self.passed = asyncio.Condition()

    async def run_once(self) -> float | None:
        self.passes += 1
        async with self.passed:
            self.passed.notify_all()
        result = self.results.popleft() if self.results else None
        if isinstance(result, Exception):
            raise result
        return result

    def backoff(self, failures: int) -> float:
        return 10.0 * failures

    async def stop(self) -> None:
        self.stops += 1
        self.stopped.set()

    async def wait_passes(self, count: int) -> None:
        async with asyncio.timeout(5), self.passed:
            await self.passed.wait_for(lambda: self.passes >= count)


class LeaderOnly(Scripted):
    name = "leader-only"
    leader_only = True


class Naps:
    """The scheduler's sleep: records each wait; returns at once when ``instant``, else when
    the test calls ``elapse``."""

    def __init__(self, *, instant: bool = False) -> None:
        self.asked: list[float] = []
        self.instant = instant
        self.changed = asyncio.Condition()
        self._elapsed: asyncio.Future[None] | None = None

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        async with self.changed:
            self.changed.notify_all()
        if self.instant:
            await asyncio.sleep(0)
            return
        self._elapsed = asyncio.get_running_loop().create_future()
        await self._elapsed

    def elapse(self) -> None:
        assert self._elapsed is not None
        self._elapsed.set_result(None)

    async def wait_asked(self, count: int) -> None:
        async with asyncio.timeout(5), self.changed:
            await self.changed.wait_for(lambda: len(self.asked) >= count)


class Switch:
    """A leadership the test turns on and off; counts the asks."""

    def __init__(self, leading: bool) -> None:
        self.leading = leading
        self.asked = 0

    async def leads(self) -> bool:
        self.asked += 1
        await asyncio.sleep(0)
        return self.leading


def running(job: Job, naps: Naps, **options: Any) -> Scheduler:
    """A scheduler of ``job`` alone, sleeping through ``naps`` (leading, unless ``options``
    give a ``leadership``): ``async with`` it."""
    options.setdefault("leadership", ALWAYS_LEADS)
    scheduler = Scheduler(sleep=naps, **options)
    scheduler.add(job)
    return scheduler


# --- waking and due times ------------------------------------------------------------------------


async def test_a_job_passes_at_once_then_on_each_wake() -> None:
    job, naps = Scripted(), Naps()
    async with running(job, naps) as scheduler:
        await job.wait_passes(1)
        job.wake()
        await job.wait_passes(2)
        scheduler.wake("scripted")
        await job.wait_passes(3)
    assert naps.asked == []  # nothing due and no look_seconds: only wakes
    assert job.stops == 1


async def test_the_next_pass_comes_when_the_last_one_said_it_is_due() -> None:
    job, naps = Scripted(7.0, 2.5), Naps()
    async with running(job, naps):
        await naps.wait_asked(1)
        assert (job.passes, naps.asked) == (1, [7.0])
        naps.elapse()
        await naps.wait_asked(2)
        assert (job.passes, naps.asked) == (2, [7.0, 2.5])


async def test_a_wake_during_a_pass_is_kept_for_the_next_one() -> None:
    class WakesItself(Scripted):
        async def run_once(self) -> float | None:
            if self.passes == 0:
                self.wake()  # new work came in while this pass ran
            return await super().run_once()

    job, naps = WakesItself(60.0, 60.0), Naps()
    async with running(job, naps):
        await job.wait_passes(2)  # at once: the fake 60 s never elapse


@pytest.mark.parametrize(
    ("look_seconds", "due", "wait"),
    [(None, None, None), (None, 7.0, 7.0), (3.0, 7.0, 3.0), (3.0, 1.0, 1.0), (3.0, None, 3.0)],
)
async def test_look_seconds_caps_the_wait_for_what_other_processes_keep(
    look_seconds: float | None, due: float | None, wait: float | None
) -> None:
    job = Scripted(due, look_seconds=look_seconds)
    assert await Scheduler(leadership=ALWAYS_LEADS).turn(job) == wait


async def test_a_job_looks_every_look_seconds_without_a_wake() -> None:
    job, naps = Scripted(look_seconds=2.0), Naps(instant=True)
    async with running(job, naps):
        await job.wait_passes(3)
    assert naps.asked[:2] == [2.0, 2.0]


# --- failing passes ------------------------------------------------------------------------------


async def test_a_failing_pass_is_backed_off_and_logged_once_with_the_jobs_name(
    caplog: pytest.LogCaptureFixture,
) -> None:
    down = OSError("the disk is gone")
    job, naps = Scripted(down, down, down, None, look_seconds=1.0), Naps(instant=True)
    with caplog.at_level(logging.INFO, logger="bot.jobs"):
        async with running(job, naps):
            await job.wait_passes(5)

    assert naps.asked[:4] == [10.0, 20.0, 30.0, 1.0]  # the job's back-off, then its looks
    first, second, third, recovered = (r for r in caplog.records if r.name == "bot.jobs.scheduler")
    assert first.levelno == logging.ERROR and first.exc_info is not None
    assert first.getMessage() == "scripted: a pass failed; the next in 10 s"
    assert second.levelno == third.levelno == logging.WARNING and second.exc_info is None
    assert second.getMessage() == (
        "scripted: a pass failed again (2 in a row, OSError); the next in 20 s"
    )
    assert recovered.getMessage() == "scripted: working again after 3 failed passes"


async def test_a_wake_ends_a_back_off_early() -> None:
    job, naps = Scripted(OSError("down")), Naps()
    async with running(job, naps):
        await naps.wait_asked(1)
        job.wake()
        await job.wait_passes(2)
    assert naps.asked == [10.0]


async def test_the_default_back_off_is_a_pause_of_half_a_minute() -> None:
    class Plain(Job):
        name = "plain"

        async def run_once(self) -> None:
            return None

    assert Plain().backoff(1) == Plain().backoff(7) == 30.0


# --- leadership ----------------------------------------------------------------------------------


async def test_a_leader_only_job_passes_only_while_its_process_leads() -> None:
    job, naps, leadership = LeaderOnly(look_seconds=3.0), Naps(), Switch(leading=False)
    async with running(job, naps, leadership=leadership):
        await naps.wait_asked(1)
        assert (job.passes, naps.asked) == (0, [3.0])  # it asks again after its look
        job.wake()  # its own process's work: still another's to do
        await naps.wait_asked(2)
        assert (job.passes, leadership.asked) == (0, 2)

        leadership.leading = True  # the leader stopped: this process takes over
        naps.elapse()
        await job.wait_passes(1)
        await naps.wait_asked(3)
    assert job.passes == 1


async def test_a_leader_only_job_without_look_seconds_still_asks_again() -> None:
    job, naps = LeaderOnly(), Naps()
    async with running(job, naps, leadership=Switch(leading=False), follower_look_seconds=4.0):
        await naps.wait_asked(1)
    assert (job.passes, naps.asked) == (0, [4.0])
    assert FOLLOWER_LOOK_SECONDS > 0


async def test_a_follower_asks_again_after_its_own_look_not_its_leader_look() -> None:
    job, naps = LeaderOnly(look_seconds=10.0, follower_look=2.0), Naps()
    async with running(job, naps, leadership=Switch(leading=False)):
        await naps.wait_asked(1)
    assert (job.passes, naps.asked) == (0, [2.0])
    with pytest.raises(ValueError, match="follower_look"):
        LeaderOnly(follower_look=0.0)


async def test_only_leader_only_jobs_ask_the_leadership() -> None:
    leadership = Switch(leading=False)
    job = Scripted()
    assert await Scheduler(leadership=leadership).turn(job) is None
    assert (job.passes, leadership.asked) == (1, 0)


async def test_a_leadership_that_fails_to_answer_is_a_failing_pass() -> None:
    class Broken:
        async def leads(self) -> bool:
            raise ConnectionError("the database is gone")

    job, naps = LeaderOnly(look_seconds=1.0), Naps()
    async with running(job, naps, leadership=Broken()):
        await naps.wait_asked(1)
    assert (job.passes, naps.asked) == (0, [10.0])  # the back-off, not the look


# --- cancellation --------------------------------------------------------------------------------


class Busy(Job):
    """Work always waiting: each pass takes a few steps, wakes itself, and every third one
    fails; its stop hook takes a step too."""

    name = "busy"
    leader_only = True

    def __init__(self) -> None:
        super().__init__(look_seconds=60.0)
        self.passes = 0
        self.stops = 0
        self.stopped = asyncio.Event()

    async def run_once(self) -> float:
        self.passes += 1
        for _ in range(3):
            await asyncio.sleep(0)
        self.wake()
        if self.passes % 3 == 0:
            raise OSError("a failing pass")
        return 60.0

    def backoff(self, failures: int) -> float:
        return 60.0

    async def stop(self) -> None:
        await asyncio.sleep(0)
        self.stops += 1
        self.stopped.set()


@pytest.mark.parametrize("steps", range(40))
async def test_a_job_stops_when_cancelled_at_any_step_of_its_turn(steps: int) -> None:
    job = Busy()
    scheduler = Scheduler(leadership=Switch(leading=True))  # the real asyncio.sleep
    scheduler.add(job)
    scheduler.start()
    (task,) = [t for t in asyncio.all_tasks() if t.get_name() == "busy"]
    for _ in range(steps):  # the cancel lands that many event-loop steps in
        await asyncio.sleep(0)
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=5)
    assert done == {task} and task.cancelled()  # ended, and as cancelled: nothing swallowed
    started = steps > 0  # a task cancelled before its first step runs nothing at all
    assert job.stops == int(started)
    await scheduler.stop()
    assert job.stops == int(started)


async def test_stop_ends_every_job_and_a_cancel_of_its_caller_goes_on_through() -> None:
    first, second = Busy(), Scripted(5.0)
    scheduler = Scheduler(leadership=Switch(leading=True))
    scheduler.add(first)
    scheduler.add(second)
    scheduler.start()
    await second.wait_passes(1)
    stopping = asyncio.create_task(scheduler.stop())
    await asyncio.sleep(0)  # stop has cancelled the jobs and waits for them
    stopping.cancel()  # its caller is cancelled meanwhile: that is not swallowed either
    with pytest.raises(asyncio.CancelledError):
        await stopping
    async with asyncio.timeout(5):
        await first.stopped.wait()
        await second.stopped.wait()
    assert first.stops == second.stops == 1


def test_job_names_are_unique_and_look_seconds_positive() -> None:
    scheduler = Scheduler(leadership=ALWAYS_LEADS)
    scheduler.add(Scripted())
    with pytest.raises(ValueError, match="registered already"):
        scheduler.add(Scripted())
    with pytest.raises(ValueError, match="look_seconds"):
        Scripted(look_seconds=0.0)


# --- the wait itself -----------------------------------------------------------------------------


async def test_wake_or_sleep_returns_on_the_wake_or_after_the_delay() -> None:
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


async def test_on_the_loop_clock_the_wait_ends_on_the_wake_or_the_delay() -> None:
    wake = asyncio.Event()
    loop = asyncio.get_running_loop()
    started = loop.time()
    await wake_or_sleep(wake, 0.01, asyncio.sleep)  # short: not moved to a whole second
    assert 0.01 <= loop.time() - started < 1.0
    loop.call_soon(wake.set)
    await wake_or_sleep(wake, 60.0, asyncio.sleep)  # the wake ends it
    assert loop.time() - started < 1.0


async def test_on_the_loop_clock_a_cancel_of_the_caller_goes_on_through() -> None:
    waiting = asyncio.create_task(wake_or_sleep(asyncio.Event(), 60.0, asyncio.sleep))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert waiting.cancelled()


class Gated(Scripted):
    """A ``Scripted`` job whose pass, once begun (``inside``), waits at ``gate`` (open unless
    the test closes it): a pass reading the store while new work arrives."""

    def __init__(self, *results: Result, look_seconds: float | None = None) -> None:
        super().__init__(*results, look_seconds=look_seconds)
        self.gate = asyncio.Event()
        self.gate.set()
        self.inside = asyncio.Event()

    async def run_once(self) -> float | None:
        self.inside.set()
        await self.gate.wait()
        return await super().run_once()


@pytest.mark.parametrize("lands", ["during a pass", "during the wait", "during a back-off"])
async def test_on_the_loop_clock_a_wake_runs_the_job_again_at_once(lands: str) -> None:
    # The scheduler's own sleep (one loop timer per wait, long ones ending on a whole second):
    # a wake, wherever it lands, is never lost nor left for the look, the beat or a back-off.
    first: Result = OSError("down") if lands == "during a back-off" else 60.0
    job = Gated(first, look_seconds=60.0)
    scheduler = Scheduler(leadership=ALWAYS_LEADS)
    scheduler.add(job)
    loop = asyncio.get_running_loop()
    started = loop.time()
    if lands == "during a pass":
        job.gate.clear()
    async with scheduler:
        if lands == "during a pass":
            await job.inside.wait()
            job.wake()  # a webhook stored while the relay's pass reads the inbox
            job.gate.set()
        else:
            await job.wait_passes(1)  # its task went on into the wait before this resumed
            job.wake()
        await job.wait_passes(2)
    assert loop.time() - started < 1.0  # not after the 60 s look, the beat or the 10 s back-off


@pytest.mark.parametrize(
    ("now", "delay", "deadline"),
    [
        (100.3, 10.0, 110.0),  # a long wait ends on the whole second before
        (100.3, 9.7, 110.0),  # already on one
        (100.3, BEAT_FROM_SECONDS - 0.5, 100.3 + BEAT_FROM_SECONDS - 0.5),  # short: exact
    ],
)
def test_long_waits_end_together_on_whole_seconds_never_later(
    now: float, delay: float, deadline: float
) -> None:
    moved = _on_the_beat(now, delay)
    assert moved == pytest.approx(deadline)
    assert now + delay - 1.0 < moved <= now + delay

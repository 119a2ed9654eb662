"""``Scheduler``: runs background jobs (``bot.jobs.job``), one task each, until stopped.

::

    scheduler = Scheduler.for_store(store)
    scheduler.add(relay)                       # one line per job
    scheduler.add(follow_up)
    async with scheduler:                      # start(); stop() on the way out
        ...

Each job's task loops on one turn: clear the job's wake; when the job is leader-only, ask the
leadership; run a pass; then wait for a wake, or until what the pass said is due, or at most
the job's ``look_seconds``, whichever comes first. A leader-only job that does not lead runs
no pass and asks again after its ``follower_look`` (or its ``look_seconds``, or
``FOLLOWER_LOOK_SECONDS``), or when woken: so another instance takes over within that time
when the leader stops. On the loop's clock a wait of ``BEAT_FROM_SECONDS`` or more ends on a
whole second (``_on_the_beat``), a little early, so many idle jobs wake the loop once.
A wake is never lost nor held back: one during a pass is kept (the wake is cleared before the
pass), so the next pass comes at once, and one during any wait (a look, a due time, a
back-off) ends that wait at once, whatever its length or beat.

A failing pass (an exception from the pass or from the leadership's answer) is logged once
with its traceback, each further failure in a row as one line, and the job waits its
``backoff`` for that many failures, not its ``look_seconds`` (a wake still ends the wait).

Cancellation: ``stop`` (or a cancel of a job's task) ends the job wherever the cancel lands,
then the job's ``stop`` hook runs. Nothing here awaits under ``suppress(CancelledError)``: a
swallowed cancel would let the loop run on and keep the bot's shutdown waiting for ever.
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Final

from bot.clocks import Sleep
from bot.jobs.job import Job, Leadership, LeadsOn

log = logging.getLogger(__name__)

FOLLOWER_LOOK_SECONDS: Final = 5.0
"""How often a leader-only job that does not lead asks again, when it does not look sooner."""

BEAT_FROM_SECONDS: Final = 5.0
"""Waits this long or longer end on a whole second of the loop's clock (``_on_the_beat``)."""


class Scheduler:
    """See the module docstring. ``leadership`` is asked before each pass of a leader-only
    job (the store's: a process alone on its store always leads); ``sleep`` is the jobs' wait
    (tests inject one that moves a fake clock)."""

    def __init__(
        self,
        *,
        leadership: Leadership,
        sleep: Sleep = asyncio.sleep,
        follower_look_seconds: float = FOLLOWER_LOOK_SECONDS,
    ) -> None:
        self._leadership = leadership
        self._sleep = sleep
        self._follower_look_seconds = follower_look_seconds
        self._jobs: dict[str, Job] = {}
        self._tasks: list[asyncio.Task[None]] = []

    @classmethod
    def for_store(cls, store: LeadsOn, *, sleep: Sleep = asyncio.sleep) -> Scheduler:
        """The scheduler of a bot on ``store``: its leader-only jobs ask the store's
        leadership."""
        return cls(leadership=store.leadership, sleep=sleep)

    def add(self, job: Job) -> None:
        """Run ``job`` from ``start`` on (names are unique)."""
        if job.name in self._jobs:
            raise ValueError(f"a job named {job.name!r} is registered already")
        self._jobs[job.name] = job

    def wake(self, name: str) -> None:
        """Wake the job named ``name`` (same as its own ``wake()``)."""
        self._jobs[name].wake()

    def start(self) -> None:
        """Start every registered job's task (named after the job)."""
        if self._tasks:
            raise RuntimeError("the scheduler runs already")
        self._tasks = [
            asyncio.create_task(self._run(job), name=job.name) for job in self._jobs.values()
        ]

    async def stop(self) -> None:
        """Cancel every job's task and wait until each has ended (its ``stop`` hook run)."""
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        # The jobs' own cancellations are their results here; a cancel of the caller still
        # goes on through (gather is cancelled with it).
        await asyncio.gather(*tasks, return_exceptions=True)

    async def __aenter__(self) -> Scheduler:
        self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def turn(self, job: Job) -> float | None:
        """One turn of ``job`` as its task takes it: its pass, when it may run one here.
        Returns how long the job may wait for a wake before its next turn (None: for ever)."""
        if job.leader_only and not await self._leadership.leads():
            return job.follower_look or job.look_seconds or self._follower_look_seconds
        due = await job.run_once()
        if job.look_seconds is None:
            return due
        return job.look_seconds if due is None else min(due, job.look_seconds)

    async def _run(self, job: Job) -> None:
        failures = 0
        try:
            while True:
                job.woken.clear()  # a wake during the turn is kept: the next comes at once
                try:
                    wait = await self.turn(job)
                except Exception as error:
                    failures += 1
                    wait = job.backoff(failures)
                    _log_failure(job.name, failures, wait, error)
                else:
                    if failures:
                        log.info("%s: working again after %d failed passes", job.name, failures)
                    failures = 0
                await wake_or_sleep(job.woken, wait, self._sleep)
        finally:
            await job.stop()


def _log_failure(name: str, failures: int, wait: float, error: Exception) -> None:
    """The first failure of a run with its traceback; the next ones as one line each."""
    if failures == 1:
        log.exception("%s: a pass failed; the next in %g s", name, wait)
    else:
        log.warning(
            "%s: a pass failed again (%d in a row, %s); the next in %g s",
            name,
            failures,
            type(error).__name__,
            wait,
        )


def _on_the_beat(now: float, delay: float) -> float:
    """The deadline of a wait of ``delay`` seconds from ``now`` (the loop's clock). A wait of
    ``BEAT_FROM_SECONDS`` or more ends on the whole second before its end: the waits of many
    idle jobs (a host's thousand businesses) then end together, one wake of the loop for
    many passes. None ends later than asked, and none is shortened by a second or more."""
    deadline = now + delay
    return math.floor(deadline) if delay >= BEAT_FROM_SECONDS else deadline


async def wake_or_sleep(wake: asyncio.Event, delay: float | None, sleep: Sleep) -> None:
    """Return once ``wake`` is set or ``delay`` seconds have passed by ``sleep`` (None: only
    the event), whichever comes first; at once when ``delay`` is not positive.

    On the loop's own clock (``sleep`` is ``asyncio.sleep``) the wait is one timer on the
    loop and no task: a host of a thousand idle businesses runs a few thousand of these
    waits, and two tasks each (their creation, the cancel of the loser and the wait for it)
    cost most of an idle job's pass. With another ``sleep`` (a test's clock) the two waits run
    as tasks and are cancelled on the way out. Either way a cancel of the caller goes on
    through: it is never taken for the end of the wait, since a job whose cancel was
    swallowed here would loop on and keep its owner's shutdown waiting for ever
    (``asyncio.timeout`` tells its own expiry from a cancel of the task).
    """
    if delay is not None and delay <= 0:
        return
    if sleep is asyncio.sleep:
        loop = asyncio.get_running_loop()
        deadline = None if delay is None else _on_the_beat(loop.time(), delay)
        try:
            async with asyncio.timeout_at(deadline):
                await wake.wait()
        except TimeoutError:
            pass  # the delay passed first
        return
    waits: set[asyncio.Future[object]] = {asyncio.ensure_future(wake.wait())}
    if delay is not None:
        waits.add(asyncio.ensure_future(sleep(delay)))
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiting in waits:
            waiting.cancel()
        # Not awaited under suppress(CancelledError): that would swallow the caller's cancel
        # arriving meanwhile. asyncio.wait raises nothing for the tasks' own cancellation.
        await asyncio.wait(waits)

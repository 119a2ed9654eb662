"""``Job``: one kind of background work, as ``bot.jobs.scheduler`` runs it.

A job says what is due and does one pass (``run_once``); it never loops, sleeps, asks who
leads or handles a cancel itself. What the scheduler needs besides is declared:

=================  ==========================================================================
``name``           the job's task name, and its name in log lines
``leader_only``    with several processes on one store only the leader's passes run (the
                   others would do the same work twice)
``look_seconds``   the longest wait between two passes: work another process keeps cannot
                   wake this one (None: a pass comes only on a wake, or when due)
``follower_look``  for a leader-only job that does not lead, how often it asks again (None:
                   its ``look_seconds``, else the scheduler's ``FOLLOWER_LOOK_SECONDS``)
``backoff``        the wait after a pass that failed, by failures in a row
``wake()``         an in-process wake: new work is here, pass now
``stop()``         the scheduler stopped running the job: end what a pass left running
=================  ==========================================================================
"""

from __future__ import annotations

import abc
import asyncio
import math
from typing import ClassVar, Final, Protocol

FAILED_PASS_PAUSE_SECONDS: Final = 30.0
"""A job's default back-off: the pause after a failing pass (mostly the store), before the next."""


class Leadership(Protocol):
    """Whether this process is the one, of all on its store, that runs the leader-only jobs:
    the store's ``leadership`` (``bot.store.coordination``; on SQLite its one process always
    leads), of which the scheduler asks only this."""

    async def leads(self) -> bool:
        """True while this process leads; asked before each pass of a leader-only job."""
        ...


class LeadsOn(Protocol):
    """What the scheduler takes from a store (``Scheduler.for_store``): its leadership."""

    @property
    def leadership(self) -> Leadership:
        """Who runs the leader-only jobs of the bots on the store."""
        ...


class Job(abc.ABC):
    """One background job; see the module docstring. A subclass sets ``name`` (and
    ``leader_only`` when it is), implements ``run_once``, and calls ``super().__init__``."""

    name: ClassVar[str]
    leader_only: ClassVar[bool] = False

    def __init__(
        self, *, look_seconds: float | None = None, follower_look: float | None = None
    ) -> None:
        for seconds in (look_seconds, follower_look):
            if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
                raise ValueError("look_seconds and follower_look must be positive numbers")
        self.look_seconds = look_seconds
        self.follower_look = follower_look
        self.woken = asyncio.Event()

    def wake(self) -> None:
        """New work is here: the scheduler runs a pass now (after the one under way)."""
        self.woken.set()

    @abc.abstractmethod
    async def run_once(self) -> float | None:
        """One pass over what is due now; returns the seconds until the next thing falls due
        (None: nothing is, until a wake). An exception is a failing pass (``backoff``)."""

    def backoff(self, failures: int) -> float:
        """Seconds to wait after ``failures`` failing passes in a row (a wake ends it early)."""
        return FAILED_PASS_PAUSE_SECONDS

    async def stop(self) -> None:  # noqa: B027 - a hook: most jobs leave nothing running
        """The scheduler stopped running this job: end whatever a pass left running."""

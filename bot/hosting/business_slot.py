"""``BusinessSlot``: one hosted business, built on its first request and released when idle.

A slot holds the business as its file says (``HostedBusiness``) and, while it is in use, the
business built (``BuiltBusiness``: in practice its whole ``Runtime``: store, core, PTB
Application, HTTP clients, caches and background jobs). The first request builds it; each
request is counted while it runs (an open event stream of the console counts as long as it is
open); ``release_if_idle`` stops what was built once nothing ran for the idle time and nothing
waits in its queues, so a business nobody writes to costs the host its parsed config only.

Build and release take turns under one lock, and a release finishes stopping before a new
build starts: the two are never alive together in one process (a SQLite file is held by one
runtime at a time). ``close`` is for a business removed or replaced: new requests are refused
(``SlotClosed``), running ones finish, its queued work is handed on, then it stops.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Protocol

from starlette.types import ASGIApp

from bot.clocks import Clock
from bot.hosting.hosted_business import HostedBusiness
from bot.hosting.hosting_errors import BuildFailed, SlotClosed
from bot.runtime.startup_error import StartupError
from bot.store import StoreError

log = logging.getLogger(__name__)

DRAIN_POLL_SECONDS = 0.2
"""How often a closing business's queues are looked at while they empty."""


class BuiltBusiness(Protocol):
    """What a slot holds of a business while it is built."""

    @property
    def web_app(self) -> ASGIApp:
        """The business's web app: every door under its prefix."""
        ...

    @property
    def releasable(self) -> bool:
        """Whether it may be released when idle (not while it must poll for news)."""
        ...

    async def pending_work(self) -> int:
        """How many received items (updates, events, messages) still wait to be handled."""
        ...

    async def stop(self) -> None:
        """Stop its jobs and channels and close what it opened."""
        ...


BuildBusiness = Callable[[HostedBusiness, bool], Awaitable[BuiltBusiness]]
"""Builds and starts a business; the flag: announce it (Telegram's webhook and commands set)."""


class BusinessSlot:
    """See the module docstring. ``announced``: the business's channels were set up already
    (Telegram's webhook points here); when False, its first build announces it."""

    def __init__(
        self,
        business: HostedBusiness,
        build: BuildBusiness,
        *,
        announced: bool,
        clock: Clock = time.monotonic,
    ) -> None:
        self.business = business
        self._build = build
        self._announced = announced
        self._clock = clock
        self._built: BuiltBusiness | None = None
        self._turn = asyncio.Lock()  # builds and releases, one at a time
        self._in_flight = 0
        self._quiet = asyncio.Event()  # set while no request runs
        self._quiet.set()
        self._closing = False
        self._last_used = clock()

    @property
    def built(self) -> bool:
        """Whether the business is built now."""
        return self._built is not None

    @property
    def built_business(self) -> BuiltBusiness | None:
        """What is built of the business now, or None."""
        return self._built

    @property
    def announced(self) -> bool:
        """Whether the business's channels have been set up by a build of this slot or
        before it."""
        return self._announced

    async def quiet(self) -> None:
        """Return once no request of this business is running."""
        await self._quiet.wait()

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[ASGIApp]:
        """The business's web app for one request, built first if it is not; raises
        ``SlotClosed`` once ``close`` began, ``BuildFailed`` when it cannot be built (the next
        request tries again)."""
        if self._closing:
            raise SlotClosed(self.business.name)
        self._in_flight += 1
        self._quiet.clear()
        try:
            built = self._built or await self._build_once()
            yield built.web_app
        finally:
            self._in_flight -= 1
            self._last_used = self._clock()
            if self._in_flight == 0:
                self._quiet.set()

    async def wake(self) -> None:
        """Build the business now (announcing it when it was not): a business just added or
        changed (Telegram learns its webhook at once, not at its first customer), or one with
        received work waiting in its store."""
        async with self.serving():
            pass

    async def _build_once(self) -> BuiltBusiness:
        async with self._turn:
            if self._closing:
                raise SlotClosed(self.business.name)
            if self._built is None:
                try:
                    self._built = await self._build(self.business, not self._announced)
                except (StartupError, StoreError, OSError) as exc:
                    raise BuildFailed(self.business.name, str(exc)) from exc
                self._announced = True
                log.info("business %s built", self.business.name)
            return self._built

    async def release_if_idle(self, idle_seconds: float) -> bool:
        """Stop the built business when no request ran for ``idle_seconds``, none runs now and
        its queues are empty; whether it was released."""
        built = self._built
        if built is None or self._closing or not built.releasable:
            return False
        if self._in_flight or self._clock() - self._last_used < idle_seconds:
            return False
        if await built.pending_work():
            return False
        async with self._turn:
            # A request may have come while the queues were read: it keeps the business.
            if self._built is not built or self._in_flight:
                return False
            self._built = None
            await built.stop()
        log.info("business %s released after %g s idle", self.business.name, idle_seconds)
        return True

    async def close(self, drain_seconds: float) -> None:
        """Refuse new requests, let running ones finish and queued work be handled for up to
        ``drain_seconds``, then stop. What is still queued then stays in the business's store
        for the next time it is built (with its file back)."""
        self._closing = True
        started = self._clock()
        try:
            await asyncio.wait_for(self._quiet.wait(), timeout=max(0.0, drain_seconds))
        except TimeoutError:
            log.warning("business %s: requests still running at its close", self.business.name)
        async with self._turn:
            built, self._built = self._built, None
            if built is None:
                return
            left = await _drained(built, drain_seconds - (self._clock() - started))
            if left:
                log.warning(
                    "business %s closed with %d items left in its queues", self.business.name, left
                )
            await built.stop()
        log.info("business %s closed", self.business.name)


async def _drained(built: BuiltBusiness, seconds: float) -> int:
    """Wait up to ``seconds`` for ``built``'s queues to empty (its jobs handle them; another
    instance may too, so there is no event to wait on: the queues are looked at every
    ``DRAIN_POLL_SECONDS``); how many items are left."""
    for _ in range(max(0, math.ceil(seconds / DRAIN_POLL_SECONDS))):
        left = await built.pending_work()
        if not left:
            return 0
        await asyncio.sleep(DRAIN_POLL_SECONDS)
    return await built.pending_work()

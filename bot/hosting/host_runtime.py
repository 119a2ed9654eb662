"""``HostRuntime``: many businesses in one process, added, changed and removed while it runs.

The host keeps one ``BusinessSlot`` per business its directory holds, and a ``HostRoutes``
over them; ``HostApp`` reads both at each request, and ``apply`` replaces both whole, so a
request sees the host before or after a change, never half of one. Two jobs run on every
instance (neither is the leader's: each instance serves requests, so each must know every
business and release its own idle ones):

* ``WatchBusinesses`` scans the businesses' directory every ``[host] watch_seconds`` and
  applies what changed. A business added is built at once, to announce it (Telegram's webhook
  set at the host's ``/telegram``), then released when idle like any other. A business changed
  is drained and replaced; its successor is built only after the old one stopped, so the two
  never share its store in one process. A business removed stops taking requests (404 at once,
  503 while it drains the requests already running), hands on its queued work and stops. A
  file that breaks is reported by the scan and its business keeps running as it was.
* ``ReleaseIdle`` stops every business built and unused for ``[host] idle_minutes``.
* ``WakeWaiting`` (when the host can read its businesses' stores unbuilt) builds each
  business whose store holds received work nobody handled: an update or event acknowledged by
  an instance that stopped before handling it. At start, and on PostgreSQL every minute, since
  another instance may have stopped meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from bot.clocks import Clock
from bot.hosting.announcements import Announcements
from bot.hosting.business_slot import BuildBusiness, BuiltBusiness, BusinessSlot
from bot.hosting.host_app import HostApp
from bot.hosting.host_metrics import HostMetrics
from bot.hosting.host_routes import HostRoutes
from bot.hosting.hosted_business import HostedBusiness
from bot.hosting.hosting_errors import BuildFailed, SlotClosed
from bot.jobs import Job, Scheduler

log = logging.getLogger(__name__)

ANNOUNCE_AT_ONCE = 4
"""Businesses built at once to be announced: a first start with a thousand new files builds
them a few at a time, not all together (each build is ~150 ms of CPU and ~2.5 MB), and
releases each once announced."""

CLOSE_DRAIN_SECONDS = 30.0
"""How long a business removed or replaced may take to finish its requests and queues."""


@dataclass(frozen=True)
class Scan:
    """What the businesses' directory holds now: each usable business by name, and the names
    whose file is there but cannot be used (reported by the scan; kept running as they were)."""

    businesses: Mapping[str, HostedBusiness]
    broken: frozenset[str] = frozenset()


Scanner = Callable[[], Awaitable[Scan]]
Waiting = Callable[[HostedBusiness], Awaitable[int]]
"""How many received items wait unhandled in a business's store (read without building it)."""


@dataclass
class _Host:
    """The routes and slots as one value, swapped whole by ``apply``."""

    routes: HostRoutes = field(default_factory=HostRoutes)
    slots: dict[str, BusinessSlot] = field(default_factory=dict)


class HostRuntime:
    """See the module docstring. ``scan`` reads the directory; ``build`` builds and starts
    one business (``built_runtime.build_runtime_business`` in production); ``announcements``
    remembers which files were announced; ``idle_seconds`` and ``watch_seconds`` are
    ``[host]``'s."""

    def __init__(
        self,
        scan: Scanner,
        build: BuildBusiness,
        announcements: Announcements,
        *,
        idle_seconds: float,
        watch_seconds: float,
        clock: Clock = time.monotonic,
        drain_seconds: float = CLOSE_DRAIN_SECONDS,
        metrics: HostMetrics | None = None,
        waiting: Waiting | None = None,
        wake_every: float | None = None,
    ) -> None:
        self._scan = scan
        self._build = build
        self._announcements = announcements
        self._clock = clock
        self._drain_seconds = drain_seconds
        self._host = _Host()
        self._closing: dict[str, asyncio.Task[None]] = {}  # by name: a slot being closed
        self._background: set[asyncio.Task[None]] = set()
        self._draining = False
        self._loaded = False  # /health fails until the first scan is applied
        self._announcing = asyncio.Semaphore(ANNOUNCE_AT_ONCE)
        self._to_announce = 0  # announcements under way or waiting for their turn
        self.metrics = metrics or HostMetrics(business_label=False, cap=0)
        self.app = HostApp(
            lambda: (self._host.routes, self._host.slots),
            lambda: self._draining or not self._loaded,
        )
        self.scheduler = Scheduler(leadership=_EveryInstance())
        self.scheduler.add(WatchBusinesses(self, watch_seconds))
        self.scheduler.add(ReleaseIdle(self, idle_seconds))
        self._waiting = waiting
        if waiting is not None:
            self.scheduler.add(WakeWaiting(self, wake_every))

    @property
    def businesses(self) -> Mapping[str, HostedBusiness]:
        """Every business served now, by name."""
        return {name: slot.business for name, slot in self._host.slots.items()}

    def exposition(self) -> bytes:
        """The host's ``/metrics`` text (``HostMetrics``), its gauges read now."""
        slots = self._host.slots.values()
        self.metrics.set_businesses(len(slots), sum(slot.built for slot in slots))
        return self.metrics.exposition()

    def slot(self, name: str) -> BusinessSlot | None:
        """Business ``name``'s slot (tests and the benchmark look at it)."""
        return self._host.slots.get(name)

    async def start(self) -> None:
        """The first scan (``load``), then the jobs."""
        await self.load()
        self.scheduler.start()

    async def load(self) -> None:
        """The first scan: every business known, none built; those never announced with the
        file they have are announced in the background."""
        await self.apply(await self._scan(), starting=True)
        self._loaded = True

    async def rescan(self) -> None:
        """Scan the directory and apply what changed."""
        await self.apply(await self._scan())

    async def apply(self, scan: Scan, *, starting: bool = False) -> None:
        """Make the served businesses those of ``scan`` (see the module docstring)."""
        old = self._host.slots
        slots: dict[str, BusinessSlot] = {}
        fresh: list[BusinessSlot] = []
        for name, business in scan.businesses.items():
            slot = old.get(name)
            if slot is not None and slot.business.fingerprint == business.fingerprint:
                slots[name] = slot
                continue
            announced = await asyncio.to_thread(self._announcements.current, business)
            slots[name] = BusinessSlot(
                business, self._built_after_close, announced=announced, clock=self._clock
            )
            if not announced:
                fresh.append(slots[name])
            log.info("business %s %s", name, "added" if slot is None or starting else "changed")
        for name in scan.broken & old.keys() - slots.keys():
            slots[name] = old[name]  # its file broke: it runs as it was
        gone = [slot for name, slot in old.items() if slots.get(name) is not slot]
        self._host = _Host(HostRoutes.of(slot.business for slot in slots.values()), slots)
        for slot in gone:
            self._close(slot)
        for name in old.keys() - slots.keys():
            log.info("business %s removed", name)
            await asyncio.to_thread(self._announcements.forget, name)
        for slot in fresh:
            self._in_background(self._announce(slot))

    async def settled(self) -> None:
        """Wait until the announcements and closes under way are over (tests, benchmarks)."""
        while self._background or self._closing:
            pending = [*self._background, *self._closing.values()]
            await asyncio.gather(*pending, return_exceptions=True)

    async def wake_waiting(self) -> int:
        """Build every business not built whose store holds received work (acknowledged by an
        instance that stopped before handling it); how many were woken."""
        woken = 0
        if self._waiting is None:
            return woken
        for slot in list(self._host.slots.values()):
            if slot.built or await self._waiting(slot.business) == 0:
                continue
            name = slot.business.name
            log.info("business %s has received work waiting: built to handle it", name)
            await self._announce(slot)
            woken += 1
        return woken

    async def release_idle(self, idle_seconds: float) -> int:
        """Release every business idle for ``idle_seconds``; how many were released."""
        released = 0
        for slot in list(self._host.slots.values()):
            if slot.built and await slot.release_if_idle(idle_seconds):
                released += 1
                self.metrics.count_release()
        return released

    async def stop(self) -> None:
        """Stop the jobs, then every business (each finishing its running requests)."""
        self._draining = True
        await self.scheduler.stop()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        slots, self._host = self._host.slots, _Host()
        await asyncio.gather(*(slot.close(self._drain_seconds) for slot in slots.values()))
        await asyncio.gather(*self._closing.values(), return_exceptions=True)

    def drain(self) -> None:
        """``/health`` fails from now on, every request is still served (a proxy's checks take
        the instance out of rotation first)."""
        self._draining = True

    # --- inside ----------------------------------------------------------------------------

    async def _built_after_close(self, business: HostedBusiness, announce: bool) -> BuiltBusiness:
        """Build ``business`` once its predecessor (a change) has stopped; note it announced."""
        closing = self._closing.get(business.name)
        if closing is not None:
            await asyncio.shield(closing)
        started = time.perf_counter()
        built = await self._build(business, announce)
        self.metrics.count_build(time.perf_counter() - started)
        if announce:
            await asyncio.to_thread(self._announcements.record, business)
        return built

    def _close(self, slot: BusinessSlot) -> None:
        name = slot.business.name
        previous = self._closing.get(name)

        async def close() -> None:
            if previous is not None:
                await previous
            await slot.close(self._drain_seconds)

        task = asyncio.create_task(close(), name=f"close business {name}")
        self._closing[name] = task
        task.add_done_callback(lambda done: self._forget_close(name, done))

    def _forget_close(self, name: str, task: asyncio.Task[None]) -> None:
        if self._closing.get(name) is task:
            del self._closing[name]
        if not task.cancelled() and task.exception() is not None:
            log.error("business %s did not close cleanly", name, exc_info=task.exception())

    async def _announce(self, slot: BusinessSlot) -> None:
        self._to_announce += 1
        try:
            async with self._announcing:
                await slot.wake()
            if self._to_announce > ANNOUNCE_AT_ONCE:
                # Many at once (a first start with new files): each is released as soon as it
                # is announced, or they would all stay built until their idle time. One added
                # alone stays built for its first customer.
                await slot.release_if_idle(0.0)
        except (BuildFailed, SlotClosed) as exc:
            log.error("%s", exc)  # tried again at its first request
        except Exception:
            log.exception("business %s could not be started", slot.business.name)
        finally:
            self._to_announce -= 1

    def _in_background(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            await work

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)


class _EveryInstance:
    """The host's jobs run on every instance (see the module docstring)."""

    async def leads(self) -> bool:
        return True


class WatchBusinesses(Job):
    """Scan the businesses' directory and apply what changed."""

    name = "watch businesses"

    def __init__(self, host: HostRuntime, every_seconds: float) -> None:
        super().__init__(look_seconds=every_seconds)
        self._host = host
        self._every = every_seconds

    async def run_once(self) -> float:
        await self._host.rescan()
        return self._every


class WakeWaiting(Job):
    """Build the businesses whose stores hold received work, once at start and then every
    ``every_seconds`` (None: at start only; a host on one SQLite process has nobody else
    whose work could be left: only its own last run)."""

    name = "wake businesses with waiting work"

    def __init__(self, host: HostRuntime, every_seconds: float | None) -> None:
        super().__init__(look_seconds=every_seconds)
        self._host = host
        self._every = every_seconds

    async def run_once(self) -> float | None:
        await self._host.wake_waiting()
        return self._every


class ReleaseIdle(Job):
    """Release the businesses idle for ``idle_seconds`` (looked at four times per period)."""

    name = "release idle businesses"

    def __init__(self, host: HostRuntime, idle_seconds: float) -> None:
        super().__init__(look_seconds=max(1.0, idle_seconds / 4))
        self._host = host
        self._idle = idle_seconds

    async def run_once(self) -> float:
        await self._host.release_idle(self._idle)
        return max(1.0, self._idle / 4)

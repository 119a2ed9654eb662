"""``LiveList``: the open live deliveries lists of one process, and the one poller that finds
what changed for all of them.

::

    live = LiveList(store, draw_row, monotonic=time.monotonic)
    watcher = live.watch(filters, catalogue, root)  # None: as many lists are open as allowed
    events = await watcher.wait(15.0)           # rows changed on its first page, or []
    live.leave(watcher)

While at least one list is open, a task looks at the store's change numbers every
``interval`` seconds (``ChangePoller``); when deliveries changed, each set of filters open
(in each language, under each root) has its first page read once, and every list with those
filters is told each changed delivery that is on it (its row drawn again, ``LiveEvent.row``)
and each that is not (``LiveEvent.gone``: the page takes it away if it shows it). With no
list open, nothing is read. A list that falls too far behind (its reader stalled) is ended,
not buffered without bound: its page reconnects and draws itself again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from bot.staff_console.deliveries_page import DeliveryRow, deliveries_page
from bot.staff_console.delivery_filters import DeliveryFilters
from bot.staff_console.live_poller import ChangePoller
from bot.store import Store
from conversations.texts.catalogue import Catalogue

log = logging.getLogger(__name__)

MAX_STREAMS: Final = 200
"""Open live lists one process serves at most (each holds a connection)."""
INTERVAL_SECONDS: Final = 0.3
"""How often the store is asked what changed, while a list is open."""
MAX_PENDING: Final = 500
"""Events a list may have waiting before it is ended as stalled."""

DrawRow = Callable[[Catalogue, str, DeliveryRow], str]
"""Draws one row of the list (``_delivery_row.html``) in a catalogue's words, its link under
a root (``console_kit.app_root``: "" or the prefix the business's app is served under)."""


@dataclass(frozen=True)
class LiveEvent:
    """What a page is told: a row drawn again (``html``), or a delivery gone from its page."""

    kind: Literal["row", "gone"]
    delivery_id: str
    html: str = ""


class Watcher:
    """One open live list: its filters, its words, the root its page's links are under, and
    the events waiting for it."""

    def __init__(
        self, filters: DeliveryFilters, catalogue: Catalogue, root: str, *, limit: int
    ) -> None:
        self.filters = filters
        self.catalogue = catalogue
        self.root = root
        self.ended = False
        self._limit = limit
        self._pending: list[LiveEvent] = []
        self._bell = asyncio.Event()

    def push(self, events: list[LiveEvent]) -> None:
        """Queue ``events``; past the limit the list is ended instead."""
        if self.ended or not events:
            return
        if len(self._pending) + len(events) > self._limit:
            self.end()
            return
        self._pending.extend(events)
        self._bell.set()

    def end(self) -> None:
        """End the list: its stream closes at its next wait."""
        self.ended = True
        self._pending.clear()
        self._bell.set()

    async def wait(self, timeout: float) -> list[LiveEvent]:
        """The events queued, waiting up to ``timeout`` seconds for one; [] if none came."""
        if not self._pending and not self.ended:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._bell.wait(), timeout)
        self._bell.clear()
        taken, self._pending = self._pending, []
        return taken


class LiveList:
    """The process's open live lists over ``store``; see the module docstring."""

    def __init__(
        self,
        store: Store,
        draw_row: DrawRow,
        *,
        monotonic: Callable[[], float],
        max_streams: int = MAX_STREAMS,
        interval: float = INTERVAL_SECONDS,
    ) -> None:
        self._store = store
        self._draw_row = draw_row
        self._poller = ChangePoller(store.delivery_changes, monotonic=monotonic)
        self.max_streams = max_streams
        self.interval = interval
        self._watchers: set[Watcher] = set()
        self._task: asyncio.Task[None] | None = None
        self._started = asyncio.Event()
        self._closed = False

    @property
    def open_count(self) -> int:
        """How many live lists are open."""
        return len(self._watchers)

    async def watch(
        self, filters: DeliveryFilters, catalogue: Catalogue, root: str = ""
    ) -> Watcher | None:
        """A new open list, or None when ``max_streams`` are open already or the process is
        stopping. The first one starts the poller (from the store's latest change)."""
        if self._closed or len(self._watchers) >= self.max_streams:
            return None
        watcher = Watcher(filters, catalogue, root, limit=MAX_PENDING)
        self._watchers.add(watcher)
        if self._task is None:
            # Set before any await: two lists opening at once start one poller.
            self._task = asyncio.create_task(self._run(), name="console-live-list")
            self._started = asyncio.Event()
        await self._started.wait()  # what changes once the list is open reaches it
        return watcher

    def leave(self, watcher: Watcher) -> None:
        """``watcher``'s stream is over; the last one out stops the poller."""
        self._watchers.discard(watcher)
        if not self._watchers and self._task is not None:
            self._task.cancel()
            self._task = None

    def close(self) -> None:
        """End every open list and refuse new ones (the server is stopping)."""
        self._closed = True
        for watcher in list(self._watchers):
            watcher.end()

    async def _run(self) -> None:
        while True:
            try:
                await self._poller.start()
                break
            except Exception:  # the store unreachable a moment: try again
                log.warning("live list: could not read the latest change", exc_info=True)
                await asyncio.sleep(self.interval)
            finally:
                self._started.set()
        while True:
            await asyncio.sleep(self.interval)
            try:
                changed = await self._poller.look()
                if changed:
                    await self._tell(changed)
            except Exception:  # the store unreachable a moment: the next look tries again
                log.warning("live list: could not read what changed", exc_info=True)

    async def _tell(self, changed: list[str]) -> None:
        """Each open list's events for ``changed``: one first page read per filters."""
        groups: dict[tuple[DeliveryFilters, str, str], list[Watcher]] = {}
        for watcher in self._watchers:
            key = (watcher.filters, watcher.catalogue.language, watcher.root)
            groups.setdefault(key, []).append(watcher)
        wanted = set(changed)
        for watchers in groups.values():
            first = watchers[0]
            catalogue, filters, root = first.catalogue, first.filters, first.root
            page = await deliveries_page(self._store, catalogue, filters)
            shown = [row for row in page.rows if row.delivery_id in wanted]
            on_page = {row.delivery_id for row in shown}
            events = [
                LiveEvent("row", row.delivery_id, self._draw_row(catalogue, root, row))
                for row in shown
            ]
            events += [LiveEvent("gone", id_) for id_ in changed if id_ not in on_page]
            for watcher in watchers:
                watcher.push(events)

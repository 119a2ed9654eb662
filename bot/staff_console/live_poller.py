"""``ChangePoller``: which deliveries changed since its last look, read from the store's change
numbers (``store.delivery_changes``), so a change any instance made is found by every one.

::

    poller = ChangePoller(store.delivery_changes, lookback=2.0, monotonic=time.monotonic)
    await poller.start()          # only what changes from now on
    changed = await poller.look() # delivery ids, each once per change

On PostgreSQL numbers come from a sequence: a writer that drew its number first may commit
after one that drew a later number. A reader that only asked for numbers above the highest it
saw would miss that first write, so the poller asks again, on each look, for every number above
the highest it had seen ``lookback`` seconds ago, and tells apart what it has already reported
by each delivery's number (a write committed within ``lookback`` of its number is never lost).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Final

from bot.store.delivery_changes import MAX_CHANGES, DeliveryChanges

LOOKBACK_SECONDS: Final = 2.0
"""How long a number drawn may wait for its commit and still be found."""


class ChangePoller:
    """Reads ``changes`` on each ``look``; see the module docstring."""

    def __init__(
        self,
        changes: DeliveryChanges,
        *,
        lookback: float = LOOKBACK_SECONDS,
        monotonic: Callable[[], float],
    ) -> None:
        self._changes = changes
        self._lookback = lookback
        self._monotonic = monotonic
        self._horizon = 0  # every number at or below it was seen (or is too late to matter)
        self._top = 0  # the highest number seen
        self._seen: dict[str, int] = {}  # each delivery's number above the horizon, reported
        self._marks: deque[tuple[float, int]] = deque()  # (when, the top then), oldest first

    async def start(self) -> None:
        """Look from now on: what changed before is the page's as it was drawn."""
        self._horizon = self._top = await self._changes.latest()
        self._seen.clear()
        self._marks.clear()

    async def look(self) -> list[str]:
        """The deliveries whose change was not reported yet, oldest change first."""
        changed: list[str] = []
        after = self._horizon
        while True:
            found = await self._changes.since(after)
            for change in found:
                if self._seen.get(change.delivery_id) != change.seq:
                    self._seen[change.delivery_id] = change.seq
                    changed.append(change.delivery_id)
                self._top = max(self._top, change.seq)
            if len(found) < MAX_CHANGES:
                break
            after = found[-1].seq
        self._move_horizon()
        return list(dict.fromkeys(changed))

    def _move_horizon(self) -> None:
        """Forget what was seen longer ago than ``lookback``: its commits are all in."""
        now = self._monotonic()
        self._marks.append((now, self._top))
        while self._marks and self._marks[0][0] <= now - self._lookback:
            self._horizon = self._marks.popleft()[1]
        if self._seen and self._horizon:
            self._seen = {key: seq for key, seq in self._seen.items() if seq > self._horizon}

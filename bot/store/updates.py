"""Telegram update ids already handled, so a repeated ``update_id`` is ignored.

Telegram resends an update when a webhook answer was lost or slow, and long polling can hand
one out twice around a restart. Ids are kept for a while and then pruned by age: Telegram may
restart its numbering at random after a week without updates, so age, not id, says what is old.
"""

from __future__ import annotations

from bot.clocks import Clock
from bot.store.store_backend import StoreDatabase

_RECORD = "INSERT INTO seen_updates (update_id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING"
_PRUNE = "DELETE FROM seen_updates WHERE seen_at < ?"


class SeenUpdates:
    """``store.updates``: dedupe of Telegram updates."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def seen(self, update_id: int) -> bool:
        """Record ``update_id``; True when it had been recorded before (a repeat to ignore)."""
        return await self._db.execute(_RECORD, (update_id, self._clock())) == 0

    async def prune(self, before: float) -> int:
        """Forget ids first seen before ``before``; return how many."""
        return await self._db.execute(_PRUNE, (before,))

"""``store.gauges``: how much work waits, for the metrics read at each scrape.

Read-only, and answered from the pending rows' partial indexes: a scrape every few seconds
costs the database little even with a large processed history.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.database import Executor

_INBOX = "SELECT count(*), min(received_at) FROM inbox WHERE processed_at IS NULL"
_TELEGRAM_UPDATES = """SELECT count(*), min(received_at) FROM telegram_update_inbox
    WHERE NOT EXISTS (SELECT 1 FROM seen_updates
        WHERE seen_updates.update_id = telegram_update_inbox.update_id)"""


@dataclass(frozen=True)
class Backlog:
    """How many items wait, and since when the oldest one waits (unix seconds; None: none)."""

    pending: int
    oldest_since: float | None


class QueueGauges:
    """``store.gauges``: the backlogs of the queues every instance works from."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    async def partner_events(self) -> Backlog:
        """The webhook inbox's events not yet relayed."""
        return await self._backlog(_INBOX)

    async def telegram_updates(self) -> Backlog:
        """The Telegram update inbox's updates stored and not yet handled."""
        return await self._backlog(_TELEGRAM_UPDATES)

    async def _backlog(self, query: str) -> Backlog:
        row = await self._db.fetch_one(query)
        if row is None or row[0] is None:
            return Backlog(0, None)
        return Backlog(int(row[0]), None if row[1] is None else float(row[1]))

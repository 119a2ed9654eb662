"""The audit trail: every operator action and every limit a customer hit, kept for
``[storage] audit_days`` and listed by ``deliverybot audit``.

One row per event: ``at`` (the store's clock), ``actor`` (who: ``telegram:1900`` for an
operator's Telegram account, ``shell`` for the command line, ``bot`` for a limit), ``action``
(``block``, ``unblock``, ``assign``, ...), ``subject`` (what it was about: a customer or a
delivery), ``outcome`` (``done``, ``refused: ...``, ``already blocked``) and an optional
``detail`` (an operator's reason). Nothing here is a secret or a customer's message.

Each event written is handed to the trail's observer, if one is set (``observe``): the core's
wiring sets the metrics' counter (``bot.metrics.audit_counts``), so the persistence layer
knows nothing of what is counted above it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.clocks import Clock
from bot.store.store_backend import StoreDatabase

AuditObserver = Callable[[str, str], None]
"""Told each event's ``action`` and ``outcome`` once it is written."""

_RECORD = """INSERT INTO audit_trail (at, actor, action, subject, outcome, detail)
    VALUES (?, ?, ?, ?, ?, ?)"""
_SINCE = """SELECT at, actor, action, subject, outcome, detail FROM audit_trail
    WHERE at >= ? ORDER BY at, seq"""
_PRUNE = "DELETE FROM audit_trail WHERE at < ?"


@dataclass(frozen=True)
class AuditEntry:
    """One event of the trail (see the module docstring for each field)."""

    at: float
    actor: str
    action: str
    subject: str
    outcome: str
    detail: str | None = None


class AuditTrail:
    """``store.audit``: record an event, list the events since a moment, prune old ones."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        self._observer: AuditObserver | None = None

    def observe(self, observer: AuditObserver) -> None:
        """Hand every event written from now on to ``observer``; it replaces an earlier one,
        so wiring the same store twice does not count an event twice."""
        self._observer = observer

    async def record(
        self, actor: str, action: str, subject: str, outcome: str, detail: str | None = None
    ) -> AuditEntry:
        """Store one event, stamped now; returns it."""
        entry = AuditEntry(self._clock(), actor, action, subject, outcome, detail)
        await self._db.execute(_RECORD, (entry.at, actor, action, subject, outcome, detail))
        if self._observer is not None:  # once written: the counters follow the trail
            self._observer(action, outcome)
        return entry

    async def since(self, moment: float) -> list[AuditEntry]:
        """The events at or after ``moment``, oldest first."""
        rows = await self._db.fetch_all(_SINCE, (moment,))
        return [
            AuditEntry(
                float(row[0]),
                str(row[1]),
                str(row[2]),
                str(row[3]),
                str(row[4]),
                None if row[5] is None else str(row[5]),
            )
            for row in rows
        ]

    async def prune(self, before: float) -> int:
        """Forget the events older than ``before``; how many went."""
        return await self._db.execute(_PRUNE, (before,))

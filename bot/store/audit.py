"""The audit trail: every operator action and every limit a customer hit, kept for
``[privacy] audit_days`` and listed by ``deliverybot audit``.

One row per event: ``at`` (the store's clock), ``actor`` (who: ``telegram:1900`` for an
operator's Telegram account, ``shell`` for the command line, ``bot`` for a limit), ``action``
(``block``, ``unblock``, ``assign``, ...), ``subject`` (what it was about: a customer or a
delivery), ``outcome`` (``done``, ``refused: ...``, ``already blocked``) and an optional
``detail`` (an operator's reason). Nothing here is a secret or a customer's message.

Staff read it back newest first, filtered and paged by keyset (``page``: the console's audit
page); the shell reads a period oldest first (``since``).

Each event written is handed to the trail's observer, if one is set (``observe``): the core's
wiring sets the metrics' counter (``bot.metrics.audit_counts``), so the persistence layer
knows nothing of what is counted above it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.clocks import Clock
from bot.store.database import Row
from bot.store.store_backend import StoreDatabase

AuditObserver = Callable[[str, str], None]
"""Told each event's ``action`` and ``outcome`` once it is written."""

_RECORD = """INSERT INTO audit_trail (at, actor, action, subject, outcome, detail)
    VALUES (?, ?, ?, ?, ?, ?)"""
_SINCE = """SELECT at, actor, action, subject, outcome, detail FROM audit_trail
    WHERE at >= ? ORDER BY at, seq"""
_PRUNE = "DELETE FROM audit_trail WHERE at < ?"
_PAGE = "SELECT seq, at, actor, action, subject, outcome, detail FROM audit_trail"
_NEWEST_FIRST = " ORDER BY at DESC, seq DESC LIMIT ?"
_ACTIONS = "SELECT DISTINCT action FROM audit_trail ORDER BY action"
MAX_PAGE: Final = 500


@dataclass(frozen=True)
class AuditEntry:
    """One event of the trail (see the module docstring for each field)."""

    at: float
    actor: str
    action: str
    subject: str
    outcome: str
    detail: str | None = None


@dataclass(frozen=True)
class AuditQuery:
    """Which events a page lists: each field given narrows it (all of them at once).
    ``outcome`` is the outcome's beginning (``refused`` finds ``refused: ...``); ``since`` and
    ``before`` bound ``at`` (``before`` excluded)."""

    actor: str | None = None
    action: str | None = None
    subject: str | None = None
    outcome: str | None = None
    since: float | None = None
    before: float | None = None


@dataclass(frozen=True)
class AuditCursor:
    """Where a page ended: its last event's moment and sequence number."""

    at: float
    seq: int


@dataclass(frozen=True)
class ListedAudit:
    """One event as a page lists it, with its place in the trail."""

    seq: int
    entry: AuditEntry

    @property
    def cursor(self) -> AuditCursor:
        """The cursor that lists the events after this one."""
        return AuditCursor(self.entry.at, self.seq)


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
        return [_entry(row) for row in await self._db.fetch_all(_SINCE, (moment,))]

    async def page(
        self, query: AuditQuery, *, after: AuditCursor | None = None, limit: int = 50
    ) -> list[ListedAudit]:
        """Up to ``limit`` (at most ``MAX_PAGE``) events ``query`` selects, newest first,
        starting after ``after`` (a keyset: a page costs the same however deep it is)."""
        clauses: list[str] = []
        params: list[object] = []
        for column in ("actor", "action", "subject"):
            value = getattr(query, column)
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        if query.outcome is not None:
            clauses.append("substr(outcome, 1, ?) = ?")
            params += [len(query.outcome), query.outcome]
        if query.since is not None:
            clauses.append("at >= ?")
            params.append(query.since)
        if query.before is not None:
            clauses.append("at < ?")
            params.append(query.before)
        if after is not None:
            clauses.append("(at < ? OR (at = ? AND seq < ?))")
            params += [after.at, after.at, after.seq]
        # Only the fixed pieces above make up the SQL; every value is a parameter.
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        params.append(max(1, min(limit, MAX_PAGE)))
        rows = await self._db.fetch_all(_PAGE + where + _NEWEST_FIRST, tuple(params))
        return [ListedAudit(int(row[0]), _entry(row[1:])) for row in rows]

    async def actions(self) -> list[str]:
        """Every action the trail holds, by name (what a page offers to filter by)."""
        return [str(row[0]) for row in await self._db.fetch_all(_ACTIONS)]

    async def prune(self, before: float) -> int:
        """Forget the events older than ``before``; how many went."""
        return await self._db.execute(_PRUNE, (before,))


def _entry(row: Row) -> AuditEntry:
    """An event from its columns ``at, actor, action, subject, outcome, detail``."""
    at, actor, action, subject, outcome, detail = row
    return AuditEntry(
        float(at),
        str(actor),
        str(action),
        str(subject),
        str(outcome),
        None if detail is None else str(detail),
    )

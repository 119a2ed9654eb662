"""The durable webhook inbox: Partner events are stored here before the 2xx goes back.

The web app verifies a signature, calls ``add`` (events arriving together are committed
together, each before its caller answers) and answers; the relay worker takes
``next_batch``, handles each event and calls ``mark_processed``. Because the row is committed
before the 2xx and only leaves the pending set when marked, a crash anywhere in between means
the event is handed out again after a restart; the relay's sent markers (``store.sent``) stop
the chats from seeing a message twice.

Ordering: ``next_batch`` returns pending events by the service's ``created`` time, then by
arrival, which is in order per delivery. It is meant for one consumer that finishes (or gives up
on) a batch before asking for the next.

Several consumers (instances on one PostgreSQL database): ``claim_batch`` hands each pending
event to one holder at a time, with a lease. It skips rows another claim has locked
(``FOR UPDATE SKIP LOCKED``), events leased by another live holder, and every event of a
delivery another holder is relaying (so one delivery's events stay in order). An instance that
dies mid-send stops renewing its leases; when they run out another instance takes the events
over (the sent markers keep what did go out from going out twice). On SQLite, one process owns
the file and ``claim_batch`` is ``next_batch``. The claims are the backend's
(``pg_backend``, ``sqlite_backend``).

Privacy: a body holds the customer's personal data and, for ``delivery.otp_issued``, the
drop-off code. ``mark_processed`` drops the body and keeps only what redelivery detection and
diagnosis need; ``purge_processed`` removes old rows entirely.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.clocks import Clock
from bot.store.database import Executor, Row
from bot.store.store_backend import Backend, StoreDatabase

DEFAULT_LEASE_SECONDS = 60.0


@dataclass(frozen=True)
class InboxEvent:
    """A stored webhook event, as received."""

    seq: int
    event_id: str
    delivery_id: str
    event_type: str
    created: int
    raw_body: bytes = field(repr=False)  # may hold an OTP code
    received_at: float
    attempts: int
    last_error: str | None


@dataclass(frozen=True)
class InboxCounts:
    """How many events wait for the relay, and how many it has finished."""

    pending: int
    processed: int


_ADDED_COLUMNS = ("event_id", "delivery_id", "event_type", "created", "raw_body", "received_at")
NEXT_BATCH = """SELECT seq, event_id, delivery_id, event_type, created, raw_body, received_at,
        attempts, last_error
    FROM inbox WHERE processed_at IS NULL ORDER BY created, seq LIMIT ?"""
_MARK_PROCESSED = """UPDATE inbox SET processed_at = ?, raw_body = NULL
    WHERE event_id = ? AND processed_at IS NULL"""
_RECORD_FAILURE = """UPDATE inbox SET attempts = attempts + 1, last_error = ?
    WHERE event_id = ? AND processed_at IS NULL RETURNING attempts"""
# Two counts, each answered from its own partial index instead of a table scan.
_COUNTS = """SELECT (SELECT count(*) FROM inbox WHERE processed_at IS NULL),
    (SELECT count(*) FROM inbox WHERE processed_at IS NOT NULL)"""
_PURGE_PROCESSED = "DELETE FROM inbox WHERE processed_at IS NOT NULL AND processed_at < ?"

_MAX_ERROR_LENGTH = 500


class Inbox:
    """``store.inbox``: webhook events between the 2xx and the relay."""

    def __init__(self, db: StoreDatabase, clock: Clock, backend: Backend) -> None:
        self._db = db
        self._clock = clock
        self._backend = backend
        self._adds = backend.grouped_inserts(db, "inbox", _ADDED_COLUMNS, "event_id")

    async def add(
        self, event_id: str, delivery_id: str, event_type: str, created: int, raw_body: bytes
    ) -> bool:
        """Store a verified event; False when its id is already stored (a redelivery).

        The row is committed when this returns, so the webhook can be acknowledged. Events
        added concurrently are committed together (``backend.grouped_inserts``: one fsync for a
        burst).
        """
        row = (event_id, delivery_id, event_type, created, raw_body, self._clock())
        return await self._adds.add(row)

    async def next_batch(self, limit: int = 100) -> list[InboxEvent]:
        """Up to ``limit`` unprocessed events, oldest ``created`` first, then by arrival."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        return [_event(row) for row in await self._db.fetch_all(NEXT_BATCH, (limit,))]

    async def claim_batch(
        self, holder: str, limit: int = 100, lease_seconds: float = DEFAULT_LEASE_SECONDS
    ) -> list[InboxEvent]:
        """Up to ``limit`` pending events for ``holder`` to relay, in ``next_batch``'s order,
        leased to it for ``lease_seconds`` (renewed by its next claim); see the module doc."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        rows = await self._backend.claim_inbox(
            self._db, holder, limit, lease_seconds, self._clock()
        )
        events = [_event(row) for row in rows]
        events.sort(key=lambda event: (event.created, event.seq))
        return events

    async def renew_leases(self, holder: str, lease_seconds: float = DEFAULT_LEASE_SECONDS) -> int:
        """Extend every lease ``holder`` has on pending events (a long batch is still being
        relayed); return how many. Nothing to do on SQLite."""
        return await self._backend.renew_leases(self._db, holder, self._clock() + lease_seconds)

    async def mark_processed(self, event_id: str) -> bool:
        """Take the event out of the pending set and drop its body; False if it was not pending."""
        return await mark_processed(self._db, event_id, self._clock())

    async def record_failure(self, event_id: str, error: str) -> int:
        """Note a failed attempt (the event stays pending); return the attempts so far.

        Returns 0 when the event is not pending. The relay decides when to give up, by calling
        ``mark_processed`` after logging.
        """
        row = await self._db.fetch_one(_RECORD_FAILURE, (error[:_MAX_ERROR_LENGTH], event_id))
        return int(row[0]) if row else 0

    async def counts(self) -> InboxCounts:
        """Pending and processed totals (for health checks and benchmarks)."""
        row = await self._db.fetch_one(_COUNTS)
        if row is None:
            return InboxCounts(pending=0, processed=0)
        return InboxCounts(pending=int(row[0]), processed=int(row[1]))

    async def purge_processed(self, before: float) -> int:
        """Delete events processed before ``before``; return how many.

        Keep them at least as long as the service may redeliver, or a late redelivery would be
        processed again.
        """
        return await self._db.execute(_PURGE_PROCESSED, (before,))


async def mark_processed(db: Executor, event_id: str, now: float) -> bool:
    """``Inbox.mark_processed`` on ``db`` (another repository's transaction), at ``now``."""
    return await db.execute(_MARK_PROCESSED, (now, event_id)) > 0


def _event(row: Row) -> InboxEvent:
    return InboxEvent(
        seq=int(row[0]),
        event_id=str(row[1]),
        delivery_id=str(row[2]),
        event_type=str(row[3]),
        created=int(row[4]),
        raw_body=bytes(row[5]),
        received_at=float(row[6]),
        attempts=int(row[7]),
        last_error=None if row[8] is None else str(row[8]),
    )

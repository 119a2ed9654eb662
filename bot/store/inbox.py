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
the file and ``claim_batch`` is ``next_batch``.

Privacy: a body holds the customer's personal data and, for ``delivery.otp_issued``, the
drop-off code. ``mark_processed`` drops the body and keeps only what redelivery detection and
diagnosis need; ``purge_processed`` removes old rows entirely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from bot.clocks import Clock
from bot.store.advisory_locks import ADVISORY_NAMESPACE, INBOX_CLAIM_LOCK
from bot.store.database import Executor, Row
from bot.store.grouped_inserts import GroupedInserts
from bot.store.store_backend import StoreDatabase, dialect_of

DEFAULT_LEASE_SECONDS = 60.0
# pg_advisory_xact_lock(ADVISORY_NAMESPACE, INBOX_CLAIM_LOCK): claims run one at a time, so
# the "another holder relays this delivery" test sees every committed lease.


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
_NEXT_BATCH = """SELECT seq, event_id, delivery_id, event_type, created, raw_body, received_at,
        attempts, last_error
    FROM inbox WHERE processed_at IS NULL ORDER BY created, seq LIMIT ?"""
_SERIALISE_CLAIMS = "SELECT pg_advisory_xact_lock(?, ?)"
# A lease or a claim is bookkeeping between live instances: if the database server crashes and
# loses the last ones, events are claimed again (the sent markers still stop repeats). So their
# commits need not wait for the disk, and a relayed event costs one flush less.
NOT_WAITING_FOR_THE_DISK = "SET LOCAL synchronous_commit = off"
# Only leases that are new or past half their time are written: a relay reads past events that
# wait (their delivery is not linked yet) on every pass, and rewriting all of them each time
# would cost a write per waiting event per pass. The rows picked stay locked (FOR UPDATE) until
# the claim commits either way.
_CLAIM_BATCH_PG = """WITH picked AS (
        SELECT seq, lease_holder, lease_until FROM inbox AS waiting
        WHERE processed_at IS NULL
          AND (lease_until IS NULL OR lease_until <= ? OR lease_holder = ?)
          AND NOT EXISTS (
            SELECT 1 FROM inbox AS held
            WHERE held.delivery_id = waiting.delivery_id AND held.processed_at IS NULL
              AND held.lease_holder <> ? AND held.lease_until > ?)
        ORDER BY created, seq LIMIT ?
        FOR UPDATE SKIP LOCKED),
    renewed AS (
        UPDATE inbox SET lease_holder = ?, lease_until = ?
        FROM picked WHERE inbox.seq = picked.seq
          AND (picked.lease_holder IS DISTINCT FROM ? OR picked.lease_until < ?)
        RETURNING inbox.seq)
    SELECT inbox.seq, event_id, delivery_id, event_type, created, raw_body, received_at,
        attempts, last_error
    FROM inbox JOIN picked ON inbox.seq = picked.seq"""
_RENEW_LEASES = """UPDATE inbox SET lease_until = ?
    WHERE lease_holder = ? AND processed_at IS NULL"""
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

    def __init__(self, db: Executor, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        # One group at a time on PostgreSQL: its pool would commit two groups in either order.
        side_by_side = dialect_of(cast(StoreDatabase, db)) == "postgres"
        self._adds = GroupedInserts(
            db, "inbox", _ADDED_COLUMNS, "event_id", max_in_flight=1 if side_by_side else 2
        )

    async def add(
        self, event_id: str, delivery_id: str, event_type: str, created: int, raw_body: bytes
    ) -> bool:
        """Store a verified event; False when its id is already stored (a redelivery).

        The row is committed when this returns, so the webhook can be acknowledged. Events
        added concurrently are committed together (``GroupedInserts``: one fsync for a burst).
        """
        row = (event_id, delivery_id, event_type, created, raw_body, self._clock())
        return await self._adds.add(row)

    async def next_batch(self, limit: int = 100) -> list[InboxEvent]:
        """Up to ``limit`` unprocessed events, oldest ``created`` first, then by arrival."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        return [_event(row) for row in await self._db.fetch_all(_NEXT_BATCH, (limit,))]

    async def claim_batch(
        self, holder: str, limit: int = 100, lease_seconds: float = DEFAULT_LEASE_SECONDS
    ) -> list[InboxEvent]:
        """Up to ``limit`` pending events for ``holder`` to relay, in ``next_batch``'s order,
        leased to it for ``lease_seconds`` (renewed by its next claim); see the module doc."""
        if dialect_of(self._db) != "postgres":
            return await self.next_batch(limit)
        if limit < 1:
            raise ValueError("limit must be at least 1")
        db = cast(StoreDatabase, self._db)
        now = self._clock()
        async with db.transaction() as tx:
            await tx.execute(NOT_WAITING_FOR_THE_DISK)
            await tx.fetch_one(_SERIALISE_CLAIMS, (ADVISORY_NAMESPACE, INBOX_CLAIM_LOCK))
            renew_before = now + lease_seconds / 2
            lease_until = now + lease_seconds
            params = (now, holder, holder, now, limit, holder, lease_until, holder, renew_before)
            rows = await tx.fetch_all(_CLAIM_BATCH_PG, params)
        events = [_event(row) for row in rows]
        events.sort(key=lambda event: (event.created, event.seq))
        return events

    async def renew_leases(self, holder: str, lease_seconds: float = DEFAULT_LEASE_SECONDS) -> int:
        """Extend every lease ``holder`` has on pending events (a long batch is still being
        relayed); return how many. Nothing to do on SQLite."""
        if dialect_of(self._db) != "postgres":
            return 0
        return await self._db.execute(_RENEW_LEASES, (self._clock() + lease_seconds, holder))

    async def mark_processed(self, event_id: str) -> bool:
        """Take the event out of the pending set and drop its body; False if it was not pending."""
        return await self._db.execute(_MARK_PROCESSED, (self._clock(), event_id)) > 0

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

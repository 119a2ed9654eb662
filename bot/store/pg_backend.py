"""``PgBackend``: the statements PostgreSQL needs in its own words (``store_backend.Backend``).

Several instances share the database, so the relay's work is leased: a send claim held by a
live instance is respected, and each pending inbox event is relayed by one instance at a time
(``FOR UPDATE SKIP LOCKED`` under a lease that runs out when its holder dies).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.advisory_locks import DEFAULT_NAMESPACE, INBOX_CLAIM_LOCK
from bot.store.database import Executor, Row
from bot.store.grouped_inserts import GroupedInserts, RowInserts
from bot.store.schema_rendering import SchemaWords
from bot.store.sent import CLAIM
from bot.store.store_backend import StoreDatabase

SCHEMA_WORDS = SchemaWords(
    int="BIGINT",  # Telegram ids pass 2**31
    real="DOUBLE PRECISION",
    blob="BYTEA",
    rowid_key="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    serial_key="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    without_rowid="",
    link_order=", link_seq",  # the column that stands in for SQLite's rowid
    keep_serial=" OVERRIDING SYSTEM VALUE",  # GENERATED ALWAYS refuses them otherwise
    shared=True,
)
"""The schema in PostgreSQL's words, with what several instances coordinate through."""

# A lease or a claim is bookkeeping between live instances: if the database server crashes and
# loses the last ones, events are claimed again (the sent markers still stop repeats). So their
# commits need not wait for the disk, and a relayed event costs one flush less.
NOT_WAITING_FOR_THE_DISK = "SET LOCAL synchronous_commit = off"

# A data-modifying CTE: both writes of a turn's save are one statement.
_TURN_SAVE = """WITH saved AS (
        INSERT INTO sessions (channel, chat_id, user_id, data, updated_at)
        VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (channel, chat_id) DO UPDATE SET user_id = excluded.user_id,
            data = excluded.data, updated_at = excluded.updated_at
    )
    INSERT INTO seen_updates (update_id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING"""
# No rowid: link_seq numbers the rows in the order they were linked.
_LAST_ORDER_FOR = """SELECT saved_order FROM deliveries
    WHERE channel = ? AND user_id = ? AND saved_order IS NOT NULL
    ORDER BY created_at DESC, link_seq DESC LIMIT 1"""
# Another holder's claim is taken over only once it is older than the relay's lease (that
# holder died mid-send, or gave up); a live holder's claim is respected.
_CLAIM = (
    CLAIM
    + """
      AND (sent_messages.claimed_by IS NULL OR sent_messages.claimed_at <= ?)"""
)
_SERIALISE_CLAIMS = "SELECT pg_advisory_xact_lock(?, ?)"
# Only leases that are new or past half their time are written: a relay reads past events that
# wait (their delivery is not linked yet) on every pass, and rewriting all of them each time
# would cost a write per waiting event per pass. The rows picked stay locked (FOR UPDATE) until
# the claim commits either way.
_CLAIM_BATCH = """WITH picked AS (
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


class PgBackend:
    """PostgreSQL's side of ``store_backend.Backend``."""

    packs_sessions = False
    last_order_sql = _LAST_ORDER_FOR

    def __init__(self, *, namespace: int = DEFAULT_NAMESPACE) -> None:
        self._namespace = namespace  # the store's, for the inbox claims' lock

    def grouped_inserts(
        self,
        db: StoreDatabase,
        table: str,
        columns: Sequence[str],
        key: str,
        *,
        passed_by_reads: bool = False,
    ) -> RowInserts:
        """``GroupedInserts``, one group at a time (the pool would commit two groups in either
        order); reads never wait for writes here."""
        return GroupedInserts(db, table, columns, key, max_in_flight=1)

    async def prepare(self) -> None:
        """Nothing: every statement here stands alone."""

    async def save_turn(
        self, db: Executor, session: tuple[str, int, int, object, float], update_id: int
    ) -> None:
        """Both writes in one data-modifying statement."""
        await db.execute(_TURN_SAVE, (*session, update_id, session[4]))

    async def claim_send(
        self, db: StoreDatabase, claim: tuple[str, str, int, str, str, float], stale_before: float
    ) -> bool:
        """A live holder's claim is respected; a stale one taken over."""
        async with db.transaction() as tx:
            # Lost only when the server itself crashes: then the message may go out twice,
            # as after any crash between a send and its mark.
            await tx.execute(NOT_WAITING_FOR_THE_DISK)
            return await tx.execute(_CLAIM, (*claim, stale_before)) > 0

    async def claim_inbox(
        self, db: StoreDatabase, holder: str, limit: int, lease_seconds: float, now: float
    ) -> list[Row]:
        """Events no live instance holds, and none of whose delivery another one relays,
        leased to ``holder`` under the claims' lock."""
        async with db.transaction() as tx:
            await tx.execute(NOT_WAITING_FOR_THE_DISK)
            await tx.fetch_one(_SERIALISE_CLAIMS, (self._namespace, INBOX_CLAIM_LOCK))
            renew_before = now + lease_seconds / 2
            lease_until = now + lease_seconds
            params = (now, holder, holder, now, limit, holder, lease_until, holder, renew_before)
            return await tx.fetch_all(_CLAIM_BATCH, params)

    async def renew_leases(self, db: Executor, holder: str, until: float) -> int:
        """Every lease ``holder`` has on a pending event runs until ``until``."""
        return await db.execute(_RENEW_LEASES, (until, holder))

"""The PostgreSQL schema: one twin for each SQLite migration, and the code that applies them.

Every ``Migration`` in ``bot.store.migrations`` has a twin here with the same version and name,
written in PostgreSQL's types: ``BIGINT`` for every integer (Telegram ids pass 2**31),
``DOUBLE PRECISION`` for SQLite's ``REAL`` unix times, ``BYTEA`` for ``BLOB``, an identity
column for SQLite's ``INTEGER PRIMARY KEY``. ``tests/store/test_pg_schema.py`` compares the two
schemas' tables and columns, so a SQLite migration without its twin fails there.

Beyond the twins, PostgreSQL keeps what several instances coordinate through and SQLite (one
process) keeps in memory: ``PG_ONLY_TABLES`` and ``PG_ONLY_COLUMNS`` list them, and nothing else
may differ. They are part of the first twin (no PostgreSQL database predates them); a later
PostgreSQL-only change rides in the twin of the next SQLite migration.

Two instances starting at once: ``migrate_postgres`` takes a transaction-scoped advisory lock
before it reads the version, so the second waits, then finds the schema current and applies
nothing. Each migration commits with its version row, as in SQLite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.store.advisory_locks import ADVISORY_NAMESPACE, MIGRATION_LOCK
from bot.store.migrations import MIGRATIONS, Migration
from bot.store.pg_database import PgDatabase
from bot.store.store_errors import SchemaTooNewError

_INITIAL_SCHEMA = (
    """CREATE TABLE sessions (
        chat_id    BIGINT PRIMARY KEY,
        user_id    BIGINT NOT NULL,
        data       TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX sessions_by_updated ON sessions (updated_at)",
    # link_seq stands in for SQLite's implicit rowid: the order the rows were linked.
    """CREATE TABLE deliveries (
        delivery_id      TEXT PRIMARY KEY,
        chat_id          BIGINT NOT NULL,
        user_id          BIGINT NOT NULL,
        created_at       DOUBLE PRECISION NOT NULL,
        receiver_phone   TEXT,
        tracking_url     TEXT,
        status           TEXT NOT NULL,
        status_created   BIGINT,
        tracking_sent_at DOUBLE PRECISION,
        updated_at       DOUBLE PRECISION NOT NULL,
        link_seq         BIGINT GENERATED ALWAYS AS IDENTITY
    )""",
    "CREATE INDEX deliveries_by_user ON deliveries (user_id, created_at DESC, delivery_id DESC)",
    """CREATE INDEX deliveries_open ON deliveries (created_at, delivery_id)
        WHERE status NOT IN ('delivered', 'cancelled')""",
    """CREATE TABLE inbox (
        seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id     TEXT NOT NULL UNIQUE,
        delivery_id  TEXT NOT NULL,
        event_type   TEXT NOT NULL,
        created      BIGINT NOT NULL,
        raw_body     BYTEA,
        received_at  DOUBLE PRECISION NOT NULL,
        processed_at DOUBLE PRECISION,
        attempts     BIGINT NOT NULL DEFAULT 0,
        last_error   TEXT
    )""",
    "CREATE INDEX inbox_pending ON inbox (created, seq) WHERE processed_at IS NULL",
    "CREATE INDEX inbox_processed ON inbox (processed_at) WHERE processed_at IS NOT NULL",
    """CREATE TABLE sent_messages (
        event_id   TEXT NOT NULL,
        chat_id    BIGINT NOT NULL,
        kind       TEXT NOT NULL,
        claimed_by TEXT,
        claimed_at DOUBLE PRECISION NOT NULL,
        sent_at    DOUBLE PRECISION,
        message_id BIGINT,
        PRIMARY KEY (event_id, chat_id, kind)
    )""",
    "CREATE INDEX sent_messages_by_claimed ON sent_messages (claimed_at)",
    """CREATE TABLE media (
        token        TEXT PRIMARY KEY,
        file_name    TEXT NOT NULL UNIQUE,
        content_type TEXT NOT NULL,
        size         BIGINT NOT NULL,
        chat_id      BIGINT NOT NULL,
        created_at   DOUBLE PRECISION NOT NULL,
        expires_at   DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX media_by_expiry ON media (expires_at)",
    """CREATE TABLE seen_updates (
        update_id BIGINT PRIMARY KEY,
        seen_at   DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX seen_updates_by_time ON seen_updates (seen_at)",
    """CREATE TABLE contacts (
        user_id     BIGINT PRIMARY KEY,
        phone_e164  TEXT NOT NULL,
        verified_at DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE otp_handoffs (
        delivery_id       TEXT PRIMARY KEY
                          REFERENCES deliveries (delivery_id) ON DELETE CASCADE,
        token             TEXT NOT NULL UNIQUE,
        code              TEXT,
        receiver_phone    TEXT NOT NULL,
        created           BIGINT NOT NULL,
        delivered_at      DOUBLE PRECISION,
        delivered_chat_id BIGINT
    )""",
    "CREATE INDEX otp_handoffs_by_created ON otp_handoffs (created)",
    """CREATE TABLE blocked_chats (
        chat_id    BIGINT PRIMARY KEY,
        blocked_at DOUBLE PRECISION NOT NULL
    )""",
    # --- what several instances coordinate through (no SQLite twin; see PG_ONLY_*) ---
    # Who relays a pending event, until when (``inbox.claim_batch``): an instance that dies
    # mid-send leaves a lease that runs out, and another instance takes the event over.
    "ALTER TABLE inbox ADD COLUMN lease_holder TEXT",
    "ALTER TABLE inbox ADD COLUMN lease_until DOUBLE PRECISION",
    "CREATE INDEX inbox_pending_by_delivery ON inbox (delivery_id) WHERE processed_at IS NULL",
    # The Partner API's rate budget, shared by every instance (``bot.store.pg_rate_budget``):
    # one row per request start within the last window, per API key (by its fingerprint).
    """CREATE TABLE partner_request_starts (
        key_id     TEXT NOT NULL,
        started_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX partner_request_starts_by_key ON partner_request_starts (key_id, started_at)",
    """CREATE TABLE partner_rate_blocks (
        key_id        TEXT PRIMARY KEY,
        blocked_until DOUBLE PRECISION NOT NULL
    )""",
)

_CREATE_REQUESTS = (
    "ALTER TABLE deliveries ADD COLUMN request TEXT",
    """CREATE INDEX deliveries_requests_by_user ON deliveries (user_id, created_at)
        WHERE request IS NOT NULL""",
)

_OTP_BY_RECEIVER = (
    """CREATE INDEX otp_handoffs_pending_by_phone
        ON otp_handoffs (receiver_phone, created, delivery_id) WHERE code IS NOT NULL""",
)

_SAVED_ORDERS = (
    "DROP INDEX deliveries_requests_by_user",
    "ALTER TABLE deliveries DROP COLUMN request",
    "ALTER TABLE deliveries ADD COLUMN saved_order TEXT",
    """CREATE INDEX deliveries_orders_by_user ON deliveries (user_id, created_at, link_seq)
        WHERE saved_order IS NOT NULL""",
)

_UNCONFIRMED_CREATES = (
    """CREATE TABLE unconfirmed_creates (
        idempotency_key TEXT PRIMARY KEY,
        chat_id         BIGINT NOT NULL,
        user_id         BIGINT NOT NULL,
        request         TEXT NOT NULL,
        saved_order     TEXT NOT NULL,
        fingerprint     TEXT NOT NULL,
        created_at      DOUBLE PRECISION NOT NULL,
        attempts        BIGINT NOT NULL DEFAULT 0,
        next_attempt_at DOUBLE PRECISION NOT NULL,
        delivery_id     TEXT,
        notice          TEXT
    )""",
    "CREATE INDEX unconfirmed_creates_due ON unconfirmed_creates (next_attempt_at)",
    """CREATE INDEX unconfirmed_creates_open ON unconfirmed_creates (fingerprint)
        WHERE notice IS NULL""",
)

_AGENT_CHANNELS = (
    """CREATE TABLE agent_customers (
        seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        channel    TEXT NOT NULL,
        customer   TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        UNIQUE (channel, customer)
    )""",
    """CREATE TABLE agent_conversations (
        seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id           TEXT NOT NULL UNIQUE,
        customer_seq BIGINT NOT NULL REFERENCES agent_customers (seq),
        flow         TEXT,
        created_at   DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE agent_transcript (
        conversation_seq BIGINT NOT NULL,
        n                BIGINT NOT NULL,
        entry            TEXT NOT NULL,
        at               DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (conversation_seq, n)
    )""",
    """CREATE TABLE agent_events (
        seq           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        chat_id       BIGINT NOT NULL,
        event_key     TEXT NOT NULL,
        body          TEXT NOT NULL,
        created_at    DOUBLE PRECISION NOT NULL,
        hook_sent_at  DOUBLE PRECISION,
        hook_attempts BIGINT NOT NULL DEFAULT 0,
        hook_next_at  DOUBLE PRECISION NOT NULL,
        UNIQUE (chat_id, event_key)
    )""",
    "CREATE INDEX agent_events_by_chat ON agent_events (chat_id, seq)",
    "CREATE INDEX agent_events_hooks_due ON agent_events (hook_next_at) WHERE hook_sent_at IS NULL",
)

_CUSTOMER_DETAILS = (
    """CREATE TABLE customer_details (
        user_id    BIGINT PRIMARY KEY,
        data       TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    )""",
)

_CUSTOMER_LANGUAGES = (
    "ALTER TABLE deliveries ADD COLUMN language TEXT",
    "ALTER TABLE unconfirmed_creates ADD COLUMN language TEXT",
)

_SHARED_BY_INSTANCES = (
    """CREATE TABLE otp_invitations (
        chat_id    BIGINT PRIMARY KEY,
        token      TEXT NOT NULL,
        expires_at DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE operator_alerts (
        alert   TEXT PRIMARY KEY,
        sent_at DOUBLE PRECISION NOT NULL
    )""",
)

PG_ONLY_TABLES = frozenset({"partner_request_starts", "partner_rate_blocks"})
"""Tables several instances coordinate through; one SQLite process keeps this in memory."""

PG_ONLY_COLUMNS: Mapping[str, frozenset[str]] = {
    "deliveries": frozenset({"link_seq"}),
    "inbox": frozenset({"lease_holder", "lease_until"}),
}
"""Columns standing in for SQLite's implicit ``rowid``, and the relay's leases."""

_TWINS: Mapping[int, tuple[str, ...]] = {
    1: _INITIAL_SCHEMA,
    2: _CREATE_REQUESTS,
    3: _OTP_BY_RECEIVER,
    4: _SAVED_ORDERS,
    5: _UNCONFIRMED_CREATES,
    6: _AGENT_CHANNELS,
    7: _CUSTOMER_DETAILS,
    8: _CUSTOMER_LANGUAGES,
    9: _SHARED_BY_INSTANCES,
}


def _twins(sqlite_migrations: Sequence[Migration]) -> tuple[Migration, ...]:
    """The PostgreSQL twin of each SQLite migration that has one, in order; stops at the
    first without (its successors cannot be applied before it)."""
    twins: list[Migration] = []
    for migration in sqlite_migrations:
        statements = _TWINS.get(migration.version)
        if statements is None:
            break
        twins.append(Migration(migration.version, migration.name, statements))
    return tuple(twins)


PG_MIGRATIONS: tuple[Migration, ...] = _twins(MIGRATIONS)
"""Every PostgreSQL schema step, oldest first; version and name as the SQLite twin's."""

_CREATE_VERSION_TABLE = """CREATE TABLE IF NOT EXISTS schema_version (
    version    BIGINT PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at DOUBLE PRECISION NOT NULL
)"""
_MAX_VERSION = "SELECT coalesce(max(version), 0) FROM schema_version"
_RECORD_VERSION = "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)"
_LOCK = "SELECT pg_advisory_xact_lock(?, ?)"


async def migrate_postgres(
    db: PgDatabase, *, now: float, migrations: Sequence[Migration] = PG_MIGRATIONS
) -> int:
    """Bring the database up to the last of ``migrations``; return the resulting version.

    Safe when several instances start at once (see the module docstring). Raises
    ``SchemaTooNewError`` (changing nothing) when the database is newer.
    """
    latest = migrations[-1].version if migrations else 0
    async with db.transaction() as tx:
        await tx.fetch_one(_LOCK, (ADVISORY_NAMESPACE, MIGRATION_LOCK))
        await tx.execute(_CREATE_VERSION_TABLE)
    found = await _version(db)
    if found > latest:
        raise SchemaTooNewError(db.path, found, latest)
    for migration in migrations:
        if migration.version <= found:
            continue
        async with db.transaction() as tx:
            await tx.fetch_one(_LOCK, (ADVISORY_NAMESPACE, MIGRATION_LOCK))
            # Another instance may have applied it while this one waited for the lock.
            row = await tx.fetch_one(_MAX_VERSION)
            if row is not None and int(row[0]) >= migration.version:
                continue
            for statement in migration.statements:
                await tx.execute(statement)
            await tx.execute(_RECORD_VERSION, (migration.version, migration.name, now))
    return await _version(db)


async def _version(db: PgDatabase) -> int:
    row = await db.fetch_one(_MAX_VERSION)
    return int(row[0]) if row else 0

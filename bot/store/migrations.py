"""The schema, as a forward-only list of migrations, and the code that applies them.

Each ``Migration`` is a numbered list of SQL statements. Opening a file applies, in order and
each in its own transaction, every migration newer than the file's recorded version, so an old
file upgrades in place and a crash mid-upgrade leaves it at the last whole step. A file whose
version is newer than the last migration known here was written by a newer bot and is refused.

To change the schema, append a ``Migration`` with the next version number; never edit one that
has shipped, because files in the field already recorded it as applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.database import Database
from bot.store.store_errors import SchemaTooNewError


@dataclass(frozen=True)
class Migration:
    """One forward step of the schema."""

    version: int
    name: str
    statements: tuple[str, ...]


_INITIAL_SCHEMA = (
    # One conversation per chat; `data` is the conversations package's session, as JSON text.
    """CREATE TABLE sessions (
        chat_id    INTEGER PRIMARY KEY,
        user_id    INTEGER NOT NULL,
        data       TEXT NOT NULL,
        updated_at REAL NOT NULL
    )""",
    "CREATE INDEX sessions_by_updated ON sessions (updated_at)",
    # Which chat and user ordered a delivery, and the newest view of it that chat was given.
    # status_created is the `created` of the last webhook event applied (NULL: create response).
    """CREATE TABLE deliveries (
        delivery_id      TEXT PRIMARY KEY,
        chat_id          INTEGER NOT NULL,
        user_id          INTEGER NOT NULL,
        created_at       REAL NOT NULL,
        receiver_phone   TEXT,
        tracking_url     TEXT,
        status           TEXT NOT NULL,
        status_created   INTEGER,
        tracking_sent_at REAL,
        updated_at       REAL NOT NULL
    )""",
    "CREATE INDEX deliveries_by_user ON deliveries (user_id, created_at DESC, delivery_id DESC)",
    """CREATE INDEX deliveries_open ON deliveries (created_at, delivery_id)
        WHERE status NOT IN ('delivered', 'cancelled')""",
    # Partner webhook events, stored before the 2xx; seq is the arrival order.
    """CREATE TABLE inbox (
        seq          INTEGER PRIMARY KEY,
        event_id     TEXT NOT NULL UNIQUE,
        delivery_id  TEXT NOT NULL,
        event_type   TEXT NOT NULL,
        created      INTEGER NOT NULL,
        raw_body     BLOB,
        received_at  REAL NOT NULL,
        processed_at REAL,
        attempts     INTEGER NOT NULL DEFAULT 0,
        last_error   TEXT
    )""",
    "CREATE INDEX inbox_pending ON inbox (created, seq) WHERE processed_at IS NULL",
    "CREATE INDEX inbox_processed ON inbox (processed_at) WHERE processed_at IS NOT NULL",
    # One row per message the relay means to send; claimed_by is the store session that holds it.
    """CREATE TABLE sent_messages (
        event_id   TEXT NOT NULL,
        chat_id    INTEGER NOT NULL,
        kind       TEXT NOT NULL,
        claimed_by TEXT,
        claimed_at REAL NOT NULL,
        sent_at    REAL,
        message_id INTEGER,
        PRIMARY KEY (event_id, chat_id, kind)
    ) WITHOUT ROWID""",
    "CREATE INDEX sent_messages_by_claimed ON sent_messages (claimed_at)",
    # Re-hosted photos; the bytes live in the media directory under file_name.
    """CREATE TABLE media (
        token        TEXT PRIMARY KEY,
        file_name    TEXT NOT NULL UNIQUE,
        content_type TEXT NOT NULL,
        size         INTEGER NOT NULL,
        chat_id      INTEGER NOT NULL,
        created_at   REAL NOT NULL,
        expires_at   REAL NOT NULL
    )""",
    "CREATE INDEX media_by_expiry ON media (expires_at)",
    """CREATE TABLE seen_updates (
        update_id INTEGER PRIMARY KEY,
        seen_at   REAL NOT NULL
    )""",
    "CREATE INDEX seen_updates_by_time ON seen_updates (seen_at)",
    """CREATE TABLE contacts (
        user_id     INTEGER PRIMARY KEY,
        phone_e164  TEXT NOT NULL,
        verified_at REAL NOT NULL
    )""",
    # A drop-off code waiting for its receiver; code is NULL once it was delivered.
    """CREATE TABLE otp_handoffs (
        delivery_id       TEXT PRIMARY KEY
                          REFERENCES deliveries (delivery_id) ON DELETE CASCADE,
        token             TEXT NOT NULL UNIQUE,
        code              TEXT,
        receiver_phone    TEXT NOT NULL,
        created           INTEGER NOT NULL,
        delivered_at      REAL,
        delivered_chat_id INTEGER
    )""",
    "CREATE INDEX otp_handoffs_by_created ON otp_handoffs (created)",
    """CREATE TABLE blocked_chats (
        chat_id    INTEGER PRIMARY KEY,
        blocked_at REAL NOT NULL
    )""",
)

_CREATE_REQUESTS = (
    # The create request a delivery was made from (JSON, without its idempotency key), so a
    # customer can order the same again; NULL for deliveries linked before this step.
    "ALTER TABLE deliveries ADD COLUMN request TEXT",
    # A user's kept requests, newest last; the implicit rowid breaks ties of created_at in
    # the order the rows were linked.
    """CREATE INDEX deliveries_requests_by_user ON deliveries (user_id, created_at)
        WHERE request IS NOT NULL""",
)

_OTP_BY_RECEIVER = (
    # The codes still waiting for a receiver, by phone, oldest first: what a user's proven
    # contact is matched against (``store.otp.pending_for_phone``) without reading the table.
    """CREATE INDEX otp_handoffs_pending_by_phone
        ON otp_handoffs (receiver_phone, created, delivery_id) WHERE code IS NOT NULL""",
)

_SAVED_ORDERS = (
    # A delivery keeps the flow and the answers that made it (``SavedOrder`` JSON), which is
    # what "repeat my last delivery" replays; the create request it kept before is dropped
    # (nothing maps a request back into answers any more).
    "DROP INDEX deliveries_requests_by_user",
    "ALTER TABLE deliveries DROP COLUMN request",
    "ALTER TABLE deliveries ADD COLUMN saved_order TEXT",
    """CREATE INDEX deliveries_orders_by_user ON deliveries (user_id, created_at)
        WHERE saved_order IS NOT NULL""",
)

_UNCONFIRMED_CREATES = (
    # Creates whose answer was lost: retried with the same key until the service answers for
    # certain. request is the wire request (its idempotencyKey included); fingerprint is its
    # content without the key, photos, distance and duration, to hold an identical new order.
    # Once settled, delivery_id (when it was created) and notice (what the customer is told)
    # are set, and the row lives on only until that notice went out.
    """CREATE TABLE unconfirmed_creates (
        idempotency_key TEXT PRIMARY KEY,
        chat_id         INTEGER NOT NULL,
        user_id         INTEGER NOT NULL,
        request         TEXT NOT NULL,
        saved_order     TEXT NOT NULL,
        fingerprint     TEXT NOT NULL,
        created_at      REAL NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at REAL NOT NULL,
        delivery_id     TEXT,
        notice          TEXT
    ) WITHOUT ROWID""",
    "CREATE INDEX unconfirmed_creates_due ON unconfirmed_creates (next_attempt_at)",
    """CREATE INDEX unconfirmed_creates_open ON unconfirmed_creates (fingerprint)
        WHERE notice IS NULL""",
)

_AGENT_CHANNELS = (
    # Customers of an agent channel (JSON API, MCP): the channel's own reference for them, and
    # the user id the bot's services know them by (AGENT_ID_BASE - seq: never a Telegram id).
    """CREATE TABLE agent_customers (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        channel    TEXT NOT NULL,
        customer   TEXT NOT NULL,
        created_at REAL NOT NULL,
        UNIQUE (channel, customer)
    )""",
    # One conversation of such a customer: its public id (unguessable), and the chat id the
    # bot's services know it by (AGENT_ID_BASE - seq).
    """CREATE TABLE agent_conversations (
        seq          INTEGER PRIMARY KEY AUTOINCREMENT,
        id           TEXT NOT NULL UNIQUE,
        customer_seq INTEGER NOT NULL REFERENCES agent_customers (seq),
        flow         TEXT,
        created_at   REAL NOT NULL
    )""",
    # What was asked and answered, in order: the conversation's transcript.
    """CREATE TABLE agent_transcript (
        conversation_seq INTEGER NOT NULL,
        n                INTEGER NOT NULL,
        entry            TEXT NOT NULL,
        at               REAL NOT NULL,
        PRIMARY KEY (conversation_seq, n)
    ) WITHOUT ROWID""",
    # Events for a conversation's deliveries, once each (chat_id, event_key), in seq order for
    # the SSE stream; hook_* is the channel's signed webhook delivery of each.
    """CREATE TABLE agent_events (
        seq          INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id      INTEGER NOT NULL,
        event_key    TEXT NOT NULL,
        body         TEXT NOT NULL,
        created_at   REAL NOT NULL,
        hook_sent_at REAL,
        hook_attempts INTEGER NOT NULL DEFAULT 0,
        hook_next_at REAL NOT NULL,
        UNIQUE (chat_id, event_key)
    )""",
    "CREATE INDEX agent_events_by_chat ON agent_events (chat_id, seq)",
    "CREATE INDEX agent_events_hooks_due ON agent_events (hook_next_at) WHERE hook_sent_at IS NULL",
)

_CUSTOMER_DETAILS = (
    # What a returning customer is offered again: their name, phone and last places, as the
    # conversations package's ``Remembered`` JSON, one row per Telegram user (never shared).
    """CREATE TABLE customer_details (
        user_id    INTEGER PRIMARY KEY,
        data       TEXT NOT NULL,
        updated_at REAL NOT NULL
    )""",
)

_CUSTOMER_LANGUAGES = (
    # The shipped language (``fr``) the customer ordered in, so what is said to them later,
    # outside their own turns (the relay's news, the outcome of a lost create), is in it;
    # NULL for the business default (and for rows from before this step).
    "ALTER TABLE deliveries ADD COLUMN language TEXT",
    "ALTER TABLE unconfirmed_creates ADD COLUMN language TEXT",
)

_SHARED_BY_INSTANCES = (
    # Which chat opened which drop-off code hand-off link (its token), until ``expires_at``:
    # the contact that chat shares next may reach another instance.
    """CREATE TABLE otp_invitations (
        chat_id    INTEGER PRIMARY KEY,
        token      TEXT NOT NULL,
        expires_at REAL NOT NULL
    )""",
    # When each operator alert (by a hash of its text) was last sent, so it is not repeated
    # within a while by any instance.
    """CREATE TABLE operator_alerts (
        alert   TEXT PRIMARY KEY,
        sent_at REAL NOT NULL
    ) WITHOUT ROWID""",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial schema", _INITIAL_SCHEMA),
    Migration(2, "create requests of deliveries", _CREATE_REQUESTS),
    Migration(3, "pending drop-off codes by receiver phone", _OTP_BY_RECEIVER),
    Migration(4, "the answers that made each delivery", _SAVED_ORDERS),
    Migration(5, "creates whose answer was lost", _UNCONFIRMED_CREATES),
    Migration(6, "agent channels: customers, conversations, events", _AGENT_CHANNELS),
    Migration(7, "what returning customers are offered again", _CUSTOMER_DETAILS),
    Migration(8, "the language each customer ordered in", _CUSTOMER_LANGUAGES),
    Migration(9, "hand-off links opened and operator alerts sent", _SHARED_BY_INSTANCES),
)
"""Every schema step, oldest first. Append only."""

LATEST_VERSION = MIGRATIONS[-1].version

_CREATE_VERSION_TABLE = """CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at REAL NOT NULL
)"""
_VERSION_TABLE_EXISTS = (
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
)
_MAX_VERSION = "SELECT coalesce(max(version), 0) FROM schema_version"
_RECORD_VERSION = "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)"


async def schema_version(db: Database) -> int:
    """The version recorded in the file; 0 for a file no migration has touched."""
    exists = await db.fetch_one(_VERSION_TABLE_EXISTS)
    if exists is None or exists[0] == 0:
        return 0
    row = await db.fetch_one(_MAX_VERSION)
    return int(row[0]) if row else 0


async def migrate(db: Database, *, now: float, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring the file up to the last of ``migrations``; return the resulting version.

    Raises ``SchemaTooNewError`` (before changing anything) when the file is newer.
    """
    _check_sequence(migrations)
    latest = migrations[-1].version if migrations else 0
    found = await schema_version(db)
    if found > latest:
        raise SchemaTooNewError(db.path, found, latest)
    for migration in migrations:
        if migration.version <= found:
            continue
        async with db.transaction() as tx:
            await tx.execute(_CREATE_VERSION_TABLE)
            # Another process may have upgraded the file since `found` was read.
            row = await tx.fetch_one(_MAX_VERSION)
            if row is not None and int(row[0]) >= migration.version:
                continue
            for statement in migration.statements:
                await tx.execute(statement)
            await tx.execute(_RECORD_VERSION, (migration.version, migration.name, now))
    return await schema_version(db)


def _check_sequence(migrations: Sequence[Migration]) -> None:
    versions = [migration.version for migration in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise ValueError(f"migration versions must be 1, 2, 3 ... in order; got {versions}")

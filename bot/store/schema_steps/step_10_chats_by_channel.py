"""Schema step 10: chats and customers named by their channel, not by an id range.

The one step that rewrites rows: the helpers below turn the ids of before this step into a
channel and that channel's id, inside the SQL.
"""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

# What ``bot.store.agent_conversations`` numbered agent chats and customers by until version 10:
# ids at or below this were an agent conversation's or customer's (this minus its seq).
_AGENT_ID_BASE = -(2**50)


# The statements below put only this module's own literals into their SQL (S608 is about input).


def _channel_of(column: str) -> str:
    """SQL: the channel of a row keyed by ``column`` before version 10 (an id in the agents'
    range was an agent's; every other id was Telegram's: databases before version 10 were
    written by ``deliverybot run``, a Telegram bot; the demo never kept one)."""
    return f"CASE WHEN {column} <= {_AGENT_ID_BASE} THEN 'agents' ELSE 'telegram' END"


def _id_of(column: str) -> str:
    """SQL: ``column``'s id in its channel (an agent's: its conversation's or customer's seq)."""
    return (
        f"CASE WHEN {column} <= {_AGENT_ID_BASE} THEN {_AGENT_ID_BASE} - {column} ELSE {column} END"
    )


def _rebuilt(table: str, create: str, columns: str, selected: str, *after: str) -> tuple[str, ...]:
    """Statements that remake ``table`` as ``create`` with its rows (``selected`` from the old
    rows, into ``columns``) and then ``after`` (its indexes): for a new primary key or unique
    constraint, which neither database adds to a table in place the same way. The old rows
    are set aside first (``CREATE TABLE ... AS`` copies no constraints, indexes or keys), so
    the new table is made under its own name: SQLite keeps its text as written and
    PostgreSQL names its constraints as for a new database.
    """
    return (
        f"CREATE TABLE {table}_v9 AS SELECT * FROM {table}",  # noqa: S608
        f"DROP TABLE {table}",
        create,
        f"INSERT INTO {table} ({columns}){{keep_serial}} SELECT {selected} FROM {table}_v9",  # noqa: S608
        f"DROP TABLE {table}_v9",
        *after,
    )


_CHATS_BY_CHANNEL = (
    # Every row keyed by a chat or a customer names it by its channel and the channel's id
    # (``bot.chat_ref``), not by an id range: rows of agent conversations and customers (ids at
    # or below -2**50) become the channel 'agents' with their seq, every other row 'telegram'.
    # A customer is named in the channel of their chat: one ``channel`` column serves both.
    *_rebuilt(
        "sessions",
        """CREATE TABLE sessions (
        channel    TEXT NOT NULL,
        chat_id    {int} NOT NULL,
        user_id    {int} NOT NULL,
        data       TEXT NOT NULL,
        updated_at {real} NOT NULL,
        PRIMARY KEY (channel, chat_id)
    )""",
        "channel, chat_id, user_id, data, updated_at",
        f"{_channel_of('chat_id')}, {_id_of('chat_id')}, {_id_of('user_id')}, data, updated_at",
        # In the order sessions are listed (a chat id is no longer the rowid that ends it).
        "CREATE INDEX sessions_by_updated ON sessions (updated_at, channel, chat_id)",
    ),
    # Tables keyed by something else take the column in place; rows added later always name
    # their channel, the default only names the rows from before.
    "ALTER TABLE deliveries ADD COLUMN channel TEXT NOT NULL DEFAULT 'telegram'",
    f"""UPDATE deliveries SET channel = 'agents', chat_id = {_id_of("chat_id")},
        user_id = {_id_of("user_id")} WHERE chat_id <= {_AGENT_ID_BASE}""",  # noqa: S608
    "DROP INDEX deliveries_by_user",
    """CREATE INDEX deliveries_by_user
        ON deliveries (channel, user_id, created_at DESC, delivery_id DESC)""",
    "DROP INDEX deliveries_orders_by_user",
    """CREATE INDEX deliveries_orders_by_user
        ON deliveries (channel, user_id, created_at{link_order}) WHERE saved_order IS NOT NULL""",
    *_rebuilt(
        "sent_messages",
        """CREATE TABLE sent_messages (
        event_id   TEXT NOT NULL,
        channel    TEXT NOT NULL,
        chat_id    {int} NOT NULL,
        kind       TEXT NOT NULL,
        claimed_by TEXT,
        claimed_at {real} NOT NULL,
        sent_at    {real},
        message_id {int},
        PRIMARY KEY (event_id, channel, chat_id, kind)
    ){without_rowid}""",
        "event_id, channel, chat_id, kind, claimed_by, claimed_at, sent_at, message_id",
        f"event_id, {_channel_of('chat_id')}, {_id_of('chat_id')}, kind, claimed_by, claimed_at,"
        " sent_at, message_id",
        "CREATE INDEX sent_messages_by_claimed ON sent_messages (claimed_at)",
    ),
    "ALTER TABLE media ADD COLUMN channel TEXT NOT NULL DEFAULT 'telegram'",
    f"""UPDATE media SET channel = 'agents', chat_id = {_id_of("chat_id")}
        WHERE chat_id <= {_AGENT_ID_BASE}""",  # noqa: S608
    *_rebuilt(
        "contacts",
        """CREATE TABLE contacts (
        channel     TEXT NOT NULL,
        user_id     {int} NOT NULL,
        phone_e164  TEXT NOT NULL,
        verified_at {real} NOT NULL,
        PRIMARY KEY (channel, user_id)
    )""",
        "channel, user_id, phone_e164, verified_at",
        f"{_channel_of('user_id')}, {_id_of('user_id')}, phone_e164, verified_at",
    ),
    # The chat a drop-off code went to: its channel beside its id (NULL while pending).
    "ALTER TABLE otp_handoffs ADD COLUMN delivered_channel TEXT",
    f"""UPDATE otp_handoffs SET delivered_channel = {_channel_of("delivered_chat_id")},
        delivered_chat_id = {_id_of("delivered_chat_id")} WHERE delivered_chat_id IS NOT NULL""",  # noqa: S608
    *_rebuilt(
        "blocked_chats",
        """CREATE TABLE blocked_chats (
        channel    TEXT NOT NULL,
        chat_id    {int} NOT NULL,
        blocked_at {real} NOT NULL,
        PRIMARY KEY (channel, chat_id)
    )""",
        "channel, chat_id, blocked_at",
        f"{_channel_of('chat_id')}, {_id_of('chat_id')}, blocked_at",
    ),
    "ALTER TABLE unconfirmed_creates ADD COLUMN channel TEXT NOT NULL DEFAULT 'telegram'",
    f"""UPDATE unconfirmed_creates SET channel = 'agents', chat_id = {_id_of("chat_id")},
        user_id = {_id_of("user_id")} WHERE chat_id <= {_AGENT_ID_BASE}""",  # noqa: S608
    # seq is kept: it is each event's position in its conversation's SSE stream.
    *_rebuilt(
        "agent_events",
        """CREATE TABLE agent_events (
        seq          {serial_key},
        channel      TEXT NOT NULL,
        chat_id      {int} NOT NULL,
        event_key    TEXT NOT NULL,
        body         TEXT NOT NULL,
        created_at   {real} NOT NULL,
        hook_sent_at {real},
        hook_attempts {int} NOT NULL DEFAULT 0,
        hook_next_at {real} NOT NULL,
        UNIQUE (channel, chat_id, event_key)
    )""",
        "seq, channel, chat_id, event_key, body, created_at, hook_sent_at, hook_attempts,"
        " hook_next_at",
        f"seq, {_channel_of('chat_id')}, {_id_of('chat_id')}, event_key, body, created_at,"
        " hook_sent_at, hook_attempts, hook_next_at",
        "CREATE INDEX agent_events_by_chat ON agent_events (channel, chat_id, seq)",
        """CREATE INDEX agent_events_hooks_due ON agent_events (hook_next_at)
        WHERE hook_sent_at IS NULL""",
    ),
    *_rebuilt(
        "customer_details",
        """CREATE TABLE customer_details (
        channel    TEXT NOT NULL,
        user_id    {int} NOT NULL,
        data       TEXT NOT NULL,
        updated_at {real} NOT NULL,
        PRIMARY KEY (channel, user_id)
    )""",
        "channel, user_id, data, updated_at",
        f"{_channel_of('user_id')}, {_id_of('user_id')}, data, updated_at",
    ),
    *_rebuilt(
        "otp_invitations",
        """CREATE TABLE otp_invitations (
        channel    TEXT NOT NULL,
        chat_id    {int} NOT NULL,
        token      TEXT NOT NULL,
        expires_at {real} NOT NULL,
        PRIMARY KEY (channel, chat_id)
    )""",
        "channel, chat_id, token, expires_at",
        f"{_channel_of('chat_id')}, {_id_of('chat_id')}, token, expires_at",
    ),
)

_SERIALS_AFTER_COPY = (
    # PostgreSQL's identity does not follow values copied into it: the next event's seq
    # continues after the copied ones (SQLite's AUTOINCREMENT follows by itself).
    """SELECT setval(pg_get_serial_sequence('agent_events', 'seq'),
        coalesce(max(seq), 0) + 1, false) FROM agent_events""",
)

STEP = SchemaStep(
    "chats and customers named by their channel", _CHATS_BY_CHANNEL, shared_only=_SERIALS_AFTER_COPY
)

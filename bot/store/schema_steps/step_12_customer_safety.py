"""Schema step 12: blocked customers, orders started, the audit trail."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_CUSTOMER_SAFETY = (
    # Customers an operator stopped (``/block``): no order is taken from them until unblocked.
    # Not ``blocked_chats``, which lists chats that blocked the bot.
    """CREATE TABLE customer_blocks (
        channel    TEXT NOT NULL,
        user_id    {int} NOT NULL,
        reason     TEXT,
        blocked_by TEXT NOT NULL,
        blocked_at {real} NOT NULL,
        PRIMARY KEY (channel, user_id)
    )""",
    # What operators did and which limits customers hit: who, when, what, and how it ended.
    """CREATE TABLE audit_trail (
        seq     {serial_key},
        at      {real} NOT NULL,
        actor   TEXT NOT NULL,
        action  TEXT NOT NULL,
        subject TEXT NOT NULL,
        outcome TEXT NOT NULL,
        detail  TEXT
    )""",
    "CREATE INDEX audit_trail_by_time ON audit_trail (at)",
    # When each customer started an order ([limits] drafts_per_hour), kept a day.
    """CREATE TABLE customer_drafts (
        channel    TEXT NOT NULL,
        user_id    {int} NOT NULL,
        started_at {real} NOT NULL
    )""",
    "CREATE INDEX customer_drafts_by_user ON customer_drafts (channel, user_id, started_at)",
    "CREATE INDEX customer_drafts_by_time ON customer_drafts (started_at)",
)

STEP = SchemaStep("blocked customers, orders started, the audit trail", _CUSTOMER_SAFETY)

"""Schema step 1: initial schema; on a database several instances share, also what they
coordinate through (leases on the inbox, the Partner API's rate budget)."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_INITIAL_SCHEMA = (
    # One conversation per chat; `data` is the conversations package's session, as JSON text.
    """CREATE TABLE sessions (
        chat_id    {int} PRIMARY KEY,
        user_id    {int} NOT NULL,
        data       TEXT NOT NULL,
        updated_at {real} NOT NULL
    )""",
    "CREATE INDEX sessions_by_updated ON sessions (updated_at)",
    # Which chat and user ordered a delivery, and the newest view of it that chat was given.
    # status_created is the `created` of the last webhook event applied (NULL: create response).
    """CREATE TABLE deliveries (
        delivery_id      TEXT PRIMARY KEY,
        chat_id          {int} NOT NULL,
        user_id          {int} NOT NULL,
        created_at       {real} NOT NULL,
        receiver_phone   TEXT,
        tracking_url     TEXT,
        status           TEXT NOT NULL,
        status_created   {int},
        tracking_sent_at {real},
        updated_at       {real} NOT NULL
    )""",
    "CREATE INDEX deliveries_by_user ON deliveries (user_id, created_at DESC, delivery_id DESC)",
    """CREATE INDEX deliveries_open ON deliveries (created_at, delivery_id)
        WHERE status NOT IN ('delivered', 'cancelled')""",
    # Partner webhook events, stored before the 2xx; seq is the arrival order.
    """CREATE TABLE inbox (
        seq          {rowid_key},
        event_id     TEXT NOT NULL UNIQUE,
        delivery_id  TEXT NOT NULL,
        event_type   TEXT NOT NULL,
        created      {int} NOT NULL,
        raw_body     {blob},
        received_at  {real} NOT NULL,
        processed_at {real},
        attempts     {int} NOT NULL DEFAULT 0,
        last_error   TEXT
    )""",
    "CREATE INDEX inbox_pending ON inbox (created, seq) WHERE processed_at IS NULL",
    "CREATE INDEX inbox_processed ON inbox (processed_at) WHERE processed_at IS NOT NULL",
    # One row per message the relay means to send; claimed_by is the store session that holds it.
    """CREATE TABLE sent_messages (
        event_id   TEXT NOT NULL,
        chat_id    {int} NOT NULL,
        kind       TEXT NOT NULL,
        claimed_by TEXT,
        claimed_at {real} NOT NULL,
        sent_at    {real},
        message_id {int},
        PRIMARY KEY (event_id, chat_id, kind)
    ){without_rowid}""",
    "CREATE INDEX sent_messages_by_claimed ON sent_messages (claimed_at)",
    # Re-hosted photos; the bytes live in the media directory under file_name.
    """CREATE TABLE media (
        token        TEXT PRIMARY KEY,
        file_name    TEXT NOT NULL UNIQUE,
        content_type TEXT NOT NULL,
        size         {int} NOT NULL,
        chat_id      {int} NOT NULL,
        created_at   {real} NOT NULL,
        expires_at   {real} NOT NULL
    )""",
    "CREATE INDEX media_by_expiry ON media (expires_at)",
    """CREATE TABLE seen_updates (
        update_id {int} PRIMARY KEY,
        seen_at   {real} NOT NULL
    )""",
    "CREATE INDEX seen_updates_by_time ON seen_updates (seen_at)",
    """CREATE TABLE contacts (
        user_id     {int} PRIMARY KEY,
        phone_e164  TEXT NOT NULL,
        verified_at {real} NOT NULL
    )""",
    # A drop-off code waiting for its receiver; code is NULL once it was delivered.
    """CREATE TABLE otp_handoffs (
        delivery_id       TEXT PRIMARY KEY
                          REFERENCES deliveries (delivery_id) ON DELETE CASCADE,
        token             TEXT NOT NULL UNIQUE,
        code              TEXT,
        receiver_phone    TEXT NOT NULL,
        created           {int} NOT NULL,
        delivered_at      {real},
        delivered_chat_id {int}
    )""",
    "CREATE INDEX otp_handoffs_by_created ON otp_handoffs (created)",
    """CREATE TABLE blocked_chats (
        chat_id    {int} PRIMARY KEY,
        blocked_at {real} NOT NULL
    )""",
)

_SHARED_STATE = (
    # The order the deliveries were linked: what SQLite's implicit rowid keeps.
    "ALTER TABLE deliveries ADD COLUMN link_seq {int} GENERATED ALWAYS AS IDENTITY",
    # Who relays a pending event, until when (``inbox.claim_batch``): an instance that dies
    # mid-send leaves a lease that runs out, and another instance takes the event over.
    "ALTER TABLE inbox ADD COLUMN lease_holder TEXT",
    "ALTER TABLE inbox ADD COLUMN lease_until {real}",
    "CREATE INDEX inbox_pending_by_delivery ON inbox (delivery_id) WHERE processed_at IS NULL",
    # The Partner API's rate budget, shared by every instance (``bot.store.pg_rate_budget``):
    # one row per request start within the last window, per API key (by its fingerprint).
    """CREATE TABLE partner_request_starts (
        key_id     TEXT NOT NULL,
        started_at {real} NOT NULL
    )""",
    "CREATE INDEX partner_request_starts_by_key ON partner_request_starts (key_id, started_at)",
    """CREATE TABLE partner_rate_blocks (
        key_id        TEXT PRIMARY KEY,
        blocked_until {real} NOT NULL
    )""",
)

STEP = SchemaStep("initial schema", _INITIAL_SCHEMA, shared_only=_SHARED_STATE)

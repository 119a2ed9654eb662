"""Schema step 13: creates recorded before they are sent; the Telegram update inbox."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_DURABLE_INTAKE = (
    # Creates recorded before they are sent (``bot.store.create_intents``): what the
    # follow-up needs to finish one whose sender died (the request with its key, the chat and
    # customer, the saved order), and who sends it: ``owner`` (a store's holder) renews
    # ``lease_until`` while the create is in flight. A row leaves when the create is settled
    # (linked, refused, or handed to ``unconfirmed_creates``), in the same commit.
    """CREATE TABLE create_intents (
        idempotency_key TEXT PRIMARY KEY,
        channel         TEXT NOT NULL,
        chat_id         {int} NOT NULL,
        user_id         {int} NOT NULL,
        request         TEXT NOT NULL,
        saved_order     TEXT NOT NULL,
        fingerprint     TEXT NOT NULL,
        language        TEXT,
        created_at      {real} NOT NULL,
        owner           TEXT NOT NULL,
        lease_until     {real} NOT NULL
    ){without_rowid}""",
    "CREATE INDEX create_intents_by_lease ON create_intents (lease_until)",
    # Telegram updates stored before their webhook's 200 (or before the polling offset moves
    # past them), until handled (``bot.store.update_inbox``): the update as Telegram sent it,
    # and its chat (NULL for an update without one), whose lock holder handles them in order.
    """CREATE TABLE telegram_update_inbox (
        update_id   {int} PRIMARY KEY,
        channel     TEXT NOT NULL,
        chat_id     {int},
        body        TEXT NOT NULL,
        received_at {real} NOT NULL
    ){without_rowid}""",
    """CREATE INDEX telegram_update_inbox_by_chat
        ON telegram_update_inbox (channel, chat_id, update_id)""",
    "CREATE INDEX telegram_update_inbox_by_age ON telegram_update_inbox (received_at)",
)

STEP = SchemaStep(
    "creates recorded before they are sent; the Telegram update inbox", _DURABLE_INTAKE
)

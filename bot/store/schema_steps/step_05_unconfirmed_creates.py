"""Schema step 5: creates whose answer was lost."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_UNCONFIRMED_CREATES = (
    # Creates whose answer was lost: retried with the same key until the service answers for
    # certain. request is the wire request (its idempotencyKey included); fingerprint is its
    # content without the key, photos, distance and duration, to hold an identical new order.
    # Once settled, delivery_id (when it was created) and notice (what the customer is told)
    # are set, and the row lives on only until that notice went out.
    """CREATE TABLE unconfirmed_creates (
        idempotency_key TEXT PRIMARY KEY,
        chat_id         {int} NOT NULL,
        user_id         {int} NOT NULL,
        request         TEXT NOT NULL,
        saved_order     TEXT NOT NULL,
        fingerprint     TEXT NOT NULL,
        created_at      {real} NOT NULL,
        attempts        {int} NOT NULL DEFAULT 0,
        next_attempt_at {real} NOT NULL,
        delivery_id     TEXT,
        notice          TEXT
    ){without_rowid}""",
    "CREATE INDEX unconfirmed_creates_due ON unconfirmed_creates (next_attempt_at)",
    """CREATE INDEX unconfirmed_creates_open ON unconfirmed_creates (fingerprint)
        WHERE notice IS NULL""",
)

STEP = SchemaStep("creates whose answer was lost", _UNCONFIRMED_CREATES)

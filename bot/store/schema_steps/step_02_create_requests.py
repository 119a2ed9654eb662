"""Schema step 2: create requests of deliveries."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_CREATE_REQUESTS = (
    # The create request a delivery was made from (JSON, without its idempotency key), so a
    # customer can order the same again; NULL for deliveries linked before this step.
    "ALTER TABLE deliveries ADD COLUMN request TEXT",
    # A user's kept requests, newest last; the implicit rowid breaks ties of created_at in
    # the order the rows were linked.
    """CREATE INDEX deliveries_requests_by_user ON deliveries (user_id, created_at)
        WHERE request IS NOT NULL""",
)

STEP = SchemaStep("create requests of deliveries", _CREATE_REQUESTS)

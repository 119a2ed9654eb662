"""Schema step 4: the answers that made each delivery."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_SAVED_ORDERS = (
    # A delivery keeps the flow and the answers that made it (``SavedOrder`` JSON), which is
    # what "repeat my last delivery" replays; the create request it kept before is dropped
    # (nothing maps a request back into answers any more).
    "DROP INDEX deliveries_requests_by_user",
    "ALTER TABLE deliveries DROP COLUMN request",
    "ALTER TABLE deliveries ADD COLUMN saved_order TEXT",
    """CREATE INDEX deliveries_orders_by_user ON deliveries (user_id, created_at{link_order})
        WHERE saved_order IS NOT NULL""",
)

STEP = SchemaStep("the answers that made each delivery", _SAVED_ORDERS)

"""Schema step 22: each delivery's change number, so the console's open lists find what
changed through the store, whichever instance changed it."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_CHANGES = (
    # The number of the delivery's last change as the console's list shows it (status, fee,
    # payment, rider, news failed, its customer's hand-off opened or closed, its chat blocked):
    # every writer sets it to the next number (``bot.store.delivery_changes``), so an
    # instance's poller reads what changed since it last looked, in the index's order.
    "ALTER TABLE deliveries ADD COLUMN change_seq {int} NOT NULL DEFAULT 0",
    "CREATE INDEX deliveries_by_change ON deliveries (change_seq)",
    # A chat's deliveries, touched when its hand-off or its block changes what they need.
    "CREATE INDEX deliveries_by_chat ON deliveries (channel, chat_id)",
)
# The next number: one sequence several instances draw from (``nextval`` never gives one
# twice). SQLite, whose writers take turns, numbers by the highest so far
# (``sqlite_backend``'s TEMP view of the same name).
_SHARED = (
    "CREATE SEQUENCE delivery_changes",
    "CREATE VIEW delivery_next_change AS SELECT nextval('delivery_changes') AS seq",
)

STEP = SchemaStep("each delivery's change number for the live list", _CHANGES, _SHARED)

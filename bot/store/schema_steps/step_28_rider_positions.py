"""Schema step 28: each delivery's route, and the one last position kept of the rider a
customer follows on a map (``bot.store.rider_positions``)."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_RIDER_POSITIONS = (
    # Where the delivery is picked up and dropped off, as the service last showed it
    # (``ListedDetails.pickup`` / ``dropoff``; NULL: not shown): the estimate of arrival and
    # the console's map read them.
    "ALTER TABLE deliveries ADD COLUMN pickup_lat {real}",
    "ALTER TABLE deliveries ADD COLUMN pickup_lng {real}",
    "ALTER TABLE deliveries ADD COLUMN dropoff_lat {real}",
    "ALTER TABLE deliveries ADD COLUMN dropoff_lng {real}",
    # One row per tracked delivery, while the tracking job follows it: the rider the row is
    # about, their last accepted fix (overwritten, never appended; NULL: none yet) and what
    # the customer's channel shows of it (``shown``, the channel's own record). Dropped when
    # the delivery ends or loses its rider; a delivery's removal takes it along.
    """CREATE TABLE rider_positions (
        delivery_id TEXT PRIMARY KEY
                    REFERENCES deliveries (delivery_id) ON DELETE CASCADE,
        rider_id    TEXT NOT NULL,
        latitude    {real},
        longitude   {real},
        fix_at      {real},
        shown       TEXT NOT NULL DEFAULT '',
        started_at  {real} NOT NULL,
        updated_at  {real} NOT NULL
    )""",
    # The deliveries a customer may follow (``rider_positions.TRACKED_STATUSES`` and a rider),
    # which the tracking job reads every few seconds: a handful among all the delivered ones,
    # whatever the planner's statistics say of the statuses (the query repeats the condition
    # word for word, so SQLite uses the index).
    """CREATE INDEX deliveries_tracked ON deliveries (created_at, delivery_id)
        WHERE status IN ('matched', 'picked_up', 'in_transit') AND rider_id IS NOT NULL""",
)

# PostgreSQL's planner takes a table never analyzed for ten pages of rows, and would read
# every delivery to join them to the tracked ones; analyzed, the new table is known empty
# (autovacuum keeps it known once rows come and go).
_SHARED = ("ANALYZE rider_positions",)

STEP = SchemaStep("each delivery's route and its rider's last position", _RIDER_POSITIONS, _SHARED)

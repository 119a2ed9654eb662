"""Schema step 27: the one business a store belongs to (``bot.store.store_owner``).

Many businesses on one host keep their rows apart by where they live: a SQLite file, or a
PostgreSQL schema, per business. This row names the business, so a store opened for another
one (a business file pointing at the wrong file, a schema name mistyped) is refused instead of
serving that business's customers someone else's rows.

A database that already holds rows from before owners were recorded is the one business's that
ran the bot then, ``default`` (a single-business configuration's name): the step records it.
An empty one is claimed by the first store that opens it.
"""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_STORE_OWNER = (
    # One row at most (``one_row`` is 1): the business's name, as the host names it.
    """CREATE TABLE store_owner (
        one_row  {int} PRIMARY KEY CHECK (one_row = 1),
        business TEXT NOT NULL
    )""",
    # Rows from before this step (a chat, an update, an order, an event, an agent's customer,
    # a staff member, an audit line, a photo: whatever any use of the bot leaves) are the one
    # business's that ran it.
    """INSERT INTO store_owner (one_row, business) SELECT 1, 'default'
    WHERE EXISTS (SELECT 1 FROM sessions) OR EXISTS (SELECT 1 FROM seen_updates)
        OR EXISTS (SELECT 1 FROM telegram_update_inbox) OR EXISTS (SELECT 1 FROM whatsapp_inbox)
        OR EXISTS (SELECT 1 FROM deliveries) OR EXISTS (SELECT 1 FROM inbox)
        OR EXISTS (SELECT 1 FROM agent_customers) OR EXISTS (SELECT 1 FROM staff_members)
        OR EXISTS (SELECT 1 FROM audit_trail) OR EXISTS (SELECT 1 FROM funnel_events)
        OR EXISTS (SELECT 1 FROM media)""",
)

STEP = SchemaStep("the business the store belongs to", _STORE_OWNER)

"""Schema step 23: the console finds customers by a part of their name."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_SEARCH = (
    # A part of a name cannot be sought in a B-tree: ``store.customer_search.named`` reads
    # every name, and this index holds what it needs of each delivery (the name, whose it is,
    # when), so the pass reads the index alone, never the wide rows (saved orders).
    """CREATE INDEX deliveries_by_customer_name
        ON deliveries (customer_name, channel, user_id, created_at)""",
)

STEP = SchemaStep("the console finds customers by a part of their name", _SEARCH)

"""Schema step 15: facts each chat was told; agent conversations' languages."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_TOLD_AND_SPOKEN = (
    # The facts each delivery's chat was told (``delivery_links.DeliveryLink.told``: the
    # rider, the fee, the payment, the drop-off code, the quote question), one word each
    # separated by spaces, so no later event or reply tells one again.
    "ALTER TABLE deliveries ADD COLUMN told TEXT NOT NULL DEFAULT ''",
    # The language an agent conversation was started in (``language`` of its start): every
    # turn and its delivery's events are said in it; NULL for the business default.
    "ALTER TABLE agent_conversations ADD COLUMN language TEXT",
)

STEP = SchemaStep("facts each chat was told; agent conversations' languages", _TOLD_AND_SPOKEN)

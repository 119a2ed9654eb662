"""Schema step 18: creates answered, their customer still to be told."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_ANSWERED_CREATES = (
    # A create answered with a delivery (linked in the same commit) whose customer is still to
    # be told: its intent stays, with what to tell them, until the turn's reply went out; the
    # follow-up tells it if the sender died first (``bot.store.create_intents``).
    "ALTER TABLE create_intents ADD COLUMN delivery_id TEXT",
    "ALTER TABLE create_intents ADD COLUMN notice TEXT",
)

STEP = SchemaStep("creates answered, their customer still to be told", _ANSWERED_CREATES)

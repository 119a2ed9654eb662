"""Schema step 7: what returning customers are offered again."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_CUSTOMER_DETAILS = (
    # What a returning customer is offered again: their name, phone and last places, as the
    # conversations package's ``Remembered`` JSON, one row per Telegram user (never shared).
    """CREATE TABLE customer_details (
        user_id    {int} PRIMARY KEY,
        data       TEXT NOT NULL,
        updated_at {real} NOT NULL
    )""",
)

STEP = SchemaStep("what returning customers are offered again", _CUSTOMER_DETAILS)

"""Schema step 8: the language each customer ordered in."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_CUSTOMER_LANGUAGES = (
    # The shipped language (``fr``) the customer ordered in, so what is said to them later,
    # outside their own turns (the relay's news, the outcome of a lost create), is in it;
    # NULL for the business default (and for rows from before this step).
    "ALTER TABLE deliveries ADD COLUMN language TEXT",
    "ALTER TABLE unconfirmed_creates ADD COLUMN language TEXT",
)

STEP = SchemaStep("the language each customer ordered in", _CUSTOMER_LANGUAGES)

"""Schema step 24: the language each staff member reads the console in."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_STAFF_LANGUAGES = (
    # The shipped language (``fr``) a member chose in the console (or their Telegram client
    # had when they first asked for a link); NULL for the business default, which then
    # follows ``[texts] locale`` should it change.
    "ALTER TABLE staff_members ADD COLUMN language TEXT",
)

STEP = SchemaStep("the language each staff member reads the console in", _STAFF_LANGUAGES)

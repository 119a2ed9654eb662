"""Schema step 14: where customers give up: the funnel's step events."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_FUNNEL = (
    # Where customers give up (bot.funnel): one row per step event of a conversation. kind is
    # reached, answered, reasked, went_back, abandoned or created; reason is a re-ask's reason
    # code or an abandonment's (idle, cancelled); session is the conversation's opaque id, so
    # each conversation counts once per step whichever instance (or housekeeping pass) wrote it;
    # day is the unix day of at, what the report selects and the retention drops by.
    """CREATE TABLE funnel_events (
        day     {int} NOT NULL,
        flow    TEXT NOT NULL,
        step    TEXT NOT NULL,
        kind    TEXT NOT NULL,
        reason  TEXT,
        session TEXT NOT NULL,
        at      {real} NOT NULL
    )""",
    "CREATE INDEX funnel_events_by_day ON funnel_events (day, flow)",
    "CREATE INDEX funnel_events_by_session ON funnel_events (session, step, kind, at)",
)

STEP = SchemaStep("where customers give up: the funnel's step events", _FUNNEL)

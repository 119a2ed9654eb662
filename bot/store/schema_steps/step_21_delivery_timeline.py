"""Schema step 21: what the console's delivery page shows of a delivery's history."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_TIMELINE = (
    # Each webhook event the relay finished, as staff read it (``bot.store.delivery_history``):
    # the inbox drops an event's body once relayed, so what the console shows is kept here,
    # without the drop-off code (an ``otp_issued`` event's code is never written, and any
    # text quoting it is masked). The places are the event's, for the page's map.
    """CREATE TABLE timeline_events (
        event_id              TEXT PRIMARY KEY,
        delivery_id           TEXT NOT NULL,
        event_type            TEXT NOT NULL,
        created               {int} NOT NULL,
        received_at           {real} NOT NULL,
        status                TEXT NOT NULL,
        previous_status       TEXT,
        summary               TEXT NOT NULL,
        customer_message_hint TEXT,
        agent_notes           TEXT NOT NULL,
        pickup_address        TEXT,
        pickup_lat            {real},
        pickup_lng            {real},
        dropoff_address       TEXT,
        dropoff_lat           {real},
        dropoff_lng           {real}
    )""",
    "CREATE INDEX timeline_events_by_delivery ON timeline_events (delivery_id, created)",
    # Each message the relay sent about a delivery (or failed to send): to whom, its text as
    # sent (a message carrying the drop-off code is kept with the code masked), when.
    """CREATE TABLE timeline_messages (
        seq          {serial_key},
        delivery_id  TEXT NOT NULL,
        event_id     TEXT NOT NULL,
        channel      TEXT NOT NULL,
        chat_id      {int} NOT NULL,
        kind         TEXT NOT NULL,
        audience     TEXT NOT NULL,
        text         TEXT NOT NULL,
        at           {real} NOT NULL,
        failure      TEXT
    )""",
    "CREATE INDEX timeline_messages_by_delivery ON timeline_messages (delivery_id, at)",
    # A delivery's audit entries are found by their subject.
    "CREATE INDEX audit_trail_by_subject ON audit_trail (subject, at)",
)

STEP = SchemaStep("what the console's delivery page shows of its history", _TIMELINE)

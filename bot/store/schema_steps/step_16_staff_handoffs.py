"""Schema step 16: hand-offs to staff and their messages."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_STAFF_HANDOFFS = (
    # A customer's hand-off to the business's staff (``bot.store.handoffs``): its reference,
    # the customer's chat, its state (open, taken, closed), who took it, the question the
    # order was at, and where staff see it (the operators' chat, its message and topic).
    """CREATE TABLE handoffs (
        ref              TEXT PRIMARY KEY,
        channel          TEXT NOT NULL,
        chat_id          {int} NOT NULL,
        user_id          {int} NOT NULL,
        customer_name    TEXT NOT NULL,
        state            TEXT NOT NULL,
        flow             TEXT,
        step             TEXT,
        language         TEXT,
        owner_channel    TEXT,
        owner_id         {int},
        owner_name       TEXT,
        staff_channel    TEXT,
        staff_chat_id    {int},
        staff_message_id {int},
        staff_thread_id  {int},
        opened_at        {real} NOT NULL,
        taken_at         {real},
        closed_at        {real},
        active_at        {real} NOT NULL
    )""",
    # At most one hand-off of a chat is not closed: asking again finds it.
    """CREATE UNIQUE INDEX handoffs_open_by_chat ON handoffs (channel, chat_id)
        WHERE state <> 'closed'""",
    "CREATE INDEX handoffs_by_staff_message ON handoffs (staff_chat_id, staff_message_id)",
    """CREATE INDEX handoffs_by_staff_topic ON handoffs (staff_chat_id, staff_thread_id,
        opened_at)""",
    "CREATE INDEX handoffs_open_by_activity ON handoffs (active_at) WHERE state <> 'closed'",
    # What was said through a hand-off, both ways, in order; each delivered once: a holder
    # claims the oldest pending one of its way for a lease, then marks it delivered.
    """CREATE TABLE handoff_messages (
        seq          {serial_key},
        ref          TEXT NOT NULL REFERENCES handoffs (ref),
        way          TEXT NOT NULL,
        body         TEXT NOT NULL,
        created_at   {real} NOT NULL,
        holder       TEXT,
        held_until   {real},
        delivered_at {real}
    )""",
    "CREATE INDEX handoff_messages_by_ref ON handoff_messages (ref, seq)",
    """CREATE INDEX handoff_messages_pending ON handoff_messages (ref, way, seq)
        WHERE delivered_at IS NULL""",
)

STEP = SchemaStep("hand-offs to staff and their messages", _STAFF_HANDOFFS)

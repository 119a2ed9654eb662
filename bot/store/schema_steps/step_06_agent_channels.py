"""Schema step 6: agent channels: customers, conversations, events."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_AGENT_CHANNELS = (
    # Customers of an agent channel (JSON API, MCP): the channel's own reference for them, and
    # ``seq``, their id in the ``agents`` channel (``UserRef(AGENTS, seq)``).
    """CREATE TABLE agent_customers (
        seq        {serial_key},
        channel    TEXT NOT NULL,
        customer   TEXT NOT NULL,
        created_at {real} NOT NULL,
        UNIQUE (channel, customer)
    )""",
    # One conversation of such a customer: its public id (unguessable), and ``seq``, its chat's
    # id in the ``agents`` channel (``ChatRef(AGENTS, seq)``).
    """CREATE TABLE agent_conversations (
        seq          {serial_key},
        id           TEXT NOT NULL UNIQUE,
        customer_seq {int} NOT NULL REFERENCES agent_customers (seq),
        flow         TEXT,
        created_at   {real} NOT NULL
    )""",
    # What was asked and answered, in order: the conversation's transcript.
    """CREATE TABLE agent_transcript (
        conversation_seq {int} NOT NULL,
        n                {int} NOT NULL,
        entry            TEXT NOT NULL,
        at               {real} NOT NULL,
        PRIMARY KEY (conversation_seq, n)
    ){without_rowid}""",
    # Events for a conversation's deliveries, once each (chat_id, event_key), in seq order for
    # the SSE stream; hook_* is the channel's signed webhook delivery of each.
    """CREATE TABLE agent_events (
        seq          {serial_key},
        chat_id      {int} NOT NULL,
        event_key    TEXT NOT NULL,
        body         TEXT NOT NULL,
        created_at   {real} NOT NULL,
        hook_sent_at {real},
        hook_attempts {int} NOT NULL DEFAULT 0,
        hook_next_at {real} NOT NULL,
        UNIQUE (chat_id, event_key)
    )""",
    "CREATE INDEX agent_events_by_chat ON agent_events (chat_id, seq)",
    "CREATE INDEX agent_events_hooks_due ON agent_events (hook_next_at) WHERE hook_sent_at IS NULL",
)

STEP = SchemaStep("agent channels: customers, conversations, events", _AGENT_CHANNELS)

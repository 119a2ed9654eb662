"""Schema step 11: send limits shared by instances (nothing on a database of one process,
which keeps them in memory)."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_SHARED_SEND_LIMITS = (
    # Telegram's send windows and holds, and each agent channel's request bucket, shared by
    # every instance (``bot.store.pg_send_limits``); one process keeps them in memory.
    # Every send granted within the longest window: the chat it went to and when.
    """CREATE TABLE telegram_sends (
        chat_id {int} NOT NULL,
        sent_at {real} NOT NULL
    )""",
    "CREATE INDEX telegram_sends_by_time ON telegram_sends (sent_at)",
    "CREATE INDEX telegram_sends_by_chat ON telegram_sends (chat_id, sent_at)",
    # Chats Telegram asked to wait for (a 429's retry_after), until when.
    """CREATE TABLE telegram_holds (
        chat_id    {int} PRIMARY KEY,
        held_until {real} NOT NULL
    )""",
    # Each agent channel's token bucket (``requests_per_minute``): its tokens at a moment.
    """CREATE TABLE agent_request_buckets (
        channel    TEXT PRIMARY KEY,
        tokens     {real} NOT NULL,
        counted_at {real} NOT NULL
    )""",
)

STEP = SchemaStep("send limits shared by instances", (), shared_only=_SHARED_SEND_LIMITS)

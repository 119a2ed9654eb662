"""Schema step 26: what the WhatsApp channel's sending keeps (``bot.whatsapp``'s news,
window, statuses and pacing)."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_WHATSAPP_SENDING = (
    # The customer-service window (``store.whatsapp_windows``): each WhatsApp customer's last
    # message, from which a non-template message may be sent for 24 hours.
    """CREATE TABLE whatsapp_windows (
        wa_id          {int} PRIMARY KEY,
        last_message_at {real} NOT NULL
    )""",
    # What the bot sent on WhatsApp (``store.whatsapp_sent``), by WhatsApp's message id, so a
    # status reported later finds it: its chat, what it was (``news``, ``reply``, ``turn``),
    # the delivery it was about, its text while it may still have to go again as a template
    # (cleared once delivered), the sends made of it, and its last status.
    """CREATE TABLE whatsapp_sent (
        message_id TEXT PRIMARY KEY,
        wa_id      {int} NOT NULL,
        kind       TEXT NOT NULL,
        reference  TEXT NOT NULL,
        body       TEXT,
        attempts   {int} NOT NULL,
        status     TEXT NOT NULL,
        sent_at    {real} NOT NULL
    )""",
    "CREATE INDEX whatsapp_sent_by_time ON whatsapp_sent (sent_at)",
)

_SHARED_WHATSAPP_LIMITS = (
    # WhatsApp's send windows and holds, shared by every instance as Telegram's are
    # (``bot.store.pg_send_limits``, its ``WHATSAPP_LEDGER``): apart from Telegram's, so
    # neither messenger's overall window counts the other's sends.
    """CREATE TABLE whatsapp_sends (
        chat_id {int} NOT NULL,
        sent_at {real} NOT NULL
    )""",
    "CREATE INDEX whatsapp_sends_by_time ON whatsapp_sends (sent_at)",
    "CREATE INDEX whatsapp_sends_by_chat ON whatsapp_sends (chat_id, sent_at)",
    """CREATE TABLE whatsapp_holds (
        chat_id    {int} PRIMARY KEY,
        held_until {real} NOT NULL
    )""",
)

STEP = SchemaStep(
    "WhatsApp's windows, sent messages and shared send limits",
    _WHATSAPP_SENDING,
    shared_only=_SHARED_WHATSAPP_LIMITS,
)

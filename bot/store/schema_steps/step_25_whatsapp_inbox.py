"""Schema step 25: the WhatsApp inbox, where each webhook message is stored before its 200."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_WHATSAPP_INBOX = (
    # What Meta pushed to POST /whatsapp (``bot.store.whatsapp_inbox``), stored before the
    # 200: ``seq`` numbers the rows as they were stored (a chat's are handled in that order,
    # recorded handled in ``seen_updates`` as ``-seq``); ``item_key`` drops Meta's repeats: a
    # message's id (``wamid.…``), or ``<status>:<wamid>`` for a status of one the bot sent;
    # ``kind`` says which (``message``, ``status``); ``chat_id`` the customer's number
    # (``wa_id``); ``body`` the one message with its sender's profile, or the one status, as
    # JSON, and NULL once handled (the key is kept 7 days: Meta redelivers for days).
    """CREATE TABLE whatsapp_inbox (
        seq         {serial_key},
        item_key    TEXT NOT NULL UNIQUE,
        kind        TEXT NOT NULL,
        chat_id     {int} NOT NULL,
        body        TEXT,
        received_at {real} NOT NULL
    )""",
    "CREATE INDEX whatsapp_inbox_by_chat ON whatsapp_inbox (chat_id, seq)",
    "CREATE INDEX whatsapp_inbox_by_age ON whatsapp_inbox (received_at)",
)

STEP = SchemaStep(
    "the WhatsApp inbox, where each webhook message is stored before its 200", _WHATSAPP_INBOX
)

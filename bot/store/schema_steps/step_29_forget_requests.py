"""Schema step 29: customers who asked to be forgotten while a delivery of theirs was still
open, and the indexes that find one customer's rows for their export and their erasure
(``bot.store.customer_data``)."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_FORGET_REQUESTS = (
    # One row per customer whose "forget me" waits for their open deliveries to end: what could
    # be erased was at once, the rest is when the retention job finds them all ended
    # (``CustomerData.complete_pending``). ``tombstone_key`` is the random key their anonymised
    # rows' stand-in ids are derived from, so the deliveries erased now and those erased later
    # count as one anonymous customer; it goes with the row, and then nothing links them.
    """CREATE TABLE forget_requests (
        channel       TEXT NOT NULL,
        user_id       {int} NOT NULL,
        requested_at  {real} NOT NULL,
        tombstone_key TEXT NOT NULL,
        PRIMARY KEY (channel, user_id)
    )""",
    # A customer's chats, wherever a row names them only by their chat: the sent markers (kept
    # a month, a few per message), WhatsApp's sent messages (by the customer's number), the
    # agent conversations of an agent channel's customer; and the audit entries a customer
    # made (their answer to a quote). Without these each erasure reads the whole table.
    "CREATE INDEX sent_messages_by_chat ON sent_messages (channel, chat_id)",
    "CREATE INDEX whatsapp_sent_by_chat ON whatsapp_sent (wa_id)",
    "CREATE INDEX agent_conversations_by_customer ON agent_conversations (customer_seq)",
    "CREATE INDEX audit_trail_by_actor ON audit_trail (actor, at)",
)

# PostgreSQL's planner takes a table never analyzed for ten pages of rows; analyzed, the new
# table is known empty (autovacuum keeps it known once rows come and go).
_SHARED = ("ANALYZE forget_requests",)

STEP = SchemaStep(
    "customers waiting to be forgotten; one customer's rows found", _FORGET_REQUESTS, _SHARED
)

"""Schema step 20: what the operators' console lists of each delivery, and its indexes."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_LISTED = (
    # What the console's deliveries list shows and searches (``bot.store.delivery_list``),
    # kept from the create's answer and each newer event (``store.deliveries``): the fee and
    # its currency, the rider, the sender's name and phone on the order; and when the relay
    # gave up sending an event's news about the delivery (``store.relayed``).
    "ALTER TABLE deliveries ADD COLUMN fee {real}",
    "ALTER TABLE deliveries ADD COLUMN currency TEXT",
    "ALTER TABLE deliveries ADD COLUMN rider_id TEXT",
    "ALTER TABLE deliveries ADD COLUMN rider_name TEXT",
    "ALTER TABLE deliveries ADD COLUMN customer_name TEXT",
    "ALTER TABLE deliveries ADD COLUMN sender_phone TEXT",
    "ALTER TABLE deliveries ADD COLUMN news_failed_at {real}",
    # Newest first, a page after another by (created_at, delivery_id): every filter of the
    # list reads one of these in that order and stops after a page.
    "CREATE INDEX deliveries_newest ON deliveries (created_at, delivery_id)",
    "CREATE INDEX deliveries_by_status ON deliveries (status, created_at, delivery_id)",
    "CREATE INDEX deliveries_by_channel ON deliveries (channel, created_at, delivery_id)",
    # A phone searched is one of these, or a customer's proven one (``contacts``).
    "CREATE INDEX deliveries_by_receiver_phone ON deliveries (receiver_phone)",
    "CREATE INDEX deliveries_by_sender_phone ON deliveries (sender_phone)",
    "CREATE INDEX contacts_by_phone ON contacts (phone_e164)",
)

STEP = SchemaStep("what the operators' console lists of each delivery", _LISTED)

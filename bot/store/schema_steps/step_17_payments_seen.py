"""Schema step 17: when each delivery's fee was seen paid."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_PAYMENTS_SEEN = (
    # When the relay first saw a delivery's fee paid (``payment.delivery_payment_status``
    # "paid" in an event); NULL while it is not, for ``[limits] unpaid_deliveries``.
    "ALTER TABLE deliveries ADD COLUMN paid_at {real}",
)

STEP = SchemaStep("when each delivery's fee was seen paid", _PAYMENTS_SEEN)

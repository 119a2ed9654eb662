"""Schema step 3: pending drop-off codes by receiver phone."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_OTP_BY_RECEIVER = (
    # The codes still waiting for a receiver, by phone, oldest first: what a user's proven
    # contact is matched against (``store.otp.pending_for_phone``) without reading the table.
    """CREATE INDEX otp_handoffs_pending_by_phone
        ON otp_handoffs (receiver_phone, created, delivery_id) WHERE code IS NOT NULL""",
)

STEP = SchemaStep("pending drop-off codes by receiver phone", _OTP_BY_RECEIVER)

"""Drop-off codes waiting to be handed to the delivery's receiver.

A ``delivery.otp_issued`` event carries the code; it may be sent only to the receiver. When the
customer's own verified phone is the receiver phone the relay sends it straight away. Otherwise
the code waits here and the customer gets a deep link carrying an unguessable token to forward;
whoever opens it must share their own contact with a phone equal to ``receiver_phone`` before
the code is sent to them.

The code is stored only until then: ``mark_delivered`` erases it (the row stays, so a second tap
on the link can be told the code was already sent), and ``discard`` removes the row once the
delivery is finished. A newer event for the same delivery (a resend) replaces the code, keeps
the token (so a link already forwarded still works) and makes it pending again; an event no
newer than the stored one is a replay and changes nothing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store.database import Row
from bot.store.store_backend import StoreDatabase
from bot.store.store_errors import UnknownDeliveryError

# token_urlsafe(32) is 43 characters: with a short prefix it fits Telegram's 64-character
# /start payload, which allows only A-Z, a-z, 0-9, _ and -, all of which the token uses.
_TOKEN_BYTES = 32


@dataclass(frozen=True)
class OtpHandoff:
    """A delivery's drop-off code and how far its hand-off has got."""

    delivery_id: str
    # Kept out of repr(): whoever holds the token or the code can take the delivery.
    token: str = field(repr=False)
    code: str | None = field(repr=False)  # None once delivered to the receiver
    receiver_phone: str
    created: int
    delivered_at: float | None
    delivered_chat: ChatRef | None

    @property
    def pending(self) -> bool:
        """Whether the code still waits for its receiver."""
        return self.code is not None


_DELIVERY_EXISTS = "SELECT 1 FROM deliveries WHERE delivery_id = ?"
_PUT = """INSERT INTO otp_handoffs (delivery_id, token, code, receiver_phone, created)
    VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (delivery_id) DO UPDATE
    SET code = excluded.code, receiver_phone = excluded.receiver_phone,
        created = excluded.created, delivered_at = NULL, delivered_channel = NULL,
        delivered_chat_id = NULL
    WHERE excluded.created > otp_handoffs.created"""
_GET = """SELECT delivery_id, token, code, receiver_phone, created, delivered_at,
        delivered_channel, delivered_chat_id
    FROM otp_handoffs WHERE delivery_id = ?"""
_GET_BY_LINK = """SELECT delivery_id, token, code, receiver_phone, created, delivered_at,
        delivered_channel, delivered_chat_id
    FROM otp_handoffs WHERE token = ?"""
# Answered from the partial index otp_handoffs_pending_by_phone (migration 3), in its order.
_PENDING_FOR_PHONE = """SELECT delivery_id, token, code, receiver_phone, created, delivered_at,
        delivered_channel, delivered_chat_id
    FROM otp_handoffs WHERE receiver_phone = ? AND code IS NOT NULL
    ORDER BY created, delivery_id"""
_MARK_DELIVERED = """UPDATE otp_handoffs
    SET code = NULL, delivered_at = ?, delivered_channel = ?, delivered_chat_id = ?
    WHERE delivery_id = ? AND code = ?"""
_DISCARD = "DELETE FROM otp_handoffs WHERE delivery_id = ?"
_PRUNE = "DELETE FROM otp_handoffs WHERE created < ?"


class OtpHandoffs:
    """``store.otp``: codes between the ``otp_issued`` event and the receiver's chat."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def put(
        self, delivery_id: str, code: str, receiver_phone: str, created: int
    ) -> OtpHandoff:
        """Keep the event's code for the receiver; return the hand-off with its link token.

        Raises ``UnknownDeliveryError`` for a delivery not linked through ``store.deliveries``
        (there is no customer to hand a link to).
        """
        async with self._db.transaction() as tx:
            if await tx.fetch_one(_DELIVERY_EXISTS, (delivery_id,)) is None:
                raise UnknownDeliveryError(delivery_id)
            token = secrets.token_urlsafe(_TOKEN_BYTES)
            await tx.execute(_PUT, (delivery_id, token, code, receiver_phone, created))
            row = await tx.fetch_one(_GET, (delivery_id,))
        assert row is not None  # written in the same transaction
        return _handoff(row)

    async def get(self, delivery_id: str) -> OtpHandoff | None:
        """The delivery's hand-off, or None."""
        row = await self._db.fetch_one(_GET, (delivery_id,))
        return _handoff(row) if row else None

    async def get_by_token(self, token: str) -> OtpHandoff | None:
        """The hand-off a deep link points at, or None for an unknown token.

        Nothing is consumed: the receiver must still prove their phone, and the code is erased
        only by ``mark_delivered``.
        """
        row = await self._db.fetch_one(_GET_BY_LINK, (token,))
        return _handoff(row) if row else None

    async def pending_for_phone(self, phone_e164: str) -> list[OtpHandoff]:
        """Hand-offs whose code still waits for the receiver with this (normalised) phone,
        oldest code first.

        The relay stores ``receiver_phone`` in E.164 whenever it parses, so pass the number a
        user proved with their own contact, normalised the same way.
        """
        rows = await self._db.fetch_all(_PENDING_FOR_PHONE, (phone_e164,))
        return [_handoff(row) for row in rows]

    async def mark_delivered(self, delivery_id: str, code: str, chat: ChatRef) -> bool:
        """Erase ``code`` after it reached the receiver's chat ``chat``.

        ``code`` must be the one that was sent: if a resend replaced it meanwhile, the new code
        stays pending and False is returned.
        """
        params = (self._clock(), chat.channel, chat.id, delivery_id, code)
        return await self._db.execute(_MARK_DELIVERED, params) > 0

    async def discard(self, delivery_id: str) -> bool:
        """Remove the hand-off (the delivery is delivered or cancelled)."""
        return await self._db.execute(_DISCARD, (delivery_id,)) > 0

    async def prune(self, before: float) -> int:
        """Remove hand-offs whose code was issued before ``before``; return how many."""
        return await self._db.execute(_PRUNE, (before,))


def _handoff(row: Row) -> OtpHandoff:
    return OtpHandoff(
        delivery_id=str(row[0]),
        token=str(row[1]),
        code=None if row[2] is None else str(row[2]),
        receiver_phone=str(row[3]),
        created=int(row[4]),
        delivered_at=None if row[5] is None else float(row[5]),
        delivered_chat=None if row[7] is None else ChatRef(str(row[6]), int(row[7])),
    )

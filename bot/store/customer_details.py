"""What a returning customer is offered again, one row per user: their name, phone and last
places, kept after each created delivery (``ChatService``) and read when they start the next.

The row is the conversations package's ``Remembered`` as JSON text; like ``sessions``, the store
keeps the text and never imports the model. Rows are keyed by the user, so one customer's
details are never offered to another.
"""

from __future__ import annotations

from bot.chat_ref import UserRef
from bot.clocks import Clock
from bot.store.store_backend import StoreDatabase

_GET = "SELECT data FROM customer_details WHERE channel = ? AND user_id = ?"
_PUT = """INSERT INTO customer_details (channel, user_id, data, updated_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (channel, user_id) DO UPDATE
    SET data = excluded.data, updated_at = excluded.updated_at"""
_FORGET = "DELETE FROM customer_details WHERE channel = ? AND user_id = ?"


class CustomerDetails:
    """``store.customers``: each user's remembered details, as JSON text."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def get(self, user: UserRef) -> str | None:
        """The user's remembered details, or None for a customer who has not ordered yet."""
        row = await self._db.fetch_one(_GET, (user.channel, user.id))
        return str(row[0]) if row else None

    async def put(self, user: UserRef, data_json: str) -> None:
        """Replace the user's remembered details (stamped with the store's clock)."""
        await self._db.execute(_PUT, (user.channel, user.id, data_json, self._clock()))

    async def forget(self, user: UserRef) -> bool:
        """Drop the user's remembered details; True when there were some."""
        return await self._db.execute(_FORGET, (user.channel, user.id)) > 0

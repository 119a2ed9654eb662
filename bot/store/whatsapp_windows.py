"""WhatsApp's customer-service windows: when each customer last wrote.

WhatsApp lets a business send any message to a customer for 24 hours after the customer's
last message; after that only an approved template. The moment is kept in the store, not in a
process: the message that opens a window may reach one instance while the news goes out from
another. ``wrote`` never moves a window back (messages may be handled out of arrival order
across chats, and a redelivered one is older than the newest).
"""

from __future__ import annotations

from bot.clocks import Clock
from bot.store.store_backend import StoreDatabase

_WROTE = """INSERT INTO whatsapp_windows (wa_id, last_message_at) VALUES (?, ?)
    ON CONFLICT (wa_id) DO UPDATE
    SET last_message_at = CASE WHEN excluded.last_message_at > whatsapp_windows.last_message_at
        THEN excluded.last_message_at ELSE whatsapp_windows.last_message_at END"""
_LAST = "SELECT last_message_at FROM whatsapp_windows WHERE wa_id = ?"
_FORGET = "DELETE FROM whatsapp_windows WHERE last_message_at < ?"


class WhatsAppWindows:
    """``store.whatsapp_windows``: each WhatsApp customer's last message time (Unix seconds),
    by their number (``wa_id`` as an integer: the chat's id)."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def wrote(self, wa_id: int, at: float) -> None:
        """The customer ``wa_id`` sent a message at ``at``; a later one already kept stays."""
        await self._db.execute(_WROTE, (wa_id, at))

    async def last_message_at(self, wa_id: int) -> float | None:
        """When ``wa_id`` last wrote, or None if never (or forgotten)."""
        row = await self._db.fetch_one(_LAST, (wa_id,))
        return None if row is None else float(row[0])

    async def forget_before(self, cutoff: float) -> int:
        """Drop the windows closed since before ``cutoff``; how many."""
        return await self._db.execute(_FORGET, (cutoff,))

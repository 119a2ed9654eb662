"""What the bot sent on WhatsApp, kept until its fate is known.

The Cloud API accepts a message (it answers its ``wamid``) before it is delivered, and may
report it ``failed`` later, in a status webhook: 131047 when the customer-service window had
closed by then, which the bot answers by sending the same news as a template. So each message
the bot sends is recorded by its id: its chat, what it was (``kind``: ``news``, ``reply``,
``turn``), the delivery it was about (``reference``), and while it may have to go again its
text (``body``, erased once WhatsApp says it was delivered or read, or once followed up).

A failed status may be redelivered, and may reach any instance: ``take_failed`` hands a
message's failure to one follower, once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from bot.clocks import Clock
from bot.store.database import Row
from bot.store.store_backend import StoreDatabase

SENT: Final = "sent"
FAILED: Final = "failed"

_RECORD = """INSERT INTO whatsapp_sent
    (message_id, wa_id, kind, reference, body, attempts, status, sent_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO NOTHING"""
_GET = """SELECT message_id, wa_id, kind, reference, body, attempts, status
    FROM whatsapp_sent WHERE message_id = ?"""
# ``failed`` is final: a later "delivered" redelivered out of order does not undo it.
_MARK = """UPDATE whatsapp_sent SET status = ?, body = NULL
    WHERE message_id = ? AND status <> 'failed'"""
_TAKE_FAILED = """UPDATE whatsapp_sent SET status = 'failed', body = NULL
    WHERE message_id = ? AND status <> 'failed'
    RETURNING message_id, wa_id, kind, reference, body, attempts, status"""
_FORGET = "DELETE FROM whatsapp_sent WHERE sent_at < ?"


@dataclass(frozen=True)
class SentRecord:
    """One message the bot sent: see the module docstring. ``body`` is None once it need not
    go again."""

    message_id: str
    wa_id: int
    kind: str
    reference: str
    body: str | None = field(repr=False)
    attempts: int
    status: str


def _record(row: Row) -> SentRecord:
    message_id, wa_id, kind, reference, body, attempts, status = row
    return SentRecord(message_id, int(wa_id), kind, reference, body, int(attempts), status)


class WhatsAppSent:
    """``store.whatsapp_sent``: see the module docstring."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def record(
        self,
        message_id: str,
        wa_id: int,
        *,
        kind: str,
        reference: str = "",
        body: str | None = None,
        attempts: int = 1,
    ) -> None:
        """The message ``message_id`` went to ``wa_id`` now (a repeated id is kept as first)."""
        params = (message_id, wa_id, kind, reference, body, attempts, SENT, self._clock())
        await self._db.execute(_RECORD, params)

    async def get(self, message_id: str) -> SentRecord | None:
        """The message the bot sent as ``message_id``, or None (not the bot's, or forgotten)."""
        row = await self._db.fetch_one(_GET, (message_id,))
        return None if row is None else _record(row)

    async def mark(self, message_id: str, status: str) -> bool:
        """WhatsApp says ``message_id`` is ``status`` (``delivered``, ``read``): its text is no
        longer needed. False when unknown or failed already."""
        return await self._db.execute(_MARK, (status, message_id)) > 0

    async def take_failed(self, message_id: str) -> SentRecord | None:
        """Mark ``message_id`` failed and return it as it was (its text included), for the one
        caller that follows the failure up; None when it is unknown or was taken already."""
        # The text is read before the update erases it (RETURNING gives the new row).
        before = await self.get(message_id)
        if before is None or before.status == FAILED:
            return None
        row = await self._db.fetch_one(_TAKE_FAILED, (message_id,))
        return None if row is None else before

    async def forget_before(self, cutoff: float) -> int:
        """Drop the messages sent before ``cutoff``; how many."""
        return await self._db.execute(_FORGET, (cutoff,))

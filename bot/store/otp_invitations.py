"""``store.otp_invitations``: which chat opened which drop-off code hand-off link.

Opening a hand-off link (``bot.ordering.receiver_handoff``) asks the chat to share its own
contact; what the chat shares next is read against the link's hand-off. The invitation is kept
here, not in one process's memory, because with several instances the contact may reach
another one than the link did. A chat has one invitation at a time (a later link replaces
it); it lasts until ``expires_at`` and is closed once the hand-off is over.
"""

from __future__ import annotations

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store.store_backend import StoreDatabase

_OPEN = """INSERT INTO otp_invitations (channel, chat_id, token, expires_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (channel, chat_id) DO UPDATE
    SET token = excluded.token, expires_at = excluded.expires_at"""
_OPENED = """SELECT token FROM otp_invitations
    WHERE channel = ? AND chat_id = ? AND expires_at > ?"""
_CLOSE = "DELETE FROM otp_invitations WHERE channel = ? AND chat_id = ?"
_PRUNE = "DELETE FROM otp_invitations WHERE expires_at <= ?"


class OtpInvitations:
    """See the module docstring; times are the store clock's (unix seconds)."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def open(self, chat: ChatRef, token: str, *, ttl: float) -> None:
        """``chat`` opened the link of ``token``, for ``ttl`` seconds."""
        await self._db.execute(_OPEN, (chat.channel, chat.id, token, self._clock() + ttl))

    async def token_for(self, chat: ChatRef) -> str | None:
        """The token of the link ``chat`` opened and has not finished with, if any."""
        row = await self._db.fetch_one(_OPENED, (chat.channel, chat.id, self._clock()))
        return None if row is None else str(row[0])

    async def close(self, chat: ChatRef) -> None:
        """The hand-off in ``chat`` is over (code sent, or refused for good)."""
        await self._db.execute(_CLOSE, (chat.channel, chat.id))

    async def prune(self, now: float) -> int:
        """Drop the invitations expired by ``now``; how many."""
        return await self._db.execute(_PRUNE, (now,))

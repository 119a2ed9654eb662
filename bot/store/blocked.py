"""Chats that blocked the bot (Telegram answered ``Forbidden``), so sends to them are skipped."""

from __future__ import annotations

from bot.store.database import Clock, Database

_MARK = """INSERT INTO blocked_chats (chat_id, blocked_at) VALUES (?, ?)
    ON CONFLICT (chat_id) DO NOTHING"""
_IS_BLOCKED = "SELECT 1 FROM blocked_chats WHERE chat_id = ?"
_CLEAR = "DELETE FROM blocked_chats WHERE chat_id = ?"


class BlockedChats:
    """``store.blocked``: mark on ``Forbidden``, clear when the user writes to the bot again."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def mark(self, chat_id: int) -> None:
        """Record that sending to ``chat_id`` is forbidden (keeps the first time it happened)."""
        await self._db.execute(_MARK, (chat_id, self._clock()))

    async def is_blocked(self, chat_id: int) -> bool:
        """Whether the chat is marked blocked."""
        return await self._db.fetch_one(_IS_BLOCKED, (chat_id,)) is not None

    async def clear(self, chat_id: int) -> bool:
        """Unmark the chat; True when it was marked."""
        return await self._db.execute(_CLEAR, (chat_id,)) > 0

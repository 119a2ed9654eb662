"""Chats that blocked the bot (Telegram answered ``Forbidden``), so sends to them are skipped.

Every update asks whether its chat is marked (to clear the mark of a user who writes again),
and every relayed message asks before it is sent; almost always the answer is no. The marked
ids are therefore kept in memory too, read once when the store opens, so those questions cost
no SQL: one process owns the store, and every mark and clear goes through this object.

On PostgreSQL other instances mark and clear too, so a memory of this instance's could keep
dropping the messages of a chat that wrote again through another one: there each question is a
primary-key lookup instead.
"""

from __future__ import annotations

from bot.clocks import Clock
from bot.store.store_backend import StoreDatabase, dialect_of

_MARK = """INSERT INTO blocked_chats (chat_id, blocked_at) VALUES (?, ?)
    ON CONFLICT (chat_id) DO NOTHING"""
_ALL = "SELECT chat_id FROM blocked_chats"
_CLEAR = "DELETE FROM blocked_chats WHERE chat_id = ?"
_IS_MARKED = "SELECT 1 FROM blocked_chats WHERE chat_id = ?"


class BlockedChats:
    """``store.blocked``: mark on ``Forbidden``, clear when the user writes to the bot again."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        self._marked: set[int] = set()
        self._shared = dialect_of(db) == "postgres"  # several instances mark and clear

    async def load(self) -> None:
        """Read the marks already in the database (the store calls it once, when it opens)."""
        self._marked = {int(row[0]) for row in await self._db.fetch_all(_ALL)}

    async def mark(self, chat_id: int) -> None:
        """Record that sending to ``chat_id`` is forbidden (keeps the first time it happened)."""
        await self._db.execute(_MARK, (chat_id, self._clock()))
        self._marked.add(chat_id)

    async def is_blocked(self, chat_id: int) -> bool:
        """Whether the chat is marked blocked."""
        if self._shared:
            return await self._db.fetch_one(_IS_MARKED, (chat_id,)) is not None
        return chat_id in self._marked

    async def clear(self, chat_id: int) -> bool:
        """Unmark the chat; True when it was marked (on SQLite no SQL at all when it was not)."""
        if self._shared:
            self._marked.discard(chat_id)
            return await self._db.execute(_CLEAR, (chat_id,)) > 0
        if chat_id not in self._marked:
            return False
        await self._db.execute(_CLEAR, (chat_id,))
        self._marked.discard(chat_id)
        return True

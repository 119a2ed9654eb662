"""Chats that blocked the bot (Telegram answered ``Forbidden``), so sends to them are skipped.

Every update asks whether its chat is marked (to clear the mark of a user who writes again),
and every relayed message asks before it is sent; almost always the answer is no. The marked
ids are therefore kept in memory too, read once when the store opens, so those questions cost
no SQL: one process owns the store, and every mark and clear goes through this object.

The memory copy is bounded: past ``memory_limit`` marks (a bot blocked by that many chats is
rare, and a set of them would grow with every one) it is dropped and the table is asked
instead, one indexed lookup per question. On PostgreSQL other instances mark and clear too, so
a memory of this instance's could keep dropping the messages of a chat that wrote again through
another one: there the table always answers.
"""

from __future__ import annotations

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store.delivery_changes import note_chat_changed
from bot.store.store_backend import StoreDatabase

_MARK = """INSERT INTO blocked_chats (channel, chat_id, blocked_at) VALUES (?, ?, ?)
    ON CONFLICT (channel, chat_id) DO NOTHING"""
_FIRST = "SELECT channel, chat_id FROM blocked_chats LIMIT ?"
_IS_MARKED = "SELECT 1 FROM blocked_chats WHERE channel = ? AND chat_id = ?"
_CLEAR = "DELETE FROM blocked_chats WHERE channel = ? AND chat_id = ?"
# Marks older than a limit, on chats that ordered nothing since: kept no longer than the
# customer's other remembered details (on WhatsApp the chat's id is their phone number).
_PAST_TIME = """SELECT b.channel, b.chat_id FROM blocked_chats b WHERE b.blocked_at < ?
    AND NOT EXISTS (SELECT 1 FROM deliveries d
        WHERE d.channel = b.channel AND d.chat_id = b.chat_id AND d.created_at >= ?)
    ORDER BY b.blocked_at LIMIT ?"""
_CLEAR_PAST_TIME = """DELETE FROM blocked_chats
    WHERE channel = ? AND chat_id = ? AND blocked_at < ?"""

MEMORY_LIMIT = 50_000  # marks kept in memory (a few MB at most); beyond it SQLite answers


class BlockedChats:
    """``store.blocked``: mark on ``Forbidden``, clear when the user writes to the bot again."""

    def __init__(
        self,
        db: StoreDatabase,
        clock: Clock,
        *,
        shared: bool = False,
        memory_limit: int = MEMORY_LIMIT,
    ) -> None:
        self._db = db
        self._clock = clock
        self._memory_limit = memory_limit
        self._shared = shared  # several instances mark and clear
        # None: the table answers (too many to keep, or shared with other instances).
        self._marked: set[ChatRef] | None = None if self._shared else set()

    async def load(self) -> None:
        """Read the marks already in the database (the store calls it once, when it opens)."""
        if self._shared:
            return
        rows = await self._db.fetch_all(_FIRST, (self._memory_limit + 1,))
        marked = {ChatRef(str(row[0]), int(row[1])) for row in rows}
        self._marked = marked if len(marked) <= self._memory_limit else None

    async def mark(self, chat: ChatRef) -> None:
        """Record that sending to ``chat`` is forbidden (keeps the first time it happened)."""
        if await self._db.execute(_MARK, (chat.channel, chat.id, self._clock())):
            await note_chat_changed(self._db, chat)  # its deliveries' news now fails
        if self._marked is not None:
            self._marked.add(chat)
            if len(self._marked) > self._memory_limit:
                self._marked = None

    async def is_blocked(self, chat: ChatRef) -> bool:
        """Whether the chat is marked blocked."""
        if self._marked is not None:
            return chat in self._marked
        return await self._db.fetch_one(_IS_MARKED, (chat.channel, chat.id)) is not None

    async def clear(self, chat: ChatRef) -> bool:
        """Unmark the chat; True when it was marked (no SQL at all when it was not and the
        marks are in memory)."""
        if self._marked is not None:
            if chat not in self._marked:
                return False
            await self._cleared(chat)
            self._marked.discard(chat)
            return True
        return await self._cleared(chat)

    async def prune(self, before: float, *, batch: int) -> int:
        """Drop the marks made before ``before`` on chats that ordered nothing since, ``batch``
        at a time (the retention's ``customer_details`` kind); how many went. A chat still
        unreachable is marked again by the next send that fails."""
        removed = 0
        while True:
            rows = await self._db.fetch_all(_PAST_TIME, (before, before, batch))
            for channel, chat_id in rows:
                chat = ChatRef(str(channel), int(chat_id))
                if await self._db.execute(_CLEAR_PAST_TIME, (chat.channel, chat.id, before)):
                    removed += 1
                    await note_chat_changed(self._db, chat)
                if self._marked is not None:
                    self._marked.discard(chat)
            if len(rows) < batch:
                return removed

    async def _cleared(self, chat: ChatRef) -> bool:
        if await self._db.execute(_CLEAR, (chat.channel, chat.id)) == 0:
            return False
        await note_chat_changed(self._db, chat)
        return True

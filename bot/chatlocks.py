"""``ChatLocks``: one ``asyncio.Lock`` per chat, made on demand and forgotten after use.

The chat service (``bot.ordering``) runs one chat's turns in order with it, the Telegram update
processor one chat's updates, and the Telegram sender keeps one chat's messages together: all
need the same shape of lock table, bounded by the chats in use rather than every chat ever seen.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from typing import Protocol


class ChatTurnLocks(Protocol):
    """What keeps one chat's work one at a time: ``ChatLocks`` in one process,
    ``bot.store.pg_chat_locks.PgChatLocks`` across instances on PostgreSQL."""

    def hold(self, chat_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Wait for the chat's turn and keep it for the block."""
        ...


class ChatLocks:
    """One ``asyncio.Lock`` per chat that someone holds or waits for; forgotten after."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: Counter[int] = Counter()

    @contextlib.asynccontextmanager
    async def hold(self, chat_id: int) -> AsyncIterator[None]:
        """Hold ``chat_id``'s lock; waiters get it in the order they asked (FIFO)."""
        lock = self._locks.setdefault(chat_id, asyncio.Lock())
        self._users[chat_id] += 1
        try:
            async with lock:
                yield
        finally:
            self._users[chat_id] -= 1
            if not self._users[chat_id]:
                del self._users[chat_id], self._locks[chat_id]

"""``ChatLocks``: one ``asyncio.Lock`` per chat, made on demand and forgotten after use.

The chat service (``bot.ordering``) runs one chat's turns in order with it, the Telegram update
processor one chat's updates, and the Telegram sender keeps one chat's messages together: all
need the same shape of lock table, bounded by the chats in use rather than every chat ever seen.

A hold is re-entrant for the task that has it: a Telegram turn holds its chat in the update
processor and then calls the chat service, which holds the same chat again (and an agent channel
holds it around a whole answer). The owner is the task, not the context: a task started inside
a hold (a create re-sent later) copies the context but must still wait its turn.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any, Protocol


class ChatTurnLocks(Protocol):
    """What keeps one chat's work one at a time: ``ChatLocks`` in one process,
    ``bot.store.pg_chat_locks.PgChatLocks`` on a store several processes share."""

    def hold(self, chat_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Wait for the chat's turn and keep it for the block (at once when the current task
        holds it already)."""
        ...


class ChatLocks:
    """One ``asyncio.Lock`` per chat that someone holds or waits for; forgotten after."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: Counter[int] = Counter()
        self._owners: dict[int, asyncio.Task[Any]] = {}

    def holds(self, chat_id: int) -> bool:
        """Whether the current task holds ``chat_id``'s lock."""
        owner = self._owners.get(chat_id)
        return owner is not None and owner is asyncio.current_task()

    @contextlib.asynccontextmanager
    async def hold(self, chat_id: int) -> AsyncIterator[None]:
        """Hold ``chat_id``'s lock; waiters get it in the order they asked (FIFO). The task
        that holds it already goes on at once (re-entrant)."""
        if self.holds(chat_id):
            yield
            return
        lock = self._locks.setdefault(chat_id, asyncio.Lock())
        self._users[chat_id] += 1
        try:
            async with lock:
                task = asyncio.current_task()
                if task is not None:
                    self._owners[chat_id] = task
                try:
                    yield
                finally:
                    self._owners.pop(chat_id, None)
        finally:
            self._users[chat_id] -= 1
            if not self._users[chat_id]:
                del self._users[chat_id], self._locks[chat_id]

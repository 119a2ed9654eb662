"""``ChatLocks``: one ``asyncio.Lock`` per chat, made on demand and forgotten after use.

A chat is a ``ChatRef``: the same id in two channels names two chats, with two locks.

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

from bot.chat_ref import ChatRef


class ChatTurnLocks(Protocol):
    """What keeps one chat's work one at a time: ``ChatLocks`` in one process,
    ``bot.store.pg_chat_locks.PgChatLocks`` on a store several processes share."""

    def hold(self, chat: ChatRef) -> contextlib.AbstractAsyncContextManager[None]:
        """Wait for the chat's turn and keep it for the block (at once when the current task
        holds it already)."""
        ...


class ChatLocks:
    """One ``asyncio.Lock`` per chat that someone holds or waits for; forgotten after."""

    def __init__(self) -> None:
        self._locks: dict[ChatRef, asyncio.Lock] = {}
        self._users: Counter[ChatRef] = Counter()
        self._owners: dict[ChatRef, asyncio.Task[Any]] = {}

    def holds(self, chat: ChatRef) -> bool:
        """Whether the current task holds ``chat``'s lock."""
        owner = self._owners.get(chat)
        return owner is not None and owner is asyncio.current_task()

    @contextlib.asynccontextmanager
    async def hold(self, chat: ChatRef) -> AsyncIterator[None]:
        """Hold ``chat``'s lock; waiters get it in the order they asked (FIFO). The task
        that holds it already goes on at once (re-entrant)."""
        if self.holds(chat):
            yield
            return
        lock = self._locks.setdefault(chat, asyncio.Lock())
        self._users[chat] += 1
        try:
            async with lock:
                task = asyncio.current_task()
                if task is not None:
                    self._owners[chat] = task
                try:
                    yield
                finally:
                    self._owners.pop(chat, None)
        finally:
            self._users[chat] -= 1
            if not self._users[chat]:
                del self._users[chat], self._locks[chat]

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
        # chat -> its lock and how many tasks hold it or wait for it
        self._held: dict[ChatRef, _ChatLock] = {}
        self._owners: dict[ChatRef, asyncio.Task[Any]] = {}

    def holds(self, chat: ChatRef) -> bool:
        """Whether the current task holds ``chat``'s lock."""
        owner = self._owners.get(chat)
        return owner is not None and owner is asyncio.current_task()

    def hold(self, chat: ChatRef) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold ``chat``'s lock; waiters get it in the order they asked (FIFO). The task
        that holds it already goes on at once (re-entrant)."""
        return _Hold(self, chat)


class _ChatLock:
    """A chat's lock and the number of tasks that hold it or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class _Hold:
    """One ``ChatLocks.hold``: a class rather than a generator-based context manager, as a
    turn takes its chat's lock several times (processor, chat service, sender)."""

    __slots__ = ("_chat", "_entry", "_locks")

    def __init__(self, locks: ChatLocks, chat: ChatRef) -> None:
        self._locks = locks
        self._chat = chat
        self._entry: _ChatLock | None = None  # None: re-entered, nothing to let go of

    async def __aenter__(self) -> None:
        locks, chat = self._locks, self._chat
        task = asyncio.current_task()
        owner = locks._owners.get(chat)
        if owner is not None and owner is task:
            return
        entry = locks._held.get(chat)
        if entry is None:
            entry = locks._held[chat] = _ChatLock()
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:
            self._leave(entry)
            raise
        self._entry = entry
        if task is not None:
            locks._owners[chat] = task

    async def __aexit__(self, *exc_info: object) -> None:
        entry = self._entry
        if entry is None:
            return
        self._locks._owners.pop(self._chat, None)
        entry.lock.release()
        self._leave(entry)

    def _leave(self, entry: _ChatLock) -> None:
        entry.users -= 1
        if not entry.users:
            del self._locks._held[self._chat]

"""``PgChatLocks``: one chat's turns one at a time across every instance on the database.

Telegram may hand two updates of one chat to two instances behind the load balancer. Each
instance first queues the chat's work on its own ``ChatLocks`` (FIFO, no database traffic for
work that waits behind a turn of the same instance), then takes the chat's PostgreSQL advisory
lock (``pg_advisory_lock(chat_id)``) and holds it for the whole turn: load the session, run the
engine, save it. The other instance waits in the server's lock queue.

The lock belongs to a database session, so an instance that dies mid-turn loses it with its
connections and the next instance goes on at once. The locks use a pool of their own: a chat
waiting for its lock holds a connection while it waits, and must never take one that a running
turn needs for its statements (that would deadlock once every pooled connection waited).
asyncpg releases all advisory locks of a connection when it goes back to the pool, so a turn
cancelled half-way cannot leave its chat locked.

A task that holds a chat already goes on at once (the update processor holds the chat, then the
chat service holds it again for the turn). That is checked before a connection is taken: the
held advisory lock belongs to another pooled connection's session, so asking for it again on a
second connection would wait for itself forever.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import asyncpg

from bot.chatlocks import ChatLocks

_LOCK = "SELECT pg_advisory_lock($1)"
_UNLOCK = "SELECT pg_advisory_unlock($1)"


class PgChatLocks:
    """``hold(chat_id)`` for the length of a turn; see the module docstring."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool
        self._local = ChatLocks()

    @classmethod
    async def connect(cls, dsn: str, *, pool_size: int) -> PgChatLocks:
        """A pool of ``pool_size`` lock connections: that many chats may hold or wait for
        their lock at once in this instance; the others wait for a connection."""
        return cls(await asyncpg.create_pool(dsn, min_size=1, max_size=pool_size))

    @contextlib.asynccontextmanager
    async def hold(self, chat_id: int) -> AsyncIterator[None]:
        """This instance's queue for the chat first, then the database-wide lock; at once
        when the current task holds the chat already."""
        if self._local.holds(chat_id):
            yield
            return
        async with self._local.hold(chat_id), self._pool.acquire() as conn:
            await conn.execute(_LOCK, chat_id)
            try:
                yield
            finally:
                # A failed unlock is undone by the pool's reset of the connection on release.
                with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError):
                    await conn.execute(_UNLOCK, chat_id)

    async def close(self) -> None:
        """Close the lock connections (any lock still held is released with them)."""
        await self._pool.close()

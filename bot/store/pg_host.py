"""``PgHost``: one PostgreSQL database's connections, shared by the stores of every business
a host serves on it.

A store opened alone (``Store.connect_postgres``) opens a pool of ``pool_size`` connections, a
chat-lock connection with a pool of its own, and a leadership connection: a host with 1,000
businesses in 1,000 schemas of one database cannot do that 1,000 times (the server's
``max_connections`` is 100 by default, and each connection costs it megabytes). So a host
opens these once, and each business's store borrows them (``Store.connect_postgres(...,
host=host)``):

- **statements** run on the host's one pool. A business's store sees it through a view that
  sets the connection's ``search_path`` to the business's schema when it borrows one, so the
  repositories' SQL runs unchanged and finds that business's tables only. A connection
  remembers the schema it searches, and the ``SET`` (one round trip) is sent only when the
  borrower's schema is another: a host busy with one business pays it rarely, one with many
  about once per borrow. PostgreSQL re-plans a prepared statement whose search path changed
  since its last run, so a statement cached by the connection never runs on the previous
  business's tables.
- **chat locks** are taken on the host's ``ChatLockSessions`` (one shared connection, one pool
  for chats that wait); each business keeps its own queue of its chats and its own keys
  (``advisory_locks``: its namespace mixed in).
- **leadership** of each business's jobs is a session lock of the host's one leadership
  connection (``SharedLeadership``), not a connection per business.

The budgets and send limits are rows in the business's schema, through its view of the pool.
So the host's connections are ``pool_size`` + ``lock_pool_size`` + 2, whatever the number of
businesses.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import asyncpg

from bot.store.advisory_locks import BACKGROUND_JOBS_LOCK, ChatLockKeys
from bot.store.coordination import Coordination
from bot.store.pg_chat_locks import ChatLockSessions, PgChatLocks
from bot.store.pg_database import DEFAULT_POOL_SIZE, PgDatabase, open_pool, quoted_name
from bot.store.pg_leadership import SharedLeadership
from bot.store.pg_rate_budget import PgRateBudget
from bot.store.pg_send_limits import WHATSAPP_LEDGER, PgRequestBuckets, PgSendBudget


class SearchingConnection(asyncpg.Connection):  # type: ignore[misc]  # asyncpg is untyped
    """A pooled connection that remembers the ``search_path`` it last set."""

    _searching: str | None = None

    async def search(self, search_path: str) -> None:
        """Make ``search_path`` the connection's, unless it is already."""
        if self._searching != search_path:
            self._searching = None  # unknown until the SET is answered
            await self.execute(f"SET search_path TO {search_path}")
            self._searching = search_path


class SchemaView:
    """The host's pool as one business's store uses it (``PgDatabase``'s pool): every
    connection borrowed searches the business's schema (``DEFAULT``: the server's default,
    for a store without one). Closing the view leaves the host's pool open."""

    def __init__(self, pool: Any, schema: str | None) -> None:
        self._pool = pool
        self._search_path = "DEFAULT" if schema is None else quoted_name(schema)

    @contextlib.asynccontextmanager
    async def acquire(self) -> AsyncIterator[Any]:
        """A connection of the host's pool, searching the business's schema."""
        async with self._pool.acquire() as conn:
            await conn.search(self._search_path)
            yield conn

    async def execute(self, sql: str, *args: object) -> str:
        """``Pool.execute`` in the business's schema."""
        async with self.acquire() as conn:
            return str(await conn.execute(sql, *args))

    async def fetch(self, sql: str, *args: object) -> list[Any]:
        """``Pool.fetch`` in the business's schema."""
        async with self.acquire() as conn:
            return list(await conn.fetch(sql, *args))

    async def fetchrow(self, sql: str, *args: object) -> Any:
        """``Pool.fetchrow`` in the business's schema."""
        async with self.acquire() as conn:
            return await conn.fetchrow(sql, *args)

    async def fetchval(self, sql: str, *args: object) -> Any:
        """``Pool.fetchval`` in the business's schema."""
        async with self.acquire() as conn:
            return await conn.fetchval(sql, *args)

    async def close(self) -> None:
        """Nothing: the pool is the host's (``PgHost.close``)."""


class PgHost:
    """One database's connections for many business stores; see the module docstring.
    ``PgHost.connect(dsn)``, then ``Store.connect_postgres(dsn, ..., host=host)`` per
    business; ``close()`` after every store on it is closed."""

    def __init__(
        self, dsn: str, pool: Any, lock_sessions: ChatLockSessions, leadership: SharedLeadership
    ) -> None:
        self.dsn = dsn
        self.pool_size = int(pool.get_max_size())
        self.lock_pool_size = int(lock_sessions.pool.get_max_size())
        self._pool = pool
        self._lock_sessions = lock_sessions
        self._leadership = leadership

    @classmethod
    async def connect(
        cls, dsn: str, *, pool_size: int = DEFAULT_POOL_SIZE, lock_pool_size: int | None = None
    ) -> PgHost:
        """The host's pool of ``pool_size`` connections to ``dsn``, its chat locks' pool of
        ``lock_pool_size`` (``pool_size`` unless given; the shared lock connection and the
        leadership connection are opened on first use). Raises ``StoreError`` when the
        server cannot be reached (``open_pool``)."""
        pool = await open_pool(dsn, pool_size=pool_size, connection_class=SearchingConnection)
        try:
            locks = await ChatLockSessions.open(dsn, pool_size=lock_pool_size or pool_size)
        except BaseException:
            await pool.close()
            raise
        return cls(dsn, pool, locks, SharedLeadership.for_dsn(dsn))

    @property
    def most_connections(self) -> int:
        """The most connections the host opens to the server, whatever its stores do."""
        return self.pool_size + self.lock_pool_size + 2

    def database(self, schema: str | None) -> PgDatabase:
        """A business's ``PgDatabase`` on the host's pool, searching ``schema``."""
        return PgDatabase(SchemaView(self._pool, schema), self.dsn, schema=schema)

    def coordination(self, db: PgDatabase, *, keys: ChatLockKeys, namespace: int) -> Coordination:
        """A business's ``Coordination`` (``pg_coordination``'s) on the host's connections:
        its chat locks (its ``keys``) on the host's lock sessions, its jobs' leadership in
        its ``namespace`` on the host's leadership connection, its budgets in ``db``.
        Closing it gives the leadership up and keeps the connections, the host's."""
        chat_locks = PgChatLocks(keys=keys, sessions=self._lock_sessions)
        leadership = self._leadership.for_job(BACKGROUND_JOBS_LOCK, namespace=namespace)
        return Coordination(
            chat_locks,
            leadership,
            PgRateBudget(db),
            PgSendBudget(db, namespace=namespace),
            PgRequestBuckets(db),
            shared=True,
            close=leadership.close,
            whatsapp_send_budget=PgSendBudget(db, namespace=namespace, ledger=WHATSAPP_LEDGER),
        )

    async def close(self) -> None:
        """Close every connection of the host (its stores first: a store's statements after
        this fail)."""
        await self._leadership.close()
        await self._lock_sessions.close()
        await self._pool.close()

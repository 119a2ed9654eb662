"""``PgLeadership``: the one instance that does a job every instance could do alone.

Several instances on one database each run the same background work. Some of it must run once
for all of them: the status poller reads every open delivery, so three pollers would read each
three times, from the API key's one budget. Before each round such a job asks ``leads()``.

The leader is the instance holding a session advisory lock (its key in
``bot.store.advisory_locks``) on a connection of its own. It leads while that connection
lives: when it stops, crashes or loses the connection, the server lets the lock go, and the
next instance to ask takes it. Each ask on the leader runs one statement on the connection, so
a connection that died quietly (a server restart) is seen at the next round, not after it, and
a connection that hangs (a network gone quiet) is given up after ``TIMEOUT_SECONDS``: an
instance never goes on leading on a lock it may have lost.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

from bot.store.advisory_locks import DEFAULT_NAMESPACE, LOCK_SESSION_KEEPALIVES
from bot.store.pg_database import in_schema

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 5.0
"""How long one ask waits for the server (connecting, or a statement) before it gives up."""

_TRY_LOCK = "SELECT pg_try_advisory_lock($1, $2)"
_STILL_HERE = "SELECT 1"
# What a dead or unusable connection raises; a server error in a statement is a PostgresError.
# A statement on a session the server ended may find asyncpg's protocol mid-way through the
# goodbye, and raise its InternalClientError instead.
_CONNECTION_ERRORS = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,
)


class PgLeadership:
    """``leads()``: whether this instance does the job named by ``key``; see the module doc."""

    def __init__(
        self, connect: Callable[[], Awaitable[Any]], key: int, *, namespace: int = DEFAULT_NAMESPACE
    ) -> None:
        self._connect = connect
        self._key = key
        self._namespace = namespace
        self._connection: Any = None  # opened on the first ask
        self._held = False
        self._turn = asyncio.Lock()  # one statement at a time on the connection
        self._closed = False

    @classmethod
    def for_dsn(
        cls, dsn: str, key: int, *, namespace: int = DEFAULT_NAMESPACE, schema: str | None = None
    ) -> PgLeadership:
        """Leadership of the job ``key`` (in the store's lock ``namespace``) among the
        instances on the database at ``dsn``; ``schema``: the store's (``search_path``)."""
        connect = functools.partial(
            asyncpg.connect,
            dsn,
            timeout=TIMEOUT_SECONDS,
            server_settings=in_schema(schema, LOCK_SESSION_KEEPALIVES),
        )
        return cls(connect, key, namespace=namespace)

    async def leads(self) -> bool:
        """True when this instance holds the job's lock, taking it if nobody does (never
        once closed)."""
        async with self._turn:
            if self._closed:
                return False
            try:
                if self._connection is None or self._connection.is_closed():
                    self._held = False
                    self._connection = await self._connect()
                if self._held:
                    await self._connection.fetchval(_STILL_HERE, timeout=TIMEOUT_SECONDS)
                else:
                    self._held = bool(
                        await self._connection.fetchval(
                            _TRY_LOCK, self._namespace, self._key, timeout=TIMEOUT_SECONDS
                        )
                    )
            except _CONNECTION_ERRORS as error:
                # Whatever it held went with the session; the next ask starts again.
                logger.warning("leadership of job %s unknown (%s)", self._key, type(error).__name__)
                self._drop()
                return False
            return self._held

    async def close(self) -> None:
        """Close the connection: the server lets go of the lock, for another instance."""
        async with self._turn:
            self._closed = True
            connection, self._connection = self._connection, None
            self._held = False
            if connection is not None and not connection.is_closed():
                try:
                    await connection.close(timeout=TIMEOUT_SECONDS)
                except _CONNECTION_ERRORS:
                    connection.terminate()  # the server frees the lock when it sees it gone

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        self._held = False
        if connection is not None and not connection.is_closed():
            connection.terminate()

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
_UNLOCK = "SELECT pg_advisory_unlock($1, $2)"
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


class SharedLeadership:
    """The leadership of many businesses' jobs on one connection (a host's business stores):
    each ``(namespace, key)`` is a session lock of that one connection, so a thousand
    businesses lead on one connection, not a thousand. ``for_job`` gives a business's store
    its ``Leadership``. The asks are ``PgLeadership``'s, one statement each; when the
    connection is lost, every business's lock goes with it, and each takes its own again at
    its next ask (here, or on another instance that asked first)."""

    def __init__(self, connect: Callable[[], Awaitable[Any]]) -> None:
        self._connect = connect
        self._connection: Any = None  # opened on the first ask
        self._held: set[tuple[int, int]] = set()  # (namespace, key) locks the session holds
        self._turn = asyncio.Lock()  # one statement at a time on the connection
        self._closed = False

    @classmethod
    def for_dsn(cls, dsn: str) -> SharedLeadership:
        """Leaderships on the database at ``dsn`` (no table is read: no schema is needed)."""
        connect = functools.partial(
            asyncpg.connect,
            dsn,
            timeout=TIMEOUT_SECONDS,
            server_settings=LOCK_SESSION_KEEPALIVES,
        )
        return cls(connect)

    def for_job(self, key: int, *, namespace: int) -> BorrowedLeadership:
        """Leadership of the job ``key`` in a business's lock ``namespace``, on this
        connection."""
        return BorrowedLeadership(self, (namespace, key))

    async def leads(self, lock: tuple[int, int]) -> bool:
        """True when this instance holds ``lock`` (namespace, key), taking it if nobody does
        (never once closed)."""
        async with self._turn:
            if self._closed:
                return False
            try:
                if self._connection is None or self._connection.is_closed():
                    self._held.clear()
                    self._connection = await self._connect()
                if lock in self._held:
                    await self._connection.fetchval(_STILL_HERE, timeout=TIMEOUT_SECONDS)
                elif await self._connection.fetchval(_TRY_LOCK, *lock, timeout=TIMEOUT_SECONDS):
                    self._held.add(lock)
            except _CONNECTION_ERRORS as error:
                logger.warning("leadership of job %s unknown (%s)", lock, type(error).__name__)
                self._drop()
                return False
            return lock in self._held

    async def let_go(self, lock: tuple[int, int]) -> None:
        """Stop leading ``lock``'s job (its business's store closes): another instance may
        take it. When the release fails the connection is dropped, which releases every lock
        it held; the other businesses take theirs again at their next ask."""
        async with self._turn:
            if lock not in self._held:
                return
            self._held.discard(lock)
            try:
                await self._connection.fetchval(_UNLOCK, *lock, timeout=TIMEOUT_SECONDS)
            except _CONNECTION_ERRORS:
                self._drop()

    async def close(self) -> None:
        """Close the connection: the server lets go of every business's lock."""
        async with self._turn:
            self._closed = True
            connection, self._connection = self._connection, None
            self._held.clear()
            if connection is not None and not connection.is_closed():
                try:
                    await connection.close(timeout=TIMEOUT_SECONDS)
                except _CONNECTION_ERRORS:
                    connection.terminate()

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        self._held.clear()
        if connection is not None and not connection.is_closed():
            connection.terminate()


class BorrowedLeadership:
    """One business's ``Leadership`` of one job on a ``SharedLeadership``'s connection."""

    def __init__(self, shared: SharedLeadership, lock: tuple[int, int]) -> None:
        self._shared = shared
        self._lock = lock
        self._closed = False

    async def leads(self) -> bool:
        """Whether this instance runs the business's job (never once closed)."""
        if self._closed:
            return False
        leads = await self._shared.leads(self._lock)
        if leads and self._closed:  # closed while the ask was on its way: give it back
            await self._shared.let_go(self._lock)
            return False
        return leads

    async def close(self) -> None:
        """Let the job's lock go, for another instance; the connection stays the host's."""
        self._closed = True
        await self._shared.let_go(self._lock)

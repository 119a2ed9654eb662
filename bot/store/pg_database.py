"""``PgDatabase``: the store's ``Executor`` and ``transaction()`` over an asyncpg pool.

The repositories' SQL is written once, in what both databases understand (``ON CONFLICT``,
``RETURNING``, ``IS [NOT] DISTINCT FROM``), with ``?`` for each parameter in order; what truly
differs is each backend's own (``pg_backend``, ``sqlite_backend``). asyncpg binds ``$1``,
``$2`` ..., so ``numbered`` numbers the ``?`` marks (never one inside a quoted literal) and
changes nothing else. It is cached by text, and the repositories use constant strings, so
every call after the first is a dict hit; asyncpg then keeps the prepared statement per
connection.

Why asyncpg: it is asyncio-native (no thread per connection, unlike aiosqlite), speaks the
binary protocol with a per-connection prepared statement cache, and exposes everything the
several-instances design needs (advisory locks, ``FOR UPDATE SKIP LOCKED``) as plain SQL.

A store may keep its tables in a schema of its own (``[storage.postgres] db_schema``): every
connection it opens then starts with that schema as its ``search_path`` (a setting sent with
the connection's start-up, no round trip of its own), so the repositories' unqualified names
find that schema's tables and no other's, and their SQL is the same either way.

Unlike the SQLite ``Database`` there is no process-wide lock: each lone statement borrows a pool
connection (autocommit), and ``transaction()`` holds one connection from ``BEGIN`` to ``COMMIT``,
so transactions of different tasks run side by side and the server keeps them apart.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import asyncpg

from bot.store.database import Params, Row
from bot.store.store_errors import StoreError

# The oldest server the schema and the SQL are written for (``GENERATED ... AS IDENTITY``,
# ``ON CONFLICT``, ``SKIP LOCKED`` are older; 13 is the oldest major still supported upstream).
MIN_SERVER_VERSION = 13
DEFAULT_POOL_SIZE = 10


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` parameters numbered ``$1``, ``$2`` ... in order (a ``?`` inside
    a single-quoted literal is text, and stays)."""
    out: list[str] = []
    number = 0
    in_literal = False
    for char in sql:
        if char == "'":
            in_literal = not in_literal  # a doubled '' closes and reopens: still inside
        elif char == "?" and not in_literal:
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def redacted_dsn(dsn: str) -> str:
    """The DSN without its user and password, for logs and error messages."""
    try:
        parts = urlsplit(dsn)
        host = parts.hostname or "localhost"
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "postgresql://<unparsable dsn>"
    return f"postgresql://{host}{port}{parts.path}"


def _without_password(text: str, dsn: str) -> str:
    """``text`` with the DSN's password (if any) blotted out."""
    try:
        password = urlsplit(dsn).password
    except ValueError:
        return "the DSN could not be parsed"
    return text.replace(password, "***") if password else text


async def _keep_session(conn: Any) -> None:
    """The pool's reset on release: nothing to do.

    asyncpg's default runs ``RESET ALL`` & co. on every release, one more round trip per lone
    statement. The store leaves no session state behind: its settings are ``SET LOCAL``, its
    advisory locks transaction-scoped, and it never listens. (The chat locks' own pool keeps
    the default reset: there it releases a lock a cancelled turn left.)
    """


def in_schema(schema: str | None, settings: Mapping[str, str] | None = None) -> dict[str, str]:
    """asyncpg's ``server_settings`` for a connection of a store whose tables are in
    ``schema`` (None: where the server's default ``search_path`` puts them), beside
    ``settings``."""
    found = dict(settings or {})
    if schema is not None:
        found["search_path"] = quoted_name(schema)
    return found


def quoted_name(name: str) -> str:
    """``name`` as a quoted SQL identifier (a schema name, in a statement or a setting)."""
    return '"' + name.replace('"', '""') + '"'


def _rowcount(status: str) -> int:
    """Rows changed, from a command status such as ``INSERT 0 1`` or ``UPDATE 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


async def open_pool(dsn: str, *, pool_size: int, **options: Any) -> Any:
    """An asyncpg pool to ``dsn`` of up to ``pool_size`` connections (``options`` are
    ``create_pool``'s) that leave no session state to reset; refuses a server older than
    ``MIN_SERVER_VERSION``.

    Connection errors are re-raised as ``StoreError`` naming the server without the DSN's
    user and password (asyncpg's own message may quote the DSN).
    """
    try:
        pool = await asyncpg.create_pool(
            dsn, min_size=1, max_size=pool_size, reset=_keep_session, **options
        )
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
        reason = _without_password(f"{type(exc).__name__}: {exc}", dsn)
        raise StoreError(f"cannot connect to {redacted_dsn(dsn)}: {reason}") from None
    try:
        version = await pool.fetchval("SHOW server_version_num")
        if int(version) // 10000 < MIN_SERVER_VERSION:
            raise StoreError(
                f"{redacted_dsn(dsn)}: PostgreSQL {int(version) // 10000} is too old; "
                f"{MIN_SERVER_VERSION} or newer is needed"
            )
    except BaseException:
        await pool.close()
        raise
    return pool


class PgStatements:
    """Runs statements on one connection (inside a transaction the caller holds)."""

    dialect: Literal["postgres"] = "postgres"

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        return _rowcount(await self._conn.execute(numbered(sql), *params))

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Run one statement and return all its rows."""
        return [tuple(record) for record in await self._conn.fetch(numbered(sql), *params)]

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Run one statement and return its first row, if any."""
        record = await self._conn.fetchrow(numbered(sql), *params)
        return None if record is None else tuple(record)


class PgDatabase:
    """A pool of connections to one PostgreSQL database, used the way ``Database`` is."""

    dialect: Literal["postgres"] = "postgres"

    def __init__(self, pool: Any, dsn: str, *, schema: str | None = None) -> None:
        self._pool = pool
        self._dsn = dsn
        self._closed = False
        # The schema every table of the store is in (created by the first migration); None
        # where the server's default search_path puts them.
        self.schema = schema
        # Where the data lives, without secrets: ``label`` for messages, ``path`` for the
        # store's interface (a Path folds the URL's "//" into "/").
        self.label = redacted_dsn(dsn)
        self.path = Path(self.label)

    @classmethod
    async def connect(
        cls, dsn: str, *, pool_size: int = DEFAULT_POOL_SIZE, schema: str | None = None
    ) -> PgDatabase:
        """Open a pool to ``dsn`` (each connection's ``search_path`` the store's ``schema``
        when given); refuses a server older than ``MIN_SERVER_VERSION`` (``open_pool``)."""
        pool = await open_pool(dsn, pool_size=pool_size, server_settings=in_schema(schema))
        return cls(pool, dsn, schema=schema)

    @property
    def pool(self) -> Any:
        """The asyncpg pool (for the advisory locks that need a connection of their own)."""
        self._check_open()
        return self._pool

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement as its own transaction; return the number of rows it changed."""
        self._check_open()
        return _rowcount(await self._pool.execute(numbered(sql), *params))

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Run one statement and return all its rows."""
        self._check_open()
        return [tuple(record) for record in await self._pool.fetch(numbered(sql), *params)]

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Run one statement and return its first row, if any."""
        self._check_open()
        record = await self._pool.fetchrow(numbered(sql), *params)
        return None if record is None else tuple(record)

    def passed_by_reads(self) -> PgDatabase:
        """This database: each statement has a connection of its own, so no read ever waits
        behind a write (``Database.passed_by_reads``)."""
        return self

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgStatements]:
        """One connection from ``BEGIN`` to ``COMMIT``; rolled back on any exception."""
        self._check_open()
        async with self._pool.acquire() as conn, conn.transaction():
            yield PgStatements(conn)

    async def close(self) -> None:
        """Close every connection of the pool. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        await self._pool.close()

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

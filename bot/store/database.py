"""One aiosqlite connection, its pragmas, and the lock that keeps transactions whole.

aiosqlite runs every statement of a connection on one thread, in the order they were queued,
and queues a statement before its first ``await`` yields. That already serialises lone
statements, so they take no lock: back-to-back commits reach SQLite with no asyncio hop in
between. It does not keep transactions whole: while one coroutine is between ``BEGIN`` and
``COMMIT``, another coroutine's statement would land inside the open transaction (and be rolled
back with it). So ``transaction()`` holds an ``asyncio.Lock``, and a lone statement waits for
that lock only while it is held (a transaction is open, or waiting to open).

Lone ``SELECT``s are answered on the event loop's thread by a second connection
(``bot.store.loop_statements``): a read by key takes microseconds there, against a trip to the
worker thread that costs twenty times the read. With ``synchronous=NORMAL``, where a commit
does not wait for the disk, lone ``INSERT``/``UPDATE``/``DELETE``s run there too (a turn's
save: about 30 µs against a 300 µs wait for the trip). Only while nothing is queued on the
worker and no transaction is open or waiting: the statement then sees and leaves exactly what
it would have queued behind the others (a write another task started but has not seen finish
included).

Under ``synchronous=NORMAL`` no statement of the store checkpoints the WAL (that would make it
take milliseconds, and the statements queued behind it with it, or stop the loop for a write
made there): ``bot.store.wal_checkpoints`` does it on a connection and thread of its own,
every ``CHECKPOINT_EVERY`` statements. Under ``FULL`` every commit waits for the disk anyway
and all writes are on the worker, whose commits checkpoint as SQLite does by default (a
checkpoint beside them measured no better: its fsyncs compete with theirs).

Rows that nothing reads in step with their writing (the Telegram update inbox: a turn never
waits for its own update's row) are written through ``passed_by_reads()``: while such a
statement is queued, reads still run on the loop's connection and see the last commit, so a
turn's reads do not wait behind the update's fsync under ``FULL``. Writes still wait for it.

The connection runs in autocommit mode: a lone statement is its own transaction, and
``transaction()`` issues ``BEGIN IMMEDIATE`` so a writer never has to upgrade a read lock.
sqlite3 keeps a cache of prepared statements keyed by SQL text, so repositories use constant
SQL strings and every statement after the first is a cache hit.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar, cast

import aiosqlite

from bot.store.loop_statements import LoopConnection, TooLongForTheLoop
from bot.store.store_errors import StoreError
from bot.store.wal_checkpoints import WalCheckpointer

Row = tuple[Any, ...]
Params = Sequence[object]
Synchronous = Literal["NORMAL", "FULL"]
T = TypeVar("T")

# IS [NOT] DISTINCT FROM (3.39) is the newest feature the repositories use.
MIN_SQLITE_VERSION = (3, 39, 0)
_PREPARED_STATEMENT_CACHE = 256
_BUSY_TIMEOUT_MS = 5000


class Executor(Protocol):
    """Where a repository runs its statements: the ``Database`` (each statement its own
    transaction), or the ``Statements`` of an open ``Database.transaction()`` (every statement
    part of it, so several repositories' changes commit together)."""

    async def execute(self, sql: str, params: Params = ()) -> int: ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None: ...


class Statements:
    """Runs statements on the connection; inside a transaction the caller holds the lock."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Run one statement and return all its rows."""
        return cast(list[Row], list(await self._conn.execute_fetchall(sql, params)))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Run one statement and return its first row, if any."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class Database:
    """The store's single connection: lone statements run as queued, transactions whole."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: Path,
        on_loop: LoopConnection | None = None,
        checkpointer: WalCheckpointer | None = None,
        *,
        synchronous: Synchronous = "FULL",
    ) -> None:
        self._conn = conn
        #: Whether a commit waits for the disk (``FULL``) or not (``NORMAL``).
        self.synchronous: Synchronous = synchronous
        self._statements = Statements(conn)
        self._on_loop = on_loop
        self._checkpointer = checkpointer
        self._queued = 0  # lone statements sent to the worker thread and not finished
        self._passed = 0  # of them, those reads need not wait for (``passed_by_reads``)
        self._lock = asyncio.Lock()
        self._closed = False
        self.path = path

    @classmethod
    async def connect(cls, path: Path, *, synchronous: Synchronous = "FULL") -> Database:
        """Open ``path`` (creating it) in WAL mode with foreign keys enforced."""
        if sqlite3.sqlite_version_info < MIN_SQLITE_VERSION:
            wanted = ".".join(map(str, MIN_SQLITE_VERSION))
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old; {wanted} is needed")
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        conn = await aiosqlite.connect(
            path, isolation_level=None, cached_statements=_PREPARED_STATEMENT_CACHE
        )
        checkpointer: WalCheckpointer | None = None
        try:
            mode = await conn.execute_fetchall("PRAGMA journal_mode=WAL")
            if [tuple(row) for row in mode] != [("wal",)]:
                raise StoreError(f"{path}: SQLite refused WAL mode (got {list(mode)!r})")
            await conn.execute("PRAGMA foreign_keys=ON")
            # An erased customer's rows are overwritten with zeros, not left in free pages for
            # anyone with the file to read: whatever SQLite build the machine has
            # (docs/privacy.md "Erasure's limits").
            await conn.execute("PRAGMA secure_delete=ON")
            await conn.execute(f"PRAGMA synchronous={synchronous}")
            await conn.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
            if synchronous == "NORMAL":
                await conn.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's work
                checkpointer = WalCheckpointer(path)
            # Opened once the file is in WAL mode: its reads then never wait for the writer.
            on_loop = LoopConnection(
                path,
                cached_statements=_PREPARED_STATEMENT_CACHE,
                writes=synchronous == "NORMAL",
            )
        except BaseException:
            if checkpointer is not None:
                await checkpointer.close()
            await conn.close()
            raise
        return cls(conn, path, on_loop, checkpointer, synchronous=synchronous)

    async def execute(self, sql: str, params: Params = (), *, passed_by_reads: bool = False) -> int:
        """Run one statement as its own transaction; return the number of rows it changed (a
        short write on this thread under ``synchronous=NORMAL`` when the worker is idle)."""
        on_loop = self._on_loop
        if on_loop is not None and self._idle() and on_loop.takes_write(sql):
            self._check_open()
            try:
                changed = on_loop.execute(sql, params)
            except TooLongForTheLoop:
                pass  # the worker thread's turn
            else:
                self._counted()
                return changed
        async with self._on_worker(passed_by_reads):
            return await self._statements.execute(sql, params)

    async def fetch_all(
        self, sql: str, params: Params = (), *, passed_by_reads: bool = False
    ) -> list[Row]:
        """Run one statement and return all its rows (a short ``SELECT`` on this thread when
        the worker has nothing queued that reads wait for)."""
        on_loop = self._on_loop
        if on_loop is not None and self._idle_for_reads() and on_loop.takes(sql):
            self._check_open()
            try:
                return on_loop.fetch_all(sql, params)
            except TooLongForTheLoop:
                pass  # the worker thread's turn
        async with self._on_worker(passed_by_reads):
            return await self._statements.fetch_all(sql, params)

    async def run_on_worker(
        self, work: Callable[[sqlite3.Connection], T], *, passed_by_reads: bool = False
    ) -> T:
        """Run ``work`` on the worker thread with the connection, as a lone statement would run
        (in its place among the queued ones, never inside another coroutine's transaction):
        for work that must go on without a trip back to the event loop between its statements
        (``worker_group_inserts``). Each statement it runs is its own transaction."""
        conn = self._conn
        async with self._on_worker(passed_by_reads):
            # aiosqlite has no public way to run a function on its thread; ``_execute`` is how
            # its own methods do it, and ``_conn`` the sqlite3 connection they run on
            # (tests/store/test_worker_group_inserts.py fails if either changes).
            on_thread: Callable[[Callable[[], T]], Awaitable[T]] = conn._execute
            return await on_thread(lambda: work(conn._conn))

    def passed_by_reads(self) -> Executor:
        """This database, for lone writes that reads need not wait for: while one is queued
        on the worker, ``SELECT``s still run on the loop's connection (and do not see it)."""
        return _PassedByReads(self)

    async def prepare_connections(self, sql: str) -> None:
        """Run ``sql`` on every connection the database uses: a TEMP view or trigger lives
        with its connection, and a statement may run on either."""
        async with self._on_worker():
            await self._statements.execute(sql)
        if self._on_loop is not None:
            self._on_loop.prepare(sql)

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Run one statement and return its first row, if any."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Statements]:
        """Hold the lock for a ``BEGIN IMMEDIATE`` .. ``COMMIT``; roll back on any exception."""
        async with self._locked():
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._statements
                await self._conn.execute("COMMIT")
                self._counted()
            except BaseException:
                # If COMMIT itself was interrupted it still runs on the worker thread, and this
                # ROLLBACK then finds no transaction: nothing is left to undo either way.
                with contextlib.suppress(sqlite3.OperationalError):
                    await self._conn.execute("ROLLBACK")
                raise

    async def close(self) -> None:
        """Let SQLite refresh its planner statistics, then close. Safe to call twice."""
        if self._closed:
            return
        if self._checkpointer is not None:
            await self._checkpointer.close()
        async with self._lock:
            self._closed = True
            try:
                await self._conn.execute("PRAGMA optimize")
            finally:
                if self._on_loop is not None:
                    self._on_loop.close()
                await self._conn.close()

    def _idle(self) -> bool:
        """Nothing queued on the worker, no transaction open or waiting: a statement run on
        the loop's connection now is in its right place among the others."""
        return not self._queued and not self._lock.locked()

    def _idle_for_reads(self) -> bool:
        """``_idle`` but for statements queued through ``passed_by_reads``."""
        return self._queued == self._passed and not self._lock.locked()

    def _counted(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.counted()

    @contextlib.asynccontextmanager
    async def _on_worker(self, passed_by_reads: bool = False) -> AsyncIterator[None]:
        """A lone statement's way to the worker thread: counted as queued until it is done,
        and behind the transaction that holds (or waits for) the lock."""
        self._queued += 1
        self._passed += passed_by_reads
        self._counted()
        try:
            if self._lock.locked():
                async with self._locked():
                    yield
            else:
                self._check_open()
                yield
        finally:
            self._queued -= 1
            self._passed -= passed_by_reads

    @contextlib.asynccontextmanager
    async def _locked(self) -> AsyncIterator[None]:
        async with self._lock:
            self._check_open()
            yield

    def _check_open(self) -> None:
        # Nothing may yield between this check and the statement being queued: that is what
        # keeps a lone statement out of a transaction opened by another coroutine meanwhile.
        if self._closed:
            raise StoreError("the store is closed")


class _PassedByReads:
    """``Database.passed_by_reads()``: its statements, flagged so reads may pass them."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def execute(self, sql: str, params: Params = ()) -> int:
        return await self._db.execute(sql, params, passed_by_reads=True)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._db.fetch_all(sql, params, passed_by_reads=True)

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

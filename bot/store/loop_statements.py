"""``LoopConnection``: short lone statements run on the event loop's own thread.

aiosqlite runs each statement on the connection's worker thread: the statement is queued, the
thread wakes, runs it and wakes the event loop through its self-pipe. For a read by key that
trip costs far more than the read (about 90 µs against 4 µs on a 2-core machine), and a
Telegram turn makes several such reads (the update's dedupe, the chat's session, ...). With
``synchronous=NORMAL`` a commit does not wait for the disk either, so the same holds for the
turn's one write: about 25-40 µs of SQLite's work against a wait of about 300 µs for the trip.

So lone ``SELECT``s, and with ``synchronous=NORMAL`` lone ``INSERT``/``UPDATE``/``DELETE``s,
go to a second connection to the same file, run on the loop's thread, when the worker's queue
is empty (``Database`` checks): WAL mode makes that safe. A reader never waits for the writer
and sees every commit finished before its statement began; a write made while nothing else is
queued or open takes the file's one write lock at once. Either sees and leaves exactly what it
would have queued behind the others. Under ``synchronous=FULL`` every commit waits for an
fsync, which must not stop the loop, so that connection is read-only (``query_only``).

Guards that keep the loop from stalling:

* a step budget: SQLite calls back every ``_STEPS_PER_CHECK`` virtual-machine steps, and a
  statement that runs past ``step_budget`` steps (``write_step_budget`` for a write) is
  interrupted (a write is rolled back whole: it is its own transaction) and sent to the
  worker thread instead; its SQL text is
  remembered, so a statement that scans goes straight there after;
* no busy wait: the connection's busy timeout is zero, so a lock (another process writing,
  recovery after a crash, a checkpoint resetting the WAL) sends the statement to the thread,
  whose busy timeout waits for it, rather than blocking the loop (a refused write changed
  nothing);
* no checkpoint here: a commit that finds the WAL past its threshold would copy it into the
  database and fsync, so this connection never checkpoints (``wal_autocheckpoint=0``); the
  store's ``WalCheckpointer`` does, on a thread of its own.

``RETURNING`` statements, DDL, pragmas and everything inside a transaction keep using aiosqlite.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

from bot.store.store_errors import StoreError

Row = tuple[Any, ...]
T = TypeVar("T")

# About half a millisecond of SQLite's work on a slow core: a lookup by key takes a few
# hundred steps, a scan of a few thousand rows is past it.
DEFAULT_STEP_BUDGET: Final = 200_000
# A write does more per step (each changed row is a b-tree edit: about 3 steps and 20 µs per
# row deleted): a turn's save takes about 70 steps, a purge of more than a few hundred rows
# is past this.
DEFAULT_WRITE_STEP_BUDGET: Final = 5_000
_STEPS_PER_CHECK: Final = 1_000
_WRITES = ("INSERT", "UPDATE", "DELETE")


class TooLongForTheLoop(StoreError):
    """The statement cannot run on the loop's thread (too long, or the file is busy)."""


class LoopConnection:
    """A second connection whose short lone statements run on the caller's thread: reads
    always, writes only when ``writes`` (``synchronous=NORMAL``)."""

    def __init__(
        self,
        path: Path,
        *,
        cached_statements: int,
        writes: bool = False,
        step_budget: int = DEFAULT_STEP_BUDGET,
        write_step_budget: int = DEFAULT_WRITE_STEP_BUDGET,
    ) -> None:
        self._conn = sqlite3.connect(
            path, isolation_level=None, timeout=0, cached_statements=cached_statements
        )
        if writes:
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.execute("PRAGMA secure_delete=ON")  # as the store's other connection
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA wal_autocheckpoint=0")
        else:
            self._conn.execute("PRAGMA query_only=ON")
        self.writes = writes
        self._read_checks = max(1, step_budget // _STEPS_PER_CHECK)
        self._write_checks = max(1, write_step_budget // _STEPS_PER_CHECK)
        self._checks_allowed = self._read_checks
        self._checks = 0
        self._conn.set_progress_handler(self._progress, _STEPS_PER_CHECK)
        self._too_long: set[str] = set()
        self._kinds: dict[str, str] = {}

    def takes(self, sql: str) -> bool:
        """True when ``sql`` is a plain ``SELECT`` not known to run too long for the loop."""
        return self._kind(sql) == "SELECT" and sql not in self._too_long

    def takes_write(self, sql: str) -> bool:
        """True when this connection writes and ``sql`` is a lone ``INSERT``, ``UPDATE`` or
        ``DELETE`` without ``RETURNING``, not known to run too long for the loop."""
        return self.writes and self._kind(sql) in _WRITES and sql not in self._too_long

    def fetch_all(self, sql: str, params: Any) -> list[Row]:
        """Run ``sql`` here and now; ``TooLongForTheLoop`` when it must go to the thread."""
        return self._run(sql, params, self._read_checks, sqlite3.Cursor.fetchall)

    def execute(self, sql: str, params: Any) -> int:
        """Run the write ``sql`` here and now as its own transaction; the rows it changed, or
        ``TooLongForTheLoop`` (with nothing changed) when it must go to the thread."""
        return self._run(sql, params, self._write_checks, _rowcount)

    def prepare(self, sql: str) -> None:
        """Run ``sql`` on this connection alone (a TEMP object lives with its connection; made
        in the connection's own temporary database, so a read-only one makes it too)."""
        if self.writes:
            self._conn.execute(sql)
            return
        self._conn.execute("PRAGMA query_only=OFF")
        try:
            self._conn.execute(sql)
        finally:
            self._conn.execute("PRAGMA query_only=ON")

    def close(self) -> None:
        """Close the connection (nothing is pending on it: every statement ran to its end)."""
        self._conn.close()

    def _run(
        self, sql: str, params: Any, checks_allowed: int, finish: Callable[[sqlite3.Cursor], T]
    ) -> T:
        # ``finish`` runs inside the guard too: SQLite steps a SELECT lazily, so a statement
        # whose first row comes at once (an aggregate's) may run past the budget while its
        # rows are fetched.
        self._checks = 0
        self._checks_allowed = checks_allowed
        try:
            return finish(self._conn.execute(sql, params))
        except sqlite3.OperationalError as error:
            if self._checks > self._checks_allowed:
                self._too_long.add(sql)
                raise TooLongForTheLoop(sql) from error
            if _is_busy(error):
                raise TooLongForTheLoop(sql) from error
            raise

    def _kind(self, sql: str) -> str:
        kind = self._kinds.get(sql)
        if kind is None:
            first = sql.lstrip()[:6].upper()
            returning = "RETURNING" in sql.upper()
            kind = self._kinds[sql] = "OTHER" if returning and first != "SELECT" else first
        return kind

    def _progress(self) -> int:
        self._checks += 1
        return 1 if self._checks > self._checks_allowed else 0


def _rowcount(cursor: sqlite3.Cursor) -> int:
    return cursor.rowcount


def _is_busy(error: sqlite3.OperationalError) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return int(code) & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(error) or "busy" in str(error)

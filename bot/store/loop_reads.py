"""``LoopReader``: short lone reads answered on the event loop's own thread.

aiosqlite runs each statement on the connection's worker thread: the statement is queued, the
thread wakes, runs it and wakes the event loop through its self-pipe. For a read by key that
trip costs far more than the read (about 90 µs against 4 µs on a 2-core machine), and a
Telegram turn makes several such reads (the update's dedupe, the chat's session, ...).

So lone ``SELECT``s go to a second, read-only connection to the same file, run on the loop's
thread, when the writer's queue is empty (``Database`` checks): WAL mode makes that safe, as a
reader never waits for the writer and sees every commit finished before its statement began,
which is what the read would have seen queued behind the writer's statements. Two guards keep
the loop from stalling:

* a step budget: SQLite calls back every ``_STEPS_PER_CHECK`` virtual-machine steps, and a
  statement that runs past ``step_budget`` steps is interrupted and sent to the worker thread
  instead; its SQL text is remembered, so a statement that scans goes straight there after;
* no busy wait: the reader's busy timeout is zero, so a rare lock (recovery after a crash, a
  checkpoint resetting the WAL) sends the read to the thread rather than blocking the loop.

Writes, ``RETURNING`` statements and everything inside a transaction keep using aiosqlite.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Final

Row = tuple[Any, ...]

# About half a millisecond of SQLite's work on a slow core: a lookup by key takes a few
# hundred steps, a scan of a few thousand rows is past it.
DEFAULT_STEP_BUDGET: Final = 200_000
_STEPS_PER_CHECK: Final = 1_000


class TooLongForTheLoop(Exception):
    """The read cannot be answered on the loop's thread (too long, or the file is busy)."""


class LoopReader:
    """A read-only connection whose short ``SELECT``s run on the caller's thread."""

    def __init__(
        self, path: Path, *, cached_statements: int, step_budget: int = DEFAULT_STEP_BUDGET
    ) -> None:
        self._conn = sqlite3.connect(
            path, isolation_level=None, timeout=0, cached_statements=cached_statements
        )
        self._conn.execute("PRAGMA query_only=ON")
        self._checks_allowed = max(1, step_budget // _STEPS_PER_CHECK)
        self._checks = 0
        self._conn.set_progress_handler(self._progress, _STEPS_PER_CHECK)
        self._too_long: set[str] = set()
        self._takes: dict[str, bool] = {}

    def takes(self, sql: str) -> bool:
        """True when ``sql`` is a plain ``SELECT`` not known to run too long for the loop."""
        known = self._takes.get(sql)
        if known is None:
            known = self._takes[sql] = sql.lstrip()[:6].upper() == "SELECT"
        return known and sql not in self._too_long

    def fetch_all(self, sql: str, params: Any) -> list[Row]:
        """Run ``sql`` here and now; ``TooLongForTheLoop`` when it must go to the thread."""
        self._checks = 0
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError as error:
            if self._checks > self._checks_allowed:
                self._too_long.add(sql)
                raise TooLongForTheLoop(sql) from error
            if _is_busy(error):
                raise TooLongForTheLoop(sql) from error
            raise

    def close(self) -> None:
        """Close the connection (nothing is pending on it: every read ran to its end)."""
        self._conn.close()

    def _progress(self) -> int:
        self._checks += 1
        return 1 if self._checks > self._checks_allowed else 0


def _is_busy(error: sqlite3.OperationalError) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return int(code) & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(error) or "busy" in str(error)


"""``WorkerGroupedInserts``: ``GroupedInserts`` for SQLite under ``synchronous=FULL``, its
groups taken and committed on the database's worker thread, one after another.

``GroupedInserts`` forms each group on the event loop: when a group's statement commits, the
result travels back to the loop, the group's task resumes, and only then is the next group
(the rows that came meanwhile) sent to the worker. Under load the loop is busy with requests
and each of those trips waits for a loop iteration or two: measured in the P2 benchmark
(``benchmarks/bench_ingest.py``), a group took about 1 ms from sending to result for 0.3 ms of
SQLite work, and 3 ms for 1.4 ms with each fsync made 1 ms slower. Here the worker thread, as
soon as a group has committed, sends its results to the loop and takes the rows waiting by
then as the next group: the disk is written back to back. A caller waits for the group in
progress when it arrived, its own group, and one trip home.

Under ``synchronous=NORMAL`` a commit does not wait for the disk and a lone row may be written
on the loop's own thread (``bot.store.database``), so ``GroupedInserts`` stays the better one
there (``SqliteBackend.grouped_inserts`` chooses).

The same promise as ``GroupedInserts``: ``add`` returns once the statement holding its row has
committed; a repeated key is reported as not new; every caller of a failed group gets its error.
The worker stops after ``GROUPS_PER_TRIP`` groups and queues itself again behind the statements
that came meanwhile, so a burst of rows never makes a turn's statement wait long.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections import deque
from collections.abc import Sequence
from typing import Final

from bot.store.database import Database
from bot.store.grouped_inserts import MAX_GROUP_ROWS, GroupSql

#: Groups the worker commits before it lets the statements queued behind it run.
GROUPS_PER_TRIP: Final = 8

_Waiting = tuple[Sequence[object], "asyncio.Future[bool]"]


class WorkerGroupedInserts:
    """Inserts rows into ``table`` (``columns``), skipping rows whose ``key`` exists already;
    see the module docstring. ``passed_by_reads``: reads need not wait for these rows
    (``Database.passed_by_reads``)."""

    def __init__(
        self,
        db: Database,
        table: str,
        columns: Sequence[str],
        key: str,
        *,
        passed_by_reads: bool = False,
    ) -> None:
        self._db = db
        self._sql = GroupSql(table, columns, key)
        self._passed_by_reads = passed_by_reads
        # Shared with the worker thread, under ``_lock``: the rows not taken yet, and whether a
        # trip of the worker is queued or running (it takes them all before it ends).
        self._lock = threading.Lock()
        self._waiting: deque[_Waiting] = deque()
        self._draining = False
        self._trips: set[asyncio.Task[None]] = set()
        #: Statements that committed rows (the benchmarks' rows per commit).
        self.statements = 0

    async def add(self, row: Sequence[object]) -> bool:
        """Insert ``row`` (values in column order) once it is committed; True when it is new."""
        self._sql.check_width(row)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        with self._lock:
            self._waiting.append((row, future))
            start = not self._draining
            self._draining = True
        if start:
            task = loop.create_task(self._drain(loop))
            self._trips.add(task)
            task.add_done_callback(self._trips.discard)
        return await future

    async def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        """Trips of the worker until no row waits (each trip queued behind the statements that
        came before it)."""
        try:
            while await self._db.run_on_worker(
                lambda conn: self._trip(conn, loop), passed_by_reads=self._passed_by_reads
            ):
                pass
        except BaseException as error:  # the store closed, or this task was cancelled
            with self._lock:
                left = list(self._waiting)
                self._waiting.clear()
                self._draining = False
            _fail(left, error if isinstance(error, Exception) else None)
            if not isinstance(error, Exception):
                raise

    def _trip(self, conn: sqlite3.Connection, loop: asyncio.AbstractEventLoop) -> bool:
        """On the worker thread: commit the waiting rows group by group; True when rows are
        still waiting after ``GROUPS_PER_TRIP`` groups (another trip is needed)."""
        for _ in range(GROUPS_PER_TRIP):
            with self._lock:
                if not self._waiting:
                    self._draining = False
                    return False
                count = min(len(self._waiting), MAX_GROUP_ROWS)
                group = [self._waiting.popleft() for _ in range(count)]
            rows = [row for row, _ in group]
            try:
                news = self._insert(conn, rows)
            except Exception as error:
                loop.call_soon_threadsafe(_fail, group, error)
            else:
                loop.call_soon_threadsafe(_settle, group, news)
        return True

    def _insert(self, conn: sqlite3.Connection, rows: list[Sequence[object]]) -> list[bool]:
        """One statement, its own transaction (the connection is in autocommit mode)."""
        self.statements += 1
        if len(rows) == 1:
            return [conn.execute(self._sql.lone, rows[0]).rowcount > 0]
        returned = conn.execute(self._sql.group(len(rows)), self._sql.params(rows)).fetchall()
        return self._sql.news(rows, returned)


def _settle(group: list[_Waiting], news: list[bool]) -> None:
    for (_, future), new in zip(group, news, strict=True):
        if not future.done():  # its caller may have given up (a dropped connection)
            future.set_result(new)


def _fail(group: list[_Waiting], error: Exception | None) -> None:
    for _, future in group:
        if future.done():
            continue
        if error is None:
            future.cancel()
        else:
            future.set_exception(error)

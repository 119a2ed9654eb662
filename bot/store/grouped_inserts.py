"""``GroupedInserts``: concurrent one-row inserts committed together, each caller still waiting
for its own commit.

Under ``synchronous=FULL`` every commit waits for an fsync, and a burst of webhook events each
committed alone spends most of its time there. So while inserts are on their way to SQLite
(``MAX_IN_FLIGHT`` statements at most), the rows that arrive meanwhile queue up, and the next
statement inserts all of them at once: a single multi-row
``INSERT .. ON CONFLICT DO NOTHING RETURNING key`` is one statement in autocommit mode, so one
commit (one fsync) covers the group. Each caller's ``add`` returns only
once the statement holding its row has committed, so whatever a caller acknowledges is durable
(the same promise as a lone insert). A caller that finds room in flight is inserted at once
without waiting for company: no latency is added when there is no burst.

A row that goes alone is a plain ``INSERT .. ON CONFLICT DO NOTHING`` whose changed-row count
says whether it was new: without ``RETURNING`` the store may run it on the event loop's own
thread (``bot.store.loop_statements``, under ``synchronous=NORMAL``), a few tens of
microseconds against a trip to aiosqlite's thread and back that costs ten times that.

Every caller of one group shares its fate: if the statement fails, each of them gets the error
(the webhook answers 5xx and the service delivers again).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol

from bot.store.database import Executor

# 6 columns x 64 rows stays far below SQLite's bound on parameters per statement (32,766).
MAX_GROUP_ROWS = 64
# Statements on their way at once. One: whatever arrives while a group commits waits for the
# next group. Two kept aiosqlite's thread from idling between groups, but each statement then
# took half as many rows: under ``synchronous=FULL`` (benchmarks/bench_ingest.py, side by
# side) one in flight made 7.3 rows a commit instead of 4.3 and cost 13 % less CPU a request.
MAX_IN_FLIGHT = 1


class RowInserts(Protocol):
    """Concurrent one-row inserts, each caller waiting for its own row's commit."""

    async def add(self, row: Sequence[object]) -> bool:
        """Insert ``row`` once it is committed; True when it is new, False when its key was
        there already."""
        ...


class GroupedInserts:
    """Inserts rows into ``table`` (``columns``), skipping rows whose ``key`` exists already.

    ``add`` returns True when the row was inserted, False when its key was there already (or
    an earlier row of the same group had the same key).
    """

    def __init__(
        self,
        db: Executor,
        table: str,
        columns: Sequence[str],
        key: str,
        *,
        max_in_flight: int = MAX_IN_FLIGHT,
    ) -> None:
        self._db = db
        self._sql = GroupSql(table, columns, key)
        self._max_in_flight = max_in_flight
        self._in_flight = 0
        self._waiting: list[tuple[Sequence[object], asyncio.Future[bool]]] = []
        self._flushes: set[asyncio.Task[None]] = set()

    async def add(self, row: Sequence[object]) -> bool:
        """Insert ``row`` (values in column order) once it is committed; True when it is new."""
        self._sql.check_width(row)
        if self._in_flight >= self._max_in_flight:
            future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            self._waiting.append((row, future))
            return await future
        self._in_flight += 1
        try:
            return (await self._insert([row]))[0]
        finally:
            self._in_flight -= 1
            self._hand_over()

    def _hand_over(self) -> None:
        """The rows that queued meanwhile go next, as one group, in a task of their own (so no
        caller waits for a later group than its own)."""
        while self._waiting and self._in_flight < self._max_in_flight:
            group = self._waiting[:MAX_GROUP_ROWS]
            del self._waiting[:MAX_GROUP_ROWS]
            self._in_flight += 1
            task = asyncio.create_task(self._flush(group))
            self._flushes.add(task)
            task.add_done_callback(self._flushes.discard)

    async def _flush(self, group: list[tuple[Sequence[object], asyncio.Future[bool]]]) -> None:
        try:
            inserted = await self._insert([row for row, _ in group])
        except Exception as error:
            for _, future in group:
                if not future.done():
                    future.set_exception(error)
        except BaseException:
            for _, future in group:
                future.cancel()
            raise
        else:
            for (_, future), new in zip(group, inserted, strict=True):
                if not future.done():  # its caller may have given up (a dropped connection)
                    future.set_result(new)
        finally:
            self._in_flight -= 1
            self._hand_over()

    async def _insert(self, rows: list[Sequence[object]]) -> list[bool]:
        if len(rows) == 1:
            return [await self._db.execute(self._sql.lone, rows[0]) > 0]
        fresh = await self._db.fetch_all(self._sql.group(len(rows)), self._sql.params(rows))
        return self._sql.news(rows, fresh)


class GroupSql:
    """The statements of grouped inserts into ``table`` (``columns``), skipping rows whose
    ``key`` exists already: the lone row's, and a group's with ``RETURNING key``."""

    def __init__(self, table: str, columns: Sequence[str], key: str) -> None:
        if key not in columns:
            raise ValueError(f"the key {key!r} must be one of the columns")
        if not all(name.isidentifier() for name in (table, *columns)):
            raise ValueError("table and column names must be plain identifiers")
        # Names are the repository's own constants (checked above); values are parameters.
        self._head = f"INSERT INTO {table} ({', '.join(columns)}) VALUES "  # noqa: S608
        self._row = "(" + ", ".join("?" * len(columns)) + ")"
        self._tail = f" ON CONFLICT ({key}) DO NOTHING RETURNING {key}"
        #: One row: its changed-row count says whether it was new.
        self.lone = self._head + self._row + f" ON CONFLICT ({key}) DO NOTHING"
        self._key_index = list(columns).index(key)
        self._width = len(columns)
        self._texts: dict[int, str] = {}  # rows -> statement text (one prepared statement each)

    def check_width(self, row: Sequence[object]) -> None:
        """Refuse a row with the wrong number of values."""
        if len(row) != self._width:
            raise ValueError(f"a row has {self._width} values, not {len(row)}")

    def group(self, count: int) -> str:
        """The statement inserting ``count`` rows, returning the keys of the new ones."""
        text = self._texts.get(count)
        if text is None:
            text = self._texts[count] = self._head + ", ".join([self._row] * count) + self._tail
        return text

    @staticmethod
    def params(rows: Sequence[Sequence[object]]) -> list[object]:
        """A group's parameters, row after row."""
        return [value for row in rows for value in row]

    def news(
        self, rows: Sequence[Sequence[object]], returned: Sequence[Sequence[object]]
    ) -> list[bool]:
        """For each row of a group, whether it was new (``returned``: the group's statement's
        rows). Within one group a repeated key is inserted once: only its first row is new."""
        fresh = {row[0] for row in returned}
        news = []
        for row in rows:
            key = row[self._key_index]
            news.append(key in fresh)
            fresh.discard(key)
        return news

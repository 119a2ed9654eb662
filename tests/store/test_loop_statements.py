"""Short lone reads (and, under ``synchronous=NORMAL``, writes) run on the event loop's thread;
anything else keeps the worker."""

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.store.database import Database
from bot.store.loop_statements import LoopConnection, TooLongForTheLoop

ROWS = 100_000


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.connect(tmp_path / "r.db", synchronous="NORMAL")
    await database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    yield database
    await database.close()


def finished_without_waiting(coroutine: object) -> object:
    """Run ``coroutine`` one step: its result when it never had to wait for anything."""
    assert hasattr(coroutine, "send")
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()  # type: ignore[attr-defined]
    raise AssertionError("the statement waited (it went to the worker thread)")


async def test_a_read_by_key_is_answered_without_leaving_the_loop(db: Database) -> None:
    await db.execute("INSERT INTO t VALUES (1, 'one')")
    assert finished_without_waiting(db.fetch_one("SELECT v FROM t WHERE k = ?", (1,))) == ("one",)
    assert finished_without_waiting(db.fetch_all("  select k FROM t")) == [(1,)]


async def test_a_read_sees_every_write_committed_before_it(db: Database) -> None:
    for k in range(20):
        await db.execute("INSERT INTO t VALUES (?, 'x')", (k,))
        assert await db.fetch_one("SELECT count(*) FROM t") == (k + 1,)
    async with db.transaction() as tx:
        await tx.execute("DELETE FROM t WHERE k < 10")
    assert await db.fetch_one("SELECT min(k) FROM t") == (10,)


class WorkerStatements:
    """The statements that went to aiosqlite's worker thread, by SQL text."""

    def __init__(self, db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sql: list[str] = []
        statements = db._statements
        for name in ("execute", "fetch_all"):
            monkeypatch.setattr(statements, name, self._counted(getattr(statements, name)))

    def _counted(self, run: Any) -> Any:
        async def counted(sql: str, params: Any = ()) -> Any:
            self.sql.append(sql)
            return await run(sql, params)

        return counted


async def test_returning_statements_stay_on_the_worker(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    await db.execute("INSERT INTO t VALUES (1, 'one')")
    worker = WorkerStatements(db, monkeypatch)
    assert await db.fetch_all("DELETE FROM t WHERE k = 1 RETURNING v") == [("one",)]
    assert worker.sql == ["DELETE FROM t WHERE k = 1 RETURNING v"]
    assert await db.fetch_all("SELECT k FROM t") == []


async def test_under_normal_a_lone_write_is_made_without_leaving_the_loop(db: Database) -> None:
    assert finished_without_waiting(db.execute("INSERT INTO t VALUES (?, ?)", (1, "one"))) == 1
    changed = finished_without_waiting(db.execute("UPDATE t SET v = 'uno' WHERE k >= 0"))
    assert changed == 1
    assert await db.fetch_all("SELECT k, v FROM t") == [(1, "uno")]
    # Foreign keys hold there as on the worker.
    await db.execute("CREATE TABLE child (k INTEGER REFERENCES t (k))")
    with pytest.raises(sqlite3.IntegrityError):
        await db.execute("INSERT INTO child VALUES (2)")
    assert finished_without_waiting(db.execute("DELETE FROM t WHERE k = 1")) == 1


async def test_under_full_every_write_waits_for_the_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = await Database.connect(tmp_path / "full.db", synchronous="FULL")
    try:
        await database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
        worker = WorkerStatements(database, monkeypatch)
        assert await database.execute("INSERT INTO t VALUES (1)") == 1
        assert worker.sql == ["INSERT INTO t VALUES (1)"]
        # A TEMP view is made on the read-only connection too, and reads still answer there.
        await database.prepare_connections("CREATE TEMP VIEW named AS SELECT k FROM t")
        assert finished_without_waiting(database.fetch_all("SELECT k FROM named")) == [(1,)]
        assert finished_without_waiting(database.fetch_all("SELECT k FROM t")) == [(1,)]
    finally:
        await database.close()


async def test_a_write_behind_queued_work_keeps_its_place(db: Database) -> None:
    """While the worker has a statement queued, a write does not overtake it."""
    await db.execute("INSERT INTO t VALUES (1, 'first')")
    queued = asyncio.ensure_future(db.execute("UPDATE t SET v = 'queued' WHERE k = 1"))
    await asyncio.sleep(0)  # the update is now queued on the worker
    if not queued.done():
        later = db.execute("UPDATE t SET v = 'later' WHERE k = 1")
        with pytest.raises(AssertionError, match="waited"):
            finished_without_waiting(later)
    await queued
    await db.execute("UPDATE t SET v = 'later' WHERE k = 1")
    assert await db.fetch_one("SELECT v FROM t WHERE k = 1") == ("later",)


async def test_reads_pass_a_write_queued_through_passed_by_reads(tmp_path: Path) -> None:
    """Under FULL every write is queued on the worker; a read waits for an ordinary one but
    passes one flagged ``passed_by_reads`` (and sees the last commit)."""
    database = await Database.connect(tmp_path / "full.db", synchronous="FULL")
    try:
        await database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
        await database.execute("INSERT INTO t VALUES (1)")
        ordinary = asyncio.ensure_future(database.execute("INSERT INTO t VALUES (2)"))
        await asyncio.sleep(0)  # queued on the worker
        with pytest.raises(AssertionError, match="waited"):
            finished_without_waiting(database.fetch_all("SELECT k FROM t"))
        await ordinary

        passed = database.passed_by_reads()
        flagged = asyncio.ensure_future(passed.execute("INSERT INTO t VALUES (3)"))
        await asyncio.sleep(0)  # queued on the worker
        seen = finished_without_waiting(database.fetch_all("SELECT k FROM t ORDER BY k"))
        assert seen in ([(1,), (2,)], [(1,), (2,), (3,)])  # never waits; 3 once committed
        await flagged
        assert await database.fetch_all("SELECT k FROM t") == [(1,), (2,), (3,)]
    finally:
        await database.close()


async def test_a_write_on_a_busy_file_goes_to_the_worker_and_waits_there(
    db: Database,
) -> None:
    other = sqlite3.connect(db.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        writing = asyncio.ensure_future(db.execute("INSERT INTO t VALUES (5, 'five')"))
        await asyncio.sleep(0)
        assert not writing.done()  # waiting on the worker: the loop runs on meanwhile
        other.execute("COMMIT")
        assert await writing == 1
    finally:
        other.close()
    assert await db.fetch_all("SELECT k FROM t") == [(5,)]


async def test_a_long_scan_goes_to_the_worker_and_is_sent_there_after(db: Database) -> None:
    # One statement fills the table: a recursive count, too long for the loop, so it is
    # interrupted there (rolled back whole) and written on the worker.
    await db.execute(
        """INSERT INTO t WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n
        WHERE k + 1 < ?) SELECT k, 'value ' || k FROM n""",
        (ROWS,),
    )
    scan = "SELECT sum(length(v)) FROM t"
    expected = sum(len(f"value {n}") for n in range(ROWS))
    assert await db.fetch_one(scan) == (expected,)
    # Remembered: the second time it waits for the worker without trying the loop first.
    second = db.fetch_one(scan)
    with pytest.raises(AssertionError, match="waited"):
        finished_without_waiting(second)
    assert await db.fetch_one(scan) == (expected,)


async def test_a_long_write_is_made_whole_on_the_worker_and_sent_there_after(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill = """INSERT INTO t WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n
        WHERE k + 1 < ?) SELECT k, 'v' FROM n"""
    worker = WorkerStatements(db, monkeypatch)
    # Interrupted on the loop past its budget (nothing of it kept), then made on the worker.
    assert await db.execute(fill, (ROWS,)) == ROWS
    assert worker.sql == [fill]
    emptying = "DELETE FROM t WHERE k >= ?"
    assert await db.execute(emptying, (ROWS // 2,)) == ROWS // 2  # too long: the worker's
    assert worker.sql == [fill, emptying]
    assert await db.execute(emptying, (0,)) == ROWS // 2  # remembered: straight there
    assert worker.sql == [fill, emptying, emptying]
    assert await db.fetch_one("SELECT count(*) FROM t") == (0,)


def _budgeted_reader(path: Path) -> tuple[sqlite3.Connection, LoopConnection]:
    """A file of 5,000 rows (its writer kept open) and a reader with a 2,000-step budget."""
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
    writer.executemany("INSERT INTO t VALUES (?)", [(k,) for k in range(5000)])
    return writer, LoopConnection(path, cached_statements=8, step_budget=2000)


def test_the_reader_refuses_past_its_step_budget_and_remembers(tmp_path: Path) -> None:
    writer, reader = _budgeted_reader(tmp_path / "budget.db")
    try:
        assert reader.takes("SELECT k FROM t WHERE k = ?")
        assert reader.fetch_all("SELECT k FROM t WHERE k = ?", (7,)) == [(7,)]
        scan = "SELECT sum(k) FROM t"
        with pytest.raises(TooLongForTheLoop):
            reader.fetch_all(scan, ())
        assert not reader.takes(scan)
        assert not reader.takes("INSERT INTO t VALUES (1)")
        assert not reader.takes("WITH x AS (SELECT 1) DELETE FROM t")
        # A mistake in the statement is the caller's error, as on the worker.
        with pytest.raises(sqlite3.OperationalError):
            reader.fetch_all("SELECT nothing FROM nowhere", ())
    finally:
        reader.close()
        writer.close()


def test_a_read_that_runs_long_after_its_first_row_is_refused_too(tmp_path: Path) -> None:
    # SQLite steps a SELECT lazily: its first row may come at once and the budget run out
    # while the rest is fetched, which must be refused like a slow start, not fail.
    writer, reader = _budgeted_reader(tmp_path / "lazy.db")
    try:
        every_row = "SELECT k FROM t"
        with pytest.raises(TooLongForTheLoop):
            reader.fetch_all(every_row, ())
        assert not reader.takes(every_row)
    finally:
        reader.close()
        writer.close()


def test_the_reader_never_waits_for_a_lock(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
    reader = LoopConnection(path, cached_statements=8)
    # An exclusive-locking connection keeps every other connection out of the file.
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("INSERT INTO t VALUES (1)")
    try:
        with pytest.raises(TooLongForTheLoop):
            reader.fetch_all("SELECT k FROM t", ())
        assert reader.takes("SELECT k FROM t")  # busy is not "too long": tried again next time
    finally:
        reader.close()
        holder.close()


def test_a_connection_opened_for_reads_cannot_write(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    sqlite3.connect(path, isolation_level=None).execute("CREATE TABLE t (k INTEGER)")
    reader = LoopConnection(path, cached_statements=8)
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            reader.fetch_all("INSERT INTO t VALUES (1) RETURNING k", ())
    finally:
        reader.close()


async def test_a_temp_view_is_made_on_both_connections(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    await db.prepare_connections("CREATE TEMP VIEW named AS SELECT k, v FROM t")
    await db.execute("INSERT INTO t VALUES (1, 'a')")
    worker = WorkerStatements(db, monkeypatch)
    assert await db.fetch_all("SELECT v FROM named") == [("a",)]
    assert worker.sql == []  # read on the loop's connection
    async with db.transaction() as tx:  # and on the worker's
        assert await tx.fetch_all("SELECT v FROM named") == [("a",)]

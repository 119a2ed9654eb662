"""Short lone reads are answered on the event loop's thread; anything else keeps the worker."""

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.database import Database
from bot.store.loop_reads import LoopReader, TooLongForTheLoop

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
    raise AssertionError("the read waited (it went to the worker thread)")


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


async def test_writes_and_returning_statements_stay_on_the_worker(db: Database) -> None:
    await db.execute("INSERT INTO t VALUES (1, 'one')")
    deleting = db.fetch_all("DELETE FROM t WHERE k = 1 RETURNING v")
    assert await deleting == [("one",)]
    assert await db.fetch_all("SELECT k FROM t") == []


async def test_a_long_scan_goes_to_the_worker_and_is_sent_there_after(db: Database) -> None:
    # One statement fills the table: a recursive count, written on the worker.
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


def test_the_reader_refuses_past_its_step_budget_and_remembers(tmp_path: Path) -> None:
    path = tmp_path / "budget.db"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
    writer.executemany("INSERT INTO t VALUES (?)", [(k,) for k in range(5000)])
    reader = LoopReader(path, cached_statements=8, step_budget=2000)
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


def test_the_reader_never_waits_for_a_lock(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
    reader = LoopReader(path, cached_statements=8)
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


def test_the_reader_cannot_write(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    sqlite3.connect(path, isolation_level=None).execute("CREATE TABLE t (k INTEGER)")
    reader = LoopReader(path, cached_statements=8)
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            reader.fetch_all("INSERT INTO t VALUES (1) RETURNING k", ())
    finally:
        reader.close()

"""Grouped inserts taken on SQLite's worker thread: a burst shares commits, each caller learns
about its own row, a failure stays with its group, and the next group needs no event loop."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.database import Database, Synchronous
from bot.store.grouped_inserts import MAX_GROUP_ROWS, GroupedInserts
from bot.store.store_errors import StoreError
from bot.store.worker_group_inserts import WorkerGroupedInserts


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.connect(tmp_path / "w.db", synchronous="FULL")
    await database.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
    yield database
    await database.close()


def inserts_into_t(db: Database) -> WorkerGroupedInserts:
    return WorkerGroupedInserts(db, "t", ("k", "v"), "k")


async def test_the_worker_runs_a_function_with_the_connection(db: Database) -> None:
    # The one place the store reaches into aiosqlite's internals (``run_on_worker``): this
    # fails first if a new aiosqlite renames them.
    def on_thread(conn: sqlite3.Connection) -> tuple[object, str]:
        return conn.execute("SELECT 41 + 1").fetchone()[0], threading.current_thread().name

    answer, thread = await db.run_on_worker(on_thread)
    assert answer == 42
    assert thread != threading.current_thread().name


async def test_a_burst_is_committed_in_groups(db: Database) -> None:
    inserts = inserts_into_t(db)
    results = await asyncio.gather(*(inserts.add((f"k{n}", n)) for n in range(300)))
    assert results == [True] * 300
    # Every row was waiting before the worker's first trip: full groups of 64.
    assert inserts.statements == -(-300 // MAX_GROUP_ROWS)
    rows = await db.fetch_all("SELECT k, v FROM t ORDER BY v")
    assert rows == [(f"k{n}", n) for n in range(300)]


async def test_each_caller_learns_whether_its_own_row_was_new(db: Database) -> None:
    inserts = inserts_into_t(db)
    assert await inserts.add(("old", 0))
    keys = ["a", "old", "b", "a", "c"]  # "old" is stored; "a" comes twice in one group
    results = await asyncio.gather(*(inserts.add((key, n)) for n, key in enumerate(keys)))
    assert results == [True, False, True, False, True]
    assert await db.fetch_all("SELECT k, v FROM t WHERE k = 'a'") == [("a", 0)]
    assert not await inserts.add(("a", 9))  # a lone repeat, later


async def test_a_failing_group_fails_every_caller_in_it_and_no_other(db: Database) -> None:
    inserts = inserts_into_t(db)
    # v is NOT NULL: the first group (64 rows, y among them) fails as a whole; the second
    # group repeats the first one's good keys, which are therefore new.
    good = [(f"g{n}", n) for n in range(MAX_GROUP_ROWS)]
    bad = [("x", 1), ("y", None), ("z", 3)]
    rows: list[Sequence[object]] = [*bad, *good[: MAX_GROUP_ROWS - 3], *good]
    results = await asyncio.gather(*(inserts.add(row) for row in rows), return_exceptions=True)
    first, second = results[:MAX_GROUP_ROWS], results[MAX_GROUP_ROWS:]
    assert all(isinstance(result, sqlite3.IntegrityError) for result in first)
    assert second == [True] * MAX_GROUP_ROWS
    assert await db.fetch_all("SELECT k FROM t WHERE k IN ('x', 'y', 'z')") == []
    assert await inserts.add(("w", 4))  # the next caller is not stuck behind the failure


async def test_the_next_group_is_taken_while_the_event_loop_is_busy(db: Database) -> None:
    """The point of grouping on the worker: between two groups no trip through the loop. The
    loop's thread is blocked here while the burst is written; ``GroupedInserts`` would get
    no further than its first group."""
    inserts = inserts_into_t(db)
    second_group_done = threading.Event()
    insert = inserts._insert

    def watched(conn: sqlite3.Connection, rows: list[Sequence[object]]) -> list[bool]:
        news = insert(conn, rows)
        if inserts.statements == 2:
            second_group_done.set()
        return news

    inserts._insert = watched  # type: ignore[method-assign]
    adds = asyncio.gather(*(inserts.add((f"k{n}", n)) for n in range(2 * MAX_GROUP_ROWS)))
    await asyncio.sleep(0)  # every add queues its row; the first starts the worker's trip
    await asyncio.sleep(0)  # the trip is queued on the worker thread
    # Blocks the event loop (the wait is on another thread's work): nothing on the loop runs.
    assert second_group_done.wait(timeout=30)
    assert await adds == [True] * (2 * MAX_GROUP_ROWS)


async def test_adds_after_the_store_closed_are_refused(tmp_path: Path) -> None:
    database = await Database.connect(tmp_path / "c.db", synchronous="FULL")
    await database.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
    inserts = inserts_into_t(database)
    assert await inserts.add(("a", 1))
    await database.close()
    with pytest.raises(StoreError):
        await inserts.add(("b", 2))
    with pytest.raises(StoreError):  # and again: the failed trip left nothing half-done
        await inserts.add(("c", 3))


@pytest.mark.parametrize(
    ("synchronous", "kind"), [("FULL", WorkerGroupedInserts), ("NORMAL", GroupedInserts)]
)
async def test_the_store_groups_on_the_worker_when_commits_wait_for_the_disk(
    tmp_path: Path, synchronous: Synchronous, kind: type
) -> None:
    async with Store.open(tmp_path / "bot.db", synchronous=synchronous) as store:
        assert isinstance(store.inbox._adds, kind)
        assert isinstance(store.telegram_inbox._adds, kind)
        assert await store.telegram_inbox.add(7, None, "{}")
        assert not await store.telegram_inbox.add(7, None, "{}")
        assert await store.telegram_inbox.count() == 1

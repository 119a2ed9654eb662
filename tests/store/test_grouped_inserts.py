"""Concurrent inbox adds share commits, and each caller still learns only about its own row."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.database import Database
from bot.store.grouped_inserts import MAX_GROUP_ROWS, MAX_IN_FLIGHT, GroupedInserts


class CountingDatabase:
    """A ``Database`` that counts the statements (each one a commit in autocommit mode)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.statements = 0

    async def execute(self, sql: str, params: object = ()) -> int:
        assert "RETURNING" not in sql  # a row that goes alone: its changed-row count says
        self.statements += 1
        return await self.db.execute(sql, params)  # type: ignore[arg-type]

    async def fetch_all(self, sql: str, params: object = ()) -> list[tuple[object, ...]]:
        self.statements += 1
        return await self.db.fetch_all(sql, params)  # type: ignore[arg-type]

    async def fetch_one(self, sql: str, params: object = ()) -> tuple[object, ...] | None:
        raise AssertionError("not used")


@pytest.fixture
async def counted(tmp_path: Path) -> CountingDatabase:
    # FULL: every statement goes to aiosqlite's thread (under NORMAL a row alone is written on
    # the loop's thread at once, so a burst never has to wait and never groups).
    db = await Database.connect(tmp_path / "g.db", synchronous="FULL")
    await db.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
    return CountingDatabase(db)


async def test_a_burst_is_committed_in_fewer_statements_than_rows(
    counted: CountingDatabase,
) -> None:
    inserts = GroupedInserts(counted, "t", ("k", "v"), "k")  # type: ignore[arg-type]
    results = await asyncio.gather(*(inserts.add((f"k{n}", n)) for n in range(200)))
    assert results == [True] * 200
    # The first ones go alone while there is room in flight; the rest queue behind them and
    # go in groups of at most 64.
    grouped = 200 - MAX_IN_FLIGHT
    assert counted.statements == MAX_IN_FLIGHT + -(-grouped // MAX_GROUP_ROWS)
    rows = await counted.db.fetch_all("SELECT k, v FROM t ORDER BY v")
    assert rows == [(f"k{n}", n) for n in range(200)]
    await counted.db.close()


async def test_each_caller_learns_whether_its_own_row_was_new(counted: CountingDatabase) -> None:
    inserts = GroupedInserts(counted, "t", ("k", "v"), "k")  # type: ignore[arg-type]
    assert await inserts.add(("old", 0))
    keys = ["a", "old", "b", "a", "c"]  # "old" is stored; "a" comes twice in one group
    results = await asyncio.gather(*(inserts.add((key, n)) for n, key in enumerate(keys)))
    assert results == [True, False, True, False, True]
    assert await counted.db.fetch_all("SELECT k, v FROM t WHERE k = 'a'") == [("a", 0)]
    await counted.db.close()


async def test_a_failing_group_fails_every_caller_in_it(counted: CountingDatabase) -> None:
    inserts = GroupedInserts(counted, "t", ("k", "v"), "k")  # type: ignore[arg-type]
    alone = [(f"a{n}", n) for n in range(MAX_IN_FLIGHT)]  # these go at once, one each
    group = [("x", 1), ("y", None), ("z", 3)]  # v is NOT NULL: the group holding y fails
    results = await asyncio.gather(
        *(inserts.add(row) for row in alone + group), return_exceptions=True
    )
    assert results[:MAX_IN_FLIGHT] == [True] * MAX_IN_FLIGHT
    assert all(isinstance(r, sqlite3.IntegrityError) for r in results[MAX_IN_FLIGHT:])
    assert await counted.db.fetch_all("SELECT k FROM t WHERE k IN ('x', 'y', 'z')") == []
    assert await inserts.add(("w", 4))  # the next caller is not stuck behind the failure
    await counted.db.close()


async def test_concurrent_webhook_adds_are_each_stored_once(store: Store) -> None:
    ids = [f"evt_{n % 30}" for n in range(45)]  # 15 redeliveries among them
    added = await asyncio.gather(
        *(
            store.inbox.add(event_id, "dlv", "delivery.updated", n, b"{}")
            for n, event_id in enumerate(ids)
        )
    )
    assert sum(added) == 30
    assert [added[ids.index(f"evt_{n}")] for n in range(30)] == [True] * 30
    pending = await store.inbox.next_batch(100)
    assert sorted(event.event_id for event in pending) == sorted(set(ids))
    # Arrival order is kept inside each group: ``created`` ties are broken by arrival.
    assert [event.created for event in pending] == list(range(30))

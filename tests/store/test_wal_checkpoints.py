"""The WAL is checkpointed on a connection of its own, never inside one of the store's commits."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.database import Database
from bot.store.wal_checkpoints import CHECKPOINT_EVERY, WalCheckpointer


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.connect(tmp_path / "w.db", synchronous="NORMAL")
    await database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    yield database
    await database.close()


async def test_under_normal_the_stores_commits_never_checkpoint(db: Database) -> None:
    assert await db.fetch_all("PRAGMA wal_autocheckpoint") == [(0,)]


async def test_under_full_the_workers_commits_checkpoint_as_by_default(tmp_path: Path) -> None:
    database = await Database.connect(tmp_path / "f.db", synchronous="FULL")
    try:
        assert database._checkpointer is None
        assert await database.fetch_all("PRAGMA wal_autocheckpoint") == [(1000,)]
    finally:
        await database.close()


async def test_a_checkpoint_runs_on_its_own_after_enough_statements(db: Database) -> None:
    checkpointer = db._checkpointer
    assert checkpointer is not None
    checkpointer._since = 0
    before = db.path.stat().st_size
    row = "x" * 1000
    for k in range(CHECKPOINT_EVERY - 1):
        await db.execute("INSERT INTO t VALUES (?, ?)", (k, row))
    # About 100 KB committed, all of it still in the WAL: no commit copied it back.
    assert checkpointer._running is None
    assert db.path.stat().st_size == before
    await db.execute("INSERT INTO t VALUES (?, ?)", (CHECKPOINT_EVERY, row))
    running = checkpointer._running
    assert running is not None  # started by the hundredth statement, which did not wait for it
    await running
    assert db.path.stat().st_size > before + (CHECKPOINT_EVERY - 1) * len(row)
    assert await db.fetch_one("SELECT count(*) FROM t") == (CHECKPOINT_EVERY,)


async def test_transactions_count_too(db: Database) -> None:
    checkpointer = db._checkpointer
    assert checkpointer is not None
    checkpointer._since = CHECKPOINT_EVERY - 1
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO t VALUES (1, 'x')")
    assert checkpointer._running is not None
    await checkpointer._running


async def test_a_busy_checkpoint_is_logged_and_tried_again_later(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "busy.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE t (k INTEGER)")
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("INSERT INTO t VALUES (1)")  # keeps every other connection out
    checkpointer = WalCheckpointer(path, every=1)
    try:
        checkpointer.counted()
        assert checkpointer._running is not None
        await checkpointer._running
        assert checkpointer.checkpoints == 0
        assert "WAL checkpoint failed" in caplog.text
        checkpointer.counted()  # the next statement tries again
        assert checkpointer._running is not None
        await checkpointer._running
    finally:
        await checkpointer.close()
        holder.close()


async def test_no_checkpoint_starts_once_closed(tmp_path: Path) -> None:
    database = await Database.connect(tmp_path / "c.db", synchronous="NORMAL")
    checkpointer = database._checkpointer
    assert checkpointer is not None
    await database.close()
    checkpointer.counted(CHECKPOINT_EVERY)
    assert checkpointer._running is None

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.database import Database
from bot.store.store_errors import StoreError


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.connect(tmp_path / "t.db", synchronous="NORMAL")
    await database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    yield database
    await database.close()


async def test_a_transaction_commits_all_its_statements(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO t VALUES (1, 'a')")
        await tx.execute("INSERT INTO t VALUES (2, 'b')")
    assert await db.fetch_all("SELECT k, v FROM t ORDER BY k") == [(1, "a"), (2, "b")]


async def test_an_exception_rolls_the_whole_transaction_back(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO t VALUES (1, 'a')")
            raise RuntimeError("boom")
    assert await db.fetch_all("SELECT k FROM t") == []
    # The connection is usable again afterwards.
    assert await db.execute("INSERT INTO t VALUES (3, 'c')") == 1


async def test_another_coroutine_never_lands_inside_an_open_transaction(db: Database) -> None:
    inside = asyncio.Event()
    release = asyncio.Event()

    async def failing_transaction() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO t VALUES (1, 'rolled back')")
            inside.set()
            await release.wait()
            raise RuntimeError("abort")

    task = asyncio.create_task(failing_transaction())
    await inside.wait()
    # This write waits for the lock instead of joining (and dying with) the open transaction.
    writer = asyncio.create_task(db.execute("INSERT INTO t VALUES (2, 'kept')"))
    await asyncio.sleep(0)
    assert not writer.done()
    release.set()
    with pytest.raises(RuntimeError):
        await task
    assert await writer == 1
    assert await db.fetch_all("SELECT k, v FROM t") == [(2, "kept")]


async def test_fetch_one_returns_none_without_rows(db: Database) -> None:
    assert await db.fetch_one("SELECT k FROM t") is None


async def test_lone_statements_racing_failing_transactions_are_all_kept(db: Database) -> None:
    # Lone statements take no lock unless a transaction holds it: whichever way the tasks
    # interleave, none may be queued between another task's BEGIN and its ROLLBACK.
    async def lone(k: int) -> None:
        await db.execute("INSERT INTO t VALUES (?, 'lone')", (k,))

    async def failing(k: int) -> None:
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO t VALUES (?, 'rolled back')", (k,))
                await asyncio.sleep(0)
                await tx.execute("INSERT INTO t VALUES (?, 'rolled back')", (k + 1,))
                raise RuntimeError("abort")

    tasks = [lone(k) if k % 3 else failing(k * 1000) for k in range(1, 61)]
    await asyncio.gather(*tasks)
    kept = await db.fetch_all("SELECT k, v FROM t ORDER BY k")
    assert kept == [(k, "lone") for k in range(1, 61) if k % 3]


async def test_a_lone_statement_after_close_is_a_store_error(tmp_path: Path) -> None:
    database = await Database.connect(tmp_path / "closed.db", synchronous="NORMAL")
    await database.close()
    with pytest.raises(StoreError):
        await database.execute("SELECT 1")
    with pytest.raises(StoreError):
        await database.fetch_one("SELECT 1")

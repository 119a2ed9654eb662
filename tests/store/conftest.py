"""Fixtures for the store tests: a hand-moved clock, and the store on each backend.

``store`` is parametrized: every test that takes it runs once on a real SQLite file in
tmp_path and once on the session's throwaway PostgreSQL server (``postgres_server``), so the
repositories' contract is one suite for both. The PostgreSQL database is made once per session
and emptied (``TRUNCATE``) before each test, which is much faster than a database per test.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncpg
import pytest

from bot.clocks import Clock
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres

START = 1_700_000_000.0

# What each backend raises for a broken constraint and for a missing table.
INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
MISSING_TABLE_ERRORS = (sqlite3.OperationalError, asyncpg.UndefinedTableError)


class FakeClock:
    """The store's clock; only ``advance`` moves it."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def clock(fake_clock: FakeClock) -> Clock:
    """What the store reads the time from."""
    return fake_clock


@pytest.fixture
def advance(fake_clock: FakeClock) -> Callable[[float], None]:
    """Move the store's clock forward by some seconds."""
    return fake_clock.advance


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


_STORE_TESTS_DATABASE = "store_tests"
_made: set[int] = set()  # the servers (by port) that have the database already


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Which database the ``store`` of this test runs on."""
    return str(request.param)


async def empty_postgres_database(postgres_server: LocalPostgres) -> str:
    """An empty (truncated) database on the session's server; its DSN."""
    if postgres_server.port not in _made:
        dsn = await postgres_server.create_database(_STORE_TESTS_DATABASE)
        _made.add(postgres_server.port)
        return dsn
    dsn = postgres_server.dsn(_STORE_TESTS_DATABASE)
    conn = await asyncpg.connect(dsn)
    try:
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_version'"
        )
        if tables:
            names = ", ".join(f'"{row[0]}"' for row in tables)
            await conn.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()
    return dsn


@pytest.fixture
async def store(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, db_path: Path, clock: Clock
) -> AsyncIterator[Store]:
    if backend == "postgres":
        dsn = await empty_postgres_database(request.getfixturevalue("postgres_server"))
        opened = await Store.connect_postgres(dsn, media_dir=tmp_path / "media", clock=clock)
        try:
            yield opened
        finally:
            await opened.close()
        return
    async with Store.open(db_path, clock=clock, synchronous="NORMAL") as opened:
        yield opened

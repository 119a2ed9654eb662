"""The ``store`` fixture, one for every test folder and both backends.

``store`` is a real store, closed after the test: a SQLite file at ``tmp_path / STORE_FILE``
(``synchronous="NORMAL"``: tests want speed, not durability across a power cut), or a database
on the session's throwaway PostgreSQL server (``postgres_server``), emptied (``TRUNCATE``)
before each test, which is much faster than a database per test. A folder's conftest says how
it wants it by overriding two small fixtures:

- ``store_backend``: ``"sqlite"`` (the default) or ``"postgres"``; ``tests/store`` parametrizes
  it over both, so the repositories' contract is one suite for both backends;
- ``store_clock``: what the store reads the time from (the system's clock by default; a
  folder's fake clock, so the tests move it).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from bot.clocks import Clock, system_clock
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres

STORE_FILE = "bot.db"
"""The SQLite file's name in ``tmp_path``: a test reopens it there to play a restart."""

_STORE_TESTS_DATABASE = "store_tests"


async def empty_postgres_database(
    postgres_server: LocalPostgres, name: str = _STORE_TESTS_DATABASE
) -> str:
    """An empty (truncated) database ``name`` on the session's server, created and migrated
    by its first user; its DSN. The schema stays (migrating a new database costs a second or
    more, a ``TRUNCATE`` a few milliseconds), every row goes, identities restart."""
    conn = await asyncpg.connect(postgres_server.dsn())
    try:
        exists = await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
    finally:
        await conn.close()
    if not exists:
        return await postgres_server.create_database(name)
    dsn = postgres_server.dsn(name)
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
def store_backend() -> str:
    """Which database ``store`` runs on; a conftest overrides it (or parametrizes it)."""
    return "sqlite"


@pytest.fixture
def store_clock() -> Clock:
    """What ``store`` reads the time from; a conftest overrides it with its fake clock."""
    return system_clock


@asynccontextmanager
async def opened_store(
    store_backend: str, store_clock: Clock, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Store]:
    """The ``store`` fixture's store, for a module whose own ``store`` runs on another event
    loop (the browser tests' session loop: ``tests/staff_console/console_browser.py``)."""
    if store_backend == "postgres":
        # Asked for only here, so a SQLite-only run never starts a server.
        dsn = await empty_postgres_database(request.getfixturevalue("postgres_server"))
        opened = await Store.connect_postgres(
            dsn, media_dir=tmp_path / "media", clock=store_clock, channels=SHIPPED_CHANNEL_KINDS
        )
        try:
            yield opened
        finally:
            await opened.close()
        return
    assert store_backend == "sqlite", store_backend
    async with Store.open(tmp_path / STORE_FILE, clock=store_clock, synchronous="NORMAL") as opened:
        yield opened


@pytest.fixture
async def store(
    store_backend: str, store_clock: Clock, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Store]:
    """A real store on ``store_backend``, reading ``store_clock``; see the module docstring."""
    async with opened_store(store_backend, store_clock, request, tmp_path) as opened:
        yield opened

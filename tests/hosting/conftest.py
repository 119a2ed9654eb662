"""The hosting tests' backend: ``host_dsn`` is None (a SQLite file per business) or a fresh
database on the session's PostgreSQL server (a schema per business)."""

from __future__ import annotations

import itertools

import pytest

from bot.store.pg_local_server import LocalPostgres

_NUMBERS = itertools.count()


@pytest.fixture(params=["sqlite", "postgres"])
async def host_dsn(request: pytest.FixtureRequest) -> str | None:
    if request.param == "sqlite":
        return None
    server: LocalPostgres = request.getfixturevalue("postgres_server")
    return await server.create_database(f"hosting_{next(_NUMBERS)}")

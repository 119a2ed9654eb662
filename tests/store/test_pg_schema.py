"""The PostgreSQL schema is the SQLite one: same tables, same columns, same versions.

A SQLite migration appended without its PostgreSQL twin (``bot.store.pg_migrations``) fails
here, and so does a twin that forgot a column. Only what ``PG_ONLY_TABLES`` and
``PG_ONLY_COLUMNS`` declare may differ. Also: the numbering of parameters, and two instances
migrating one database at once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from bot.store import MIGRATIONS, Store, StoreError
from bot.store.pg_database import PgDatabase, numbered, redacted_dsn
from bot.store.pg_local_server import LocalPostgres
from bot.store.pg_migrations import PG_MIGRATIONS, PG_ONLY_COLUMNS, PG_ONLY_TABLES
from tests.support.store_fixture import empty_postgres_database


async def sqlite_columns(path: Path) -> dict[str, set[str]]:
    async with Store.open(path) as store:
        tables = await store._db.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        found: dict[str, set[str]] = {}
        for (table,) in tables:
            rows = await store._db.fetch_all("SELECT name FROM pragma_table_info(?)", (table,))
            found[str(table)] = {str(row[0]) for row in rows}
        return found


async def postgres_columns(dsn: str) -> dict[str, set[str]]:
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public'"
        )
    finally:
        await conn.close()
    found: dict[str, set[str]] = {}
    for table, column in rows:
        found.setdefault(str(table), set()).add(str(column))
    return found


async def test_both_schemas_have_the_same_tables_and_columns(
    tmp_path: Path, postgres_server: LocalPostgres
) -> None:
    dsn = await postgres_server.create_database("schema_compare")
    async with await Store.connect_postgres(dsn, media_dir=tmp_path / "media"):
        pass
    sqlite = await sqlite_columns(tmp_path / "bot.db")
    postgres = await postgres_columns(dsn)
    shared = {table: columns for table, columns in postgres.items() if table not in PG_ONLY_TABLES}
    for table, extra in PG_ONLY_COLUMNS.items():
        shared[table] = shared[table] - extra
    assert shared == sqlite


def test_every_sqlite_migration_has_its_postgres_twin() -> None:
    twins = [(m.version, m.name) for m in PG_MIGRATIONS]
    assert twins == [(m.version, m.name) for m in MIGRATIONS]


async def test_two_instances_migrating_at_once_apply_each_step_once(
    tmp_path: Path, postgres_server: LocalPostgres
) -> None:
    dsn = await postgres_server.create_database("migrate_race")
    stores = await asyncio.gather(
        *(Store.connect_postgres(dsn, media_dir=tmp_path / "media") for _ in range(3))
    )
    try:
        assert {store.schema_version for store in stores} == {MIGRATIONS[-1].version}
        rows = await stores[0]._db.fetch_all("SELECT version FROM schema_version ORDER BY 1")
        assert [row[0] for row in rows] == [m.version for m in MIGRATIONS]
    finally:
        for store in stores:
            await store.close()


@pytest.mark.parametrize(
    ("written", "bound"),
    [
        ("SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = $1 AND c = $2"),
        (
            "UPDATE t SET a = ? WHERE b IS NOT DISTINCT FROM ?",
            "UPDATE t SET a = $1 WHERE b IS NOT DISTINCT FROM $2",
        ),
        ("SELECT 1 WHERE a IS NULL OR b IS NOT NULL", "SELECT 1 WHERE a IS NULL OR b IS NOT NULL"),
        ("SELECT '?', 'it''s ?' WHERE a = ?", "SELECT '?', 'it''s ?' WHERE a = $1"),
        ("SELECT 1 WHERE NOT EXISTS (SELECT 1)", "SELECT 1 WHERE NOT EXISTS (SELECT 1)"),
    ],
)
def test_only_the_parameters_are_numbered_for_postgres(written: str, bound: str) -> None:
    assert numbered(written) == bound
    assert numbered(written) is numbered(written)  # cached by text


def test_a_dsn_is_shown_without_its_user_and_password() -> None:
    shown = redacted_dsn("postgresql://bot:s3cret-pass@db.example:6543/deliveries?sslmode=require")
    assert shown == "postgresql://db.example:6543/deliveries"


async def test_a_refused_connection_names_the_server_but_not_the_password(
    postgres_server: LocalPostgres,
) -> None:
    await empty_postgres_database(postgres_server)
    dsn = f"postgresql://bot:s3cret-pass@127.0.0.1:{postgres_server.port}/no_such_database"
    with pytest.raises(StoreError, match=r"127\.0\.0\.1.*no_such_database.*bot") as raised:
        await PgDatabase.connect(dsn)
    assert "s3cret" not in str(raised.value)
    # asyncpg's own error (which may quote the DSN) is not chained into tracebacks.
    assert raised.value.__cause__ is None and raised.value.__suppress_context__

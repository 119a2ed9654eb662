"""The schema a migrated database has, as sorted text lines, to compare with a snapshot.

SQLite: every object's ``CREATE`` text from ``sqlite_master`` (SQLite keeps what was run,
whitespace and all). PostgreSQL: each column's type, nullability, default and identity, each
constraint's and index's definition as the server prints it back. Both leave out the rows of
``schema_version`` (the times they were applied) but keep its version numbers and names.

``python -m tests.store.schema_dump`` migrates a new SQLite file and a new database on a
throwaway PostgreSQL server (``LocalPostgres``) and writes both snapshots again: after a new
schema step, the difference it leaves in ``schema_snapshots/`` is what that step made.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import tempfile
from pathlib import Path

import asyncpg

from bot.store import Store
from bot.store.pg_local_server import LocalPostgres

SNAPSHOTS = Path(__file__).with_name("schema_snapshots")


def sqlite_schema(path: Path) -> list[str]:
    """The ``sqlite_master`` entries and recorded versions of the file at ``path``."""
    with sqlite3.connect(path) as conn:
        objects = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        ).fetchall()
        versions = conn.execute("SELECT version, name FROM schema_version ORDER BY version")
        lines = [f"{kind} {name} on {table}: {sql}" for kind, name, table, sql in objects]
        lines += [f"version {version}: {name}" for version, name in versions.fetchall()]
    conn.close()
    return sorted(lines)


async def postgres_schema(dsn: str) -> list[str]:
    """The tables, columns, constraints, indexes and recorded versions at ``dsn``."""
    conn = await asyncpg.connect(dsn)
    try:
        columns = await conn.fetch(
            """SELECT table_name, ordinal_position, column_name, data_type, is_nullable,
                coalesce(column_default, ''), is_identity, coalesce(identity_generation, '')
            FROM information_schema.columns WHERE table_schema = 'public'"""
        )
        constraints = await conn.fetch(
            """SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)
            FROM pg_constraint WHERE connamespace = 'public'::regnamespace"""
        )
        indexes = await conn.fetch(
            "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'"
        )
        versions = await conn.fetch("SELECT version, name FROM schema_version")
    finally:
        await conn.close()
    lines = [f"column {' | '.join(str(value) for value in row)}" for row in columns]
    lines += [f"constraint {table} {name}: {definition}" for table, name, definition in constraints]
    lines += [f"index {table} {name}: {definition}" for table, name, definition in indexes]
    lines += [f"version {version}: {name}" for version, name in versions]
    return sorted(lines)


def snapshot_text(lines: list[str]) -> str:
    """A dumped schema as its snapshot file holds it."""
    return "\n".join(lines) + "\n"


async def dump_snapshots(base: Path) -> None:
    """Migrate a SQLite file and a PostgreSQL database under ``base`` from nothing, and write
    their schemas to ``SNAPSHOTS``."""
    async with Store.open(base / "bot.db"):
        pass
    (SNAPSHOTS / "sqlite.txt").write_text(snapshot_text(sqlite_schema(base / "bot.db")))
    # A directory of its own, as the tests' server has: as root it is handed to the server's user.
    server_dir = Path(tempfile.mkdtemp(prefix="deliverybot-pg-"))
    try:
        server = LocalPostgres.start(server_dir)
        try:
            dsn = await server.create_database("schema_snapshot")
            async with await Store.connect_postgres(dsn, media_dir=base / "media"):
                pass
            (SNAPSHOTS / "postgres.txt").write_text(snapshot_text(await postgres_schema(dsn)))
        finally:
            server.stop()
    finally:
        shutil.rmtree(server_dir, ignore_errors=True)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="deliverybot-schema-") as base:
        asyncio.run(dump_snapshots(Path(base)))

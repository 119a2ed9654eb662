"""The schema a migrated database has, as sorted text lines, to compare with a snapshot.

SQLite: every object's ``CREATE`` text from ``sqlite_master`` (SQLite keeps what was run,
whitespace and all). PostgreSQL: each column's type, nullability, default and identity, each
constraint's and index's definition as the server prints it back. Both leave out the rows of
``schema_version`` (the times they were applied) but keep its version numbers and names.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

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

"""The SQLite schema (``bot.store.schema`` in SQLite's words), and the code that applies it.

Each ``Migration`` is a numbered list of SQL statements. Opening a file applies, in order and
each in its own transaction, every migration newer than the file's recorded version, so an old
file upgrades in place and a crash mid-upgrade leaves it at the last whole step. A file whose
version is newer than the last migration known here was written by a newer bot and is refused.

To change the schema, append a step to ``bot.store.schema``.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.database import Database, Executor
from bot.store.schema import MAX_VERSION, VERSION_TABLE, apply_newer, render
from bot.store.schema_rendering import Migration
from bot.store.sqlite_backend import SCHEMA_WORDS

MIGRATIONS: tuple[Migration, ...] = render(SCHEMA_WORDS)
"""Every schema step in SQLite's words, oldest first (declared in ``bot.store.schema``)."""

LATEST_VERSION = MIGRATIONS[-1].version

_CREATE_VERSION_TABLE = SCHEMA_WORDS.spell(VERSION_TABLE)
_VERSION_TABLE_EXISTS = (
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
)


async def schema_version(db: Database) -> int:
    """The version recorded in the file; 0 for a file no migration has touched."""
    exists = await db.fetch_one(_VERSION_TABLE_EXISTS)
    if exists is None or exists[0] == 0:
        return 0
    row = await db.fetch_one(MAX_VERSION)
    return int(row[0]) if row else 0


async def migrate(db: Database, *, now: float, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring the file up to the last of ``migrations``; return the resulting version.

    Raises ``SchemaTooNewError`` (before changing anything) when the file is newer.
    """
    _check_sequence(migrations)
    found = await schema_version(db)
    await apply_newer(db, migrations, found=found, now=now, first=_create_version_table)
    return await schema_version(db)


async def _create_version_table(tx: Executor) -> None:
    await tx.execute(_CREATE_VERSION_TABLE)


def _check_sequence(migrations: Sequence[Migration]) -> None:
    versions = [migration.version for migration in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise ValueError(f"migration versions must be 1, 2, 3 ... in order; got {versions}")

"""The PostgreSQL schema (``bot.store.schema`` in PostgreSQL's words), and the code that
applies it.

Beyond what SQLite has, PostgreSQL keeps what several instances coordinate through and SQLite
(one process) keeps in memory: the schema's ``shared_only`` statements. ``PG_ONLY_TABLES`` and
``PG_ONLY_COLUMNS`` list what they make, and ``tests/store/test_pg_schema.py`` checks that
nothing else differs.

Two instances starting at once: ``migrate_postgres`` takes a transaction-scoped advisory lock
before it reads the version, so the second waits, then finds the schema current and applies
nothing. Each migration commits with its version row, as in SQLite.

A store whose tables are in a schema of its own (``PgDatabase.schema``) has that schema made,
under the same lock, before the version table: its connections already name it as their
``search_path``, and PostgreSQL finds a schema made after the search path was set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.store.advisory_locks import DEFAULT_NAMESPACE, MIGRATION_LOCK
from bot.store.database import Executor
from bot.store.pg_backend import SCHEMA_WORDS
from bot.store.pg_database import PgDatabase, quoted_name
from bot.store.schema import MAX_VERSION, VERSION_TABLE, apply_newer, render
from bot.store.schema_rendering import Migration

PG_ONLY_TABLES = frozenset(
    {
        "partner_request_starts",
        "partner_rate_blocks",
        "telegram_sends",
        "telegram_holds",
        "agent_request_buckets",
        "whatsapp_sends",
        "whatsapp_holds",
        "delivery_next_change",  # a view of the sequence several instances draw from
    }
)
"""Tables several instances coordinate through; one SQLite process keeps this in memory."""

PG_ONLY_COLUMNS: Mapping[str, frozenset[str]] = {
    "deliveries": frozenset({"link_seq"}),
    "inbox": frozenset({"lease_holder", "lease_until"}),
}
"""Columns standing in for SQLite's implicit ``rowid``, and the relay's leases."""

PG_MIGRATIONS: tuple[Migration, ...] = render(SCHEMA_WORDS)
"""Every schema step in PostgreSQL's words, oldest first (declared in ``bot.store.schema``)."""

_CREATE_VERSION_TABLE = SCHEMA_WORDS.spell(VERSION_TABLE)
_LOCK = "SELECT pg_advisory_xact_lock(?, ?)"


async def migrate_postgres(
    db: PgDatabase,
    *,
    now: float,
    migrations: Sequence[Migration] = PG_MIGRATIONS,
    namespace: int = DEFAULT_NAMESPACE,
) -> int:
    """Bring the database up to the last of ``migrations``; return the resulting version.

    Safe when several instances start at once (see the module docstring): they wait for one
    another on the migration lock of the store's lock ``namespace``. Raises
    ``SchemaTooNewError`` (changing nothing) when the database is newer.
    """

    async def take_lock(tx: Executor) -> None:
        """Wait for any other instance's migration; held until ``tx`` ends."""
        await tx.fetch_one(_LOCK, (namespace, MIGRATION_LOCK))

    async with db.transaction() as tx:
        await take_lock(tx)
        if db.schema is not None:
            await tx.execute(f"CREATE SCHEMA IF NOT EXISTS {quoted_name(db.schema)}")
        await tx.execute(_CREATE_VERSION_TABLE)
    found = await _version(db)
    await apply_newer(db, migrations, found=found, now=now, first=take_lock)
    return await _version(db)


async def _version(db: PgDatabase) -> int:
    row = await db.fetch_one(MAX_VERSION)
    return int(row[0]) if row else 0

"""``copy_sqlite_to_postgres``: a SQLite bot's data into an empty PostgreSQL database, for a bot
growing to several instances (``deliverybot migrate-store``).

Both databases are first brought to the same schema (the bot's migrations, as ``run`` would),
then every table is copied in one transaction, parents before the rows that reference them:
sessions, delivery links, the inbox, sent marks, the agents' conversations and transcripts,
media rows, the funnel... What the backends keep differently is converted on the way: a
session's JSON rests deflated in SQLite and as text in PostgreSQL (``session_packing``); an
identity column (``seq``) keeps its numbers and its sequence then continues after them; the
delivery links keep the order they were made in (PostgreSQL's ``link_seq``). The tables
several instances coordinate through (send windows, holds, request buckets) start empty: one
process kept those in memory. A target with any row in these tables is refused, changing
nothing. The media files themselves stay in ``media_dir``, which the instances must share.

The business the SQLite file belongs to (``store_owner``) owns the PostgreSQL database after
the copy: the target is opened for that business (a target another business owns is refused),
which records it there, rather than its row being copied.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.session_packing import unpack
from bot.store.store import Store
from bot.store.store_errors import StoreError
from bot.store.store_owner import DEFAULT_BUSINESS

# Parents first (otp_handoffs reference deliveries, agent_conversations agent_customers).
FIRST_TABLES = ("deliveries", "agent_customers")
# The schema's versions (each database records its own migrations), the owner (recorded by
# opening the target for it) and SQLite's own tables (sqlite_sequence, sqlite_stat1 ...).
_NOT_COPIED = ("schema_version", "store_owner", "sqlite_")
# SQLite's rowid, which PostgreSQL's identity link_seq stands in for: copied in that order.
_IN_ROWID_ORDER = ("deliveries",)


class TargetNotEmpty(StoreError):
    """The PostgreSQL database already holds data: a migration never mixes two bots' rows."""


def _converter(pg_type: str) -> Callable[[Any], Any]:
    if pg_type == "bigint" or pg_type == "integer":
        return int
    if pg_type == "double precision":
        return float
    if pg_type == "bytea":
        return bytes
    return str


Tables = list[tuple[str, list[str], list[tuple[Any, ...]]]]


async def copy_sqlite_to_postgres(
    sqlite_path: Path, dsn: str, *, media_dir: Path
) -> list[tuple[str, int]]:
    """Copy every table of the SQLite file at ``sqlite_path`` into the PostgreSQL database at
    ``dsn``; returns ``(table, rows)`` in the order copied. Raises ``TargetNotEmpty``
    (nothing changed) when the target holds any row, ``StoreError`` when either database
    cannot be opened. The SQLite file's rows are read into memory first (a bot on one file
    holds megabytes, not gigabytes)."""
    if not await asyncio.to_thread(sqlite_path.is_file):
        raise StoreError(f"no SQLite file at {sqlite_path}")
    try:
        conn = await asyncpg.connect(dsn)
    except (OSError, asyncpg.PostgresError) as exc:
        raise StoreError(f"cannot connect to the PostgreSQL database: {exc}") from None
    try:
        await _refuse_rows(conn)  # before anything, the schema's migrations included
        owner = await asyncio.to_thread(_owner_of, sqlite_path)
        # Each brought to the current schema by the bot's own migrations, and the target
        # claimed for the file's business.
        await (await Store.connect(sqlite_path, media_dir=media_dir, business=owner)).close()
        await (await Store.connect_postgres(dsn, media_dir=media_dir, business=owner)).close()
        tables = await asyncio.to_thread(_read_sqlite, sqlite_path)
        await _refuse_rows(conn)  # another instance may have started on it meanwhile
        return await _copy(conn, tables)
    finally:
        await conn.close()


def _owner_of(path: Path) -> str:
    """The business the SQLite file belongs to: its ``store_owner``, or ``DEFAULT_BUSINESS``
    for a file from before owners (whose rows are the one business's)."""
    source = sqlite3.connect(path)
    try:
        row = source.execute("SELECT business FROM store_owner").fetchone()
    except sqlite3.OperationalError:  # no such table: a file from before schema step 27
        row = None
    finally:
        source.close()
    return str(row[0]) if row is not None else DEFAULT_BUSINESS


def _read_sqlite(path: Path) -> Tables:
    """Every table's columns and rows, parents first; deliveries in the order they were made."""
    source = sqlite3.connect(path)
    try:
        names = [
            str(row[0])
            for row in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not str(row[0]).startswith(_NOT_COPIED)
        ]
        ordered = [name for name in FIRST_TABLES if name in names]
        ordered += sorted(name for name in names if name not in FIRST_TABLES)
        tables: Tables = []
        for table in ordered:
            columns = [str(row[1]) for row in source.execute(f"PRAGMA table_info({table})")]
            order = " ORDER BY rowid" if table in _IN_ROWID_ORDER else ""
            select = f"SELECT {', '.join(columns)} FROM {table}{order}"  # noqa: S608 - the schema's names
            tables.append((table, columns, source.execute(select).fetchall()))
        return tables
    finally:
        source.close()


async def _refuse_rows(conn: Any) -> None:
    """``TargetNotEmpty`` when any table but ``schema_version`` and ``store_owner`` holds a
    row (a bot that opened the database and did nothing leaves its owner: ``Store`` refuses
    it to another business)."""
    for row in await conn.fetch(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' "
        "AND table_name NOT IN ('schema_version', 'store_owner')"
    ):
        table = str(row["table_name"])
        if await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):  # noqa: S608 - the database's own names
            raise TargetNotEmpty(f"the PostgreSQL database already has rows in {table}")


async def _copy(conn: Any, tables: Tables) -> list[tuple[str, int]]:
    copied: list[tuple[str, int]] = []
    async with conn.transaction():
        for table, columns, rows in tables:
            types = {
                str(row["column_name"]): str(row["data_type"])
                for row in await conn.fetch(
                    "SELECT column_name, data_type FROM information_schema.columns "
                    "WHERE table_schema = 'public' AND table_name = $1",
                    table,
                )
            }
            records = [_record(table, columns, types, row) for row in rows]
            if records:
                await conn.copy_records_to_table(table, records=records, columns=columns)
            copied.append((table, len(records)))
        for table, column in await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND is_identity = 'YES'"
        ):
            # COPY wrote the identity's values itself: its sequence continues after them.
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "  # noqa: S608 - the schema's names
                f"coalesce(max({column}), 0) + 1, false) FROM {table}"
            )
    return copied


def _record(
    table: str, columns: list[str], types: dict[str, str], row: tuple[Any, ...]
) -> tuple[Any, ...]:
    values = []
    for column, value in zip(columns, row, strict=True):
        if value is not None:
            if table == "sessions" and column == "data":
                value = unpack(value)
            value = _converter(types[column])(value)
        values.append(value)
    return tuple(values)

"""``copy_sqlite_to_postgres``: a SQLite bot's data into an empty PostgreSQL database, or into
the empty schema of one business of a host (``deliverybot migrate-store``), for a bot growing to
several instances or moving onto a host.

Both stores are first brought to the same schema (the bot's migrations, as ``run`` would: on a
host, the business's schema ``b_<name>`` made in the host's database under the business's own
lock namespace), then every table is copied in one transaction, parents before the rows that
reference them: sessions, delivery links, the inbox, sent marks, the agents' conversations and
transcripts, media rows, the funnel... Every catalogue query and every insert runs on a
connection whose ``search_path`` is the target's schema (``current_schema()``), as the store's
own connections do, so nothing is read from or written to another business's tables.

What the backends keep differently is converted on the way: a session's JSON rests deflated in
SQLite and as text in PostgreSQL (``session_packing``); an identity column (``seq``) keeps its
numbers and its sequence then continues after them; the delivery links keep the order they were
made in (PostgreSQL's ``link_seq``). The tables several instances coordinate through (send
windows, holds, request buckets: ``PG_ONLY_TABLES``) are not copied, one process kept those in
memory. A target with any row in the tables copied is refused, changing nothing; rows in the
coordination tables are not a business's data (a host that built the business to set its
webhook leaves some) and do not refuse it. The media files themselves stay in ``media_dir``,
which the instances must share.

The business the copy is for owns the target after it: the target is opened for that business
(a target another business owns is refused, ``StoreOwnedByAnother``), which records it there,
rather than the file's ``store_owner`` row being copied. By default that is the SQLite file's
own business; a copy for a named business takes that business's own file, or a single-business
file's (``DEFAULT_BUSINESS``: the bot moving onto a host), and refuses another business's file
(``SourceOfAnotherBusiness``) before anything is written.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.store.advisory_locks import DEFAULT_NAMESPACE
from bot.store.pg_database import in_schema, open_pool, redacted_dsn
from bot.store.pg_migrations import PG_ONLY_TABLES
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
# Rows here do not make a target "not empty": not copied, and no business's data.
_NOT_DATA = ("schema_version", "store_owner", *sorted(PG_ONLY_TABLES))
# The target's own tables: those of the schema its connection searches, as the store's do.
_TABLES = """SELECT table_name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
      AND NOT (table_name = ANY($1::text[]))"""
_COLUMNS = """SELECT column_name, data_type FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = $1"""
_IDENTITIES = """SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND is_identity = 'YES'"""


class TargetNotEmpty(StoreError):
    """The PostgreSQL database (or schema) already holds data: a migration never mixes two
    bots' rows."""


class SourceOfAnotherBusiness(StoreError):
    """The SQLite file belongs to another business than the one the copy is for."""

    def __init__(self, path: Path, owner: str, business: str) -> None:
        self.owner = owner
        self.business = business
        super().__init__(
            f"{path} belongs to business {owner!r}, not {business!r}: copy {business!r}'s own "
            "file, or a single-business file (whose business is "
            f"{DEFAULT_BUSINESS!r})"
        )


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
    sqlite_path: Path,
    dsn: str,
    *,
    media_dir: Path,
    db_schema: str | None = None,
    lock_namespace: int = DEFAULT_NAMESPACE,
    business: str | None = None,
) -> list[tuple[str, int]]:
    """Copy every table of the SQLite file at ``sqlite_path`` into the PostgreSQL database at
    ``dsn``, in its schema ``db_schema`` (None: where the server's default ``search_path``
    puts a store's tables, ``public``), made with the bot's migrations under
    ``lock_namespace`` as ``Store.connect_postgres`` would; returns ``(table, rows)`` in the
    order copied. The target is opened for ``business`` (None: the file's own).

    Raises, copying nothing: ``SourceOfAnotherBusiness`` when the file is
    neither ``business``'s nor a single-business file; ``TargetNotEmpty`` when the target holds
    any row; ``StoreOwnedByAnother`` when another business owns the target; ``StoreError``
    when either database cannot be opened. The SQLite file's rows are read into memory first
    (a bot on one file holds megabytes, not gigabytes)."""
    if not await asyncio.to_thread(sqlite_path.is_file):
        raise StoreError(f"no SQLite file at {sqlite_path}")
    owner = await asyncio.to_thread(_owner_of, sqlite_path)
    if business is None:
        business = owner
    elif owner not in (business, DEFAULT_BUSINESS):
        raise SourceOfAnotherBusiness(sqlite_path, owner, business)
    where = _target_name(dsn, db_schema)
    # One connection, searching the target's schema; its errors said without the password.
    pool = await open_pool(dsn, pool_size=1, server_settings=in_schema(db_schema))
    try:
        async with pool.acquire() as conn:
            await _refuse_rows(conn, where)  # before anything, the schema's migrations included
            # Each brought to the current schema by the bot's own migrations, and the target
            # claimed for the business.
            await (await Store.connect(sqlite_path, media_dir=media_dir, business=owner)).close()
            target = await Store.connect_postgres(
                dsn,
                media_dir=media_dir,
                pool_size=1,
                db_schema=db_schema,
                lock_namespace=lock_namespace,
                business=business,
            )
            await target.close()
            tables = await asyncio.to_thread(_read_sqlite, sqlite_path)
            await _refuse_rows(conn, where)  # another instance may have started on it meanwhile
            return await _copy(conn, tables)
    finally:
        await pool.close()


def _target_name(dsn: str, db_schema: str | None) -> str:
    """The target as messages name it: the database without its user and password, and the
    schema."""
    database = f"the PostgreSQL database {redacted_dsn(dsn)}"
    return database if db_schema is None else f"schema {db_schema} of {database}"


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


async def _refuse_rows(conn: Any, where: str) -> None:
    """``TargetNotEmpty`` when any table of the target's schema but the schema's version, its
    owner and the coordination tables holds a row (a bot that opened the database and did
    nothing leaves its owner: ``Store`` refuses it to another business). A schema not made yet
    has no tables (``current_schema()`` is NULL)."""
    for row in await conn.fetch(_TABLES, list(_NOT_DATA)):
        table = str(row["table_name"])
        if await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):  # noqa: S608 - the database's own names
            raise TargetNotEmpty(f"{where} already has rows in {table}")


async def _copy(conn: Any, tables: Tables) -> list[tuple[str, int]]:
    copied: list[tuple[str, int]] = []
    async with conn.transaction():
        for table, columns, rows in tables:
            types = {
                str(row["column_name"]): str(row["data_type"])
                for row in await conn.fetch(_COLUMNS, table)
            }
            records = [_record(table, columns, types, row) for row in rows]
            if records:
                # Unqualified: the table of the schema the connection searches.
                await conn.copy_records_to_table(table, records=records, columns=columns)
            copied.append((table, len(records)))
        for table, column in await conn.fetch(_IDENTITIES):
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

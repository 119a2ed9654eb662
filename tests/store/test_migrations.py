import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.chat_ref import ChatRef, UserRef
from bot.store import LATEST_VERSION, MIGRATIONS, Migration, SchemaTooNewError, Store
from bot.store.database import Database
from bot.store.migrations import _CREATE_VERSION_TABLE, migrate, schema_version

NOTES_V1 = Migration(1, "notes", ("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",))
NOTES_V2 = Migration(
    2,
    "pin notes",
    (
        "ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX notes_pinned ON notes (pinned)",
    ),
)


def schema_of(path: Path) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(path)) as raw:
        rows = raw.execute(
            "SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        return [(str(name), str(sql)) for name, sql in rows]


def make_file_by_hand(path: Path, migrations: tuple[Migration, ...]) -> None:
    """What an older bot would have left: WAL mode, its migrations and its version rows."""
    with closing(sqlite3.connect(path, isolation_level=None)) as raw:
        raw.execute("PRAGMA journal_mode=WAL")
        raw.execute(_CREATE_VERSION_TABLE)
        for migration in migrations:
            for statement in migration.statements:
                raw.execute(statement)
            raw.execute(
                "INSERT INTO schema_version VALUES (?, ?, 0)", (migration.version, migration.name)
            )


async def test_a_new_file_gets_every_migration_recorded(db_path: Path) -> None:
    async with Store.open(db_path) as store:
        assert store.schema_version == LATEST_VERSION
    with closing(sqlite3.connect(db_path)) as raw:
        recorded = raw.execute("SELECT version, name FROM schema_version ORDER BY version")
        assert recorded.fetchall() == [(m.version, m.name) for m in MIGRATIONS]


@pytest.mark.parametrize("old_version", range(LATEST_VERSION))
async def test_a_file_from_any_older_version_upgrades_to_the_same_schema_as_a_new_one(
    tmp_path: Path, old_version: int
) -> None:
    fresh = tmp_path / "fresh.db"
    async with Store.open(fresh):
        pass
    old = tmp_path / "old.db"
    make_file_by_hand(old, MIGRATIONS[:old_version])
    async with Store.open(old) as store:
        assert store.schema_version == LATEST_VERSION
    assert schema_of(old) == schema_of(fresh)


async def test_an_upgrade_keeps_the_data(db_path: Path) -> None:
    make_file_by_hand(db_path, (NOTES_V1,))
    with closing(sqlite3.connect(db_path, isolation_level=None)) as raw:
        raw.execute("INSERT INTO notes (text) VALUES ('kept')")
    db = await Database.connect(db_path)
    try:
        assert await schema_version(db) == 1
        assert await migrate(db, now=5.0, migrations=(NOTES_V1, NOTES_V2)) == 2
        assert await db.fetch_all("SELECT text, pinned FROM notes") == [("kept", 0)]
        assert await db.fetch_all("SELECT version, applied_at FROM schema_version") == [
            (1, 0.0),
            (2, 5.0),
        ]
        # Opening again finds nothing to do.
        assert await migrate(db, now=9.0, migrations=(NOTES_V1, NOTES_V2)) == 2
    finally:
        await db.close()


async def test_a_file_from_a_newer_bot_is_refused_untouched(db_path: Path) -> None:
    future = Migration(LATEST_VERSION + 1, "from the future", ("CREATE TABLE future (x)",))
    make_file_by_hand(db_path, (*MIGRATIONS, future))
    before = schema_of(db_path)
    with pytest.raises(SchemaTooNewError) as caught:
        await Store.connect(db_path)
    error = caught.value
    assert (error.found, error.supported, error.path) == (
        LATEST_VERSION + 1,
        LATEST_VERSION,
        db_path,
    )
    assert f"schema version {LATEST_VERSION + 1} is newer" in str(error)
    assert schema_of(db_path) == before


async def test_a_failing_migration_leaves_the_file_at_the_last_whole_step(db_path: Path) -> None:
    broken = Migration(2, "broken", ("CREATE TABLE half (x)", "THIS IS NOT SQL"))
    db = await Database.connect(db_path)
    try:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(db, now=0.0, migrations=(NOTES_V1, broken))
        assert await schema_version(db) == 1
        assert await db.fetch_all("SELECT name FROM sqlite_master WHERE name = 'half'") == []
    finally:
        await db.close()


@pytest.mark.parametrize(
    "versions", [(2,), (1, 3), (2, 1)], ids=["starts-late", "gap", "out-of-order"]
)
async def test_migration_numbers_must_run_1_2_3(db_path: Path, versions: tuple[int, ...]) -> None:
    migrations = tuple(Migration(v, f"m{v}", ()) for v in versions)
    db = await Database.connect(db_path)
    try:
        with pytest.raises(ValueError, match="1, 2, 3"):
            await migrate(db, now=0.0, migrations=migrations)
    finally:
        await db.close()


async def test_a_step_another_process_applied_meanwhile_is_not_applied_again(
    db_path: Path,
) -> None:
    make_file_by_hand(db_path, ())
    db = await Database.connect(db_path)
    loop = asyncio.get_running_loop()
    waiting_for_write_lock = asyncio.Event()

    def trace(sql: str) -> None:
        if sql.startswith("BEGIN IMMEDIATE"):
            loop.call_soon_threadsafe(waiting_for_write_lock.set)

    try:
        await db._conn.set_trace_callback(trace)
        with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
            # Another process is half-way through the same upgrade...
            other.execute("BEGIN IMMEDIATE")
            other.execute(NOTES_V1.statements[0])
            other.execute("INSERT INTO schema_version VALUES (1, 'notes', 0)")
            upgrade = asyncio.create_task(migrate(db, now=1.0, migrations=(NOTES_V1,)))
            # ...when ours has read version 0 and queues for the write lock.
            await waiting_for_write_lock.wait()
            other.execute("COMMIT")
        assert await upgrade == 1
        assert await db.fetch_all("SELECT version FROM schema_version") == [(1,)]
    finally:
        await db.close()


async def test_a_version_1_file_keeps_its_deliveries_and_can_keep_orders(db_path: Path) -> None:
    make_file_by_hand(db_path, MIGRATIONS[:1])
    with closing(sqlite3.connect(db_path, isolation_level=None)) as raw:
        raw.execute(
            "INSERT INTO deliveries (delivery_id, chat_id, user_id, created_at, status,"
            " updated_at) VALUES ('old', 7, 7, 100.0, 'delivered', 100.0)"
        )
    async with Store.open(db_path) as store:
        assert store.schema_version == LATEST_VERSION
        old = await store.deliveries.get("old")
        assert old is not None and old.status == "delivered"
        # The delivery linked before the upgrade has no order to repeat...
        assert await store.deliveries.last_order_for(UserRef("telegram", 7)) is None
        # ...a new one has.
        await store.deliveries.add(
            "new", ChatRef("telegram", 7), 7, 200.0, None, None, saved_order='{"a": 1}'
        )
        assert await store.deliveries.last_order_for(UserRef("telegram", 7)) == '{"a": 1}'


async def test_a_version_3_file_drops_kept_requests_and_keeps_orders_by_index(
    db_path: Path,
) -> None:
    make_file_by_hand(db_path, MIGRATIONS[:3])
    with closing(sqlite3.connect(db_path, isolation_level=None)) as raw:
        raw.execute(
            "INSERT INTO deliveries (delivery_id, chat_id, user_id, created_at, status,"
            " updated_at, request) VALUES ('kept', 7, 7, 100.0, 'delivered', 100.0, '{\"r\": 1}')"
        )
    async with Store.open(db_path) as store:
        assert store.schema_version == LATEST_VERSION
        kept = await store.deliveries.get("kept")
        assert kept is not None and kept.status == "delivered"
        # A kept create request is not an order: nothing maps a request back into answers.
        assert await store.deliveries.last_order_for(UserRef("telegram", 7)) is None
        await store.deliveries.add(
            "new", ChatRef("telegram", 7), 7, 200.0, None, None, saved_order='{"a": 1}'
        )
        assert await store.deliveries.last_order_for(UserRef("telegram", 7)) == '{"a": 1}'
    with closing(sqlite3.connect(db_path)) as raw:
        columns = [str(row[1]) for row in raw.execute("PRAGMA table_info(deliveries)")]
        indexes = [str(row[1]) for row in raw.execute("PRAGMA index_list(deliveries)")]
        plan = raw.execute(
            "EXPLAIN QUERY PLAN SELECT saved_order FROM deliveries"
            " WHERE channel = ? AND user_id = ? AND saved_order IS NOT NULL"
            " ORDER BY created_at DESC, rowid DESC LIMIT 1",
            ("telegram", 7),
        ).fetchall()
    assert "request" not in columns and "saved_order" in columns
    assert "deliveries_requests_by_user" not in indexes
    assert "deliveries_orders_by_user" in indexes
    assert [str(row[3]) for row in plan] == [
        "SEARCH deliveries USING INDEX deliveries_orders_by_user (channel=? AND user_id=?)"
    ]


async def test_a_version_2_file_keeps_its_codes_and_finds_the_pending_ones_by_index(
    db_path: Path,
) -> None:
    make_file_by_hand(db_path, MIGRATIONS[:2])
    with closing(sqlite3.connect(db_path, isolation_level=None)) as raw:
        for delivery_id in ("d-late", "d-early", "d-done"):
            raw.execute(
                "INSERT INTO deliveries (delivery_id, chat_id, user_id, created_at, status,"
                " updated_at) VALUES (?, 7, 7, 100.0, 'in_transit', 100.0)",
                (delivery_id,),
            )
        raw.executemany(
            "INSERT INTO otp_handoffs (delivery_id, token, code, receiver_phone, created)"
            " VALUES (?, ?, ?, '+2348022223333', ?)",
            [
                ("d-late", "t1", "1111", 20),
                ("d-early", "t2", "2222", 10),
                ("d-done", "t3", None, 5),
            ],
        )
    async with Store.open(db_path) as store:
        assert store.schema_version == LATEST_VERSION
        pending = await store.otp.pending_for_phone("+2348022223333")
        assert [(h.delivery_id, h.code) for h in pending] == [
            ("d-early", "2222"),
            ("d-late", "1111"),
        ]
    with closing(sqlite3.connect(db_path)) as raw:
        plan = raw.execute(
            "EXPLAIN QUERY PLAN SELECT delivery_id FROM otp_handoffs"
            " WHERE receiver_phone = ? AND code IS NOT NULL ORDER BY created, delivery_id",
            ("+2348022223333",),
        ).fetchall()
    assert [str(row[3]) for row in plan] == [
        "SEARCH otp_handoffs USING INDEX otp_handoffs_pending_by_phone (receiver_phone=?)"
    ]


async def test_a_version_7_file_keeps_its_links_and_unconfirmed_creates_without_a_language(
    db_path: Path,
) -> None:
    """Rows from before languages were kept read as NULL: the business default is spoken."""
    make_file_by_hand(db_path, MIGRATIONS[:7])
    with closing(sqlite3.connect(db_path, isolation_level=None)) as raw:
        raw.execute(
            "INSERT INTO deliveries (delivery_id, chat_id, user_id, created_at, status,"
            " updated_at) VALUES ('old', 7, 7, 100.0, 'pending', 100.0)"
        )
        raw.execute(
            "INSERT INTO unconfirmed_creates (idempotency_key, chat_id, user_id, request,"
            " saved_order, fingerprint, created_at, next_attempt_at)"
            " VALUES ('k', 7, 7, '{}', '{}', 'f', 100.0, 100.0)"
        )
    async with Store.open(db_path) as store:
        assert store.schema_version == LATEST_VERSION
        old = await store.deliveries.get("old")
        assert old is not None and old.language is None
        kept = await store.unconfirmed.get("k")
        assert kept is not None and kept.language is None


async def test_a_version_27_file_tracks_its_riding_deliveries_without_a_route(
    db_path: Path,
) -> None:
    """Deliveries linked before routes were kept are tracked all the same, with no route."""
    make_file_by_hand(db_path, MIGRATIONS[:27])
    with closing(sqlite3.connect(db_path, isolation_level=None)) as raw:
        raw.executemany(
            "INSERT INTO deliveries (delivery_id, chat_id, user_id, created_at, status,"
            " updated_at, rider_id) VALUES (?, 7, 7, ?, ?, 100.0, ?)",
            [("riding", 100.0, "in_transit", "rdr_1"), ("done", 50.0, "delivered", "rdr_1")],
        )
    async with Store.open(db_path) as store:
        assert store.schema_version == LATEST_VERSION
        (riding,) = await store.rider_positions.tracked()
        assert (riding.delivery_id, riding.active, riding.kept) == ("riding", True, None)
        assert (riding.pickup, riding.dropoff) == (None, None)

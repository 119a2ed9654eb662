"""The business a store belongs to (schema step 27, ``bot.store.store_owner``): claimed by the
first store that opens it, refused to any other business, and a database with rows from before
the step is the single business's, ``default``. Both backends."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from bot.chat_ref import TELEGRAM, ChatRef
from bot.config.storage import StorageConfig
from bot.store import MIGRATIONS, Store, StoreOwnedByAnother
from bot.store.pg_database import PgDatabase
from bot.store.pg_from_sqlite import copy_sqlite_to_postgres
from bot.store.pg_local_server import LocalPostgres
from bot.store.pg_migrations import PG_MIGRATIONS, migrate_postgres
from bot.store_from_config import open_store
from tests.store.test_migrations import make_file_by_hand
from tests.support.store_fixture import empty_postgres_database

BEFORE_OWNERS = 26
_SESSION = """INSERT INTO sessions (channel, chat_id, user_id, data, updated_at)
    VALUES ($1, 7, 7, '{}', 0)"""


class Opener:
    """Opens the one store of a test, on its backend, for a business."""

    def __init__(self, backend: str, tmp_path: Path, dsn: str = "") -> None:
        self.backend = backend
        self.tmp_path = tmp_path
        self.dsn = dsn

    async def open(self, business: str, *, db_schema: str | None = None) -> Store:
        media = self.tmp_path / "media"
        if self.backend == "postgres":
            return await Store.connect_postgres(
                self.dsn, media_dir=media, business=business, db_schema=db_schema
            )
        return await Store.connect(self.tmp_path / "bot.db", media_dir=media, business=business)


@pytest.fixture
async def opener(store_backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Opener:
    if store_backend == "postgres":
        dsn = await empty_postgres_database(request.getfixturevalue("postgres_server"))
        return Opener(store_backend, tmp_path, dsn)
    return Opener(store_backend, tmp_path)


async def test_a_store_opens_for_the_business_that_claimed_it_and_is_refused_to_another(
    opener: Opener,
) -> None:
    first = await opener.open("acme")
    assert first.business == "acme"
    await first.close()
    with pytest.raises(StoreOwnedByAnother, match="belongs to business 'acme', not 'zeta'"):
        await opener.open("zeta")
    again = await opener.open("acme")
    await again.close()


async def test_a_default_store_is_refused_to_a_named_business(opener: Opener) -> None:
    await (await opener.open("default")).close()
    with pytest.raises(StoreOwnedByAnother, match="'default', not 'acme'"):
        await opener.open("acme")


async def test_a_sqlite_file_with_rows_from_before_owners_is_the_default_business_s(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    make_file_by_hand(path, MIGRATIONS[:BEFORE_OWNERS])
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute(_SESSION.replace("$1", "'telegram'"))
    with pytest.raises(StoreOwnedByAnother, match="'default', not 'acme'"):
        await Store.connect(path, media_dir=tmp_path / "media", business="acme")
    async with Store.open(path, media_dir=tmp_path / "media") as store:
        assert store.business == "default"
        assert await store.sessions.get(ChatRef(TELEGRAM, 7)) is not None


async def test_an_empty_sqlite_file_from_before_owners_is_claimed_by_its_first_opener(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    make_file_by_hand(path, MIGRATIONS[:BEFORE_OWNERS])
    async with Store.open(path, media_dir=tmp_path / "media", business="acme") as store:
        assert store.business == "acme"


async def test_a_postgres_schema_with_rows_from_before_owners_is_the_default_business_s(
    postgres_server: LocalPostgres, tmp_path: Path
) -> None:
    dsn = await postgres_server.create_database("before_owners")
    db = await PgDatabase.connect(dsn, pool_size=2, schema="b_old")
    try:
        await migrate_postgres(db, now=0.0, migrations=PG_MIGRATIONS[:BEFORE_OWNERS])
        await db.pool.execute(_SESSION, TELEGRAM)
    finally:
        await db.close()
    media = tmp_path / "media"
    with pytest.raises(StoreOwnedByAnother, match=r"schema b_old belongs to business 'default'"):
        await Store.connect_postgres(dsn, media_dir=media, db_schema="b_old", business="acme")
    store = await Store.connect_postgres(dsn, media_dir=media, db_schema="b_old")
    try:
        assert store.schema_version == len(PG_MIGRATIONS)
        assert await store.sessions.get(ChatRef(TELEGRAM, 7)) is not None
    finally:
        await store.close()


async def test_migrate_store_carries_the_owner_over_and_refuses_another_business_s_target(
    postgres_server: LocalPostgres, tmp_path: Path
) -> None:
    path, media = tmp_path / "bot.db", tmp_path / "media"
    async with Store.open(path, media_dir=media, business="acme") as store:
        await store.sessions.save(ChatRef(TELEGRAM, 7), 7, "{}")
    dsn = await postgres_server.create_database("copied_owner")
    copied = dict(await copy_sqlite_to_postgres(path, dsn, media_dir=media))
    assert copied["sessions"] == 1 and "store_owner" not in copied
    with pytest.raises(StoreOwnedByAnother, match="'acme', not 'default'"):
        await Store.connect_postgres(dsn, media_dir=media)
    store = await Store.connect_postgres(dsn, media_dir=media, business="acme")
    await store.close()

    other = tmp_path / "other.db"
    await (await Store.connect(other, media_dir=media, business="zeta")).close()
    taken = await postgres_server.create_database("taken_by_acme")
    await (await Store.connect_postgres(taken, media_dir=media, business="acme")).close()
    with pytest.raises(StoreOwnedByAnother, match="'acme', not 'zeta'"):
        await copy_sqlite_to_postgres(other, taken, media_dir=media)


async def test_open_store_opens_a_business_s_sqlite_file_for_that_business(
    tmp_path: Path,
) -> None:
    storage = StorageConfig.model_validate(
        {"path": "businesses/acme.sqlite3", "media_dir": "media/acme"},
        context={"environ": {}, "base_dir": tmp_path},
    )
    store = await open_store(storage, time.time, business="acme")
    await store.close()
    assert store.business == "acme" and storage.path.is_file()
    with pytest.raises(StoreOwnedByAnother, match=r"acme\.sqlite3 belongs to business 'acme'"):
        await open_store(storage, time.time)

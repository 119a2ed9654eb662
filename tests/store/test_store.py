import sqlite3
import stat
from contextlib import closing
from pathlib import Path

import pytest

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store import LATEST_VERSION, Store, StoreError
from tests.store.conftest import INTEGRITY_ERRORS


async def test_open_creates_a_wal_file_with_foreign_keys_and_the_latest_schema(
    db_path: Path, clock: Clock
) -> None:
    async with Store.open(db_path, clock=clock) as store:
        assert store.schema_version == LATEST_VERSION
        assert store.path == db_path
        assert store.media_dir == db_path.with_name("bot.db.media")
        assert stat.S_IMODE(store.media_dir.stat().st_mode) == 0o700
    with closing(sqlite3.connect(db_path)) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    assert {"sessions", "deliveries", "inbox", "sent_messages", "schema_version"} <= tables


async def test_foreign_keys_are_enforced_on_the_store_connection(store: Store) -> None:
    # An OTP hand-off must belong to a linked delivery; the raw constraint is the backstop.
    with pytest.raises(INTEGRITY_ERRORS, match=r"(?i)foreign key"):
        await store._db.execute(
            "INSERT INTO otp_handoffs (delivery_id, token, code, receiver_phone, created)"
            " VALUES ('nope', 't', '1234', '+2348000000000', 1)"
        )


async def test_media_dir_can_be_placed_elsewhere(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "a.db", media_dir=tmp_path / "photos" / "x") as store:
        assert store.media_dir == tmp_path / "photos" / "x"
        assert store.media_dir.is_dir()


async def test_connect_and_close_for_frameworks_that_own_the_lifecycle(db_path: Path) -> None:
    store = await Store.connect(db_path)
    await store.blocked.mark(ChatRef("telegram", 1))
    await store.close()
    await store.close()  # a second close is harmless
    with pytest.raises(StoreError, match="closed"):
        await store.blocked.mark(ChatRef("telegram", 2))


async def test_store_is_its_own_async_context_manager(db_path: Path) -> None:
    async with await Store.connect(db_path) as store:
        await store.blocked.mark(ChatRef("telegram", 7))
    with pytest.raises(StoreError):
        await store.blocked.mark(ChatRef("telegram", 8))


async def test_synchronous_must_be_a_known_level(db_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous"):
        await Store.connect(db_path, synchronous="OFF")  # type: ignore[arg-type]

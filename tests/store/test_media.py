import asyncio
import os
import re
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store import MediaFile, Store
from bot.store import media_files as media_module
from tests.store.conftest import MISSING_TABLE_ERRORS

JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 40
HOUR = 3600.0


def files_in(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir())


async def put_jpeg(store: Store, expires_in: float = HOUR, chat_id: int = 5) -> MediaFile:
    return await store.media.put(
        JPEG,
        content_type="image/jpeg",
        chat=ChatRef("telegram", chat_id),
        expires_at=store.clock() + expires_in,
    )


async def test_put_stores_bytes_on_disk_behind_an_unguessable_token(
    store: Store, clock: Clock
) -> None:
    media = await store.media.put(
        JPEG, content_type="image/jpeg", chat=ChatRef("telegram", 5), expires_at=clock() + HOUR
    )
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", media.token)
    assert media.path.parent == store.media_dir
    assert media.token not in media.path.name
    assert media.path.read_bytes() == JPEG
    assert stat.S_IMODE(media.path.stat().st_mode) == 0o600
    assert (media.size, media.content_type, media.chat.id) == (len(JPEG), "image/jpeg", 5)
    assert await store.media.get(media.token) == media
    assert await store.media.get("guess") is None
    assert media.token not in repr(media)


async def test_put_copies_a_file_and_leaves_the_original(
    store: Store, clock: Clock, tmp_path: Path
) -> None:
    source = tmp_path / "download.png"
    source.write_bytes(b"\x89PNG\r\n\x1a\n" + b"x" * 100)
    media = await store.media.put(
        source, content_type="image/png", chat=ChatRef("telegram", 5), expires_at=clock() + HOUR
    )
    assert media.path.read_bytes() == source.read_bytes()
    assert source.exists()


async def test_tokens_are_unique(store: Store, clock: Clock) -> None:
    tokens = {
        (
            await store.media.put(
                b"x", content_type="image/webp", chat=ChatRef("telegram", 1), expires_at=clock() + 1
            )
        ).token
        for _ in range(20)
    }
    assert len(tokens) == 20


async def test_an_expired_photo_is_not_served(
    store: Store, advance: Callable[[float], None]
) -> None:
    media = await put_jpeg(store, expires_in=60)
    advance(59)
    assert await store.media.get(media.token) is not None
    advance(1)
    assert await store.media.get(media.token) is None


async def test_purge_expired_deletes_rows_and_files(store: Store, clock: Clock) -> None:
    old = await put_jpeg(store, expires_in=60)
    new = await put_jpeg(store)
    assert await store.media.purge_expired(now=clock() + 60) == 1
    assert not old.path.exists()
    assert new.path.exists()
    assert files_in(store.media_dir) == [new.path.name]


async def test_purge_removes_files_a_crashed_put_left_without_a_row(
    store: Store, clock: Clock
) -> None:
    kept = await put_jpeg(store)
    (store.media_dir / ("ab" * 16)).write_bytes(b"orphan")
    (store.media_dir / ("cd" * 16 + ".part")).write_bytes(b"half")
    (store.media_dir / "README.txt").write_text("not ours: left alone")
    # Left long ago (on PostgreSQL a fresh file may be another instance's write in flight).
    long_ago = time.time() - 2 * media_module.ORPHAN_GRACE_SECONDS
    for name in ("ab" * 16, "cd" * 16 + ".part"):
        os.utime(store.media_dir / name, (long_ago, long_ago))
    assert await store.media.purge_expired(now=clock()) == 0
    assert files_in(store.media_dir) == sorted([kept.path.name, "README.txt"])


async def test_a_purge_while_a_put_is_writing_leaves_the_new_file_alone(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = asyncio.Event()
    may_finish = threading.Event()
    loop = asyncio.get_running_loop()
    real_write = media_module._write_file

    def slow_write(content: bytes | Path, path: Path) -> int:
        size = real_write(content, path)
        loop.call_soon_threadsafe(written.set)
        may_finish.wait(timeout=5)
        return size

    monkeypatch.setattr(media_module, "_write_file", slow_write)
    put = asyncio.create_task(put_jpeg(store))
    await written.wait()
    # The file is on disk and its row is not: to a purge it looks exactly like an orphan.
    assert len(files_in(store.media_dir)) == 1
    await store.media.purge_expired(now=store.clock())
    may_finish.set()
    media = await put
    assert media.path.read_bytes() == JPEG
    assert await store.media.get(media.token) == media


async def test_concurrent_puts_and_purges_keep_every_photo(store: Store) -> None:
    puts = [asyncio.create_task(put_jpeg(store, chat_id=n)) for n in range(10)]
    purges = [asyncio.create_task(store.media.purge_expired(now=store.clock())) for _ in range(5)]
    stored = await asyncio.gather(*puts)
    await asyncio.gather(*purges)
    for media in stored:
        assert await store.media.get(media.token) == media


async def test_delete(store: Store) -> None:
    media = await put_jpeg(store)
    assert await store.media.delete(media.token)
    assert not await store.media.delete(media.token)
    assert not media.path.exists()
    assert await store.media.get(media.token) is None


async def test_a_lost_file_is_not_served(store: Store) -> None:
    media = await put_jpeg(store)
    media.path.unlink()
    assert await store.media.get(media.token) is None


@pytest.mark.parametrize("content_type", ["", "image", "image/jpeg\r\nX-Evil: 1", "Image/JPEG"])
async def test_content_type_must_be_plain(store: Store, clock: Clock, content_type: str) -> None:
    with pytest.raises(ValueError, match="content type"):
        await store.media.put(
            JPEG, content_type=content_type, chat=ChatRef("telegram", 5), expires_at=clock() + 1
        )
    assert files_in(store.media_dir) == []


async def test_expiry_must_be_in_the_future(store: Store, clock: Clock) -> None:
    with pytest.raises(ValueError, match="future"):
        await store.media.put(
            JPEG, content_type="image/jpeg", chat=ChatRef("telegram", 5), expires_at=clock()
        )


async def test_a_failed_insert_removes_the_written_file(store: Store, clock: Clock) -> None:
    # The table is moved aside, not dropped: on PostgreSQL the database is shared by the store
    # tests (emptied, not rebuilt, between them), so the schema must be whole again after.
    await store._db.execute("ALTER TABLE media RENAME TO media_aside")
    try:
        with pytest.raises(MISSING_TABLE_ERRORS, match=r"no such table|does not exist"):
            await store.media.put(
                JPEG, content_type="image/jpeg", chat=ChatRef("telegram", 5), expires_at=clock() + 1
            )
    finally:
        await store._db.execute("ALTER TABLE media_aside RENAME TO media")
    assert files_in(store.media_dir) == []

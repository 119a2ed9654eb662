"""Re-hosted photos: bytes in a media directory, one row per photo in SQLite.

The web app serves a photo at ``/media/<token>``; the token comes from ``secrets`` (256 bits),
so the URL cannot be guessed, and the directory itself is never listed.

Why files and not BLOBs: a photo may be 5 MB and an order carries up to 6. As BLOBs every write
and every download by the Partner API would go through the store's single connection, holding
up the session saves and inbox inserts queued behind it, and would swell the WAL. As files the
web app streams them (``FileResponse(media.path)``) without touching the connection. The price
is keeping files and rows in step, which this module does: a file is complete (written, fsynced,
renamed into place) before its row is committed, a file is unlinked only after its row is
deleted, and ``purge_expired`` also removes files whose row never got committed (a crash in the
middle of ``put``). File names are random and unrelated to tokens, and files are private to the
bot's user (0600 in a 0700 directory).

On SQLite one process owns the media directory. On PostgreSQL every instance mounts the same
shared directory (``[storage] media_dir``), so any instance serves a photo another stored, with
the same token and expiry rules; a purge then counts a file without a row as an orphan only
once it is ``ORPHAN_GRACE_SECONDS`` old, since another instance may be between its write and
its commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store.database import Row
from bot.store.store_backend import StoreDatabase

_TOKEN_BYTES = 32
_CONTENT_TYPE = re.compile(r"^[a-z0-9][a-z0-9.+-]*/[a-z0-9][a-z0-9.+-]*$")
_FILE_NAME = re.compile(r"^([0-9a-f]{32})(\.part)?$")
_PART = ".part"
# Longer than any photo write takes, however slow the disk or the shared file system.
ORPHAN_GRACE_SECONDS = 3600.0


@dataclass(frozen=True)
class MediaFile:
    """A stored photo; ``path`` is where the web app reads it from."""

    token: str = field(repr=False)  # the URL's secret part
    path: Path
    content_type: str
    size: int
    chat: ChatRef
    created_at: float
    expires_at: float


_INSERT = """INSERT INTO media
    (token, file_name, content_type, size, channel, chat_id, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)"""
_GET = """SELECT token, file_name, content_type, size, channel, chat_id, created_at, expires_at
    FROM media WHERE token = ? AND expires_at > ?"""
_DELETE = "DELETE FROM media WHERE token = ? RETURNING file_name"
_DELETE_EXPIRED = "DELETE FROM media WHERE expires_at <= ? RETURNING file_name"
_ALL_FILE_NAMES = "SELECT file_name FROM media"


class MediaStore:
    """``store.media``: photos kept until they expire."""

    def __init__(
        self, db: StoreDatabase, clock: Clock, directory: Path, *, shared: bool = False
    ) -> None:
        self._db = db
        self._shared = shared  # other instances write into the directory too
        self._clock = clock
        self.directory = directory
        # Files being written whose row is not committed yet: not orphans, whatever a purge sees.
        self._writing: set[str] = set()

    async def put(
        self, content: bytes | Path, *, content_type: str, chat: ChatRef, expires_at: float
    ) -> MediaFile:
        """Store a photo (bytes, or a file that is copied) and return it with a fresh token.

        The caller has already checked the type and size; ``content_type`` is what the web app
        will send back, so it must be a plain ``type/subtype``.
        """
        if not _CONTENT_TYPE.match(content_type):
            raise ValueError(f"not a content type: {content_type!r}")
        now = self._clock()
        if expires_at <= now:
            raise ValueError("expires_at must be in the future")
        token = secrets.token_urlsafe(_TOKEN_BYTES)
        file_name = secrets.token_hex(16)
        path = self.directory / file_name
        self._writing.add(file_name)
        try:
            size = await asyncio.to_thread(_write_file, content, path)
            try:
                await self._db.execute(
                    _INSERT,
                    (token, file_name, content_type, size, chat.channel, chat.id, now, expires_at),
                )
            except BaseException:
                await asyncio.to_thread(path.unlink, missing_ok=True)
                raise
        finally:
            self._writing.discard(file_name)
        return MediaFile(token, path, content_type, size, chat, now, expires_at)

    async def get(self, token: str) -> MediaFile | None:
        """The photo behind ``token``, or None when unknown, expired, or its file is gone."""
        row = await self._db.fetch_one(_GET, (token, self._clock()))
        if row is None:
            return None
        media = self._media(row)
        return media if await asyncio.to_thread(media.path.is_file) else None

    async def delete(self, token: str) -> bool:
        """Remove a photo now (e.g. the customer replaced it); True when it existed."""
        rows = await self._db.fetch_all(_DELETE, (token,))
        await asyncio.to_thread(self._unlink_all, [str(row[0]) for row in rows])
        return bool(rows)

    async def purge_expired(self, now: float) -> int:
        """Delete photos that expired by ``now`` and any orphaned files; return rows deleted."""
        expired = [str(row[0]) for row in await self._db.fetch_all(_DELETE_EXPIRED, (now,))]
        # Order matters: list the directory, then note which files are still being written,
        # then read the names with rows. A put that finished before the second step committed
        # its row before the third, so no file listed in the first step is taken for an orphan.
        on_disk = await asyncio.to_thread(_media_files, self.directory)
        writing = set(self._writing)
        referenced = {str(row[0]) for row in await self._db.fetch_all(_ALL_FILE_NAMES)}
        orphans = [
            name for name, stem in on_disk.items() if stem not in referenced and stem not in writing
        ]
        if self._shared:
            # Other instances write into the shared directory too, and their writes in flight
            # are not in ``_writing``: only a file untouched for a while is an orphan.
            orphans = await asyncio.to_thread(self._untouched_since, orphans, ORPHAN_GRACE_SECONDS)
        await asyncio.to_thread(self._unlink_all, [*expired, *orphans])
        return len(expired)

    def _media(self, row: Row) -> MediaFile:
        return MediaFile(
            token=str(row[0]),
            path=self.directory / str(row[1]),
            content_type=str(row[2]),
            size=int(row[3]),
            chat=ChatRef(str(row[4]), int(row[5])),
            created_at=float(row[6]),
            expires_at=float(row[7]),
        )

    def _untouched_since(self, file_names: list[str], seconds: float) -> list[str]:
        """The files last modified more than ``seconds`` ago (by the file system's clock)."""
        cutoff = time.time() - seconds
        old: list[str] = []
        for name in file_names:
            with contextlib.suppress(FileNotFoundError):
                if (self.directory / name).stat().st_mtime < cutoff:
                    old.append(name)
        return old

    def _unlink_all(self, file_names: list[str]) -> None:
        for name in file_names:
            (self.directory / name).unlink(missing_ok=True)


def _write_file(content: bytes | Path, path: Path) -> int:
    """Write to ``<path>.part``, fsync, then rename: ``path`` never holds a partial photo."""
    part = path.with_name(path.name + _PART)
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with open(fd, "wb") as out:
            if isinstance(content, Path):
                with content.open("rb") as source:
                    shutil.copyfileobj(source, out)
            else:
                out.write(content)
            out.flush()
            os.fsync(out.fileno())
            size = out.tell()
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return size


def _media_files(directory: Path) -> dict[str, str]:
    """File name -> the name its row would carry, for every file this module may have made."""
    found: dict[str, str] = {}
    for entry in os.scandir(directory):
        match = _FILE_NAME.match(entry.name)
        if match and entry.is_file():
            found[entry.name] = match.group(1)
    return found

"""Whether a running bot holds a SQLite file: an advisory ``flock`` on the file itself.

Every process that runs the bot on a SQLite file (``deliverybot run``, ``deliverybot mcp``
beside it) holds a shared lock on it while its runtime lives (``held_by_this_process``); the
kernel lets it go when the process ends, killed or crashed included, so no stale mark is left.
``deliverybot migrate-store`` asks for the exclusive lock without waiting
(``held_by_nobody_else``): a running bot refuses it, and while the copy runs a bot starting on
the file is refused in turn. ``flock`` is apart from the byte-range locks SQLite takes itself
(on Linux the two never meet), so it changes nothing of SQLite's own locking.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from bot.store.store_errors import StoreError


class SqliteFileHeld(StoreError):
    """Another process holds the SQLite file: a running bot, or a copy under way."""


@contextlib.contextmanager
def held_by_this_process(path: Path) -> Iterator[None]:
    """Hold ``path`` (shared with the bot's other processes) until the block ends; raises
    ``SqliteFileHeld`` when ``migrate-store`` is copying it."""
    with _locked(path, fcntl.LOCK_SH, "deliverybot migrate-store is copying it"):
        yield


@contextlib.contextmanager
def held_by_nobody_else(path: Path) -> Iterator[None]:
    """Hold ``path`` alone until the block ends; raises ``SqliteFileHeld`` when a running
    bot holds it."""
    why = "a running deliverybot (run or mcp) has it open: stop the bot first"
    with _locked(path, fcntl.LOCK_EX, why):
        yield


@contextlib.contextmanager
def _locked(path: Path, kind: int, why: str) -> Iterator[None]:
    # Made when missing, as SQLite would (an empty file is an empty database), so the bot
    # holds its file before the store's migrations write to it.
    descriptor = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(descriptor, kind | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SqliteFileHeld(f"{path} is in use: {why}") from None
        yield
    finally:
        os.close(descriptor)  # lets the lock go

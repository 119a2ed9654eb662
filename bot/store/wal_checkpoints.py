"""``WalCheckpointer``: the WAL copied back into the database on a connection and thread of its own.

In WAL mode every commit appends to the ``-wal`` file, and a *checkpoint* copies those pages
back into the database file (then fsyncs it). By default SQLite runs one inside whichever
commit finds the WAL past 1,000 pages: that commit then takes milliseconds instead of tens of
microseconds, and every statement queued behind it on aiosqlite's thread waits too. Under a
burst of webhooks that was a slow tail of the ingest's latency (about 4 MB of WAL a second:
one such commit a second; ``benchmarks/README.md``, P2).

So under ``synchronous=NORMAL`` (where the loop's own connection writes too, and must not
checkpoint either) the store's connections never checkpoint (``wal_autocheckpoint=0``), and
``Database`` counts its statements: after every ``CHECKPOINT_EVERY`` of them this class runs a
``PASSIVE`` checkpoint on its own connection, in a thread of the default executor. Under
``FULL`` SQLite's default is kept (``Database``'s docstring says why). A passive checkpoint
waits for no reader and no writer: it copies what it can while the others go on, and a later
one copies the rest. At most one runs at a time. When the last connection closes, SQLite
checkpoints what is left and removes the WAL, as before.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path
from typing import Final

log = logging.getLogger(__name__)

# A statement changes a few pages: a hundred of them is a few hundred WAL pages, below SQLite's
# own threshold of 1,000, so the WAL stays about as small as it did.
CHECKPOINT_EVERY: Final = 100


class WalCheckpointer:
    """Counts the store's statements (``counted``) and checkpoints every ``every`` of them."""

    def __init__(self, path: Path, *, every: int = CHECKPOINT_EVERY) -> None:
        # Used from an executor thread, one checkpoint at a time; never waits for a lock.
        self._conn = sqlite3.connect(path, isolation_level=None, timeout=0, check_same_thread=False)
        self._every = every
        self._since = 0
        self._running: asyncio.Task[None] | None = None
        self._closed = False
        self.checkpoints = 0  # finished, for tests and curiosity

    def counted(self, statements: int = 1) -> None:
        """``statements`` more ran (a write or not: a read just makes a checkpoint come a little
        early); start a checkpoint when enough have and none is running."""
        self._since += statements
        if self._since >= self._every and self._running is None and not self._closed:
            self._since = 0
            self._running = asyncio.get_running_loop().create_task(self._checkpoint())

    async def close(self) -> None:
        """Wait for a checkpoint under way, then close the connection (no checkpoint starts
        after this)."""
        self._closed = True
        if self._running is not None:
            await self._running
        self._conn.close()

    async def _checkpoint(self) -> None:
        try:
            await asyncio.to_thread(self._conn.execute, "PRAGMA wal_checkpoint(PASSIVE)")
            self.checkpoints += 1
        except sqlite3.Error as error:
            # Busy (another process checkpoints) or a disk error: the next hundred statements
            # try again; the WAL only grows meanwhile.
            log.warning("WAL checkpoint failed (%s); tried again later", type(error).__name__)
        finally:
            self._running = None

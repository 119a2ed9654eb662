"""``SqliteBackend``: the statements SQLite needs in its own words (``store_backend.Backend``).

One process owns the file, so nothing is leased: a send claim is taken from any other holder
(a claim left by a crashed process), and every pending inbox event is this process's.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.database import Database, Executor, Row
from bot.store.grouped_inserts import GroupedInserts, RowInserts
from bot.store.inbox import NEXT_BATCH
from bot.store.schema_rendering import SchemaWords
from bot.store.sent import CLAIM
from bot.store.store_backend import StoreDatabase
from bot.store.worker_group_inserts import WorkerGroupedInserts

SCHEMA_WORDS = SchemaWords(
    int="INTEGER",
    real="REAL",
    blob="BLOB",
    rowid_key="INTEGER PRIMARY KEY",
    serial_key="INTEGER PRIMARY KEY AUTOINCREMENT",
    without_rowid=" WITHOUT ROWID",
    link_order="",  # every index ends with the rowid
    keep_serial="",  # AUTOINCREMENT takes the values given
    shared=False,
)
"""The schema in SQLite's words: the text every migration shipped with."""

# A turn's save and its update id in one statement, so in one trip to aiosqlite's thread and one
# commit: an INSTEAD OF trigger on a view does both writes, and a statement is atomic with its
# triggers. TEMP objects live with the connection: no schema change, made again at each open.
# A delivery's next change number (``bot.store.delivery_changes``; PostgreSQL's is a view of
# a sequence, schema step 22): SQLite's writers take turns, so the highest so far plus one is
# never given twice, and no number is taken back (deliveries are never deleted).
NEXT_CHANGE_VIEW = """CREATE TEMP VIEW IF NOT EXISTS delivery_next_change AS
    SELECT coalesce((SELECT max(change_seq) FROM main.deliveries), 0) + 1 AS seq"""
_TURN_SAVE_VIEW = """CREATE TEMP VIEW IF NOT EXISTS session_turn_saves AS SELECT
    NULL AS channel, NULL AS chat_id, NULL AS user_id, NULL AS data, NULL AS updated_at,
    NULL AS update_id"""
_TURN_SAVE_TRIGGER = """CREATE TEMP TRIGGER IF NOT EXISTS session_turn_save
    INSTEAD OF INSERT ON session_turn_saves BEGIN
        INSERT INTO sessions (channel, chat_id, user_id, data, updated_at)
            VALUES (NEW.channel, NEW.chat_id, NEW.user_id, NEW.data, NEW.updated_at)
            ON CONFLICT (channel, chat_id) DO UPDATE SET user_id = excluded.user_id,
                data = excluded.data, updated_at = excluded.updated_at;
        INSERT INTO seen_updates (update_id, seen_at) VALUES (NEW.update_id, NEW.updated_at)
            ON CONFLICT DO NOTHING;
    END"""
_TURN_SAVE = """INSERT INTO session_turn_saves
    (channel, chat_id, user_id, data, updated_at, update_id) VALUES (?, ?, ?, ?, ?, ?)"""
# One step back along the partial index deliveries_orders_by_user; the WHERE clause repeats
# its condition so SQLite uses it. Among rows of the same second the last linked wins (rowid).
_LAST_ORDER_FOR = """SELECT saved_order FROM deliveries
    WHERE channel = ? AND user_id = ? AND saved_order IS NOT NULL
    ORDER BY created_at DESC, rowid DESC LIMIT 1"""


class SqliteBackend:
    """SQLite's side of ``store_backend.Backend``, over the store's ``Database``."""

    packs_sessions = True
    last_order_sql = _LAST_ORDER_FOR

    def __init__(self, db: Database) -> None:
        self._db = db

    def grouped_inserts(
        self,
        db: StoreDatabase,
        table: str,
        columns: Sequence[str],
        key: str,
        *,
        passed_by_reads: bool = False,
    ) -> RowInserts:
        """Under ``synchronous=FULL`` the groups are taken on the worker thread
        (``WorkerGroupedInserts``: no trip through a busy event loop between two commits);
        under ``NORMAL`` a lone row may be written on the loop (``GroupedInserts``)."""
        if self._db.synchronous == "FULL":
            return WorkerGroupedInserts(
                self._db, table, columns, key, passed_by_reads=passed_by_reads
            )
        # One group at a time: the rows that come while it commits make the next one larger
        # (``grouped_inserts.MAX_IN_FLIGHT``).
        executor = db.passed_by_reads() if passed_by_reads else db
        return GroupedInserts(executor, table, columns, key)

    async def prepare(self) -> None:
        """The TEMP view and trigger of a turn's save, and the view of a delivery's next
        change number, on every connection of the file."""
        await self._db.prepare_connections(_TURN_SAVE_VIEW)
        await self._db.prepare_connections(_TURN_SAVE_TRIGGER)
        await self._db.prepare_connections(NEXT_CHANGE_VIEW)

    async def save_turn(
        self, db: Executor, session: tuple[str, int, int, object, float], update_id: int
    ) -> None:
        """Through the view's trigger: both writes in one statement."""
        await db.execute(_TURN_SAVE, (*session, update_id))

    async def claim_send(
        self, db: StoreDatabase, claim: tuple[str, str, int, str, str, float], stale_before: float
    ) -> bool:
        """Any other holder's claim was left by a process that is gone."""
        return await db.execute(CLAIM, claim) > 0

    async def claim_inbox(
        self, db: StoreDatabase, holder: str, limit: int, lease_seconds: float, now: float
    ) -> list[Row]:
        """Every pending event is this process's: the next batch, no lease."""
        return await db.fetch_all(NEXT_BATCH, (limit,))

    async def renew_leases(self, db: Executor, holder: str, until: float) -> int:
        """No leases to renew."""
        return 0

"""The Telegram update inbox: an update is stored here before Telegram is told it arrived.

In webhook mode the route stores the update, then answers 200; in polling mode the polling
request stores each update of a ``getUpdates`` answer before PTB sees it (and so before the
next ``getUpdates`` moves the offset past it). ``add`` shares the partner webhook inbox's write
path (``backend.grouped_inserts``): updates arriving together are committed together, each caller
waiting for its own commit, so what Telegram is told arrived is durable.

Whoever holds a chat's lock (``bot.telegram.stored_updates``) handles the chat's stored updates
oldest first (``pending_before``, by ``update_id``: Telegram numbers a bot's updates in order).
An update is handled when its id is in ``store.updates`` (recorded in the turn's own commit):
so handling costs the turn no commit of its own, and every read here leaves handled updates
out. ``prune_handled`` (the inbox's sweep, every few seconds) deletes them. Updates whose
process died before handling them are found by age (``older``) and handed to a live one. A
repeat of an update still stored is not stored twice; one pruned already is stored again and
then ignored by ``store.updates``.

Privacy: a body is the customer's message. It lives here until the sweep after its handling.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.chat_ref import ChatRef
from bot.clocks import Clock
from bot.store.database import Row
from bot.store.store_backend import Backend, StoreDatabase

_COLUMNS = ("update_id", "channel", "chat_id", "body", "received_at")
_NOT_HANDLED = """NOT EXISTS (SELECT 1 FROM seen_updates
        WHERE seen_updates.update_id = telegram_update_inbox.update_id)"""
_PENDING_BEFORE = f"""SELECT update_id, channel, chat_id, body, received_at
    FROM telegram_update_inbox WHERE channel = ? AND chat_id = ? AND update_id < ?
        AND {_NOT_HANDLED}
    ORDER BY update_id"""  # noqa: S608 - constant text
_OLDER = f"""SELECT update_id, channel, chat_id, body, received_at
    FROM telegram_update_inbox WHERE received_at < ? AND {_NOT_HANDLED}
    ORDER BY update_id LIMIT ?"""  # noqa: S608 - constant text
_PRUNE_HANDLED = """DELETE FROM telegram_update_inbox WHERE update_id IN
    (SELECT update_id FROM seen_updates)"""
_COUNT = "SELECT count(*) FROM telegram_update_inbox"


@dataclass(frozen=True)
class StoredUpdate:
    """One update as Telegram sent it, not handled yet."""

    update_id: int
    chat: ChatRef | None
    body: str = field(repr=False)  # the customer's message
    received_at: float


class UpdateInbox:
    """``store.telegram_inbox``: see the module docstring."""

    def __init__(self, db: StoreDatabase, clock: Clock, backend: Backend) -> None:
        self._db = db
        self._clock = clock
        # A turn never reads its own update's row, so its reads need not wait for the insert
        # (which, under ``synchronous=FULL``, waits for the disk while the turn runs).
        self._adds = backend.grouped_inserts(
            db, "telegram_update_inbox", _COLUMNS, "update_id", passed_by_reads=True
        )

    async def add(self, update_id: int, chat: ChatRef | None, body: str) -> bool:
        """Store an update (committed on return); False when it is stored already."""
        channel = chat.channel if chat is not None else "telegram"
        chat_id = chat.id if chat is not None else None
        return await self._adds.add((update_id, channel, chat_id, body, self._clock()))

    async def pending_before(self, chat: ChatRef, update_id: int) -> list[StoredUpdate]:
        """The chat's stored updates not handled yet that came before ``update_id``, oldest
        first."""
        rows = await self._db.fetch_all(_PENDING_BEFORE, (chat.channel, chat.id, update_id))
        return [_stored(row) for row in rows]

    async def older(self, than: float, limit: int = 500) -> list[StoredUpdate]:
        """Stored updates not handled yet, received before ``than``, oldest first."""
        return [_stored(row) for row in await self._db.fetch_all(_OLDER, (than, limit))]

    async def prune_handled(self) -> int:
        """Delete the updates handled since the last prune (and their customers' messages);
        how many."""
        return await self._db.execute(_PRUNE_HANDLED)

    async def count(self) -> int:
        """How many updates are stored (waiting, or handled since the last prune)."""
        row = await self._db.fetch_one(_COUNT)
        return int(row[0]) if row else 0


def _stored(row: Row) -> StoredUpdate:
    chat = None if row[2] is None else ChatRef(str(row[1]), int(row[2]))
    return StoredUpdate(int(row[0]), chat, str(row[3]), float(row[4]))

"""The WhatsApp inbox: each message Meta pushes is stored here before its 200.

``POST /whatsapp`` (``bot.whatsapp.whatsapp_webhook``) stores each customer message, and each
status of a message the bot sent, as one row, then answers 200: acknowledged means durable, as
for Telegram's updates (``bot.store.update_inbox``). ``add`` shares that inbox's write path
(``backend.grouped_inserts``): rows arriving together are committed together, each caller
waiting for its own commit.

A row's ``seq`` is the store's (SQLite's AUTOINCREMENT, PostgreSQL's identity): a chat's rows
are handled in that order. Meta may push one message again for days (a lost 200, a retry):
``item_key`` is unique (the message's ``wamid``; ``<status>:<wamid>`` for a status), so a
repeat is not stored twice, and the row keeps its key for ``KEPT_SECONDS`` after handling
with its body cleared, so a repeat days later is still known.

Handled means recorded in ``store.updates`` (``bot.store.updates``) as ``-seq``, in the
commit of the turn that handled it: Telegram's update ids are positive 32-bit numbers, so
the negative numbers cannot meet them (``bot.whatsapp.inbox_handling`` says the same).
``prune_handled`` (the sweep) clears the bodies of handled rows, and deletes rows handled
over ``KEPT_SECONDS`` ago.

Privacy: a body is a customer's message. It lives here until the sweep after its handling.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from bot.clocks import Clock
from bot.store.database import Row
from bot.store.store_backend import Backend, StoreDatabase

KEPT_SECONDS: Final = 7 * 86_400
"""How long a handled row keeps its key (Meta redelivers a push for up to seven days)."""

ItemKind = Literal["message", "status"]

_COLUMNS = ("item_key", "kind", "chat_id", "body", "received_at")
_PENDING = """body IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seen_updates
        WHERE seen_updates.update_id = -whatsapp_inbox.seq)"""
_OF_CHAT = f"""SELECT seq, kind, chat_id, body, received_at FROM whatsapp_inbox
    WHERE chat_id = ? AND {_PENDING} ORDER BY seq LIMIT ?"""  # noqa: S608 - constant text
_OLDER_CHATS = f"""SELECT chat_id, min(seq) FROM whatsapp_inbox
    WHERE received_at <= ? AND {_PENDING} GROUP BY chat_id ORDER BY min(seq) LIMIT ?"""  # noqa: S608
_CLEAR_HANDLED = """UPDATE whatsapp_inbox SET body = NULL WHERE body IS NOT NULL
    AND EXISTS (SELECT 1 FROM seen_updates WHERE seen_updates.update_id = -whatsapp_inbox.seq)"""
_DELETE_OLD = "DELETE FROM whatsapp_inbox WHERE body IS NULL AND received_at < ?"
COUNT_PENDING = f"SELECT count(*) FROM whatsapp_inbox WHERE {_PENDING}"  # noqa: S608
_HELD = """SELECT count(*), min(CASE WHEN NOT EXISTS (SELECT 1 FROM seen_updates
        WHERE seen_updates.update_id = -whatsapp_inbox.seq) THEN received_at END)
    FROM whatsapp_inbox WHERE body IS NOT NULL"""


@dataclass(frozen=True)
class HeldBodies:
    """What the inbox holds of customers' messages: how many rows keep their body (waiting,
    or handled and not cleared yet), and when the longest-waiting item not handled yet was
    stored (None: none waits)."""

    bodies: int
    oldest_waiting: float | None


@dataclass(frozen=True)
class StoredItem:
    """One stored push item, not handled yet: its number (``seq``), kind, chat (the
    customer's ``wa_id``), body (JSON) and when it was stored."""

    seq: int
    kind: ItemKind
    chat_id: int
    body: str = field(repr=False)  # the customer's message
    received_at: float

    @property
    def update_id(self) -> int:
        """Its number in ``store.updates``: ``-seq``, which no Telegram update id can be."""
        return -self.seq


class WhatsAppInbox:
    """``store.whatsapp_inbox``: see the module docstring."""

    def __init__(self, db: StoreDatabase, clock: Clock, backend: Backend) -> None:
        self._db = db
        self._clock = clock
        # Every read of a row comes after its ``add`` returned (committed): the handling starts
        # after the 200, and a chat read while another add is on its way is read again when
        # that add's request hands the chat on. So reads need not wait for the inserts.
        self._adds = backend.grouped_inserts(
            db, "whatsapp_inbox", _COLUMNS, "item_key", passed_by_reads=True
        )

    async def add(self, item_key: str, kind: ItemKind, chat_id: int, body: str) -> bool:
        """Store one item (committed on return); False when its key is stored already (a
        repeat, handled or not)."""
        return await self._adds.add((item_key, kind, chat_id, body, self._clock()))

    async def pending(self, chat_id: int, limit: int = 100) -> list[StoredItem]:
        """The chat's stored items not handled yet, oldest first (at most ``limit``)."""
        rows = await self._db.fetch_all(_OF_CHAT, (chat_id, limit))
        return [_stored(row) for row in rows]

    async def waiting_chats(self, than: float, limit: int = 500) -> list[int]:
        """Chats with items stored at ``than`` or before and not handled yet, the longest
        waiting first."""
        return [int(row[0]) for row in await self._db.fetch_all(_OLDER_CHATS, (than, limit))]

    async def prune_handled(self, now: float) -> int:
        """Clear the bodies of handled items, and forget items handled and stored over
        ``KEPT_SECONDS`` before ``now``; how many bodies were cleared."""
        cleared = await self._db.execute(_CLEAR_HANDLED)
        await self._db.execute(_DELETE_OLD, (now - KEPT_SECONDS,))
        return cleared

    async def held(self) -> HeldBodies:
        """The bodies the inbox holds and its oldest waiting item, in one read: what the sweep
        asks first, so a pass over an idle inbox is this one read."""
        row = await self._db.fetch_one(_HELD)
        if row is None:
            return HeldBodies(0, None)
        return HeldBodies(int(row[0]), None if row[1] is None else float(row[1]))

    async def count_pending(self) -> int:
        """How many stored items wait to be handled."""
        row = await self._db.fetch_one(COUNT_PENDING)
        return int(row[0]) if row else 0


def _stored(row: Row) -> StoredItem:
    kind: ItemKind = "status" if row[1] == "status" else "message"
    return StoredItem(int(row[0]), kind, int(row[2]), str(row[3]), float(row[4]))

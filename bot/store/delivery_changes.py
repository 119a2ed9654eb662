"""``store.delivery_changes``: which deliveries changed as the console's list shows them, by
their change numbers, so every instance finds what any instance changed through the store.

::

    last = await store.delivery_changes.latest()        # where to start looking
    changed = await store.delivery_changes.since(last)  # [DeliveryChange(id, seq), ...]

Each write that changes what the list shows of a delivery (its status, fee, payment, rider,
failed news; its customer's hand-off opened or closed; its chat blocked or unblocked) sets
the row's ``change_seq`` to ``NEXT_CHANGE`` in the same statement. On PostgreSQL the numbers
come from a sequence, so two instances never draw one twice, but a number drawn first may be
committed last: a reader looks back a little (``bot.staff_console.live_poller``) rather than
trusting that numbers appear in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.chat_ref import ChatRef
from bot.store.database import Executor

NEXT_CHANGE: Final = "(SELECT seq FROM delivery_next_change)"
"""The next change number, as a writer's SQL sets it (a view each backend defines)."""

MAX_CHANGES: Final = 1000
"""The most changes one look returns (a reader that asks again gets the rest)."""

_LATEST = "SELECT coalesce(max(change_seq), 0) FROM deliveries"
_SINCE = """SELECT delivery_id, change_seq FROM deliveries WHERE change_seq > ?
    ORDER BY change_seq LIMIT ?"""
# A hand-off or a block changes what every delivery of the chat needs (``Attention``).
_CHAT_CHANGED = f"""UPDATE deliveries SET change_seq = {NEXT_CHANGE}
    WHERE channel = ? AND chat_id = ?"""  # noqa: S608 (fixed text only)


@dataclass(frozen=True)
class DeliveryChange:
    """A delivery whose list row changed, and the number of that change."""

    delivery_id: str
    seq: int


class DeliveryChanges:
    """``store.delivery_changes``: see the module docstring."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    async def latest(self) -> int:
        """The highest change number written so far (0 before any)."""
        row = await self._db.fetch_one(_LATEST)
        return int(str(row[0])) if row else 0

    async def since(self, after: int, *, limit: int = MAX_CHANGES) -> list[DeliveryChange]:
        """The deliveries whose last change is numbered above ``after``, in number order."""
        rows = await self._db.fetch_all(_SINCE, (after, limit))
        return [DeliveryChange(str(row[0]), int(str(row[1]))) for row in rows]


async def note_chat_changed(db: Executor, chat: ChatRef) -> None:
    """Give every delivery of ``chat`` a new change number: what they need changed."""
    await db.execute(_CHAT_CHANGED, (chat.channel, chat.id))

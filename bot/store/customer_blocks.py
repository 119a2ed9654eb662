"""Customers an operator has stopped (``/block``, ``deliverybot customers block``).

A blocked customer is named by their channel and that channel's id for them (``UserRef``): a
Telegram user, a console user, an agent channel's customer. While the row is there no order is
taken from them (``bot.safety``); their existing deliveries are still relayed. Not to be
confused with ``store.blocked`` (``blocked_chats``): chats whose user blocked the bot.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.chat_ref import ChatRef, UserRef
from bot.clocks import Clock
from bot.store.store_backend import StoreDatabase

_BLOCK = """INSERT INTO customer_blocks (channel, user_id, reason, blocked_by, blocked_at)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel, user_id) DO NOTHING"""
_GET = """SELECT channel, user_id, reason, blocked_by, blocked_at FROM customer_blocks
    WHERE channel = ? AND user_id = ?"""
_LIST = """SELECT channel, user_id, reason, blocked_by, blocked_at FROM customer_blocks
    ORDER BY blocked_at, channel, user_id"""
_UNBLOCK = "DELETE FROM customer_blocks WHERE channel = ? AND user_id = ?"
# Whom to block is found from what operators see: a delivery's reference, or the chats whose
# drafts go with the block. Both read other tables, for this purpose only.
_ORDERED = """SELECT delivery_id, channel, user_id FROM deliveries
    WHERE substr(lower(delivery_id), 1, ?) = ? ORDER BY delivery_id LIMIT ?"""
_DRAFTS = "SELECT channel, chat_id FROM sessions WHERE channel = ? AND user_id = ?"


@dataclass(frozen=True)
class CustomerBlock:
    """``user`` was blocked at ``blocked_at`` by ``blocked_by`` (an operator, or the shell),
    for ``reason`` when one was given."""

    user: UserRef
    reason: str | None
    blocked_by: str
    blocked_at: float


class CustomerBlocks:
    """``store.customer_blocks``: block, unblock, ask and list."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def block(self, user: UserRef, *, by: str, reason: str | None = None) -> bool:
        """Block ``user``; False when they were blocked already (the first block is kept)."""
        row = (user.channel, user.id, reason, by, self._clock())
        return await self._db.execute(_BLOCK, row) > 0

    async def unblock(self, user: UserRef) -> bool:
        """Lift ``user``'s block; False when they were not blocked."""
        return await self._db.execute(_UNBLOCK, (user.channel, user.id)) > 0

    async def get(self, user: UserRef) -> CustomerBlock | None:
        """``user``'s block, or None when they may order."""
        row = await self._db.fetch_one(_GET, (user.channel, user.id))
        return None if row is None else _block(row)

    async def all(self) -> list[CustomerBlock]:
        """Every block, oldest first."""
        return [_block(row) for row in await self._db.fetch_all(_LIST)]

    async def customers_of(self, reference: str, *, most: int = 2) -> list[tuple[str, UserRef]]:
        """The deliveries whose id starts with ``reference`` (case-blind; at most ``most``),
        each with the customer who ordered it."""
        prefix = reference.casefold()
        rows = await self._db.fetch_all(_ORDERED, (len(prefix), prefix, most))
        return [(str(row[0]), UserRef(str(row[1]), int(row[2]))) for row in rows]

    async def drafts_of(self, user: UserRef) -> list[ChatRef]:
        """The chats where ``user`` has an order open (their drafts)."""
        rows = await self._db.fetch_all(_DRAFTS, (user.channel, user.id))
        return [ChatRef(str(row[0]), int(row[1])) for row in rows]


def _block(row: tuple[object, ...]) -> CustomerBlock:
    channel, user_id, reason, by, at = row
    return CustomerBlock(
        UserRef(str(channel), int(str(user_id))),
        None if reason is None else str(reason),
        str(by),
        float(str(at)),
    )

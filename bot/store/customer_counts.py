"""What ``[limits]`` counts of one customer (``bot.safety.customer_limits``): their deliveries
created since a moment, those still open, those whose fee is not paid, and the orders they
started (``customer_drafts``).

Counted in the store, so the counts are the same on every instance and after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.chat_ref import UserRef
from bot.clocks import Clock
from bot.store.status_progress import FINAL_STATUSES
from bot.store.store_backend import StoreDatabase

_FINAL = ", ".join(f"'{status}'" for status in sorted(FINAL_STATUSES))
_CREATED = """SELECT count(*), min(created_at) FROM deliveries
    WHERE channel = ? AND user_id = ? AND created_at >= ?"""
_OPEN = f"""SELECT count(*) FROM deliveries
    WHERE channel = ? AND user_id = ? AND status NOT IN ({_FINAL})"""  # noqa: S608
# Cancelled deliveries owe nothing; delivered ones still do until the fee is seen paid.
_UNPAID = """SELECT count(*) FROM deliveries
    WHERE channel = ? AND user_id = ? AND paid_at IS NULL AND status <> 'cancelled'"""
_START = "INSERT INTO customer_drafts (channel, user_id, started_at) VALUES (?, ?, ?)"
_STARTED = """SELECT count(*), min(started_at) FROM customer_drafts
    WHERE channel = ? AND user_id = ? AND started_at >= ?"""
_PRUNE = "DELETE FROM customer_drafts WHERE started_at < ?"


@dataclass(frozen=True)
class Counted:
    """How many since the moment asked about, and when the oldest of them was (None: none)."""

    count: int
    oldest: float | None


class CustomerCounts:
    """``store.customer_counts``."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def created_since(self, user: UserRef, moment: float) -> Counted:
        """The deliveries ``user`` ordered at or after ``moment``."""
        return await self._counted(_CREATED, (user.channel, user.id, moment))

    async def open_deliveries(self, user: UserRef) -> int:
        """``user``'s deliveries not delivered or cancelled yet (as the bot last heard)."""
        row = await self._db.fetch_one(_OPEN, (user.channel, user.id))
        return int(row[0]) if row else 0

    async def unpaid_deliveries(self, user: UserRef) -> int:
        """``user``'s deliveries not cancelled whose fee the relay has not seen paid
        (``deliveries.note_paid``), delivered ones included."""
        row = await self._db.fetch_one(_UNPAID, (user.channel, user.id))
        return int(row[0]) if row else 0

    async def start_draft(self, user: UserRef) -> None:
        """Note that ``user`` started an order now."""
        await self._db.execute(_START, (user.channel, user.id, self._clock()))

    async def drafts_since(self, user: UserRef, moment: float) -> Counted:
        """The orders ``user`` started at or after ``moment``."""
        return await self._counted(_STARTED, (user.channel, user.id, moment))

    async def prune_drafts(self, before: float) -> int:
        """Forget orders started before ``before``; how many."""
        return await self._db.execute(_PRUNE, (before,))

    async def _counted(self, sql: str, params: tuple[object, ...]) -> Counted:
        row = await self._db.fetch_one(sql, params)
        if row is None or not row[0]:
            return Counted(0, None)
        return Counted(int(row[0]), float(row[1]))

"""``waiting_in``: how many received items a store holds unhandled, read without opening the
store whole (no migration, no coordination): what a host asks of each business it has not
built, so an update, event or message acknowledged before a crash is handled without waiting
for that business's next customer.

The items are those ``store.gauges`` and the WhatsApp inbox count: the Partner API's events not
yet relayed, Telegram updates stored and not yet handled, WhatsApp messages and statuses not
yet handled.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.store.database import Database, Executor
from bot.store.queue_gauges import QueueGauges
from bot.store.whatsapp_inbox import COUNT_PENDING


async def waiting_in(db: Executor) -> int:
    """The received items waiting in the store behind ``db``."""
    gauges = QueueGauges(db)
    events = await gauges.partner_events()
    updates = await gauges.telegram_updates()
    row = await db.fetch_one(COUNT_PENDING)
    messages = int(row[0]) if row is not None else 0
    return events.pending + updates.pending + messages


async def waiting_in_sqlite(path: Path) -> int:
    """``waiting_in`` the SQLite file at ``path``; 0 when there is no file yet (a business
    never built has received nothing)."""
    if not await asyncio.to_thread(path.exists):
        return 0
    db = await Database.connect(path, synchronous="NORMAL")
    try:
        return await waiting_in(db)
    finally:
        await db.close()

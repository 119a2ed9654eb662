"""Housekeeping: what the store keeps only for a while is pruned, once an hour."""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from bot.store import Store

log = logging.getLogger(__name__)

HOUSEKEEPING_SECONDS: Final = 3600.0
UPDATE_IDS_KEPT_SECONDS: Final = 8 * 86_400  # Telegram may reuse ids after a week of silence
RELAYED_KEPT_SECONDS: Final = 30 * 86_400  # far beyond the service's webhook retries


async def housekeeping(store: Store) -> None:
    """Forever: expired media, old update ids, relayed events and sent marks are dropped."""
    while True:
        now = store.clock()
        try:
            await store.media.purge_expired(now)
            await store.updates.prune(now - UPDATE_IDS_KEPT_SECONDS)
            await store.inbox.purge_processed(now - RELAYED_KEPT_SECONDS)
            await store.sent.prune(now - RELAYED_KEPT_SECONDS)
        except Exception:
            log.exception("housekeeping failed; tried again in an hour")
        await asyncio.sleep(HOUSEKEEPING_SECONDS)

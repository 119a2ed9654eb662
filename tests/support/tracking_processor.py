"""``TrackingProcessor``: the production update processor, telling a test when an update has
gone through the handlers, so it awaits that instead of sleeping."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable
from typing import Any

from telegram import Update

from bot.telegram.application import ChatOrderedProcessor
from bot.telegram.received_update import ReceivedUpdate


class TrackingProcessor(ChatOrderedProcessor):
    """The production update processor, telling tests when an update has been processed."""

    def __init__(self) -> None:
        super().__init__()
        self.done: Counter[int] = Counter()
        self._changed = asyncio.Condition()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        try:
            await super().do_process_update(update, coroutine)
        finally:
            if isinstance(update, Update | ReceivedUpdate):
                async with self._changed:
                    self.done[update.update_id] += 1
                    self._changed.notify_all()

    async def processed(self, update_id: int, *, times: int = 1, timeout: float = 5.0) -> None:
        """Return once update ``update_id`` has gone through the handlers ``times`` times
        (counting deliveries the gatekeeper dropped as repeats)."""
        async with self._changed:
            async with asyncio.timeout(timeout):
                await self._changed.wait_for(lambda: self.done[update_id] >= times)

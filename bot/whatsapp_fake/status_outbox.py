"""The statuses the fake owes the webhook, pushed when a test flushes them or as they come.

After accepting a message Meta pushes its ``sent`` and ``delivered`` statuses (or ``failed``,
with the error, for one it could not deliver) a moment later, not in the HTTP answer; a
customer reading it brings ``read``. The fake queues each status here and pushes them one per
push, in order: at once when a test awaits ``flush``, or in the background inside
``pushing()`` (for a whole bot run), where ``settled`` awaits the queue's end without
sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

from bot.whatsapp_fake.webhook_pusher import Delivery

PushStatus = Callable[[Mapping[str, Any]], Awaitable[Delivery]]


class StatusOutbox:
    """Statuses queued for the webhook (see the module docstring)."""

    def __init__(self) -> None:
        self._pending: list[Mapping[str, Any]] = []
        self._pushing = 0
        self._changed = asyncio.Condition()

    def pending(self) -> list[Mapping[str, Any]]:
        """The statuses not pushed yet, oldest first."""
        return list(self._pending)

    async def queue(self, *statuses: Mapping[str, Any]) -> None:
        """Owe the webhook ``statuses``, in order."""
        async with self._changed:
            self._pending.extend(statuses)
            self._changed.notify_all()

    async def flush(self, push: PushStatus) -> list[Delivery]:
        """Push every queued status now, in order; how each push went."""
        deliveries: list[Delivery] = []
        while self._pending:
            status = self._pending.pop(0)
            self._pushing += 1
            try:
                deliveries.append(await push(status))
            finally:
                async with self._changed:
                    self._pushing -= 1
                    self._changed.notify_all()
        return deliveries

    @contextlib.asynccontextmanager
    async def pushing(self, push: PushStatus) -> AsyncIterator[None]:
        """Push statuses in the background as they are queued, until the block ends."""

        async def run() -> None:
            while True:
                async with self._changed:
                    await self._changed.wait_for(lambda: bool(self._pending))
                await self.flush(push)

        task = asyncio.create_task(run(), name="whatsapp-fake-statuses")
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def settled(self, *, timeout: float) -> None:
        """Return once nothing is queued or being pushed (``TimeoutError`` after
        ``timeout`` seconds)."""
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: not self._pending and not self._pushing), timeout
            )

"""The parts of one sandbox that the API and admin handlers share."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.background import BackgroundTask

from bot.clocks import Clock, Sleep
from bot.sandbox.events import Event
from bot.sandbox.faults import CallCounter, FaultPlan
from bot.sandbox.idempotency import IdempotencyRegistry
from bot.sandbox.images import ImageFetcher
from bot.sandbox.key_rate_limit import RateLimiter
from bot.sandbox.scenario import Scenario
from bot.sandbox.state import Store
from bot.sandbox.transitions import Lifecycle
from bot.sandbox.webhooks import WebhookOutbox


@dataclass
class Core:
    scenario: Scenario
    clock: Clock
    sleep: Sleep
    store: Store
    lifecycle: Lifecycle
    limiter: RateLimiter
    idempotency: IdempotencyRegistry
    images: ImageFetcher
    outbox: WebhookOutbox
    faults: FaultPlan
    calls: CallCounter
    admin_token: str

    def after_response(self, events: list[Event]) -> BackgroundTask | None:
        """A task that queues ``events`` for webhooks once the response has been sent."""
        return BackgroundTask(self._release, events) if events else None

    async def _release(self, events: list[Event]) -> None:
        # Async so Starlette runs it on the event loop, not in a worker thread.
        self.outbox.enqueue(events)

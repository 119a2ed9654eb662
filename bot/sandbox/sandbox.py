"""``Sandbox``: one simulated org of the Partner API, in process or behind uvicorn.

::

    sandbox = Sandbox(default_scenario(), clock=fake_clock, webhook_transport=bot_transport)
    async with sandbox:                         # starts the webhook worker
        client = httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.app),
                                   base_url=sandbox.base_url)
        ...                                     # call the API as the real service
        sandbox.mark_paid(delivery_id)          # play staff and riders from Python
        await sandbox.drain_webhooks()          # every due webhook sent: no sleeping

Python admin methods queue their webhooks at once (there is no response to wait for); the
HTTP admin API under ``/sandbox/admin`` queues them after its response, like the real API.
"""

from __future__ import annotations

import secrets
from types import TracebackType
from typing import Any

import httpx

from bot.clocks import Clock, Sleep, system_clock, system_sleep
from bot.sandbox.admin import AdminActions
from bot.sandbox.asgi_app import build_app
from bot.sandbox.core import Core
from bot.sandbox.events import Event, EventFactory
from bot.sandbox.faults import CallCounter, FaultPlan
from bot.sandbox.idempotency import IdempotencyRegistry
from bot.sandbox.images import ImageFetcher, Resolver
from bot.sandbox.key_rate_limit import RateLimiter
from bot.sandbox.operations import API_PREFIX
from bot.sandbox.scenario import Scenario
from bot.sandbox.state import Store
from bot.sandbox.transitions import Lifecycle
from bot.sandbox.webhooks import WebhookAttempt, WebhookOutbox

IN_PROCESS_BASE_URL = "https://sandbox.invalid" + API_PREFIX


class Sandbox:
    """A faithful Partner API for one scenario. See the module docstring for a tour."""

    def __init__(
        self,
        scenario: Scenario,
        *,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        webhook_transport: httpx.AsyncBaseTransport | None = None,
        image_transport: httpx.AsyncBaseTransport | None = None,
        resolver: Resolver | None = None,
        base_url: str = IN_PROCESS_BASE_URL,
    ) -> None:
        self.scenario = scenario
        self.base_url = base_url.rstrip("/")
        clock = clock or system_clock
        store = Store(scenario, clock())
        self._core = Core(
            scenario=scenario,
            clock=clock,
            sleep=sleep or system_sleep,
            store=store,
            lifecycle=Lifecycle(scenario, store, clock, EventFactory(scenario, clock)),
            limiter=RateLimiter(scenario.organization.requests_per_minute, clock),
            idempotency=IdempotencyRegistry(scenario.sandbox.idempotency_ttl_hours * 3600, clock),
            images=ImageFetcher(
                scenario.images, scenario.network, transport=image_transport, resolver=resolver
            ),
            outbox=WebhookOutbox(scenario.webhooks, clock, transport=webhook_transport),
            faults=FaultPlan(),
            calls=CallCounter(),
            admin_token=scenario.sandbox.admin_token or secrets.token_urlsafe(24),
        )
        self._actions = AdminActions(self._core)
        self.app = build_app(self._core, self._actions)

    def __repr__(self) -> str:
        return f"Sandbox(scenario={self.scenario.name!r}, base_url={self.base_url!r})"

    # --- credentials -----------------------------------------------------------------------

    @property
    def api_key(self) -> str:
        """The first active scenario key with both scopes."""
        for key in self.scenario.api_keys:
            if key.state == "active" and {"deliveries:read", "deliveries:write"} <= set(key.scopes):
                return key.secret
        raise LookupError("the scenario has no active API key with both scopes")

    @property
    def signing_secret(self) -> str:
        """The first webhook endpoint's signing secret."""
        if not self.scenario.webhooks:
            raise LookupError("the scenario registers no webhook endpoint")
        return self.scenario.webhooks[0].secret

    @property
    def admin_token(self) -> str:
        return self._core.admin_token

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the webhook worker, which sends events as they fall due."""
        await self._core.outbox.start()

    async def aclose(self) -> None:
        """Stop the worker and close outgoing HTTP clients."""
        await self._core.outbox.aclose()
        await self._core.images.aclose()

    async def __aenter__(self) -> Sandbox:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def drain_webhooks(self) -> None:
        """Return once every webhook that is due (retries included) has been attempted.

        Not from inside a webhook receiver: the drain waits for the delivery in progress.
        """
        await self._core.outbox.drain()

    def webhook_log(self) -> list[WebhookAttempt]:
        return self._core.outbox.log()

    @property
    def pending_webhooks(self) -> int:
        """Deliveries not finished yet (due now or waiting for a retry)."""
        return self._core.outbox.pending

    def call_counts(self) -> dict[str, int]:
        return self._core.calls.snapshot()

    # --- staff and rider actions (each also under /sandbox/admin) ---------------------------

    def _emit(self, events: list[Event]) -> None:
        self._core.outbox.enqueue(events)

    def delivery(self, delivery_id: str) -> dict[str, Any]:
        """The delivery as ``GET /deliveries/{id}`` shows it."""
        lifecycle = self._core.lifecycle
        return lifecycle.view(lifecycle.get(delivery_id))

    def deliveries(self) -> list[dict[str, Any]]:
        """Every delivery as ``GET /deliveries`` shows it, newest first, without paging (and
        without counting as a call: what a test counts)."""
        lifecycle = self._core.lifecycle
        return [lifecycle.view(record) for record in self._core.store.newest_first()]

    def otp_code(self, delivery_id: str) -> str | None:
        return self._core.lifecycle.get(delivery_id).otp_code

    def set_fee(self, delivery_id: str, amount: float) -> dict[str, Any]:
        record, events = self._core.lifecycle.set_fee(delivery_id, amount)
        self._emit(events)
        return self._core.lifecycle.view(record)

    def mark_paid(self, delivery_id: str) -> dict[str, Any]:
        record, events = self._core.lifecycle.mark_paid(delivery_id)
        self._emit(events)
        return self._core.lifecycle.view(record)

    def advance_status(self, delivery_id: str, to: str | None = None) -> dict[str, Any]:
        """Move to the next status (``matched`` -> ``picked_up`` -> ``in_transit`` ->
        ``delivered``); ``to``, when given, must be that next status. The rider moves with it:
        to the pickup, a third of the way to the drop-off, the drop-off (``rider_path``)."""
        record, events = self._core.lifecycle.advance(delivery_id, to)
        self._emit(events)
        return self._core.lifecycle.view(record)

    def resend_otp(self, delivery_id: str) -> dict[str, Any]:
        record, events = self._core.lifecycle.resend_otp(delivery_id)
        self._emit(events)
        return self._core.lifecycle.view(record)

    def move_rider(
        self, rider_id: str, latitude: float, longitude: float, *, age_seconds: float = 0.0
    ) -> dict[str, Any]:
        """A GPS fix for the rider, taken ``age_seconds`` ago (0: now); the rider as
        ``GET /riders`` lists them (``location.fresh`` false once older than 30 minutes)."""
        return self._actions.move_rider(rider_id, latitude, longitude, age_seconds)

    def clear_rider_location(self, rider_id: str) -> dict[str, Any]:
        """The rider has no location at all (``location`` null in ``GET /riders``)."""
        return self._actions.clear_rider_location(rider_id)

    def move_rider_along(self, delivery_id: str, fraction: float) -> dict[str, Any]:
        """Put the delivery's rider ``fraction`` (0 to 1) of the way along its current leg:
        from where they were to the pickup while ``matched``, from the pickup to the drop-off
        once picked up. A fresh fix, taken now; the rider as ``GET /riders`` lists them."""
        return self._actions.move_rider_along(delivery_id, fraction)

    def set_presence(self, rider_id: str, presence: str) -> dict[str, Any]:
        return self._actions.set_presence(rider_id, presence)

    def revoke_key(self, key_id: str, *, auto: bool = False) -> dict[str, Any]:
        return self._actions.revoke_key(key_id, auto=auto)

    def inject_fault(
        self,
        endpoint: str,
        kind: str,
        count: int = 1,
        *,
        status: int | None = None,
        latency_seconds: float = 2.0,
        code: str | None = None,
        when: str = "before",
    ) -> None:
        """Arm a fault (``status``, ``latency`` or ``drop``) for the next ``count`` calls.

        ``when="before"`` fails the call before it is handled (nothing changes);
        ``when="after"`` handles it and then loses or holds back the answer.
        """
        self._core.faults.inject(
            endpoint,
            kind,
            count,
            status=status,
            latency_seconds=latency_seconds,
            code=code,
            when=when,
        )

    def clear_faults(self) -> None:
        self._core.faults.clear()

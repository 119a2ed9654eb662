"""A business's core with ``[console] enabled`` over a test's store and the sandbox Partner API
in process (``Seams(partner_transport=httpx.ASGITransport(app=sandbox.app))``), its creates
left ``pending`` for a person to dispatch; staff reach the console over real HTTP
(``ConsoleSite``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx

from bot.bot_core import build_core
from bot.chat_ref import ChatRef
from bot.config import TilesConfig
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.staff.staff_door import StaffDoor
from bot.store import Store
from bot.store.delivery_history import HistoryEvent, Place
from tests.staff_console.console_site import CONSOLE, PUBLIC, ConsoleSite
from tests.support.clock import FakeClock
from tests.telegram_adapter.handler_world import JPEG, manual_dispatch, order_request

CUSTOMER = ChatRef("telegram", 501)
PICKUP = Place("12 Herbert Macaulay Way, Yaba, Lagos", 6.5090, 3.3792)
DROPOFF = Place("5 Awolowo Road, Ikoyi, Lagos", 6.4500, 3.4380)


@dataclass
class DispatchSite:
    """The console (``site``) and the sandbox behind the core's Partner API client."""

    site: ConsoleSite
    sandbox: Sandbox
    store: Store

    async def order(self, *, placed: bool = False) -> str:
        """A delivery created at the sandbox (``pending``, priced) and linked to
        ``CUSTOMER`` in the store; with ``placed``, its created event is kept too, so the
        page knows its pickup and drop-off."""
        delivery = await self.site.core.client.create_delivery(order_request())
        now = self.site.clock()
        await self.store.deliveries.add(
            delivery.id, CUSTOMER, CUSTOMER.id, now, "+2348098765432", None, delivery.status
        )
        if placed:
            event = HistoryEvent(
                event_id=f"evt_{delivery.id}",
                delivery_id=delivery.id,
                event_type="delivery.created",
                created=int(now),
                received_at=now,
                status=delivery.status,
                previous_status=None,
                summary="",
                customer_message_hint=None,
                agent_notes=(),
                pickup=PICKUP,
                dropoff=DROPOFF,
            )
            await self.store.relayed.finish_event(event.event_id, delivery.id, history=event)
        return delivery.id

    def calls(self, operation: str) -> int:
        """How many times the sandbox answered ``operation`` (``assign_rider`` ...)."""
        return self.sandbox.call_counts().get(operation, 0)


@asynccontextmanager
async def dispatch_site(
    store: Store, clock: FakeClock, *, tiles: TilesConfig | None = None, public: str = PUBLIC
) -> AsyncIterator[DispatchSite]:
    """The site above at ``public``; its delivery pages draw maps on ``tiles`` when given."""
    data = default_scenario_data()
    manual_dispatch(data)
    sandbox = Sandbox(
        parse_scenario(data),
        image_transport=httpx.MockTransport(
            lambda request: httpx.Response(
                200, headers={"Content-Type": "image/jpeg"}, content=JPEG
            )
        ),
        resolver=_public_address,
    )
    settings = CoreSettings(
        partner_base_url=sandbox.base_url,
        partner_api_key=sandbox.api_key,
        public_base_url=public,
        console=CONSOLE,
        map_tiles=tiles,
    )
    core = build_core(
        settings, store, Seams(partner_transport=httpx.ASGITransport(app=sandbox.app))
    )
    door = StaffDoor(store, CONSOLE, public, clock=clock)
    try:
        yield DispatchSite(ConsoleSite(core, door, clock), sandbox, store)
    finally:
        await core.aclose()
        await sandbox.aclose()


async def _public_address(host: str) -> list[str]:
    return ["93.184.216.34"]

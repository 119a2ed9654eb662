"""A business's core web app with ``[console] enabled``, over a test's store, reached over real
HTTP (``httpx.ASGITransport``) at its public https address, so ``Secure`` cookies are kept."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx

from bot.bot_core import BotCore, build_core
from bot.config import ConsoleConfig, TilesConfig
from bot.partner.options import ClientOptions
from bot.settings import CoreSettings
from bot.staff.staff_door import StaffDoor
from bot.staff_roles import StaffRole
from bot.store import Store
from tests.support.clock import FakeClock

PUBLIC = "https://bot.example.com"
KEY = "sk_live_" + "0" * 32
CONSOLE = ConsoleConfig(enabled=True, link_minutes=5, idle_minutes=20, session_hours=2)
NOWHERE = "http://127.0.0.1:9"
"""The Partner API of a console that never uses it: a closed port, refusing at once."""
TRIED_ONCE = ClientOptions(max_attempts=1)
"""The client's options there: a delivery's page asks the Partner API, and the refused connection
is shown the same after one attempt as after four, without the client's back-off (two to three
seconds a page, the retries themselves being the Partner client's tests' business)."""


@dataclass
class ConsoleSite:
    """The core (its web app serves ``/console``), a door to issue links, and the clock."""

    core: BotCore
    door: StaffDoor
    clock: FakeClock

    def client(self) -> httpx.AsyncClient:
        """A browser of its own: its own cookie jar, no redirects followed."""
        transport = httpx.ASGITransport(app=self.core.web_app, client=("203.0.113.7", 50000))
        return httpx.AsyncClient(transport=transport, base_url=PUBLIC)

    async def link(self, name: str = "Bob", role: StaffRole = "viewer") -> str:
        """A sign-in link's path for a new member ``name``."""
        url = await self.door.invite(name, role)
        assert url.startswith(PUBLIC + "/console/signin/")
        return url.removeprefix(PUBLIC)

    async def signed_in(self, name: str = "Bob", role: StaffRole = "viewer") -> httpx.AsyncClient:
        """A client holding a live session of ``name``."""
        client = self.client()
        answer = await client.post(await self.link(name, role))
        assert answer.status_code == 303, answer.text
        return client


@asynccontextmanager
async def console_site(
    store: Store,
    clock: FakeClock,
    console: ConsoleConfig = CONSOLE,
    *,
    metrics: bool = False,
    signing_secrets: tuple[str, ...] = (),
    tiles: TilesConfig | None = None,
) -> AsyncIterator[ConsoleSite]:
    """The site over ``store``; ``metrics``: the business records its metrics;
    ``signing_secrets`` turn the Partner webhooks on; its maps are drawn on ``tiles``."""
    settings = CoreSettings(
        partner_base_url=NOWHERE,
        partner_api_key=KEY,
        client_options=TRIED_ONCE,
        public_base_url=PUBLIC,
        console=console,
        metrics=metrics,
        signing_secrets=signing_secrets,
        map_tiles=tiles,
    )
    core = build_core(settings, store)
    door = StaffDoor(store, console, PUBLIC, clock=clock)  # links even while the console is off
    try:
        yield ConsoleSite(core, door, clock)
    finally:
        await core.aclose()

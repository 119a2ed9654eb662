"""A delivery's page in a real browser (the system's Chromium through Playwright): a dispatcher
signs in by link, opens a delivery, sees its pickup and drop-off drawn as Leaflet markers on
tiles from a local tile server, assigns a rider and reads the outcome; no script error and no
Content-Security-Policy violation on the way. The core's web app is served by uvicorn on a
loopback socket, the sandbox Partner API in process behind it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from playwright.async_api import Browser
from starlette.applications import Starlette
from starlette.routing import Route

from bot.bot_core import BotCore
from bot.config import TilesConfig
from bot.store import Store
from tests.staff_console.console_browser import (
    ON_SESSION_LOOP,
    session_loop_fixture,
    store,
    watched,
)
from tests.staff_console.dispatch_site import DispatchSite, dispatch_site
from tests.support.clock import FakeClock
from tests.support.served import loopback_socket, serve_on, stop_serving
from tests.support.words import SHIPPED
from tests.webapp.page_world import TileServer

pytestmark = ON_SESSION_LOOP
__all__ = ["store"]  # on the browser's loop


@pytest.fixture(params=["sqlite"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """One backend is enough here: the HTTP tests run the actions on both."""
    return str(request.param)


@dataclass
class Served:
    public: str
    world: DispatchSite
    tiles: TileServer


@session_loop_fixture
async def served(store: Store, fake_clock: FakeClock) -> AsyncIterator[Served]:
    tiles = TileServer()
    tile_socket = loopback_socket()
    tile_port = tile_socket.getsockname()[1]
    tile_app = Starlette(routes=[Route("/tiles/{z}/{x}/{y}.png", tiles.tile)])
    config = TilesConfig(
        url_template=f"http://127.0.0.1:{tile_port}/tiles/{{z}}/{{x}}/{{y}}.png",
        attribution="© test tiles",
    )
    sock = loopback_socket()
    public = f"http://localhost:{sock.getsockname()[1]}"
    async with dispatch_site(store, fake_clock, tiles=config, public=public) as world:
        core: BotCore = world.site.core
        tile_server = await serve_on(tile_socket, tile_app, log_config=None, access_log=False)
        server = await serve_on(sock, core.web_app, log_config=None, access_log=False)
        try:
            yield Served(public, world, tiles)
        finally:
            await stop_serving(server, sock)
            await stop_serving(tile_server, tile_socket)


async def test_a_dispatcher_sees_the_map_and_assigns_a_rider(
    served: Served, browser: Browser
) -> None:
    world = served.world
    delivery_id = await world.order(placed=True)
    link = await world.site.door.invite("Dee", "dispatcher")
    tab = await watched(browser)
    page = tab.page
    await tab.sign_in(link, served.public)
    await page.goto(f"{served.public}/console/deliveries/{delivery_id}")

    markers = page.locator("div.console-map .leaflet-marker-icon")
    await markers.nth(1).wait_for()
    assert await markers.count() == 2
    titles = {await markers.nth(i).get_attribute("title") for i in range(2)}
    assert titles == {
        SHIPPED.say("console_web.delivery.pickup"),
        SHIPPED.say("console_web.delivery.dropoff"),
    }
    await page.locator("div.console-map.console-map-drawn img.leaflet-tile").first.wait_for()
    assert served.tiles.served > 0

    assign = SHIPPED.say("console_web.actions.assign", rider="Tunde Bakare (motorbike)")
    await page.get_by_role("button", name=assign).click()
    await page.wait_for_url(f"{served.public}/console/deliveries/{delivery_id}?done=assigned")
    outcome = page.get_by_role("status")
    assert await outcome.inner_text() == SHIPPED.say("console_web.actions.done_assigned")
    said = SHIPPED.say("console_web.actions.rider_now", rider="Tunde Bakare")
    assert said in await page.locator("section.dispatch").inner_text()
    await markers.nth(1).wait_for()  # the map is drawn again on the page after the action
    assert world.sandbox.delivery(delivery_id)["rider"]["id"] == "rdr_tunde"
    assert tab.problems == []

"""The riders page in a real browser (the system's Chromium through Playwright): a viewer signs
in by link, opens Riders from the navigation, and sees each rider with a fix and each drop-off
as a Leaflet marker on tiles from a local tile server (the drop-offs faded), beside the list
that links each delivery to its page; no script error and no Content-Security-Policy violation
on the way."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from playwright.async_api import Browser
from starlette.applications import Starlette
from starlette.routing import Route

from bot.config import TilesConfig
from bot.settings import CoreSettings
from bot.store import Store
from tests.staff_console.console_browser import (
    ON_SESSION_LOOP,
    ServedConsole,
    served_console,
    session_loop_fixture,
    store,
    watched,
)
from tests.staff_console.console_site import CONSOLE, KEY, NOWHERE, TRIED_ONCE
from tests.staff_console.riders_seed import seed_riders
from tests.support.served import loopback_socket, serve_on, stop_serving
from tests.support.words import SHIPPED
from tests.webapp.page_world import TileServer

pytestmark = ON_SESSION_LOOP
__all__ = ["store"]  # on the browser's loop


@pytest.fixture(params=["sqlite"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """One backend is enough here: the HTTP tests read the rows on both."""
    return str(request.param)


@dataclass
class Served:
    console: ServedConsole
    tiles: TileServer


@session_loop_fixture
async def served(store: Store) -> AsyncIterator[Served]:
    tiles = TileServer()
    tile_socket = loopback_socket()
    tile_app = Starlette(routes=[Route("/tiles/{z}/{x}/{y}.png", tiles.tile)])
    port = tile_socket.getsockname()[1]
    settings = CoreSettings(
        partner_base_url=NOWHERE,
        partner_api_key=KEY,
        client_options=TRIED_ONCE,
        public_base_url="http://localhost",  # replaced by the served instance's own
        console=CONSOLE,
        map_tiles=TilesConfig(
            url_template=f"http://127.0.0.1:{port}/tiles/{{z}}/{{x}}/{{y}}.png",
            attribution="© test tiles",
        ),
    )
    tile_server = await serve_on(tile_socket, tile_app, log_config=None, access_log=False)
    try:
        async with served_console(store, settings=settings) as console:
            yield Served(console, tiles)
    finally:
        await stop_serving(tile_server, tile_socket)


async def test_a_viewer_sees_the_riders_and_their_drop_offs_beside_the_list(
    served: Served, store: Store, browser: Browser
) -> None:
    seeded = await seed_riders(store, store.clock())
    public = served.console.public
    tab = await watched(browser)
    page = tab.page
    await tab.sign_in(await served.console.door.invite("Vic", "viewer"), public)
    await page.get_by_role("link", name=SHIPPED.say("console_web.riders.title")).click()
    await page.wait_for_url(f"{public}/console/riders")

    markers = page.locator("div.console-map .leaflet-marker-icon")
    await markers.nth(3).wait_for()
    assert await markers.count() == 4
    refs = [on_way.delivery_id[:8].upper() for on_way in seeded]
    drop = "console_web.riders.dropoff_pin"
    faded = {SHIPPED.say(drop, ref=refs[0]), SHIPPED.say(drop, ref=refs[1])}
    opacity = "element => getComputedStyle(element).opacity"
    found = {}
    for number in range(4):
        marker = markers.nth(number)
        found[await marker.get_attribute("title")] = await marker.evaluate(opacity)
    assert found == {
        f"{refs[0]}: Musa Bello": "1",
        f"{refs[2]}: Ife Okon": "1",
        **{title: "0.55" for title in faded},
    }
    await page.locator("div.console-map.console-map-drawn img.leaflet-tile").first.wait_for()
    assert served.tiles.served > 0
    region = page.get_by_role("region", name=SHIPPED.say("console_web.riders.map"))
    assert await region.count() == 1

    for on_way, ref in zip(seeded, refs, strict=True):
        link = page.get_by_role("link", name=ref, exact=True)
        assert await link.get_attribute("href") == f"/console/deliveries/{on_way.delivery_id}"
    no_position = page.get_by_role("cell", name=SHIPPED.say("console_web.riders.no_position"))
    assert await no_position.count() == 1
    assert tab.problems == []

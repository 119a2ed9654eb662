"""Two businesses' consoles on one host, in one real browser (the system's Chromium through
Playwright): ``acme`` under ``/b/acme`` and ``globex`` under ``/b/globex`` on one loopback port
(``PrefixedApps``, as a host of many businesses mounts them), each its own core over its own
SQLite file. One browser context signs in to both: each list shows its own deliveries only,
both sessions live side by side (one cookie each, scoped to its console), every link followed
stays under its business's prefix, the live list and the delivery's map (Leaflet, tiles from a
local tile server) work there, and signing out of one leaves the other signed in; no script
error and no Content-Security-Policy violation on the way."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Browser
from starlette.applications import Starlette
from starlette.routing import Route

from bot.bot_core import BotCore, build_core
from bot.chat_ref import ChatRef
from bot.config import TilesConfig
from bot.settings import CoreSettings
from bot.staff.staff_door import StaffDoor
from bot.staff_console.console_guard import SESSION_COOKIE
from bot.store import ListedDetails, Store
from tests.staff_console.conftest import START
from tests.staff_console.console_browser import ON_SESSION_LOOP, session_loop_fixture, watched
from tests.staff_console.console_seed import WITH_HISTORY, seed
from tests.staff_console.console_site import CONSOLE, KEY, NOWHERE, TRIED_ONCE
from tests.staff_console.prefixed import PrefixedApps
from tests.support.clock import FakeClock
from tests.support.served import loopback_socket, serve_on, stop_serving
from tests.support.words import SHIPPED
from tests.webapp.page_world import TileServer

pytestmark = ON_SESSION_LOOP

GLOBEX_DELIVERY = "5e6f7a8b-9999-4ccc-8ddd-000000000009"
NEW_ACME_DELIVERY = "b1c2d3e4-5555-4bbb-8ccc-000000000005"


@dataclass(frozen=True)
class Business:
    """One business on the host: its address (``public_base_url``) and its console's, its
    store and a door for links."""

    public: str
    console: str
    store: Store
    door: StaffDoor
    core: BotCore


@dataclass(frozen=True)
class Host:
    acme: Business
    globex: Business
    tiles: TileServer


async def _business(
    stack: AsyncExitStack,
    host: str,
    name: str,
    tmp: Path,
    clock: FakeClock,
    map_tiles: TilesConfig | None = None,
) -> Business:
    public = f"{host}/b/{name}"  # as the host derives each business's public_base_url
    store = await stack.enter_async_context(Store.open(tmp / f"{name}.sqlite3", clock=clock))
    settings = CoreSettings(
        partner_base_url=NOWHERE,
        partner_api_key=KEY,
        client_options=TRIED_ONCE,
        public_base_url=public,
        console=CONSOLE,
        map_tiles=map_tiles,
    )
    core = build_core(settings, store)
    stack.push_async_callback(core.aclose)
    door = StaffDoor(store, CONSOLE, public, clock=clock)
    return Business(public, f"{public}/console", store, door, core)


@session_loop_fixture
async def host(tmp_path: Path, fake_clock: FakeClock) -> AsyncIterator[Host]:
    tiles = TileServer()
    tile_socket = loopback_socket()
    tile_url = f"http://127.0.0.1:{tile_socket.getsockname()[1]}/tiles/{{z}}/{{x}}/{{y}}.png"
    sock = loopback_socket()
    public = f"http://localhost:{sock.getsockname()[1]}"
    async with AsyncExitStack() as stack:
        map_tiles = TilesConfig(url_template=tile_url, attribution="© test tiles")
        acme = await _business(stack, public, "acme", tmp_path, fake_clock, map_tiles=map_tiles)
        globex = await _business(stack, public, "globex", tmp_path, fake_clock)
        await seed(acme.store, START)
        await globex.store.deliveries.add(
            GLOBEX_DELIVERY, ChatRef("telegram", 77), 77, START - 300, "+2348039999977", None,
            "pending", details=ListedDetails(customer_name="Gloria Banks"),
        )  # fmt: skip
        apps = PrefixedApps({"acme": acme.core.web_app, "globex": globex.core.web_app})
        tile_app = Starlette(routes=[Route("/tiles/{z}/{x}/{y}.png", tiles.tile)])
        tile_server = await serve_on(tile_socket, tile_app, log_config=None, access_log=False)
        server = await serve_on(sock, apps, log_config=None, access_log=False)
        try:
            yield Host(acme, globex, tiles)
        finally:
            await stop_serving(server, sock)
            await stop_serving(tile_server, tile_socket)


async def test_two_businesses_consoles_in_one_browser(host: Host, browser: Browser) -> None:
    acme, globex = host.acme, host.globex
    tab = await watched(browser)
    page = tab.page
    shown = page.locator("tr[data-delivery]")

    await tab.sign_in(await acme.door.invite("Ada", "viewer"), acme.public)
    acme_rows = await shown.evaluate_all("rows => rows.map(r => r.dataset.delivery)")
    assert len(acme_rows) == 4 and GLOBEX_DELIVERY not in acme_rows
    await tab.sign_in(await globex.door.invite("Gus", "viewer"), globex.public)
    assert await shown.evaluate_all("rows => rows.map(r => r.dataset.delivery)") == [
        GLOBEX_DELIVERY
    ]
    cookies = [c for c in await page.context.cookies() if c["name"] == SESSION_COOKIE]
    assert sorted(c["path"] for c in cookies) == ["/b/acme/console", "/b/globex/console"]

    # Every link of acme's list leads into acme's console, as the browser resolves it (the
    # HTTP test walks every page); two of the navigation's, followed, land there.
    await page.goto(f"{acme.console}/deliveries")
    targets = await page.locator("a[href]").evaluate_all("links => links.map(a => a.href)")
    assert [t for t in targets if not t.startswith(f"{acme.console}/")] == []
    for name in ("console_web.handoffs.nav", "console_web.health.title"):
        await page.get_by_role("navigation").get_by_role("link", name=SHIPPED.say(name)).click()
        await page.wait_for_url(f"{acme.console}/{name.split('.')[1]}")
    # A delivery's page from the list's row: its map drawn by the Leaflet served there.
    await page.goto(f"{acme.console}/deliveries")
    await page.locator(f'tr[data-delivery="{WITH_HISTORY}"] a').click()
    await page.wait_for_url(f"{acme.console}/deliveries/{WITH_HISTORY}")
    await page.locator("div.console-map .leaflet-marker-icon").nth(1).wait_for()
    await page.locator("div.console-map.console-map-drawn img.leaflet-tile").first.wait_for()
    assert host.tiles.served > 0

    # The live list, streamed from acme's console, draws a new row linking there.
    await page.goto(f"{acme.console}/deliveries")
    await page.get_by_text(SHIPPED.say("console_web.live.on")).wait_for(state="visible")
    await acme.store.deliveries.add(
        NEW_ACME_DELIVERY, ChatRef("telegram", 45), 45, START, "+2348031234545", None,
        "pending", details=ListedDetails(customer_name="Tola Ade"),
    )  # fmt: skip
    link = page.locator(f'tr[data-delivery="{NEW_ACME_DELIVERY}"] a')
    await link.wait_for()
    assert await link.get_attribute("href") == f"/b/acme/console/deliveries/{NEW_ACME_DELIVERY}"

    sign_out = SHIPPED.say("console_web.sign_out")
    await page.get_by_role("button", name=sign_out, exact=True).click()
    await page.wait_for_url(f"{acme.console}/signed-out")
    await page.goto(f"{acme.console}/deliveries")
    assert page.url == f"{acme.console}/signed-out"
    await page.goto(f"{globex.console}/deliveries")  # still signed in there
    assert page.url == f"{globex.console}/deliveries"
    assert await shown.count() == 1
    assert tab.problems == []

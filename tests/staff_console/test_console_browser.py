"""The console in a real browser (the system's Chromium through Playwright, as the Mini App's
tests): the sign-in link opened, Sign in pressed, the list shows the delivery; no script error
and no Content-Security-Policy violation on the way, and signing out leads to the signed-out
page; an open list shows a new delivery and its status moved by a webhook without a reload.
The core's real web app is served by uvicorn on a loopback socket."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from playwright.async_api import Browser

from bot.chat_ref import ChatRef
from bot.store import ListedDetails, Store
from tests.staff_console.conftest import START
from tests.staff_console.console_browser import (
    ON_SESSION_LOOP,
    ServedConsole,
    served_console,
    session_loop_fixture,
    store,
    watched,
)
from tests.staff_console.live_webhook import SECRET, post_status, relayed
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

pytestmark = ON_SESSION_LOOP
__all__ = ["store"]  # on the browser's loop

DELIVERY = "3f2a9c1e-1111-4bbb-8ccc-000000000001"


@pytest.fixture(params=["sqlite"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """One backend is enough here: the HTTP tests run the console on both."""
    return str(request.param)


@session_loop_fixture
async def served(store: Store) -> AsyncIterator[ServedConsole]:
    """The core's web app with the console on (and the Partner webhooks), and a door for links."""
    async with served_console(store, signing_secrets=(SECRET,)) as console:
        yield console


async def test_sign_in_by_link_and_see_the_list(
    served: ServedConsole, store: Store, fake_clock: FakeClock, browser: Browser
) -> None:
    public, door = served.public, served.door
    await store.deliveries.add(
        DELIVERY, ChatRef("telegram", 42), 42, START, "+2348031234567", None, "pending",
        details=ListedDetails(fee=2600.0, currency="NGN", customer_name="Ada Obi"),
    )  # fmt: skip
    link = await door.invite("Bob", "dispatcher")
    tab = await watched(browser)
    page = tab.page
    await page.goto(link)
    assert await page.title() == (
        f"{SHIPPED.say('console_web.page.signin')} · {SHIPPED.say('console_web.business_name')}"
    )
    await tab.sign_in(link, public)
    row = page.locator(f'tr[data-delivery="{DELIVERY}"]')
    assert await row.count() == 1
    text = await row.inner_text()
    assert "3F2A9C1E" in text and "Ada Obi" in text
    assert SHIPPED.say("status.pending") in text
    # The stylesheet applied: the page is styled by its own file, not the browser's.
    color = await page.locator("button.primary").first.evaluate(
        "b => getComputedStyle(b).backgroundColor"
    )
    assert color == "rgb(11, 92, 173)"

    await page.get_by_role("button", name=SHIPPED.say("console_web.sign_out"), exact=True).click()
    await page.wait_for_url(f"{public}/console/signed-out")
    await page.goto(f"{public}/console/deliveries")
    assert page.url == f"{public}/console/signed-out"
    assert tab.problems == []


async def test_the_list_shows_a_new_delivery_and_its_webhook_without_a_reload(
    served: ServedConsole, store: Store, browser: Browser
) -> None:
    link = await served.door.invite("Bob", "viewer")
    tab = await watched(browser)
    page = tab.page
    await tab.sign_in(link, served.public)
    empty = page.get_by_text(SHIPPED.say("console_web.no_deliveries"))
    assert await empty.is_visible()
    live = page.get_by_text(SHIPPED.say("console_web.live.on"))
    await live.wait_for(state="visible")  # the stream is open

    await store.deliveries.add(
        DELIVERY, ChatRef("telegram", 42), 42, START, "+2348031234567", None, "pending",
        details=ListedDetails(customer_name="Ada Obi"),
    )  # fmt: skip
    row = page.locator(f'tr[data-delivery="{DELIVERY}"]')
    await row.wait_for(state="visible")
    assert "Ada Obi" in await row.inner_text()
    assert not await empty.is_visible()

    async with httpx.AsyncClient(base_url=served.public) as partner:
        await post_status(partner, DELIVERY, "matched", previous="pending", seq=1)
    await relayed(served.core)
    matched = SHIPPED.say("status.matched")
    await page.locator(f'tr[data-delivery="{DELIVERY}"] td', has_text=matched).wait_for()
    assert await page.locator("tr[data-delivery]").count() == 1  # replaced, not added
    assert tab.problems == []

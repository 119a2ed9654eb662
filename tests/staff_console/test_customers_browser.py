"""The customers in a real browser (Chromium through Playwright): an admin searches a customer
by a part of their name, opens their page and blocks them with a reason, without JavaScript
of the page's own and with no script error or Content-Security-Policy violation."""

from __future__ import annotations

from playwright.async_api import Browser

from bot.chat_ref import ChatRef, UserRef
from bot.store import ListedDetails, Store
from tests.staff_console.conftest import START
from tests.staff_console.console_browser import ON_SESSION_LOOP, ServedConsole, store, watched
from tests.staff_console.test_console_browser import served, store_backend
from tests.support.words import SHIPPED

pytestmark = ON_SESSION_LOOP
# The console served on one backend, as there, on the browser's loop.
__all__ = ["served", "store", "store_backend"]

DELIVERY = "3f2a9c1e-2222-4bbb-8ccc-000000000001"


async def test_an_admin_searches_a_customer_and_blocks_them(
    served: ServedConsole, store: Store, browser: Browser
) -> None:
    public, door = served.public, served.door
    await store.deliveries.add(
        DELIVERY, ChatRef("telegram", 1900), 1900, START, None, None, "pending",
        details=ListedDetails(fee=2600.0, currency="NGN", customer_name="Ada Okafor"),
    )  # fmt: skip
    link = await door.invite("Ada", "admin")
    tab = await watched(browser)
    page = tab.page
    await tab.sign_in(link, public)
    await page.get_by_role(
        "link", name=SHIPPED.say("console_web.customers.page"), exact=True
    ).click()
    await page.wait_for_url(f"{public}/console/customers")
    await page.get_by_label(SHIPPED.say("console_web.customers.search_label")).fill("okaf")
    await page.get_by_role(
        "button", name=SHIPPED.say("console_web.customers.search_button"), exact=True
    ).click()
    await page.wait_for_url(f"{public}/console/customers?q=okaf")
    await page.get_by_role("link", name="Ada Okafor").click()
    await page.wait_for_url(f"{public}/console/customers/telegram/1900")
    assert await page.locator(f'a[href="/console/deliveries/{DELIVERY}"]').count() == 1

    await page.get_by_label(SHIPPED.say("console_web.customers.reason")).fill("spam orders")
    await page.get_by_role(
        "button", name=SHIPPED.say("console_web.customers.block_button"), exact=True
    ).click()
    await page.wait_for_url(f"{public}/console/customers/telegram/1900?done=blocked&drafts=0")
    said = await page.get_by_role("status").inner_text()
    assert said == SHIPPED.say("safety.block_done", customer="telegram:1900")
    assert await page.get_by_role(
        "button", name=SHIPPED.say("console_web.customers.unblock_button"), exact=True
    ).is_visible()
    block = await store.customer_blocks.get(UserRef("telegram", 1900))
    assert block is not None and block.reason == "spam orders"
    assert tab.problems == []

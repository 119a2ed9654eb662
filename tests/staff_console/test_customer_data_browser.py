"""A customer's data in a real browser (Chromium through Playwright): an admin downloads a
customer's export from their page, then forgets them through the question, and reads what was
done; no script error or Content-Security-Policy violation."""

from __future__ import annotations

import json

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

DELIVERY = "3f2a9c1e-3333-4bbb-8ccc-000000000001"
PAGE = "/console/customers/telegram/1900"


async def test_an_admin_exports_then_forgets_a_customer(
    served: ServedConsole, store: Store, browser: Browser
) -> None:
    public, door = served.public, served.door
    await store.deliveries.add(
        DELIVERY, ChatRef("telegram", 1900), 1900, START, None, None, "pending",
        details=ListedDetails(fee=2600.0, currency="NGN", customer_name="Ada Okafor"),
    )  # fmt: skip
    assert await store.deliveries.update_view(DELIVERY, "delivered", int(START) + 60)
    await store.customers.put(UserRef("telegram", 1900), json.dumps({"name": "Ada Okafor"}))
    link = await door.invite("Ada", "admin")
    tab = await watched(browser)
    page = tab.page
    await tab.sign_in(link, public)
    await page.goto(f"{public}{PAGE}")

    async with page.expect_download() as downloading:
        await page.get_by_role(
            "button", name=SHIPPED.say("console_web.customer_data.export_button"), exact=True
        ).click()
    download = await downloading.value
    assert download.suggested_filename == "customer-telegram-1900.json"
    exported = json.loads((await download.path()).read_text(encoding="utf-8"))
    assert exported["details"]["value"]["name"] == "Ada Okafor"

    await page.get_by_role(
        "button", name=SHIPPED.say("console_web.customer_data.forget_button"), exact=True
    ).click()
    await page.wait_for_url(f"{public}{PAGE}/forget")
    question = await page.get_by_role("alert").inner_text()
    assert question == SHIPPED.say(
        "console_web.customer_data.confirm_text", customer="telegram:1900"
    )
    assert await store.customers.get(UserRef("telegram", 1900)) is not None
    await page.get_by_role(
        "button", name=SHIPPED.say("console_web.customer_data.confirm_yes"), exact=True
    ).click()
    said = await page.get_by_role("status").inner_text()
    assert SHIPPED.say("console_web.customer_data.books", count=1) in said
    assert await store.customers.get(UserRef("telegram", 1900)) is None
    assert tab.problems == []

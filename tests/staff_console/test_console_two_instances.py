"""Two instances of the bot on one PostgreSQL database, each serving the console on its own
loopback port, driven by one Chromium: signed in on instance A, the same browser is signed in
on instance B (cookies ignore ports, and the session is in the database), both list the same
deliveries, French chosen on A is French on B, and signing out on B signs out on A."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from bot.store.pg_local_server import LocalPostgres
from tests.staff_console.conftest import START
from tests.staff_console.console_browser import ON_SESSION_LOOP, served_console, watched
from tests.staff_console.console_seed import WITH_HISTORY, seed
from tests.store.pg_instances import pg_instances
from tests.support.clock import FakeClock
from tests.support.words import said_in

pytestmark = ON_SESSION_LOOP

FRENCH = said_in("fr")
ROWS = "tr[data-delivery]"


async def test_a_session_opened_on_one_instance_works_on_the_other(
    postgres_server: LocalPostgres, tmp_path: Path, browser: Browser
) -> None:
    clock = FakeClock(START)
    async with pg_instances(postgres_server, tmp_path, clock=clock) as (store_a, store_b):
        await seed(store_a, START)
        async with (
            served_console(store_a) as a,
            served_console(store_b) as b,
        ):
            assert a.public != b.public
            tab = await watched(browser)
            page = tab.page
            link = await a.door.invite("Bob", "dispatcher")
            await tab.sign_in(link, a.public)
            on_a = await page.locator(ROWS).evaluate_all(
                "rows => rows.map(r => r.dataset.delivery)"
            )
            await page.goto(f"{b.public}/console/deliveries")
            assert page.url == f"{b.public}/console/deliveries"  # not sent to sign in again
            on_b = await page.locator(ROWS).evaluate_all(
                "rows => rows.map(r => r.dataset.delivery)"
            )
            assert on_a == on_b and len(on_b) == 4
            await page.goto(f"{b.public}/console/deliveries/{WITH_HISTORY}")
            assert await page.locator("ol.timeline li").count() >= 3

            await page.goto(f"{a.public}/console/deliveries")
            await tab.choose_language(a.public, "fr")
            await page.goto(f"{b.public}/console/deliveries")
            assert await page.locator("html").get_attribute("lang") == "fr"
            heading = FRENCH.say("console_web.page.deliveries")
            assert await page.locator("h1").inner_text() == heading

            sign_out = FRENCH.say("console_web.sign_out")
            await page.get_by_role("button", name=sign_out, exact=True).click()
            await page.wait_for_url(f"{b.public}/console/signed-out")
            await page.goto(f"{a.public}/console/deliveries")
            assert page.url == f"{a.public}/console/signed-out"
    assert tab.problems == []

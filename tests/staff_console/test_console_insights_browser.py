"""The funnel, audit and health pages in a real browser (the system's Chromium through
Playwright): each opens from the navigation with no script error and no Content-Security-Policy
violation; the funnel's SVG is drawn (its bars are ``rect`` elements with a width, coloured by
the stylesheet, not by an inline style), the audit lists the sign-in, the health page its
figures."""

from __future__ import annotations

from playwright.async_api import Browser

from bot.funnel.recorder import day_of
from bot.store import Store
from bot.store.funnel_events import FunnelEvent
from tests.staff_console.conftest import START
from tests.staff_console.console_browser import ON_SESSION_LOOP, ServedConsole, store, watched
from tests.staff_console.test_console_browser import served, store_backend
from tests.support.words import SHIPPED

pytestmark = ON_SESSION_LOOP
# The fixtures: the core served on loopback, on SQLite, on the browser's loop.
__all__ = ["served", "store", "store_backend"]


async def test_funnel_audit_and_health_pages(
    served: ServedConsole, store: Store, browser: Browser
) -> None:
    public, door = served.public, served.door
    await store.funnel.add(
        [
            FunnelEvent(day_of(START), "errand", step, "reached", None, session, START - 60)
            for step, session in (("what", "s1"), ("what", "s2"), ("budget", "s1"))
        ]
    )
    link = await door.invite("Bob", "viewer")
    tab = await watched(browser)
    page = tab.page
    await tab.sign_in(link, public)

    await page.get_by_role("link", name=SHIPPED.say("console_web.funnel.title")).click()
    await page.wait_for_url(f"{public}/console/funnel")
    bars = page.locator("svg.chart rect.bar-fill")
    assert await bars.count() == 2
    widths = [
        await bars.nth(n).evaluate("rect => rect.getBoundingClientRect().width") for n in range(2)
    ]
    assert widths[0] > 0 and abs(widths[1] * 2 - widths[0]) < 1  # 2 reached, then 1
    fill = await bars.first.evaluate("rect => getComputedStyle(rect).fill")
    assert fill == "rgb(11, 92, 173)"
    title = await page.locator("svg.chart g.bar title").first.text_content()
    assert title is not None and title.startswith("what: 2")

    await page.get_by_role("link", name=SHIPPED.say("console_web.audit.title")).click()
    await page.wait_for_url(f"{public}/console/audit")
    assert await page.locator("tr[data-seq]").count() == 2  # the link, the sign-in

    await page.get_by_role("link", name=SHIPPED.say("console_web.health.title")).click()
    await page.wait_for_url(f"{public}/console/health")
    assert await page.locator('tr[data-figure="followups"]').count() == 1
    assert tab.problems == []

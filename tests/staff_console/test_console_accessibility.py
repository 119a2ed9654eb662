"""Every console page passes axe-core (vendored, pinned: ``vendor/README.md``) in the system's
Chromium with no serious or critical violation: the sign-in page, the signed-out page, the list
with rows and with a refused filter, a delivery's page, a refusal in French, and every page the
navigation links to (read from the page, so a section added later is checked too).

axe is a script injected into the page; the console's Content-Security-Policy forbids any
script not served by the console (which is the point of it), so the checker's tab alone is
opened with Playwright's ``bypass_csp``. The pages' own script errors and CSP violations are
the other browser tests' business, in tabs that keep the policy."""

from __future__ import annotations

import hashlib

import pytest
from playwright.async_api import Browser

from bot.store import Store
from tests.staff_console.conftest import START
from tests.staff_console.console_browser import (
    AXE,
    AXE_SHA256,
    ON_SESSION_LOOP,
    axe_problems,
    axe_script,
    served_console,
    store,
    watched,
)
from tests.staff_console.console_seed import WITH_HISTORY, seed

__all__ = ["store"]  # on the browser's loop


@pytest.fixture(params=["sqlite"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """The pages are the same on either backend (the two-instance test runs PostgreSQL)."""
    return str(request.param)


def test_the_vendored_axe_is_the_pinned_file() -> None:
    assert hashlib.sha256(AXE.read_bytes()).hexdigest() == AXE_SHA256
    readme = AXE.with_name("README.md").read_text(encoding="utf-8")
    assert AXE_SHA256 in readme and "4.14.1" in readme
    assert AXE.read_text(encoding="utf-8").startswith("/*! axe v4.14.1")
    assert "Mozilla Public License" in AXE.with_name("LICENSE").read_text(encoding="utf-8")


@ON_SESSION_LOOP
async def test_no_console_page_has_a_serious_accessibility_violation(
    store: Store, browser: Browser
) -> None:
    await seed(store, START)
    script = axe_script()
    async with served_console(store) as console:
        link = await console.door.invite("Bob", "admin")
        tab = await watched(browser, bypass_csp=True)
        page = tab.page
        found: dict[str, list[object]] = {}

        async def check(name: str, path: str | None = None) -> None:
            if path is not None:
                await page.goto(f"{console.public}{path}")
            found[name] = [
                f"{v['id']} ({v['impact']}): {v['nodes']}" for v in await axe_problems(page, script)
            ]

        await page.goto(link)
        await check("sign-in")
        await tab.sign_in(link, console.public)
        await check("list")
        nav = await page.locator("header nav a").evaluate_all("links => links.map(a => a.href)")
        assert nav, "the navigation links nowhere"
        for href in nav:
            await check(f"nav {href}", href.removeprefix(console.public))
        await check("list refused", "/console/deliveries?channel=fax")
        await check("delivery", f"/console/deliveries/{WITH_HISTORY}")
        await check("not found", "/console/nowhere")
        await page.goto(f"{console.public}/console/deliveries")
        await page.get_by_label("Language").select_option("fr")
        await page.get_by_role("button", name="Change").click()
        await page.wait_for_url(f"{console.public}/console/deliveries")
        await check("list in French")
        await check("delivery in French", f"/console/deliveries/{WITH_HISTORY}")
        await page.get_by_role("button", name="Se déconnecter", exact=True).click()
        await page.wait_for_url(f"{console.public}/console/signed-out")
        await check("signed out")
    assert {name: problems for name, problems in found.items() if problems} == {}
    assert len(found) >= 9
    # The refused filter (400) and the missing page (404) are the only errors the tab saw.
    assert [p for p in tab.problems if "status of 400" not in p and "status of 404" not in p] == []

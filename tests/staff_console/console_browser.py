"""The console in a real browser: the system's Chromium through Playwright (as the Mini App's
tests), each page watched for script errors and Content-Security-Policy violations; the core's
real web app served by uvicorn on a loopback port (``served_console``, one per instance); and
axe-core, the accessibility checker, run in a page (``axe_problems``).

One Chromium per test process (``browser``): starting Playwright's driver and the browser cost
two to three seconds of CPU per test. Each test still gets tabs of its own: ``watched`` opens
each in a new browser context (its own cookies, storage and cache), and ``browser`` closes
every context a test opened when it ends. Playwright's objects belong to the event loop that
started them, so a browser test runs on the session's loop (``ON_SESSION_LOOP``: the module's
``pytestmark``, or the test's mark beside synchronous tests) and so do its async fixtures: the
module takes this module's ``store`` (the shared fixture's, on that loop) and marks its own
fixtures ``@session_loop_fixture``.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import pytest
import pytest_asyncio
from playwright.async_api import Browser, ConsoleMessage, Page, async_playwright

from bot.bot_core import BotCore, build_core
from bot.clocks import Clock
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.staff.staff_door import StaffDoor
from bot.store import Store
from tests.staff_console.console_site import CONSOLE, KEY, NOWHERE, TRIED_ONCE
from tests.support.served import loopback_socket, serve_on, stop_serving
from tests.support.store_fixture import opened_store
from tests.support.words import SHIPPED
from tests.webapp.page_world import chromium_path

AXE: Final = Path(__file__).with_name("vendor") / "axe.min.js"
AXE_SHA256: Final = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
"""axe-core 4.14.1's ``axe.min.js`` as vendored (``vendor/README.md``)."""
SERIOUS: Final = frozenset({"serious", "critical"})
# axe's result, cut to what a failing test needs to say: the rule, its impact, where.
_RUN_AXE: Final = """async () => {
    const result = await axe.run(document, {resultTypes: ["violations"]});
    return result.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => n.target.join(" ")),
    }));
}"""


@dataclass
class WatchedPage:
    """A browser tab, and every script error or CSP violation it met (a test ends with
    ``problems == []``)."""

    page: Page
    problems: list[str] = field(default_factory=list)

    def _console(self, message: ConsoleMessage) -> None:
        if _favicon_after_the_server_stopped(message):
            return
        if message.type == "error" or "Content Security Policy" in message.text:
            self.problems.append(message.text)

    async def sign_in(self, link: str, public: str, button: str | None = None) -> None:
        """Open a sign-in link, press Sign in (``button``: its words in another language),
        and land on the deliveries list."""
        await self.page.goto(link)
        name = button or SHIPPED.say("console_web.signin_button")
        await self.page.get_by_role("button", name=name).click()
        await self.page.wait_for_url(f"{public}/console/deliveries")

    async def take_hand_off(self, public: str, ref: str) -> None:
        """From any page at ``public``: the hand-offs from the navigation, hand-off ``ref``
        opened from the list, Take pressed."""
        page = self.page
        await page.get_by_role("link", name=SHIPPED.say("console_web.handoffs.nav")).click()
        await page.wait_for_url(f"{public}/console/handoffs")
        opened = SHIPPED.say("console_web.handoffs.open_link", ref=ref)
        await page.get_by_role("link", name=opened).click()
        await page.wait_for_url(f"{public}/console/handoffs/{ref}")
        await page.get_by_role("button", name=SHIPPED.say("console_web.handoffs.take")).click()

    async def reply_to_hand_off(self, text: str) -> None:
        """On a taken hand-off's page: ``text`` sent as the reply, and shown as the team's."""
        page = self.page
        await page.get_by_label(SHIPPED.say("console_web.handoffs.reply_label")).fill(text)
        button = SHIPPED.say("console_web.handoffs.reply_button")
        await page.get_by_role("button", name=button).click()
        await page.locator("ol.handoff-messages li.from-team").wait_for()

    async def choose_language(self, public: str, language: str) -> None:
        """On the deliveries list at ``public`` (in English), ``language`` chosen and applied."""
        page = self.page
        await page.get_by_label(SHIPPED.say("console_web.language.label")).select_option(language)
        await page.get_by_role("button", name=SHIPPED.say("console_web.language.apply")).click()
        await page.wait_for_url(f"{public}/console/deliveries")


def _favicon_after_the_server_stopped(message: ConsoleMessage) -> bool:
    """Chromium fetches a page's icon lazily, after the page has loaded, so a test that
    stops its server while the last page is still open may see that one fetch refused. It is
    not the page's problem; any other refusal, or the icon answered with an error status, is."""
    url = str(message.location.get("url", ""))
    return url.endswith("/favicon.svg") and "ERR_CONNECTION_REFUSED" in message.text


async def watched(browser: Browser, *, bypass_csp: bool = False) -> WatchedPage:
    """A new tab (its own cookies) whose script errors and CSP violations are kept.
    ``bypass_csp``: the page's Content-Security-Policy is not applied, for the accessibility
    checker's tab only (its script is injected, which the console's policy rightly forbids)."""
    context = await browser.new_context(bypass_csp=bypass_csp)
    page = await context.new_page()
    tab = WatchedPage(page)
    page.on("pageerror", lambda error: tab.problems.append(f"script error: {error}"))
    page.on("console", tab._console)
    return tab


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """The system's Chromium, headless, closed at the end."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium_path())
        try:
            yield browser
        finally:
            await browser.close()


ON_SESSION_LOOP: Final = pytest.mark.asyncio(loop_scope="session")
"""A browser test module's ``pytestmark``: its tests run on the loop the shared browser's."""

session_loop_fixture: Final = pytest_asyncio.fixture(loop_scope="session")
"""A browser test module's async fixture, on the loop its tests run on."""


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _shared_chromium() -> AsyncIterator[Browser]:
    """One Chromium for every browser test of the process, started by the first."""
    async with chromium() as browser:
        yield browser


@session_loop_fixture
async def browser(_shared_chromium: Browser) -> AsyncIterator[Browser]:
    """The process's Chromium; every context the test opened in it is closed after it, so
    the next test starts with no tab, cookie or cache of this one's."""
    assert _shared_chromium.contexts == [], "a browser test left a context open"
    try:
        yield _shared_chromium
    finally:
        for context in _shared_chromium.contexts:
            await context.close()


@session_loop_fixture
async def store(
    store_backend: str, store_clock: Clock, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Store]:
    """The shared ``store`` fixture's store (``tests/support/store_fixture.py``), opened on
    the browser tests' loop."""
    async with opened_store(store_backend, store_clock, request, tmp_path) as opened:
        yield opened


@dataclass(frozen=True)
class ServedConsole:
    """One instance of the bot serving its console at ``public`` (``http://localhost:<port>``,
    a secure context to the browser, so it keeps the ``Secure`` cookie), and a door for
    links to it."""

    public: str
    door: StaffDoor
    core: BotCore


@asynccontextmanager
async def served_console(
    store: Store,
    *,
    signing_secrets: tuple[str, ...] = (),
    settings: CoreSettings | None = None,
    seams: Seams | None = None,
) -> AsyncIterator[ServedConsole]:
    """The core's web app over ``store`` with the console on, on a free loopback port.
    Instances on one PostgreSQL database share their sessions: cookies ignore ports, so a
    browser signed in at ``localhost:A`` is signed in at ``localhost:B`` too.
    ``signing_secrets`` turn the Partner webhooks on; ``settings`` (another instance's, its
    public address replaced by this one's) and ``seams`` replace the console-only ones."""
    sock = loopback_socket()
    public = f"http://localhost:{sock.getsockname()[1]}"
    console_only = CoreSettings(
        partner_base_url=NOWHERE,
        partner_api_key=KEY,
        client_options=TRIED_ONCE,
        public_base_url=public,
        console=CONSOLE,
        signing_secrets=signing_secrets,
    )
    settings = console_only if settings is None else replace(settings, public_base_url=public)
    core = build_core(settings, store, seams)
    server = await serve_on(sock, core.web_app, log_config=None, access_log=False)
    try:
        door = StaffDoor(store, settings.console, public, clock=store.clock)
        yield ServedConsole(public, door, core)
    finally:
        await stop_serving(server, sock)
        await core.aclose()


def axe_script() -> str:
    """The vendored axe-core, refused when it is not the pinned file."""
    source = AXE.read_bytes()
    digest = hashlib.sha256(source).hexdigest()
    if digest != AXE_SHA256:
        raise AssertionError(f"{AXE} is not the pinned axe-core (sha256 {digest})")
    return source.decode("utf-8")


async def axe_problems(page: Page, script: str) -> list[dict[str, Any]]:
    """The serious and critical accessibility violations axe finds on ``page`` as it is
    now (``script``: ``axe_script()``; the tab must bypass the page's CSP)."""
    await page.add_script_tag(content=script)
    violations: list[dict[str, Any]] = await page.evaluate(_RUN_AXE)
    return [v for v in violations if v["impact"] in SERIOUS]

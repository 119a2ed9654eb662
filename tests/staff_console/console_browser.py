"""The console in a real browser: the system's Chromium through Playwright (as the Mini App's
tests), each page watched for script errors and Content-Security-Policy violations."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from playwright.async_api import Browser, ConsoleMessage, Page, async_playwright

from tests.support.words import SHIPPED
from tests.webapp.page_world import chromium_path


@dataclass
class WatchedPage:
    """A browser tab, and every script error or CSP violation it met (a test ends with
    ``problems == []``)."""

    page: Page
    problems: list[str] = field(default_factory=list)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error" or "Content Security Policy" in message.text:
            self.problems.append(message.text)

    async def sign_in(self, link: str, public: str) -> None:
        """Open a sign-in link, press Sign in, and land on the deliveries list."""
        await self.page.goto(link)
        button = self.page.get_by_role("button", name=SHIPPED.say("console_web.signin_button"))
        await button.click()
        await self.page.wait_for_url(f"{public}/console/deliveries")


async def watched(browser: Browser) -> WatchedPage:
    """A new tab (its own cookies) whose script errors and CSP violations are kept."""
    context = await browser.new_context()
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

"""A hand-off in a real browser (the system's Chromium through Playwright), on the running bot
(PTB's real Application polling the fake Bot API): a customer asks for a person in Telegram, an
operator signs in to the console with the link /console sent him, opens the hand-off from the
navigation, takes it and replies; the fake Telegram shows the card with him as its owner, the
customer gets the reply, and no page met a script error or a CSP violation. The bot's web app
is served by uvicorn on a loopback socket."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from tests.e2e.conftest import ADA, OLU, OPERATORS, PUBLIC_BASE_URL, BotStack
from tests.staff_console.console_browser import ON_SESSION_LOOP, session_loop_fixture, watched
from tests.support.served import loopback_socket, serve_on, stop_serving
from tests.support.words import SHIPPED
from tests.telegram_adapter.stack_backends import limits, started_stack, webapp

pytestmark = ON_SESSION_LOOP
__all__ = ["limits", "webapp"]


@pytest.fixture
def console() -> dict[str, Any]:
    return {"enabled": True, "dispatchers": [f"telegram:{OLU.id}"]}


@pytest_asyncio.fixture(params=["sqlite", "postgres"], loop_scope="session")
async def stack(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    limits: dict[str, Any],
    console: dict[str, Any],
    webapp: dict[str, Any],
) -> AsyncIterator[BotStack]:
    """``stack_backends``'s ``stack``, started on the browser's loop."""
    async with contextlib.AsyncExitStack() as exits:
        yield await started_stack(
            exits, request, tmp_path, limits=limits, console=console, webapp=webapp
        )


@session_loop_fixture
async def public(stack: BotStack) -> AsyncIterator[str]:
    """The running bot's web app at ``http://localhost:<port>`` (a secure context to the
    browser, so it keeps the ``Secure`` cookie)."""
    sock = loopback_socket()
    server = await serve_on(sock, stack.bot.web_app, log_config=None, access_log=False)
    try:
        yield f"http://localhost:{sock.getsockname()[1]}"
    finally:
        await stop_serving(server, sock)


@pytest.mark.parametrize("stack", ["sqlite"], indirect=True)  # the HTTP tests run both
async def test_take_a_hand_off_and_reply_in_the_browser(
    stack: BotStack, public: str, browser: Browser
) -> None:
    await stack.command(ADA, "human")
    (card,) = stack.tg.sent_messages(OPERATORS.id)
    assert card.text is not None
    ref = card.text[1:7]
    await stack.command(OLU, "console", chat=OPERATORS)
    sent = (stack.tg.sent_messages(OLU.id)[-1].text or "").rsplit("\n", 1)[-1]
    link = public + sent.removeprefix(PUBLIC_BASE_URL)

    tab = await watched(browser)
    page = tab.page
    await tab.sign_in(link, public)
    await tab.take_hand_off(public, ref)
    await page.get_by_text(SHIPPED.say("staff.card_taken", owner="Olu")).wait_for()
    now = stack.tg.message(OPERATORS.id, card.message_id)
    assert now is not None
    assert SHIPPED.say("staff.card_taken", owner="Olu") in str(now.get("text"))

    before = len(stack.tg.sent_messages(ADA.id))
    await tab.reply_to_hand_off("Hello from the console")
    assert "Hello from the console" in await page.locator("ol.handoff-messages").inner_text()
    assert [m.text for m in stack.tg.sent_messages(ADA.id)[before:]] == ["Hello from the console"]
    now = stack.tg.message(OPERATORS.id, card.message_id)
    assert now is not None and "Hello from the console" in str(now.get("text"))
    assert tab.problems == []

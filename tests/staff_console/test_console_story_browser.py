"""The console's whole story in one real browser (the system's Chromium through Playwright), on
both store backends and two instances of the bot over one store.

Instance A is the running bot (the production runtime: PTB's real Application polling the fake
Bot API, the sandbox Partner API behind it, its Partner webhooks into its web app); instance B
is a second core with the same settings over the same store (SQLite: the same store; PostgreSQL:
its own connections to the same database), reaching the same sandbox, with Telegram registered
as on every instance (it sends; only A polls for updates). Each serves its web app on its own
loopback port; cookies ignore ports, so the browser signed in on A is signed in on B.

An admin asks /console in the operators' group and signs in on A with the link; the deliveries
list is opened on B; a customer orders in Telegram and the row appears on B's open list without
a reload; the admin opens it on B and assigns a rider from the panel; the customer asks for a
person and the admin takes the hand-off on A and replies (the card in the group names him, the
customer gets the reply); on B he blocks the customer with a reason (B's desk ends the hand-off:
the customer is told, the card says why, and their next message gets the blocked sentence); he
chooses French on A and B's pages are in French. No tab met a script error or a
Content-Security-Policy violation.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser
from telegram.request import HTTPXRequest

from bot.chat_ref import TELEGRAM, UserRef
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.runtime.wiring import TelegramBot, register_telegram
from bot.settings import CoreSettings
from bot.store import Store
from bot.telegram.limits import RateLimiter
from conversations.texts.deliveries_texts import short_ref
from tests.e2e.conftest import _TLS, ADA, OLU, OPERATORS, PUBLIC_BASE_URL, BotStack
from tests.staff_console.console_browser import (
    ON_SESSION_LOOP,
    ServedConsole,
    served_console,
    session_loop_fixture,
    watched,
)
from tests.staff_console.test_handoffs_browser import public
from tests.support.words import SHIPPED, said_in
from tests.telegram_adapter.handler_world import manual_dispatch
from tests.telegram_adapter.stack_backends import started_stack

pytestmark = ON_SESSION_LOOP
__all__ = ["public"]  # instance A: the running bot's web app on a loopback port

FRENCH = said_in("fr")
RIDER = "Tunde Bakare"


@pytest_asyncio.fixture(params=["sqlite", "postgres"], loop_scope="session")
async def stack(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[BotStack]:
    """The running bot over each backend, its creates left ``pending`` for a person to dispatch
    and OLU an admin of its console."""
    console = {"enabled": True, "admins": [f"telegram:{OLU.id}"]}
    async with contextlib.AsyncExitStack() as exits:
        yield await started_stack(
            exits, request, tmp_path, limits={}, console=console, edit=manual_dispatch
        )


@session_loop_fixture
async def second(stack: BotStack, tmp_path: Path) -> AsyncIterator[ServedConsole]:
    """Instance B: a core with the bot's own settings over the bot's store (on PostgreSQL, a
    store of its own on the same database), its Partner API the same sandbox, Telegram
    registered as on every instance (it sends; only A receives updates), served on its own
    loopback port."""
    settings = CoreSettings.from_config(stack.config)
    # A's seams (the sandbox, the clocks) with B's own HTTP clients to Telegram and send
    # limiter, and no update processor (B receives no updates).
    seams = replace(
        stack.bot.core.seams,
        processor=None,
        limiter=RateLimiter(clock=stack.time.clock, sleep=stack.time.sleep),
        telegram_request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
        telegram_updates_request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
    )
    async with contextlib.AsyncExitStack() as exits:
        store = stack.bot.store
        postgres = stack.config.storage.postgres
        if postgres is not None:
            store = await Store.connect_postgres(
                postgres.dsn.get_secret_value(),
                media_dir=tmp_path / "media-b",
                channels=SHIPPED_CHANNEL_KINDS,
            )
            exits.push_async_callback(store.close)
        served = await exits.enter_async_context(
            served_console(store, settings=settings, seams=seams)
        )
        telegram = TelegramBot.build(stack.config.telegram, seams, store)
        exits.push_async_callback(telegram.aclose)
        await telegram.application.initialize()  # its Bot knows its name, as a started one's
        register_telegram(
            served.core,
            telegram,
            operators=frozenset(settings.operators),
            session_idle_seconds=stack.config.privacy.drafts_seconds,
        )
        yield served


async def _console_link(stack: BotStack, public: str) -> str:
    """OLU asks /console in the operators' group; the link he got privately, on ``public``."""
    await stack.command(OLU, "console", chat=OPERATORS)
    sent = (stack.tg.sent_messages(OLU.id)[-1].text or "").rsplit("\n", 1)[-1]
    assert sent.startswith(f"{PUBLIC_BASE_URL}/console/signin/")
    return public + sent.removeprefix(PUBLIC_BASE_URL)


async def _asks_for_a_person(stack: BotStack) -> tuple[str, int]:
    """ADA asks for a person: the hand-off's reference and its card's message id."""
    before = len(stack.tg.sent_messages(OPERATORS.id))
    await stack.command(ADA, "human")
    (card,) = stack.tg.sent_messages(OPERATORS.id)[before:]
    assert card.text is not None and card.text.startswith("#")
    return card.text[1:7], card.message_id


def _card_text(stack: BotStack, message_id: int) -> str:
    now: dict[str, Any] | None = stack.tg.message(OPERATORS.id, message_id)
    assert now is not None
    return str(now.get("text"))


async def test_the_whole_story_on_two_instances(
    stack: BotStack, public: str, second: ServedConsole, browser: Browser
) -> None:
    a, b = public, second.public
    assert a != b
    link = await _console_link(stack, a)
    tab = await watched(browser)
    page = tab.page

    # 1. Signed in on A by the link; the list open on B (the same session).
    await tab.sign_in(link, a)
    await page.goto(f"{b}/console/deliveries")
    assert page.url == f"{b}/console/deliveries"
    await page.get_by_text(SHIPPED.say("console_web.live.on")).wait_for()

    # 2. ADA orders in Telegram; the row appears on B's open list by itself.
    delivery_id = await stack.order(ADA)
    row = page.locator(f'tr[data-delivery="{delivery_id}"]')
    await row.wait_for()
    listed = await row.inner_text()
    assert short_ref(delivery_id).upper() in listed.upper()
    assert SHIPPED.say("status.pending") in listed

    # 3. Opened on B, a rider assigned from the panel.
    await row.get_by_role("link").click()
    await page.wait_for_url(f"{b}/console/deliveries/{delivery_id}")
    assign = SHIPPED.say("console_web.actions.assign", rider=f"{RIDER} (motorbike)")
    await page.get_by_role("button", name=assign).click()
    await page.wait_for_url(f"{b}/console/deliveries/{delivery_id}?done=assigned")
    outcome = await page.get_by_role("status").inner_text()
    assert outcome == SHIPPED.say("console_web.actions.done_assigned")
    rider_now = SHIPPED.say("console_web.actions.rider_now", rider=RIDER)
    assert rider_now in await page.locator("section.dispatch").inner_text()
    assert stack.sandbox.delivery(delivery_id)["rider"]["id"] == "rdr_tunde"

    # 4. ADA asks for a person; taken on A and answered there.
    ref, card = await _asks_for_a_person(stack)
    await page.goto(f"{a}/console/deliveries")
    await tab.take_hand_off(a, ref)
    taken = SHIPPED.say("staff.card_taken", owner=OLU.first_name)
    await page.get_by_text(taken).wait_for()
    assert taken in _card_text(stack, card)
    before = len(stack.tg.sent_messages(ADA.id))
    await tab.reply_to_hand_off("Hello Ada, Olu here")
    assert [m.text for m in stack.tg.sent_messages(ADA.id)[before:]] == ["Hello Ada, Olu here"]
    assert "Hello Ada, Olu here" in _card_text(stack, card)

    # 5. Blocked on B from her page, with a reason; her next message is refused.
    customer = f"{b}/console/customers/telegram/{ADA.id}"
    await page.goto(customer)
    await page.get_by_label(SHIPPED.say("console_web.customers.reason")).fill("fake orders")
    await page.get_by_role(
        "button", name=SHIPPED.say("console_web.customers.block_button"), exact=True
    ).click()
    await page.wait_for_url(re.compile(re.escape(customer) + r"\?done=blocked&drafts=\d+$"))
    assert await page.get_by_role(
        "button", name=SHIPPED.say("console_web.customers.unblock_button"), exact=True
    ).is_visible()
    # B's desk ended her hand-off: she was told, and the card in the group says why.
    assert [m.text for m in stack.tg.sent_messages(ADA.id)[-1:]] == [SHIPPED.say("safety.blocked")]
    assert SHIPPED.say("staff.card_blocked") in _card_text(stack, card)
    (refused,) = await stack.text(ADA, "hello?")
    assert refused.text == SHIPPED.say("safety.blocked")

    # 6. French chosen on A; B's pages are in French.
    await page.goto(f"{a}/console/deliveries")
    await tab.choose_language(a, "fr")
    await page.goto(f"{b}/console/deliveries/{delivery_id}")
    assert await page.locator("html").get_attribute("lang") == "fr"
    assert FRENCH.say("console_web.actions.rider_now", rider=RIDER) in (
        await page.locator("section.dispatch").inner_text()
    )
    block = await stack.bot.store.customer_blocks.get(UserRef(TELEGRAM, ADA.id))
    assert block is not None and block.reason == "fake orders"
    assert tab.problems == []

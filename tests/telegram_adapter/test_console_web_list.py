"""The console's deliveries list over real HTTP on the running bot's web app, on both store
backends: an operator asks ``/console`` in Telegram, signs in with the link it sent them, and
finds the delivery a customer ordered through Telegram, by its filters and its reference."""

from __future__ import annotations

import re
from typing import Any

import httpx
import markupsafe
import pytest

from tests.e2e.conftest import ADA, OLU, OPERATORS, PUBLIC_BASE_URL, BotStack
from tests.support.words import SHIPPED
from tests.telegram_adapter.stack_backends import limits, stack

__all__ = ["limits", "stack"]

_ROW = re.compile(r'<tr data-delivery="([^"]+)">')


@pytest.fixture
def console() -> dict[str, Any]:
    return {"enabled": True, "dispatchers": [f"telegram:{OLU.id}"]}


async def _signed_in(stack: BotStack) -> httpx.AsyncClient:
    await stack.command(OLU, "console", chat=OPERATORS)
    link = (stack.tg.sent_messages(OLU.id)[-1].text or "").rsplit("\n", 1)[-1]
    transport = httpx.ASGITransport(app=stack.bot.web_app)
    client = httpx.AsyncClient(transport=transport, base_url=PUBLIC_BASE_URL)
    signed = await client.post(link.removeprefix(PUBLIC_BASE_URL))
    assert (signed.status_code, signed.headers["location"]) == (303, "/console/deliveries")
    return client


async def test_an_operator_finds_a_telegram_order_in_the_console(stack: BotStack) -> None:
    delivery_id = await stack.order(ADA)
    client = await _signed_in(stack)

    page = await client.get("/console/deliveries")
    assert page.status_code == 200
    assert _ROW.findall(page.text) == [delivery_id]
    row = page.text[page.text.index("<tbody>") :]
    [status] = re.findall(r'class="status-([a-z_]+)"', row)  # as the bot's store has it
    for shown in (
        "Ada Obi",
        SHIPPED.say("console_web.channel.telegram"),
        SHIPPED.say(f"status.{status}"),
        SHIPPED.money(1500, "NGN"),
        SHIPPED.say("payment.unpaid"),
    ):
        assert str(markupsafe.escape(shown)) in row, shown

    for query in (f"q={delivery_id[:6]}", "channel=telegram", f"status={status}"):
        found = await client.get(f"/console/deliveries?{query}")
        assert _ROW.findall(found.text) == [delivery_id], query
    assert str(markupsafe.escape(SHIPPED.say("console_web.role.dispatcher"))) in page.text
    none = await client.get("/console/deliveries?status=cancelled")
    assert _ROW.findall(none.text) == []
    refused = await client.get("/console/deliveries?channel=fax")
    assert refused.status_code == 400
    assert "fax" in refused.text and _ROW.findall(refused.text) == []


async def test_a_rows_link_opens_the_deliverys_page_with_its_history(stack: BotStack) -> None:
    delivery_id = await stack.order(ADA)
    stack.sandbox.mark_paid(delivery_id)
    stack.sandbox.advance_status(delivery_id)
    await stack.deliver_events()
    client = await _signed_in(stack)

    listed = await client.get("/console/deliveries")
    assert f'href="/console/deliveries/{delivery_id}"' in listed.text
    page = await client.get(f"/console/deliveries/{delivery_id}")

    assert page.status_code == 200
    assert page.headers["content-security-policy"].startswith("default-src 'none'")
    history = page.text[page.text.index('<ol class="timeline">') :]
    assert history.count('<li class="entry-event">') >= 2  # created, then the later news
    assert "entry-message" in history  # what the bot told the customer and the operators
    assert str(markupsafe.escape(SHIPPED.say("delivery.paid_amount", amount="NGN 1,500"))) in (
        history
    )
    by_ref = await client.get(f"/console/deliveries/{delivery_id[:8]}")
    assert by_ref.status_code == 200 and f'href="/console/deliveries/{delivery_id}"' not in (
        by_ref.text
    )  # the page itself, not a list linking to it (its action forms post to the full id)
    missing = await client.get("/console/deliveries/ffffffff")
    assert missing.status_code == 404
    assert "FFFFFFFF" in missing.text
    too_short = await client.get("/console/deliveries/ab")
    assert too_short.status_code == 400
    transport = httpx.ASGITransport(app=stack.bot.web_app)
    signed_out = httpx.AsyncClient(transport=transport, base_url=PUBLIC_BASE_URL)
    assert (await signed_out.get(f"/console/deliveries/{delivery_id}")).status_code == 303

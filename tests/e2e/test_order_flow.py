"""A whole order in Telegram: /start to ``delivered``, photos re-hosted, webhook-driven news."""

from __future__ import annotations

import httpx

from bot.relay.outbox import COALESCED_SEPARATOR
from bot.telegram.command_menus import (
    OPERATOR_GROUP_COMMANDS,
    customer_menu,
    flow_commands,
)
from conversations.flows import default_registry
from conversations.texts.deliveries_texts import short_ref
from tests.e2e.conftest import ADA, OPERATORS, PUBLIC_BASE_URL, BotStack, tiny_png
from tests.support.words import SHIPPED


async def test_an_order_goes_from_start_to_delivered(stack: BotStack) -> None:
    photo = tiny_png(red=77)
    first = await stack.command(ADA, "start")
    assert [m.text for m in first] == [
        "Hello! I take delivery orders here, one question at a time.\n\n"
        "What would you like to order?",
    ]

    delivery_id = await stack.order(ADA, photos=[photo], begin=None)

    # The photo came through PTB's getFile and download, and the sandbox fetched it from the
    # bot's own /media route while it checked the create (a create without it is refused).
    assert [f.data for f in stack.tg.downloads] == [photo]
    done = (stack.tg.sent_messages(ADA.id)[-1].text or "").split("\n\n")
    assert short_ref(delivery_id) in done[0] and done[-1].startswith("Track it here: https://")
    tracking = done[-1].removeprefix("Track it here: ")
    link = await stack.bot.store.deliveries.get(delivery_id)
    assert link is not None and (link.chat.id, link.user_id) == (ADA.id, ADA.id)

    # The service's own news of the create (created, rider matched) comes by webhook too, and
    # is no news to the chat: the answer to the order named the rider already.
    assert "has already been assigned" in (stack.tg.sent_messages(ADA.id)[-1].text or "")
    await stack.sandbox.drain_webhooks()
    assert await stack.deliver_events() == 0
    assert not any("your rider" in (m.text or "") for m in stack.tg.sent_messages(ADA.id))

    # The business and the rider move it along; each change arrives as a signed webhook that
    # the web app stores and the background relay turns into a message.
    for act, news in (
        (stack.sandbox.mark_paid, "received your payment"),
        (stack.sandbox.advance_status, "has been picked up"),
        (stack.sandbox.advance_status, "on its way"),
        (stack.sandbox.advance_status, "has been delivered"),
    ):
        before = len(stack.tg.sent_messages(ADA.id))
        act(delivery_id)
        await stack.sandbox.drain_webhooks()
        await stack.tg.wait_for_message(ADA.id, lambda m, n=news: n in (m.text or ""), after=before)

    assert await stack.deliver_events() == 0  # the background relay left nothing behind
    link = await stack.bot.store.deliveries.get(delivery_id)
    assert link is not None and link.status == "delivered"

    # Operators heard the events' summaries; nobody was told anything twice.
    operator_texts = [m.text or "" for m in stack.tg.sent_messages(OPERATORS.id)]
    assert sum(short_ref(delivery_id) in text for text in operator_texts) >= 4
    # Each piece of news counted once: news that reached the chat while its previous message
    # still went out rides along in the next one (bot.relay.chat_queues), e.g. the pickup
    # behind the drop-off code's link, when the relay plans it before that link's turn.
    heading = f"Delivery {short_ref(delivery_id)}\n"
    relayed = [
        piece
        for m in stack.tg.sent_messages(ADA.id)
        for piece in (m.text or "").split(COALESCED_SEPARATOR)
        if piece.startswith(heading)
    ]
    assert len(relayed) == len(set(relayed)) >= 4
    # The tracking link was given once, with the answer to the order.
    assert sum(tracking in (m.text or "") for m in stack.tg.sent_messages(ADA.id)) == 1


async def test_package_photos_are_rehosted_on_the_bots_host_without_the_token(
    stack: BotStack,
) -> None:
    photos = [tiny_png(red=1), tiny_png(red=2)]
    await stack.order(ADA, photos=photos)

    (create,) = stack.partner.creates if stack.partner else []
    urls = create["packageImages"]
    assert len(urls) == 2
    assert all(url.startswith(f"{PUBLIC_BASE_URL}/media/") for url in urls)
    assert not any(stack.tg.token in url or "/file/bot" in url for url in urls)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=stack.bot.web_app)) as web:
        served = [(await web.get(url)).content for url in urls]
    assert served == photos


async def test_the_command_menus_are_registered(stack: BotStack) -> None:
    customer = [c["command"] for c in stack.tg.commands()]
    operator_scope = {"type": "chat", "chat_id": OPERATORS.id}
    operators = [c["command"] for c in stack.tg.commands(operator_scope)]

    assert customer == [
        c.command for c in customer_menu(flow_commands(SHIPPED, default_registry()))
    ]
    assert {"start", "new", "cancel", "back", "help"} <= set(customer)
    assert {"status", "deliveries", "cancel_delivery"} <= set(customer)
    assert operators == [c.command for c in OPERATOR_GROUP_COMMANDS]
    assert {"riders", "assign", "unassign"} <= set(operators)

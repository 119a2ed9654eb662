"""/repeat in Telegram: the last delivery filled in again; only the photos are asked anew."""

from __future__ import annotations

from bot.telegram.command_menus import CUSTOMER_COMMANDS
from conversations.flows.repeat_last import NOTHING_YET, PHOTOS_AGAIN
from tests.e2e.conftest import ADA, CHIDI, BotStack, tiny_png


async def test_repeat_orders_the_last_delivery_again(stack: BotStack) -> None:
    first_id = await stack.order(ADA)

    shown = [m.text or "" for m in await stack.command(ADA, "repeat")]
    assert shown[0].startswith("Your last order, pickup & delivery:")
    assert "A pair of shoes in a box" in shown[0] and PHOTOS_AGAIN in shown[0]
    await stack.photo(ADA, tiny_png(red=31))  # re-hosted photos expire: asked again
    await stack.tap(stack.prompt(ADA.id), "Done")
    summary = stack.prompt(ADA.id)
    assert summary.text is not None and "Bola Ahmed" in summary.text
    await stack.tap(summary, "Confirm and send")

    links = await stack.bot.store.deliveries.for_user(ADA.id, 10)
    assert len(links) == 2 and first_id in {link.delivery_id for link in links}
    assert all((link.chat_id, link.user_id) == (ADA.id, ADA.id) for link in links)
    assert stack.partner is not None
    first, again = stack.partner.creates
    assert first.pop("packageImages") != again.pop("packageImages")
    assert first.pop("idempotencyKey") != again.pop("idempotencyKey")  # a new order, a new key
    assert again == first  # every other field of the request is the last order's


async def test_repeat_with_nothing_ordered_offers_a_new_order(stack: BotStack) -> None:
    (shown,) = await stack.command(CHIDI, "repeat")
    assert shown.text is not None and shown.text.startswith(NOTHING_YET)
    await stack.tap(shown, "Start a new order")
    assert stack.prompt(CHIDI.id).text == "What would you like to order?"
    assert not await stack.bot.store.deliveries.for_user(CHIDI.id, 10)


def test_repeat_is_in_the_customer_menu() -> None:
    assert "repeat" in [command.command for command in CUSTOMER_COMMANDS]

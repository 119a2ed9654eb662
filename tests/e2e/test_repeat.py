"""/repeat in Telegram: the last order's answers replayed into the flow that made it; only the
photos are asked anew."""

from __future__ import annotations

from bot.chat_ref import UserRef
from bot.telegram.command_menus import CUSTOMER_COMMANDS
from conversations.texts import dialogue
from tests.e2e.conftest import ADA, CHIDI, BotStack, tiny_png
from tests.support.words import SHIPPED


async def test_repeat_orders_the_last_delivery_again(stack: BotStack) -> None:
    first_id = await stack.order(ADA)

    shown = [m.text or "" for m in await stack.command(ADA, "repeat")]
    assert shown[0].startswith(dialogue.repeating(SHIPPED, "Pickup & delivery"))
    assert dialogue.not_reused(SHIPPED, ["Photos"]) in shown[0]
    await stack.photo(ADA, tiny_png(red=31))  # re-hosted photos expire: asked again
    summary = stack.prompt(ADA.id)
    assert summary.text is not None
    assert "Bola Ahmed" in summary.text and "A pair of shoes in a box" in summary.text
    await stack.tap(summary, "Confirm and send")

    links = await stack.bot.store.deliveries.for_user(UserRef("telegram", ADA.id), 10)
    assert len(links) == 2 and first_id in {link.delivery_id for link in links}
    assert all((link.chat.id, link.user_id) == (ADA.id, ADA.id) for link in links)
    assert stack.partner is not None
    first, again = stack.partner.creates
    assert first.pop("packageImages") != again.pop("packageImages")
    assert first.pop("idempotencyKey") != again.pop("idempotencyKey")  # a new order, a new key
    assert again == first  # every other field of the request is the last order's


async def test_repeat_with_nothing_ordered_starts_a_new_order(stack: BotStack) -> None:
    (shown,) = await stack.command(CHIDI, "repeat")
    assert shown.text is not None and shown.text.startswith(
        dialogue.NOTHING_TO_REPEAT.render(SHIPPED)
    )
    assert "What would you like to order?" in shown.text
    assert stack.prompt(CHIDI.id) == shown
    await stack.tap(shown, "Errand: we buy it for you")  # the new order is open: it goes on
    assert (stack.prompt(CHIDI.id).text or "").startswith("What kind of errand?")
    assert not await stack.bot.store.deliveries.for_user(UserRef("telegram", CHIDI.id), 10)


def test_repeat_is_in_the_customer_menu() -> None:
    assert "repeat" in [command.command for command in CUSTOMER_COMMANDS]

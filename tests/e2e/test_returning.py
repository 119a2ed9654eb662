"""A returning customer in Telegram: the second order pre-sets their name, phone and payment
method and offers their last pickup and drop-off places as one pre-selected tap each; another
customer of the same bot is offered none of it."""

from __future__ import annotations

from tests.e2e.conftest import ADA, ADA_PHONE, CHIDI, BotStack, tiny_png
from tests.fakes import SentMessage


def labels(message: SentMessage) -> list[str]:
    return message.button_texts


async def test_the_second_order_offers_what_the_first_gave(stack: BotStack) -> None:
    await stack.order(ADA)
    await stack.command(ADA, "new")
    await stack.tap(stack.prompt(ADA.id), "✓ Pickup & delivery")
    pickup = stack.prompt(ADA.id)
    await stack.tap(pickup, "✓ Same as last time: 12 Herbert Macaulay Way, Yaba")
    dropoff = stack.prompt(ADA.id)
    (again_there,) = [label for label in labels(dropoff) if "last time" in label]
    assert again_there.startswith("✓ Same as last time: UNILAG Main Gate")  # pre-selected
    await stack.tap(dropoff, again_there)
    # Straight to the receiver: the sender's name and phone are pre-set.
    asked = [m.text or "" for m in await stack.text(ADA, "Chidi Eze")]
    assert not any("What is your name" in text for text in asked)
    await stack.text(ADA, "0803 555 0000")
    await stack.text(ADA, "Books")
    await stack.tap(stack.prompt(ADA.id), "Small")
    await stack.photo(ADA, tiny_png(red=42))
    # How she paid last time is pre-set too: straight to the summary, which shows it.
    summary = stack.prompt(ADA.id)
    assert summary.text is not None and "Ada Obi" in summary.text
    assert "Payment: Cash to the rider at pickup" in summary.text
    await stack.tap(summary, "Confirm and send")

    assert stack.partner is not None
    first, again = stack.partner.creates
    for field in ("pickupAddress", "pickupCoords", "deliveryAddress", "deliveryCoords"):
        assert again[field] == first[field], field
    assert (again["senderName"], again["senderPhone"]) == ("Ada Obi", ADA_PHONE)
    assert again["receiverName"] == "Chidi Eze"


async def test_another_customer_is_offered_nothing_of_hers(stack: BotStack) -> None:
    await stack.order(ADA)
    await stack.command(CHIDI, "new")
    await stack.tap(stack.prompt(CHIDI.id), "✓ Pickup & delivery")
    shown = labels(stack.prompt(CHIDI.id))
    assert shown and not any("last time" in label for label in shown)


async def test_new_in_the_middle_of_an_order_asks_first(stack: BotStack) -> None:
    await stack.command(ADA, "new")
    await stack.tap(stack.prompt(ADA.id), "✓ Pickup & delivery")
    await stack.location(ADA, 6.5095, 3.3711)
    (asked,) = await stack.command(ADA, "new")
    assert (asked.text or "").startswith("Start a new order?")
    await stack.tap(asked, "No, go on")
    assert "address at this pin" in (stack.prompt(ADA.id).text or "")
    await stack.command(ADA, "new")
    await stack.tap(stack.prompt(ADA.id), "Yes, start a new one")
    assert (stack.prompt(ADA.id).text or "").startswith("What would you like to order?")

"""Warehouse drop-off switched off by the business mid-order: the order is not ended; the
customer is told plainly, a rider picks up instead (the pickup place is asked) and every other
answer is kept. A warehouse chosen is named with its address on the summary."""

from __future__ import annotations

from conversations.texts import dialogue
from tests.support.words import SHIPPED

from .conftest import Chat, World, make_caps


def switch_off(world: World) -> None:
    world.catalog.caps = world.catalog.after_refresh = make_caps(allowWarehouseDropoff=False)


async def test_at_the_warehouse_question_the_pickup_place_is_asked_instead(
    world: World, chat: Chat
) -> None:
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("warehouse")
    assert chat.step == "warehouse"
    switch_off(world)
    await chat.tap("wh-2")
    assert chat.turn.status == "open"
    assert dialogue.NO_WAREHOUSE_NOW.render(SHIPPED) in chat.turn.messages
    assert chat.step == "pickup_place"
    assert "warehouse" not in chat.option_ids()
    assert chat.session is not None and "delivery_mode" in chat.session.answers


async def test_from_the_summary_only_the_pickup_is_asked_again(world: World, chat: Chat) -> None:
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("warehouse")
    await chat.tap("wh-2")
    await chat.tap("saved:loc-gate")
    await chat.contact("08031234567", "Ada", "Obi")
    await chat.say("Bola Ade")
    await chat.say("08022223333")
    await chat.say("Shoes")
    await chat.tap("small")
    await chat.photos(1)
    await chat.pay("cash_on_delivery")
    assert chat.step == "summary" and chat.prompt is not None
    assert "Warehouse: Lekki Hub, 1 Admiralty Way" in chat.prompt.text
    switch_off(world)
    await chat.tap("edit:warehouse")
    assert dialogue.NO_WAREHOUSE_NOW.render(SHIPPED) in chat.turn.messages
    assert chat.step == "pickup_place"
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    # Everything else was kept: straight back to the summary.
    assert chat.step == "summary" and chat.prompt is not None
    assert "Receiver: Bola Ade" in chat.prompt.text
    await chat.tap("confirm")
    [request] = world.creator.requests
    assert request.deliveryMode == "pickup" and request.warehouseId is None
    assert request.pickupAddress == "Tafawa Balewa Square"
    assert request.receiverName == "Bola Ade"

"""The pharmacy errand (conversations/flows/pharmacy_errand.py): offered by the shipped entry
menu, and end to end to the request it sends, every errand field present."""

from __future__ import annotations

from conversations.flows import default_registry
from tests.conversations.conftest import IKEJA


async def test_the_shipped_menu_offers_it(world):
    world.registry = default_registry()
    chat = world.chat()
    await chat.start()
    assert "pharmacy_errand" in chat.option_ids()
    await chat.tap("pharmacy_errand")
    assert chat.step == "medicine"


async def test_it_buys_the_medicine_and_sends_every_errand_field(world):
    world.registry = default_registry()
    chat = world.chat()
    await chat.start("pharmacy_errand")
    await chat.say("Paracetamol 500 mg, 2 packs")
    await chat.command("skip")  # no prescription
    await chat.location(*IKEJA, address="HealthPlus Pharmacy, Ikeja City Mall")
    await chat.tap("saved:loc-gate")
    await chat.contact("+2348031234567", "Ada", "Obi")
    await chat.pay("online_checkout")
    assert chat.step == "summary", chat.said
    await chat.tap("confirm")
    assert chat.turn.status == "created", chat.said
    sent = world.creator.requests[0]
    assert (sent.serviceKind, sent.errandMode, sent.packageSize) == ("errand", "at_place", "small")
    assert sent.packageDescription == "Paracetamol 500 mg, 2 packs"
    assert sent.pickupAddress == "HealthPlus Pharmacy, Ikeja City Mall"
    assert (sent.errandBudgetNgn, sent.shopPhone, sent.errandLinks) == ("", "", [])
    assert (sent.errandSubstituteOk, sent.pickupLocationUnknown) == (False, False)
    assert (sent.receiverName, sent.receiverPhone) == (sent.senderName, sent.senderPhone)

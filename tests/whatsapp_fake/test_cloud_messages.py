"""The fake's messages endpoint as pywa (the bot's client) sends to it: each kind accepted and
recorded as a customer sees it, with Meta's answer."""

from __future__ import annotations

from pywa_async.types.callback import Button, Section, SectionList, SectionRow
from pywa_async.types.templates import BodyText, TemplateLanguage

from .cloud_fixtures import CUSTOMER, PHONE_NUMBER_ID, Cloud


async def test_a_text_is_answered_with_the_wa_id_and_a_message_id(cloud: Cloud) -> None:
    sent = await cloud.client.wa.send_message(to=f"+{CUSTOMER}", text="Hello ₦2,500")

    assert sent.id.startswith("wamid.")
    assert sent.chat.id == CUSTOMER
    (seen,) = cloud.fake.sent_to(CUSTOMER)
    assert (seen.kind, seen.text, seen.message_id) == ("text", "Hello ₦2,500", sent.id)


async def test_reply_buttons_are_recorded_with_their_ids_and_titles(cloud: Cloud) -> None:
    await cloud.client.wa.send_message(
        to=CUSTOMER,
        text="Which service?",
        header="New delivery",
        footer="Tap one",
        buttons=[Button("Pickup", "svc:pickup"), Button("Errand", "svc:errand")],
    )

    (seen,) = cloud.fake.sent_to(CUSTOMER)
    assert (seen.kind, seen.text, seen.header, seen.footer) == (
        "buttons",
        "Which service?",
        "New delivery",
        "Tap one",
    )
    assert seen.titles() == ["Pickup", "Errand"]
    assert seen.offered_titled("Errand").reply_id == "svc:errand"


async def test_a_list_is_recorded_with_its_rows_over_its_sections(cloud: Cloud) -> None:
    await cloud.client.wa.send_message(
        to=CUSTOMER,
        text="Which room?",
        buttons=SectionList(
            "Rooms",
            [
                Section("Floor 1", [SectionRow("101", "room:101", description="Sea view")]),
                Section("Floor 2", [SectionRow("201", "room:201")]),
            ],
        ),
    )

    (seen,) = cloud.fake.sent_to(CUSTOMER)
    assert (seen.kind, seen.list_button, seen.titles()) == ("list", "Rooms", ["101", "201"])
    assert seen.offered[0].description == "Sea view"


async def test_a_location_request_and_a_template_are_recorded(cloud: Cloud) -> None:
    await cloud.client.wa.request_location(to=CUSTOMER, text="Where should we pick up?")
    await cloud.client.wa.send_template(
        to=CUSTOMER,
        name="delivery_update",
        language=TemplateLanguage.ENGLISH,
        # pywa types params() as taking BodyText: it takes the values (its docstring).
        params=[BodyText.params("D-1042", "Your rider is on the way")],  # type: ignore[arg-type]
    )

    location, template = cloud.fake.sent_to(CUSTOMER)
    assert (location.kind, location.text) == ("location_request", "Where should we pick up?")
    assert (template.kind, template.template, template.language) == (
        "template",
        "delivery_update",
        "en",
    )
    assert template.parameters == ("D-1042", "Your rider is on the way")


async def test_a_location_is_recorded_with_its_pin_name_and_address(cloud: Cloud) -> None:
    await cloud.client.wa.send_location(
        to=CUSTOMER, latitude=6.5158, longitude=3.3898, name="Musa", address="On the way to you."
    )
    await cloud.client.session.post(
        f"/{PHONE_NUMBER_ID}/messages",
        json={
            "messaging_product": "whatsapp",
            "to": CUSTOMER,
            "type": "location",
            "location": {"latitude": "-33.8688", "longitude": "151.2093"},
        },
    )

    pin, written = cloud.fake.sent_to(CUSTOMER)
    assert (pin.kind, pin.latitude, pin.longitude) == ("location", 6.5158, 3.3898)
    assert (pin.place_name, pin.address, pin.text) == (
        "Musa",
        "On the way to you.",
        "Musa\nOn the way to you.",
    )
    # Meta takes the degrees as numbers or as strings of them.
    assert (written.latitude, written.longitude, written.place_name) == (-33.8688, 151.2093, "")


async def test_a_reply_and_a_reaction_name_the_message_they_answer(cloud: Cloud) -> None:
    await cloud.client.wa.send_message(to=CUSTOMER, text="Sure", reply_to_message_id="wamid.IN1")
    await cloud.client.wa.send_reaction(to=CUSTOMER, emoji="👍", message_id="wamid.IN1")

    reply, reaction = cloud.fake.sent_to(CUSTOMER)
    assert reply.replied_to == "wamid.IN1"
    assert (reaction.kind, reaction.reacted_to, reaction.emoji) == ("reaction", "wamid.IN1", "👍")


async def test_a_waiter_is_woken_by_the_message_it_waits_for(cloud: Cloud) -> None:
    assert cloud.fake.sent() == []
    await cloud.client.wa.send_message(to=CUSTOMER, text="one")
    await cloud.client.wa.send_message(to="2348099999999", text="other")

    (seen,) = await cloud.fake.wait_for_sent(CUSTOMER, 1)
    assert seen.text == "one"
    assert [message.text for message in cloud.fake.sent()] == ["one", "other"]
    assert cloud.fake.refusals.total() == 0

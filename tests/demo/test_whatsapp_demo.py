"""``deliverybot demo --channel whatsapp``: the customer on WhatsApp, over the simulated Cloud
API in process.

The stack is the demo's own (``DemoStack`` with ``channel="whatsapp"``): the bot's WhatsApp
channel as ``deliverybot run`` registers it, on pywa, its Graph API the fake; each typed line
pushed, signed, to the bot's ``POST /whatsapp``. What the tests read is what the fake received
on the wire: the pushes' bodies (a tap is a ``button_reply`` with the button's id) and the
messages it accepted from the bot.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.demo import DemoOptions, DemoStack
from bot.demo.whatsapp_phone import WhatsAppPhone
from bot.sandbox import default_scenario_data, parse_scenario
from bot.whatsapp.whatsapp_webhook import MAX_PUSH_BYTES
from tests.support.clock import FakeClock

TRANSCRIPT = Path(__file__).parent / "whatsapp_transcripts" / "whatsapp_order.txt"


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[DemoStack]:
    clock = FakeClock()
    stack = DemoStack(
        DemoOptions(
            scenario=parse_scenario(default_scenario_data()),
            data_dir=tmp_path,
            clock=clock,
            sleep=clock.sleep,
            channel="whatsapp",
        )
    )
    await stack.start()
    stack.screen.take()  # the demo's word on who the customer is
    try:
        yield stack
    finally:
        await stack.aclose()


def phone_of(demo: DemoStack) -> WhatsAppPhone:
    assert demo.phone is not None
    return demo.phone


def last_push(demo: DemoStack) -> dict[str, Any]:
    """The customer's last message as the fake pushed it to the bot's webhook (the pushes of
    statuses passed over), once the webhook took it."""
    for delivery in reversed(phone_of(demo).fake.deliveries):
        value = json.loads(delivery.body)["entry"][0]["changes"][0]["value"]
        if "messages" in value:
            assert delivery.delivered
            (message,) = value["messages"]
            assert isinstance(message, dict)
            return message
    raise AssertionError("the customer pushed nothing")


def test_the_shipped_whatsapp_transcript_replays_through_the_cli(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--script", str(TRANSCRIPT)]) == 0
    out = capsys.readouterr().out
    assert "bot: What would you like to order?" in out
    assert "(template delivery_update, en)" in out
    assert out.rstrip().endswith("replayed, every check matched")


async def test_buttons_are_drawn_numbered_and_a_number_taps_the_button(demo: DemoStack) -> None:
    await demo.type_line("new")
    await demo.type_line("1")
    screen = await demo.type_line("cancel")
    assert "       1. Yes, cancel it" in screen and "       2. No, go on" in screen
    (asked,) = [m for m in phone_of(demo).customer.inbox() if m.kind == "buttons"][-1:]
    go_on = asked.offered_titled("No, go on")

    await demo.type_line("2")

    message = last_push(demo)
    assert message["type"] == "interactive"
    assert message["interactive"] == {
        "type": "button_reply",
        "button_reply": {"id": go_on.reply_id, "title": "No, go on"},
    }
    assert message["context"]["id"] == asked.message_id  # the tapped message, as Meta says
    assert await demo.position() == "pickup_place"  # the order went on where it was


async def test_a_list_row_is_tapped_by_its_title_as_a_list_reply(demo: DemoStack) -> None:
    screen = await demo.type_line("new")
    assert "     [Choose]" in screen and "       1. ✓ Pickup & delivery" in screen
    assert demo.option_labels()[0] == "✓ Pickup & delivery"

    await demo.type_line("pickup & DELIVERY")  # the title, any case, without the mark

    message = last_push(demo)
    assert message["interactive"]["type"] == "list_reply"
    assert message["interactive"]["list_reply"]["title"] == "✓ Pickup & delivery"
    assert await demo.position() == "pickup_place"


async def test_a_number_no_choice_carries_is_asked_again_and_nothing_is_sent(
    demo: DemoStack,
) -> None:
    await demo.type_line("new")
    sent = list(phone_of(demo).customer.sent_ids)

    screen = await demo.type_line("9")

    assert screen == [
        "demo: there is no choice 9: type 1 to 4 or a title (say 9 sends it as words)"
    ]
    assert phone_of(demo).customer.sent_ids == sent
    assert await demo.position() == "service_kind"
    await demo.type_line("say 9")  # the words, on purpose: the bot answers them itself
    assert last_push(demo)["text"] == {"body": "9"}


async def test_a_pin_a_contact_and_a_photo_go_as_whatsapp_messages(demo: DemoStack) -> None:
    for line in ("new", "1"):
        await demo.type_line(line)
    screen = await demo.type_line("6.5095, 3.3711")
    assert last_push(demo)["location"] == {"latitude": 6.5095, "longitude": 3.3711}
    assert any("What is the address at this pin?" in line for line in screen)
    address = "12 Herbert Macaulay Way, Yaba"
    for line in (address, "Jaja Hall", "12", "Ada Obi", "Use +2348031234567"):
        await demo.type_line(line)
    await demo.type_line("contact 08022223333 Bola Ahmed")
    card = last_push(demo)["contacts"][0]
    assert card["name"]["formatted_name"] == "Bola Ahmed"
    assert card["phones"][0]["phone"] == "08022223333"
    for line in ("Shoes", "1"):
        await demo.type_line(line)
    screen = await demo.type_line("photo")
    image = last_push(demo)["image"]
    stored = phone_of(demo).fake.media.get(image["id"])
    assert stored is not None and stored.mime_type == "image/png"
    assert await demo.position() == "summary"  # the photo was downloaded and re-hosted
    assert phone_of(demo).fake.refusals.total() == 0


async def test_a_restart_keeps_the_phone_and_the_chat_goes_on(demo: DemoStack) -> None:
    await demo.type_line("new")
    screen = await demo.type_line(":restart")
    assert screen == ["demo: the bot restarted; the sandbox kept running"]
    await demo.type_line("1")  # the list drawn before the restart is still on screen
    assert await demo.position() == "pickup_place"


async def test_later_is_the_whatsapp_demos_only(make_stack: Any) -> None:
    console = await make_stack()
    screen = await console.type_line(":later")
    assert screen[0].startswith("demo: only the WhatsApp demo moves time on")


async def test_a_message_the_webhook_refuses_is_said_and_the_demo_goes_on(
    demo: DemoStack,
) -> None:
    screen = await demo.type_line("x" * (MAX_PUSH_BYTES + 1))  # over the webhook's limit
    assert len(screen) == 1
    assert screen[0].startswith("demo: the bot's webhook did not take the message: ")
    assert "413" in screen[0]
    await demo.type_line("new")
    assert await demo.position() == "service_kind"

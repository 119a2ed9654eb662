"""The console's status, deliveries and cancel_delivery, and a drop-off code link typed back in:
the same CustomerDesk as Telegram's commands, drawn as terminal lines."""

from __future__ import annotations

import re

from bot.chat_ref import CONSOLE, ChatRef
from bot.demo import DemoStack
from conversations.texts.deliveries_texts import short_ref

from .conftest import TO_SUMMARY, MakeStack

LINK = re.compile(r"/start otp_([A-Za-z0-9_-]+)")


async def order(stack: DemoStack) -> str:
    for line in (*TO_SUMMARY, "1"):
        await stack.type_line(line)
    delivery_id = await stack.last_delivery_id()
    assert delivery_id is not None
    return delivery_id


def joined(lines: list[str]) -> str:
    return "\n".join(lines)


async def test_before_any_order(make_stack: MakeStack) -> None:
    stack = await make_stack()
    assert await stack.type_line("status") == [
        "bot: You have no deliveries yet. Send new to order one."
    ]
    assert await stack.type_line("deliveries") == await stack.type_line("status")
    usage = await stack.type_line("cancel_delivery")
    assert usage == [
        "bot: To cancel, send cancel_delivery, the delivery and your reason, e.g.",
        "     cancel_delivery 3F2A9C1E I ordered it twice",
    ]
    # The open question is still the one asked before.
    assert await stack.position() == "service_kind"


async def test_status_list_and_cancel_of_the_customers_delivery(make_stack: MakeStack) -> None:
    stack = await make_stack()
    delivery_id = await order(stack)
    ref = short_ref(delivery_id)
    status = await stack.type_line("status")
    assert status[:2] == [
        f"bot: Delivery {ref}",
        "     A rider (Tunde, motorbike) is assigned and heading to pickup.",
    ]
    assert "     Fee: NGN 1,500, not paid yet" in status
    assert await stack.type_line(f"status {ref.lower()}") == status
    listed = await stack.type_line("deliveries")
    assert listed == [
        "bot: Your deliveries:",
        f"     • {ref}: rider assigned, ordered 15 Jan 2027",
        "",
        f"     Send status {ref} (or any reference above) for details.",
    ]
    short = joined(await stack.type_line(f"cancel_delivery {ref} no"))
    assert "Please give a reason of 3 to 500 characters (yours has 2)." in short
    calls = stack.sandbox.call_counts()["cancel_delivery"]
    assert calls == 0

    cancelled = await stack.type_line(f"cancel_delivery {ref} I ordered it twice")
    assert cancelled[0] == f"bot: Delivery {ref} is cancelled."
    # One message for one piece of news: the relay's cancelled event does not say it again
    # (operators still hear of it).
    assert [line for line in cancelled if line.startswith("bot:")] == cancelled[:1]
    assert any(line.startswith("ops:") for line in cancelled)
    assert stack.sandbox.delivery(delivery_id)["status"] == "cancelled"
    again = await stack.type_line(f"cancel_delivery {ref} I ordered it twice")
    assert again == [f"bot: Delivery {ref} is already cancelled."]


async def test_someone_elses_or_an_unknown_delivery(make_stack: MakeStack) -> None:
    stack = await make_stack()
    await stack.bot.store.deliveries.add(
        "0a1b2c3d-0000-4000-8000-000000000001",
        ChatRef(CONSOLE, 4242),
        4242,
        1_800_000_000.0,
        None,
        None,
    )
    calls = sum(stack.sandbox.call_counts().values())
    for line in ("status 0A1B2C3D", "cancel_delivery 0A1B2C3D I ordered it twice"):
        assert await stack.type_line(line) == [
            "bot: I can't find a delivery 0A1B2C3D among yours. deliveries lists them."
        ]
    assert sum(stack.sandbox.call_counts().values()) == calls


async def test_the_list_in_pages(make_stack: MakeStack) -> None:
    stack = await make_stack()
    for minute in range(7):
        await stack.bot.store.deliveries.add(
            f"{minute:08x}-0000-4000-8000-000000000000",
            stack.bot.console.chat,
            stack.bot.console.user.id,
            1_800_000_000.0 + 60 * minute,
            None,
            None,
        )
    await stack.type_line("")  # the demo announces the deliveries it sees appear
    first = await stack.type_line("deliveries")
    assert first[0] == "bot: Your deliveries (page 1 of 2):"
    assert first[1].startswith("     • 00000006: waiting for a rider, ordered")
    assert first[-1] == "     Send deliveries 2 for the next page."
    second = await stack.type_line("deliveries 2")
    assert second[0] == "bot: Your deliveries (page 2 of 2):"
    assert [line.split(":")[0].strip() for line in second[1:3]] == ["• 00000001", "• 00000000"]
    assert second[-1] == "     Send deliveries 1 for the previous one."


async def test_a_drop_off_code_link_is_claimed_with_the_receivers_number(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack()
    delivery_id = await order(stack)
    paid = joined(await stack.type_line(":paid"))
    match = LINK.search(paid)
    assert match is not None
    code = stack.sandbox.otp_code(delivery_id)
    assert code is not None and code not in paid

    asked = joined(await stack.type_line(match[0]))
    assert f"drop-off code for delivery {short_ref(delivery_id)}" in asked
    assert "share your own phone number with a line like: contact +2348022223333" in asked
    wrong = joined(await stack.type_line("contact 08031234567"))
    assert "your number is not the receiver's number" in wrong and code not in wrong

    await stack.type_line(match[0])
    got = await stack.type_line("contact 08022223333")
    assert got[0] == (
        f"bot: Your drop-off code for delivery {short_ref(delivery_id)} is {code}. "
        "Give it to the rider only once the package is in your hands."
    )
    handoff = await stack.bot.store.otp.get(delivery_id)
    assert handoff is not None and not handoff.pending
    again = await stack.type_line(match[0])
    assert again == ["bot: The drop-off code for this delivery was already sent to its receiver."]


async def test_a_contact_outside_a_hand_off_still_answers_the_order(make_stack: MakeStack) -> None:
    stack = await make_stack()
    for line in TO_SUMMARY[:3]:
        await stack.type_line(line)
    assert await stack.position() == "sender_name"
    await stack.type_line("contact 08031234567 Ada Obi")
    assert await stack.position() == "receiver_name"
    assert await stack.bot.store.contacts.phone_for(stack.bot.console.user) is None

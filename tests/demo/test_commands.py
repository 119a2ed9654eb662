"""The demo's commands: the business, its riders and faults, around the customer's chat."""

from __future__ import annotations

import pytest

from .conftest import TO_SUMMARY, MakeStack


async def order(stack, *extra: str) -> list[str]:
    for line in TO_SUMMARY:
        await stack.type_line(line)
    screen: list[str] = []
    for line in ("1", *extra):
        screen = await stack.type_line(line)
    return screen


async def test_help_lists_every_command(make_stack: MakeStack) -> None:
    stack = await make_stack()
    text = "\n".join(await stack.type_line(":help"))
    names = ("paid", "advance", "fee", "status", "riders", "assign", "otp", "link", "places")
    for name in (*names, "fault", "quit"):
        assert f":{name}" in text


async def test_commands_explain_what_they_need(make_stack: MakeStack) -> None:
    stack = await make_stack()
    assert await stack.type_line(":paid") == [
        "demo: there is no delivery yet: finish an order first"
    ]
    assert "unknown command :fly" in (await stack.type_line(":fly"))[0]
    assert "type the fee" in (await stack.type_line(":fee"))[0]
    assert "must be a number" in (await stack.type_line(":fee lots"))[0]
    assert "type the rider's id" in (await stack.type_line(":assign"))[0]
    refused = await stack.type_line(":fault create_delivery explode")
    assert refused[0].startswith("demo: the sandbox refused: validation_error")
    assert "unknown fault option" in (await stack.type_line(":fault create_delivery status x=1"))[0]


async def test_a_delivery_played_to_the_end(make_stack: MakeStack) -> None:
    stack = await make_stack(**{"capabilities.publicRequest.autoDispatch": False})
    created = "\n".join(await order(stack))
    assert "waiting for a rider" in created
    # No dead end: the demo says how to move a pending delivery on, with the nearest riders.
    moves = "waits for a rider: dispatch one with :assign <rider>, e.g. :assign rdr_tunde."
    assert moves in created
    assert "Nearest to the pickup: rdr_tunde (Tunde Bakare, available, 0.0 km);" in created
    refused = await stack.type_line(":advance")
    assert moves in refused[0] and "no further" not in refused[0]
    riders = "\n".join(await stack.type_line(":riders"))
    assert "rdr_tunde: Tunde Bakare (motorbike), available" in riders
    assert "rdr_aisha" not in riders  # a pending invite is never listed
    assigned = "\n".join(await stack.type_line(":assign rdr_tunde"))
    assert "assigned:" in assigned and "Tunde is your rider" in assigned
    status = (await stack.type_line(":status"))[0]
    assert ": rider assigned · fee NGN " in status and "rider Tunde Bakare (motorbike)" in status
    assert "none yet" in (await stack.type_line(":otp"))[0]
    await stack.type_line(":paid")
    code = (await stack.type_line(":otp"))[0].rsplit(" ", 1)[1]
    assert code.isdigit() and len(code) == 6
    for _ in range(3):
        screen = "\n".join(await stack.type_line(":advance"))
    assert "Your package has been delivered." in screen
    finished = (await stack.type_line(":advance"))[0]
    assert finished.endswith(": delivered; it moves no further: `new` orders another")
    # The paid order's link is found after its hand-off ended with the delivery, and after
    # a restart of the bot too.
    link = (await stack.type_line(":link"))[0]
    assert "is finished: its link no longer gives the code (/start otp_" in link
    await stack.type_line(":restart")
    assert (await stack.type_line(":link"))[0] == link


@pytest.mark.parametrize("timing", ["after_delivery", "off_platform"])
async def test_a_fee_due_later_lets_the_rider_set_off_unpaid(
    make_stack: MakeStack, timing: str
) -> None:
    """Only the drop-off waits, for the code the payment issues: ``:advance`` names ``:paid``."""
    stack = await make_stack(**{"capabilities.paymentTiming": timing})
    await order(stack)
    assert "to picked up" in (await stack.type_line(":advance"))[0]
    assert "to in transit" in (await stack.type_line(":advance"))[0]
    refused = await stack.type_line(":advance")
    assert refused[0].endswith(
        "the rider hands it over only for the drop-off code, which is issued when the fee is "
        "paid: :paid marks it paid, then :advance"
    )
    assert "the sandbox refused" not in "\n".join(refused)
    paid = "\n".join(await stack.type_line(":paid"))
    assert "/start otp_" in paid and "otp_via_webhook" not in paid
    assert "Your package has been delivered." in "\n".join(await stack.type_line(":advance"))


async def test_photo_proof_is_delivered_unpaid_with_no_code(make_stack: MakeStack) -> None:
    edits = {
        "capabilities.paymentTiming": "after_delivery",
        "capabilities.requireDeliveryOtp": False,
    }
    stack = await make_stack(**edits)
    await order(stack)
    for _ in range(3):
        screen = "\n".join(await stack.type_line(":advance"))
    assert "Your package has been delivered." in screen
    assert "drop-off code" not in screen


async def test_a_fee_for_an_order_awaiting_a_price(make_stack: MakeStack) -> None:
    stack = await make_stack(**{"pricing.rules": []})
    await order(stack)
    screen = "\n".join(await stack.type_line(":fee 2,500"))
    assert "staff set the fee of" in screen and "NGN 2,500" in screen
    assert "Your delivery is booked and waiting for a rider." in screen


async def test_a_fee_to_set_is_named_before_a_rider_can_move_it(make_stack: MakeStack) -> None:
    stack = await make_stack(**{"pricing.rules": []})
    created = "\n".join(await order(stack))
    assert "waits for its fee: set it with :fee <amount>, e.g. :fee 2500" in created
    assert "waits for its fee" in (await stack.type_line(":advance"))[0]


async def test_a_delivery_is_named_by_its_short_reference(make_stack: MakeStack) -> None:
    stack = await make_stack()
    await order(stack)
    delivery_id = await stack.last_delivery_id()
    assert delivery_id is not None
    ref = delivery_id.split("-")[0].upper()
    assert (await stack.type_line(f":status {ref}"))[0].startswith(f"demo: {ref}: rider assigned")


async def test_places_lists_what_the_offline_geocoder_knows(make_stack: MakeStack) -> None:
    stack = await make_stack()
    places = "\n".join(await stack.type_line(":places"))
    assert "Ozone Cinema, Herbert Macaulay Way, Yaba, Lagos" in places
    assert "share a pin" in places


async def test_quit(make_stack: MakeStack) -> None:
    stack = await make_stack()
    assert await stack.type_line(":quit") == ["demo: bye"]
    assert stack.quit


async def test_a_person_answers_through_staff_commands(make_stack: MakeStack) -> None:
    stack = await make_stack()
    assert "no hand-off is waiting" in (await stack.type_line(":staff take"))[0]
    asked = "\n".join(await stack.type_line("human"))
    assert "A person from our team will answer you here" in asked
    assert "staff: #" in asked and "A customer asks for a person" in asked
    ref = asked.split("staff: #", 1)[1][:6]
    relayed = "\n".join(await stack.type_line("I need help"))
    assert f"staff: #{ref} customer: I need help" in relayed
    taken = "\n".join(await stack.type_line(":staff take"))
    assert "Demo staff is answering." in taken
    said = await stack.type_line(":staff say Hello, how can I help?")
    assert said == ["bot: Hello, how can I help?"]
    closed = "\n".join(await stack.type_line(":staff done"))
    assert "bot: Our team has closed this conversation." in closed
    assert "no hand-off is waiting" in (await stack.type_line(":staff done"))[0]


async def test_order_commands_wait_while_a_person_answers(make_stack: MakeStack) -> None:
    stack = await make_stack()
    asked_before = await stack.type_line(TO_SUMMARY[0])  # the pickup's question
    await stack.type_line("human")
    for line in ("cancel", "new", "/repeat"):
        screen = "\n".join(await stack.type_line(line))
        word = line.split()[0]
        assert "staff: #" in screen and f"customer: {line}" in screen
        assert f"so your order waits exactly as it is; {word} was passed on" in screen
    await stack.type_line(":staff take")
    closed = await stack.type_line(":staff done")
    # The order goes on at the question it was at, with nothing cancelled or restarted.
    assert asked_before[-1] in closed
    assert not any("cancelled" in line for line in closed)

"""Buttons in the chat: taps answer in place, old keyboards are refused kindly, pages turn."""

from __future__ import annotations

from bot.chat_ref import UserRef
from tests.e2e.conftest import ADA, BotStack

STALE = "That answer was for an earlier question, so I left it out. Here is where we are:"


async def test_a_tap_on_an_old_keyboard_is_refused_kindly(stack: BotStack) -> None:
    (first,) = await stack.command(ADA, "new")
    errand = first.callback_data("Errand: we buy it for you")  # kept, as a client would
    await stack.tap(first, "✓ Pickup & delivery")
    now_asked = stack.prompt(ADA.id)

    old_tap = stack.tg.updates.callback_query(ADA, first, errand)
    reply = await stack.send(old_tap)

    (message,) = reply
    assert message.text == f"{STALE}\n\n{now_asked.text}"  # where the chat is, asked again
    assert message.reply_markup == now_asked.reply_markup  # its buttons drawn again
    assert stack.tg.callback_answer(old_tap["callback_query"]["id"]) is not None
    session = await stack.bot.ctx.chats.session(ADA.chat)
    assert session is not None and session.answers["service_kind"] == "pickup_delivery"


async def test_a_keyboard_from_an_earlier_order_is_stale_too(stack: BotStack) -> None:
    (first,) = await stack.command(ADA, "new")
    (again,) = await stack.command(ADA, "new")  # a new order asks the same question again

    reply = await stack.send(
        stack.tg.updates.callback_query(ADA, first, first.callback_data("✓ Pickup & delivery"))
    )

    (message,) = reply
    assert message.text == f"{STALE}\n\nWhat would you like to order?"
    await stack.tap(stack.prompt(ADA.id), "Errand: we buy it for you")
    session = await stack.bot.ctx.chats.session(ADA.chat)
    assert session is not None and session.answers["service_kind"] == "errand"
    assert again.message_id != first.message_id


async def test_a_tap_edits_its_prompt_in_place_and_a_typed_answer_clears_old_buttons(
    stack: BotStack,
) -> None:
    (first,) = await stack.command(ADA, "new")
    await stack.tap(first, "✓ Pickup & delivery")
    tapped = stack.tg.message(ADA.id, first.message_id)
    assert tapped is not None and "reply_markup" not in tapped
    assert tapped["text"] == "What would you like to order?\n\n✓ Pickup & delivery"

    await stack.location(ADA, 6.5095, 3.3711)
    address_prompt = stack.prompt(ADA.id)
    await stack.text(ADA, "12 Herbert Macaulay Way, Yaba")

    typed_over = stack.tg.message(ADA.id, address_prompt.message_id)
    assert typed_over is not None and "reply_markup" not in typed_over


async def test_buttons_nobody_made_get_an_answer_and_change_nothing(stack: BotStack) -> None:
    (first,) = await stack.command(ADA, "new")

    for data in ("q1:not-a-button", "zz9:some-old-release"):
        tap = stack.tg.updates.callback_query(ADA, first, data)
        assert await stack.send(tap) == []
        answer = stack.tg.callback_answer(tap["callback_query"]["id"])
        assert answer is not None and answer["text"] == "That button no longer works."
    session = await stack.bot.ctx.chats.session(ADA.chat)
    assert session is not None and session.step == "service_kind"


async def test_long_lists_turn_pages_in_place(stack: BotStack) -> None:
    await stack.command(ADA, "new")
    await stack.tap(stack.prompt(ADA.id), "✓ Pickup & delivery")
    await stack.location(ADA, 6.5095, 3.3711)
    await stack.text(ADA, "12 Herbert Macaulay Way, Yaba")
    await stack.tap(stack.prompt(ADA.id), "Moremi Hall")
    rooms = stack.prompt(ADA.id)  # 81 rooms, 8 buttons a page
    assert rooms.text is not None and rooms.text.endswith("Page 1 of 11")
    sent_before = len(stack.tg.sent_messages(ADA.id))

    assert await stack.tap(rooms, "Next ›") == []  # no new message: the same one redrawn
    page_two = stack.tg.message(ADA.id, rooms.message_id)
    assert page_two is not None and page_two["text"].endswith("Page 2 of 11")
    await stack.tap(rooms, "‹ Prev")
    page_one = stack.tg.message(ADA.id, rooms.message_id)
    assert page_one is not None and page_one["text"].endswith("Page 1 of 11")

    assert len(stack.tg.sent_messages(ADA.id)) == sent_before
    await stack.tap(rooms, "A001")  # the redrawn keyboard still answers
    session = await stack.bot.ctx.chats.session(ADA.chat)
    assert session is not None and session.answers["dropoff_unit"] == "A001"


async def test_answers_without_an_open_order_point_to_new(stack: BotStack) -> None:
    (hello,) = await stack.text(ADA, "hello")
    assert hello.text == "There is no order in progress. Send /new to start one."

    (first,) = await stack.command(ADA, "new")
    await stack.command(ADA, "cancel")
    (late,) = await stack.send(
        stack.tg.updates.callback_query(ADA, first, first.callback_data("✓ Pickup & delivery"))
    )
    assert late.text == "There is no order in progress. Send /new to start one."


async def test_cancel_mid_order_asks_first_with_buttons_and_no_keeps_the_order(
    stack: BotStack,
) -> None:
    summary = await stack.fill_order(ADA)
    confirm = summary.callback_data("Confirm and send")  # kept, as a client would
    (asked,) = await stack.command(ADA, "cancel")
    assert asked.text == "Cancel this order? The answers you gave so far will be lost."
    assert asked.button_texts == ["Yes, cancel it", "No, go on"]

    (stale,) = await stack.send(stack.tg.updates.callback_query(ADA, summary, confirm))
    assert stale.text == f"{STALE}\n\nCancel this order? The answers you gave so far will be lost."
    assert await stack.bot.store.deliveries.count_for_user(UserRef("telegram", ADA.id)) == 0
    (shown_again,) = await stack.tap(stack.prompt(ADA.id), "No, go on")
    assert shown_again.text is not None and shown_again.text.startswith("Please check")

    await stack.command(ADA, "cancel")
    (cancelled,) = await stack.tap(stack.prompt(ADA.id), "Yes, cancel it")
    assert cancelled.text == "Cancelled. Nothing was ordered."
    assert await stack.bot.ctx.chats.session(ADA.chat) is None

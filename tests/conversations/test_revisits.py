"""Questions asked again: the answer a step has is offered once (pre-selected when it is one of
the options, "Keep ..." only otherwise); the photo question never asks for "done"; a new order
over an open one is asked first, as cancelling is."""

from __future__ import annotations

from conversations.dialog import KEEP
from conversations.engine.prompting import CANCEL_NO, CANCEL_YES
from conversations.texts import dialogue
from tests.support.words import SHIPPED

from .conftest import Chat


async def test_no_cash_to_collect_is_offered_once_from_the_summary(chat: Chat) -> None:
    await chat.pickup_delivery_to_summary()
    await chat.tap("edit:pod_amount")
    assert chat.step == "pod_amount" and chat.prompt is not None
    assert KEEP not in chat.option_ids()
    assert chat.option_ids() == ["none"] and chat.prompt.default == "none"
    await chat.say("5,000")
    await chat.tap("edit:pod_amount")
    assert chat.option_ids() == [KEEP, "none"]  # an amount is kept as "Keep: NGN 5,000"


def test_the_photo_help_does_not_ask_for_done() -> None:
    assert "done" not in dialogue.help_for(SHIPPED, "photos").casefold()


async def test_a_new_order_over_answers_is_asked_first(chat: Chat) -> None:
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    assert chat.session is not None
    chat.turns.append(await chat.engine.start_over(SHIPPED, chat.session))
    chat.prompt = chat.turn.prompt
    assert chat.prompt is not None and chat.prompt.text == dialogue.NEW_ORDER_QUESTION.render(
        SHIPPED
    )
    assert chat.option_ids() == [CANCEL_YES, CANCEL_NO]
    await chat.tap(CANCEL_NO)
    assert chat.step == "dropoff_place" and "pickup_place" in chat.session.answers

    chat.turns.append(await chat.engine.start_over(SHIPPED, chat.session, "return_parcel"))
    chat.prompt = chat.turn.prompt
    await chat.say("yes")
    assert chat.session.flow == "return_parcel" and chat.session.status == "open"
    assert "pickup_place" not in chat.session.answers and chat.session.id == "chat-1"


async def test_a_new_order_with_nothing_to_lose_starts_at_once(chat: Chat) -> None:
    await chat.start()
    assert chat.session is not None
    turn = await chat.engine.start_over(SHIPPED, chat.session, "return_parcel")
    assert turn.prompt is not None and turn.prompt.text != dialogue.NEW_ORDER_QUESTION.render(
        SHIPPED
    )
    assert chat.session.flow == "return_parcel"


async def test_new_twice_is_yes_and_cancel_still_cancels(chat: Chat) -> None:
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    assert chat.session is not None
    await chat.engine.start_over(SHIPPED, chat.session)
    turn = await chat.engine.start_over(SHIPPED, chat.session)
    assert turn.prompt is not None and turn.prompt.step == "service_kind"
    # Nothing given yet in the new one: no question, the new order again.
    again = await chat.engine.start_over(SHIPPED, chat.session)
    assert again.prompt is not None and again.prompt.step == "service_kind"
    chat.prompt = again.prompt
    await chat.tap("pickup_delivery")
    assert chat.step == "pickup_place"
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    asked = await chat.engine.start_over(SHIPPED, chat.session)
    chat.prompt = asked.prompt
    await chat.command("cancel")
    assert chat.session.status == "cancelled"

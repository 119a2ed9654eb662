"""The quote question in Telegram, through PTB's real Application, the fake Telegram and the
sandbox: the relay's question comes with "Keep the order" / "Cancel it" buttons; a tap answers
it once, the buttons go, and the operators' chat is told the choice."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.ordering.quote_desk import QuoteDesk
from bot.telegram.quote_taps import QuoteTaps
from conversations.texts.deliveries_texts import short_ref
from tests.fakes import TgUser

from .handler_world import (
    OPERATORS,
    HandlerWorld,
    approval_required,
    handler_world,
    manual_dispatch,
)

ALICE = TgUser(1001, "Alice", username="alice")
BOB = TgUser(1002, "Bob")


def priced_by_staff(data: dict[str, Any]) -> None:
    approval_required(data)
    manual_dispatch(data)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[HandlerWorld]:
    async with handler_world(tmp_path, priced_by_staff) as built:
        operators = built.ctx.sender

        async def tell_operators(text: str) -> None:
            await operators.send(OPERATORS.id, text)

        taps = QuoteTaps(QuoteDesk(built.ctx.desk, tell_operators), built.ctx.sender)
        built.app.add_handlers(taps.handlers())
        yield built


async def asked(world: HandlerWorld, user: TgUser) -> tuple[str, Any]:
    """Alice's order priced at NGN 2,600 by staff: its reference and the question's message."""
    delivery = await world.order(user)
    await world.settle()
    world.sandbox.set_fee(delivery.id, 2600)
    await world.settle()
    question = world.tg.sent_messages(user.id)[-1]
    return delivery.id, question


async def test_the_question_has_two_buttons_and_keep_answers_it_once(world: HandlerWorld) -> None:
    delivery_id, question = await asked(world, ALICE)
    ref = short_ref(delivery_id)
    assert question.text is not None
    assert question.text.endswith("Delivery fee: NGN 2,600. Keep the order, or cancel it?")
    assert "Type" not in question.text  # buttons, not typed words
    assert question.button_texts == ["Keep the order", "Cancel it"]

    reply = await world.ask(world.tg.updates.tap(question, "Keep the order"))
    assert reply.text == f"Thank you: delivery {ref} goes ahead."
    shown = world.tg.message(ALICE.id, question.message_id)
    assert shown is not None and not shown.get("reply_markup")  # the buttons are gone
    assert world.sandbox.delivery(delivery_id)["status"] == "pending"
    told = [m.text for m in world.tg.sent_messages(OPERATORS.id)]
    assert f"Delivery {ref}: the customer accepted the fee and keeps the order." in told

    # A tap on the same button data again (an old copy of the keyboard): answered, nothing done.
    data = f"quote cancel {ref}"
    again = await world.ask(world.tg.updates.callback_query(ALICE, question, data))
    assert again.text == f"You already answered about the fee of delivery {ref}."
    assert world.sandbox.delivery(delivery_id)["status"] == "pending"


async def test_cancel_cancels_and_a_refusal_is_explained_in_plain_words(
    world: HandlerWorld,
) -> None:
    delivery_id, question = await asked(world, ALICE)
    reply = await world.ask(world.tg.updates.tap(question, "Cancel it"))
    assert reply.text == f"Delivery {short_ref(delivery_id)} is cancelled, as you asked."
    assert world.sandbox.delivery(delivery_id)["status"] == "cancelled"

    second_id, second = await asked(world, ALICE)
    await world.client.assign_rider(second_id, "rdr_tunde")
    world.sandbox.mark_paid(second_id)  # its fee is due before dispatch
    world.sandbox.advance_status(second_id)  # the rider has it; the chat was not told yet
    refused = await world.ask(world.tg.updates.tap(second, "Cancel it"))
    ref = short_ref(second_id)
    assert (
        refused.text
        == f"Delivery {ref} can no longer be cancelled: the rider already has the package."
    )
    assert "cancel_not_allowed" not in (refused.text or "")
    assert world.sandbox.delivery(second_id)["status"] == "picked_up"


async def test_someone_else_cannot_answer_by_forged_button_data(world: HandlerWorld) -> None:
    delivery_id, question = await asked(world, ALICE)
    world.tg.add_chat(BOB)
    bobs = world.tg.sent_messages(BOB.id)
    forged = world.tg.updates.callback_query(
        BOB, question, f"quote cancel {short_ref(delivery_id)}"
    )
    forged["callback_query"]["message"]["chat"] = {
        "id": BOB.id,
        "type": "private",
        "first_name": "Bob",
    }
    reply = await world.ask(forged)
    assert reply.text is not None and "among yours" in reply.text
    assert world.sandbox.delivery(delivery_id)["status"] == "pending"
    assert len(world.tg.sent_messages(BOB.id)) == len(bobs) + 1

"""``[limits] verify_sender_phone`` in Telegram, through PTB's real Application and the fake Bot
API on both store backends: the sender's phone comes only from their own shared contact (typed
numbers and someone else's contact are refused with the reason, the question offers the
"share my contact" button), and a returning customer's proven phone is not asked again."""

from __future__ import annotations

from typing import Any

import pytest

from bot.chat_ref import UserRef
from bot.ordering.returning_customers import CustomerMemory
from conversations.returning import Remembered
from tests.e2e.conftest import ADA, ADA_PHONE, BOLA, RECEIVER_PHONE, BotStack, tiny_png
from tests.fakes import SentMessage
from tests.fakes.telegram_keyboards import buttons
from tests.support.words import say
from tests.telegram_adapter.stack_backends import stack

__all__ = ["stack"]

ADA_REF = UserRef("telegram", ADA.id)


@pytest.fixture
def limits() -> dict[str, Any]:
    return {"verify_sender_phone": True}


async def up_to_the_sender(stack: BotStack) -> list[SentMessage]:
    """A new pickup & delivery answered up to its pickup place; what the bot said last."""
    await stack.command(ADA, "new")
    await stack.tap(stack.prompt(ADA.id), "✓ Pickup & delivery")
    await stack.location(ADA, 6.5095, 3.3711)
    await stack.text(ADA, "12 Herbert Macaulay Way, Yaba")
    return await stack.tap(stack.prompt(ADA.id), "UNILAG Main Gate")


async def after_the_sender(stack: BotStack) -> None:
    """The rest of the order, from the receiver's name to the created delivery."""
    await stack.text(ADA, "Bola Ahmed")
    await stack.text(ADA, RECEIVER_PHONE)
    await stack.text(ADA, "A pair of shoes in a box")
    await stack.tap(stack.prompt(ADA.id), "Small")
    await stack.photo(ADA, tiny_png())
    await stack.tap(stack.prompt(ADA.id), "Confirm and send")
    assert await stack.bot.store.deliveries.for_user(ADA_REF, 5), "the order was not created"


def texts(messages: list[SentMessage]) -> str:
    return "\n".join(message.text or "" for message in messages)


async def test_only_the_senders_own_contact_gives_their_phone(stack: BotStack) -> None:
    await up_to_the_sender(stack)
    asked = await stack.text(ADA, "Ada Obi")  # a typed name: the phone is asked next
    assert say("steps.sender.share_phone_question") in texts(asked)
    shown = [button for message in asked for button in buttons(message.reply_markup)]
    assert any(button.get("request_contact") for button in shown)

    typed = await stack.text(ADA, ADA_PHONE)
    assert say("steps.sender.phone_not_typed") in texts(typed)
    someone_else = await stack.contact(ADA, RECEIVER_PHONE, user_id=BOLA.id)
    assert say("steps.sender.contact_not_own") in texts(someone_else)

    taken = await stack.contact(ADA, ADA_PHONE)
    assert say("steps.receiver.name_question") in texts(taken)
    await after_the_sender(stack)
    assert stack.partner is not None
    (create,) = stack.partner.creates
    assert create["senderPhone"] == ADA_PHONE

    known = await CustomerMemory(stack.bot.store).recall(ADA_REF)
    assert known is not None and known.phone == ADA_PHONE and known.phone_verified


async def test_someone_elses_contact_at_the_name_question_is_refused(stack: BotStack) -> None:
    await up_to_the_sender(stack)
    refused = await stack.contact(ADA, RECEIVER_PHONE, user_id=BOLA.id, first_name="Bola")
    assert say("steps.sender.contact_not_own") in texts(refused)
    # Their own contact answers the name and the phone at once, as without the setting.
    taken = await stack.contact(ADA, ADA_PHONE)
    assert say("steps.receiver.name_question") in texts(taken)


async def test_a_proven_phone_is_not_asked_again(stack: BotStack) -> None:
    await up_to_the_sender(stack)
    await stack.contact(ADA, ADA_PHONE)
    await after_the_sender(stack)

    # The next order: the remembered name and proven phone are pre-set, not asked.
    next_question = await up_to_the_sender(stack)
    assert say("steps.receiver.name_question") in texts(next_question)


async def test_a_phone_remembered_unproven_is_asked_for_again(stack: BotStack) -> None:
    # Remembered from an order taken before the setting was turned on.
    unproven = Remembered(name="Ada Obi", phone=ADA_PHONE, phone_verified=False)
    await stack.bot.store.customers.put(ADA_REF, unproven.model_dump_json())
    asked = await up_to_the_sender(stack)  # the name is pre-set, the phone is asked
    assert say("steps.sender.share_phone_question") in texts(asked)
    taken = await stack.contact(ADA, ADA_PHONE)
    assert say("steps.receiver.name_question") in texts(taken)


async def test_a_repeat_reuses_a_proven_phone_and_asks_for_an_unproven_one(
    stack: BotStack,
) -> None:
    await up_to_the_sender(stack)
    await stack.contact(ADA, ADA_PHONE)
    await after_the_sender(stack)
    proven = await stack.command(ADA, "repeat")
    assert say("steps.sender.share_phone_question") not in texts(proven)
    await stack.command(ADA, "cancel")

    memory = CustomerMemory(stack.bot.store)
    known = await memory.recall(ADA_REF)
    assert known is not None
    unproven = known.model_copy(update={"phone_verified": False})
    await stack.bot.store.customers.put(ADA_REF, unproven.model_dump_json())
    asked = await stack.command(ADA, "repeat")
    assert say("steps.sender.share_phone_question") in texts(asked)
    refused = await stack.text(ADA, ADA_PHONE)
    assert say("steps.sender.phone_not_typed") in texts(refused)

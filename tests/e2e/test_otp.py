"""The drop-off code end to end: a signed ``delivery.otp_issued`` webhook, the relay's link to
the customer, and the receiver proving their phone in their own chat to get the code."""

from __future__ import annotations

import re

from bot.chat_ref import ChatRef
from bot.telegram.delivery_commands import TELEGRAM_WORDS
from conversations.texts.deliveries_texts import short_ref
from conversations.texts.handoff_texts import WRONG_PHONE, not_own_contact
from tests.e2e.conftest import ADA, BOLA, CHIDI, OPERATORS, RECEIVER_PHONE, BotStack
from tests.support.words import SHIPPED

LINK = re.compile(r"https://t\.me/fake_delivery_bot\?start=otp_([A-Za-z0-9_-]+)")


async def paid_with_a_code(stack: BotStack) -> tuple[str, str, str]:
    """Ada orders for Bola and staff mark the fee paid: (delivery id, code, link token)."""
    delivery_id = await stack.order(ADA)
    before = len(stack.tg.sent_messages(ADA.id))
    stack.sandbox.mark_paid(delivery_id)
    await stack.sandbox.drain_webhooks()
    link = await stack.tg.wait_for_message(
        ADA.id, lambda m: LINK.search(m.text or "") is not None, after=before
    )
    code = stack.sandbox.otp_code(delivery_id)
    assert code is not None and link.text is not None
    match = LINK.search(link.text)
    assert match is not None
    return delivery_id, code, match[1]


def everything_sent_to(stack: BotStack, *chats: int) -> str:
    return "\n".join(m.text or "" for chat in chats for m in stack.tg.sent_messages(chat))


async def test_the_receiver_proves_their_phone_and_gets_the_code(stack: BotStack) -> None:
    delivery_id, code, token = await paid_with_a_code(stack)
    await stack.tg.wait_for_message(
        OPERATORS.id, lambda m: "waiting for the receiver" in (m.text or "")
    )

    (ask,) = await stack.command(BOLA, "start", f"otp_{token}")
    assert ask.text is not None and short_ref(delivery_id) in ask.text
    assert ask.reply_markup is not None
    assert ask.reply_markup["keyboard"][0][0]["request_contact"] is True

    (got,) = await stack.contact(BOLA, RECEIVER_PHONE.removeprefix("+"))
    assert got.text is not None and f" is {code}." in got.text
    handoff = await stack.bot.store.otp.get(delivery_id)
    assert (
        handoff is not None
        and handoff.delivered_chat == ChatRef("telegram", BOLA.id)
        and not handoff.pending
    )
    # The code went to Bola's chat only: not to Ada, who ordered, nor to the operators.
    assert code not in everything_sent_to(stack, ADA.id, OPERATORS.id)


async def test_whoever_cannot_prove_the_receivers_phone_gets_no_code(stack: BotStack) -> None:
    delivery_id, code, token = await paid_with_a_code(stack)
    await stack.command(CHIDI, "start", f"otp_{token}")
    (not_own,) = await stack.contact(CHIDI, RECEIVER_PHONE, user_id=BOLA.id)
    assert not_own.text == not_own_contact(SHIPPED, TELEGRAM_WORDS)
    (wrong,) = await stack.contact(CHIDI, "+2348035550000")
    assert wrong.text == WRONG_PHONE.render(SHIPPED)
    assert code not in everything_sent_to(stack, CHIDI.id, ADA.id, OPERATORS.id)
    handoff = await stack.bot.store.otp.get(delivery_id)
    assert handoff is not None and handoff.pending

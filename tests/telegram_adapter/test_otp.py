"""The receiver's OTP hand-off through PTB's real Application, the fake Telegram, the sandbox's
signed webhooks and the real relay: the code reaches only a chat that proved the receiver's
phone with its own contact."""

from __future__ import annotations

import re
from pathlib import Path

from bot.chat_ref import ChatRef, UserRef
from conversations.texts.deliveries_texts import short_ref
from tests.fakes import SentMessage, TgChat, TgUser

from .handler_world import (
    OPERATORS,
    RECEIVER,
    TO_CONVERSATION,
    HandlerWorld,
    handler_world,
    photo_proof_only,
)

ALICE = TgUser(1001, "Alice", username="alice")  # the customer; not the receiver
BOLA = TgUser(1003, "Bola")  # the receiver, +234 809 876 5432
DAVE = TgUser(1004, "Dave")  # someone the link reached by mistake
FRIENDS = TgChat.group(-100300, "Friends")
LINK = re.compile(r"https://t\.me/fake_delivery_bot\?start=otp_([A-Za-z0-9_-]+)")
# As Telegram clients send a contact's number: often without the "+".
RECEIVER_AS_SHARED = RECEIVER.removeprefix("+")
# The hand-off's sentences, word for word.
UNKNOWN_LINK = (
    "This drop-off code link is not valid any more: the delivery may be finished, or the "
    "link was copied incompletely. Please ask the sender for a new one."
)
ALREADY_SENT = "The drop-off code for this delivery was already sent to its receiver."
PRIVATE_ONLY = "Please open the link in a private chat with me: codes are never sent to groups."
NOT_OWN_CONTACT = (
    "That is someone else's contact. To get the code, share your own number with the "
    "“Share my contact” button below."
)
WRONG_PHONE = (
    "Sorry, your number is not the receiver's number for this delivery, so I can't send the "
    "code to you. If you are the receiver, ask the sender to check the receiver's number."
)


async def code_issued(world: HandlerWorld) -> tuple[str, str, str]:
    """Alice orders, staff mark the fee paid: (delivery id, the code, the link's token)."""
    delivery = await world.order(ALICE)
    world.sandbox.mark_paid(delivery.id)
    await world.settle()
    code = world.sandbox.otp_code(delivery.id)
    assert code is not None
    link = next(m for m in world.tg.sent_messages(ALICE.id) if m.text and LINK.search(m.text))
    assert link.text is not None and code not in link.text
    match = LINK.search(link.text)
    assert match is not None
    return delivery.id, code, match[1]


def texts(world: HandlerWorld, chat_id: int) -> list[str]:
    return [message.text or "" for message in world.tg.sent_messages(chat_id)]


def asks_for_contact(message: SentMessage) -> bool:
    keyboard = message.reply_markup or {}
    return [b.get("request_contact") for row in keyboard.get("keyboard", []) for b in row] == [True]


async def test_the_verified_receiver_gets_the_code_and_nobody_else_does(
    world: HandlerWorld,
) -> None:
    delivery_id, code, token = await code_issued(world)
    assert any("waiting for the receiver" in text for text in texts(world, OPERATORS.id))

    ask = await world.ask(world.tg.updates.command(BOLA, "start", f"otp_{token}"))
    assert ask.text is not None
    assert f"drop-off code for delivery {short_ref(delivery_id)}" in ask.text
    assert "share your own phone number" in ask.text
    assert asks_for_contact(ask)

    got = await world.ask(world.tg.updates.contact(BOLA, RECEIVER_AS_SHARED))
    assert got.text == (
        f"Your drop-off code for delivery {short_ref(delivery_id)} is {code}. "
        "Give it to the rider only once the package is in your hands."
    )
    assert got.reply_markup == {"remove_keyboard": True}
    handoff = await world.store.otp.get(delivery_id)
    assert handoff is not None and not handoff.pending
    assert handoff.delivered_chat == ChatRef("telegram", BOLA.id)
    assert await world.store.contacts.phone_for(UserRef("telegram", BOLA.id)) == RECEIVER
    for chat in (ALICE.id, OPERATORS.id):
        assert not any(code in text for text in texts(world, chat))


async def test_someone_elses_contact_is_refused_even_with_the_right_number(
    world: HandlerWorld,
) -> None:
    delivery_id, code, token = await code_issued(world)
    await world.ask(world.tg.updates.command(DAVE, "start", f"otp_{token}"))
    # Dave shares Bola's contact card: the number is right, but it is not Dave's own.
    refused = await world.ask(world.tg.updates.contact(DAVE, RECEIVER_AS_SHARED, user_id=BOLA.id))
    assert refused.text == NOT_OWN_CONTACT
    assert asks_for_contact(refused)
    not_a_user = await world.ask(world.tg.updates.contact(DAVE, RECEIVER_AS_SHARED, user_id=None))
    assert not_a_user.text == NOT_OWN_CONTACT
    assert not any(code in text for text in texts(world, DAVE.id))
    handoff = await world.store.otp.get(delivery_id)
    assert handoff is not None and handoff.pending
    assert await world.store.contacts.phone_for(UserRef("telegram", DAVE.id)) is None


async def test_an_own_contact_with_another_number_is_refused(world: HandlerWorld) -> None:
    delivery_id, code, token = await code_issued(world)
    await world.ask(world.tg.updates.command(DAVE, "start", f"otp_{token}"))
    refused = await world.ask(world.tg.updates.contact(DAVE, "+2348031234567"))
    assert refused.text == WRONG_PHONE
    assert not any(code in text for text in texts(world, DAVE.id))
    handoff = await world.store.otp.get(delivery_id)
    assert handoff is not None and handoff.pending
    # The hand-off is over for Dave: his next contact is the conversation's again.
    later = await world.ask(world.tg.updates.contact(DAVE, "+2348031234567"))
    assert later.text == TO_CONVERSATION


async def test_a_used_or_unknown_link_is_answered_kindly(world: HandlerWorld) -> None:
    _, _, token = await code_issued(world)
    await world.ask(world.tg.updates.command(BOLA, "start", f"otp_{token}"))
    await world.ask(world.tg.updates.contact(BOLA, RECEIVER_AS_SHARED))
    again = await world.ask(world.tg.updates.command(DAVE, "start", f"otp_{token}"))
    assert again.text == ALREADY_SENT
    unknown = await world.ask(world.tg.updates.command(DAVE, "start", "otp_" + "A" * 43))
    assert unknown.text == UNKNOWN_LINK
    garbled = await world.ask(world.tg.updates.command(DAVE, "start", "otp_<script>"))
    assert garbled.text == UNKNOWN_LINK


async def test_a_receiver_who_proved_the_number_before_gets_the_code_at_once(
    world: HandlerWorld,
) -> None:
    await world.store.contacts.record(
        UserRef("telegram", BOLA.id), RECEIVER, contact_user_id=BOLA.id
    )
    delivery_id, code, token = await code_issued(world)
    got = await world.ask(world.tg.updates.command(BOLA, "start", f"otp_{token}"))
    assert got.text is not None and code in got.text
    handoff = await world.store.otp.get(delivery_id)
    assert handoff is not None and not handoff.pending


async def test_the_phone_is_the_proof_the_link_only_an_invitation(world: HandlerWorld) -> None:
    # The bot restarted after Bola opened the link (nothing remembered): her contact still works.
    delivery_id, code, _ = await code_issued(world)
    got = await world.ask(world.tg.updates.contact(BOLA, RECEIVER_AS_SHARED))
    assert got.text is not None and code in got.text
    handoff = await world.store.otp.get(delivery_id)
    assert handoff is not None and handoff.delivered_chat == ChatRef("telegram", BOLA.id)


async def test_contacts_outside_a_hand_off_go_to_the_conversation(world: HandlerWorld) -> None:
    await code_issued(world)
    reply = await world.ask(world.tg.updates.contact(DAVE, "+2348031234567"))
    assert reply.text == TO_CONVERSATION
    someone_else = await world.ask(world.tg.updates.contact(DAVE, RECEIVER, user_id=BOLA.id))
    assert someone_else.text == TO_CONVERSATION


async def test_codes_are_never_handed_over_in_groups(world: HandlerWorld) -> None:
    _, code, token = await code_issued(world)
    opened = await world.ask(world.tg.updates.command(BOLA, "start", f"otp_{token}", chat=FRIENDS))
    assert opened.text == PRIVATE_ONLY
    shared = await world.ask(world.tg.updates.contact(BOLA, RECEIVER_AS_SHARED, chat=FRIENDS))
    assert shared.text == TO_CONVERSATION
    assert not any(code in text for text in texts(world, FRIENDS.id))


async def test_no_hand_off_when_the_business_uses_photo_proof(tmp_path: Path) -> None:
    async with handler_world(tmp_path, photo_proof_only) as world:
        delivery = await world.order(ALICE)
        world.sandbox.mark_paid(delivery.id)
        await world.settle()
        assert world.sandbox.otp_code(delivery.id) is None
        assert await world.store.otp.get(delivery.id) is None
        assert not any(LINK.search(text) for text in texts(world, ALICE.id))
        reply = await world.ask(world.tg.updates.contact(BOLA, RECEIVER_AS_SHARED))
        assert reply.text == TO_CONVERSATION


async def test_a_receiver_answering_her_own_order_gets_the_code_and_the_order_the_contact(
    world: HandlerWorld,
) -> None:
    _, code, _ = await code_issued(world)
    await world.ctx.chats.start(BOLA.chat, BOLA.user)  # Bola is ordering something herself
    world.tg.add_chat(BOLA)
    before = len(world.tg.sent_messages(BOLA.id))
    await world.ask(world.tg.updates.contact(BOLA, RECEIVER_AS_SHARED))
    replies = texts(world, BOLA.id)[before:]
    assert code in replies[0]
    assert replies[1:] == [TO_CONVERSATION]

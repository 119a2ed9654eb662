"""The drop-off code's hand-off on WhatsApp (``WhatsAppOtp``): the receiver sends the claim
the ``wa.me`` link typed in, and gets the code only when their WhatsApp number is the
delivery's ``receiver_phone`` (the core's ``ReceiverHandoffs`` decides, as on Telegram)."""

from __future__ import annotations

from urllib.parse import unquote

from bot.chat_ref import WHATSAPP, ChatRef
from bot.whatsapp.inbound import InboundMessage, Location, Text
from bot.whatsapp.otp import claim_token, display_digits
from conversations.texts.deliveries_texts import short_ref

from .conftest import DELIVERY, Sending

RECEIVER = "2348098765432"
RECEIVER_CHAT = ChatRef(WHATSAPP, int(RECEIVER))
CODE = "4821"


def from_(wa_id: str, body: str) -> InboundMessage:
    return InboundMessage("wamid.claim", wa_id, "Ada", 1_800_000_000, Text(body))


async def handed_off(sending: Sending, receiver_phone: str = "0809 876 5432") -> str:
    """The customer's delivery with its code kept for the receiver; the link's typed claim."""
    await sending.ordered()
    handoff = await sending.store.otp.put(DELIVERY, CODE, receiver_phone, 1_800_000_000)
    link = sending.otp.link(handoff.token)
    return unquote(link.split("?text=", 1)[1])


def test_the_claim_and_the_number_are_read_from_what_the_link_carries() -> None:
    assert claim_token("Please send me my drop-off code otp_" + "A1b2-_" * 4) == "A1b2-_" * 4
    assert claim_token("otp_short") is None and claim_token("hello") is None
    assert display_digits("+234 (1) 700-0000") == "23417000000"


async def test_the_receivers_own_number_gets_the_code_once(sending: Sending) -> None:
    claim = await handed_off(sending)
    sending.fake.customer_wrote(RECEIVER, sending.clock())  # the claim opened Meta's window

    assert await sending.otp.claim(from_(RECEIVER, claim))

    [code] = sending.fake.sent_to(RECEIVER)
    assert CODE in code.text and short_ref(DELIVERY) in code.text
    handoff = await sending.store.otp.get(DELIVERY)
    assert handoff is not None and not handoff.pending
    assert handoff.delivered_chat == RECEIVER_CHAT

    assert await sending.otp.claim(from_(RECEIVER, claim))  # again: already sent, no code
    assert CODE not in sending.fake.sent_to(RECEIVER)[-1].text


async def test_another_number_is_told_no_and_the_code_stays_for_the_receiver(
    sending: Sending,
) -> None:
    claim = await handed_off(sending)
    stranger = "2348011111111"
    sending.fake.customer_wrote(stranger, sending.clock())

    assert await sending.otp.claim(from_(stranger, claim))

    [refusal] = sending.fake.sent_to(stranger)
    assert CODE not in refusal.text
    handoff = await sending.store.otp.get(DELIVERY)
    assert handoff is not None and handoff.pending


async def test_a_message_without_a_claim_is_not_the_hand_offs(sending: Sending) -> None:
    await handed_off(sending)
    assert not await sending.otp.claim(from_(RECEIVER, "Where is my parcel?"))
    location = InboundMessage("wamid.x", RECEIVER, "Ada", 1, Location(6.45, 3.39))
    assert not await sending.otp.claim(location)
    assert sending.fake.sent() == []
